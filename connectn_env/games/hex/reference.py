"""A brute-force reference of Hex's rules, for tests: a flood fill after every move."""

from __future__ import annotations

from collections import deque

import numpy as np

from connectn_env.games.contract import Outcome
from connectn_env.games.game import BoardGame

NEIGHBOURS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1))


class HexReference:
    """A Hex position (OpenSpiel's grid and swap semantics)."""

    def __init__(self, rows: int, cols: int, swap: bool) -> None:
        self.rows, self.cols, self.swap = rows, cols, swap
        self.board = np.zeros((rows, cols), dtype=np.int8)
        self.moves: list[int] = []

    def current_player(self) -> int:
        """0 or 1 (the players alternate; the swap is player_1's move)."""
        return len(self.moves) % 2

    def legal_actions(self) -> list[int]:
        """Empty cells, and the swap as player_1's first move."""
        if self.outcome() != Outcome.ONGOING:
            return []
        cells = [r * self.cols + c for r in range(self.rows) for c in range(self.cols)
                 if self.board[r, c] == 0]  # fmt: skip
        if self.swap and len(self.moves) == 1:
            cells.append(self.rows * self.cols)
        return cells

    def apply(self, action: int) -> None:
        """Play a legal action (the swap mirrors player_0's stone to a player_1 stone)."""
        if action == self.rows * self.cols:
            row, col = divmod(self.moves[0], self.cols)
            self.board[row, col] = 0
            self.board[col, row] = 2
        else:
            self.board[divmod(action, self.cols)] = self.current_player() + 1
        self.moves.append(action)

    def connects(self, player: int) -> bool:
        """True if ``player`` joins their two sides (top-bottom for 0, left-right for 1)."""
        stone = player + 1
        if player == 0:
            start = [(0, c) for c in range(self.cols)]
        else:
            start = [(r, 0) for r in range(self.rows)]
        seen = {cell for cell in start if self.board[cell] == stone}
        queue = deque(seen)
        while queue:
            cell = queue.popleft()
            if (cell[0] == self.rows - 1) if player == 0 else (cell[1] == self.cols - 1):
                return True
            for dr, dc in NEIGHBOURS:
                other = (cell[0] + dr, cell[1] + dc)
                inside = 0 <= other[0] < self.rows and 0 <= other[1] < self.cols
                if inside and other not in seen and self.board[other] == stone:
                    seen.add(other)
                    queue.append(other)
        return False

    def outcome(self) -> Outcome:
        """The player who connects wins (Hex has no draws)."""
        for player in (0, 1):
            if self.connects(player):
                return Outcome(player + 1)
        return Outcome.ONGOING


def new_reference_state(game: BoardGame) -> HexReference:
    """The reference position of a Hex game's empty board."""
    return HexReference(game.rows, game.cols, game.swap)
