"""Search heuristics of Othello: a Zobrist key and a positional evaluation, for either layout.

The evaluation weighs each disc by its square (corners are worth the most; the squares next to
an empty corner cost, as they hand the corner over) and adds the mobility of the player to
move; it reads the board through the layout's ``observe`` kernel, so both layouts share it.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.contract import compiled_kernel
from connectn_env.games.heuristics import PLAYER_KEY, Heuristics, cell_key
from connectn_env.games.lib.header import H_PLAYER, observe_padded_board
from connectn_env.games.lib.jit import njit
from connectn_env.games.othello import bitboard, padded

CORNER = 8.0
NEXT_TO_CORNER = -3.0
EDGE = 2.0
MOBILITY = 0.5  # per legal move of the player to move


@njit(cache=True)
def square_weight(row, col, size, corner_taken):
    """The value of a disc on (row, col): corners high, the squares touching an empty corner
    negative, edges above the inside."""
    last = size - 1
    on_row_edge = row == 0 or row == last
    on_col_edge = col == 0 or col == last
    if on_row_edge and on_col_edge:
        return CORNER
    near_row = row <= 1 or row >= last - 1
    near_col = col <= 1 or col >= last - 1
    if near_row and near_col:
        corner_row = 0 if row <= 1 else last
        corner_col = 0 if col <= 1 else last
        if not corner_taken[(corner_row != 0) * 2 + (corner_col != 0)]:
            return NEXT_TO_CORNER
    return EDGE if on_row_edge or on_col_edge else 1.0


@njit(cache=True)
def score(planes, size, mobility):
    """Evaluation in [-1, 1] from ``planes`` (the mover's view, flattened ``(size, size, 2)``)
    and the mover's number of legal moves."""
    corner_taken = np.zeros(4, dtype=np.bool_)
    last = size - 1
    for k, (r, c) in enumerate(((0, 0), (0, last), (last, 0), (last, last))):
        i = 2 * (r * size + c)
        corner_taken[k] = planes[i] != 0 or planes[i + 1] != 0
    total = 0.0
    scale = MOBILITY * size
    for r in range(size):
        for c in range(size):
            i = 2 * (r * size + c)
            weight = square_weight(r, c, size, corner_taken)
            total += weight * (planes[i] - planes[i + 1])
            scale += abs(weight)
    total += MOBILITY * mobility
    return max(-1.0, min(1.0, total / scale))


@njit(cache=True)
def planes_key(planes, cells, player):
    """Zobrist key of the discs (from the planes of player_0's view) and the player to move."""
    value = np.uint64(0)
    for cell in range(cells):
        if planes[2 * cell]:
            value ^= cell_key(cell, 1)
        elif planes[2 * cell + 1]:
            value ^= cell_key(cell, 2)
    if player == 1:
        value ^= PLAYER_KEY
    return value


@compiled_kernel
def bitboard_key(params, state):
    """Heuristics kernel (bitboard layout): the position's key."""
    cells = params[0] * params[1]
    planes = np.empty(2 * cells, dtype=np.int8)
    bitboard.observe(params, state, 0, planes)
    return planes_key(planes, cells, state[H_PLAYER])


@compiled_kernel
def bitboard_evaluate(params, state):
    """Heuristics kernel (bitboard layout): the evaluation for the player to move."""
    size = params[0]
    planes = np.empty(2 * size * size, dtype=np.int8)
    bitboard.observe(params, state, state[H_PLAYER], planes)
    moves = np.empty(size * size + 1, dtype=np.int64)
    mobility = bitboard.legal_actions(params, state, moves)
    return score(planes, size, mobility)


@compiled_kernel
def padded_key(params, state):
    """Heuristics kernel (padded layout): the position's key."""
    cells = params[0] * params[1]
    planes = np.empty(2 * cells, dtype=np.int8)
    observe_padded_board(params, state, 0, planes)
    return planes_key(planes, cells, state[H_PLAYER])


@compiled_kernel
def padded_evaluate(params, state):
    """Heuristics kernel (padded layout): the evaluation for the player to move."""
    size = params[0]
    planes = np.empty(2 * size * size, dtype=np.int8)
    observe_padded_board(params, state, state[H_PLAYER], planes)
    moves = np.empty(size * size + 1, dtype=np.int64)
    mobility = padded.legal_actions(params, state, moves)
    return score(planes, size, mobility)


BITBOARD_HEURISTICS = Heuristics(key=bitboard_key, evaluate=bitboard_evaluate)
PADDED_HEURISTICS = Heuristics(key=padded_key, evaluate=padded_evaluate)
