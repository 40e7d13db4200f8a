"""Flat-array layout shared by the rules kernels, the state class and compiled search.

A game is described by an ``int64`` *params* vector and a position by an ``int32``
*state* vector, so that a position is cloned by one array copy and compiled code
(numba) can work on it without Python objects.

State vector::

    [0 .. HEADER)                 header: player to move, moves played, outcome, ...
    [HEADER .. HEADER+cells)      board, row-major, row 0 at the top: EMPTY or player+1
    [aux .. aux+aux_len)          column heights (gravity games) or union-find parents (Hex)
    [hist .. hist+max_moves)      actions played so far, in order
"""

from __future__ import annotations

from enum import IntEnum

# --- params vector (int64) -------------------------------------------------------
P_KIND = 0  # KIND_K_IN_A_ROW or KIND_HEX
P_ROWS = 1
P_COLS = 2
P_N = 3  # stones in a row needed to win (k-in-a-row games)
P_GRAVITY = 4  # 1: an action is a column and the stone drops
P_EXACT = 5  # 1: exactly n in a row wins (Gomoku standard rule), 0: n or more
P_SWAP = 6  # 1: Hex swap (pie) rule enabled
P_NUM_ACTIONS = 7
P_AUX = 8  # offset of the aux block in the state vector
P_HIST = 9  # offset of the history block in the state vector
P_MAX_MOVES = 10
P_STATE_SIZE = 11
PARAMS_SIZE = 12

KIND_K_IN_A_ROW = 0
KIND_HEX = 1

# --- state vector header (int32) -------------------------------------------------
S_PLAYER = 0  # player to move (0 or 1)
S_MOVES = 1  # actions applied so far (length of the history)
S_OUTCOME = 2  # an Outcome value
S_LAST = 3  # last action, NO_ACTION before the first move
S_STONES = 4  # stones on the board
HEADER = 5

EMPTY = 0  # board value of an empty cell; a stone of player p is p + 1
NO_ACTION = -1

# Hex union-find: virtual nodes after the cells (offsets from ``cells``).
HEX_TOP = 0
HEX_BOTTOM = 1
HEX_LEFT = 2
HEX_RIGHT = 3
HEX_VIRTUAL_NODES = 4

# Value of ``current_player()`` once the game is over (same as pyspiel.PlayerId.TERMINAL).
TERMINAL_PLAYER = -4


class Outcome(IntEnum):
    """Result of a game, as stored in the state vector."""

    ONGOING = 0
    PLAYER_0_WINS = 1
    PLAYER_1_WINS = 2
    DRAW = 3


class Status(IntEnum):
    """Result code of the checked apply kernel; anything but OK leaves the state unchanged."""

    OK = 0
    GAME_OVER = 1
    OUT_OF_RANGE = 2
    OCCUPIED = 3
    COLUMN_FULL = 4
    SWAP_NOT_ALLOWED = 5
