"""Hex on a rhombus of hexagons, OpenSpiel's grid, with an optional swap (pie) rule."""

from __future__ import annotations

from typing import Any

import numpy as np

from connectn_env.games.contract import Status
from connectn_env.games.game import (
    MAX_SIDE,
    STONE_CHARS,
    BoardGame,
    Symmetry,
    require_size_agrees,
)
from connectn_env.games.hex import heuristics as hex_heuristics
from connectn_env.games.hex import kernels
from connectn_env.games.hex.tactics import TACTICS
from connectn_env.games.lib.header import HEADER
from connectn_env.games.parameters import Parameter
from connectn_env.games.representation import Representation
from connectn_env.games.state import GameState

SWAP = "swap"


class HexGame(BoardGame):
    """Hex on a ``size`` x ``size`` (or ``rows`` x ``cols``) rhombus, OpenSpiel's grid.

    Cell (r, c) touches (r, c+-1), (r+-1, c), (r-1, c+1) and (r+1, c-1). ``player_0``
    moves first and connects the top and bottom rows; ``player_1`` connects the left
    and right columns. Actions are cells ``r * cols + c``.

    Args:
        size: Side of a square board (default 11); rows/cols may be given instead
            (one that differs from a size given with it is refused).
        rows: Board height, 1 to 32 (default ``size``).
        cols: Board width, 1 to 32 (default ``size``).
        swap: Enable the swap (pie) rule, square boards only: action ``rows * cols`` is
            legal as player_1's first move and replaces player_0's stone at (r, c) by a
            player_1 stone at (c, r); then player_0 moves (OpenSpiel's semantics).
    """

    name = "hex"
    gym_name = "Hex"
    summary = "connect your two sides of a rhombus of hexagons"
    render_style = "hex"
    heuristics = hex_heuristics.HEURISTICS  # key and shortest-path evaluation for alpha-beta
    action_help = "cell ``r * cols + c``; with swap, ``rows * cols`` is the swap"
    search_defaults = {"rave": True, "exploration": 0.0, "rave_equivalence": 10000.0}
    PARAMETERS = (
        Parameter("size", int, 11, "side of a square board", low=1, high=MAX_SIDE, test_high=9),
        Parameter(
            "rows", int, None, "board height (default: size)", low=1, high=MAX_SIDE, test_high=9
        ),
        Parameter(
            "cols", int, None, "board width (default: size)", low=1, high=MAX_SIDE, test_high=9
        ),
        Parameter("swap", bool, False, "swap (pie) rule, square boards only"),
    )

    EXAMPLE_PARAMETERS = (
        {"size": 1},
        {"size": 2},
        {"rows": 1, "cols": 5},
        {"rows": 5, "cols": 1},
        {"rows": 3, "cols": 7},
        {"size": 19},
        {"size": 32},
        {"size": 1, "swap": True},
        {"size": 2, "swap": True},
        {"swap": True},
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        require_size_agrees(self, kwargs)

    def _resolve(self, values: dict[str, Any]) -> dict[str, Any]:
        rows = values["size"] if values["rows"] is None else values["rows"]
        cols = values["size"] if values["cols"] is None else values["cols"]
        if values["swap"] and rows != cols:
            raise ValueError(f"swap=True needs a square board, got {rows} x {cols}")
        return {"rows": rows, "cols": cols, "swap": values["swap"]}

    def _build(self, parameters: dict[str, Any]) -> tuple[Representation, int, int, int]:
        rows, cols = parameters["rows"], parameters["cols"]
        self.swap = parameters["swap"]
        self.tactics = TACTICS
        params = kernels.make_params(rows, cols, swap=self.swap)
        return Representation.of(kernels, params), rows, cols, rows * cols + int(self.swap)

    def num_actions_of(self, parameters: dict[str, Any]) -> int:
        return self.rows * self.cols + int(self.swap)

    @property
    def title(self) -> str:
        """Like ``"Hex 7 x 7 (swap rule on)"``."""
        return f"Hex {self.rows} x {self.cols} (swap rule {'on' if self.swap else 'off'})"

    @property
    def swap_action(self) -> int | None:
        """The swap action's index, or None when the swap rule is off."""
        return self.rows * self.cols if self.swap else None

    @property
    def special_actions(self) -> dict[int, str]:
        return {self.rows * self.cols: SWAP} if self.swap else {}

    def illegal_reason(self, state: GameState, action: int, status: Status) -> str:
        if status == Status.SWAP_NOT_ALLOWED:
            return (
                f"action {action} is illegal: swap is only allowed as player_1's first move "
                f"(move number is {state.move_number})"
            )
        return super().illegal_reason(state, action, status)

    def last_move_cell(self, state: GameState) -> tuple[int, int] | None:
        if state.last_action is not None and state.last_action == self.swap_action:
            first = state.history()[0]
            return (first % self.cols, first // self.cols)  # the mirrored stone
        return super().last_move_cell(state)

    def winning_cells(self, state: GameState) -> list[tuple[int, int]]:
        rows, cols = self.rows, self.cols
        board = state.data[HEADER:]
        chain = np.zeros(rows * cols, dtype=np.int64)
        length = kernels.shortest_chain(board, rows, cols, state.winner + 1, chain)
        width = cols + 1
        return sorted((int(p) // width - 1, int(p) % width - 1) for p in chain[:length])

    def symmetries(self) -> tuple[Symmetry, ...]:
        """The identity and the 180-degree rotation (the only symmetries of the rhombus that
        keep each player's sides; the swap action maps to itself)."""
        everything = super().symmetries()
        return everything[:2]

    def text(self, state: GameState) -> str:
        """Rows shifted half a cell per row, as the rhombus is drawn."""
        rows = (" ".join(STONE_CHARS[int(v)] for v in row) for row in state.board)
        return "\n".join(" " * r + line for r, line in enumerate(rows))

    def openspiel_reference(self) -> tuple[str, dict[str, Any]] | None:
        """OpenSpiel's ``hex``, except on boards one cell wide: there a stone on the only row
        (column) touches both of player_0's (player_1's) sides and wins here, not in OpenSpiel."""
        if min(self.rows, self.cols) == 1:
            return None
        if self.rows == self.cols:
            return "hex", {"board_size": self.rows, "swap": self.swap}
        return "hex", {"num_rows": self.rows, "num_cols": self.cols}


GAME = HexGame
PRESETS = ()
