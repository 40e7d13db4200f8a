"""Othello's exact endgame solver for the search agents (``exact`` option): a compiled
win-loss-draw alpha-beta over the bitboards of :mod:`~connectn_env.games.othello.bitboard`
(boards up to 8 x 8), behind the game-independent
:class:`~connectn_env.games.game.ExactSolver` interface.

It proves results, not disc margins: each node is searched with the window (-1, 1) of the
results loss, draw and win, which cuts far more than a margin search. The moves are tried in
the order of the opponent's fewest replies (fastest-first) while more than
:data:`SORT_EMPTY_CELLS` cells are empty, in board order below that. It keeps no table: a
move a node budget left unfinished is searched afresh by the next call.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from connectn_env.games.lib.header import H_PLAYER
from connectn_env.games.lib.jit import njit
from connectn_env.games.othello.bitboard import (
    P_PASS,
    P_ROWS,
    _masks,
    _move_bit,
    _word,
    flips_word,
    placements_word,
    popcount,
)
from connectn_env.games.state import GameState

REACH_EMPTY_CELLS = 18  # tried with at most this many empty cells (see reaches)
SORT_EMPTY_CELLS = 6  # above this many empty cells, moves are ordered fastest-first
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_OUT_OF_NODES = 2  # a result no position has: the node budget ran out


@njit(cache=True)
def _solve(own, other, board, right, left, alpha, beta, budget):
    """``(result, plies)`` of the position for the owner of ``own``, to move: ``result`` 1, 0,
    -1 exactly if it lies inside (alpha, beta), else a bound on that side of the window;
    ``plies`` the moves (passes included) to the end of the line that decided it.
    ``budget[0]`` counts the nodes left; at 0 the result is ``_OUT_OF_NODES``."""
    if budget[0] <= 0:
        return np.int64(_OUT_OF_NODES), np.int64(0)
    budget[0] -= 1
    found = placements_word(own, other, board, right, left)
    if found == _ZERO:
        if placements_word(other, own, board, right, left) == _ZERO:  # the game is over
            difference = np.int64(popcount(own)) - np.int64(popcount(other))
            return np.int64((difference > 0) - (difference < 0)), np.int64(0)
        result, plies = _solve(other, own, board, right, left, -beta, -alpha, budget)
        if result == _OUT_OF_NODES:
            return result, 0
        return -result, plies + 1
    count = np.int64(popcount(found))
    moves = np.empty(count, dtype=np.uint64)
    for i in range(count):
        moves[i] = found & (_ZERO - found)
        found &= found - _ONE
    ordered = count > 1 and np.int64(popcount(board & ~(own | other))) > SORT_EMPTY_CELLS
    flipped = np.empty(count if ordered else 0, dtype=np.uint64)  # kept for the search
    if ordered:
        replies = np.empty(count, dtype=np.int64)
        for i in range(count):
            flipped[i] = flips_word(moves[i], own, other, board, right, left)
            mine = own | flipped[i] | moves[i]
            replies[i] = popcount(placements_word(other & ~flipped[i], mine, board, right, left))
        for i in range(1, count):  # insertion sort: fewest replies first
            j = i
            while j > 0 and replies[j - 1] > replies[j]:
                replies[j - 1], replies[j] = replies[j], replies[j - 1]
                moves[j - 1], moves[j] = moves[j], moves[j - 1]
                flipped[j - 1], flipped[j] = flipped[j], flipped[j - 1]
                j -= 1
    best, best_plies = np.int64(-2), np.int64(0)
    for i in range(count):
        flips = flipped[i] if ordered else flips_word(moves[i], own, other, board, right, left)
        result, plies = _solve(
            other & ~flips, own | flips | moves[i], board, right, left, -beta, -alpha, budget
        )
        if result == _OUT_OF_NODES:
            return result, 0
        if -result > best:
            best, best_plies = -result, plies + 1
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best, best_plies


@njit(cache=True)
def _solve_action(params, state, action, budget):
    """``(result, plies)`` of ``action`` (a placement or the pass) for the player to move in
    ``state``; ``_OUT_OF_NODES`` when the budget ran out."""
    board, right, left = _masks(params)
    player = state[H_PLAYER]
    own = _word(state, player)
    other = _word(state, 1 - player)
    if action == params[P_PASS]:
        result, plies = _solve(other, own, board, right, left, -1, 1, budget)
    else:
        move = _move_bit(action, params[P_ROWS])
        flips = flips_word(move, own, other, board, right, left)
        result, plies = _solve(
            other & ~flips, own | flips | move, board, right, left, -1, 1, budget
        )
    if result == _OUT_OF_NODES:
        return result, 0
    return -result, plies


@njit(cache=True)
def _empty_cells(params, state):
    """The empty cells of ``state``'s board."""
    board, _, _ = _masks(params)
    return popcount(board & ~(_word(state, 0) | _word(state, 1)))


class OthelloExact:
    """Exact move results of Othello positions on bitboards (boards up to 8 x 8).

    The plies of a proof are the length of the line the search found, not the fastest win
    or slowest loss: nearly every Othello game ends when the board is full, so line lengths
    differ by the passes only.

    Args:
        params: The game's params vector (bitboard layout).
    """

    def __init__(self, params: np.ndarray) -> None:
        self._params = params

    def reaches(self, state: GameState) -> bool:
        """At most :data:`REACH_EMPTY_CELLS` empty cells (on 8 x 8 every move of such a
        position is solved in a median of about 0.4 CPU s at 18 empty cells, a quarter of
        that at 16: ``benchmarks/othello_endgame.py``)."""
        return _empty_cells(self._params, state.data) <= REACH_EMPTY_CELLS

    def solve_moves(
        self, state: GameState, actions: Sequence[int], nodes: int
    ) -> tuple[dict[int, tuple[int, int]], int]:
        """See :meth:`connectn_env.games.game.ExactSolver.solve_moves`."""
        budget = np.array([nodes], dtype=np.int64)
        solved: dict[int, tuple[int, int]] = {}
        for action in actions:
            result, plies = _solve_action(self._params, state.data, action, budget)
            if result == _OUT_OF_NODES:
                break
            solved[action] = (int(result), int(plies))
        return solved, nodes - int(budget[0])
