"""Connect Four's perfect player: the opening book's move, else the solver's (deterministic)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.envapi import native_state
from connectn_env.games.connect_n import ConnectNGame
from connectn_env.games.connect_n.bitboard import S_BITS
from connectn_env.games.connect_n.book import BOOK_COLS, BOOK_ROWS, OpeningBook, load_book
from connectn_env.games.connect_n.solver import Connect4Solver
from connectn_env.games.lib.header import H_MOVES, H_PLAYER
from connectn_env.games.state import GameState

_BITS = 2**64 - 1


def require_connect_four(game: Any) -> ConnectNGame:
    """``game`` (a ``BoardGame`` or a ``GameConfig``) if it is Connect Four 6 x 7.

    Raises:
        ValueError: any other game, named.
    """
    if hasattr(game, "make_game"):
        game = game.make_game()
    if not (
        isinstance(game, ConnectNGame)
        and (game.rows, game.cols, game.n, game.gravity) == (BOOK_ROWS, BOOK_COLS, 4, True)
    ):
        raise ValueError(
            f"the perfect player plays Connect Four (connect_n 6 x 7, four in a row, gravity) "
            f"only, not {game!r}"
        )
    return game


class PerfectAgent:
    """Plays the best move by the solver's scores: the fastest win, the slowest loss, else a
    draw-keeping move (ties to the column nearest the centre). Positions of the opening book
    (:mod:`connectn_env.games.connect_n.book`) are answered at once; later ones by the solver
    (:meth:`Connect4Solver.best_move`, its table kept between moves).

    Args:
        book: An opening book file (None: the one shipped with the package).
        seed: Ignored (the player is deterministic); accepted as every agent's is.

    Raises:
        TypeError: ``book`` is not None, a str or a Path.
        ValueError: a missing, unreadable or damaged book file, named.
    """

    def __init__(self, *, book: str | Path | None = None, seed: Any = None) -> None:
        if book is not None and not isinstance(book, str | Path):
            raise TypeError(
                f"book must be None (the shipped book) or the path of an opening book file, "
                f"got {book!r} of type {type(book).__name__}"
            )
        self.book: OpeningBook = load_book(book)
        self._solver: Connect4Solver | None = None

    def check_game(self, game: Any) -> None:
        """Refuse any game but Connect Four 6 x 7 (ValueError naming it)."""
        require_connect_four(game)

    def act(self, env: Any) -> int:
        """The move for ``env.agent_selection`` (the env is not modified).

        Raises:
            TypeError: not one of this suite's envs.
            ValueError: another game than Connect Four, or a finished game.
        """
        state = native_state(env)
        if state is None:
            raise TypeError(f"PerfectAgent plays this suite's Connect Four env, got {env!r}")
        return self.move(state)

    def move(self, state: GameState) -> int:
        """The perfect move in ``state`` (a Connect Four position, game not over)."""
        require_connect_four(state.game)
        if state.is_terminal():
            raise ValueError("the game is over: there is no move to play")
        data = state.data
        player = int(data[H_PLAYER])
        own = int(data[S_BITS + player]) & _BITS
        mask = own | (int(data[S_BITS + 1 - player]) & _BITS)
        hit = self.book.best(own, mask)
        if hit is not None:
            return hit[0]
        if self._solver is None:
            self._solver = Connect4Solver(BOOK_ROWS, BOOK_COLS)
        return self._solver.best_move_of(own, mask, int(data[H_MOVES]))[0]

    def __repr__(self) -> str:
        return f"PerfectAgent(book entries={len(self.book)})"
