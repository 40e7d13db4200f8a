"""Search heuristics of k-in-a-row games on padded boards (Connect-N without bitboards,
Gomoku): a Zobrist key and the open-line evaluation.

The evaluation counts every window of ``n`` cells in a row (the places a line can still be
made): a window holding ``k`` stones of one player and none of the other is worth
:func:`window_weight` ``(k)`` to that player; a window with stones of both is dead. With
``A`` the player to move's total and ``B`` the opponent's, the value is
``(A - B) / (A + B + OPEN_LINE_DAMPING)``, in (-1, 1).
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.contract import compiled_kernel
from connectn_env.games.heuristics import Heuristics, padded_board_key
from connectn_env.games.lib.header import H_PLAYER, HEADER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import EMPTY
from connectn_env.games.lib.placement import P_COLS, P_N, P_ROWS

OPEN_LINE_DAMPING = 8.0
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@njit(cache=True)
def window_weight(stones):
    """Worth of an open window holding ``stones`` stones of one player: 0, 1, 4, 16, ..."""
    if stones == 0:
        return 0.0
    return 4.0 ** (stones - 1)


@njit(cache=True)
def open_line_value(own_total, other_total):
    """The evaluation from the two players' open-window totals, in (-1, 1)."""
    return (own_total - other_total) / (own_total + other_total + OPEN_LINE_DAMPING)


@compiled_kernel
def key(params, state):
    """Heuristics kernel: Zobrist key of the stones and the player to move."""
    return padded_board_key(params[P_ROWS], params[P_COLS], state)


@compiled_kernel
def evaluate(params, state):
    """Heuristics kernel: the open-line evaluation for the player to move."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    n = params[P_N]
    width = cols + 1
    own = state[H_PLAYER] + 1
    totals = np.zeros(3)  # by stone value: totals[1], totals[2]
    for dr, dc in _DIRECTIONS:
        step = dr * width + dc
        for r in range(rows):
            if r + (n - 1) * dr >= rows:
                break
            for c in range(cols):
                last_col = c + (n - 1) * dc
                if last_col < 0 or last_col >= cols:
                    continue
                pad = HEADER + (r + 1) * width + c + 1
                first = EMPTY
                count = 0
                for i in range(n):
                    stone = state[pad + i * step]
                    if stone != EMPTY:
                        if first == EMPTY:
                            first = stone
                        elif stone != first:
                            count = -1
                            break
                        count += 1
                if count > 0:
                    totals[first] += window_weight(count)
    return open_line_value(totals[own], totals[3 - own])


HEURISTICS = Heuristics(key=key, evaluate=evaluate)
