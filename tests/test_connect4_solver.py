"""The Connect Four solver of the move-quality benchmark: published scores of positions from
Pascal Pons' test sets, agreement with a brute-force negamax on a small board, move scores,
bad input."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from connect4_helpers import COLS, ROWS, columns_of, dropped, wins
from hypothesis import given, settings
from hypothesis import strategies as st

from connectn_env.games import ConnectNGame
from connectn_env.games.connect_n.solver import Connect4Solver, parse_columns

# (moves as 1-based columns, score for the player to move), from Pons' test sets
KNOWN = [
    ("2252576253462244111563365343671351441", -1),
    ("74425337641465475671176741236615215533", 0),
    ("43745416472735", -13),
    ("427631264721", 10),
    ("335662333565", -2),
    ("157564142155", -5),
    ("32164625", 11),
    ("6146", 18),
    ("4737", 18),
]


@pytest.fixture(scope="module")
def solver():
    return Connect4Solver()


@pytest.mark.parametrize(("moves", "score"), KNOWN)
def test_published_scores(solver, moves, score):
    assert solver.solve(parse_columns(moves)) == score


def test_move_scores_agree_with_the_position_score(solver):
    moves = parse_columns("427631264721")
    scores = solver.move_scores(moves)
    assert set(scores) == set(range(7))
    assert max(scores.values()) == solver.solve(moves) == 10
    # a win at once scores the most: x to move after 1 1 2 2 3 3 wins in column 4
    scores = solver.move_scores(parse_columns("112233"))
    assert scores[3] == (42 + 1 - 6) // 2 == max(scores.values())


@cache
def brute_score(columns: tuple[str, ...]) -> int:
    """Negamax over every continuation of a position (the stones of each column, bottom
    first), Pons' scoring, on the small board; positions are cached, not move orders."""
    plies = sum(map(len, columns))
    best = -ROWS * COLS
    for col in range(COLS):
        if len(columns[col]) == ROWS:
            continue
        after = dropped(columns, col)
        if wins(after, col):
            score = (ROWS * COLS + 1 - plies) // 2
        elif plies + 1 == ROWS * COLS:
            score = 0
        else:
            score = -brute_score(after)
        best = max(best, score)
    return best


@pytest.mark.slow  # about 8 s
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(6, 16))
def test_agrees_with_brute_force_on_a_small_board(seed, plies):
    rng = np.random.default_rng(seed)
    state = ConnectNGame(rows=ROWS, cols=COLS, n=4).new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))
    if state.is_terminal():
        return
    moves = tuple(state.history())
    assert Connect4Solver(ROWS, COLS).solve(moves) == brute_score(columns_of(moves))


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([7], "move 0 .7. is not a legal column"),
        ([0] * 7, "move 6 .0. is not a legal column"),
        ([0, 1, 0, 1, 0, 1, 0, 1], "the game is over after move 6"),
    ],
)
def test_bad_positions_are_refused(solver, moves, message):
    with pytest.raises(ValueError, match=message):
        solver.solve(moves)


@pytest.mark.parametrize("table_size", [1, 1000, 1 << 16])
def test_any_table_size_gives_exact_scores(table_size):
    small = Connect4Solver(table_size=table_size)  # full keys: collisions only cost time
    for moves, score in KNOWN[:2]:
        assert small.solve(parse_columns(moves)) == score
    moves = parse_columns("2252576253462244111563365343671351441")
    assert small.move_scores(moves) == Connect4Solver().move_scores(moves)


def test_a_node_budget_stops_the_search_and_keeps_what_it_finished():
    solver = Connect4Solver()
    moves = parse_columns("427631264721")
    current, mask, count = solver._position(moves)
    scores, used = solver.scores_within(int(current), int(mask), count, [3, 1], 2000)
    assert used == 2000 and scores == {}
    assert solver.move_scores(moves) == Connect4Solver().move_scores(moves)  # nothing stale


def test_bad_boards_are_refused():
    with pytest.raises(ValueError, match="does not fit 64 bits"):
        Connect4Solver(rows=8, cols=8)
    with pytest.raises(ValueError, match="positive ints"):
        Connect4Solver(rows=0)
    with pytest.raises(ValueError, match="table_size must be an int >= 1, got 0"):
        Connect4Solver(table_size=0)
    with pytest.raises(ValueError, match="digits"):
        parse_columns("4a")
