"""Search heuristics of Hex: a Zobrist key and the shortest-path evaluation.

A player's distance is the fewest empty cells they must still fill to join their two sides
(their own stones are free, the opponent's are walls), found by a breadth-first search in
layers of equal distance. With ``d`` the player to move's distance and ``e`` the
opponent's, the value is ``(e - d) / (e + d)``.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.contract import compiled_kernel
from connectn_env.games.heuristics import Heuristics, padded_board_key
from connectn_env.games.hex.kernels import P_COLS, P_ROWS, neighbour_steps, padded_size_of
from connectn_env.games.lib.header import H_PLAYER, HEADER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import EMPTY


@compiled_kernel
def key(params, state):
    """Heuristics kernel: Zobrist key of the stones and the player to move."""
    return padded_board_key(params[P_ROWS], params[P_COLS], state)


@njit(cache=True)
def connection_distance(board, rows, cols, stone, dist, layer, following):
    """Empty cells ``stone``'s player must fill to join their sides (``rows * cols + 1`` if
    they cannot), on a padded board. ``dist`` (padded size), ``layer`` and ``following``
    (``rows * cols`` each) are int64 work arrays."""
    width = cols + 1
    unreached = rows * cols + 1
    dist[:] = unreached
    size = 0
    starts = cols if stone == 1 else rows
    for i in range(starts):
        pad = width + 1 + i if stone == 1 else (i + 1) * width + 1
        cell = board[pad]
        if cell == stone:
            dist[pad] = 0
        elif cell == EMPTY:
            dist[pad] = 1
        else:
            continue
        layer[size] = pad
        size += 1
    # Layer d holds the cells at distance d; cells at distance 1 reached from the start
    # row sit in layer 0 only if they are own stones, so sort the start cells first.
    d = 0
    pending = 0
    for i in range(size):
        if dist[layer[i]] == 1:
            following[pending] = layer[i]
            pending += 1
    top = 0
    for i in range(size):
        if dist[layer[i]] == 0:
            layer[top] = layer[i]
            top += 1
    while top > 0 or pending > 0:
        while top > 0:
            top -= 1
            pad = layer[top]
            at_goal = pad > rows * width if stone == 1 else pad % width == cols
            if at_goal:
                return d
            for step in neighbour_steps(width):
                other = pad + step
                cell = board[other]
                if cell == stone and dist[other] > d:
                    dist[other] = d
                    layer[top] = other
                    top += 1
                elif cell == EMPTY and dist[other] > d + 1:
                    dist[other] = d + 1
                    following[pending] = other
                    pending += 1
        d += 1
        for i in range(pending):
            layer[i] = following[i]
        top = pending
        pending = 0
    return unreached


@compiled_kernel
def evaluate(params, state):
    """Heuristics kernel: ``(e - d) / (e + d)`` for the player to move (module docstring)."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    board = state[HEADER : HEADER + padded_size_of(rows, cols)]
    dist = np.empty(board.shape[0], dtype=np.int64)
    layer = np.empty(rows * cols, dtype=np.int64)
    following = np.empty(rows * cols, dtype=np.int64)
    player = state[H_PLAYER]
    own = connection_distance(board, rows, cols, player + 1, dist, layer, following)
    other = connection_distance(board, rows, cols, 2 - player, dist, layer, following)
    return (other - own) / (other + own)


HEURISTICS = Heuristics(key=key, evaluate=evaluate)
