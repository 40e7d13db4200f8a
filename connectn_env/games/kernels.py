"""Compiled rules kernels over the flat params/state vectors (see ``layout``).

One k-in-a-row kernel serves Connect-N and Gomoku; Hex keeps an incremental
union-find with four virtual edge nodes. Win detection only looks at the last move.
The same functions are called by the Python state class and by compiled search code.
Everything is compiled lazily on first call (``cache=True``), never at import.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from connectn_env.games.layout import (
    EMPTY,
    HEADER,
    HEX_BOTTOM,
    HEX_LEFT,
    HEX_RIGHT,
    HEX_TOP,
    HEX_VIRTUAL_NODES,
    KIND_HEX,
    NO_ACTION,
    P_AUX,
    P_COLS,
    P_EXACT,
    P_GRAVITY,
    P_HIST,
    P_KIND,
    P_N,
    P_NUM_ACTIONS,
    P_ROWS,
    P_SWAP,
    S_LAST,
    S_MOVES,
    S_OUTCOME,
    S_PLAYER,
    S_STONES,
    Outcome,
    Status,
)

_ONGOING = int(Outcome.ONGOING)
_DRAW = int(Outcome.DRAW)
_OK = int(Status.OK)
_GAME_OVER = int(Status.GAME_OVER)
_OUT_OF_RANGE = int(Status.OUT_OF_RANGE)
_OCCUPIED = int(Status.OCCUPIED)
_COLUMN_FULL = int(Status.COLUMN_FULL)
_SWAP_NOT_ALLOWED = int(Status.SWAP_NOT_ALLOWED)

# Line directions (dr, dc) of the k-in-a-row kernel and the six Hex neighbours.
_LINE_DR = np.array([0, 1, 1, 1], dtype=np.int64)
_LINE_DC = np.array([1, 0, 1, -1], dtype=np.int64)
_HEX_DR = np.array([0, 0, -1, 1, -1, 1], dtype=np.int64)
_HEX_DC = np.array([-1, 1, 0, 0, 1, -1], dtype=np.int64)


def init_state(params: np.ndarray, state_size: int) -> np.ndarray:
    """Return the state vector of the empty board."""
    state = np.zeros(state_size, dtype=np.int32)
    state[S_LAST] = NO_ACTION
    if params[P_KIND] == KIND_HEX:
        cells = params[P_ROWS] * params[P_COLS]
        aux = params[P_AUX]
        state[aux : aux + cells + HEX_VIRTUAL_NODES] = np.arange(cells + HEX_VIRTUAL_NODES)
    return state


# --- k-in-a-row ------------------------------------------------------------------


@njit(cache=True)
def run_length(state, rows, cols, row, col, dr, dc):
    """Length of the run of equal stones through (row, col) along +-(dr, dc)."""
    stone = state[HEADER + row * cols + col]
    count = 1
    for sign in (1, -1):
        r = row + sign * dr
        c = col + sign * dc
        while 0 <= r < rows and 0 <= c < cols and state[HEADER + r * cols + c] == stone:
            count += 1
            r += sign * dr
            c += sign * dc
    return count


@njit(cache=True)
def k_in_a_row_wins(state, rows, cols, row, col, n, exact):
    """True if the stone at (row, col) completes a winning line (n or more; exactly n if exact)."""
    for d in range(4):
        length = run_length(state, rows, cols, row, col, _LINE_DR[d], _LINE_DC[d])
        if length == n or (length > n and not exact):
            return True
    return False


# --- Hex union-find --------------------------------------------------------------


@njit(cache=True)
def uf_find(state, aux, node):
    """Root of ``node`` with path halving."""
    while state[aux + node] != node:
        state[aux + node] = state[aux + state[aux + node]]
        node = state[aux + node]
    return node


@njit(cache=True)
def uf_union(state, aux, a, b):
    """Merge the sets of ``a`` and ``b``."""
    ra = uf_find(state, aux, a)
    rb = uf_find(state, aux, b)
    if ra != rb:
        state[aux + ra] = rb


@njit(cache=True)
def hex_connect_and_check(state, rows, cols, aux, row, col, player):
    """Join the new stone with its neighbours and edges; True if its player now connects."""
    cells = rows * cols
    cell = row * cols + col
    stone = player + 1
    for d in range(6):
        r = row + _HEX_DR[d]
        c = col + _HEX_DC[d]
        if 0 <= r < rows and 0 <= c < cols and state[HEADER + r * cols + c] == stone:
            uf_union(state, aux, cell, r * cols + c)
    if player == 0:
        if row == 0:
            uf_union(state, aux, cell, cells + HEX_TOP)
        if row == rows - 1:
            uf_union(state, aux, cell, cells + HEX_BOTTOM)
        return uf_find(state, aux, cells + HEX_TOP) == uf_find(state, aux, cells + HEX_BOTTOM)
    if col == 0:
        uf_union(state, aux, cell, cells + HEX_LEFT)
    if col == cols - 1:
        uf_union(state, aux, cell, cells + HEX_RIGHT)
    return uf_find(state, aux, cells + HEX_LEFT) == uf_find(state, aux, cells + HEX_RIGHT)


@njit(cache=True)
def swap_is_legal(params, state):
    """True if the Hex swap action is legal now (player_1's first move, swap enabled)."""
    return params[P_SWAP] == 1 and state[S_MOVES] == 1 and state[S_OUTCOME] == _ONGOING


# --- moves -----------------------------------------------------------------------


@njit(cache=True)
def check_action(params, state, action):
    """Status.OK if ``action`` is legal in ``state``, else the reason it is not."""
    if state[S_OUTCOME] != _ONGOING:
        return _GAME_OVER
    if action < 0 or action >= params[P_NUM_ACTIONS]:
        return _OUT_OF_RANGE
    rows = params[P_ROWS]
    cols = params[P_COLS]
    if params[P_KIND] == KIND_HEX and action == rows * cols:
        return _OK if swap_is_legal(params, state) else _SWAP_NOT_ALLOWED
    if params[P_GRAVITY] == 1:
        return _OK if state[params[P_AUX] + action] < rows else _COLUMN_FULL
    return _OK if state[HEADER + action] == EMPTY else _OCCUPIED


@njit(cache=True)
def apply_unchecked(params, state, action):
    """Play a legal ``action`` (no validation) and update the outcome."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    aux = params[P_AUX]
    player = state[S_PLAYER]
    state[params[P_HIST] + state[S_MOVES]] = action
    state[S_MOVES] += 1
    state[S_LAST] = action
    if params[P_KIND] == KIND_HEX:
        cells = rows * cols
        if action == cells:  # swap: player_0's only stone becomes player_1's, mirrored
            first = state[params[P_HIST]]
            state[HEADER + first] = EMPTY
            for node in range(cells + HEX_VIRTUAL_NODES):
                state[aux + node] = node
            row = first % cols
            col = first // cols
        else:
            row = action // cols
            col = action % cols
            state[S_STONES] += 1
        state[HEADER + row * cols + col] = player + 1
        won = hex_connect_and_check(state, rows, cols, aux, row, col, player)
    else:
        if params[P_GRAVITY] == 1:
            col = action
            row = rows - 1 - state[aux + col]
            state[aux + col] += 1
        else:
            row = action // cols
            col = action % cols
        state[HEADER + row * cols + col] = player + 1
        state[S_STONES] += 1
        won = k_in_a_row_wins(state, rows, cols, row, col, params[P_N], params[P_EXACT] == 1)
    if won:
        state[S_OUTCOME] = player + 1  # Outcome.PLAYER_0_WINS / PLAYER_1_WINS
    elif state[S_STONES] == rows * cols:
        state[S_OUTCOME] = _DRAW
    state[S_PLAYER] = 1 - player


@njit(cache=True)
def apply_checked(params, state, action):
    """Play ``action`` if legal; return its Status (the state is unchanged unless OK)."""
    status = check_action(params, state, action)
    if status == _OK:
        apply_unchecked(params, state, action)
    return status


@njit(cache=True)
def fill_legal_mask(params, state, mask):
    """Write 1 for legal and 0 for illegal actions into ``mask`` (length num_actions)."""
    mask[:] = 0
    if state[S_OUTCOME] != _ONGOING:
        return
    rows = params[P_ROWS]
    cols = params[P_COLS]
    if params[P_GRAVITY] == 1:
        aux = params[P_AUX]
        for c in range(cols):
            if state[aux + c] < rows:
                mask[c] = 1
        return
    for cell in range(rows * cols):
        if state[HEADER + cell] == EMPTY:
            mask[cell] = 1
    if params[P_KIND] == KIND_HEX and swap_is_legal(params, state):
        mask[rows * cols] = 1


@njit(cache=True)
def legal_action_list(params, state, out):
    """Write the legal actions into ``out`` in increasing order; return how many."""
    count = 0
    if state[S_OUTCOME] != _ONGOING:
        return 0
    rows = params[P_ROWS]
    cols = params[P_COLS]
    if params[P_GRAVITY] == 1:
        aux = params[P_AUX]
        for c in range(cols):
            if state[aux + c] < rows:
                out[count] = c
                count += 1
        return count
    for cell in range(rows * cols):
        if state[HEADER + cell] == EMPTY:
            out[count] = cell
            count += 1
    if params[P_KIND] == KIND_HEX and swap_is_legal(params, state):
        out[count] = rows * cols
        count += 1
    return count


# --- random play-outs --------------------------------------------------------------


@njit(cache=True)
def xorshift_next(rng):
    """Advance the xorshift64* generator held in ``rng[0]`` (uint64) and return 64 bits."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True)
def random_below(rng, n):
    """A pseudo-random integer in [0, n) from the xorshift state ``rng`` (uint64 array of one).

    Multiply-shift reduction of the generator's high 32 bits (Lemire): no division.
    """
    return np.int64(((xorshift_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def random_playout(params, state, rng, scratch):
    """Play uniformly random legal moves until the game ends; return the Outcome.

    The moves played are appended to the state's history, so callers (RAVE) can read
    them. ``scratch`` is an int64 work array of length num_actions.
    """
    rows = params[P_ROWS]
    gravity = params[P_GRAVITY] == 1
    aux = params[P_AUX]
    count = legal_action_list(params, state, scratch)
    while state[S_OUTCOME] == _ONGOING:
        index = random_below(rng, count)
        action = scratch[index]
        apply_unchecked(params, state, action)
        if params[P_SWAP] == 1 and state[S_MOVES] <= 2:  # swap enters or leaves the list
            count = legal_action_list(params, state, scratch)
        elif not gravity or state[aux + action] == rows:
            count -= 1
            scratch[index] = scratch[count]
    return state[S_OUTCOME]
