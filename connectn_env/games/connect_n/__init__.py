"""Connect-N: Connect Four, tic-tac-toe and every m,n,k-game, with or without gravity."""

from __future__ import annotations

from typing import Any

import numpy as np

from connectn_env.games.connect_n import bitboard, bitboard_heuristics, bitboard_tactics
from connectn_env.games.connect_n.exact import Connect4Exact
from connectn_env.games.contract import Outcome, Status
from connectn_env.games.game import MAX_SIDE, BoardGame, ExactSolver, Symmetry, set_up_board
from connectn_env.games.heuristics import Heuristics
from connectn_env.games.lib import line_heuristics, placement, placement_tactics
from connectn_env.games.lib.header import H_PLAYER
from connectn_env.games.lib.lines import winning_line_cells
from connectn_env.games.parameters import Parameter
from connectn_env.games.registry import Preset
from connectn_env.games.representation import Representation
from connectn_env.games.state import GameState


class ConnectNGame(BoardGame):
    """Connect-N on a ``rows`` x ``cols`` board: ``n`` in a row (any direction) wins.

    With ``gravity`` an action is a column and the stone drops to the lowest empty row
    (Connect Four); without, an action is any empty cell ``r * cols + c`` (tic-tac-toe,
    m,n,k-games). A full board without a line is a draw. Gravity boards of at most 64 bits
    (``(rows + 1) * cols <= 64``) are kept as bitboards, the others as padded arrays.

    Args:
        rows: Board height, 1 to 32.
        cols: Board width, 1 to 32.
        n: Stones in a row needed to win, 1 to max(rows, cols). Larger values are
            rejected because no game could ever be won.
        gravity: Whether stones drop down their column.
    """

    name = "connect_n"
    gym_name = "ConnectN"
    summary = "n in a row on a rows x cols board, with or without gravity"
    action_help = "gravity: column ``0 .. cols-1``; otherwise cell ``r * cols + c``"
    search_defaults = {"decisive": True, "lgr": True, "exact": True}
    PARAMETERS = (
        Parameter("rows", int, 6, "board height", low=1, high=MAX_SIDE, test_high=8),
        Parameter("cols", int, 7, "board width", low=1, high=MAX_SIDE, test_high=9),
        Parameter("n", int, 4, "stones in a row to win, 1 to max(rows, cols)", test_high=6),
        Parameter("gravity", bool, True, "stones drop down the chosen column"),
    )

    EXAMPLE_PARAMETERS = (
        {"rows": 1, "cols": 1, "n": 1, "gravity": True},
        {"rows": 1, "cols": 1, "n": 1, "gravity": False},
        {"rows": 2, "cols": 2, "n": 2, "gravity": True},
        {"rows": 2, "cols": 2, "n": 2, "gravity": False},
        {"rows": 1, "cols": 5, "n": 3, "gravity": True},
        {"rows": 5, "cols": 1, "n": 3, "gravity": False},
        {"rows": 4, "cols": 9, "n": 3, "gravity": False},
        {"rows": 3, "cols": 3, "n": 1, "gravity": False},
        {"rows": 7, "cols": 8, "n": 4, "gravity": True},  # 64 bits: the largest bitboard
        {"rows": 8, "cols": 8, "n": 4, "gravity": True},  # 72 bits: the array representation
        {"rows": 32, "cols": 32, "n": 4, "gravity": True},
        {"rows": 32, "cols": 32, "n": 5, "gravity": False},
    )

    def _resolve(self, values: dict[str, Any]) -> dict[str, Any]:
        longest = max(values["rows"], values["cols"])
        if not 1 <= values["n"] <= longest:
            raise ValueError(f"n must be between 1 and {longest}, got {values['n']}")
        return values

    def _build(self, parameters: dict[str, Any]) -> tuple[Representation, int, int, int]:
        rows, cols, n = parameters["rows"], parameters["cols"], parameters["n"]
        self.gravity = parameters["gravity"]
        self.n = n
        self.neighbourhoods = not self.gravity
        self.tactics = placement_tactics.GRAVITY_TACTICS
        if not self.gravity:
            self.tactics = placement_tactics.TACTICS
        if self.gravity and bitboard.fits(rows, cols):
            self.tactics = bitboard_tactics.TACTICS
            params = bitboard.make_params(rows, cols, n)
            representation = Representation.of(bitboard, params)
        else:
            params = placement.make_params(rows, cols, n, exact=False, gravity=self.gravity)
            kernels = placement.GRAVITY_KERNELS if self.gravity else placement.KERNELS
            representation = Representation.of(placement, params, kernels)
        return representation, rows, cols, rows * cols

    @property
    def heuristics(self) -> Heuristics:
        """Key and open-line evaluation for depth-limited search, on this game's
        representation (see :mod:`connectn_env.games.heuristics`)."""
        if self.representation.kernels is bitboard.KERNELS:
            return bitboard_heuristics.HEURISTICS
        return line_heuristics.HEURISTICS

    @property
    def render_style(self) -> str:
        """A Connect Four rack with gravity, an X/O grid without."""
        return "rack" if self.gravity else "grid"

    @property
    def title(self) -> str:
        """``"Connect Four"``, ``"Tic-tac-toe"``, else like ``"Connect 5 on 10 x 12 (gravity)"``."""
        named = {(6, 7, 4, True): "Connect Four", (3, 3, 3, False): "Tic-tac-toe"}
        name = named.get((self.rows, self.cols, self.n, self.gravity))
        if name is not None:
            return name
        rule = "gravity" if self.gravity else "no gravity"
        return f"Connect {self.n} on {self.rows} x {self.cols} ({rule})"

    def num_actions_of(self, parameters: dict[str, Any]) -> int:
        return self.cols if self.gravity else self.rows * self.cols

    def position(self, board: Any, player: int = 0) -> GameState:
        """A position set up from a board, for puzzles and other envs' boards.

        Args:
            board: ``(rows, cols)`` array-like of 0 (empty), 1 (player_0's stone) and 2
                (player_1's), row 0 at the top; with gravity, no stone above an empty cell.
            player: The player to move, 0 or 1.

        Returns:
            The position, drawn at once if the board is full. Its history holds the stones'
            actions row by row from the bottom, not an order they could have been played in.

        Raises:
            TypeError: ``board`` is not an integer array-like or ``player`` not an int.
            ValueError: a wrong shape, a value other than 0, 1, 2, a stone above an empty
                cell (with gravity), a line of ``n`` already on the board, or a player other
                than 0 or 1.
        """
        cells = set_up_board(board, (self.rows, self.cols), player)
        if self.gravity and ((cells[:-1] != 0) & (cells[1:] == 0)).any():
            raise ValueError("board has a stone above an empty cell (the game has gravity)")
        state = self.new_initial_state()
        data, apply = state.data, self.kernels.apply
        for row in range(self.rows - 1, -1, -1):
            for col in np.flatnonzero(cells[row]):
                data[H_PLAYER] = cells[row, col] - 1
                apply(self.params, data, int(col) if self.gravity else row * self.cols + int(col))
                if state.outcome in (Outcome.PLAYER_0_WINS, Outcome.PLAYER_1_WINS):
                    raise ValueError(f"board already holds {self.n} in a row")
        data[H_PLAYER] = player
        return state

    def illegal_reason(self, state: GameState, action: int, status: Status) -> str:
        if status == Status.COLUMN_FULL:
            return f"action {action} is illegal: column {action} is full"
        return super().illegal_reason(state, action, status)

    def last_move_cell(self, state: GameState) -> tuple[int, int] | None:
        last = state.last_action
        if last is None or not self.gravity:
            return super().last_move_cell(state)
        column = state.board[:, last]
        return (int((column != 0).argmax()), last)

    def winning_cells(self, state: GameState) -> list[tuple[int, int]]:
        return winning_line_cells(state.board, *state.last_move_cell(), self.n, exact=False)

    def symmetries(self) -> tuple[Symmetry, ...]:
        """Gravity boards: the identity and the left-right mirror; otherwise the rectangle's."""
        if not self.gravity:
            return super().symmetries()
        rows, cols = self.rows, self.cols
        r, c = np.divmod(np.arange(rows * cols), cols)
        columns = np.arange(cols)
        return (
            Symmetry("identity", r * cols + c, columns),
            Symmetry("mirror left-right", r * cols + cols - 1 - c, cols - 1 - columns),
        )

    def exact_solver(self) -> ExactSolver | None:
        """Four in a row with gravity on a bitboard (Connect Four among them): the bitboard
        alpha-beta solver (:mod:`~connectn_env.games.connect_n.exact`); otherwise None."""
        if self.gravity and self.n == 4 and self.representation.kernels is bitboard.KERNELS:
            return Connect4Exact(self.rows, self.cols)
        return None

    def openspiel_reference(self) -> tuple[str, dict[str, Any]] | None:
        if self.gravity:
            return "connect_four", {"rows": self.rows, "columns": self.cols, "x_in_row": self.n}
        return "mnk", {"m": self.cols, "n": self.rows, "k": self.n}


def connect_four() -> ConnectNGame:
    """Connect Four: 6 x 7, four in a row, with gravity."""
    return ConnectNGame(rows=6, cols=7, n=4, gravity=True)


def tictactoe() -> ConnectNGame:
    """Tic-tac-toe: 3 x 3, three in a row, no gravity."""
    return ConnectNGame(rows=3, cols=3, n=3, gravity=False)


GAME = ConnectNGame
PRESETS = (
    Preset(
        "connect_four",
        {"rows": 6, "cols": 7, "n": 4, "gravity": True},
        "ConnectFour",
        "Connect Four: 6 x 7, four in a row, with gravity",
    ),
    Preset(
        "tictactoe",
        {"rows": 3, "cols": 3, "n": 3, "gravity": False},
        "TicTacToe",
        "tic-tac-toe: 3 x 3, three in a row",
    ),
)
