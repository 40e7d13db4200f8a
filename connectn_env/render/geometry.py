"""Where things go in a board picture (no pygame): image size, cell centres, labels and the
inverse map from a pixel to an action.

The picture is, from top to bottom, the board with its coordinates and a status bar. The
cell pitch is derived from the board size (within bounds), so 1 x 1 and 32 x 32 boards
both give pictures of a few hundred pixels.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

from connectn_env.games import BoardGame, column_label

RACK = "rack"  # Connect-N with gravity: a Connect Four rack with round holes
GRID = "grid"  # Connect-N without gravity: X and O marks in a grid
GO = "go"  # Gomoku: stones on the intersections of a wooden go board
HEX = "hex"  # Hex: a rhombus of hexagons in a two-coloured frame
STYLES = (RACK, GRID, GO, HEX)

BOARD_PX = 640  # target side of a square of the board's area, in pixels
MAX_BOARD_PX = 800  # longest side of the board, in pixels (unless cells hit MIN_CELL)
MIN_CELL, MAX_CELL = 16, 100  # bounds of the cell pitch, in pixels
MIN_WIDTH = 360  # narrower boards are centred in a picture this wide
RACK_RIM = 0.15  # the rack's border around the holes, in cells
GO_EDGE = 0.7  # wood beyond the outer lines, in cells
HEX_FRAME = 1.0  # depth of Hex's coloured frame, in rows / columns
STONE_RADIUS = {RACK: 0.40, GRID: 0.32, GO: 0.47, HEX: 0.42}  # in cells
_ROW_STEP = math.sqrt(3) / 2  # vertical distance of Hex rows, in hexagon widths


def board_style(game: BoardGame) -> str:
    """How ``game`` is drawn: its ``render_style`` (``RACK``, ``GRID``, ``GO`` or ``HEX``)."""
    if game.render_style not in STYLES:
        raise ValueError(f"no drawing style {game.render_style!r}; styles: {', '.join(STYLES)}")
    return game.render_style


def star_points(rows: int, cols: int) -> list[tuple[int, int]]:
    """Star points (hoshi) of a go-style board: the usual ones on 9 x 9, 13 x 13, 15 x 15
    and 19 x 19, and by the same rules on other sizes.

    On each axis the corner points are on the 4th line (3rd below 13); a centre point
    needs both sides odd, and the four side points a board of at least 19 x 19.
    """

    def corner_lines(side: int) -> list[int]:
        if side < 7:
            return []
        depth = 3 if side >= 13 else 2
        return [depth, side - 1 - depth]

    row_lines, col_lines = corner_lines(rows), corner_lines(cols)
    points = {(r, c) for r in row_lines for c in col_lines}
    if rows % 2 and cols % 2 and min(rows, cols) >= 5:
        mid_r, mid_c = rows // 2, cols // 2
        points.add((mid_r, mid_c))
        if min(rows, cols) >= 19:
            points.update((r, mid_c) for r in row_lines)
            points.update((mid_r, c) for c in col_lines)
    return sorted(points)


class BoardGeometry:
    """Pixel layout of the picture of a game's board.

    Attributes:
        game: The game drawn.
        style: ``RACK``, ``GRID``, ``GO`` or ``HEX`` (see :func:`board_style`).
        cell: Cell pitch in pixels (width of a hexagon for Hex).
        font_px: Font size of the coordinates and the status bar.
        size: (width, height) of the picture.
        stone_radius: Radius of a stone or disc, in pixels.
        frame: Corners of the board (rack, paper, wood or Hex frame) as pixel points,
            clockwise from the top left.
        column_labels: (text, (x, y) centre) of each column label.
        row_labels: (text, (x, y) centre) of each row label (none for gravity games).
        status_rect: (x, y, width, height) of the status bar.
    """

    def __init__(self, game: BoardGame) -> None:
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
        self.game = game
        self.style = board_style(game)
        frame_units = self._frame_units()
        xs, ys = [p[0] for p in frame_units], [p[1] for p in frame_units]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        cell = min(BOARD_PX / math.sqrt(width * height), MAX_BOARD_PX / max(width, height))
        self.cell = min(MAX_CELL, max(MIN_CELL, round(cell)))
        self.font_px = min(18, max(11, round(self.cell * 0.32)))
        self.stone_radius = STONE_RADIUS[self.style] * self.cell
        self._origin = (0.0, 0.0)
        column_units, row_units = self._label_units()
        # Lay out around cell (0, 0) at the origin, then move everything into the picture.
        frame = [self._to_px(p) for p in frame_units]
        column_labels = [(t, self._label_anchor(p, d)) for t, p, d in column_units]
        row_labels = [(t, self._label_anchor(p, d)) for t, p, d in row_units]
        left, top, right, bottom = _bounds(frame, column_labels + row_labels, self.font_px)
        pad = max(8, round(self.font_px * 0.6))
        width = max(MIN_WIDTH, math.ceil(right - left) + 2 * pad)
        dx = (width - (right - left)) / 2 - left
        dy = pad - top
        self._origin = (dx, dy)
        self.frame = [(x + dx, y + dy) for x, y in frame]
        self.column_labels = [(t, (x + dx, y + dy)) for t, (x, y) in column_labels]
        self.row_labels = [(t, (x + dx, y + dy)) for t, (x, y) in row_labels]
        status_top = math.ceil(bottom + dy + pad)
        status_height = round(self.font_px * 2)
        self.status_rect = (0, status_top, width, status_height)
        self.size = (width, status_top + status_height)

    # --- cells -----------------------------------------------------------------------

    def center(self, row: int, col: int) -> tuple[float, float]:
        """Pixel centre of cell (row, col) (an intersection on a go board); any real
        row and column, also off the board."""
        return self._to_px(self._unit(row, col))

    def hexagon(self, row: int, col: int) -> list[tuple[float, float]]:
        """Corners of Hex cell (row, col), pointy side up, clockwise from the top."""
        x, y = self.center(row, col)
        radius = self.cell / math.sqrt(3)
        return [
            (x + radius * math.cos(a), y + radius * math.sin(a))
            for a in (math.radians(-90 + 60 * k) for k in range(6))
        ]

    def cell_at(self, pos: Sequence[float]) -> tuple[int, int] | None:
        """The cell (row, col) under pixel ``pos`` = (x, y), or None off the board.

        Raises:
            TypeError: ``pos`` is not a pair of numbers.
        """
        x, y = _point(pos)
        ux, uy = (x - self._origin[0]) / self.cell, (y - self._origin[1]) / self.cell
        if self.style == HEX:
            row, col = _hex_round(ux - uy / (2 * _ROW_STEP), uy / _ROW_STEP)
        else:
            row, col = math.floor(uy + 0.5), math.floor(ux + 0.5)
        if 0 <= row < self.game.rows and 0 <= col < self.game.cols:
            return (row, col)
        return None

    def action_at(self, pos: Sequence[float]) -> int | None:
        """The action a click at pixel ``pos`` = (x, y) names, or None.

        For gravity games the column under the pointer, anywhere from the top of the
        picture to the bottom of the rack; for the others the cell under the pointer
        (the nearest intersection on a go board, the hexagon in Hex). The action may be
        illegal in the current position (an occupied cell, a full column).

        Raises:
            TypeError: ``pos`` is not a pair of numbers.
        """
        if self.game.gravity:
            x, y = _point(pos)
            col = math.floor((x - self._origin[0]) / self.cell + 0.5)
            bottom = max(p[1] for p in self.frame)
            return col if 0 <= col < self.game.cols and 0 <= y <= bottom else None
        cell = self.cell_at(pos)
        return None if cell is None else cell[0] * self.game.cols + cell[1]

    # --- layout helpers ----------------------------------------------------------------

    def _unit(self, row: float, col: float) -> tuple[float, float]:
        if self.style == HEX:
            return (col + row / 2, row * _ROW_STEP)
        return (col, row)

    def _to_px(self, unit: tuple[float, float]) -> tuple[float, float]:
        return (self._origin[0] + unit[0] * self.cell, self._origin[1] + unit[1] * self.cell)

    def _frame_units(self) -> list[tuple[float, float]]:
        last_r, last_c = self.game.rows - 1, self.game.cols - 1
        if self.style == HEX:
            t = HEX_FRAME
            corners = ((-t, -t), (-t, last_c + t), (last_r + t, last_c + t), (last_r + t, -t))
            return [self._unit(r, c) for r, c in corners]
        margin = {RACK: 0.5 + RACK_RIM, GRID: 0.5, GO: GO_EDGE}[self.style]
        top, left = -margin, -margin
        bottom, right = last_r + margin, last_c + margin
        return [(left, top), (right, top), (right, bottom), (left, bottom)]

    def _label_units(self) -> tuple[list, list]:
        """(text, unit point on the frame's edge, outward direction) of the labels."""
        rows, cols = self.game.rows, self.game.cols
        if self.style == HEX:
            t = HEX_FRAME
            top = self._unit(-t, 0)[1]  # letters above the first row's cells
            columns = [(column_label(c), (c, top), (0.0, -1.0)) for c in range(cols)]
            row_labels = [(str(r + 1), self._unit(r, -t), (-1.0, 0.0)) for r in range(rows)]
            return columns, row_labels
        frame = self._frame_units()
        top, left = frame[0][1], frame[0][0]
        if self.style == RACK:
            columns = [(str(c + 1), (c, top), (0.0, -1.0)) for c in range(cols)]
            return columns, []
        upper = self.style == GO  # go boards are labelled A, B, C...
        columns = [
            (column_label(c).upper() if upper else column_label(c), (c, top), (0.0, -1.0))
            for c in range(cols)
        ]
        row_labels = [(str(r + 1), (left, r), (-1.0, 0.0)) for r in range(rows)]
        return columns, row_labels

    def _label_anchor(
        self, unit: tuple[float, float], direction: tuple[float, float]
    ) -> tuple[float, float]:
        x, y = self._to_px(unit)
        gap = self.font_px * 1.0
        return (x + direction[0] * gap, y + direction[1] * gap)


def text_extent(text: str, font_px: int) -> tuple[float, float]:
    """Approximate (width, height) in pixels of ``text`` in pygame's default font."""
    return (font_px * max(0.9, 0.55 * len(text)), 0.75 * font_px)


def _bounds(
    points: list[tuple[float, float]], labels: list[tuple[str, tuple[float, float]]], font_px: int
) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    for text, (x, y) in labels:
        width, height = text_extent(text, font_px)
        xs += [x - width / 2, x + width / 2]
        ys += [y - height / 2, y + height / 2]
    return min(xs), min(ys), max(xs), max(ys)


def _point(pos: Sequence[float]) -> tuple[float, float]:
    try:
        x, y = pos
    except (TypeError, ValueError):
        raise TypeError(f"pos must be an (x, y) pair of numbers, got {pos!r}") from None
    for value in (x, y):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"pos must be an (x, y) pair of numbers, got {pos!r}")
    return float(x), float(y)


def _hex_round(col: float, row: float) -> tuple[int, int]:
    """The hexagon containing fractional axial coordinates (col, row) (cube rounding)."""
    s = -col - row
    rc, rr, rs = round(col), round(row), round(s)
    dc, dr, ds = abs(rc - col), abs(rr - row), abs(rs - s)
    if dc > dr and dc > ds:
        rc = -rr - rs
    elif dr > ds:
        rr = -rc - rs
    return int(rr), int(rc)


__all__ = [
    "GO",
    "GRID",
    "HEX",
    "RACK",
    "STYLES",
    "BoardGeometry",
    "board_style",
    "star_points",
    "text_extent",
]
