"""Gomoku's threat-space solver (VCF, VCT): every proof against a brute force of small boards
(both rules), hand-made Gomoku positions with known answers, and the search that uses it."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import MCTSAgent
from connectn_env import gomoku_v0
from connectn_env.games import ConnectNGame, GomokuGame
from connectn_env.games.lib.threat_space import ThreatSpaceSolver

ROWS, COLS, N = 5, 5, 4  # the brute-force board: four in a row on 5 x 5
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _completes(board: tuple[int, ...], cell: int, exact: bool) -> bool:
    """Whether the stone on ``cell`` makes ``N`` in a row (exactly ``N`` if ``exact``)."""
    row, col = divmod(cell, COLS)
    for dr, dc in DIRECTIONS:
        length = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < ROWS and 0 <= c < COLS and board[r * COLS + c] == board[cell]:
                length += 1
                r, c = r + sign * dr, c + sign * dc
        if length == N or (length > N and not exact):
            return True
    return False


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1]


@cache
def brute_moves(board: tuple[int, ...], mover: int, exact: bool) -> dict[int, tuple[int, int]]:
    """``{cell: (result, plies after it to the end)}`` for ``mover`` (1 or 2) in perfect play
    (fastest win, slowest loss)."""
    results = {}
    for cell in (i for i, v in enumerate(board) if v == 0):
        after = (*board[:cell], mover, *board[cell + 1 :])
        if _completes(after, cell, exact):
            results[cell] = (1, 0)
        elif 0 not in after:
            results[cell] = (0, 0)
        else:
            best = None
            for reply in brute_moves(after, 3 - mover, exact).values():
                if best is None or _better(reply, best):
                    best = reply
            results[cell] = (-best[0], best[1] + 1)
    return results


def _random_position(seed: int, plies: int):
    """A position of four in a row on 5 x 5 (no gravity) after random moves, with no line of
    four or more on the board (so it is the same game under both rules), or None."""
    rng = np.random.default_rng(seed)
    state = ConnectNGame(rows=ROWS, cols=COLS, n=N, gravity=False).new_initial_state()
    for _ in range(plies):
        state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            return None
    return state


def _proofs(state, exact: bool) -> dict[int, tuple[int, int] | None]:
    solver = ThreatSpaceSolver(ROWS, COLS, N, exact=exact)
    solved, _ = solver.solve_moves(state, state.legal_actions(), 10**6)
    return solved


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(15, 19), exact=st.booleans())
def test_every_proof_agrees_with_the_brute_force(seed, plies, exact):
    state = _random_position(seed, plies)
    if state is None:
        return
    board = tuple(int(v) for v in state.board.ravel())
    truth = brute_moves(board, state.current_player() + 1, exact)
    solved = _proofs(state, exact)
    assert set(solved) == set(state.legal_actions())  # an unlimited budget decides every move
    for action, proof in solved.items():
        if proof is not None:
            result, plies_after = proof
            assert result == truth[action][0], (board, action, proof, truth[action])
            assert plies_after >= truth[action][1]  # never shorter than the fastest line


def test_the_solver_proves_most_of_the_decided_moves():
    """Not vacuous: on fixed random positions of the small board it proves most of the moves
    that win or lose (there nearly every decided move is decided by continuous fours)."""
    proven = decided = 0
    for seed in range(200):
        state = _random_position(seed, 16)
        if state is None:
            continue
        board = tuple(int(v) for v in state.board.ravel())
        truth = brute_moves(board, state.current_player() + 1, False)
        solved = _proofs(state, False)
        decided += sum(result != 0 for result, _ in truth.values())
        proven += sum(proof is not None for proof in solved.values())
        if decided > 400:
            break
    assert proven > 0.8 * decided


def _gomoku(rule: str, xs: list[tuple[int, int]], os: list[tuple[int, int]]):
    """A 15 x 15 Gomoku position with ``xs`` (player_0) and ``os`` (player_1) alternating."""
    state = GomokuGame(rule=rule).new_initial_state()
    for x, o in zip(xs, os, strict=True):
        state.apply_action(x[0] * 15 + x[1])
        state.apply_action(o[0] * 15 + o[1])
    return state


def _cell_proofs(state, cells=None) -> dict[tuple[int, int], tuple[int, int] | None]:
    actions = state.legal_actions() if cells is None else [r * 15 + c for r, c in cells]
    solved, _ = state.game.exact_solver().solve_moves(state, actions, 10**6)
    return {divmod(action, 15): proof for action, proof in solved.items()}


CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14)]
# two closed threes of X crossing at (7, 7): X there makes two fours
DOUBLE_FOUR = ([(7, 4), (7, 5), (7, 6), (4, 7), (5, 7), (6, 7)], [(7, 3), (3, 7), *CORNERS])


def test_a_double_four_is_the_fastest_proven_win():
    proofs = _cell_proofs(_gomoku("freestyle", *DOUBLE_FOUR))
    assert proofs[(7, 7)] == (1, 2)
    proven = [proof for cell, proof in proofs.items() if proof is not None and cell != (7, 7)]
    assert all(result == 1 and plies > 2 for result, plies in proven)  # O has no threats


def test_every_move_but_the_block_of_a_four_loses_in_one():
    state = _gomoku("freestyle", [(7, 2), (0, 2), (0, 4), (0, 6)], [(7, 3), (7, 4), (7, 5), (7, 6)])
    state.apply_action(14 * 15 + 7)  # X elsewhere: O threatens (7, 7)
    state.apply_action(13 * 15 + 13)
    proofs = _cell_proofs(state)
    assert proofs.pop((7, 7)) != (-1, 1)
    assert set(proofs.values()) == {(-1, 1)}


@pytest.mark.parametrize(("rule", "expected"), [("freestyle", (1, 2)), ("standard", None)])
def test_an_overline_is_no_threat_under_the_standard_rule(rule, expected):
    # X on (7,2), (7,3), (7,5), (7,7): X (7,4) threatens (7,1) and, freestyle only, (7,6)
    state = _gomoku(rule, [(7, 2), (7, 3), (7, 5), (7, 7)], CORNERS)
    assert _cell_proofs(state, [(7, 4)]) == {(7, 4): expected}


def test_the_default_agent_plays_the_double_four_at_a_small_budget():
    env = gomoku_v0.env()
    env.reset()
    xs, os = DOUBLE_FOUR
    for x, o in zip(xs, os, strict=True):
        env.step(x[0] * 15 + x[1])
        env.step(o[0] * 15 + o[1])
    result = MCTSAgent(simulations=50, seed=0).search(env)
    assert result.action == 7 * 15 + 7
    assert result.proven == "win"


def test_moves_the_solver_cannot_prove_are_not_asked_again(monkeypatch):
    """A move mapped to None is settled: the agent does not spend its time share on it."""
    solver = GomokuGame().exact_solver()
    calls = []

    class Recording:
        def reaches(self, state):
            return solver.reaches(state)

        def solve_moves(self, state, actions, nodes):
            calls.append(len(actions))
            return solver.solve_moves(state, actions, nodes)

    monkeypatch.setattr(GomokuGame, "exact_solver", lambda game: Recording())
    env = gomoku_v0.env()
    env.reset()
    env.step(7 * 15 + 7)
    result = MCTSAgent(time_limit=0.5, seed=0).search(env)
    assert len(calls) == 1 and calls[0] > 0  # one call settles every move: nothing to prove
    assert result.proven is None


@pytest.mark.parametrize("action", [7 * 15 + 4, -1, 225])  # occupied, out of range twice
def test_an_illegal_action_is_refused_and_changes_nothing(action):
    state = _gomoku("freestyle", *DOUBLE_FOUR)
    before = state.clone()
    solver = state.game.exact_solver()
    with pytest.raises(ValueError, match=f"action {action} is not legal here"):
        solver.solve_moves(state, [7 * 15 + 7, action], 1000)
    assert state == before
    assert solver.solve_moves(state, [7 * 15 + 7], 1000)[0] == {7 * 15 + 7: (1, 2)}
