"""Optional game knowledge for depth-limited search: a position key and a static evaluation.

A game plugin may give its class (or instance) a ``heuristics`` attribute, a
:class:`Heuristics` tuple of two functions made with
:func:`~connectn_env.games.contract.compiled_kernel` (or None for either field):

``key(params, state) -> np.uint64``
    A 64-bit key of the position: the stones, the player to move and anything else that
    decides the legal moves and the result from here on (not the order in which the moves
    were played). Equal positions must get equal keys; different positions should get
    different keys (a transposition table trusts them). It need not look random: the search
    mixes it before indexing.
``evaluate(params, state) -> float``
    A static estimate of an unfinished position for the player to move, in ``[-1, 1]``
    (1: surely won). It is called at the leaves of the search: cheap beats clever.

These are not :class:`~connectn_env.games.contract.GameKernels` fields on purpose: a game
without them keeps working. :func:`heuristics_of` returns None for such a game, and the
search then falls back to a key built from the ``observe`` kernel's planes and an evaluation
of 0 (it still finds every forced result within its horizon and solves small games).

The helpers here (:func:`mix64`, :func:`cell_key`, :func:`popcount`) serve the plugins'
implementations.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from connectn_env.games.lib.header import H_PLAYER, HEADER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import EMPTY

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


class Heuristics(namedtuple("Heuristics", "key evaluate")):
    """A game's optional search knowledge (see the module docstring); a field may be None."""

    __slots__ = ()


def heuristics_of(game: Any) -> Heuristics | None:
    """The game's :class:`Heuristics`, or None if it offers none."""
    value = getattr(game, "heuristics", None)
    return value if isinstance(value, Heuristics) else None


@njit(cache=True)
def mix64(x):
    """SplitMix64's finaliser: a bijective mix of a uint64 (every input bit moves every output
    bit)."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def cell_key(cell, stone):
    """Zobrist number of ``stone`` (1 or 2) on ``cell``, computed instead of tabled."""
    return mix64(np.uint64(cell) * np.uint64(4) + np.uint64(stone))


PLAYER_KEY = np.uint64(0x5BD1E9955BD1E995)  # xor-ed into a key when player_1 is to move


@njit(cache=True)
def padded_board_key(rows, cols, state):
    """Zobrist key of the stones and the player to move of a state whose board is the padded
    layout after the header (rows of ``cols + 1`` cells below a padding row, as
    :mod:`~connectn_env.games.lib.placement` and Hex keep it)."""
    width = cols + 1
    value = np.uint64(0)
    for r in range(rows):
        base = HEADER + (r + 1) * width + 1
        for c in range(cols):
            stone = state[base + c]
            if stone != EMPTY:
                value ^= cell_key(r * cols + c, stone)
    if state[H_PLAYER] == 1:
        value ^= PLAYER_KEY
    return value


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (one machine instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.uint64)
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, [value])

    return types.uint64(x), codegen
