"""A game's compiled state layout, and what Python code reads from a state array of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from connectn_env.games.contract import NO_ACTION, GameKernels
from connectn_env.games.lib.header import H_LAST, H_MOVES, H_OUTCOME, H_PLAYER


@dataclass(frozen=True, eq=False)
class Representation:
    """One state layout of a game: its kernels, its constants and a decoder of its board.

    A game may choose among several (Connect-N keeps small gravity boards as bitboards). Every
    layout of the suite starts with the header of :mod:`~connectn_env.games.lib.header`.

    Attributes:
        kernels: The compiled functions (see :mod:`~connectn_env.games.contract`).
        params: The game's constant int64 vector, passed to every kernel (read-only).
        initial: The state array of the empty board (copied, never changed).
        history_offset: Where the actions played are kept in the state array.
        decode_board: ``(params, state) -> (rows, cols) array``: 0 empty, 1 and 2 the stones
            of player_0 and player_1.
    """

    kernels: GameKernels
    params: np.ndarray
    initial: np.ndarray
    history_offset: int
    decode_board: Callable[[np.ndarray, np.ndarray], np.ndarray]

    @classmethod
    def of(
        cls, layout: ModuleType, params: np.ndarray, kernels: GameKernels | None = None
    ) -> Representation:
        """The representation of a layout module with these ``params``: its ``KERNELS``
        (unless ``kernels`` is given), ``initial_state(params)``, the history offset at
        ``params[P_HIST]`` and ``decode_board``."""
        return cls(
            layout.KERNELS if kernels is None else kernels,
            params,
            layout.initial_state(params),
            int(params[layout.P_HIST]),
            layout.decode_board,
        )

    def player(self, data: np.ndarray) -> int:
        """The player to move (meaningless once the game is over)."""
        return int(data[H_PLAYER])

    def outcome(self, data: np.ndarray) -> int:
        """The Outcome code."""
        return int(data[H_OUTCOME])

    def move_count(self, data: np.ndarray) -> int:
        """Actions played so far."""
        return int(data[H_MOVES])

    def last_action(self, data: np.ndarray) -> int | None:
        """The last action, None before the first."""
        last = int(data[H_LAST])
        return None if last == NO_ACTION else last

    def history(self, data: np.ndarray) -> list[int]:
        """The actions played so far, in order."""
        start = self.history_offset
        return data[start : start + int(data[H_MOVES])].tolist()

    def board(self, data: np.ndarray) -> np.ndarray:
        """A new int8 ``(rows, cols)`` board."""
        return np.array(self.decode_board(self.params, data), dtype=np.int8)
