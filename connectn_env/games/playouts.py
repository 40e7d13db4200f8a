"""Compiled random play-outs for search: faster equivalents of the rules kernel's
``random_playout`` for Connect-N / Gomoku boards and for Hex, and the kernel itself for the
rest (Hex before a possible swap move, large gravity boards). They live in the rules layer
so that search code encodes no rules; tests/test_playouts.py replays their games through
the rules kernel.

Gravity boards with ``(rows + 1) * cols <= 64`` are played out on two 64-bit bitboards
(one bit per cell plus a sentinel row per column; a line of ``n`` is found with a few
shifted ANDs per direction), rebuilt from the move history.

Other k-in-a-row boards (Gomoku, tic-tac-toe) are played on a copy of the board padded
with a border of sentinel cells (one column, a row above and below), so the four-line win
check through the last stone needs no bounds tests; the empty cells are kept in a list
with swap-removal.

Hex cannot end in a draw and a full board has exactly one winner, who is also the first
player to connect in any order of play. So a uniformly random Hex game has the same
outcome distribution as a uniformly random *fill* of the empty cells followed by one
connectivity check (a flood fill on the padded board), which skips the per-move
union-find work.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from connectn_env.games.kernels import random_below, random_playout
from connectn_env.games.layout import (
    HEADER,
    KIND_HEX,
    P_COLS,
    P_EXACT,
    P_GRAVITY,
    P_HIST,
    P_KIND,
    P_N,
    P_NUM_ACTIONS,
    P_ROWS,
    P_SWAP,
    S_MOVES,
    S_OUTCOME,
    S_PLAYER,
    Outcome,
)

_SENTINEL = 3  # a padded board's border (stones are 1 and 2, empty 0)
_SEEN = 4  # a stone the Hex flood fill has reached
_PLAYER_0_STONE = 1
_DRAW = int(Outcome.DRAW)
_PLAYER_0_WINS = int(Outcome.PLAYER_0_WINS)
_PLAYER_1_WINS = int(Outcome.PLAYER_1_WINS)


@njit(cache=True)
def new_playout_buffers(params):
    """Work arrays of :func:`playout`: two int64 arrays of length num_actions and the int8
    padded board (``(rows + 2) * (cols + 1) + 1`` cells)."""
    num_actions = params[P_NUM_ACTIONS]
    board = np.empty((params[P_ROWS] + 2) * (params[P_COLS] + 1) + 1, dtype=np.int8)
    return np.empty(num_actions, dtype=np.int64), np.empty(num_actions, dtype=np.int64), board


@njit(cache=True)
def pad_board(params, state, board, actions, pads):
    """Copy the board into ``board`` with a sentinel border (width ``cols + 1``, cell
    ``(r, c)`` at ``(r + 1) * (cols + 1) + c + 1``); list the empty cells' actions and padded
    indices in ``actions`` and ``pads``. Returns the number of empty cells."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    board[:] = _SENTINEL
    count = 0
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            pad = (r + 1) * width + c + 1
            stone = state[HEADER + cell]
            board[pad] = stone
            if stone == 0:
                actions[count] = cell
                pads[count] = pad
                count += 1
    return count


@njit(cache=True)
def has_line(bits, n, height):
    """True if ``bits`` (column-major bitboard, ``height`` bits per column) holds ``n`` in a row."""
    for step in (1, height, height + 1, height - 1):
        shift = np.uint64(step)
        m = bits
        span = 1  # m marks the starts of runs of `span` stones
        while 2 * span <= n:
            m &= m >> (shift * np.uint64(span))
            span *= 2
        if span < n:
            m &= m >> (shift * np.uint64(n - span))
        if m != np.uint64(0):
            return True
    return False


@njit(cache=True)
def gravity_bitboard_playout(params, state, rng, columns, heights):
    """Random play-out of a gravity game on bitboards; only outcome and history are updated."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    n = params[P_N]
    hist = params[P_HIST]
    height = rows + 1
    one = np.uint64(1)
    moves = state[S_MOVES]
    heights[:cols] = 0
    bits0 = np.uint64(0)
    bits1 = np.uint64(0)
    for j in range(moves):  # player_0 moves first, then the players alternate
        col = state[hist + j]
        bit = one << np.uint64(col * height + heights[col])
        heights[col] += 1
        if j & 1 == 0:
            bits0 |= bit
        else:
            bits1 |= bit
    player = state[S_PLAYER]
    own, other = (bits0, bits1) if player == 0 else (bits1, bits0)
    count = 0
    for c in range(cols):
        if heights[c] < rows:
            columns[count] = c
            count += 1
    outcome = _DRAW
    while count > 0:
        index = random_below(rng, count)
        col = columns[index]
        own |= one << np.uint64(col * height + heights[col])
        heights[col] += 1
        state[hist + moves] = col
        moves += 1
        if has_line(own, n, height):
            outcome = player + 1
            break
        if heights[col] == rows:
            count -= 1
            columns[index] = columns[count]
        own, other = other, own
        player = 1 - player
    state[S_MOVES] = moves
    state[S_OUTCOME] = outcome
    return outcome


@njit(cache=True)
def line_through(board, pad, stone, width, n, exact):
    """True if the ``stone`` at ``pad`` of a padded board completes a winning line (``n`` or
    more in a row; exactly ``n`` if ``exact``)."""
    for step in (1, width, width + 1, width - 1):
        length = 1
        other = pad + step
        while board[other] == stone:
            length += 1
            other += step
        other = pad - step
        while board[other] == stone:
            length += 1
            other -= step
        if length == n or (length > n and not exact):
            return True
    return False


@njit(cache=True)
def line_playout(params, state, rng, actions, pads, board):
    """Random play-out of a k-in-a-row game without gravity on a padded board; only outcome
    and history are updated."""
    n = params[P_N]
    exact = params[P_EXACT] == 1
    width = params[P_COLS] + 1
    hist = params[P_HIST]
    count = pad_board(params, state, board, actions, pads)
    moves = state[S_MOVES]
    player = state[S_PLAYER]
    outcome = _DRAW
    while count > 0:
        index = random_below(rng, count)
        pad = pads[index]
        board[pad] = player + 1
        state[hist + moves] = actions[index]
        moves += 1
        if line_through(board, pad, player + 1, width, n, exact):
            outcome = player + 1
            break
        count -= 1
        actions[index] = actions[count]
        pads[index] = pads[count]
        player = 1 - player
    state[S_MOVES] = moves
    state[S_OUTCOME] = outcome
    return outcome


@njit(cache=True)
def hex_playout(params, state, rng, actions, pads, board):
    """Random fill of a Hex board (no swap move left), then one flood fill from player_0's
    top edge; only outcome and history are updated."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    hist = params[P_HIST]
    count = pad_board(params, state, board, actions, pads)
    moves = state[S_MOVES]
    player = state[S_PLAYER]
    for i in range(count):
        j = i + random_below(rng, count - i)
        action = actions[j]
        pad = pads[j]
        actions[j] = actions[i]
        pads[j] = pads[i]
        board[pad] = player + 1
        state[hist + moves] = action
        moves += 1
        player = 1 - player
    state[S_MOVES] = moves
    stack = pads  # the empty-cell list is no longer needed
    top = 0
    for pad in range(width + 1, width + 1 + cols):
        if board[pad] == _PLAYER_0_STONE:
            board[pad] = _SEEN
            stack[top] = pad
            top += 1
    outcome = _PLAYER_1_WINS  # Hex has no draws: unless player_0 connects
    last_row = rows * width  # padded indices above this are in the bottom row
    while top > 0:
        top -= 1
        pad = stack[top]
        if pad > last_row:
            outcome = _PLAYER_0_WINS
            break
        for step in (-1, 1, -width, width, 1 - width, width - 1):
            other = pad + step
            if board[other] == _PLAYER_0_STONE:
                board[other] = _SEEN
                stack[top] = other
                top += 1
    state[S_OUTCOME] = outcome
    return outcome


@njit(cache=True)
def playout(params, state, rng, scratch, pads, board):
    """Finish the game with random moves; return the Outcome and leave the moves in the history.

    On the fast paths (small gravity boards, other k-in-a-row boards, Hex once the swap move
    can no longer occur) only the outcome and the history of ``state`` are meaningful
    afterwards. ``scratch``, ``pads``, ``board``: from :func:`new_playout_buffers`.
    """
    if params[P_KIND] == KIND_HEX:
        if params[P_SWAP] == 1 and state[S_MOVES] < 2:
            return random_playout(params, state, rng, scratch)
        return hex_playout(params, state, rng, scratch, pads, board)
    if params[P_GRAVITY] == 0:
        return line_playout(params, state, rng, scratch, pads, board)
    if params[P_EXACT] == 0 and (params[P_ROWS] + 1) * params[P_COLS] <= 64:
        return gravity_bitboard_playout(params, state, rng, scratch, pads)
    return random_playout(params, state, rng, scratch)
