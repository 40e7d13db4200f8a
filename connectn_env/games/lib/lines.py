"""Boards with a sentinel border, and the k-in-a-row line scan (the only one in the suite).

A padded board of ``rows`` x ``cols`` cells is a flat array of ``padded_size(rows, cols)``
entries: row ``r``, column ``c`` sits at ``(r + 1) * (cols + 1) + c + 1`` and every other
entry is ``SENTINEL``. One sentinel column serves as both the left and the right border, so a
step of ``1``, ``width``, ``width + 1`` or ``width - 1`` (``width = cols + 1``) from any cell
lands on a cell or a sentinel: scans need no bounds tests.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.lib.jit import njit

EMPTY = 0  # a stone of player p is p + 1
SENTINEL = 3


def padded_size(rows: int, cols: int) -> int:
    """Entries of a padded ``rows`` x ``cols`` board."""
    return (rows + 2) * (cols + 1) + 1


def padded_index(row: int, col: int, cols: int) -> int:
    """Index of cell (row, col) in a padded board of ``cols`` columns."""
    return (row + 1) * (cols + 1) + col + 1


def empty_padded_board(rows: int, cols: int) -> np.ndarray:
    """An int32 padded board: sentinels around empty cells."""
    board = np.full(padded_size(rows, cols), SENTINEL, dtype=np.int32)
    grid = board[: (rows + 2) * (cols + 1)].reshape(rows + 2, cols + 1)
    grid[1 : rows + 1, 1:] = EMPTY
    return board


def unpad(board: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The ``(rows, cols)`` view of the cells of a padded board."""
    return board[: (rows + 2) * (cols + 1)].reshape(rows + 2, cols + 1)[1 : rows + 1, 1:]


@njit(cache=True)
def line_through(board, pad, stone, width, n, exact):
    """Whether ``stone`` (the value at ``pad``) completes a winning line on a padded board.

    A line wins with ``n`` or more equal stones in a row (exactly ``n`` if ``exact``); the
    four directions are scanned from ``pad`` both ways.

    Returns:
        0 if it completes none, else 1 + the index of the line's direction in
        :func:`line_steps` (a small int keeps the hot loops, which only ask "did this move
        win?", as fast as a bool; :func:`winning_line_cells` walks the line).
    """
    for direction, step in enumerate((1, width, width + 1, width - 1)):
        length = 1
        other = pad + step
        while board[other] == stone:
            length += 1
            other += step
        other = pad - step
        while board[other] == stone:
            length += 1
            other -= step
        if length == n or (length > n and not exact):
            return direction + 1
    return 0


def line_steps(width: int) -> tuple[int, int, int, int]:
    """The padded-index step of each line direction: across, down, down-right, down-left."""
    return (1, width, width + 1, width - 1)


@njit(cache=True)
def empty_cells(rows, cols, board, out):
    """Write the empty cells ``r * cols + c`` of a padded board, increasing, into the int64
    array ``out``; return how many."""
    width = cols + 1
    count = 0
    for r in range(rows):
        base = (r + 1) * width + 1
        for c in range(cols):
            if board[base + c] == EMPTY:
                out[count] = r * cols + c
                count += 1
    return count


@njit(cache=True)
def empty_mask(rows, cols, board, mask):
    """Write 1 for each empty cell ``r * cols + c`` of a padded board and 0 for the others
    into the int8 array ``mask``."""
    width = cols + 1
    for r in range(rows):
        base = (r + 1) * width + 1
        for c in range(cols):
            mask[r * cols + c] = board[base + c] == EMPTY


@njit(cache=True)
def observe_padded(rows, cols, board, player, out):
    """Write the planes [player's stones, opponent's stones] of a padded board, flattened
    ``(rows, cols, 2)``, into the int8 array ``out`` (two byte writes per cell, a loop that
    vectorises)."""
    own = player + 1
    other = 2 - player
    for r in range(rows):
        base = (r + 1) * (cols + 1) + 1
        row = 2 * r * cols
        for c in range(cols):
            stone = board[base + c]
            out[row + 2 * c] = stone == own
            out[row + 2 * c + 1] = stone == other


def winning_line_cells(
    board: np.ndarray, row: int, col: int, n: int, exact: bool
) -> list[tuple[int, int]]:
    """Cells of the winning line through the stone at (row, col) of a ``(rows, cols)`` board,
    sorted; [] if that stone completes none."""
    rows, cols = board.shape
    padded = empty_padded_board(rows, cols)
    unpad(padded, rows, cols)[:] = board
    width = cols + 1
    pad = padded_index(row, col, cols)
    direction = line_through(padded, pad, padded[pad], width, n, exact)
    if direction == 0:
        return []
    step = line_steps(width)[direction - 1]
    cells = []
    for sign in (1, -1):
        other = pad if sign == 1 else pad - step
        while padded[other] == padded[pad]:
            cells.append((other // width - 1, other % width - 1))
            other += sign * step
    return sorted(cells)
