"""Optional game knowledge for the search's roll-out policies and tactical expansion.

A game plugin may give its search a :class:`Tactics` tuple (``game.tactics``) next to its
:class:`~connectn_env.games.contract.GameKernels`: compiled functions that answer fast what the
policies ask ("which move wins at once?", "which moves are near the stones?") and keep their
answers up to date move by move during a roll-out. A game without one gets
:data:`GENERIC_TACTICS`, built from the kernels alone (copy the state, apply, read the outcome):
correct for any game, slower, and unable to tell the opponent's threats.

Every function takes the game's ``kernels`` first (the generic tactics need them; a game's own
may ignore them) and its ``params``; ``tws`` is the tactics' workspace. The functions a
roll-out calls at every move (``play``, ``random_move``, ``winning_move``) should stay small,
without calls to large functions: numba then inlines them, and a call costs nothing (a call it
cannot inline costs about 30 ns, as much as a whole move).

``new_workspace(kernels, params, state, num_actions) -> tws``
    Work arrays (any numba value); ``state`` is any position of the game (for sizes).
``start(kernels, params, state, tws, flags, rng, moves, players, count) -> count``
    Prepare a roll-out from ``state`` (which the roll-out consumes; the game is not over).
    ``flags``: a sum of :data:`DECISIVE` (``winning_move`` will be asked) and :data:`LOCAL`
    (``random_move`` draws among the moves near the stones). A game may play the first moves
    itself, uniformly at random (Hex while the swap may still come), recording each move and
    its mover in ``moves``/``players`` from ``count`` on; returns the new count.
``play(kernels, params, state, tws, action) -> outcome``
    Make a legal move of the roll-out. Returns the Outcome code, or :data:`UNDECIDED` when no
    move is left and the result is to be read with ``finish``. Afterwards ``kernels.player``
    and ``kernels.check`` answer for the new position; other parts of the state may go stale
    until the roll-out ends.
``finish(kernels, params, state, tws) -> outcome``
    The Outcome code of a roll-out whose last ``play`` returned :data:`UNDECIDED`.
``random_move(kernels, params, state, tws, rng) -> action``
    A uniformly random legal move (with :data:`LOCAL`: among the moves near the stones, if
    any). The game is not over.
``winning_move(kernels, params, state, tws, player) -> action``
    A move with which ``player`` wins at once, or -1. For the player *not* to move it is the
    threat to stop: in the suite's games (placement games) the player to move occupies that
    action to block it. Needs :data:`DECISIVE` at ``start``.
``expansion(kernels, params, state, tws, out, flags) -> count``
    The moves a new tree node gets (written to ``out``). With :data:`DECISIVE`: only the
    winning moves if there are any; else only the moves that stop the opponent's immediate
    win if it has one (a game may know more: Gomoku also keeps only the defences against an
    open three, and its own fours). With :data:`LOCAL`: only moves near the stones. ``state``
    is a full position of the tree (not a roll-out's) and is left unchanged.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from connectn_env.games.contract import compiled_kernel, typed_once_per_tuple
from connectn_env.games.lib.rng import random_below

DECISIVE = 1
LOCAL = 2
UNDECIDED = -1  # what ``play`` returns when the result is left to ``finish``


_TACTICS_FIELDS = (
    "new_workspace",
    "start",
    "play",
    "finish",
    "random_move",
    "winning_move",
    "expansion",
)


@typed_once_per_tuple
class Tactics(namedtuple("Tactics", _TACTICS_FIELDS)):
    """The compiled functions of a game's tactics (see the module docstring)."""

    __slots__ = ()

    @classmethod
    def of(cls, namespace: dict[str, Any], prefix: str = "", **chosen: Any) -> Tactics:
        """The tactics whose functions are named ``prefix`` + the field in ``namespace`` (a
        module's ``globals()``), unless ``chosen`` gives them."""
        fields = {name: namespace[prefix + name] for name in cls._fields if name not in chosen}
        return cls(**fields, **chosen)


# --- the generic tactics: the kernels alone -------------------------------------------------

_G_COUNT = 0  # legal moves listed in the workspace
_G_PLAYER = 1  # the player to move when the list was made


@compiled_kernel
def generic_new_workspace(kernels, params, state, num_actions):
    """Work arrays: the legal moves, a state copy for trying moves, counters."""
    return (
        np.empty(num_actions, dtype=np.int64),
        np.empty_like(state),
        np.zeros(2, dtype=np.int64),
    )


@compiled_kernel
def generic_start(kernels, params, state, tws, flags, rng, moves, players, count):
    """List the legal moves."""
    legal, _, counters = tws
    counters[_G_COUNT] = kernels.legal_actions(params, state, legal)
    return count


@compiled_kernel
def generic_play(kernels, params, state, tws, action):
    """Apply the move and list the legal moves again."""
    legal, _, counters = tws
    kernels.apply(params, state, action)
    counters[_G_COUNT] = kernels.legal_actions(params, state, legal)
    return kernels.outcome(params, state)


@compiled_kernel
def generic_finish(kernels, params, state, tws):
    """The outcome (``play`` never leaves it undecided)."""
    return kernels.outcome(params, state)


@compiled_kernel
def generic_random_move(kernels, params, state, tws, rng):
    """A uniformly random legal move (no neighbourhoods: ``LOCAL`` is not supported)."""
    legal, _, counters = tws
    return legal[random_below(rng, counters[_G_COUNT])]


@compiled_kernel
def generic_winning_move(kernels, params, state, tws, player):
    """A move that wins at once for the player to move (each legal move tried on a copy);
    -1 for the other player: the kernels cannot tell its threats."""
    legal, trial, counters = tws
    if player != kernels.player(params, state):
        return -1
    for i in range(counters[_G_COUNT]):
        trial[:] = state
        kernels.apply(params, trial, legal[i])
        if kernels.outcome(params, trial) == player + 1:  # Outcome.PLAYER_<p>_WINS
            return legal[i]
    return -1


@compiled_kernel
def generic_expansion(kernels, params, state, tws, out, flags):
    """All legal moves; with ``DECISIVE`` only the winning ones if there are any."""
    trial = tws[1]
    count = kernels.legal_actions(params, state, out)
    if flags & DECISIVE == 0:
        return count
    player = kernels.player(params, state)
    wins = 0
    for i in range(count):
        trial[:] = state
        kernels.apply(params, trial, out[i])
        if kernels.outcome(params, trial) == player + 1:
            out[wins] = out[i]
            wins += 1
    if wins > 0:
        return wins
    return kernels.legal_actions(params, state, out)


GENERIC_TACTICS = Tactics.of(globals(), "generic_")
