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
    shown = repr(name) if len(name) <= 20 else f"{name[:20]!r}..."
    if not letters or not digits or not letters.isalpha() or not letters.isascii():
        raise ValueError(f"cell name {shown} must be column letters then a row number, like 'c4'")
    row = col = -1  # off the board if a part is longer than any on it (int() refuses 4,300 digits)
    if len(digits.lstrip("0")) <= len(str(rows)) and len(letters) <= len(column_label(cols - 1)):
        row, col = int(digits) - 1, _column_number(letters)
    if not (0 <= row < rows and 0 <= col < cols):
        last = cell_name(rows - 1, cols - 1)
        raise ValueError(f"cell {shown} is off the {rows} x {cols} board (a1 to {last})")
    return row, col


def parse_column_number(entry: str, cols: int) -> int:
    """The 0-based column that ``entry``, a column number from 1 in ASCII digits, names.

    Raises:
        ValueError: ``entry`` is no such number (``"٣"``, ``"²"``), or names no column of
            ``cols``; the message says which, for the caller to add how to enter a column.
    """
    if not (entry.isascii() and entry.isdigit()):
        shown = entry if len(entry) <= 20 else f"{entry[:20]}..."
        raise ValueError(f"{shown!r} is not a column")
    number = entry.lstrip("0") or "0"
    # The length first: int() refuses 4,300 digits and more.
    if len(number) > len(str(cols)) or not 1 <= int(number) <= cols:
        shown = number if len(number) <= 12 else f"{number[:12]}..."
        raise ValueError(f"there is no column {shown}")
    return int(number) - 1


def _column_number(letters: str) -> int:
    """Inverse of :func:`column_label`: the 0-based column of lowercase ASCII ``letters``."""
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return col - 1
