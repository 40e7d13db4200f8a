"""An MCTS agent of ``agents`` as the built-in opponent inside a MaskablePPO training run."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env

import connectn_env  # noqa: F401  (registers the ids)

pytestmark = pytest.mark.slow


def test_maskable_ppo_trains_against_an_mcts_opponent():
    torch.set_num_threads(1)
    env_kwargs = {
        "opponent": "mcts",
        "opponent_kwargs": {"simulations": 50},
        "learner_side": "random",
    }
    train_env = make_vec_env("connectn_env/ConnectFour-v0", n_envs=2, seed=0, env_kwargs=env_kwargs)
    eval_env = make_vec_env("connectn_env/ConnectFour-v0", n_envs=1, seed=9, env_kwargs=env_kwargs)
    model = MaskablePPO("MlpPolicy", train_env, n_steps=256, batch_size=128, n_epochs=2, seed=0)
    model.learn(2048)
    assert model.num_timesteps >= 2048
    rewards, lengths = evaluate_policy(
        model, eval_env, n_eval_episodes=20, use_masking=True, return_episode_rewards=True
    )
    assert len(rewards) == 20 and set(rewards) <= {-1.0, 0.0, 1.0}
    # The opponent really is the search agent: a barely trained policy loses most games
    # (against the random opponent it scores about 0).
    assert np.mean(rewards) < -0.5, rewards
    assert min(lengths) >= 3  # nobody wins Connect Four before their fourth stone
