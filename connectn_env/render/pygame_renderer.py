"""Pygame pictures of a board: ``rgb_array`` images and a ``human`` window.

Imported only when a picture is drawn (``connectn_env.render.PygameRenderer`` is a lazy
attribute). The board, stones and marks are the game's board style's
(:mod:`connectn_env.render.styles`); this module lays them out, caches them, and adds the
coordinates, the status bar, the move preview and the window. Initialises only
``pygame.freetype`` (and ``pygame.display`` for a window); never calls ``pygame.init()`` or
``pygame.quit()``, so it coexists with other pygame users.
"""

from __future__ import annotations

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
from connectn_env.render.canvas import SUPERSAMPLE, Canvas, disc_sprite, ring_sprite, sprite
from connectn_env.render.geometry import BoardGeometry
from connectn_env.render.style import BoardStyle
from connectn_env.render.theme import BACKGROUND, STATUS_BAR, TEXT, Palette

HEADLESS_DRIVERS = ("dummy", "offscreen")  # no real screen: show() does not wait
GHOST_ALPHA = 110  # opacity of the preview stone drawn by ``highlight``
DOT_ALPHA = 150  # opacity of the legal-move dots of styles that show them


class PygameRenderer:
    """Draws positions of one game with pygame; no window is needed for pictures.

    Static parts (board, grid, coordinates, stone sprites) are drawn once per renderer
    and cached. The same object serves ``rgb_array`` (:meth:`rgb_array`), ``human``
    (:meth:`show`) and interactive play (:meth:`draw` onto any surface,
    :meth:`action_at` to map a click to an action).

    Args:
        game: The game whose positions are drawn.
        cell: Cell pitch in pixels (6 to 200), for example to fit a window; by default
            derived from the board size (see :class:`~connectn_env.render.BoardGeometry`).

    Attributes:
        game: The game.
        geometry: Where cells, labels and the status bar are
            (:class:`~connectn_env.render.geometry.BoardGeometry`).
        style: The game's board style (:class:`~connectn_env.render.style.BoardStyle`).
        palette: Colours and player names of the board style.
        window: The ``pygame.Window`` that :meth:`show` opened, or None.
    """

    def __init__(self, game: BoardGame, *, cell: int | None = None) -> None:
        self.geometry = BoardGeometry(game, cell=cell)
        self.game = game
        self.style: BoardStyle = self.geometry.style
        self.palette: Palette = self.style.palette
        self.window: pygame.Window | None = None
        self._clock: pygame.time.Clock | None = None
        self._canvas: pygame.Surface | None = None
        self._sprites: Sprites | None = None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the picture in pixels."""
        return self.geometry.size

    def action_at(self, pos: Sequence[float]) -> int | None:
        """The action a click at pixel ``pos`` names, or None (see ``BoardGeometry.action_at``)."""
        return self.geometry.action_at(pos)

    def draw(
        self,
        surface: pygame.Surface,
        state: GameState,
        *,
        highlight: int | None = None,
        status: str | None = None,
    ) -> None:
        """Draw ``state`` into the top-left ``size`` pixels of ``surface``.

        Shows the stones, the last move, the winning line or chain once the game is won,
        and a status bar. ``highlight`` is an action to preview (for example the one under
        the mouse): if it is legal, a translucent stone of the player to move is drawn
        where it would land; illegal actions are ignored. ``status`` replaces the status
        bar's text (by default :func:`~connectn_env.render.ansi.status_text` with the
        palette's names), for example to say "You" and "AI".

        Raises:
            TypeError: ``surface`` is not a ``pygame.Surface``, ``state`` not a GameState,
                ``highlight`` not an int or None, ``status`` not a str or None.
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
        if status is None:
            status = status_text(state, self.palette.names)
        elif not isinstance(status, str):
            raise TypeError(f"status must be a str or None, got {type(status).__name__}")
        sprites = self.sprites()
        surface.blit(sprites.background, (0, 0))
        canvas = Canvas(surface)
        self.style.draw_position(canvas, self.geometry, sprites, state)
        if highlight is not None and state.legal_action_mask()[highlight]:
            cell = self.style.landing_cell(state, highlight)
            if cell is not None:  # not a special action (swap, pass)
                ghost = sprites.ghosts[state.current_player()]
                canvas.blit_centered(ghost, self.geometry.center(*cell))
        self._draw_status(surface, sprites, state, status)

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

    def sprites(self) -> Sprites:
        """The cached static pictures (built on first use)."""
        if self._sprites is None:
            self._sprites = Sprites(self.geometry)
        return self._sprites

    def column_label_baseline(self) -> int | None:
        """The y of the column labels' baseline in the picture (text beside the board set
        on it stands level with them), or None without column labels."""
        labels = self.geometry.column_labels
        return baseline(self.sprites().font, labels[0][1][1]) if labels else None

    # --- helpers -----------------------------------------------------------------------

    def _check_state(self, state: Any) -> None:
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a GameState, got {type(state).__name__}")
        if state.game != self.game:
            raise ValueError(
                f"state is a position of {state.game!r}, this renderer draws {self.game!r}"
            )

    def _draw_status(
        self, surface: pygame.Surface, sprites: Sprites, state: GameState, status: str
    ) -> None:
        x, y, width, height = self.geometry.status_rect
        text, _ = sprites.font.render(status, TEXT)
        player = state.current_player() if state.winner is None else state.winner
        icon = sprites.icons[player] if player in (0, 1) else None
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


class Sprites:
    """Everything drawn once per renderer, from its board style: the background (board,
    coordinates, status bar) and the sprites that styles place on cells.

    Attributes:
        font: The coordinates' and status bar's font.
        background: The picture without stones.
        stones: Each player's stone.
        ghosts: Each player's translucent stone (the move preview).
        markers: The last-move dot for each player's stone.
        win_ring: The ring around a winning stone.
        dots: Each player's legal-move dot (styles with ``legal_moves_shown``).
        icons: Each player's stone in the status bar.
    """

    def __init__(self, geometry: BoardGeometry) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        style, palette, cell = geometry.style, geometry.style.palette, geometry.cell
        self.font = pygame.freetype.Font(None, geometry.font_px)
        self.background = _background(geometry, self.font)
        self.stones = [_stone(style, p, geometry.stone_radius) for p in (0, 1)]
        self.ghosts = [_translucent(stone, GHOST_ALPHA) for stone in self.stones]
        marker_radius = max(2.5, 0.14 * cell)
        self.markers = [disc_sprite(palette.last_move[p], marker_radius) for p in (0, 1)]
        ring_width = max(2.0, 0.07 * cell)
        self.win_ring = ring_sprite(palette.win, geometry.stone_radius + ring_width / 2, ring_width)
        dot_radius = max(2.5, 0.12 * cell)
        self.dots = [_translucent(_stone(style, p, dot_radius), DOT_ALPHA) for p in (0, 1)]
        icon_radius = geometry.status_rect[3] * 0.3
        self.icons = [_stone(style, p, icon_radius) for p in (0, 1)]


def _background(geometry: BoardGeometry, font: pygame.freetype.Font) -> pygame.Surface:
    """Background, status bar and board drawn supersampled, then the coordinates."""
    width, height = geometry.size
    canvas = Canvas(pygame.Surface((width * SUPERSAMPLE, height * SUPERSAMPLE)), SUPERSAMPLE)
    canvas.fill(BACKGROUND)
    canvas.fill(STATUS_BAR, geometry.status_rect)
    geometry.style.draw_board(canvas, geometry)
    background = pygame.transform.smoothscale(canvas.surface, (width, height))
    for text, (cx, cy) in geometry.column_labels + geometry.row_labels:
        label, bounds = font.render(text, TEXT)  # on a baseline: "g" and "a" stand level
        top = baseline(font, cy) - bounds.y
        background.blit(label, (round(cx - label.get_width() / 2), top))
    return background


def baseline(font: pygame.freetype.Font, centre_y: float) -> int:
    """The baseline that centres ``font``'s line (ascender to descender) on ``centre_y``."""
    return round(centre_y) + (font.get_sized_ascender() + font.get_sized_descender()) // 2


def _stone(style: BoardStyle, player: int, radius: float) -> pygame.Surface:
    return sprite(radius, lambda canvas, centre: style.draw_stone(canvas, player, centre, radius))


def _translucent(picture: pygame.Surface, alpha: int) -> pygame.Surface:
    copy = picture.copy()
    copy.set_alpha(alpha)
    return copy
