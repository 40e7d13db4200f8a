"""Hex kernels: a padded board and an incremental union-find with four virtual edge nodes.

State (int32): the header of :mod:`~connectn_env.games.lib.header`, the padded board of
:mod:`~connectn_env.games.lib.lines` (OpenSpiel's grid: cell (r, c) touches (r, c+-1),
(r+-1, c), (r-1, c+1) and (r+1, c-1)), the union-find parents of every padded index and of
the virtual nodes TOP, BOTTOM, LEFT, RIGHT, then the history.

Random play-outs use that Hex has no draws and that a full board has exactly one winner, who
is also the first player to connect in any order of play: a uniformly random fill of the
empty cells followed by one flood fill has the same outcome distribution as a uniformly
random game, without the per-move union-find work.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.codes import (
    GAME_OVER,
    OCCUPIED,
    OK,
    ONGOING,
    OUT_OF_RANGE,
    PLAYER_0_WINS,
    PLAYER_1_WINS,
    SWAP_NOT_ALLOWED,
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
    padded_size,
    unpad,
)
from connectn_env.games.lib.rng import random_below

# params vector (int64); rows and cols first, as padded-board games share observe_padded
P_ROWS = 0
P_COLS = 1
P_SWAP = 2
P_NUM_ACTIONS = 3
P_UNION = 4  # offset of the union-find parents in the state
P_HIST = 5  # offset of the history
PARAMS_SIZE = 6

# Virtual union-find nodes, after the padded board's indices.
TOP = 0
BOTTOM = 1
LEFT = 2
RIGHT = 3
VIRTUAL_NODES = 4

PLAYER_0_STONE = 1
SEEN = 4  # a player_0 stone the play-out's flood fill has reached


def make_params(rows: int, cols: int, *, swap: bool) -> np.ndarray:
    """The read-only params vector of a Hex game."""
    nodes = padded_size(rows, cols) + VIRTUAL_NODES
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[P_ROWS] = rows
    params[P_COLS] = cols
    params[P_SWAP] = int(swap)
    params[P_NUM_ACTIONS] = rows * cols + int(swap)
    params[P_UNION] = HEADER + padded_size(rows, cols)
    params[P_HIST] = params[P_UNION] + nodes
    params.flags.writeable = False
    return params


def initial_state(params: np.ndarray) -> np.ndarray:
    """The empty board; every union-find node is its own set."""
    rows, cols = int(params[P_ROWS]), int(params[P_COLS])
    size = padded_size(rows, cols)
    state = header.new_header(int(params[P_HIST]) + rows * cols + int(params[P_SWAP]))
    state[HEADER : HEADER + size] = empty_padded_board(rows, cols)
    union = int(params[P_UNION])
    state[union : union + size + VIRTUAL_NODES] = np.arange(size + VIRTUAL_NODES)
    return state


def decode_board(params: np.ndarray, state: np.ndarray) -> np.ndarray:
    """The ``(rows, cols)`` cells of ``state`` (a view)."""
    rows, cols = int(params[P_ROWS]), int(params[P_COLS])
    return unpad(state[HEADER : HEADER + padded_size(rows, cols)], rows, cols)


@njit(cache=True)
def neighbour_steps(width):
    """Index offsets of a cell's six neighbours on a padded board ``width`` entries wide."""
    return (-1, 1, -width, width, 1 - width, width - 1)


@njit(cache=True)
def _find(state, union, node):
    """Root of ``node`` (path halving)."""
    while state[union + node] != node:
        state[union + node] = state[union + state[union + node]]
        node = state[union + node]
    return node


@njit(cache=True)
def _union(state, union, a, b):
    root_a = _find(state, union, a)
    root_b = _find(state, union, b)
    if root_a != root_b:
        state[union + root_a] = root_b


@njit(cache=True)
def _swap_is_legal(params, state):
    return params[P_SWAP] == 1 and state[H_MOVES] == 1 and state[H_OUTCOME] == ONGOING


@compiled_kernel
def legal_actions(params, state, out):
    """Kernel: the empty cells, then the swap action while it is legal."""
    if state[H_OUTCOME] != ONGOING:
        return 0
    rows = params[P_ROWS]
    cols = params[P_COLS]
    count = empty_cells(rows, cols, state[HEADER:], out)
    if _swap_is_legal(params, state):
        out[count] = rows * cols
        count += 1
    return count


@compiled_kernel
def legal_mask(params, state, mask):
    """Kernel: 1 for the empty cells and (while legal) the swap, 0 elsewhere."""
    if state[H_OUTCOME] != ONGOING:
        mask[:] = 0
        return
    rows = params[P_ROWS]
    cols = params[P_COLS]
    empty_mask(rows, cols, state[HEADER:], mask)
    if params[P_SWAP] == 1:
        mask[rows * cols] = _swap_is_legal(params, state)


@compiled_kernel
def check(params, state, action):
    """Kernel: Status.OK or why ``action`` is illegal."""
    if state[H_OUTCOME] != ONGOING:
        return GAME_OVER
    if action < 0 or action >= params[P_NUM_ACTIONS]:
        return OUT_OF_RANGE
    cols = params[P_COLS]
    if action == params[P_ROWS] * cols:
        return OK if _swap_is_legal(params, state) else SWAP_NOT_ALLOWED
    pad = HEADER + (action // cols + 1) * (cols + 1) + action % cols + 1
    return OK if state[pad] == EMPTY else OCCUPIED


@njit(cache=True)
def _place(params, state, row, col, player):
    """Put ``player``'s stone at (row, col), join it to its chains and edges; True if the
    player now connects their sides."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    union = params[P_UNION]
    edges = padded_size_of(rows, cols)
    pad = (row + 1) * width + col + 1
    stone = player + 1
    state[HEADER + pad] = stone
    for step in neighbour_steps(width):
        if state[HEADER + pad + step] == stone:
            _union(state, union, pad, pad + step)
    if player == 0:
        if row == 0:
            _union(state, union, pad, edges + TOP)
        if row == rows - 1:
            _union(state, union, pad, edges + BOTTOM)
        return _find(state, union, edges + TOP) == _find(state, union, edges + BOTTOM)
    if col == 0:
        _union(state, union, pad, edges + LEFT)
    if col == cols - 1:
        _union(state, union, pad, edges + RIGHT)
    return _find(state, union, edges + LEFT) == _find(state, union, edges + RIGHT)


@njit(cache=True)
def padded_size_of(rows, cols):
    """Compiled twin of :func:`~connectn_env.games.lib.lines.padded_size`."""
    return (rows + 2) * (cols + 1) + 1


@compiled_kernel
def apply(params, state, action):
    """Kernel: place a stone, or swap: player_0's only stone at (r, c) becomes player_1's at
    (c, r) (OpenSpiel's semantics); a player who connects their sides wins."""
    player = state[H_PLAYER]
    cols = params[P_COLS]
    if action == params[P_ROWS] * cols:
        first = state[params[P_HIST]]
        row, col = first // cols, first % cols
        state[HEADER + (row + 1) * (cols + 1) + col + 1] = EMPTY
        union = params[P_UNION]
        for node in range(padded_size_of(params[P_ROWS], cols) + VIRTUAL_NODES):
            state[union + node] = node
        row, col = col, row
    else:
        row, col = action // cols, action % cols
    won = _place(params, state, row, col, player)
    record_move(state, params[P_HIST], action, 1 - player)
    if won:
        state[H_OUTCOME] = player + 1


@compiled_kernel
def new_workspace(params):
    """Kernel: the play-out's empty cells (actions and padded indices, also the flood stack)."""
    size = params[P_ROWS] * params[P_COLS] + 1
    return np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)


@compiled_kernel
def playout(params, state, rng, workspace, moves, players, count):
    """Kernel: random moves while the swap can still come, then a random fill of the board and
    one flood fill from player_0's top edge."""
    actions, pads = workspace
    while _swap_is_legal(params, state) or (params[P_SWAP] == 1 and state[H_MOVES] == 0):
        legal = legal_actions(params, state, actions)
        action = actions[random_below(rng, legal)]
        moves[count] = action
        players[count] = state[H_PLAYER]
        count += 1
        apply(params, state, action)
        if state[H_OUTCOME] != ONGOING:
            return count
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    board = state[HEADER:]
    free = 0
    for r in range(rows):
        base = (r + 1) * width + 1
        for c in range(cols):
            if board[base + c] == EMPTY:
                actions[free] = r * cols + c
                pads[free] = base + c
                free += 1
    player = state[H_PLAYER]
    for i in range(free):
        j = i + random_below(rng, free - i)
        pad = pads[j]
        moves[count] = actions[j]
        players[count] = player
        count += 1
        actions[j] = actions[i]
        pads[j] = pads[i]
        board[pad] = player + 1
        player = 1 - player
    state[H_OUTCOME] = full_board_outcome(params, board, pads)  # pads: no longer needed
    return count


@njit(cache=True)
def full_board_outcome(params, board, stack):
    """The winner of a full padded board: one flood fill from player_0's top edge (marks the
    stones it reaches ``SEEN``). ``stack``: int64 work array of ``rows * cols`` entries."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    width = cols + 1
    top = 0
    for pad in range(width + 1, width + 1 + cols):
        if board[pad] == PLAYER_0_STONE:
            board[pad] = SEEN
            stack[top] = pad
            top += 1
    last_row = rows * width  # padded indices above this are in the bottom row
    while top > 0:
        top -= 1
        pad = stack[top]
        if pad > last_row:
            return PLAYER_0_WINS
        for step in neighbour_steps(width):
            if board[pad + step] == PLAYER_0_STONE:
                board[pad + step] = SEEN
                stack[top] = pad + step
                top += 1
    return PLAYER_1_WINS  # no draws: unless player_0 connects


KERNELS = header.header_kernels(globals())


@njit(cache=True)
def shortest_chain(board, rows, cols, stone, chain):
    """A shortest chain of ``stone`` joining its player's two sides (breadth-first search).

    Args:
        board: A padded board.
        stone: 1 (player_0: top to bottom) or 2 (player_1: left to right).
        chain: int64 work array of ``rows * cols`` entries; the chain's padded indices are
            written to its start.

    Returns:
        The chain's length, 0 if the player does not connect.
    """
    width = cols + 1
    parent = np.full(board.shape[0], -2, dtype=np.int64)  # -2: not reached
    queue = np.empty(rows * cols, dtype=np.int64)
    head = 0
    tail = 0
    starts = cols if stone == 1 else rows
    for i in range(starts):
        pad = width + 1 + i if stone == 1 else (i + 1) * width + 1
        if board[pad] == stone:
            parent[pad] = -1
            queue[tail] = pad
            tail += 1
    while head < tail:
        pad = queue[head]
        head += 1
        at_goal = pad > rows * width if stone == 1 else pad % width == cols
        if at_goal:
            length = 0
            while pad != -1:
                chain[length] = pad
                length += 1
                pad = parent[pad]
            return length
        for step in neighbour_steps(width):
            other = pad + step
            if board[other] == stone and parent[other] == -2:
                parent[other] = pad
                queue[tail] = other
                tail += 1
    return 0
