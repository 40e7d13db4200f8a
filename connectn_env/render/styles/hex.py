"""Hex: a rhombus of hexagons, each row shifted half a cell right (OpenSpiel's grid), in a
frame whose top and bottom sides have player_0's colour and left and right sides player_1's."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from connectn_env.games import column_label
from connectn_env.render.style import BoardStyle, Cell, LabelUnits, Point
from connectn_env.render.theme import Palette

if TYPE_CHECKING:
    from connectn_env.render.canvas import Canvas
    from connectn_env.render.geometry import BoardGeometry

FRAME = 1.0  # depth of the coloured frame, in rows / columns
ROW_STEP = math.sqrt(3) / 2  # vertical distance of rows, in hexagon widths
NEIGHBOURS_AHEAD = ((0, 1), (1, 0), (1, -1))  # half of a cell's six neighbours


class HexStyle(BoardStyle):
    """Hexagons pointy side up; cell (r, c) touches (r, c+-1), (r+-1, c), (r-1, c+1) and
    (r+1, c-1); the winning chain is drawn through its stones."""

    name = "hex"
    palette = Palette(
        names=("Red", "Blue"),
        stones=((210, 44, 44), (36, 92, 206)),
        edges=((140, 20, 20), (18, 50, 140)),
        board=(246, 238, 218),
        line=(96, 86, 74),
        last_move=((255, 255, 255), (255, 255, 255)),
        win=(255, 204, 0),
    )
    stone_radius = 0.42

    def unit(self, row: float, col: float) -> Point:
        return (col + row / 2, row * ROW_STEP)

    def nearest_cell(self, x: float, y: float) -> Cell:
        """The hexagon holding (x, y), by rounding axial coordinates as cube coordinates."""
        col, row = x - y / (2 * ROW_STEP), y / ROW_STEP
        s = -col - row
        rc, rr, rs = round(col), round(row), round(s)
        dc, dr, ds = abs(rc - col), abs(rr - row), abs(rs - s)
        if dc > dr and dc > ds:
            rc = -rr - rs
        elif dr > ds:
            rr = -rc - rs
        return (int(rr), int(rc))

    def frame_units(self, rows: int, cols: int) -> list[Point]:
        last_r, last_c = rows - 1, cols - 1
        t = FRAME
        corners = ((-t, -t), (-t, last_c + t), (last_r + t, last_c + t), (last_r + t, -t))
        return [self.unit(r, c) for r, c in corners]

    def label_units(self, rows: int, cols: int) -> tuple[LabelUnits, LabelUnits]:
        """Letters above the first row's cells, numbers left of each row's frame."""
        top = self.unit(-FRAME, 0)[1]
        columns = [(column_label(c), (c, top), (0.0, -1.0)) for c in range(cols)]
        row_labels = [(str(r + 1), self.unit(r, -FRAME), (-1.0, 0.0)) for r in range(rows)]
        return columns, row_labels

    def legend(self, rows: int, cols: int, names: Sequence[str]) -> str:
        return (
            f"{names[0]} connects top to bottom (row 1 to {rows}), {names[1]} left to right "
            f"(column a to {column_label(cols - 1)})."
        )

    def draw_board(self, canvas: Canvas, geometry: BoardGeometry) -> None:
        frame = geometry.frame
        middle = (sum(p[0] for p in frame) / 4, sum(p[1] for p in frame) / 4)
        top_left, top_right, bottom_right, bottom_left = frame
        stones = self.palette.stones
        sides = (  # player_0 joins top and bottom, player_1 left and right
            (stones[0], (top_left, top_right)),
            (stones[1], (top_right, bottom_right)),
            (stones[0], (bottom_right, bottom_left)),
            (stones[1], (bottom_left, top_left)),
        )
        for colour, (a, b) in sides:
            canvas.polygon(colour, [middle, a, b])
        width = geometry.cell * 0.035
        for row in range(geometry.game.rows):
            for col in range(geometry.game.cols):
                corners = geometry.hexagon(row, col)
                canvas.polygon(self.palette.board, corners)
                canvas.polygon(self.palette.line, corners, width)

    def fill_cell(
        self, canvas: Canvas, geometry: BoardGeometry, cell: Cell, colour: tuple[int, ...]
    ) -> None:
        canvas.polygon(colour, geometry.hexagon(*cell))

    def win_segments(self, cells: list[Cell]) -> list[tuple[Cell, Cell]]:
        """Every pair of neighbours in the chain (each pair once)."""
        chain = set(cells)
        return [
            ((row, col), (row + dr, col + dc))
            for row, col in cells
            for dr, dc in NEIGHBOURS_AHEAD
            if (row + dr, col + dc) in chain
        ]


STYLE = HexStyle()
