"""The single-agent Gymnasium envs: API checks, episode semantics, seeding, copying, errors."""

from __future__ import annotations

import copy
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import connectn_env
from connectn_env import ConnectNGame, IllegalActionError
from connectn_env.gym import BoardGameGymEnv


def lowest_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A deterministic callable opponent: the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])


class LowestLegalAgent:
    """A minimal agent of the ``agents`` API: ``act(env)`` on a PettingZoo AEC env."""

    def __init__(self) -> None:
        self.seeds: list[int] = []
        self.positions: list[list[int]] = []

    def seed(self, seed: int) -> None:
        self.seeds.append(seed)

    def act(self, env) -> int:
        self.positions.append(env.unwrapped.game_state.history())
        mask = env.observe(env.agent_selection)["action_mask"]
        return int(np.flatnonzero(mask)[0])


def assert_check_env_clean(env_id: str, *, render: bool = False, **kwargs) -> None:
    env = gym.make(env_id, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=not render)
    env.close()
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("env_id", list(connectn_env.GYM_ENVS))
def test_check_env_every_id_with_render_modes(env_id):
    assert_check_env_clean(env_id, render=True)


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("connectn_env/ConnectFour-v0", {"learner_side": "second"}),
        ("connectn_env/ConnectFour-v0", {"learner_side": "random"}),
        ("connectn_env/ConnectFour-v0", {"opponent": lowest_legal}),
        ("connectn_env/TicTacToe-v0", {"opponent": LowestLegalAgent(), "learner_side": "second"}),
        ("connectn_env/ConnectN-v0", {"rows": 2, "cols": 2, "n": 2, "gravity": False}),
        ("connectn_env/ConnectN-v0", {"rows": 1, "cols": 3, "n": 1}),
        ("connectn_env/Gomoku-v0", {"size": 5, "rule": "standard", "learner_side": "random"}),
        ("connectn_env/Hex-v0", {"size": 2, "learner_side": "second"}),
        ("connectn_env/Hex-v0", {"size": 3, "swap": True, "learner_side": "second"}),
        ("connectn_env/ConnectFour-v0", {"illegal_action": "raise", "render_mode": "ansi"}),
        (
            "connectn_env/ConnectFour-v0",
            {"opponent": "mcts", "opponent_kwargs": {"simulations": 20}, "learner_side": "random"},
        ),
        (
            "connectn_env/Hex-v0",
            {"size": 5, "opponent": "mcts", "opponent_kwargs": {"simulations": 8}},
        ),
    ],
)
def test_check_env_parameter_sets(env_id, kwargs):
    assert_check_env_clean(env_id, **kwargs)


def test_learner_first_episode_against_a_scripted_opponent():
    env = BoardGameGymEnv(ConnectNGame(), opponent=lowest_legal)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.int8 and obs.shape == (6, 7, 2) and not obs.any()
    np.testing.assert_array_equal(info["action_mask"], np.ones(7, dtype=np.int8))
    # The learner stacks column 6; the opponent fills column 0 from the bottom and wins.
    for move in range(3):
        obs, reward, terminated, truncated, info = env.step(6)
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert obs[5 - move, 6, 0] == 1 and obs[5 - move, 0, 1] == 1
        assert obs[..., 0].sum() == obs[..., 1].sum() == move + 1
    obs, reward, terminated, truncated, info = env.step(5)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert obs[2:, 0, 1].all()
    np.testing.assert_array_equal(info["action_mask"], np.zeros(7, dtype=np.int8))
    assert env.game_state.winner == 1


def test_learner_win_and_draw_rewards():
    env = BoardGameGymEnv(ConnectNGame(), opponent=lowest_legal)
    env.reset(seed=0)
    results = [env.step(6) for _ in range(4)]
    assert [r[1] for r in results] == [0.0, 0.0, 0.0, 1.0] and results[-1][2]
    draw_env = BoardGameGymEnv(ConnectNGame(rows=1, cols=2, n=2), opponent=lowest_legal)
    draw_env.reset(seed=0)
    assert draw_env.step(1)[1:3] == (0.0, True)


def test_learner_second_sees_the_opening_move():
    env = BoardGameGymEnv(ConnectNGame(), opponent=lowest_legal, learner_side="second")
    obs, _ = env.reset(seed=0)
    assert env.learner == 1
    assert obs[5, 0, 1] == 1 and obs.sum() == 1
    obs, *_ = env.step(3)
    assert obs[5, 3, 0] == 1 and obs[4, 0, 1] == 1


def test_callable_opponent_gets_its_own_view():
    seen = []

    def spy(observation, action_mask):
        seen.append((observation.copy(), action_mask.copy()))
        return lowest_legal(observation, action_mask)

    env = BoardGameGymEnv(connectn_env.tictactoe(), opponent=spy)
    env.reset(seed=0)
    env.step(4)
    observation, mask = seen[-1]
    assert observation.dtype == np.int8 and mask.dtype == np.int8
    assert observation[1, 1, 1] == 1 and observation[..., 0].sum() == 0
    assert mask[4] == 0 and mask.sum() == 8


def test_agent_opponent_sees_the_position_and_is_seeded():
    agent = LowestLegalAgent()
    env = BoardGameGymEnv(connectn_env.tictactoe(), opponent=agent)
    env.reset(seed=5)
    env.step(4)
    env.step(8)
    assert agent.positions == [[4], [4, 0, 8]]
    env.reset(seed=5)
    env.reset(seed=5)
    assert len(agent.seeds) == 3 and agent.seeds[1] == agent.seeds[2]
    env.step(2)
    assert agent.positions[-1] == [2]


def random_learner_returns(env: gym.Env, episodes: int, seed: int) -> list[float]:
    rng = np.random.default_rng(seed)
    returns = []
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        terminated = False
        while not terminated:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, reward, terminated, _, info = env.step(action)
        returns.append(reward)
    return returns


def test_mcts_opponent_is_strong_and_seeded():
    env = gym.make(
        "connectn_env/ConnectFour-v0",
        opponent="mcts",
        opponent_kwargs={"simulations": 100},
        learner_side="random",
    )
    returns = random_learner_returns(env, episodes=10, seed=0)
    assert returns.count(-1.0) >= 9
    histories = []
    for _ in range(2):
        random_learner_returns(env, episodes=1, seed=5)
        histories.append(env.unwrapped.game_state.history())
    assert histories[0] == histories[1]


@pytest.mark.parametrize(
    ("opponent_kwargs", "error"),
    [({"seed": 1}, ValueError), ({"simulations": 0}, ValueError), ({"budget": 9}, TypeError)],
)
def test_bad_mcts_opponent_kwargs(opponent_kwargs, error):
    with pytest.raises(error):
        BoardGameGymEnv(ConnectNGame(), opponent="mcts", opponent_kwargs=opponent_kwargs)


def test_random_side_uses_both_sides_and_is_seeded():
    env = BoardGameGymEnv(ConnectNGame(), learner_side="random")
    sides = []
    for seed in range(40):
        env.reset(seed=seed)
        sides.append(env.learner)
    assert set(sides) == {0, 1}
    again = []
    for seed in range(40):
        env.reset(seed=seed)
        again.append(env.learner)
    assert again == sides


def play(env: gym.Env, seed: int, actions_rng_seed: int) -> list:
    """Trajectory of random legal learner actions over a few episodes after reset(seed)."""
    rng = np.random.default_rng(actions_rng_seed)
    obs, info = env.reset(seed=seed)
    trajectory = [obs]
    for _ in range(60):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, _, info = env.step(action)
        trajectory += [action, obs, reward]
        if terminated:
            obs, info = env.reset()
            trajectory.append(obs)
    return trajectory


def assert_same_trajectory(a: list, b: list) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_same_seed_same_episodes_different_seed_different_episodes():
    def make() -> gym.Env:
        return gym.make("connectn_env/ConnectFour-v0", learner_side="random")

    first = play(make(), seed=11, actions_rng_seed=0)
    assert_same_trajectory(first, play(make(), seed=11, actions_rng_seed=0))
    other = play(make(), seed=12, actions_rng_seed=0)
    assert any(not np.array_equal(x, y) for x, y in zip(first, other, strict=False)), (
        "a different seed should change the opponent's moves or the sides"
    )


def test_illegal_action_loses_by_default():
    env = BoardGameGymEnv(connectn_env.tictactoe(), opponent=lowest_legal)
    env.reset(seed=0)
    env.step(4)  # the opponent takes 0
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] is True
    assert not info["action_mask"].any() and not env.action_masks().any()
    assert obs.sum() == 2 and env.game_state.history() == [4, 0]  # the board is unchanged
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)


def test_illegal_action_raise_leaves_the_env_unchanged():
    env = BoardGameGymEnv(connectn_env.tictactoe(), opponent=lowest_legal, illegal_action="raise")
    env.reset(seed=0)
    env.step(4)
    history = env.game_state.history()
    with pytest.raises(IllegalActionError, match="occupied"):
        env.step(0)
    assert env.game_state.history() == history
    env.step(8)
    assert env.game_state.history() == [*history, 8, 1]


@pytest.mark.parametrize(
    ("action", "error"),
    [(1.0, TypeError), ("3", TypeError), (True, TypeError), (None, TypeError), (7, ValueError),
     (-1, ValueError)],
)  # fmt: skip
def test_bad_actions_raise_and_change_nothing(action, error):
    env = BoardGameGymEnv(ConnectNGame())
    env.reset(seed=0)
    with pytest.raises(error):
        env.step(action)
    assert env.game_state.history() == []


def test_numpy_actions_are_accepted():
    env = BoardGameGymEnv(ConnectNGame(), opponent=lowest_legal)
    env.reset(seed=0)
    env.step(np.int32(3))
    env.step(np.array(3, dtype=np.int64))
    assert env.game_state.history() == [3, 0, 3, 0]


def test_an_illegal_opponent_move_raises_and_restores():
    env = BoardGameGymEnv(connectn_env.tictactoe(), opponent=lambda obs, mask: 4)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="opponent"):
        env.step(4)
    assert env.game_state.history() == []
    env.step(0)
    assert env.game_state.history() == [0, 4]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"learner_side": "left"}, ValueError, "learner_side"),
        ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
        ({"render_mode": "window"}, ValueError, "render_mode"),
        ({"opponent": "alphazero"}, ValueError, "opponent"),
        ({"opponent": 3}, TypeError, "opponent"),
        ({"opponent_kwargs": {"simulations": 5}}, ValueError, "opponent_kwargs"),
        ({"opponent": "mcts", "opponent_kwargs": [1]}, TypeError, "opponent_kwargs"),
    ],
)
def test_bad_constructor_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        BoardGameGymEnv(ConnectNGame(), **kwargs)


def test_an_opponent_spec_is_checked_against_the_game_when_the_env_is_made():
    message = r"^the perfect player plays Connect Four .* only, not ConnectNGame\(rows=3, cols=3"
    with pytest.raises(ValueError, match=message):
        gym.make("connectn_env/TicTacToe-v0", opponent="perfect")
    with pytest.raises(ValueError, match=message):
        gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2, opponent="perfect")
    env = gym.make("connectn_env/ConnectFour-v0", opponent="perfect")
    env.reset(seed=0)
    env.step(3)
    assert env.unwrapped.game_state.history() == [3, 3]  # the only winning reply


def test_learner_second_refused_when_the_opening_move_ends_the_game():
    with pytest.raises(ValueError, match="opening move"):
        BoardGameGymEnv(ConnectNGame(rows=1, cols=3, n=1), learner_side="random")
    with pytest.raises(ValueError, match="opening move"):
        gym.make("connectn_env/Hex-v0", rows=1, cols=4, learner_side="second")


def test_reset_options():
    env = BoardGameGymEnv(ConnectNGame())
    env.reset(options={})
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"learner_side": "second"})


def test_masks_through_wrappers_are_new_arrays():
    env = gym.make("connectn_env/ConnectFour-v0", opponent=lowest_legal)
    _, info = env.reset(seed=0)
    masks = env.get_wrapper_attr("action_masks")
    first, second = masks(), masks()
    assert first is not second and first is not info["action_mask"]
    np.testing.assert_array_equal(first, info["action_mask"])
    for _ in range(3):
        env.step(0)  # with the opponent's replies, column 0 is full
    assert masks().tolist() == [0, 1, 1, 1, 1, 1, 1]


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))])
def test_copies_keep_the_position_and_the_generators(copier):
    env = gym.make("connectn_env/Gomoku-v0", size=7, learner_side="random", render_mode="ansi")
    env.reset(seed=3)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.unwrapped.action_masks())[-1]))
    clone = copier(env)
    assert clone.unwrapped.game_state == env.unwrapped.game_state
    assert clone.render() == env.render()
    for _ in range(3):
        action = int(np.flatnonzero(env.unwrapped.action_masks())[-1])
        results = [e.step(action) for e in (env, clone)]
        np.testing.assert_array_equal(results[0][0], results[1][0])
    assert clone.unwrapped.game_state == env.unwrapped.game_state
    assert len(env.unwrapped.game_state.history()) >= 11


def test_render_ansi_and_close():
    env = gym.make("connectn_env/TicTacToe-v0", render_mode="ansi")
    env.reset(seed=0)
    env.step(4)
    text = env.render()
    assert isinstance(text, str) and "X" in text and "O" in text
    env.close()
    env.close()


def test_render_without_mode_warns():
    env = BoardGameGymEnv(ConnectNGame())
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None
