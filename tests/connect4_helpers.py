"""A small gravity board (4 x 5, four in a row) as column strings, for brute-force references
of the Connect Four solver and the search's ``exact`` option."""

from __future__ import annotations

from collections.abc import Iterable

ROWS, COLS = 4, 5


def columns_of(history: Iterable[int]) -> tuple[str, ...]:
    """The stones of each column, bottom first (``"x"`` moves first), after ``history``."""
    columns = [""] * COLS
    for ply, move in enumerate(history):
        columns[move] += "xo"[ply % 2]
    return tuple(columns)


def dropped(columns: tuple[str, ...], col: int) -> tuple[str, ...]:
    """The columns after the player to move drops a stone into ``col``."""
    mover = "xo"[sum(map(len, columns)) % 2]
    return (*columns[:col], columns[col] + mover, *columns[col + 1 :])


def wins(columns: tuple[str, ...], col: int) -> bool:
    """Whether the stone on top of ``col`` makes four in a row."""
    row, stone = len(columns[col]) - 1, columns[col][-1]

    def at(r: int, c: int) -> str:
        return columns[c][r] if 0 <= c < COLS and 0 <= r < len(columns[c]) else ""

    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while at(r, c) == stone:
                run, r, c = run + 1, r + sign * dr, c + sign * dc
        if run >= 4:
            return True
    return False
