"""Gomoku: five in a row on a go-style board, freestyle or standard (exactly five)."""

from __future__ import annotations

from typing import Any

from connectn_env.games.game import MAX_SIDE, BoardGame, ExactSolver, require_size_agrees
from connectn_env.games.lib import line_heuristics, placement, placement_tactics
from connectn_env.games.lib.lines import winning_line_cells
from connectn_env.games.lib.threat_space import ThreatSpaceSolver
from connectn_env.games.parameters import Parameter
from connectn_env.games.representation import Representation
from connectn_env.games.state import GameState

RULES = ("freestyle", "standard")
FIVE = 5


class GomokuGame(BoardGame):
    """Gomoku: five in a row on a ``size`` x ``size`` (or ``rows`` x ``cols``) board.

    Args:
        size: Side of a square board (default 15); rows/cols may be given instead
            (one that differs from a size given with it is refused).
        rows: Board height, 1 to 32 (default ``size``).
        cols: Board width, 1 to 32 (default ``size``); max(rows, cols) must be at least 5.
        rule: ``"freestyle"`` (five or more in a row wins) or ``"standard"`` (exactly five
            wins; an overline of six or more does not, as in Gomocup's standard rule).
    """

    name = "gomoku"
    gym_name = "Gomoku"
    summary = "five in a row on a go board (freestyle or exactly five)"
    render_style = "go"
    heuristics = line_heuristics.HEURISTICS  # key and open-line evaluation for alpha-beta
    search_defaults = {
        "decisive": True,
        "exact": True,
        "local": True,
        "rave": True,
        "exploration": 0.0,
        "rave_equivalence": 3000.0,
    }
    PARAMETERS = (
        Parameter("size", int, 15, "side of a square board", low=5, high=MAX_SIDE, test_high=11),
        Parameter(
            "rows", int, None, "board height (default: size)", low=1, high=MAX_SIDE, test_high=11
        ),
        Parameter(
            "cols", int, None, "board width (default: size)", low=1, high=MAX_SIDE, test_high=11
        ),
        Parameter(
            "rule",
            str,
            "freestyle",
            "freestyle: five or more wins; standard: exactly five",
            choices=RULES,
        ),
    )

    EXAMPLE_PARAMETERS = (
        {"rule": "standard"},
        {"size": 32},
        {"rows": 1, "cols": 5},
        {"rows": 7, "cols": 12, "rule": "standard"},
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        require_size_agrees(self, kwargs)

    def _resolve(self, values: dict[str, Any]) -> dict[str, Any]:
        rows = values["size"] if values["rows"] is None else values["rows"]
        cols = values["size"] if values["cols"] is None else values["cols"]
        if max(rows, cols) < FIVE:
            raise ValueError(f"a Gomoku board needs a side of at least 5, got {rows} x {cols}")
        return {"rows": rows, "cols": cols, "rule": values["rule"]}

    def _build(self, parameters: dict[str, Any]) -> tuple[Representation, int, int, int]:
        rows, cols = parameters["rows"], parameters["cols"]
        self.rule = parameters["rule"]
        self.tactics = placement_tactics.TACTICS
        self.neighbourhoods = True
        params = placement.make_params(
            rows, cols, FIVE, exact=self.rule == "standard", gravity=False
        )
        return Representation.of(placement, params), rows, cols, rows * cols

    @property
    def title(self) -> str:
        """Like ``"Gomoku 15 x 15 (freestyle)"``."""
        rule = "exactly five" if self.rule == "standard" else "freestyle"
        return f"Gomoku {self.rows} x {self.cols} ({rule})"

    def winning_cells(self, state: GameState) -> list[tuple[int, int]]:
        return winning_line_cells(
            state.board, *state.last_move_cell(), FIVE, exact=self.rule == "standard"
        )

    def exact_solver(self) -> ExactSolver | None:
        """The threat-space solver of :mod:`~connectn_env.games.lib.threat_space`: it proves
        the root moves that win or lose by a sequence of fours and threes (VCF, VCT)."""
        return ThreatSpaceSolver(self.rows, self.cols, FIVE, exact=self.rule == "standard")

    def openspiel_reference(self) -> tuple[str, dict[str, Any]] | None:
        if self.rule == "freestyle" and self.rows == self.cols:
            return "gomoku", {"size": self.rows}
        return None


GAME = GomokuGame
PRESETS = ()
