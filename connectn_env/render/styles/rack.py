"""A Connect Four rack: a blue board with round holes, red and yellow discs; a click anywhere
in a column drops a disc to the lowest empty hole."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from connectn_env.games import GameState
from connectn_env.render.style import BoardStyle, Cell, Point
from connectn_env.render.theme import BACKGROUND, Palette

if TYPE_CHECKING:
    from connectn_env.render.canvas import Canvas
    from connectn_env.render.geometry import BoardGeometry

RIM = 0.15  # the rack's border around the holes, in cells
HOLE_RADIUS = 0.43  # in cells (discs are a little smaller)


class RackStyle(BoardStyle):
    """Connect-N with gravity: actions are columns, numbered 1, 2, ... above the rack."""

    name = "rack"
    palette = Palette(
        names=("Red", "Yellow"),
        stones=((214, 38, 38), (246, 200, 30)),
        edges=((150, 18, 18), (190, 140, 0)),
        board=(30, 84, 196),
        line=(18, 52, 140),
        last_move=((255, 255, 255), (120, 80, 0)),
        win=(40, 220, 90),
    )
    stone_radius = 0.40
    margin = 0.5 + RIM
    row_labels = False
    target = "column"

    @property
    def hint_radius(self) -> float:
        return 0.9 * self.stone_radius

    def column_label(self, col: int) -> str:
        return str(col + 1)

    def action_at(self, geometry: BoardGeometry, x: float, y: float) -> int | None:
        """The column under the pointer, from the top of the picture to the rack's bottom."""
        col = math.floor(geometry.to_unit(x, y)[0] + 0.5)
        bottom = max(p[1] for p in geometry.frame)
        return col if 0 <= col < geometry.game.cols and 0 <= y <= bottom else None

    def landing_cell(self, state: GameState, action: int) -> Cell | None:
        """The lowest empty hole of column ``action``; None if the column is full."""
        empty_rows = np.flatnonzero(state.board[:, action] == 0)
        return (int(empty_rows[-1]), action) if len(empty_rows) else None

    def draw_board(self, canvas: Canvas, geometry: BoardGeometry) -> None:
        palette, cell = self.palette, geometry.cell
        (left, top), (right, bottom) = geometry.frame[0], geometry.frame[2]
        rect = (left, top, right - left, bottom - top)
        canvas.rect(palette.board, rect, radius=cell * 0.15)
        canvas.rect(palette.line, rect, width=cell * 0.03, radius=cell * 0.15)
        for row in range(geometry.game.rows):
            for col in range(geometry.game.cols):
                centre = geometry.center(row, col)
                canvas.circle(BACKGROUND, centre, HOLE_RADIUS * cell)
                canvas.circle(palette.line, centre, HOLE_RADIUS * cell, cell * 0.04)

    def draw_stone(self, canvas: Canvas, player: int, centre: Point, radius: float) -> None:
        """A disc with a raised inner ring."""
        colour, edge = self.palette.stones[player], self.palette.edges[player]
        canvas.circle(edge, centre, radius)
        canvas.circle(colour, centre, radius * 0.94)
        canvas.circle(edge, centre, radius * 0.72, radius * 0.07)

    def fill_cell(
        self, canvas: Canvas, geometry: BoardGeometry, cell: Cell, colour: tuple[int, ...]
    ) -> None:
        """The hole."""
        canvas.circle(colour, geometry.center(*cell), HOLE_RADIUS * geometry.cell)


STYLE = RackStyle()
