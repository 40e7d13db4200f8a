"""Kernels of k-in-a-row placement games on a padded board (Connect-N, Gomoku).

An action places a stone on an empty cell (``r * cols + c``) or, with gravity, drops it down
column ``c`` (the action is the column). ``n`` or more stones in a row win (exactly ``n``
with ``exact``, Gomoku's standard rule); a full board without a line is a draw.

State (int32): the header of :mod:`~connectn_env.games.lib.header`, the padded board of
:mod:`~connectn_env.games.lib.lines`, the column heights (gravity), the history.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.codes import (
    COLUMN_FULL,
    DRAW,
    GAME_OVER,
    OCCUPIED,
    OK,
    ONGOING,
    OUT_OF_RANGE,
)
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.lib import header
from connectn_env.games.lib.header import H_MOVES, H_OUTCOME, H_PLAYER, HEADER, record_move
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import (
    EMPTY,
    empty_cells,
    empty_mask,
    empty_padded_board,
    line_through,
    padded_size,
    unpad,
)
from connectn_env.games.lib.rng import random_below

# params vector (int64)
P_ROWS = 0
P_COLS = 1
P_N = 2
P_EXACT = 3
P_GRAVITY = 4
P_NUM_ACTIONS = 5
P_HEIGHTS = 6  # offset of the column heights in the state
P_HIST = 7  # offset of the history in the state
PARAMS_SIZE = 8


def make_params(rows: int, cols: int, n: int, *, exact: bool, gravity: bool) -> np.ndarray:
    """The read-only params vector of a k-in-a-row game."""
    cells = rows * cols
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[P_ROWS] = rows
    params[P_COLS] = cols
    params[P_N] = n
    params[P_EXACT] = int(exact)
    params[P_GRAVITY] = int(gravity)
    params[P_NUM_ACTIONS] = cols if gravity else cells
    params[P_HEIGHTS] = HEADER + padded_size(rows, cols)
    params[P_HIST] = params[P_HEIGHTS] + (cols if gravity else 0)
    params.flags.writeable = False
    return params


def initial_state(params: np.ndarray) -> np.ndarray:
    """The empty board."""
    rows, cols = int(params[P_ROWS]), int(params[P_COLS])
    state = header.new_header(int(params[P_HIST]) + rows * cols)
    state[HEADER : HEADER + padded_size(rows, cols)] = empty_padded_board(rows, cols)
    return state


def decode_board(params: np.ndarray, state: np.ndarray) -> np.ndarray:
    """The ``(rows, cols)`` cells of ``state`` (a view: 0 empty, 1 and 2 the players' stones)."""
    rows, cols = int(params[P_ROWS]), int(params[P_COLS])
    return unpad(state[HEADER : HEADER + padded_size(rows, cols)], rows, cols)


@njit(cache=True)
def _pad_of_action(params, state, action):
    """Padded index of the cell ``action`` fills (with gravity: the column's lowest empty cell)."""
    cols = params[P_COLS]
    if params[P_GRAVITY] == 1:
        row = params[P_ROWS] - 1 - state[params[P_HEIGHTS] + action]
        return HEADER + (row + 1) * (cols + 1) + action + 1
    return HEADER + (action // cols + 1) * (cols + 1) + action % cols + 1


@compiled_kernel
def legal_actions(params, state, out):
    """Kernel: legal actions in increasing order."""
    if state[H_OUTCOME] != ONGOING:
        return 0
    count = 0
    rows = params[P_ROWS]
    cols = params[P_COLS]
    if params[P_GRAVITY] == 1:
        heights = params[P_HEIGHTS]
        for c in range(cols):
            if state[heights + c] < rows:
                out[count] = c
                count += 1
        return count
    return empty_cells(rows, cols, state[HEADER:], out)


@compiled_kernel
def legal_mask(params, state, mask):
    """Kernel: 1 for the empty cells (open columns), 0 elsewhere."""
    if state[H_OUTCOME] != ONGOING:
        mask[:] = 0
        return
    rows = params[P_ROWS]
    cols = params[P_COLS]
    if params[P_GRAVITY] == 1:
        heights = params[P_HEIGHTS]
        for c in range(cols):
            mask[c] = state[heights + c] < rows
        return
    empty_mask(rows, cols, state[HEADER:], mask)


@compiled_kernel
def check(params, state, action):
    """Kernel: Status.OK or why ``action`` is illegal."""
    if state[H_OUTCOME] != ONGOING:
        return GAME_OVER
    if action < 0 or action >= params[P_NUM_ACTIONS]:
        return OUT_OF_RANGE
    if params[P_GRAVITY] == 1:
        if state[params[P_HEIGHTS] + action] >= params[P_ROWS]:
            return COLUMN_FULL
        return OK
    if state[_pad_of_action(params, state, action)] != EMPTY:
        return OCCUPIED
    return OK


@compiled_kernel
def apply(params, state, action):
    """Kernel: play a legal action; a line of ``n`` wins, a full board draws."""
    player = state[H_PLAYER]
    pad = _pad_of_action(params, state, action)
    state[pad] = player + 1
    if params[P_GRAVITY] == 1:
        state[params[P_HEIGHTS] + action] += 1
    record_move(state, params[P_HIST], action, 1 - player)
    width = params[P_COLS] + 1
    if line_through(
        state[HEADER:], pad - HEADER, player + 1, width, params[P_N], params[P_EXACT] == 1
    ):
        state[H_OUTCOME] = player + 1  # Outcome.PLAYER_0_WINS / PLAYER_1_WINS
    elif state[H_MOVES] == params[P_ROWS] * params[P_COLS]:
        state[H_OUTCOME] = DRAW


@compiled_kernel
def new_workspace(params):
    """Kernel: the play-out's candidate actions and their padded indices."""
    cells = params[P_ROWS] * params[P_COLS]
    return np.empty(cells, dtype=np.int64), np.empty(cells, dtype=np.int64)


@njit(cache=True)
def _cell_playout(params, board, player, rng, actions, pads, moves, players, count):
    """Random placements on the empty cells of a padded board until a line or a full board;
    returns (Outcome, count)."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    n = params[P_N]
    exact = params[P_EXACT] == 1
    free = 0
    for r in range(rows):
        base = (r + 1) * width + 1
        for c in range(cols):
            if board[base + c] == EMPTY:
                actions[free] = r * cols + c
                pads[free] = base + c
                free += 1
    while free > 0:
        index = random_below(rng, free)
        pad = pads[index]
        board[pad] = player + 1
        moves[count] = actions[index]
        players[count] = player
        count += 1
        if line_through(board, pad, player + 1, width, n, exact):
            return player + 1, count
        free -= 1
        actions[index] = actions[free]
        pads[index] = pads[free]
        player = 1 - player
    return DRAW, count


@njit(cache=True)
def _drop_playout(params, state, board, player, rng, columns, moves, players, count):
    """Random drops into the open columns until a line or a full board; returns (Outcome,
    count)."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    n = params[P_N]
    heights = params[P_HEIGHTS]
    free = 0
    for c in range(cols):
        if state[heights + c] < rows:
            columns[free] = c
            free += 1
    while free > 0:
        index = random_below(rng, free)
        col = columns[index]
        height = state[heights + col]
        pad = (rows - height) * width + col + 1
        state[heights + col] = height + 1
        board[pad] = player + 1
        moves[count] = col
        players[count] = player
        count += 1
        if line_through(board, pad, player + 1, width, n, False):
            return player + 1, count
        if height + 1 == rows:
            free -= 1
            columns[index] = columns[free]
        player = 1 - player
    return DRAW, count


@compiled_kernel
def cell_playout(params, state, rng, workspace, moves, players, count):
    """Kernel: random placements on the state's own board (its header goes stale; the
    outcome is kept): the play-out of the games without gravity."""
    actions, pads = workspace
    outcome, count = _cell_playout(
        params, state[HEADER:], state[H_PLAYER], rng, actions, pads, moves, players, count
    )
    state[H_OUTCOME] = outcome
    return count


@compiled_kernel
def drop_playout(params, state, rng, workspace, moves, players, count):
    """Kernel: random drops on the state's own board (its header goes stale; the outcome is
    kept): the play-out of the games with gravity."""
    actions, _ = workspace
    outcome, count = _drop_playout(
        params, state, state[HEADER:], state[H_PLAYER], rng, actions, moves, players, count
    )
    state[H_OUTCOME] = outcome
    return count


KERNELS = header.header_kernels(globals(), playout=cell_playout)
# Each kernel set carries only the play-out its games play, so a search compiles one of the
# two (a run-time branch on the gravity flag compiled both: about 0.3 s of a cold first move).
GRAVITY_KERNELS = KERNELS._replace(playout=drop_playout)
