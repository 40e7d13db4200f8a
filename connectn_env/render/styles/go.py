"""A wooden go board: black and white stones on the intersections, star points, columns
A, B, C... across the top (Gomoku)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from connectn_env.render.style import BoardStyle
from connectn_env.render.theme import Palette

if TYPE_CHECKING:
    from connectn_env.render.canvas import Canvas
    from connectn_env.render.geometry import BoardGeometry

EDGE = 0.7  # wood beyond the outer lines, in cells


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


class GoStyle(BoardStyle):
    """Stones on the intersections of lines; the outer lines are drawn thicker."""

    name = "go"
    palette = Palette(
        names=("Black", "White"),
        stones=((28, 28, 30), (246, 246, 242)),
        edges=((0, 0, 0), (130, 130, 126)),
        board=(224, 182, 104),
        line=(50, 36, 20),
        last_move=((235, 50, 40), (235, 50, 40)),
        win=(30, 150, 255),
    )
    stone_radius = 0.47
    margin = EDGE
    uppercase_letters = True

    def draw_board(self, canvas: Canvas, geometry: BoardGeometry) -> None:
        (left, top), (right, bottom) = geometry.frame[0], geometry.frame[2]
        cell, colour = geometry.cell, self.palette.line
        canvas.rect(self.palette.board, (left, top, right - left, bottom - top), radius=cell * 0.1)
        rows, cols = geometry.game.rows, geometry.game.cols
        width = cell * 0.025
        (x0, y0), (x1, y1) = geometry.center(0, 0), geometry.center(rows - 1, cols - 1)
        for col in range(cols):
            x = geometry.center(0, col)[0]
            canvas.line(colour, (x, y0), (x, y1), 2 * width if col in (0, cols - 1) else width)
        for row in range(rows):
            y = geometry.center(row, 0)[1]
            canvas.line(colour, (x0, y), (x1, y), 2 * width if row in (0, rows - 1) else width)
        for row, col in star_points(rows, cols):
            canvas.circle(colour, geometry.center(row, col), max(2.0, cell * 0.09))


STYLE = GoStyle()
