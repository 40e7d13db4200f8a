"""The three games: Connect-N (Connect Four, tic-tac-toe, m,n,k-games), Gomoku and Hex."""

from __future__ import annotations

from typing import Any

from connectn_env.games.layout import KIND_HEX, KIND_K_IN_A_ROW
from connectn_env.games.state import BoardGame
from connectn_env.games.validation import require_bool, require_choice, require_int

MAX_SIDE = 32
GOMOKU_RULES = ("freestyle", "standard")


class ConnectNGame(BoardGame):
    """Connect-N on a ``rows`` x ``cols`` board: ``n`` in a row (any direction) wins.

    With ``gravity`` an action is a column and the stone drops to the lowest empty row
    (Connect Four); without, an action is any empty cell ``r * cols + c`` (tic-tac-toe,
    m,n,k-games). A full board without a line is a draw.

    Args:
        rows: Board height, 1 to 32.
        cols: Board width, 1 to 32.
        n: Stones in a row needed to win, 1 to max(rows, cols). Larger values are
            rejected because no game could ever be won.
        gravity: Whether stones drop down their column.
    """

    name = "connect_n"

    def __init__(self, *, rows: int = 6, cols: int = 7, n: int = 4, gravity: bool = True) -> None:
        rows = require_int("rows", rows, 1, MAX_SIDE)
        cols = require_int("cols", cols, 1, MAX_SIDE)
        n = require_int("n", n, 1, max(rows, cols))
        gravity = require_bool("gravity", gravity)
        super().__init__(kind=KIND_K_IN_A_ROW, rows=rows, cols=cols, n=n, gravity=gravity)
        self.n = n

    @property
    def parameters(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "n": self.n,
            "gravity": self.gravity,
        }


def connect_four() -> ConnectNGame:
    """Connect Four: 6 x 7, four in a row, with gravity."""
    return ConnectNGame(rows=6, cols=7, n=4, gravity=True)


def tictactoe() -> ConnectNGame:
    """Tic-tac-toe: 3 x 3, three in a row, no gravity."""
    return ConnectNGame(rows=3, cols=3, n=3, gravity=False)


class GomokuGame(BoardGame):
    """Gomoku: five in a row on a ``size`` x ``size`` (or ``rows`` x ``cols``) board.

    Args:
        size: Side of a square board (default 15); ignored where rows/cols are given.
        rows: Board height, 1 to 32 (default ``size``).
        cols: Board width, 1 to 32 (default ``size``); max(rows, cols) must be at least 5.
        rule: ``"freestyle"`` (five or more in a row wins) or ``"standard"`` (exactly five
            wins; an overline of six or more does not, as in Gomocup's standard rule).
    """

    name = "gomoku"

    def __init__(
        self,
        *,
        size: int = 15,
        rows: int | None = None,
        cols: int | None = None,
        rule: str = "freestyle",
    ) -> None:
        size = require_int("size", size, 5, MAX_SIDE)
        rows = size if rows is None else require_int("rows", rows, 1, MAX_SIDE)
        cols = size if cols is None else require_int("cols", cols, 1, MAX_SIDE)
        if max(rows, cols) < 5:
            raise ValueError(f"a Gomoku board needs a side of at least 5, got {rows} x {cols}")
        rule = require_choice("rule", rule, GOMOKU_RULES)
        super().__init__(kind=KIND_K_IN_A_ROW, rows=rows, cols=cols, n=5, exact=rule == "standard")
        self.rule = rule

    @property
    def parameters(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols, "rule": self.rule}


class HexGame(BoardGame):
    """Hex on a ``size`` x ``size`` (or ``rows`` x ``cols``) rhombus, OpenSpiel's grid.

    Cell (r, c) touches (r, c+-1), (r+-1, c), (r-1, c+1) and (r+1, c-1). ``player_0``
    moves first and connects the top and bottom rows; ``player_1`` connects the left
    and right columns. Actions are cells ``r * cols + c``.

    Args:
        size: Side of a square board (default 11); ignored where rows/cols are given.
        rows: Board height, 1 to 32 (default ``size``).
        cols: Board width, 1 to 32 (default ``size``).
        swap: Enable the swap (pie) rule, square boards only: action ``rows * cols`` is
            legal as player_1's first move and replaces player_0's stone at (r, c) by a
            player_1 stone at (c, r); then player_0 moves (OpenSpiel's semantics).
    """

    name = "hex"

    def __init__(
        self,
        *,
        size: int = 11,
        rows: int | None = None,
        cols: int | None = None,
        swap: bool = False,
    ) -> None:
        size = require_int("size", size, 1, MAX_SIDE)
        rows = size if rows is None else require_int("rows", rows, 1, MAX_SIDE)
        cols = size if cols is None else require_int("cols", cols, 1, MAX_SIDE)
        swap = require_bool("swap", swap)
        if swap and rows != cols:
            raise ValueError(f"swap=True needs a square board, got {rows} x {cols}")
        super().__init__(kind=KIND_HEX, rows=rows, cols=cols, swap=swap)
        self.swap = swap

    @property
    def parameters(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols, "swap": self.swap}

    @property
    def swap_action(self) -> int | None:
        """The swap action's index, or None when the swap rule is off."""
        return self.rows * self.cols if self.swap else None


# Each game class by its ``name``: what records, the command line and the Gymnasium ids use.
GAME_CLASSES: dict[str, type[BoardGame]] = {
    game.name: game for game in (ConnectNGame, GomokuGame, HexGame)
}
