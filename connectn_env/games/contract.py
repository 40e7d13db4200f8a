"""The plugin contract: what every game gives compiled code, and the codes it speaks in.

A game plugin (see ``connectn_env.games.game.BoardGame``) owns its rules as compiled
(numba) functions over its own flat state array and a constant ``params`` vector. It hands
them to compiled clients (the search, the vector env, self-play) as one :class:`GameKernels`
tuple; clients call ``kernels.apply(params, state, action)`` and never read the state array
themselves. Each field is a function decorated with :func:`compiled_kernel`:

``player(params, state) -> int``
    The player to move, 0 or 1 (meaningless once the game is over).
``outcome(params, state) -> int``
    An :class:`Outcome` code; ``ONGOING`` until the game ends.
``legal_actions(params, state, out) -> int``
    Write the legal actions (increasing) into the int64 array ``out`` (length
    ``num_actions``); return how many. Zero once the game is over.
``legal_mask(params, state, mask)``
    Write 1 for each legal action and 0 for the others into the int8 array ``mask`` (length
    ``num_actions``; all 0 once the game is over).
``check(params, state, action) -> int``
    ``Status.OK`` if ``action`` (any int) is legal now, else the reason it is not.
``apply(params, state, action)``
    Play a legal ``action`` for the player to move and update the outcome. A game may pass
    the turn in any order (the search reads the mover from ``player`` at every node) and may
    end before the board is full.
``new_workspace(params) -> workspace``
    Work arrays of ``playout`` (any numba value: an array or a tuple of arrays).
``playout(params, state, rng, workspace, moves, players, count) -> int``
    Finish the game with uniformly random legal moves. Move ``i`` of the play-out is written to
    ``moves[count + i]`` (int64) and its mover to ``players[count + i]``; returns ``count``
    plus the number of moves. Afterwards only ``outcome(params, state)`` is meaningful: a
    game may play out on a faster private representation. ``rng`` is an xorshift state
    (uint64 array of one); use :func:`~connectn_env.games.lib.rng.random_below`.
``observe(params, state, player, out)``
    Write the int8 planes ``[player's stones, opponent's stones]`` of shape
    ``(rows, cols, 2)``, flattened, into ``out``.

Compiled clients take the kernels as an argument and are specialised per game by numba.
:func:`compiled_kernel` gives every kernel a stable identity so that those specialisations
are cached on disk like any ``@njit(cache=True)`` function.

Every kernel but ``new_workspace`` (and a game's tactics) must not allocate: no new arrays, no
slice copies between arrays, no arrays returned. The search loop
(:func:`agents.loop.run_simulations`) is compiled without numba's reference counting, which
it inherits; numba refuses an allocating kernel there with a ``TypingError`` when it compiles
the loop.
"""

from __future__ import annotations

from collections import namedtuple
from enum import IntEnum
from typing import Any

from numba import typeof
from numba.core.typing.typeof import _typeof_tuple
from numba.extending import typeof_impl

from connectn_env.games.lib.jit import njit

# Value of ``current_player()`` once the game is over (same as pyspiel.PlayerId.TERMINAL).
TERMINAL_PLAYER = -4
NO_ACTION = -1


class Outcome(IntEnum):
    """Result of a game, as the ``outcome`` kernel reports it."""

    ONGOING = 0
    PLAYER_0_WINS = 1
    PLAYER_1_WINS = 2
    DRAW = 3


class Status(IntEnum):
    """Answer of the ``check`` kernel: OK, or why an action is illegal now."""

    OK = 0
    GAME_OVER = 1
    OUT_OF_RANGE = 2
    OCCUPIED = 3
    COLUMN_FULL = 4
    SWAP_NOT_ALLOWED = 5
    PASS_NOT_ALLOWED = 6
    NO_FLIP = 7


_KERNEL_FIELDS = (
    "player",
    "outcome",
    "legal_actions",
    "legal_mask",
    "check",
    "apply",
    "new_workspace",
    "playout",
    "observe",
)


TYPES_KEPT = 256  # the newest tuples of a class whose numba types are kept


def typed_once_per_tuple(cls: type) -> type:
    """Class decorator of a namedtuple of compiled functions: numba types each tuple once
    (typing its eight or so dispatchers on every call would cost about 40 microseconds; a
    search policy is passed once per leaf of a network-guided search). The newest
    :data:`TYPES_KEPT` tuples are kept: a rule that prepares its settings makes a policy per
    search. The class keeps them as ``_numba_types``."""
    types: dict[int, tuple[Any, Any]] = {}
    cls._numba_types = types

    @typeof_impl.register(cls)
    def _typeof(value: Any, context: Any) -> Any:
        entry = types.get(id(value))
        if entry is None or entry[0] is not value:
            if len(types) >= TYPES_KEPT:
                types.clear()
            entry = types[id(value)] = (value, _typeof_tuple(value, context))
        return entry[1]

    return cls


@typed_once_per_tuple
class GameKernels(namedtuple("GameKernels", _KERNEL_FIELDS)):
    """The compiled functions of one game representation (see the module docstring)."""

    __slots__ = ()


def compiled_kernel(function: Any) -> Any:
    """``@njit(cache=True)`` (:mod:`connectn_env.games.lib.jit`'s) with a stable identity.

    numba keys the on-disk cache of a function that receives other compiled functions as
    arguments by those functions' identities, which are random per process unless set. A
    kernel's identity is its module and qualified name, so compiled clients specialised on a
    game load from the cache in every new process instead of compiling again.
    """
    dispatcher = njit(cache=True)(function)
    dispatcher._set_uuid(f"connectn-kernel:{function.__module__}.{function.__qualname__}")
    return dispatcher


def bind(dispatcher: Any, *example_args: Any) -> Any:
    """The compiled entry point of ``dispatcher`` for the types of ``example_args``.

    Compiles it (or loads it from the cache) now. Calling the entry point skips numba's
    per-call typing of the arguments, about 3 microseconds with a kernels tuple: worth it for
    a compiled function called once per environment step. Only call it with arguments of
    exactly the example's types (dtypes, dimensions, layouts): they are not checked.
    """
    signature = tuple(typeof(arg) for arg in example_args)
    dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point
