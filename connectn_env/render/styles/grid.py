"""A grid of squares on paper with X and O marks (Connect-N without gravity: tic-tac-toe,
m,n,k-games); the last move and the winning line tint their squares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from connectn_env.games import GameState
from connectn_env.render.style import BoardStyle, Cell, Point
from connectn_env.render.theme import Palette, mix

if TYPE_CHECKING:
    from connectn_env.render.canvas import Canvas
    from connectn_env.render.geometry import BoardGeometry
    from connectn_env.render.pygame_renderer import Sprites


class GridStyle(BoardStyle):
    """X (player_0) and O marks in squares; lowercase column letters, row numbers."""

    name = "grid"
    palette = Palette(
        names=("X", "O"),
        stones=((200, 36, 36), (30, 84, 200)),
        edges=((200, 36, 36), (30, 84, 200)),
        board=(252, 251, 247),
        line=(80, 78, 74),
        last_move=((255, 236, 150), (255, 236, 150)),
        win=(40, 190, 80),
    )
    stone_radius = 0.32
    win_rings = False  # the winning squares are tinted instead

    def draw_board(self, canvas: Canvas, geometry: BoardGeometry) -> None:
        (left, top), (right, bottom) = geometry.frame[0], geometry.frame[2]
        rect = (left, top, right - left, bottom - top)
        canvas.fill(self.palette.board, rect)
        width = geometry.cell * 0.03
        half = geometry.cell / 2
        for col in range(1, geometry.game.cols):
            x = geometry.center(0, col)[0] - half
            canvas.line(self.palette.line, (x, top), (x, bottom), width)
        for row in range(1, geometry.game.rows):
            y = geometry.center(row, 0)[1] - half
            canvas.line(self.palette.line, (left, y), (right, y), width)
        canvas.rect(self.palette.line, rect, width=2 * width)

    def draw_stone(self, canvas: Canvas, player: int, centre: Point, radius: float) -> None:
        """An X for player_0, an O for player_1."""
        colour = self.palette.stones[player]
        width = radius * 0.28
        x, y = centre
        if player == 0:
            d = radius * 0.78
            for sign in (1, -1):
                canvas.thick_line(colour, (x - d, y - sign * d), (x + d, y + sign * d), width)
        else:
            canvas.circle(colour, centre, radius, width)

    def fill_cell(
        self, canvas: Canvas, geometry: BoardGeometry, cell: Cell, colour: tuple[int, ...]
    ) -> None:
        """The square inside its lines."""
        x, y = geometry.center(*cell)
        half = geometry.cell / 2
        line = max(1, round(geometry.cell * 0.03))
        side = geometry.cell - line
        canvas.fill(colour, (round(x - half) + line, round(y - half) + line, side, side))

    def draw_position(
        self, canvas: Canvas, geometry: BoardGeometry, sprites: Sprites, state: GameState
    ) -> None:
        """Tint the last move's square and the winning squares under the marks."""
        last = state.last_move_cell()
        if last is not None:
            self.fill_cell(canvas, geometry, last, self.palette.last_move[0])
        tint = mix(self.palette.win, (255, 255, 255), 0.6)
        for cell in state.winning_cells():
            self.fill_cell(canvas, geometry, cell, tint)
        super().draw_position(canvas, geometry, sprites, state)

    def mark_last_move(
        self, canvas: Canvas, geometry: BoardGeometry, sprites: Sprites, cell: Cell, player: int
    ) -> None:
        """Nothing on the mark: its square is tinted."""


STYLE = GridStyle()
