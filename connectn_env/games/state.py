"""A position of any game of the suite: :class:`GameState`, OpenSpiel's planning interface.

``current_player``, ``legal_actions``, ``apply_action``, ``clone``, ``is_terminal`` and
``returns`` have the names and meanings of ``pyspiel.State``'s; ``legal_action_mask``,
``history``, ``observation``, ``board`` and ``winning_cells`` serve environments and
renderers. A position is one array (the game's representation), so ``clone`` is one copy.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from connectn_env.errors import ConnectnError
from connectn_env.games.codes import OK, ONGOING
from connectn_env.games.contract import TERMINAL_PLAYER, Outcome, Status

if TYPE_CHECKING:
    from connectn_env.games.game import BoardGame

_RETURNS = {
    Outcome.PLAYER_0_WINS: [1.0, -1.0],
    Outcome.PLAYER_1_WINS: [-1.0, 1.0],
}


class IllegalActionError(ValueError, ConnectnError):
    """An action that is not legal in the current position (the position is unchanged)."""


class GameState:
    """A position of a :class:`~connectn_env.games.BoardGame`.

    Attributes:
        game: The game this position belongs to.
        data: The state array of the game's representation; compiled code reads and copies
            it through the game's kernels. Do not change it by hand.
    """

    __slots__ = ("data", "game")

    def __init__(self, game: BoardGame, data: np.ndarray) -> None:
        self.game = game
        self.data = data

    # --- planning interface --------------------------------------------------------

    def current_player(self) -> int:
        """0 or 1, or ``TERMINAL_PLAYER`` (-4, as in OpenSpiel) once the game is over."""
        representation = self.game.representation
        if representation.outcome(self.data) != ONGOING:
            return TERMINAL_PLAYER
        return representation.player(self.data)

    def legal_actions(self) -> list[int]:
        """Legal actions in increasing order (empty once the game is over)."""
        actions = np.empty(self.game.num_actions, dtype=np.int64)
        count = self.game.kernels.legal_actions(self.game.params, self.data, actions)
        return actions[:count].tolist()

    def legal_action_mask(self) -> np.ndarray:
        """A new int8 array of length ``num_distinct_actions``: 1 legal, 0 illegal."""
        mask = np.empty(self.game.num_actions, dtype=np.int8)
        self.game.kernels.legal_mask(self.game.params, self.data, mask)
        return mask

    def apply_action(self, action: int) -> None:
        """Play ``action`` for the player to move.

        Raises:
            TypeError: ``action`` is not an integer (numpy integers are accepted).
            IllegalActionError: the action is out of range or not legal now (the message says
                why); the state is unchanged.
        """
        game = self.game
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise TypeError(
                f"action must be an int, got {action!r} of type {type(action).__name__}"
            )
        action = int(action)
        if not 0 <= action < game.num_actions:  # checked here: huge ints never reach numba
            raise IllegalActionError(
                f"action {action} is illegal: actions are 0 to {game.num_actions - 1} for {game!r}"
            )
        status = game.kernels.check(game.params, self.data, action)
        if status != OK:
            raise IllegalActionError(game.illegal_reason(self, action, Status(status)))
        game.kernels.apply(game.params, self.data, action)

    def clone(self) -> GameState:
        """An independent copy of this position."""
        return GameState(self.game, self.data.copy())

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.game.representation.outcome(self.data) != ONGOING

    def returns(self) -> list[float]:
        """[return of player_0, return of player_1]: +1 win, -1 loss, 0 draw or ongoing."""
        return list(_RETURNS.get(self.outcome, [0.0, 0.0]))

    # --- inspection ----------------------------------------------------------------

    @property
    def outcome(self) -> Outcome:
        """The game's Outcome so far."""
        return Outcome(self.game.representation.outcome(self.data))

    @property
    def winner(self) -> int | None:
        """0 or 1 if that player has won, else None."""
        outcome = self.outcome
        if outcome in (Outcome.PLAYER_0_WINS, Outcome.PLAYER_1_WINS):
            return int(outcome) - 1
        return None

    def history(self) -> list[int]:
        """Actions played so far, in order."""
        return self.game.representation.history(self.data)

    @property
    def move_number(self) -> int:
        """Number of actions played so far."""
        return self.game.representation.move_count(self.data)

    @property
    def last_action(self) -> int | None:
        """The last action played, or None before the first move."""
        return self.game.representation.last_action(self.data)

    def last_move_cell(self) -> tuple[int, int] | None:
        """(row, col) of the stone the last action placed, or None (no move yet, or a move
        that placed no stone)."""
        return self.game.last_move_cell(self)

    @property
    def board(self) -> np.ndarray:
        """A new int8 (rows, cols) array: 0 empty, 1 player_0's stone, 2 player_1's stone."""
        return self.game.representation.board(self.data)

    def observation(self, player: int) -> np.ndarray:
        """A new int8 (rows, cols, 2) array: plane 0 ``player``'s stones, plane 1 the opponent's.

        Raises:
            TypeError: ``player`` is not an integer.
            ValueError: ``player`` is not 0 or 1.
        """
        if isinstance(player, bool) or not isinstance(player, numbers.Integral):
            raise TypeError(
                f"player must be 0 or 1, got {player!r} of type {type(player).__name__}"
            )
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player}")
        game = self.game
        out = np.empty(game.rows * game.cols * 2, dtype=np.int8)
        game.kernels.observe(game.params, self.data, int(player), out)
        return out.reshape(game.rows, game.cols, 2)

    def winning_cells(self) -> list[tuple[int, int]]:
        """Cells of the winning line or chain (sorted); [] if nobody has won."""
        if self.winner is None:
            return []
        return self.game.winning_cells(self)

    # --- text, equality, pickling ----------------------------------------------------

    def __str__(self) -> str:
        return self.game.text(self)

    def __repr__(self) -> str:
        return f"GameState({self.game!r}, history={self.history()})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return other.game == self.game and self.history() == other.history()

    def __hash__(self) -> int:
        return hash((self.game, tuple(self.history())))

    def __getstate__(self) -> tuple[BoardGame, np.ndarray]:
        return (self.game, self.data)

    def __setstate__(self, state: tuple[Any, np.ndarray]) -> None:
        self.game, self.data = state
