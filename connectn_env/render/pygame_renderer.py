"""Pygame pictures of a board: ``rgb_array`` images and a ``human`` window.

Imported only when a picture is drawn (``connectn_env.render.PygameRenderer`` is a lazy
attribute). Initialises only ``pygame.freetype`` (and ``pygame.display`` for a window); never
calls ``pygame.init()`` or ``pygame.quit()``, so it coexists with other pygame users.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
import pygame
import pygame.freetype

from connectn_env.games import BoardGame, GameState
from connectn_env.games.validation import require_int, require_number
from connectn_env.render.ansi import status_text
from connectn_env.render.geometry import (
    GO,
    GRID,
    HEX,
    RACK,
    BoardGeometry,
    star_points,
)
from connectn_env.render.theme import BACKGROUND, PALETTES, STATUS_BAR, TEXT, Palette

HEADLESS_DRIVERS = ("dummy", "offscreen")  # no real screen: show() does not wait
SUPERSAMPLE = 3  # static pictures are drawn this much larger, then smoothly scaled down
GHOST_ALPHA = 110  # opacity of the preview stone drawn by ``highlight``
HOLE_RADIUS = 0.43  # Connect Four rack holes, in cells (discs are a little smaller)

Point = tuple[float, float]


class PygameRenderer:
    """Draws positions of one game with pygame; no window is needed for pictures.

    Static parts (board, grid, coordinates, stone sprites) are drawn once per renderer
    and cached. The same object serves ``rgb_array`` (:meth:`rgb_array`), ``human``
    (:meth:`show`) and interactive play (:meth:`draw` onto any surface,
    :meth:`action_at` to map a click to an action).

    Args:
        game: The game whose positions are drawn.

    Attributes:
        game: The game.
        geometry: Where cells, labels and the status bar are
            (:class:`~connectn_env.render.geometry.BoardGeometry`).
        palette: Colours and player names of the board style.
        window: The ``pygame.Window`` that :meth:`show` opened, or None.
    """

    def __init__(self, game: BoardGame) -> None:
        self.geometry = BoardGeometry(game)
        self.game = game
        self.palette: Palette = PALETTES[self.geometry.style]
        self.window: pygame.Window | None = None
        self._clock: pygame.time.Clock | None = None
        self._canvas: pygame.Surface | None = None
        self._static: _StaticArt | None = None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the picture in pixels."""
        return self.geometry.size

    def action_at(self, pos: Sequence[float]) -> int | None:
        """The action a click at pixel ``pos`` names, or None (see ``BoardGeometry.action_at``)."""
        return self.geometry.action_at(pos)

    def draw(
        self, surface: pygame.Surface, state: GameState, *, highlight: int | None = None
    ) -> None:
        """Draw ``state`` into the top-left ``size`` pixels of ``surface``.

        Shows the stones, the last move, the winning line or chain once the game is won,
        and a status bar. ``highlight`` is an action to preview (for example the one under
        the mouse): if it is legal, a translucent stone of the player to move is drawn
        where it would land; illegal actions are ignored.

        Raises:
            TypeError: ``surface`` is not a ``pygame.Surface``, ``state`` not a GameState,
                ``highlight`` not an int or None.
            ValueError: ``surface`` is smaller than ``size``, ``state`` belongs to another
                game, or ``highlight`` is outside the action space.
        """
        if not isinstance(surface, pygame.Surface):
            raise TypeError(f"surface must be a pygame.Surface, got {type(surface).__name__}")
        width, height = surface.get_size()
        if width < self.size[0] or height < self.size[1]:
            raise ValueError(
                f"surface must be at least {self.size[0]} x {self.size[1]} pixels, "
                f"got {width} x {height}"
            )
        self._check_state(state)
        if highlight is not None:
            highlight = require_int("highlight", highlight, 0, self.game.num_actions - 1)
        art = self._art()
        surface.blit(art.background, (0, 0))
        board = state.board
        last = state.last_move_cell()
        winning = state.winning_cells()
        grid = self.geometry.style == GRID
        if grid:  # marks get a tinted cell: the last move, the winning line
            if last is not None:
                pygame.draw.rect(surface, self.palette.last_move[0], art.cell_rect(*last))
            for cell in winning:
                pygame.draw.rect(surface, art.win_tint, art.cell_rect(*cell))
        for row, col in zip(*np.nonzero(board), strict=True):
            art.blit_centered(surface, art.stones[board[row, col] - 1], row, col)
        if last is not None and not grid:
            art.blit_centered(surface, art.markers[board[last] - 1], *last)
        if winning:
            self._draw_win(surface, art, winning)
        if highlight is not None:
            self._draw_preview(surface, art, state, highlight)
        self._draw_status(surface, art, state)

    def rgb_array(self, state: GameState) -> np.ndarray:
        """A new uint8 (height, width, 3) picture of ``state``; needs no display."""
        self._check_state(state)
        if self._canvas is None:
            self._canvas = pygame.Surface(self.size)
        self.draw(self._canvas, state)
        pixels = np.frombuffer(pygame.image.tobytes(self._canvas, "RGB"), dtype=np.uint8)
        return pixels.reshape(self.size[1], self.size[0], 3).copy()  # writable

    def show(self, state: GameState, *, caption: str, fps: float) -> None:
        """Draw ``state`` in this renderer's window, opening it on first use.

        Events are pumped so the window stays responsive. With a real display the call
        then waits so that frames come at most ``fps`` times a second; with SDL's
        ``dummy`` or ``offscreen`` video driver it returns at once.

        Raises:
            TypeError, ValueError: a bad ``state``, ``caption`` (a str) or ``fps``
                (a positive number).
        """
        self._check_state(state)
        if not isinstance(caption, str):
            raise TypeError(f"caption must be a str, got {type(caption).__name__}")
        fps = require_number("fps", fps, 0.0, strict_low=True)
        if not pygame.display.get_init():
            pygame.display.init()
        if self.window is None:
            self.window = pygame.Window(caption, self.size)
            self._clock = pygame.time.Clock()
        elif self.window.title != caption:
            self.window.title = caption
        self.draw(self.window.get_surface(), state)
        self.window.flip()
        pygame.event.pump()
        if pygame.display.get_driver() not in HEADLESS_DRIVERS:
            self._clock.tick(fps)

    def close(self) -> None:
        """Close this renderer's window (other windows and pygame stay); safe to repeat."""
        if self.window is not None:
            self.window.destroy()
            self.window = None
            self._clock = None

    # --- helpers -----------------------------------------------------------------------

    def _check_state(self, state: Any) -> None:
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a GameState, got {type(state).__name__}")
        if state.game != self.game:
            raise ValueError(
                f"state is a position of {state.game!r}, this renderer draws {self.game!r}"
            )

    def _art(self) -> _StaticArt:
        if self._static is None:
            self._static = _StaticArt(self.geometry, self.palette)
        return self._static

    def _draw_win(self, surface: pygame.Surface, art: _StaticArt, cells: list) -> None:
        geometry = self.geometry
        width = max(3, round(geometry.cell * 0.1))
        if geometry.style == HEX:
            chain = set(cells)
            for row, col in cells:  # join chain neighbours (each pair once)
                for dr, dc in ((0, 1), (1, 0), (1, -1)):
                    if (row + dr, col + dc) in chain:
                        _thick_line(
                            surface,
                            self.palette.win,
                            geometry.center(row, col),
                            geometry.center(row + dr, col + dc),
                            width,
                        )
        else:  # a straight line: the sorted cells' ends are the line's ends
            _thick_line(
                surface,
                self.palette.win,
                geometry.center(*cells[0]),
                geometry.center(*cells[-1]),
                width,
            )
        if geometry.style != GRID:
            for row, col in cells:
                art.blit_centered(surface, art.win_ring, row, col)

    def _draw_preview(
        self, surface: pygame.Surface, art: _StaticArt, state: GameState, action: int
    ) -> None:
        if not state.legal_action_mask()[action]:
            return
        cell = self.game.action_to_cell(action)
        if cell is None:  # the swap action
            return
        if self.game.gravity:
            empty_rows = np.flatnonzero(state.board[:, action] == 0)
            cell = (int(empty_rows[-1]), action)
        art.blit_centered(surface, art.ghosts[state.current_player()], *cell)

    def _draw_status(self, surface: pygame.Surface, art: _StaticArt, state: GameState) -> None:
        x, y, width, height = self.geometry.status_rect
        text, _ = art.font.render(status_text(state, self.palette.names), TEXT)
        player = state.current_player() if state.winner is None else state.winner
        icon = art.icons[player] if player in (0, 1) else None
        gap = round(height * 0.3)
        icon_width = icon.get_width() + gap if icon is not None else 0
        room = width - 2 * gap - icon_width
        if text.get_width() > room:  # tiny boards: shrink the text to fit
            scale = room / text.get_width()
            text = pygame.transform.smoothscale(
                text, (room, max(1, round(text.get_height() * scale)))
            )
        left = x + (width - icon_width - text.get_width()) // 2
        if icon is not None:
            surface.blit(icon, (left, y + (height - icon.get_height()) // 2))
        surface.blit(text, (left + icon_width, y + (height - text.get_height()) // 2))


class _StaticArt:
    """Everything drawn once per renderer: the background and the stone sprites."""

    def __init__(self, geometry: BoardGeometry, palette: Palette) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self.geometry = geometry
        self.palette = palette
        self.font = pygame.freetype.Font(None, geometry.font_px)
        self.background = _background(geometry, palette, self.font)
        radius = geometry.stone_radius
        self.stones = [_stone_sprite(geometry.style, palette, p, radius) for p in (0, 1)]
        self.ghosts = []
        for stone in self.stones:
            ghost = stone.copy()
            ghost.set_alpha(GHOST_ALPHA)
            self.ghosts.append(ghost)
        marker_radius = max(2.5, 0.14 * geometry.cell)
        self.markers = [_disc_sprite(palette.last_move[p], marker_radius) for p in (0, 1)]
        ring_width = max(2.0, 0.07 * geometry.cell)
        self.win_ring = _ring_sprite(palette.win, radius + ring_width * 0.5, ring_width)
        self.win_tint = _mix(palette.win, (255, 255, 255), 0.6)
        icon_radius = geometry.status_rect[3] * 0.3
        self.icons = [_stone_sprite(geometry.style, palette, p, icon_radius) for p in (0, 1)]
        rows, cols = geometry.game.rows, geometry.game.cols
        self._centers = [[geometry.center(r, c) for c in range(cols)] for r in range(rows)]

    def blit_centered(self, surface: pygame.Surface, sprite: pygame.Surface, row, col) -> None:
        """Blit ``sprite`` centred on cell (row, col)."""
        x, y = self._centers[row][col]
        surface.blit(
            sprite, (round(x - sprite.get_width() / 2), round(y - sprite.get_height() / 2))
        )

    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        """The square of a grid cell, inside its lines."""
        x, y = self._centers[row][col]
        half = self.geometry.cell / 2
        line = max(1, round(self.geometry.cell * 0.03))
        return pygame.Rect(
            round(x - half) + line,
            round(y - half) + line,
            self.geometry.cell - line,
            self.geometry.cell - line,
        )


# --- static pictures (drawn at SUPERSAMPLE times the size, then scaled down) -----------


def _background(
    geometry: BoardGeometry, palette: Palette, font: pygame.freetype.Font
) -> pygame.Surface:
    s = SUPERSAMPLE
    width, height = geometry.size
    big = pygame.Surface((width * s, height * s))
    big.fill(BACKGROUND)
    x, y, w, h = geometry.status_rect
    big.fill(STATUS_BAR, (x * s, y * s, w * s, h * s))
    draw_board = {RACK: _draw_rack, GRID: _draw_grid, GO: _draw_go, HEX: _draw_hex}
    draw_board[geometry.style](big, geometry, palette, s)
    background = pygame.transform.smoothscale(big, (width, height))
    for text, (cx, cy) in geometry.column_labels + geometry.row_labels:
        label, _ = font.render(text, TEXT)
        background.blit(label, label.get_rect(center=(round(cx), round(cy))))
    return background


def _scaled(points: Sequence[Point], s: float) -> list[Point]:
    return [(x * s, y * s) for x, y in points]


def _frame_rect(geometry: BoardGeometry, s: float) -> pygame.Rect:
    (left, top), (right, bottom) = geometry.frame[0], geometry.frame[2]
    return pygame.Rect(
        round(left * s), round(top * s), round((right - left) * s), round((bottom - top) * s)
    )


def _line_width(geometry: BoardGeometry, s: float, fraction: float = 0.03) -> int:
    return max(s, round(geometry.cell * fraction * s))


def _draw_rack(big: pygame.Surface, geometry: BoardGeometry, palette: Palette, s: int) -> None:
    rect = _frame_rect(geometry, s)
    pygame.draw.rect(big, palette.board, rect, border_radius=round(geometry.cell * 0.15 * s))
    pygame.draw.rect(
        big, palette.line, rect, _line_width(geometry, s), round(geometry.cell * 0.15 * s)
    )
    hole = HOLE_RADIUS * geometry.cell * s
    rim = _line_width(geometry, s, 0.04)
    for row in range(geometry.game.rows):
        for col in range(geometry.game.cols):
            center = _scaled([geometry.center(row, col)], s)[0]
            pygame.draw.circle(big, BACKGROUND, center, hole)
            pygame.draw.circle(big, palette.line, center, hole, rim)


def _draw_grid(big: pygame.Surface, geometry: BoardGeometry, palette: Palette, s: int) -> None:
    rect = _frame_rect(geometry, s)
    big.fill(palette.board, rect)
    line = _line_width(geometry, s)
    half = geometry.cell / 2
    for col in range(1, geometry.game.cols):
        x = (geometry.center(0, col)[0] - half) * s
        pygame.draw.line(big, palette.line, (x, rect.top), (x, rect.bottom), line)
    for row in range(1, geometry.game.rows):
        y = (geometry.center(row, 0)[1] - half) * s
        pygame.draw.line(big, palette.line, (rect.left, y), (rect.right, y), line)
    pygame.draw.rect(big, palette.line, rect, line * 2)


def _draw_go(big: pygame.Surface, geometry: BoardGeometry, palette: Palette, s: int) -> None:
    rect = _frame_rect(geometry, s)
    pygame.draw.rect(big, palette.board, rect, border_radius=round(geometry.cell * 0.1 * s))
    rows, cols = geometry.game.rows, geometry.game.cols
    line = _line_width(geometry, s, 0.025)
    (x0, y0), (x1, y1) = _scaled([geometry.center(0, 0), geometry.center(rows - 1, cols - 1)], s)
    for col in range(cols):
        x = geometry.center(0, col)[0] * s
        width = 2 * line if col in (0, cols - 1) else line
        pygame.draw.line(big, palette.line, (x, y0), (x, y1), width)
    for row in range(rows):
        y = geometry.center(row, 0)[1] * s
        width = 2 * line if row in (0, rows - 1) else line
        pygame.draw.line(big, palette.line, (x0, y), (x1, y), width)
    star = max(2.0, geometry.cell * 0.09) * s
    for row, col in star_points(rows, cols):
        pygame.draw.circle(big, palette.line, _scaled([geometry.center(row, col)], s)[0], star)


def _draw_hex(big: pygame.Surface, geometry: BoardGeometry, palette: Palette, s: int) -> None:
    frame = _scaled(geometry.frame, s)
    middle = (sum(p[0] for p in frame) / 4, sum(p[1] for p in frame) / 4)
    top_left, top_right, bottom_right, bottom_left = frame
    sides = (  # player_0 joins top and bottom, player_1 left and right
        (palette.stones[0], (top_left, top_right)),
        (palette.stones[1], (top_right, bottom_right)),
        (palette.stones[0], (bottom_right, bottom_left)),
        (palette.stones[1], (bottom_left, top_left)),
    )
    for colour, (a, b) in sides:
        pygame.draw.polygon(big, colour, [middle, a, b])
    line = _line_width(geometry, s, 0.035)
    for row in range(geometry.game.rows):
        for col in range(geometry.game.cols):
            corners = _scaled(geometry.hexagon(row, col), s)
            pygame.draw.polygon(big, palette.board, corners)
            pygame.draw.polygon(big, palette.line, corners, line)


# --- sprites ----------------------------------------------------------------------------


def _sprite_canvas(radius: float) -> tuple[pygame.Surface, int, float]:
    """A transparent square for a round sprite: (big surface, final side, big centre)."""
    side = math.ceil(2 * radius) + 2
    big = pygame.Surface((side * SUPERSAMPLE, side * SUPERSAMPLE), pygame.SRCALPHA)
    return big, side, side * SUPERSAMPLE / 2


def _finish(big: pygame.Surface, side: int) -> pygame.Surface:
    return pygame.transform.smoothscale(big, (side, side))


def _stone_sprite(style: str, palette: Palette, player: int, radius: float) -> pygame.Surface:
    """One player's stone: a rack disc, an X or O mark, or a shaded stone."""
    big, side, c = _sprite_canvas(radius)
    r = radius * SUPERSAMPLE
    colour, edge = palette.stones[player], palette.edges[player]
    if style == GRID:
        width = max(SUPERSAMPLE, round(r * 0.28))
        if player == 0:
            d = r * 0.78
            for sign in (1, -1):
                _thick_line(big, colour, (c - d, c - sign * d), (c + d, c + sign * d), width)
        else:
            pygame.draw.circle(big, colour, (c, c), r, width)
    elif style == RACK:
        pygame.draw.circle(big, edge, (c, c), r)
        pygame.draw.circle(big, colour, (c, c), r * 0.94)
        pygame.draw.circle(big, edge, (c, c), r * 0.72, max(1, round(r * 0.07)))
    else:  # a shaded stone lit from the top left
        light = tuple(min(255, v + 80) for v in colour)
        steps = 32
        for i in range(steps):
            t = i / steps
            shade = _mix(edge, colour, min(1.0, t * 4))
            shade = _mix(shade, light, max(0.0, t - 0.55) * 2.2)
            offset = r * 0.35 * t
            pygame.draw.circle(big, shade, (c - offset, c - offset), r * (1 - t))
    return _finish(big, side)


def _disc_sprite(colour: tuple[int, int, int], radius: float) -> pygame.Surface:
    big, side, c = _sprite_canvas(radius)
    pygame.draw.circle(big, colour, (c, c), radius * SUPERSAMPLE)
    return _finish(big, side)


def _ring_sprite(colour: tuple[int, int, int], radius: float, width: float) -> pygame.Surface:
    big, side, c = _sprite_canvas(radius)
    pygame.draw.circle(big, colour, (c, c), radius * SUPERSAMPLE, round(width * SUPERSAMPLE))
    return _finish(big, side)


def _mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, int, int]:
    t = min(1.0, max(0.0, t))
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def _thick_line(surface: pygame.Surface, colour, start: Point, end: Point, width: float) -> None:
    """A line ``width`` pixels thick in every direction, with round ends."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length > 0:
        nx, ny = (y0 - y1) / length * width / 2, (x1 - x0) / length * width / 2
        corners = [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]
        pygame.draw.polygon(surface, colour, corners)
    for point in (start, end):
        pygame.draw.circle(surface, colour, point, width / 2)


__all__ = ["HEADLESS_DRIVERS", "PygameRenderer"]
