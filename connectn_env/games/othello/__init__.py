"""Othello (Reversi) on an even square board, OpenSpiel's ``othello`` on 8 x 8."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from connectn_env.games.contract import Status
from connectn_env.games.game import STONE_CHARS, BoardGame, ExactSolver, set_up_board
from connectn_env.games.heuristics import Heuristics
from connectn_env.games.othello import bitboard, padded
from connectn_env.games.othello import heuristics as othello_heuristics
from connectn_env.games.othello.exact import OthelloExact
from connectn_env.games.parameters import Parameter
from connectn_env.games.representation import Representation
from connectn_env.games.state import GameState

PASS = "pass"
MIN_SIZE, MAX_SIZE = 4, 16


class OthelloGame(BoardGame):
    """Othello on a ``size`` x ``size`` board (``size`` even).

    The game starts with four discs in the centre, as in OpenSpiel's ``othello``: player_1
    (white, ``o``) on the top-left and bottom-right centre cells, player_0 (black, ``x``) on the
    other two; player_0 moves first. A move places a disc on an empty cell ``r * size + c``
    that closes at least one straight line (in any of the eight directions) of the opponent's
    discs with one of the mover's own; every line it closes is flipped. A player without such
    a move must pass: action ``size * size``, legal only then. The game ends as soon as
    neither player can place a disc (at the latest when the board is full), so two passes in
    a row never happen; more discs wins, equal counts draw.

    The rules are unchanged by the eight symmetries of the square (``symmetries()``; the
    pass maps to itself); four of them exchange the colours of the centre discs, so their
    images of a game are games from another start.

    Boards up to 8 x 8 are kept as bitboards, larger ones as padded arrays.

    Args:
        size: Side of the board, even, 4 to 16 (default 8).

    Attributes:
        bitboards: The state layout: None (default) picks bitboards where the board fits
            8 x 8; a subclass may force True or False (the tests run both layouts).
    """

    bitboards: ClassVar[bool | None] = None

    name = "othello"
    gym_name = "Othello"
    summary = "flank and flip the opponent's discs; more discs wins"
    render_style = "othello"
    action_help = "cell ``r * size + c``; ``size * size`` is the pass (legal only without a move)"
    PARAMETERS = (
        Parameter(
            "size",
            int,
            8,
            "side of the board, an even number",
            low=MIN_SIZE,
            high=MAX_SIZE,
            test_high=10,
        ),
    )

    EXAMPLE_PARAMETERS = ({"size": 4}, {"size": 6}, {"size": 10}, {"size": 16})

    def _resolve(self, values: dict[str, Any]) -> dict[str, Any]:
        size = values["size"]
        if size % 2:
            sizes = ", ".join(str(s) for s in range(MIN_SIZE, MAX_SIZE + 1, 2))
            raise ValueError(f"size must be even ({sizes}), got {size}")
        return values

    def _build(self, parameters: dict[str, Any]) -> tuple[Representation, int, int, int]:
        size = parameters["size"]
        self.size = size
        use_bitboards = bitboard.fits(size) if self.bitboards is None else self.bitboards
        self._layout = bitboard if use_bitboards else padded
        representation = Representation.of(self._layout, self._layout.make_params(size))
        return representation, size, size, padded.max_moves(size)

    def num_actions_of(self, parameters: dict[str, Any]) -> int:
        return self.size * self.size + 1

    @property
    def pass_action(self) -> int:
        """The pass action's index, ``size * size``."""
        return self.size * self.size

    @property
    def special_actions(self) -> dict[int, str]:
        return {self.pass_action: PASS}

    @property
    def heuristics(self) -> Heuristics:
        """Search heuristics of this game's layout (see :mod:`connectn_env.games.heuristics`):
        a Zobrist key and a positional evaluation with mobility."""
        if self._layout is bitboard:
            return othello_heuristics.BITBOARD_HEURISTICS
        return othello_heuristics.PADDED_HEURISTICS

    def position(self, board: Any, player: int = 0) -> GameState:
        """A position set up from a board, for puzzles and tests.

        Args:
            board: ``(size, size)`` array-like of 0 (empty), 1 (player_0's disc) and 2
                (player_1's), with at least four discs (so that no game from it lasts more
                than ``max_moves`` actions).
            player: The player to move, 0 or 1.

        Returns:
            The position, with an empty history (moves played from it are recorded); it is
            over at once if neither player can place a disc.

        Raises:
            TypeError: ``board`` is not an integer array-like or ``player`` not an int.
            ValueError: a wrong shape, a value other than 0, 1, 2, fewer than four discs, or a
                player other than 0 or 1.
        """
        cells = set_up_board(board, (self.size, self.size), player)
        if np.count_nonzero(cells) < 4:
            raise ValueError(f"board must hold at least 4 discs, got {np.count_nonzero(cells)}")
        data = self._layout.state_from_board(self.params, cells, int(player))
        return GameState(self, data)

    def illegal_reason(self, state: GameState, action: int, status: Status) -> str:
        name = self.action_name(action)
        if status == Status.PASS_NOT_ALLOWED:
            return f"action {action} is illegal: pass is only legal without a move"
        if status == Status.NO_FLIP:
            return f"action {action} is illegal: {name} flips no disc"
        if status == Status.OCCUPIED:
            return f"action {action} is illegal: {name} is occupied"
        return super().illegal_reason(state, action, status)

    def exact_solver(self) -> ExactSolver | None:
        """The endgame solver of :mod:`~connectn_env.games.othello.exact` on bitboard
        layouts (boards up to 8 x 8); None on larger boards."""
        if self._layout is not bitboard:
            return None
        return OthelloExact(self.params)

    def winning_cells(self, state: GameState) -> list[tuple[int, int]]:
        """Always []: no line or chain decides Othello, the disc count does (:meth:`text`
        and :meth:`discs` give it)."""
        return []

    def discs(self, state: GameState) -> tuple[int, int]:
        """(player_0's discs, player_1's discs) in ``state``."""
        board = state.board
        return int((board == 1).sum()), int((board == 2).sum())

    def text(self, state: GameState) -> str:
        """The board, a row per line (``x`` player_0, ``o`` player_1), then the disc count."""
        rows = "\n".join(" ".join(STONE_CHARS[int(v)] for v in row) for row in state.board)
        black, white = self.discs(state)
        return f"{rows}\ndiscs: x {black}, o {white}"

    def openspiel_reference(self) -> tuple[str, dict[str, Any]] | None:
        if self.size == 8:
            return "othello", {}
        return None


GAME = OthelloGame
PRESETS = ()
