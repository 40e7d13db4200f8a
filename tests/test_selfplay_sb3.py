"""SelfPlayCallback: snapshots of a PPO / MaskablePPO policy at the right steps, frozen, in
every pool of the model's envs; bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3 import DQN, PPO
from stable_baselines3.common.env_util import make_vec_env

import connectn_env  # noqa: F401  (registers the ids)
from connectn_env.gym import SelfPlayCallback, SelfPlayOpponent
from connectn_env.gym.selfplay_sb3 import SB3PolicySnapshot

TICTACTOE = "connectn_env/TicTacToe-v0"
SMALL = {"n_steps": 64, "batch_size": 64, "n_epochs": 2, "seed": 0}


@pytest.fixture(autouse=True)
def one_thread():
    torch.set_num_threads(1)


def test_ppo_gets_a_snapshot_every_n_steps():
    pool = SelfPlayOpponent(pool_size=2)
    venv = make_vec_env(TICTACTOE, n_envs=1, seed=0, env_kwargs={"opponent": pool})
    model = PPO("MlpPolicy", venv, **SMALL)
    callback = SelfPlayCallback(pool, every_steps=100)
    model.learn(320, callback=callback)
    assert callback.snapshot_steps == [100, 200, 300]
    assert [s.step for s in pool.snapshots] == [200, 300] and pool.added == 3
    assert callback.pools == [pool]
    model.learn(200, callback=callback, reset_num_timesteps=False)  # 384 steps to 576
    assert callback.snapshot_steps == [100, 200, 300, 400, 500]


def test_maskable_ppo_fills_every_pool_of_envs_made_with_opponent_self():
    env_kwargs = {"opponent": "self", "learner_side": "random"}
    venv = make_vec_env(TICTACTOE, n_envs=2, seed=0, env_kwargs=env_kwargs)
    model = MaskablePPO("MlpPolicy", venv, **SMALL)
    callback = SelfPlayCallback(every_steps=64)
    model.learn(256, callback=callback)
    assert callback.snapshot_steps == [64, 128, 192, 256]  # two envs: 2 steps per call
    pools = venv.get_attr("self_play")
    assert len(callback.pools) == 2 and {id(p) for p in pools} == {id(p) for p in callback.pools}
    assert pools[0].snapshots == pools[1].snapshots  # the same frozen copies
    assert all(isinstance(s, SB3PolicySnapshot) for s in pools[0].snapshots)


def log_softmax(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def test_a_snapshot_is_frozen_while_the_learner_trains():
    pool = SelfPlayOpponent(latest_probability=1.0, deterministic=True)
    venv = make_vec_env(TICTACTOE, n_envs=2, seed=0, env_kwargs={"opponent": pool})
    model = MaskablePPO("MlpPolicy", venv, learning_rate=3e-3, **SMALL)
    callback = SelfPlayCallback(pool, every_steps=10**6)
    model.learn(128, callback=callback)
    snapshot = callback.take_snapshot()  # the weights after that training
    assert pool.snapshots == (snapshot,) and snapshot.step == 128
    env = gym.make(TICTACTOE, learner_side="random")
    observations, masks = [], []
    for seed in range(20):
        observation, info = env.reset(seed=seed)
        observations.append(observation)
        masks.append(info["action_mask"])
    observations, masks = np.array(observations), np.array(masks)

    def live_logits() -> np.ndarray:
        tensor, _ = model.policy.obs_to_tensor(observations)
        with torch.no_grad():
            return model.policy.get_distribution(tensor).distribution.logits.numpy()

    before, live_before = snapshot.logits(observations, masks), live_logits()
    np.testing.assert_allclose(log_softmax(before), live_before, rtol=1e-5, atol=1e-5)
    seat = pool.seat()
    seat.reset(0)
    states = [env.unwrapped.game.new_initial_state() for _ in range(3)]
    moves = pool.act_batch([seat] * 3, states)
    model.learn(512, reset_num_timesteps=False)  # no callback: no new snapshot
    assert np.abs(live_logits() - live_before).max() > 1e-3  # the learner changed
    np.testing.assert_array_equal(snapshot.logits(observations, masks), before)
    seat.reset(0)
    assert seat.snapshot is snapshot and pool.act_batch([seat] * 3, states) == moves


def test_two_snapshots_take_turns_in_the_shared_evaluator():
    pool = SelfPlayOpponent()
    venv = make_vec_env(TICTACTOE, n_envs=1, seed=0, env_kwargs={"opponent": pool})
    model = PPO("MlpPolicy", venv, learning_rate=3e-3, **SMALL)
    callback = SelfPlayCallback(pool, every_steps=64)
    model.learn(64 * 8, callback=callback)
    first, last = pool.snapshots[0], pool.snapshots[-1]
    assert len(first.weights) == 6  # the actor's two layers and head: no critic
    observations = np.zeros((1, 3, 3, 2), dtype=np.int8)
    masks = np.ones((1, 9), dtype=np.int8)
    a = first.logits(observations, masks)
    b = last.logits(observations, masks)
    assert np.abs(a - b).max() > 1e-4
    np.testing.assert_array_equal(first.logits(observations, masks), a)


# --- bad input -----------------------------------------------------------------------------


def test_bad_callback_arguments():
    with pytest.raises(ValueError, match="every_steps must be at least 1, got 0"):
        SelfPlayCallback(every_steps=0)
    with pytest.raises(TypeError, match=r"every_steps must be an int, got 1\.5"):
        SelfPlayCallback(every_steps=1.5)
    with pytest.raises(TypeError, match="opponent must be a SelfPlayOpponent or None, got 'self'"):
        SelfPlayCallback("self", every_steps=10)


def test_learn_refuses_envs_without_the_pool():
    venv = make_vec_env(TICTACTOE, n_envs=1, seed=0)  # a random opponent
    model = PPO("MlpPolicy", venv, **SMALL)
    with pytest.raises(ValueError, match="no env of the model plays self-play"):
        model.learn(64, callback=SelfPlayCallback(every_steps=10))
    pool = SelfPlayOpponent()
    with pytest.raises(ValueError, match=r"no env of the model plays against SelfPlayOpponent"):
        model.learn(64, callback=SelfPlayCallback(pool, every_steps=10))
    assert len(pool.snapshots) == 0


def test_learn_refuses_a_policy_without_a_distribution():
    venv = make_vec_env(TICTACTOE, n_envs=1, seed=0, env_kwargs={"opponent": "self"})
    model = DQN("MlpPolicy", venv, learning_starts=0, buffer_size=100, seed=0)
    with pytest.raises(TypeError, match=r"needs an actor-critic policy .* got DQNPolicy"):
        model.learn(10, callback=SelfPlayCallback(every_steps=5))
