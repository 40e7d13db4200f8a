"""Human-readable cell names: column letters and 1-based row numbers, ``a1`` at the top left."""

from __future__ import annotations

import string


def column_label(col: int) -> str:
    """Letters of column ``col`` (0-based): a, b, ..., z, aa, ab, ... (spreadsheet style)."""
    if col < 0:
        raise ValueError(f"col must be >= 0, got {col}")
    label = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        label = string.ascii_lowercase[rem] + label
    return label


def cell_name(row: int, col: int) -> str:
    """Name of the cell (row, col), for example ``cell_name(0, 0) == "a1"``."""
    return f"{column_label(col)}{row + 1}"


def parse_cell_name(name: str, rows: int, cols: int) -> tuple[int, int]:
    """Inverse of :func:`cell_name`; case-insensitive.

    Raises:
        ValueError: ``name`` is not a letters-then-number name of a cell on a rows x cols board.
    """
    text = name.strip().lower()
    letters = text.rstrip(string.digits)
    digits = text[len(letters) :]
    if not letters or not digits or not letters.isalpha() or not letters.isascii():
        raise ValueError(f"cell name {name!r} must be column letters then a row number, like 'c4'")
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    col -= 1
    row = int(digits) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        last = cell_name(rows - 1, cols - 1)
        raise ValueError(f"cell {name!r} is off the {rows} x {cols} board (a1 to {last})")
    return row, col
