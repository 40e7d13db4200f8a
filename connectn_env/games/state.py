"""The board-game description (:class:`BoardGame`) and position (:class:`GameState`).

``GameState`` implements the planning interface shared with OpenSpiel's ``pyspiel.State``:
``current_player``, ``legal_actions``, ``apply_action``, ``clone``, ``is_terminal``,
``returns``; plus ``legal_action_mask``, ``history``, ``observation`` and a text form.
A position is one int32 vector (see ``layout``), so ``clone`` is one array copy.
"""

from __future__ import annotations

import numbers
from collections import deque
from typing import Any

import numpy as np

from connectn_env.games import kernels
from connectn_env.games.layout import (
    EMPTY,
    HEADER,
    HEX_VIRTUAL_NODES,
    KIND_HEX,
    NO_ACTION,
    P_AUX,
    P_COLS,
    P_EXACT,
    P_GRAVITY,
    P_HIST,
    P_KIND,
    P_MAX_MOVES,
    P_N,
    P_NUM_ACTIONS,
    P_ROWS,
    P_STATE_SIZE,
    P_SWAP,
    PARAMS_SIZE,
    S_LAST,
    S_MOVES,
    S_OUTCOME,
    S_PLAYER,
    TERMINAL_PLAYER,
    Outcome,
    Status,
)

_LINE_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
_HEX_NEIGHBOURS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1))
_STONE_CHARS = {EMPTY: ".", 1: "x", 2: "o"}
_ONGOING = int(Outcome.ONGOING)
# _PLANES[player][board value] -> (own, opponent) plane values of one cell.
_PLANES = np.array([[[0, 0], [1, 0], [0, 1]], [[0, 0], [0, 1], [1, 0]]], dtype=np.int8)


class IllegalActionError(ValueError):
    """An action that is not legal in the current position (the position is unchanged)."""


class BoardGame:
    """Rules and parameters of one game; immutable once built.

    Use the subclasses :class:`~connectn_env.games.ConnectNGame`,
    :class:`~connectn_env.games.GomokuGame` and :class:`~connectn_env.games.HexGame`.
    """

    name: str = "board_game"

    def __init__(
        self,
        *,
        kind: int,
        rows: int,
        cols: int,
        n: int = 0,
        gravity: bool = False,
        exact: bool = False,
        swap: bool = False,
    ) -> None:
        cells = rows * cols
        num_actions = cols if gravity else cells + int(swap)
        aux_len = cells + HEX_VIRTUAL_NODES if kind == KIND_HEX else (cols if gravity else 0)
        max_moves = cells + int(swap)
        params = np.zeros(PARAMS_SIZE, dtype=np.int64)
        params[P_KIND] = kind
        params[P_ROWS] = rows
        params[P_COLS] = cols
        params[P_N] = n
        params[P_GRAVITY] = int(gravity)
        params[P_EXACT] = int(exact)
        params[P_SWAP] = int(swap)
        params[P_NUM_ACTIONS] = num_actions
        params[P_AUX] = HEADER + cells
        params[P_HIST] = HEADER + cells + aux_len
        params[P_MAX_MOVES] = max_moves
        params[P_STATE_SIZE] = HEADER + cells + aux_len + max_moves
        params.flags.writeable = False
        self.params = params
        self.rows = rows
        self.cols = cols
        self.num_actions = num_actions
        self.gravity = gravity
        self._initial = kernels.init_state(params, int(params[P_STATE_SIZE]))

    @property
    def kind(self) -> int:
        """``layout.KIND_K_IN_A_ROW`` or ``layout.KIND_HEX``."""
        return int(self.params[P_KIND])

    @property
    def parameters(self) -> dict[str, Any]:
        """Constructor keyword arguments that rebuild this game."""
        raise NotImplementedError

    def new_initial_state(self) -> GameState:
        """The empty board, ``player_0`` to move."""
        return GameState(self, self._initial.copy())

    def num_distinct_actions(self) -> int:
        """Size of the action space (same name as OpenSpiel's)."""
        return self.num_actions

    def action_to_cell(self, action: int) -> tuple[int, int] | None:
        """(row, col) an action names; for gravity games the column's top row; None for swap."""
        if self.gravity:
            return (0, action)
        if action == self.rows * self.cols:
            return None
        return divmod(action, self.cols)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and np.array_equal(self.params, other.params)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.params.tobytes()))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.parameters.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self):
        return (_rebuild_game, (type(self), self.parameters))


def _rebuild_game(cls: type[BoardGame], parameters: dict[str, Any]) -> BoardGame:
    return cls(**parameters)


class GameState:
    """A position of a :class:`BoardGame`; the OpenSpiel-style planning interface.

    Attributes:
        game: The game this position belongs to.
        data: The int32 state vector (see ``connectn_env.games.layout``); compiled search
            code reads and copies it directly.
    """

    __slots__ = ("data", "game")

    def __init__(self, game: BoardGame, data: np.ndarray) -> None:
        self.game = game
        self.data = data

    # --- planning interface --------------------------------------------------------

    def current_player(self) -> int:
        """0 or 1, or ``TERMINAL_PLAYER`` (-4, as in OpenSpiel) once the game is over."""
        if self.data[S_OUTCOME] != _ONGOING:
            return TERMINAL_PLAYER
        return int(self.data[S_PLAYER])

    def legal_actions(self) -> list[int]:
        """Legal actions in increasing order (empty once the game is over)."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def legal_action_mask(self) -> np.ndarray:
        """A new int8 array of length ``num_distinct_actions``: 1 legal, 0 illegal."""
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        kernels.fill_legal_mask(self.game.params, self.data, mask)
        return mask

    def apply_action(self, action: int) -> None:
        """Play ``action`` for the player to move.

        Raises:
            TypeError: ``action`` is not an integer (numpy integers are accepted).
            IllegalActionError: the action is out of range, its cell or column is taken,
                swap is not allowed now, or the game is over. The state is unchanged.
        """
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise TypeError(
                f"action must be an int, got {action!r} of type {type(action).__name__}"
            )
        action = int(action)
        status = kernels.apply_checked(self.game.params, self.data, action)
        if status != Status.OK:
            raise IllegalActionError(self._illegal_reason(action, Status(status)))

    def clone(self) -> GameState:
        """An independent copy of this position."""
        return GameState(self.game, self.data.copy())

    def is_terminal(self) -> bool:
        """True once a player has won or the board is full."""
        return bool(self.data[S_OUTCOME] != _ONGOING)

    def returns(self) -> list[float]:
        """[return of player_0, return of player_1]: +1 win, -1 loss, 0 draw or ongoing."""
        outcome = self.outcome
        if outcome == Outcome.PLAYER_0_WINS:
            return [1.0, -1.0]
        if outcome == Outcome.PLAYER_1_WINS:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    # --- inspection ----------------------------------------------------------------

    @property
    def outcome(self) -> Outcome:
        """The game's Outcome so far."""
        return Outcome(int(self.data[S_OUTCOME]))

    @property
    def winner(self) -> int | None:
        """0 or 1 if that player has won, else None."""
        outcome = self.outcome
        if outcome in (Outcome.PLAYER_0_WINS, Outcome.PLAYER_1_WINS):
            return int(outcome) - 1
        return None

    def history(self) -> list[int]:
        """Actions played so far, in order."""
        start = int(self.game.params[P_HIST])
        return self.data[start : start + int(self.data[S_MOVES])].tolist()

    @property
    def move_number(self) -> int:
        """Number of actions played so far."""
        return int(self.data[S_MOVES])

    @property
    def last_action(self) -> int | None:
        """The last action played, or None before the first move."""
        last = int(self.data[S_LAST])
        return None if last == NO_ACTION else last

    def last_move_cell(self) -> tuple[int, int] | None:
        """(row, col) of the stone the last action placed, or None before the first move."""
        last = self.last_action
        if last is None:
            return None
        rows, cols = self.game.rows, self.game.cols
        if self.game.gravity:
            for row in range(rows):
                if self.data[HEADER + row * cols + last] != EMPTY:
                    return (row, last)
        if last == rows * cols:  # swap: the mirrored stone
            first = self.history()[0]
            return (first % cols, first // cols)
        return divmod(last, cols)

    @property
    def board(self) -> np.ndarray:
        """A new int8 (rows, cols) array: 0 empty, 1 player_0's stone, 2 player_1's stone."""
        cells = self.game.rows * self.game.cols
        return (
            self.data[HEADER : HEADER + cells]
            .astype(np.int8)
            .reshape(self.game.rows, self.game.cols)
        )

    def observation(self, player: int) -> np.ndarray:
        """A new int8 (rows, cols, 2) array: plane 0 ``player``'s stones, plane 1 the opponent's."""
        game = self.game
        board = self.data[HEADER : HEADER + game.rows * game.cols]
        return _PLANES[player].take(board, axis=0).reshape(game.rows, game.cols, 2)

    def winning_cells(self) -> list[tuple[int, int]]:
        """Cells of the winning line (k-in-a-row) or a shortest winning chain (Hex); [] if none."""
        winner = self.winner
        if winner is None:
            return []
        if self.game.kind == KIND_HEX:
            return self._hex_winning_chain(winner)
        return self._winning_line()

    def _winning_line(self) -> list[tuple[int, int]]:
        row, col = self.last_move_cell()
        board = self.board
        n, exact = int(self.game.params[P_N]), bool(self.game.params[P_EXACT])
        stone = board[row, col]
        for dr, dc in _LINE_DIRECTIONS:
            line = [(row, col)]
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < self.game.rows and 0 <= c < self.game.cols and board[r, c] == stone:
                    line.append((r, c))
                    r, c = r + sign * dr, c + sign * dc
            if len(line) == n or (len(line) > n and not exact):
                return sorted(line)
        return []

    def _hex_winning_chain(self, winner: int) -> list[tuple[int, int]]:
        board = self.board
        rows, cols = self.game.rows, self.game.cols
        stone = winner + 1
        if winner == 0:
            starts = [(0, c) for c in range(cols)]

            def at_goal(cell: tuple[int, int]) -> bool:
                return cell[0] == rows - 1
        else:
            starts = [(r, 0) for r in range(rows)]

            def at_goal(cell: tuple[int, int]) -> bool:
                return cell[1] == cols - 1

        parent: dict[tuple[int, int], tuple[int, int] | None] = {}
        queue: deque[tuple[int, int]] = deque()
        for cell in starts:
            if board[cell] == stone:
                parent[cell] = None
                queue.append(cell)
        while queue:
            cell = queue.popleft()
            if at_goal(cell):
                chain = []
                while cell is not None:
                    chain.append(cell)
                    cell = parent[cell]
                return sorted(chain)
            for dr, dc in _HEX_NEIGHBOURS:
                nxt = (cell[0] + dr, cell[1] + dc)
                on_board = 0 <= nxt[0] < rows and 0 <= nxt[1] < cols
                if on_board and board[nxt] == stone and nxt not in parent:
                    parent[nxt] = cell
                    queue.append(nxt)
        return []

    def _illegal_reason(self, action: int, status: Status) -> str:
        game = self.game
        if status == Status.GAME_OVER:
            return f"action {action} is illegal: the game is over ({self.outcome.name})"
        if status == Status.OUT_OF_RANGE:
            return (
                f"action {action} is illegal: actions are 0 to {game.num_actions - 1} for {game!r}"
            )
        if status == Status.COLUMN_FULL:
            return f"action {action} is illegal: column {action} is full"
        if status == Status.OCCUPIED:
            row, col = divmod(action, game.cols)
            return f"action {action} is illegal: cell (row {row}, col {col}) is occupied"
        return (
            f"action {action} is illegal: swap is only allowed as player_1's first move "
            f"(move number is {self.move_number})"
        )

    # --- text, equality, pickling ----------------------------------------------------

    def __str__(self) -> str:
        board = self.board
        hex_board = self.game.kind == KIND_HEX
        lines = []
        for r in range(self.game.rows):
            indent = " " * r if hex_board else ""
            lines.append(indent + " ".join(_STONE_CHARS[int(v)] for v in board[r]))
        return "\n".join(lines)

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

    def __setstate__(self, state: tuple[BoardGame, np.ndarray]) -> None:
        self.game, self.data = state
