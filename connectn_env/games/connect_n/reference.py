"""A brute-force reference of k-in-a-row rules, for tests: plain Python, full-board scans.

It shares nothing with the compiled kernels, so the property tests can check the kernels'
incremental win detection against it.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.contract import Outcome
from connectn_env.games.game import BoardGame

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class KInARowReference:
    """A position of a k-in-a-row game (``n`` in a row, exactly ``n`` if ``exact``; with
    ``gravity`` an action is a column)."""

    def __init__(self, rows: int, cols: int, n: int, *, gravity: bool, exact: bool) -> None:
        self.rows, self.cols, self.n = rows, cols, n
        self.gravity, self.exact = gravity, exact
        self.board = np.zeros((rows, cols), dtype=np.int8)
        self.moves: list[int] = []

    def current_player(self) -> int:
        """0 or 1 (the players alternate)."""
        return len(self.moves) % 2

    def legal_actions(self) -> list[int]:
        """Every empty cell (or open column), in increasing order; none once the game is over."""
        if self.outcome() != Outcome.ONGOING:
            return []
        if self.gravity:
            return [c for c in range(self.cols) if self.board[0, c] == 0]
        return [r * self.cols + c for r in range(self.rows) for c in range(self.cols)
                if self.board[r, c] == 0]  # fmt: skip

    def apply(self, action: int) -> None:
        """Play a legal action."""
        if self.gravity:
            row = max(r for r in range(self.rows) if self.board[r, action] == 0)
            col = action
        else:
            row, col = divmod(action, self.cols)
        self.board[row, col] = self.current_player() + 1
        self.moves.append(action)

    def winning_runs(self, stone: int) -> list[list[tuple[int, int]]]:
        """Every maximal straight run of ``stone`` that wins."""
        runs = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in DIRECTIONS:
                    if self._stone(r - dr, c - dc) == stone or self._stone(r, c) != stone:
                        continue  # not the start of a run
                    run = []
                    rr, cc = r, c
                    while self._stone(rr, cc) == stone:
                        run.append((rr, cc))
                        rr, cc = rr + dr, cc + dc
                    if len(run) == self.n or (len(run) > self.n and not self.exact):
                        runs.append(run)
        return runs

    def outcome(self) -> Outcome:
        """Who has a winning run (the last mover can be the only one), else draw or ongoing."""
        winners = [p for p in (0, 1) if self.winning_runs(p + 1)]
        if winners:
            return Outcome(winners[0] + 1)
        return Outcome.DRAW if np.all(self.board != 0) else Outcome.ONGOING

    def _stone(self, r: int, c: int) -> int:
        return int(self.board[r, c]) if 0 <= r < self.rows and 0 <= c < self.cols else -1


def new_reference_state(game: BoardGame) -> KInARowReference:
    """The reference position of a Connect-N game's empty board."""
    return KInARowReference(game.rows, game.cols, game.n, gravity=game.gravity, exact=False)
