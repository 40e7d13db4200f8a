"""Othello kernels on bitboards, for boards of side 4, 6 and 8.

Each player's discs are one 64-bit word, cell (r, c) at bit ``8 * r + c`` whatever the size
(a smaller board uses the top-left corner of the 8 x 8 grid). A direction is a shift by 1, 7,
8 or 9 bits, left or right, followed by a mask of the cells a disc may land on: the board,
less column 0 for steps to the right (a wrap from the last column) or column 7 for steps to
the left. All placements of a player are found at once by flooding from its discs through the
opponent's, six steps per direction (the longest line of discs a move can flip on an 8 x 8
board); the discs a placement flips, the same way from the placed disc.

State (int64): the header of :mod:`~connectn_env.games.lib.header`, the two words (as int64),
then the history.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

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
from connectn_env.games.lib.rng import random_below
from connectn_env.games.othello.padded import centre_discs, max_moves

GRID = 8  # the words hold an 8 x 8 grid of cells, bit 8 * r + c

# params vector (int64)
P_ROWS = 0
P_COLS = 1
P_PASS = 2  # the pass action, size * size
P_BOARD = 3  # mask of the board's cells
P_RIGHT = 4  # where a step to the right may land: the board less column 0
P_LEFT = 5  # where a step to the left may land: the board less column 7
P_HIST = 6

S_WORDS = HEADER  # state[S_WORDS + player] is the player's word
_HIST = HEADER + 2
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


def fits(size: int) -> bool:
    """True if a ``size`` x ``size`` board fits the 8 x 8 grid of the words."""
    return size <= GRID


def _as_int64(word: int) -> int:
    """The int64 with the bits of the unsigned 64-bit ``word``."""
    return word - (1 << 64) if word >= 1 << 63 else word


def _bit(row: int, col: int) -> int:
    return 1 << (GRID * row + col)


def make_params(size: int) -> np.ndarray:
    """The read-only params vector of a ``size`` x ``size`` board (size at most 8)."""
    board = sum(_bit(r, c) for r in range(size) for c in range(size))
    column_0 = sum(_bit(r, 0) for r in range(GRID))
    column_7 = sum(_bit(r, GRID - 1) for r in range(GRID))
    params = np.array(
        [
            size,
            size,
            size * size,
            _as_int64(board),
            _as_int64(board & ~column_0),
            _as_int64(board & ~column_7),
            _HIST,
        ],
        dtype=np.int64,
    )
    params.flags.writeable = False
    return params


def initial_state(params: np.ndarray) -> np.ndarray:
    """The starting position: the four centre discs, player_0 to move."""
    size = int(params[P_ROWS])
    state = header.new_header(_HIST + max_moves(size), np.int64)
    words = [0, 0]
    for (row, col), player in centre_discs(size).items():
        words[player] |= _bit(row, col)
    state[S_WORDS] = _as_int64(words[0])
    state[S_WORDS + 1] = _as_int64(words[1])
    return state


def state_from_board(params: np.ndarray, board: np.ndarray, player: int) -> np.ndarray:
    """The state of a set-up position: ``board`` ((size, size) of 0, 1, 2), ``player`` to
    move, an empty history; over at once if neither player can place."""
    size = int(params[P_ROWS])
    state = header.new_header(_HIST + max_moves(size), np.int64)
    words = [0, 0]
    for (row, col), value in np.ndenumerate(board):
        if value:
            words[int(value) - 1] |= _bit(row, col)
    state[S_WORDS] = _as_int64(words[0])
    state[S_WORDS + 1] = _as_int64(words[1])
    state[H_PLAYER] = player
    _end_if_blocked(params, state)
    return state


def decode_board(params: np.ndarray, state: np.ndarray) -> np.ndarray:
    """A new ``(size, size)`` int8 board (0 empty, 1 and 2 the players' discs)."""
    size = int(params[P_ROWS])
    board = np.zeros((size, size), dtype=np.int8)
    for player in (0, 1):
        word = int(state[S_WORDS + player]) & (2**64 - 1)
        for r in range(size):
            for c in range(size):
                if word & _bit(r, c):
                    board[r, c] = player + 1
    return board


@intrinsic
def popcount(typingctx, word):
    """The number of set bits of a uint64 (one machine instruction)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@njit(cache=True)
def _left_flood(own, other, shift, land):
    """Runs of ``other`` that start next to an ``own`` disc, going ``shift`` bits up (at most
    six long; ``land`` masks where a step may land)."""
    through = other & land
    run = (own << shift) & through
    run |= (run << shift) & through
    run |= (run << shift) & through
    run |= (run << shift) & through
    run |= (run << shift) & through
    run |= (run << shift) & through
    return run


@njit(cache=True)
def _right_flood(own, other, shift, land):
    """:func:`_left_flood` going ``shift`` bits down."""
    through = other & land
    run = (own >> shift) & through
    run |= (run >> shift) & through
    run |= (run >> shift) & through
    run |= (run >> shift) & through
    run |= (run >> shift) & through
    run |= (run >> shift) & through
    return run


_S1 = np.uint64(1)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)


@njit(cache=True)
def placements_word(own, other, board, right, left):
    """The word of the empty cells where the owner of ``own`` may place a disc."""
    empty = board & ~(own | other)
    found = (_left_flood(own, other, _S1, right) << _S1) & right
    found |= (_right_flood(own, other, _S1, left) >> _S1) & left
    found |= (_left_flood(own, other, _S8, board) << _S8) & board
    found |= (_right_flood(own, other, _S8, board) >> _S8) & board
    found |= (_left_flood(own, other, _S9, right) << _S9) & right
    found |= (_right_flood(own, other, _S9, left) >> _S9) & left
    found |= (_left_flood(own, other, _S7, left) << _S7) & left
    found |= (_right_flood(own, other, _S7, right) >> _S7) & right
    return found & empty


@njit(cache=True)
def flips_word(move, own, other, board, right, left):
    """The word of the discs that placing the disc ``move`` (one bit) flips."""
    flips = _ZERO
    run = _left_flood(move, other, _S1, right)
    if (run << _S1) & right & own:
        flips |= run
    run = _right_flood(move, other, _S1, left)
    if (run >> _S1) & left & own:
        flips |= run
    run = _left_flood(move, other, _S8, board)
    if (run << _S8) & own:
        flips |= run
    run = _right_flood(move, other, _S8, board)
    if (run >> _S8) & own:
        flips |= run
    run = _left_flood(move, other, _S9, right)
    if (run << _S9) & right & own:
        flips |= run
    run = _right_flood(move, other, _S9, left)
    if (run >> _S9) & left & own:
        flips |= run
    run = _left_flood(move, other, _S7, left)
    if (run << _S7) & left & own:
        flips |= run
    run = _right_flood(move, other, _S7, right)
    if (run >> _S7) & right & own:
        flips |= run
    return flips


@njit(cache=True)
def _masks(params):
    return np.uint64(params[P_BOARD]), np.uint64(params[P_RIGHT]), np.uint64(params[P_LEFT])


@njit(cache=True)
def _word(state, player):
    return np.uint64(state[S_WORDS + player])


@njit(cache=True)
def _move_bit(action, size):
    return _ONE << np.uint64((action // size) * GRID + action % size)


@njit(cache=True)
def _action_of(bit, size):
    index = trailing_zeros(bit)
    return (index >> 3) * size + (index & 7)


@njit(cache=True)
def _final_outcome(own, other, player):
    """The Outcome of a finished game where ``own`` holds the discs of ``player``."""
    difference = np.int64(popcount(own)) - np.int64(popcount(other))
    if difference == 0:
        return DRAW
    return PLAYER_0_WINS if (difference > 0) == (player == 0) else PLAYER_1_WINS


@njit(cache=True)
def _end_if_blocked(params, state):
    """Set the outcome if neither player can place a disc."""
    board, right, left = _masks(params)
    black = _word(state, 0)
    white = _word(state, 1)
    if (
        placements_word(black, white, board, right, left) == _ZERO
        and placements_word(white, black, board, right, left) == _ZERO
    ):
        state[H_OUTCOME] = _final_outcome(black, white, 0)


@njit(cache=True)
def _mover_placements(params, state):
    """The word of the placements of the player to move."""
    board, right, left = _masks(params)
    player = state[H_PLAYER]
    return placements_word(_word(state, player), _word(state, 1 - player), board, right, left)


@compiled_kernel
def legal_actions(params, state, out):
    """Kernel: the placements (increasing), or only the pass if there are none."""
    if state[H_OUTCOME] != ONGOING:
        return 0
    found = _mover_placements(params, state)
    if found == _ZERO:
        out[0] = params[P_PASS]
        return 1
    size = params[P_ROWS]
    count = 0
    while found:
        out[count] = _action_of(found, size)
        count += 1
        found &= found - _ONE
    return count


@compiled_kernel
def legal_mask(params, state, mask):
    """Kernel (main's contract, issue 10): 1 for each legal action, 0 for the others."""
    mask[:] = 0
    if state[H_OUTCOME] != ONGOING:
        return
    found = _mover_placements(params, state)
    if found == _ZERO:
        mask[params[P_PASS]] = 1
    size = params[P_ROWS]
    while found:
        mask[_action_of(found, size)] = 1
        found &= found - _ONE


@compiled_kernel
def check(params, state, action):
    """Kernel: Status.OK or why ``action`` is illegal."""
    if state[H_OUTCOME] != ONGOING:
        return GAME_OVER
    if action < 0 or action > params[P_PASS]:
        return OUT_OF_RANGE
    board, right, left = _masks(params)
    player = state[H_PLAYER]
    own = _word(state, player)
    other = _word(state, 1 - player)
    if action == params[P_PASS]:
        if placements_word(own, other, board, right, left) != _ZERO:
            return PASS_NOT_ALLOWED
        return OK
    move = _move_bit(action, params[P_ROWS])
    if (own | other) & move:
        return OCCUPIED
    if flips_word(move, own, other, board, right, left) == _ZERO:
        return NO_FLIP
    return OK


@compiled_kernel
def apply(params, state, action):
    """Kernel: place and flip (or pass); the game ends when neither player can place."""
    board, right, left = _masks(params)
    player = state[H_PLAYER]
    own = _word(state, player)
    other = _word(state, 1 - player)
    if action != params[P_PASS]:
        move = _move_bit(action, params[P_ROWS])
        flips = flips_word(move, own, other, board, right, left)
        own |= flips | move
        other &= ~flips
        state[S_WORDS + player] = np.int64(own)
        state[S_WORDS + 1 - player] = np.int64(other)
    record_move(state, params[P_HIST], action, 1 - player)
    _end_if_blocked(params, state)


@compiled_kernel
def new_workspace(params):
    """Kernel: the play-out needs no work arrays (a placeholder array)."""
    return np.empty(0, dtype=np.int64)


@compiled_kernel
def playout(params, state, rng, workspace, moves, players, count):
    """Kernel: uniformly random legal actions (passes included) on local words until neither
    player can place (the state keeps only the outcome)."""
    board, right, left = _masks(params)
    size = params[P_ROWS]
    pass_action = params[P_PASS]
    player = state[H_PLAYER]
    own = _word(state, player)
    other = _word(state, 1 - player)
    while True:
        found = placements_word(own, other, board, right, left)
        if found != _ZERO:
            for _ in range(random_below(rng, np.int64(popcount(found)))):
                found &= found - _ONE
            move = found & (_ZERO - found)  # the lowest remaining placement
            flips = flips_word(move, own, other, board, right, left)
            own |= flips | move
            other &= ~flips
            moves[count] = _action_of(move, size)
        elif placements_word(other, own, board, right, left) != _ZERO:
            moves[count] = pass_action
        else:
            break
        players[count] = player
        count += 1
        own, other = other, own
        player = 1 - player
    state[H_OUTCOME] = _final_outcome(own, other, player)
    return count


@compiled_kernel
def observe(params, state, player, out):
    """Kernel: planes [player's discs, opponent's discs], flattened (size, size, 2)."""
    size = params[P_ROWS]
    own = _word(state, player)
    other = _word(state, 1 - player)
    i = 0
    for r in range(size):
        for c in range(size):
            bit = np.uint64(r * GRID + c)
            out[i] = (own >> bit) & _ONE
            out[i + 1] = (other >> bit) & _ONE
            i += 2


KERNELS = header.header_kernels(globals())
