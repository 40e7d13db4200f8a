"""The self-play opponent (``opponent="self"``, :class:`SelfPlayOpponent`): legal moves from
the opponent's own side, the pool and its draw rule, seeding, the native vector env, bad
input. The SB3 callback is tested in ``test_selfplay_sb3.py``."""

from __future__ import annotations

import re
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from pythonpath_helpers import child_environment

import connectn_env  # noqa: F401  (registers the ids)
from connectn_env import IllegalActionError
from connectn_env.gym import SelfPlayOpponent

GAMES = ["connectn_env/ConnectFour-v0", "connectn_env/TicTacToe-v0", "connectn_env/Othello-v0"]


class Recorder:
    """A snapshot with scores that prefer illegal actions (masking must overrule them); it
    records every batch it is asked about."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        self.calls.append((observations.copy(), action_masks.copy()))
        noise = self.rng.random(action_masks.shape)
        return 100.0 * (1 - action_masks) + noise


class CallableRecorder:
    """A one-board callable snapshot (the highest legal action) that records its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.calls.append((observation[None].copy(), action_mask[None].copy()))
        return int(np.flatnonzero(action_mask)[-1])


def play_episode(env: gym.Env, seed: int, rng: np.random.Generator) -> list[int]:
    """The learner plays random legal moves; return the game's history."""
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, done, _, info = env.step(action)
    return env.unwrapped.game_state.history()


@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("kind", [Recorder, CallableRecorder])
def test_the_opponent_sees_its_own_side_and_plays_legal_moves(env_id, kind):
    """Replaying each game with the env's rules: at every opponent move the snapshot got the
    observation the learner would get as that player and the legal-action mask, and the
    move it made was legal (scores that prefer illegal actions are masked)."""
    snapshot = kind()
    pool = SelfPlayOpponent(latest_probability=1.0)
    pool.add(snapshot)
    env = gym.make(env_id, opponent=pool, learner_side="random")
    game = env.unwrapped.game
    rng = np.random.default_rng(1)
    sides = set()
    for episode in range(6):
        history = play_episode(env, seed=episode, rng=rng)
        learner = env.unwrapped.learner
        sides.add(learner)
        state = game.new_initial_state()
        for action in history:
            mover = state.current_player()
            if mover != learner:
                observations, masks = snapshot.calls.pop(0)
                np.testing.assert_array_equal(observations[0], state.observation(mover))
                np.testing.assert_array_equal(masks[0], state.legal_action_mask())
                assert state.legal_action_mask()[action] == 1
            state.apply_action(action)  # raises on an illegal move
        assert state.is_terminal()
    assert snapshot.calls == []
    assert sides == {0, 1}


def test_random_legal_moves_before_the_first_snapshot():
    env = gym.make("connectn_env/ConnectFour-v0", opponent="self", learner_side="second")
    pool = env.unwrapped.self_play
    assert isinstance(pool, SelfPlayOpponent) and len(pool.snapshots) == 0
    counts = np.zeros(7, dtype=int)
    for seed in range(1400):
        env.reset(seed=seed)
        counts[env.unwrapped.game_state.history()[0]] += 1
    # Uniform over 7 columns: 200 expected each (sd 13); a wide margin.
    assert counts.min() > 140 and counts.max() < 260, counts
    rng = np.random.default_rng(0)
    for seed in range(5):  # whole games: every move legal (replay checks the rules)
        state = env.unwrapped.game.new_initial_state()
        for action in play_episode(env, seed, rng):
            state.apply_action(action)


def test_each_episode_draws_the_latest_with_the_given_probability_else_uniformly():
    pool = SelfPlayOpponent(pool_size=4, latest_probability=0.5)
    snapshots = [Recorder(k) for k in range(4)]
    for snapshot in snapshots:
        pool.add(snapshot)
    seat = pool.seat()
    counts = np.zeros(4)
    for seed in range(4000):
        seat.reset(seed)
        counts[snapshots.index(seat.snapshot)] += 1
    # latest: 0.5 + 0.5 / 4 = 0.625; each other: 0.125 (sd about 0.008)
    np.testing.assert_allclose(counts / 4000, [0.125, 0.125, 0.125, 0.625], atol=0.03)


def test_the_pool_keeps_the_newest_pool_size_snapshots():
    pool = SelfPlayOpponent(pool_size=3)
    snapshots = [Recorder(k) for k in range(5)]
    for snapshot in snapshots:
        pool.add(snapshot)
    assert len(pool.snapshots) == 3 and pool.added == 5
    assert pool.snapshots == tuple(snapshots[2:])
    seat = pool.seat()
    drawn = set()
    for seed in range(200):
        seat.reset(seed)
        drawn.add(id(seat.snapshot))
    assert drawn == {id(s) for s in snapshots[2:]}


def test_a_seat_keeps_its_snapshot_until_the_next_episode():
    pool = SelfPlayOpponent()
    env = gym.make("connectn_env/TicTacToe-v0", opponent=pool)
    _, info = env.reset(seed=0)
    first = Recorder()
    pool.add(first)  # mid-episode: this episode stays random
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert first.calls == []
    env.reset(seed=1)
    assert env.unwrapped.opponent.snapshot is first


@pytest.mark.parametrize("deterministic", [False, True])
def test_the_same_seed_gives_the_same_games(deterministic):
    def run(seed: int) -> list[list[int]]:
        pool = SelfPlayOpponent(pool_size=3, deterministic=deterministic)
        for k in range(3):
            pool.add(Recorder(k))
        env = gym.make("connectn_env/ConnectFour-v0", opponent=pool, learner_side="random")
        return [play_episode(env, seed + k, np.random.default_rng(k)) for k in range(4)]

    assert run(0) == run(0)
    assert run(0) != run(100)


def test_gym_make_shares_the_pool_object_and_other_opponents_have_none():
    pool = SelfPlayOpponent()
    envs = [gym.make("connectn_env/TicTacToe-v0", opponent=pool) for _ in range(2)]
    assert all(env.unwrapped.self_play is pool for env in envs)
    assert envs[0].unwrapped.opponent is not envs[1].unwrapped.opponent  # one seat each
    own = gym.make("connectn_env/TicTacToe-v0", opponent="self", opponent_kwargs={"pool_size": 2})
    assert own.unwrapped.self_play.pool_size == 2
    assert gym.make("connectn_env/TicTacToe-v0").unwrapped.self_play is None
    assert SelfPlayOpponent()  # an empty pool is not falsy: `pool or "random"` keeps it


def test_the_vector_env_shares_one_pool_and_evaluates_each_snapshot_once_per_step():
    env = gym.make_vec("connectn_env/ConnectFour-v0", num_envs=16, opponent="self")
    pool = env.unwrapped.self_play
    assert isinstance(pool, SelfPlayOpponent)
    a, b = Recorder(0), Recorder(1)
    pool.add(a)
    pool.add(b)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=3)
    for _ in range(60):
        a_calls, b_calls = len(a.calls), len(b.calls)
        masks = info["action_mask"]
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]
        _, _, _, _, info = env.step(np.array(actions))
        assert len(a.calls) - a_calls <= 1 and len(b.calls) - b_calls <= 1  # one batch each
    assert a.calls and b.calls  # the boards drew both
    assert max(len(obs) for obs, _ in a.calls + b.calls) > 1  # batches of several boards
    for observations, masks in a.calls + b.calls:
        assert observations.shape == (len(masks), 6, 7, 2) and masks.shape == (len(masks), 7)
        assert masks.any(axis=1).all()
        # The opponent (player_1) sees its own stones first: one fewer than the learner's.
        own, other = observations[..., 0].sum(axis=(1, 2)), observations[..., 1].sum(axis=(1, 2))
        assert set(other - own) == {1}
    for i in range(16):
        state = env.unwrapped.game.new_initial_state()
        for action in env.unwrapped.game_state(i).history():
            state.apply_action(action)  # the rules accept every move


def test_the_vector_env_with_a_given_pool_and_its_seeding():
    def run() -> list[list[int]]:
        pool = SelfPlayOpponent()
        pool.add(Recorder(0))
        env = gym.make_vec(
            "connectn_env/TicTacToe-v0", num_envs=4, opponent=pool, learner_side="random"
        )
        assert env.unwrapped.self_play is pool
        _, info = env.reset(seed=5)
        for _ in range(6):
            actions = [np.flatnonzero(m)[0] if m.any() else 0 for m in info["action_mask"]]
            _, _, _, _, info = env.step(np.array(actions))
        return [env.unwrapped.game_state(i).history() for i in range(4)]

    assert run() == run()


def test_import_of_the_envs_does_not_import_sb3():
    code = (
        "import sys, connectn_env.gym\n"
        "assert 'stable_baselines3' not in sys.modules and 'torch' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=child_environment())


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"pool_size": 0}, ValueError, "pool_size must be between 1 and 100000, got 0"),
        ({"pool_size": 2**80}, ValueError, f"pool_size must be between 1 and 100000, got {2**80}"),
        ({"pool_size": 2.0}, TypeError, "pool_size must be an int, got 2.0"),
        ({"pool_size": True}, TypeError, "pool_size must be an int, got True"),
        ({"latest_probability": 1.5}, ValueError, "between 0 and 1, got 1.5"),
        ({"latest_probability": -0.1}, ValueError, "latest_probability must be at least 0"),
        ({"latest_probability": "0.5"}, TypeError, "latest_probability must be a number"),
        ({"deterministic": 1}, TypeError, "deterministic must be True or False, got 1"),
    ],
)
def test_bad_pool_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        SelfPlayOpponent(**kwargs)
    with pytest.raises(error, match=match):
        gym.make("connectn_env/TicTacToe-v0", opponent="self", opponent_kwargs=kwargs)
    with pytest.raises(error, match=match):
        gym.make_vec("connectn_env/TicTacToe-v0", 2, opponent="self", opponent_kwargs=kwargs)


def test_bad_snapshots_opponents_and_kwargs():
    pool = SelfPlayOpponent()
    pool.add(Recorder())
    with pytest.raises(TypeError, match=r"snapshot must have a logits.*got 42 of type int"):
        pool.add(42)
    assert len(pool.snapshots) == 1 and pool.added == 1
    with pytest.raises(ValueError, match=r"opponent 'selff' is neither one of .*'self'"):
        gym.make("connectn_env/TicTacToe-v0", opponent="selff")
    with pytest.raises(TypeError, match=r"'size' is not a SelfPlayOpponent argument.*pool_size"):
        gym.make("connectn_env/TicTacToe-v0", opponent="self", opponent_kwargs={"size": 3})
    with pytest.raises(ValueError, match=r"only used with opponent='mcts' or 'self'"):
        gym.make("connectn_env/TicTacToe-v0", opponent=pool, opponent_kwargs={"pool_size": 3})


class WrongShape:
    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.zeros((len(action_masks), 2))


class Filled:
    """A snapshot whose every score is ``fill``."""

    def __init__(self, fill) -> None:
        self.fill = fill

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.full(action_masks.shape, self.fill)

    def __repr__(self) -> str:
        return f"<Filled {self.fill!r}>"


RULE = r"its scores must be finite numbers, one per action"


@pytest.mark.parametrize(
    ("snapshot", "single", "batch"),
    [
        (WrongShape(), r"scores of shape \(1, 2\), expected .*\(1, 9\)", r"of shape \(2, 2\)"),
        (Filled(np.nan), r"the score nan for the legal action 0 of row 0: " + RULE, RULE),
        (Filled(-np.inf), r"the score -inf for the legal action 0 of row 0: " + RULE, RULE),
        (Filled("high"), r"not numbers \(could not convert string to float: .*'high'.*\)", RULE),
    ],
)
def test_scores_that_are_not_a_finite_number_per_action_name_the_snapshot(snapshot, single, batch):
    pool = SelfPlayOpponent(latest_probability=1.0)
    pool.add(snapshot)
    env = gym.make("connectn_env/TicTacToe-v0", opponent=pool)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=rf"^snapshot {re.escape(repr(snapshot))} .*{single}"):
        env.step(4)
    assert env.unwrapped.game_state.history() == []
    vector = gym.make_vec("connectn_env/TicTacToe-v0", num_envs=2, opponent=pool)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match=rf"^snapshot {re.escape(repr(snapshot))} .*{batch}"):
        vector.step(np.array([0, 1]))
    assert [vector.unwrapped.game_state(i).history() for i in range(2)] == [[], []]


class NanWhereIllegal:
    """Scores the action index where legal, NaN elsewhere."""

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.where(action_masks == 1, np.arange(action_masks.shape[1]), np.nan)


def test_the_scores_of_illegal_actions_are_ignored_even_if_nan():
    pool = SelfPlayOpponent(latest_probability=1.0, deterministic=True)
    pool.add(NanWhereIllegal())
    env = gym.make("connectn_env/TicTacToe-v0", opponent=pool)
    env.reset(seed=0)
    env.step(8)
    assert env.unwrapped.game_state.history() == [8, 7]  # the highest legal action


def test_a_callable_snapshot_that_answers_an_illegal_move_is_named():
    pool = SelfPlayOpponent()
    pool.add(lambda observation, action_mask: 4)  # the centre, taken by the learner
    env = gym.make("connectn_env/TicTacToe-v0", opponent=pool)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="the opponent SelfPlaySeat"):
        env.step(4)
    assert env.unwrapped.game_state.history() == []
