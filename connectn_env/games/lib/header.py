"""The state header every game of the suite starts its state array with, and its kernels.

``state[H_PLAYER]`` player to move (0 or 1), ``state[H_MOVES]`` actions played so far,
``state[H_OUTCOME]`` an :class:`~connectn_env.games.contract.Outcome` code, ``state[H_LAST]``
the last action (``NO_ACTION`` before the first). A game that uses this header takes
:func:`player` and :func:`outcome` as its kernels and :func:`record_move` to update it.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.contract import NO_ACTION, compiled_kernel
from connectn_env.games.lib.jit import njit

H_PLAYER = 0
H_MOVES = 1
H_OUTCOME = 2
H_LAST = 3
HEADER = 4


def new_header(size: int, dtype: type = np.int32) -> np.ndarray:
    """A zeroed state array of ``size`` entries with an empty-board header (player_0 to move)."""
    state = np.zeros(size, dtype=dtype)
    state[H_LAST] = NO_ACTION
    return state


@compiled_kernel
def player(params, state):
    """Kernel: the player to move."""
    return state[H_PLAYER]


@compiled_kernel
def outcome(params, state):
    """Kernel: the Outcome code."""
    return state[H_OUTCOME]


@njit(cache=True)
def record_move(state, history_offset, action, next_player):
    """Append ``action`` to the history at ``history_offset`` and hand the turn over."""
    moves = state[H_MOVES]
    state[history_offset + moves] = action
    state[H_MOVES] = moves + 1
    state[H_LAST] = action
    state[H_PLAYER] = next_player
