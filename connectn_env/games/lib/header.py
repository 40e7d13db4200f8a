"""The state header every game of the suite starts its state array with, and its kernels.

``state[H_PLAYER]`` player to move (0 or 1), ``state[H_MOVES]`` actions played so far,
``state[H_OUTCOME]`` an :class:`~connectn_env.games.contract.Outcome` code, ``state[H_LAST]``
the last action (``NO_ACTION`` before the first). A game that uses this header takes
:func:`player` and :func:`outcome` as its kernels (:func:`header_kernels`) and
:func:`record_move` to update it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from connectn_env.games.contract import NO_ACTION, GameKernels, compiled_kernel
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import observe_padded

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


@compiled_kernel
def observe_padded_board(params, state, player, out):
    """Kernel: planes [player's stones, opponent's stones], flattened (rows, cols, 2), of a
    padded board (:mod:`~connectn_env.games.lib.lines`) right after the header, with rows and
    cols in ``params[0]`` and ``params[1]``."""
    observe_padded(params[0], params[1], state[HEADER:], player, out)


def header_kernels(namespace: dict[str, Any], **chosen: Any) -> GameKernels:
    """The kernels of a game module whose state starts with this header: :func:`player` and
    :func:`outcome`, and for each other field of
    :class:`~connectn_env.games.contract.GameKernels` the function of that name in
    ``namespace`` (the module's ``globals()``), unless ``chosen`` gives it; ``observe`` is
    :func:`observe_padded_board` where neither has one."""
    given = {name: namespace[name] for name in GameKernels._fields[2:] if name in namespace}
    return GameKernels(
        **{"observe": observe_padded_board, **given, **chosen}, player=player, outcome=outcome
    )
