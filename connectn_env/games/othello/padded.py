"""Othello kernels on a padded board (any even size 4 to 16).

The board is the padded board of :mod:`~connectn_env.games.lib.lines`: its sentinel border
ends every scan in the eight directions without a bounds test. A placement flips every straight
line of opponent discs that it closes with one of the mover's discs; a player without such a
placement must pass (the pass is action ``size * size``, legal only then); the game ends when
neither player can place a disc, and more discs wins.

State (int32): the header of :mod:`~connectn_env.games.lib.header`, the padded board, the
disc count of each player, then the history.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.codes import (
    DRAW,
    GAME_OVER,
    NO_FLIP,
    OCCUPIED,
    OK,
    ONGOING,
    OUT_OF_RANGE,
    PASS_NOT_ALLOWED,
    PLAYER_0_WINS,
    PLAYER_1_WINS,
)
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.lib import header
from connectn_env.games.lib.header import H_OUTCOME, H_PLAYER, HEADER, record_move
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import (
    EMPTY,
    empty_padded_board,
    padded_index,
    padded_size,
    unpad,
)
from connectn_env.games.lib.rng import random_below

# params vector (int64); rows and cols first, as padded-board games share observe_padded
P_ROWS = 0
P_COLS = 1
P_PASS = 2  # the pass action, size * size (also the number of cells)
P_DISCS = 3  # offset of the two disc counts in the state
P_HIST = 4  # offset of the history
PARAMS_SIZE = 5


def max_moves(size: int) -> int:
    """Most actions a game can last: every placement but the first may follow a pass."""
    return 2 * (size * size - 4)


def make_params(size: int) -> np.ndarray:
    """The read-only params vector of an Othello game on a ``size`` x ``size`` board."""
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[P_ROWS] = size
    params[P_COLS] = size
    params[P_PASS] = size * size
    params[P_DISCS] = HEADER + padded_size(size, size)
    params[P_HIST] = params[P_DISCS] + 2
    params.flags.writeable = False
    return params


def centre_discs(size: int) -> dict[tuple[int, int], int]:
    """The four starting discs, as OpenSpiel's ``othello`` sets them: player_1 (white) on the
    top-left and bottom-right centre cells, player_0 (black, to move) on the other two."""
    low, high = size // 2 - 1, size // 2
    return {(low, low): 1, (low, high): 0, (high, low): 0, (high, high): 1}


def initial_state(params: np.ndarray) -> np.ndarray:
    """The starting position: the four centre discs, player_0 to move."""
    size = int(params[P_ROWS])
    state = header.new_header(int(params[P_HIST]) + max_moves(size))
    board = empty_padded_board(size, size)
    for (row, col), player in centre_discs(size).items():
        board[padded_index(row, col, size)] = player + 1
    state[HEADER : HEADER + padded_size(size, size)] = board
    state[int(params[P_DISCS]) : int(params[P_DISCS]) + 2] = 2
    return state


def state_from_board(params: np.ndarray, board: np.ndarray, player: int) -> np.ndarray:
    """The state of a set-up position: ``board`` ((size, size) of 0, 1, 2), ``player`` to
    move, an empty history; over at once if neither player can place."""
    size = int(params[P_ROWS])
    state = header.new_header(int(params[P_HIST]) + max_moves(size))
    cells = empty_padded_board(size, size)
    unpad(cells, size, size)[:] = board
    state[HEADER : HEADER + padded_size(size, size)] = cells
    discs = int(params[P_DISCS])
    state[discs] = np.count_nonzero(board == 1)
    state[discs + 1] = np.count_nonzero(board == 2)
    state[H_PLAYER] = player
    if not can_place(cells, size, 0) and not can_place(cells, size, 1):
        state[H_OUTCOME] = _result(state[discs], state[discs + 1])
    return state


def decode_board(params: np.ndarray, state: np.ndarray) -> np.ndarray:
    """The ``(size, size)`` cells of ``state`` (a view: 0 empty, 1 and 2 the players' discs)."""
    size = int(params[P_ROWS])
    return unpad(state[HEADER : HEADER + padded_size(size, size)], size, size)


@njit(cache=True)
def _steps(width):
    """The eight directions as padded-index steps."""
    return (1, -1, width, -width, width + 1, -width - 1, width - 1, 1 - width)


@njit(cache=True)
def _flanks(board, pad, step, own, other):
    """True if a disc ``own`` at ``pad`` closes the line along ``step``: one or more
    ``other`` discs, then an ``own`` one."""
    probe = pad + step
    if board[probe] != other:
        return False
    probe += step
    while board[probe] == other:
        probe += step
    return board[probe] == own


@njit(cache=True)
def flips_any(board, pad, own, other, width):
    """True if a disc ``own`` at the empty ``pad`` would flip at least one line."""
    for step in _steps(width):  # noqa: SIM110 (numba compiles no generator into any())
        if _flanks(board, pad, step, own, other):
            return True
    return False


@njit(cache=True)
def place(board, pad, own, other, width):
    """Put ``own`` at ``pad`` and flip every line it closes; returns the number flipped."""
    flipped = 0
    for step in _steps(width):
        if _flanks(board, pad, step, own, other):
            probe = pad + step
            while board[probe] == other:
                board[probe] = own
                flipped += 1
                probe += step
    board[pad] = own
    return flipped


@njit(cache=True)
def placements(board, size, player, out):
    """Write the actions where ``player`` may place a disc (increasing) into ``out``; returns
    how many."""
    own = player + 1
    other = 2 - player
    width = size + 1
    count = 0
    for r in range(size):
        base = (r + 1) * width + 1
        for c in range(size):
            if board[base + c] == EMPTY and flips_any(board, base + c, own, other, width):
                out[count] = r * size + c
                count += 1
    return count


@njit(cache=True)
def can_place(board, size, player):
    """True if ``player`` has a placement."""
    own = player + 1
    other = 2 - player
    width = size + 1
    for r in range(size):
        base = (r + 1) * width + 1
        for c in range(size):
            if board[base + c] == EMPTY and flips_any(board, base + c, own, other, width):
                return True
    return False


@njit(cache=True)
def _result(discs_0, discs_1):
    if discs_0 > discs_1:
        return PLAYER_0_WINS
    if discs_1 > discs_0:
        return PLAYER_1_WINS
    return DRAW


@njit(cache=True)
def _pad(action, size):
    return (action // size + 1) * (size + 1) + action % size + 1


@compiled_kernel
def legal_actions(params, state, out):
    """Kernel: the placements that flip, or only the pass if there are none."""
    if state[H_OUTCOME] != ONGOING:
        return 0
    count = placements(state[HEADER:], params[P_ROWS], state[H_PLAYER], out)
    if count == 0:
        out[0] = params[P_PASS]
        count = 1
    return count


@compiled_kernel
def legal_mask(params, state, mask):
    """Kernel (main's contract, issue 10): 1 for each legal action, 0 for the others."""
    mask[:] = 0
    actions = np.empty(params[P_PASS] + 1, dtype=np.int64)
    for i in range(legal_actions(params, state, actions)):
        mask[actions[i]] = 1


@compiled_kernel
def check(params, state, action):
    """Kernel: Status.OK or why ``action`` is illegal."""
    if state[H_OUTCOME] != ONGOING:
        return GAME_OVER
    if action < 0 or action > params[P_PASS]:
        return OUT_OF_RANGE
    size = params[P_ROWS]
    board = state[HEADER:]
    player = state[H_PLAYER]
    if action == params[P_PASS]:
        return PASS_NOT_ALLOWED if can_place(board, size, player) else OK
    pad = _pad(action, size)
    if board[pad] != EMPTY:
        return OCCUPIED
    if not flips_any(board, pad, player + 1, 2 - player, size + 1):
        return NO_FLIP
    return OK


@compiled_kernel
def apply(params, state, action):
    """Kernel: place and flip (or pass); the game ends when neither player can place."""
    size = params[P_ROWS]
    player = state[H_PLAYER]
    board = state[HEADER:]
    if action != params[P_PASS]:
        flipped = place(board, _pad(action, size), player + 1, 2 - player, size + 1)
        discs = params[P_DISCS]
        state[discs + player] += flipped + 1
        state[discs + 1 - player] -= flipped
    record_move(state, params[P_HIST], action, 1 - player)
    if not can_place(board, size, 1 - player) and not can_place(board, size, player):
        discs = params[P_DISCS]
        state[H_OUTCOME] = _result(state[discs], state[discs + 1])


@compiled_kernel
def new_workspace(params):
    """Kernel: the play-out's list of empty cells (padded indices)."""
    return np.empty(params[P_PASS], dtype=np.int64)


@njit(cache=True)
def _random_placement(board, empties, free, own, other, width, rng):
    """Index in ``empties[:free]`` of a uniformly random placement of ``own``, or -1.

    The empty cells are visited in a random order (a Fisher-Yates shuffle drawn as it goes,
    which reorders ``empties``) and the first that flips is taken: the first legal cell of a
    uniformly random order is uniform among the legal cells, and it is usually found after a
    few cells instead of testing them all.
    """
    for i in range(free):
        j = i + random_below(rng, free - i)
        pad = empties[j]
        empties[j] = empties[i]
        empties[i] = pad
        if flips_any(board, pad, own, other, width):
            return i
    return -1


@njit(cache=True)
def _has_placement(board, empties, free, own, other, width):
    """True if ``own`` may place a disc on one of the cells ``empties[:free]``."""
    i = 0
    while i < free and not flips_any(board, empties[i], own, other, width):
        i += 1
    return i < free


@compiled_kernel
def playout(params, state, rng, workspace, moves, players, count):
    """Kernel: uniformly random legal actions (passes included) until neither player can
    place; the disc counts decide (the header's move count and history go stale)."""
    empties = workspace
    size = params[P_ROWS]
    width = size + 1
    board = state[HEADER:]
    free = 0
    for r in range(size):
        base = (r + 1) * width + 1
        for c in range(size):
            if board[base + c] == EMPTY:
                empties[free] = base + c
                free += 1
    discs = params[P_DISCS]
    player = state[H_PLAYER]
    while True:
        own, other = player + 1, 2 - player
        index = _random_placement(board, empties, free, own, other, width, rng)
        if index >= 0:
            pad = empties[index]
            free -= 1
            empties[index] = empties[free]
            flipped = place(board, pad, own, other, width)
            state[discs + player] += flipped + 1
            state[discs + 1 - player] -= flipped
            moves[count] = (pad // width - 1) * size + pad % width - 1
        elif _has_placement(board, empties, free, other, own, width):
            moves[count] = params[P_PASS]
        else:
            break
        players[count] = player
        count += 1
        player = 1 - player
    state[H_OUTCOME] = _result(state[discs], state[discs + 1])
    return count


KERNELS = header.header_kernels(globals())
