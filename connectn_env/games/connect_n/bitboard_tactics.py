"""Tactics (see :mod:`~connectn_env.games.tactics`) of Connect-N on bitboards.

The cells where a player completes a line are one mask, a few dozen shifts and ANDs of the
player's word (for every direction and every place of the missing stone in a run of ``n``);
its AND with the cells a stone can drop into gives the winning columns. A roll-out drops its
stones on the two words and keeps the list of open columns; the history is not written.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.codes import DRAW
from connectn_env.games.connect_n.bitboard import (
    P_COLS,
    P_N,
    P_ROWS,
    S_BITS,
    _drop_bit,
    _top_free,
    has_line,
    legal_actions,
)
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.lib.header import H_OUTCOME, H_PLAYER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.rng import random_below
from connectn_env.games.tactics import DECISIVE, Tactics

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def board_masks(rows, cols):
    """``(bottom, board)``: the bottom cell of every column, and every cell."""
    height = rows + 1
    bottom = _ZERO
    for c in range(cols):
        bottom |= _ONE << np.uint64(c * height)
    return bottom, bottom * ((_ONE << np.uint64(rows)) - _ONE)


@njit(cache=True)
def _four_cells(bits, step):
    """The cells completing four in a row of ``bits`` along ``step`` (Pascal Pons' formula)."""
    one, two, three = np.uint64(step), np.uint64(2 * step), np.uint64(3 * step)
    pair = (bits << one) & (bits << two)
    cells = pair & (bits << three)
    cells |= pair & (bits >> one)
    pair = (bits >> one) & (bits >> two)
    cells |= pair & (bits << one)
    cells |= pair & (bits >> three)
    return cells


@njit(cache=True)
def winning_cells(bits, n, height):
    """The cells (empty or not) where a stone added to ``bits`` would complete ``n`` in a row."""
    if n == 4:
        cells = (bits << _ONE) & (bits << np.uint64(2)) & (bits << np.uint64(3))
        return (
            cells
            | _four_cells(bits, height)
            | _four_cells(bits, height - 1)
            | _four_cells(bits, height + 1)
        )
    cells = _ZERO
    for step in (1, height, height + 1, height - 1):
        for missing in range(n):
            run = ~_ZERO
            for j in range(n):
                if j != missing:
                    offset = (j - missing) * step
                    if offset > 0:
                        run &= bits >> np.uint64(offset)
                    else:
                        run &= bits << np.uint64(-offset)
            cells |= run
    return cells


@njit(cache=True)
def winning_drops(params, state, player, bottom, board):
    """The cells a stone of ``player`` can drop into now and win with (a bit mask);
    ``bottom`` and ``board`` from :func:`board_masks`."""
    occupied = np.uint64(state[S_BITS]) | np.uint64(state[S_BITS + 1])
    cells = winning_cells(np.uint64(state[S_BITS + player]), params[P_N], params[P_ROWS] + 1)
    return cells & (occupied + bottom) & board


@njit(cache=True)
def column_of(mask, rows):
    """The column of the lowest set bit of a non-zero cell mask."""
    column = 0
    column_bits = (_ONE << np.uint64(rows + 1)) - _ONE
    while mask & column_bits == _ZERO:
        mask >>= np.uint64(rows + 1)
        column += 1
    return column


@compiled_kernel
def new_workspace(kernels, params, state, num_actions):
    """The open columns, their count, the masks of :func:`board_masks`."""
    bottom, board = board_masks(params[P_ROWS], params[P_COLS])
    masks = np.array([bottom, board], dtype=np.uint64)
    return np.empty(params[P_COLS], dtype=np.int64), np.zeros(1, dtype=np.int64), masks


@compiled_kernel
def start(kernels, params, state, tws, flags, rng, moves, players, count):
    """List the open columns."""
    tws[1][0] = legal_actions(params, state, tws[0])
    return count


@compiled_kernel
def play(kernels, params, state, tws, action):
    """Drop the stone on the player's word; a full column leaves the list."""
    columns, open_count = tws[0], tws[1]
    rows = params[P_ROWS]
    player = state[H_PLAYER]
    occupied = np.uint64(state[S_BITS]) | np.uint64(state[S_BITS + 1])
    bit = _drop_bit(occupied, action, rows)
    own = np.uint64(state[S_BITS + player]) | bit
    state[S_BITS + player] = np.int64(own)
    state[H_PLAYER] = 1 - player
    if has_line(own, params[P_N], rows + 1):
        state[H_OUTCOME] = player + 1
    elif not _top_free(occupied | bit, action, rows):
        last = open_count[0] - 1
        for i in range(last + 1):
            if columns[i] == action:
                columns[i] = columns[last]
        open_count[0] = last
        if last == 0:
            state[H_OUTCOME] = DRAW
    return state[H_OUTCOME]


@compiled_kernel
def finish(kernels, params, state, tws):
    """The outcome (``play`` always decides it)."""
    return state[H_OUTCOME]


@compiled_kernel
def random_move(kernels, params, state, tws, rng):
    """A random open column."""
    return tws[0][random_below(rng, tws[1][0])]


@compiled_kernel
def winning_move(kernels, params, state, tws, player):
    """A column where ``player`` completes a line, or -1."""
    masks = tws[2]
    drops = winning_drops(params, state, player, masks[0], masks[1])
    if drops == _ZERO:
        return -1
    return column_of(drops, params[P_ROWS])


@compiled_kernel
def expansion(kernels, params, state, tws, out, flags):
    """Every open column; with ``DECISIVE`` only the winning ones, else only those that stop
    the opponent's win, if there are any."""
    if flags & DECISIVE:
        player = np.int64(state[H_PLAYER])
        rows = params[P_ROWS]
        bottom, board = board_masks(rows, params[P_COLS])
        for who in (player, 1 - player):
            drops = winning_drops(params, state, who, bottom, board)
            count = 0
            while drops != _ZERO:
                column = column_of(drops, rows)
                out[count] = column
                count += 1
                drops &= ~(((_ONE << np.uint64(rows + 1)) - _ONE) << np.uint64(column * (rows + 1)))
            if count > 0:
                return count
    return legal_actions(params, state, out)


TACTICS = Tactics.of(globals())
