"""Vector envs: Gymnasium's sync/async wrappers and the native batched env."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import connectn_env
from connectn_env import IllegalActionError
from connectn_env.gym import BoardGameGymEnv, BoardGameVectorEnv

GAMES = [
    ("connectn_env/ConnectFour-v0", {}),
    ("connectn_env/TicTacToe-v0", {}),
    ("connectn_env/Gomoku-v0", {"size": 6, "rule": "standard"}),
    ("connectn_env/Hex-v0", {"size": 3, "swap": True}),
]


def lowest_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A deterministic callable opponent: the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])


def learner_actions(rng: np.random.Generator, masks: np.ndarray, p_any: float) -> np.ndarray:
    """Random legal actions, or (with probability ``p_any``, or on finished boards) any action."""
    actions = []
    for mask in masks:
        legal = np.flatnonzero(mask)
        if len(legal) == 0 or rng.random() < p_any:
            actions.append(rng.integers(len(mask)))
        else:
            actions.append(rng.choice(legal))
    return np.array(actions, dtype=np.int64)


def assert_same_data(a, b, where: str) -> None:
    if isinstance(a, tuple):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same_data(x, y, f"{where}[{k}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            assert_same_data(a[key], b[key], f"{where}[{key}]")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert a.shape == b.shape, where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert (x is None) == (y is None), f"{where}[{i}]"
            if x is not None:
                assert_same_data(x, y, f"{where}[{i}]")
    else:
        np.testing.assert_array_equal(a, b, err_msg=where)
        assert np.asarray(a).dtype == np.asarray(b).dtype, where


@pytest.mark.parametrize(("env_id", "kwargs"), GAMES)
@pytest.mark.parametrize("side", ["first", "second"])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_native_matches_sync_vector_of_single_envs(env_id, kwargs, side, mode):
    options = {**kwargs, "opponent": lowest_legal, "learner_side": side}
    reference = gym.make_vec(
        env_id, num_envs=5, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode},
        **options,
    )  # fmt: skip
    native = gym.make_vec(env_id, num_envs=5, autoreset_mode=mode, **options)
    assert isinstance(native, BoardGameVectorEnv)
    assert native.metadata["autoreset_mode"] == mode
    assert native.single_observation_space == reference.single_observation_space
    assert native.action_space == reference.action_space
    rng = np.random.default_rng(0)
    results = [env.reset(seed=1) for env in (reference, native)]
    assert_same_data(results[0], results[1], "reset")
    episodes = 0
    for step in range(120):
        actions = learner_actions(rng, results[1][-1]["action_mask"], p_any=0.05)
        results = [env.step(actions) for env in (reference, native)]
        assert_same_data(results[0], results[1], f"step {step}")
        np.testing.assert_array_equal(native.action_masks(), results[1][4]["action_mask"])
        episodes += int(results[1][2].sum())
    assert episodes >= 10


OPPONENTS = [
    {"opponent": "random"},
    {"opponent": "mcts", "opponent_kwargs": {"simulations": 16}},  # compiled UCT
    {"opponent": "mcts", "opponent_kwargs": {"simulations": 16, "rave": True}},  # Python agent
]


@pytest.mark.parametrize(
    ("env_id", "kwargs", "side", "opponent"),
    [(*game, side, OPPONENTS[0]) for game in GAMES for side in ("first", "second", "random")]
    + [(*game, "random", opponent) for game in GAMES[::3] for opponent in OPPONENTS[1:]],
)
def test_native_vector_env_replays_in_single_env(env_id, kwargs, side, opponent):
    """Every episode of the native env, replayed with its opponent's moves scripted in a
    single env, gives the same observations, rewards, terminations and masks."""
    native = gym.make_vec(env_id, num_envs=4, learner_side=side, **kwargs, **opponent)
    obs, info = native.reset(seed=7)
    rng = np.random.default_rng(1)
    # Per board: the (obs, mask, reward, terminated) seen so far and the learner's actions.
    seen = [[(obs[i], info["action_mask"][i], 0.0, False)] for i in range(4)]
    played: list[list[int]] = [[] for _ in range(4)]
    starting = np.zeros(4, dtype=bool)
    checked = 0
    for _ in range(100):
        actions = learner_actions(rng, info["action_mask"], p_any=0.03)
        obs, rewards, terminated, truncated, info = native.step(actions)
        assert not truncated.any()
        for i in range(4):
            if starting[i]:  # next-step autoreset: this step started a new episode
                seen[i], played[i] = [(obs[i], info["action_mask"][i], 0.0, False)], []
                continue
            played[i].append(int(actions[i]))
            seen[i].append((obs[i], info["action_mask"][i], rewards[i], bool(terminated[i])))
            if terminated[i]:
                replay_episode(native, i, seen[i], played[i])
                checked += 1
        starting = terminated
    assert checked >= 8


def replay_episode(native: BoardGameVectorEnv, index: int, seen: list, played: list) -> None:
    history = native.game_state(index).history()
    learner = int(native.learners[index])
    opponent_moves = iter([a for j, a in enumerate(history) if j % 2 != learner])
    single = BoardGameGymEnv(
        native.game,
        opponent=lambda obs, mask: next(opponent_moves),
        learner_side=("first", "second")[learner],
    )
    obs, info = single.reset(seed=0)
    replayed = [(obs, info["action_mask"], 0.0, False)]
    for action in played:
        obs, reward, terminated, _, info = single.step(action)
        replayed.append((obs, info["action_mask"], reward, terminated))
    assert len(replayed) == len(seen)
    for mine, theirs in zip(replayed, seen, strict=True):
        np.testing.assert_array_equal(mine[0], theirs[0])
        np.testing.assert_array_equal(mine[1], theirs[1])
        assert mine[2:] == theirs[2:]
    assert single.game_state.history() == history


def test_native_next_step_autoreset_ignores_the_action_of_a_finished_board():
    env = gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2, opponent=lowest_legal)
    env.reset(seed=0)
    env.step(np.array([8, 4]))  # the opponent replies 0, 1, 2 on board 0 and wins
    env.step(np.array([7, 8]))
    _, rewards, terminated, *_ = env.step(np.array([3, 2]))
    assert rewards.tolist() == [-1.0, 0.0] and terminated.tolist() == [True, False]
    assert not env.action_masks()[0].any()
    obs, rewards, terminated, *_ = env.step(np.array([0, 6]))
    assert rewards[0] == 0.0 and not terminated[0] and not obs[0].any()
    assert env.action_masks()[0].all()


def test_native_same_step_reports_final_observation():
    env = gym.make_vec(
        "connectn_env/TicTacToe-v0", num_envs=2, opponent=lowest_legal, autoreset_mode="SameStep"
    )
    env.reset(seed=0)
    env.step(np.array([8, 4]))
    env.step(np.array([7, 8]))
    obs, rewards, terminated, _, info = env.step(np.array([3, 2]))
    assert terminated.tolist() == [True, False] and rewards[0] == -1.0
    assert not obs[0].any() and info["action_mask"][0].all()
    assert info["_final_obs"].tolist() == [True, False]
    assert info["final_obs"][0][0, :, 1].tolist() == [1, 1, 1]
    assert info["final_info"]["_action_mask"].tolist() == [True, False]


def test_native_seeding_and_reset_mask():
    def run(env, seed):
        obs, info = env.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(0)
        for _ in range(30):
            obs, rewards, *_, info = env.step(learner_actions(rng, info["action_mask"], 0.0))
            out += [obs, rewards]
        return out

    def make() -> gym.vector.VectorEnv:
        return gym.make_vec("connectn_env/Hex-v0", num_envs=3, size=4, learner_side="random")

    a, b, c = run(make(), 5), run(make(), 5), run(make(), 6)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert any(not np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    env = make()
    env.reset(seed=[1, None, 3])
    env.step(np.array([0, 0, 0]))
    obs, info = env.reset(options={"reset_mask": np.array([True, False, False])})
    assert obs[0].sum() == env.learners[0] and obs[1].sum() > 0
    assert info["_action_mask"].tolist() == [True, False, False]


def test_native_illegal_actions():
    env = gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2, opponent=lowest_legal)
    env.reset(seed=0)
    env.step(np.array([4, 4]))
    _, rewards, terminated, _, info = env.step(np.array([0, 8]))
    assert rewards.tolist() == [-1.0, 0.0] and terminated.tolist() == [True, False]
    assert info["illegal_action"].tolist() == [True, False]
    strict = gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2, illegal_action="raise")
    strict.reset(seed=0)
    strict.step(np.array([4, 4]))
    before = [strict.game_state(i) for i in range(2)]
    with pytest.raises(IllegalActionError, match="board 1"):
        strict.step(np.array([np.flatnonzero(strict.action_masks()[0])[0], 4]))
    assert [strict.game_state(i) for i in range(2)] == before


@pytest.mark.parametrize(
    ("actions", "error"),
    [
        (np.array([0.0, 1.0]), TypeError),
        (np.array([0, 1, 2]), ValueError),
        (np.array([0, 9]), ValueError),
        (np.array([-1, 0]), ValueError),
    ],
)
def test_native_bad_actions(actions, error):
    env = gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2)
    env.reset(seed=0)
    with pytest.raises(error):
        env.step(actions)
    assert all(env.game_state(i).history() == [] for i in range(2))


def test_native_python_opponent_failure_restores_every_board():
    env = gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2, opponent=lambda o, m: 4)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="opponent"):
        env.step(np.array([0, 4]))
    assert [env.game_state(i).history() for i in range(2)] == [[], []]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"num_envs": 0}, ValueError),
        ({"num_envs": 2.0}, TypeError),
        ({"autoreset_mode": "Disabled"}, ValueError),
        ({"render_mode": "human"}, ValueError),
        ({"learner_side": "middle"}, ValueError),
    ],
)
def test_native_bad_arguments(kwargs, error):
    with pytest.raises(error):
        BoardGameVectorEnv(connectn_env.tictactoe(), **kwargs)


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))])
def test_native_copies_continue_identically(copier):
    env = gym.make_vec("connectn_env/ConnectFour-v0", num_envs=3, learner_side="random")
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(5):
        *_, info = env.step(learner_actions(rng, info["action_mask"], 0.0))
    clone = copier(env)
    for _ in range(20):
        actions = learner_actions(rng, info["action_mask"], 0.0)
        results = [e.step(actions) for e in (env, clone)]
        assert_same_data(results[0], results[1], "copy")
        info = results[0][4]


def test_native_render_ansi():
    env = gym.make_vec("connectn_env/Hex-v0", num_envs=2, size=3, render_mode="ansi")
    env.reset(seed=0)
    frames = env.render()
    assert len(frames) == 2 and all(isinstance(f, str) for f in frames)
    env.close()
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_wrappers(mode):
    env = gym.make_vec(
        "connectn_env/ConnectFour-v0", num_envs=3, vectorization_mode=mode, learner_side="random"
    )
    obs, info = env.reset(seed=0)
    assert obs.shape == (3, 6, 7, 2) and info["action_mask"].shape == (3, 7)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(40):
        obs, _, terminated, truncated, info = env.step(
            learner_actions(rng, info["action_mask"], 0.0)
        )
        finished += int(terminated.sum())
        assert not truncated.any()
    assert finished > 0
    masks = env.call("action_masks")
    assert len(masks) == 3 and all(m.shape == (7,) for m in masks)
    env.close()
