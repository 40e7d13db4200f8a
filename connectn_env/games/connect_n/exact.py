"""Connect-N's exact solver for the search agents (``exact`` option): the bitboard Connect
Four solver of :mod:`~connectn_env.games.connect_n.solver` behind the game-independent
:class:`~connectn_env.games.game.ExactSolver` interface (results and proven line lengths)."""

from __future__ import annotations

from collections.abc import Sequence

from connectn_env.games.connect_n.bitboard import S_BITS
from connectn_env.games.connect_n.book import BOOK_COLS, BOOK_ROWS, load_book
from connectn_env.games.connect_n.solver import Connect4Solver
from connectn_env.games.lib.header import H_MOVES, H_PLAYER
from connectn_env.games.state import GameState

AGENT_TABLE_SIZE = 1 << 20  # about 9 MB per agent
REACH_EMPTY_CELLS = 32  # tried with at most this many empty cells: Connect Four from 10 stones


class Connect4Exact:
    """Exact move results of four in a row with gravity on a bitboard (at most 64 bits); on
    Connect Four 6 x 7 also the opening book's move (:meth:`book_move`).

    Args:
        rows: Board height.
        cols: Board width.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.cells = rows * cols
        self.board = (rows, cols)
        self._solver = Connect4Solver(rows, cols, table_size=AGENT_TABLE_SIZE)

    def reaches(self, state: GameState) -> bool:
        """At most :data:`REACH_EMPTY_CELLS` empty cells (earlier positions rarely finish
        within a second: in Connect Four they cost the search's opening its time)."""
        return self.cells - int(state.data[H_MOVES]) <= REACH_EMPTY_CELLS

    def book_move(self, state: GameState) -> tuple[int, int, int] | None:
        """``(action, result, plies)`` of the opening book's move in ``state`` (Connect Four
        6 x 7: :mod:`~connectn_env.games.connect_n.book`): the best move, its result for the
        player to move (1, 0, -1) and the plies after it to the end of the perfect line; None
        where the book has no entry, or on another board.

        Raises:
            ValueError: the shipped book file is damaged (named).
        """
        if self.board != (BOOK_ROWS, BOOK_COLS):
            return None
        own, other, moves = self._bits(state)
        hit = load_book().best(own, own | other)
        if hit is None:
            return None
        column, score = hit
        return (column, *self._result(score, moves))

    def solve_moves(
        self, state: GameState, actions: Sequence[int], nodes: int
    ) -> tuple[dict[int, tuple[int, int]], int]:
        """See :meth:`connectn_env.games.game.ExactSolver.solve_moves`."""
        own, other, moves = self._bits(state)
        scores, used = self._solver.scores_within(own, own | other, moves, actions, nodes)
        return {a: self._result(score, moves) for a, score in scores.items()}, used

    def _bits(self, state: GameState) -> tuple[int, int, int]:
        """``(stones of the player to move, the opponent's, stones on the board)``."""
        data = state.data
        player = int(data[H_PLAYER])
        own = int(data[S_BITS + player]) & (2**64 - 1)
        other = int(data[S_BITS + 1 - player]) & (2**64 - 1)
        return own, other, int(data[H_MOVES])

    def _result(self, score: int, moves: int) -> tuple[int, int]:
        """``(result, plies after the move to the end)`` of a move's score (Pons' convention:
        the winner's winning stone is placed when ``cells + 1 - 2 |score|`` or one fewer
        stones are on the board, of the winner's parity)."""
        if score == 0:
            return 0, self.cells - moves - 1
        before_win = self.cells + 1 - 2 * abs(score)  # stones before the winning one
        winner_parity = moves % 2 if score > 0 else (moves + 1) % 2
        if before_win % 2 != winner_parity:
            before_win -= 1
        return (1 if score > 0 else -1), before_win - moves
