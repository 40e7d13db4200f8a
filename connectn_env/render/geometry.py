"""Where things go in a board picture (no pygame): image size, cell centres, labels and the
inverse map from a pixel to an action, from the board style's lattice and frame.

The picture is, from top to bottom, the board with its coordinates and a status bar. The
cell pitch is derived from the board size (within bounds), so 1 x 1 and 32 x 32 boards
both give pictures of a few hundred pixels; a window may ask for another pitch.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

from connectn_env.games import BoardGame
from connectn_env.games.validation import require_int
from connectn_env.render.style import BoardStyle, board_style, load_style

BOARD_PX = 640  # target side of a square of the board's area, in pixels
MAX_BOARD_PX = 800  # longest side of the board, in pixels (unless cells hit MIN_CELL)
MIN_CELL, MAX_CELL = 16, 100  # bounds of the derived cell pitch, in pixels
SMALLEST_CELL, LARGEST_CELL = 6, 200  # bounds of a cell pitch asked for (to fit a window)
MIN_WIDTH = 360  # narrower boards are centred in a picture this wide


class BoardGeometry:
    """Pixel layout of the picture of a game's board, from the game's board style.

    Args:
        game: The game drawn.
        cell: Cell pitch in pixels (6 to 200), for example to fit a window; by default it is
            derived from the board size (16 to 100).

    Attributes:
        game: The game drawn.
        style: Its :class:`~connectn_env.render.style.BoardStyle` (``style.name`` is
            :func:`board_style`).
        cell: Cell pitch in pixels (width of a hexagon for Hex).
        font_px: Font size of the coordinates and the status bar.
        size: (width, height) of the picture.
        stone_radius: Radius of a stone or disc, in pixels.
        frame: Corners of the board (rack, paper, wood or Hex frame) as pixel points,
            clockwise from the top left.
        column_labels: (text, (x, y) centre) of each column label.
        row_labels: (text, (x, y) centre) of each row label (none for gravity games).
        status_rect: (x, y, width, height) of the status bar.

    Raises:
        TypeError: ``game`` is not a BoardGame, ``cell`` not an int or None.
        ValueError: the game's board style does not exist, ``cell`` is out of bounds.
    """

    def __init__(self, game: BoardGame, *, cell: int | None = None) -> None:
        self.style: BoardStyle = load_style(board_style(game))
        if cell is not None:
            cell = require_int("cell", cell, SMALLEST_CELL, LARGEST_CELL)
        self.game = game
        frame_units = self.style.frame_units(game.rows, game.cols)
        if cell is None:
            xs, ys = [p[0] for p in frame_units], [p[1] for p in frame_units]
            width, height = max(xs) - min(xs), max(ys) - min(ys)
            best = min(BOARD_PX / math.sqrt(width * height), MAX_BOARD_PX / max(width, height))
            cell = min(MAX_CELL, max(MIN_CELL, round(best)))
        self.cell = cell
        self.font_px = min(18, max(11, round(self.cell * 0.32)))
        self.stone_radius = self.style.stone_radius * self.cell
        self._origin = (0.0, 0.0)
        column_units, row_units = self.style.label_units(game.rows, game.cols)
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

    def center(self, row: float, col: float) -> tuple[float, float]:
        """Pixel centre of cell (row, col) (an intersection on a go board); any real
        row and column, also off the board."""
        return self._to_px(self.style.unit(row, col))

    def to_unit(self, x: float, y: float) -> tuple[float, float]:
        """Pixel (x, y) in the style's units (cell (0, 0) at the origin, one cell pitch = 1)."""
        return ((x - self._origin[0]) / self.cell, (y - self._origin[1]) / self.cell)

    def hexagon(self, row: float, col: float) -> list[tuple[float, float]]:
        """Corners of a hexagon one cell wide around the centre of cell (row, col), pointy
        side up, clockwise from the top (a Hex cell)."""
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
        row, col = self.style.nearest_cell(*self.to_unit(*_point(pos)))
        if 0 <= row < self.game.rows and 0 <= col < self.game.cols:
            return (row, col)
        return None

    def action_at(self, pos: Sequence[float]) -> int | None:
        """The action a click at pixel ``pos`` = (x, y) names, or None, as the board style
        maps clicks: the cell under the pointer (the nearest intersection on a go board, the
        hexagon in Hex), or in a rack the column under the pointer, anywhere from the top of
        the picture to the bottom of the rack. The action may be illegal in the current
        position (an occupied cell, a full column).

        Raises:
            TypeError: ``pos`` is not a pair of numbers.
        """
        return self.style.action_at(self, *_point(pos))

    # --- layout helpers ----------------------------------------------------------------

    def _to_px(self, unit: tuple[float, float]) -> tuple[float, float]:
        return (self._origin[0] + unit[0] * self.cell, self._origin[1] + unit[1] * self.cell)

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
