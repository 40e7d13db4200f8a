"""The batched search and self-play (no network needed): games are legal and complete, the
targets agree with the games, the search sees wins and losses, bad evaluators are refused."""

from __future__ import annotations

import numpy as np
import pytest

from agents import tree
from agents.batched import BatchedSearch, uniform_evaluator
from agents.selfplay import BatchedSelfPlay
from connectn_env.games import REGISTRY, ConnectNGame, GameState, HexGame

GAMES = {
    "tictactoe": lambda: REGISTRY.make("tictactoe"),
    "connect_n 4x4 gravity": lambda: ConnectNGame(rows=4, cols=4, n=3, gravity=True),
    "connect_n 4x4 free": lambda: ConnectNGame(rows=4, cols=4, n=3, gravity=False),
    "hex 4x4 swap": lambda: HexGame(rows=4, cols=4, swap=True),
}


def replay(game, moves) -> GameState:
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(int(move))  # raises on an illegal move
    return state


@pytest.mark.parametrize("name", GAMES)
def test_self_play_games_are_legal_complete_and_consistent(name: str) -> None:
    game = GAMES[name]()
    selfplay = BatchedSelfPlay(game, 6, simulations=24, temperature_moves=2, seed=1)
    finished = []
    while len(finished) < 8:
        finished += selfplay.play(uniform_evaluator, 3)
    for record in finished:
        state = game.new_initial_state()
        for t, move in enumerate(record.moves):
            player = state.current_player()
            assert record.players[t] == player
            np.testing.assert_array_equal(record.observations[t], state.observation(player))
            np.testing.assert_array_equal(record.masks[t], state.legal_action_mask())
            policy = record.policies[t]
            assert policy.sum() == pytest.approx(1.0, abs=1e-5)
            assert np.all(policy[record.masks[t] == 0] == 0)
            state.apply_action(int(move))
        assert state.is_terminal()
        assert record.result == state.returns()[0]
        expected = [record.result if p == 0 else -record.result for p in record.players]
        np.testing.assert_array_equal(record.values, expected)


def test_the_search_plays_a_win_in_one_and_targets_it() -> None:
    game = REGISTRY.make("tictactoe")
    # x: a1 b1 (cells 6, 7), o: a2 b2 (cells 3, 4); x to move wins with c1 (cell 8)
    state = replay(game, [6, 3, 7, 4])
    search = BatchedSearch(game, 2, simulations=60, seed=0)
    search.reset(0, state)
    search.reset(1, replay(game, [6, 3, 7]))  # o to move must block at cell 8
    search.run([0, 1], uniform_evaluator)
    assert search.choose([0])[0] == 8
    np.testing.assert_array_equal(search.policies([0])[0], np.eye(9)[8])
    assert search.choose([1])[0] == 8


def test_a_proven_loss_gets_no_policy_mass() -> None:
    game = REGISTRY.make("tictactoe")
    search = BatchedSearch(game, 1, simulations=400, seed=0)
    search.reset(0, replay(game, [0, 4, 1]))  # o must block at 2: every other move loses
    search.run([0], uniform_evaluator)
    policy = search.policies([0])[0]
    ints = search.trees[0][0]
    first, count = ints[0, tree.I_FIRST], ints[0, tree.I_COUNT]
    lost = [
        int(ints[c, tree.I_ACTION])
        for c in range(first, first + count)
        if ints[c, tree.I_SOLVED] == tree.LOSS
    ]
    assert lost and 2 not in lost
    assert policy[lost].sum() == 0
    assert policy.sum() == pytest.approx(1.0)


def test_tree_reuse_keeps_the_subtree_of_the_move() -> None:
    game = ConnectNGame(rows=4, cols=4, n=3, gravity=True)
    search = BatchedSearch(game, 1, simulations=50, seed=3)
    search.run([0], uniform_evaluator)
    ints = search.trees[0][0]
    first, count = ints[0, tree.I_FIRST], ints[0, tree.I_COUNT]
    action = int(search.choose([0])[0])
    child = next(c for c in range(first, first + count) if ints[c, tree.I_ACTION] == action)
    visits = int(ints[child, tree.I_VISITS])
    assert visits > 0
    search.play(0, action)
    assert int(search.trees[0][0][0, tree.I_VISITS]) == visits
    assert search.state(0).history() == [action]
    fresh = BatchedSearch(game, 1, simulations=50, seed=3, reuse_tree=False)
    fresh.run([0], uniform_evaluator)
    fresh.play(0, action)
    assert int(fresh.trees[0][0][0, tree.I_VISITS]) == 0


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    game = REGISTRY.make("tictactoe")
    search = BatchedSearch(game, 1, simulations=10, seed=0)
    search.play(0, 4)
    before = (search.roots.copy(), search.trees[0].copy(), search.trees[2].copy())
    for bad in (4, -1, 9):
        with pytest.raises(ValueError, match="illegal"):
            search.play(0, bad)
    np.testing.assert_array_equal(search.roots, before[0])
    np.testing.assert_array_equal(search.trees[0], before[1])
    np.testing.assert_array_equal(search.trees[2], before[2])


@pytest.mark.parametrize(
    ("answer", "error", "match"),
    [
        (lambda o, p, m: m.astype(float), TypeError, r"\(priors, values\)"),
        (lambda o, p, m: (m[:, :3], np.zeros(len(m))), ValueError, "shape"),
        (lambda o, p, m: (m.astype(float), np.full(len(m), 2.0)), ValueError, r"\[-1, 1\]"),
        (lambda o, p, m: (-m.astype(float), np.zeros(len(m))), ValueError, ">= 0"),
    ],
)
def test_a_bad_evaluator_answer_is_refused(answer, error, match) -> None:
    search = BatchedSearch(REGISTRY.make("tictactoe"), 2, simulations=5, seed=0)
    with pytest.raises(error, match=match):
        search.run([0, 1], answer)


def test_the_evaluator_sees_the_positions_it_is_asked_about() -> None:
    game = HexGame(rows=3, cols=3, swap=True)
    seen = []

    def evaluate(observations, players, masks):
        seen.append((observations.copy(), players.copy(), masks.copy()))
        return masks.astype(float), np.zeros(len(masks))

    search = BatchedSearch(game, 3, simulations=4, seed=0)
    search.reset(1, replay(game, [0]))  # player 1 to move, swap legal
    search.run([0, 1, 2], evaluate)
    observations, players, masks = seen[0]  # the three roots
    assert observations.shape == (3, 3, 3, 2) and observations.dtype == np.int8
    assert players.tolist() == [0, 1, 0]
    assert masks[1].sum() == 9 and masks[1][9] == 1  # 8 cells and swap
    assert masks[0][9] == 0
    np.testing.assert_array_equal(observations[1], replay(game, [0]).observation(1))


def test_bad_arguments_are_refused() -> None:
    game = REGISTRY.make("tictactoe")
    with pytest.raises(TypeError):
        BatchedSearch("tictactoe", 2, simulations=5)
    with pytest.raises(ValueError, match="slots"):
        BatchedSearch(game, 0, simulations=5)
    search = BatchedSearch(game, 2, simulations=5)
    with pytest.raises(ValueError, match="simulations"):
        search.run([0], uniform_evaluator, simulations=6)
    with pytest.raises(ValueError, match="slot"):
        search.reset(2)
    with pytest.raises(ValueError, match="not"):
        search.reset(0, REGISTRY.make("connect_four").new_initial_state())
    with pytest.raises(ValueError, match="noise_fraction"):
        BatchedSelfPlay(game, 2, simulations=5, noise_fraction=1.5)
