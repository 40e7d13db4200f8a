"""An Othello board: a green board of squares, black and white discs, and small dots on the
legal moves of the player to move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from connectn_env.render.style import BoardStyle
from connectn_env.render.theme import Palette

if TYPE_CHECKING:
    from connectn_env.render.canvas import Canvas
    from connectn_env.render.geometry import BoardGeometry

LINE_WIDTH = 0.03  # in cells
DISC_EDGE = 0.92  # the disc's face, in radii (the rest is its rim)


class OthelloStyle(BoardStyle):
    """Discs inside the squares of a green board; legal moves marked with dots."""

    name = "othello"
    palette = Palette(
        names=("Black", "White"),
        stones=((24, 24, 24), (244, 244, 240)),
        edges=((0, 0, 0), (150, 150, 146)),
        board=(28, 120, 60),
        line=(12, 60, 28),
        last_move=((230, 50, 40), (230, 50, 40)),
        win=(255, 204, 0),
    )
    legal_moves_shown = True

    def draw_board(self, canvas: Canvas, geometry: BoardGeometry) -> None:
        """The green board and the lines between the squares."""
        (left, top), (right, bottom) = geometry.frame[0], geometry.frame[2]
        canvas.fill(self.palette.board, (left, top, right - left, bottom - top))
        width = geometry.cell * LINE_WIDTH
        for k in range(geometry.game.cols + 1):
            x = geometry.center(0, k - 0.5)[0]
            canvas.line(self.palette.line, (x, top), (x, bottom), width)
        for k in range(geometry.game.rows + 1):
            y = geometry.center(k - 0.5, 0)[1]
            canvas.line(self.palette.line, (left, y), (right, y), width)

    def draw_stone(
        self, canvas: Canvas, player: int, centre: tuple[float, float], radius: float
    ) -> None:
        """A flat disc with a thin rim."""
        canvas.circle(self.palette.edges[player], centre, radius)
        canvas.circle(self.palette.stones[player], centre, radius * DISC_EDGE)


STYLE = OthelloStyle()
