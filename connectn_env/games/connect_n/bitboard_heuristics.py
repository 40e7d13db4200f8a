"""Search heuristics of the Connect-N bitboards: an exact key and the open-line evaluation of
:mod:`connectn_env.games.lib.line_heuristics` computed on the two 64-bit words."""

from __future__ import annotations

import numpy as np

from connectn_env.games.connect_n.bitboard import P_COLS, P_N, P_ROWS, S_BITS
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.heuristics import Heuristics, popcount
from connectn_env.games.lib.header import H_PLAYER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.line_heuristics import open_line_value, window_weight

_ONE = np.uint64(1)


@compiled_kernel
def key(params, state):
    """Heuristics kernel: the mover's stones plus the occupied cells, a unique number per
    position (the spare top bit of each column absorbs the carry; the player to move follows
    from the number of stones)."""
    player = state[H_PLAYER]
    own = np.uint64(state[S_BITS + player])
    occupied = own | np.uint64(state[S_BITS + 1 - player])
    return own + occupied


@njit(cache=True)
def _window(start, step, n):
    """The mask of ``n`` cells from bit ``start`` in steps of ``step`` bits."""
    mask = np.uint64(0)
    for i in range(n):
        mask |= _ONE << np.uint64(start + i * step)
    return mask


@compiled_kernel
def evaluate(params, state):
    """Heuristics kernel: the open-line evaluation for the player to move."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    n = params[P_N]
    height = rows + 1
    player = state[H_PLAYER]
    own = np.uint64(state[S_BITS + player])
    other = np.uint64(state[S_BITS + 1 - player])
    own_total = 0.0
    other_total = 0.0
    # (bits per step, columns spanned - 1, rows climbed per step): up, right, up-right,
    # down-right
    for direction in range(4):
        step = (1, height, height + 1, height - 1)[direction]
        dc = 0 if direction == 0 else 1
        dh = (1, 0, 1, -1)[direction]
        for c in range(cols - (n - 1) * dc):
            for h in range(rows):
                end = h + (n - 1) * dh
                if end < 0 or end >= rows:
                    continue
                mask = _window(c * height + h, step, n)
                mine = np.int64(popcount(own & mask))
                theirs = np.int64(popcount(other & mask))
                if theirs == 0:
                    own_total += window_weight(mine)
                elif mine == 0:
                    other_total += window_weight(theirs)
    return open_line_value(own_total, other_total)


HEURISTICS = Heuristics(key=key, evaluate=evaluate)
