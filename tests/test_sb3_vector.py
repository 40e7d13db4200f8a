"""SB3VectorEnv: the native vector env as a stable-baselines3 VecEnv (same-step resets,
masks for MaskablePPO, a self-play pool reached by the callback), and its bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

import connectn_env  # noqa: F401  (registers the ids)
from connectn_env.gym import SB3VectorEnv, SelfPlayCallback, SelfPlayOpponent

CONNECT_FOUR = "connectn_env/ConnectFour-v0"


def native(num_envs: int = 4, **kwargs):
    return gym.make_vec(CONNECT_FOUR, num_envs=num_envs, autoreset_mode="SameStep", **kwargs)


def test_maskable_ppo_trains_by_self_play_on_the_native_boards():
    torch.set_num_threads(1)
    venv = VecMonitor(SB3VectorEnv(native(opponent="self", learner_side="random")))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=2, seed=0)
    callback = SelfPlayCallback(every_steps=100)
    model.learn(384, callback=callback)
    assert callback.snapshot_steps == [100, 200, 300]
    assert callback.pools == [venv.venv.env.self_play]
    assert len(callback.pools[0].snapshots) == 3


def test_steps_reset_finished_boards_at_once_and_keep_their_last_observation():
    venv = SB3VectorEnv(native())
    venv.seed(7)
    observations = venv.reset()
    assert observations.shape == (4, 6, 7, 2) and observations.dtype == np.int8
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        masks = np.stack(venv.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        observations, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        for i in np.flatnonzero(dones):
            finished += 1
            assert infos[i]["terminal_observation"].sum() >= 7  # a game's last position
            assert observations[i].sum() == 0  # a fresh board (the learner moves first)
            assert rewards[i] in (-1.0, 0.0, 1.0)
    assert finished > 4


def test_an_illegal_action_ends_the_episode_and_says_so():
    venv = SB3VectorEnv(gym.make_vec("connectn_env/TicTacToe-v0", 2, autoreset_mode="SameStep"))
    venv.reset()
    _, _, dones, infos = venv.step(np.array([0, 0]))
    assert not dones.any()
    _, rewards, dones, infos = venv.step(np.array([0, 0]))  # cell 0 is taken
    assert dones.all() and (rewards == -1).all()
    assert all(info["illegal_action"] is True for info in infos)


def test_seed_then_reset_matches_the_native_env_seeded_alike():
    venv = SB3VectorEnv(native(learner_side="random"))
    venv.seed(11)
    other = native(learner_side="random")
    first, _ = other.reset(seed=11)
    np.testing.assert_array_equal(venv.reset(), first)
    actions = np.zeros(4, dtype=np.int64)
    np.testing.assert_array_equal(venv.step(actions)[0], other.step(actions)[0])


def test_masks_and_attributes():
    pool = SelfPlayOpponent()
    venv = SB3VectorEnv(native(opponent=pool))
    venv.reset()
    masks = venv.env_method("action_masks")
    np.testing.assert_array_equal(np.stack(masks), venv.env.action_masks())
    assert venv.env_method("action_masks", indices=[2])[0].shape == (7,)
    assert venv.get_attr("self_play") == [pool] * 4
    assert venv.env_is_wrapped(VecMonitor) == [False] * 4
    with pytest.raises(AttributeError, match=r"env_method\('render'\) is not supported"):
        venv.env_method("render")
    with pytest.raises(AttributeError, match=r"set_attr\('learner_side'\) is not supported"):
        venv.set_attr("learner_side", "second")


def test_bad_envs_are_refused():
    with pytest.raises(TypeError, match=r"env must be a BoardGameVectorEnv .* got .* of type"):
        SB3VectorEnv(gym.make(CONNECT_FOUR))
    with pytest.raises(ValueError, match=r"autoreset_mode='SameStep', got 'NextStep'"):
        SB3VectorEnv(gym.make_vec(CONNECT_FOUR, num_envs=2))
