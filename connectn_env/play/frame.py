"""A pygame window with a board picture on top and lines of text below it.

Shared by the play window and the replay viewer. The window fits the screen (its first size
leaves room for a title bar and a task bar on the desktop, down to 1024 x 600) and may be
resized: the board is then drawn again with the cell pitch that fits. Initialises only
``pygame.display`` (and quits it on close only if it initialised it) and ``pygame.freetype``;
never calls ``pygame.init()`` or the global ``pygame.quit()``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
import pygame
import pygame.freetype

from connectn_env.games.validation import require_number
from connectn_env.render.geometry import LARGEST_CELL, MIN_WIDTH, SMALLEST_CELL, BoardGeometry
from connectn_env.render.pygame_renderer import PygameRenderer, baseline
from connectn_env.render.theme import BACKGROUND, STATUS_BAR, TEXT
from connectn_env.safetext import printable

PAD = 10
STATUS_FONT, SMALL_FONT = 17, 14
STATUS_LINE, SMALL_LINE = 34, 22  # heights of the big first line and the small lines
FRAME_WIDTH = 480  # the window is at least this wide when the screen allows
SCREEN_RESERVE = (16, 72)  # screen room left for window borders, a title bar and a task bar
MIN_BOARD_HEIGHT = 160  # smallest board picture a resized window keeps room for
RGB = tuple[int, int, int]


class BoardFrame:
    """The window: the renderer's board picture, centred, above a panel of text lines, and
    optionally a column beside the board (the move list).

    The panel has one big status line, ``small_lines`` small lines and a key-help line on
    a shaded strip at the bottom. The texts drawn since the last :meth:`clear` are kept in
    :attr:`shown` (what the person sees, for tests and screen readers).

    Args:
        renderer: Draws the board.
        title: Window title.
        key_help: The key-help text (the window is made wide enough for it).
        small_lines: Number of small text lines between the status line and the key help.
        side_width: Width of the column right of the board (:meth:`side_rect`); 0: none.

    Attributes:
        renderer: The board renderer (replaced by one with another cell pitch when the
            window's size changes).
        window: The ``pygame.Window`` once opened, else None.
        board_rect: Where the board picture is in the window.
        shown: The texts drawn since the last :meth:`clear`, in order.
    """

    def __init__(
        self,
        renderer: PygameRenderer,
        *,
        title: str,
        key_help: str,
        small_lines: int = 1,
        side_width: int = 0,
    ) -> None:
        if not isinstance(title, str):
            raise TypeError(f"title must be a str, got {type(title).__name__}")
        self.renderer = renderer
        self.title = printable(title)
        self.key_help = key_help
        self.small_lines = small_lines
        self.side_width = side_width
        self.shown: list[str] = []
        self.window: Any = None
        self.board_rect = pygame.Rect((0, 0), renderer.size)
        self.fonts: tuple[Any, Any] | None = None
        self._opened_display = False
        self._hidden = False  # opened, its first frame not drawn yet
        self._laid_out: tuple[int, int] | None = None  # the window size of the layout

    def open(self) -> None:
        """Open the window (initialising pygame's display if needed); safe to repeat.

        The window is as large as the board's picture at its usual size needs, or smaller
        to fit the desktop (:meth:`screen_room`); it can be resized. It stays hidden until
        its first frame is drawn (:meth:`flip`), so it never shows an unpainted picture.
        """
        if self.window is not None:
            return
        if not pygame.display.get_init():
            pygame.display.init()
            self._opened_display = True
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self.fonts = (
            pygame.freetype.Font(None, STATUS_FONT),
            pygame.freetype.Font(None, SMALL_FONT),
        )
        room_w, room_h = self.screen_room()
        help_w = self.fonts[1].get_rect(self.key_help).width + 2 * PAD
        board_w, board_h = self.renderer.size
        if board_w + self.side_width > room_w or board_h + self.panel_height > room_h:
            cell = self.fitting_cell(room_w - self.side_width, room_h - self.panel_height)
            self._use_cell(cell)
            board_w, board_h = self.renderer.size
        width = max(board_w + self.side_width, min(max(help_w, FRAME_WIDTH), room_w))
        self.window = pygame.Window(
            self.title, (width, board_h + self.panel_height), resizable=True, hidden=True
        )
        self._hidden = True
        self.window.minimum_size = (
            MIN_WIDTH + self.side_width,
            MIN_BOARD_HEIGHT + self.panel_height,
        )
        self.fit()

    def flip(self) -> None:
        """Show what was drawn since the last flip; the first shows the window."""
        self.window.flip()
        if self._hidden:
            self.window.show()
            self._hidden = False

    @property
    def showing(self) -> bool:
        """True once the window is open and its first frame shown (:meth:`flip`)."""
        return self.window is not None and not self._hidden

    @property
    def panel_height(self) -> int:
        """Height of the text lines under the board."""
        return PAD + STATUS_LINE + SMALL_LINE * (self.small_lines + 1)

    @staticmethod
    def screen_room() -> tuple[int, int]:
        """(width, height) a window may take on the (first) desktop: its size less room for
        borders, a title bar and a task bar."""
        sizes = pygame.display.get_desktop_sizes()
        width, height = sizes[0] if sizes else (1024, 768)
        return (width - SCREEN_RESERVE[0], height - SCREEN_RESERVE[1])

    def fitting_cell(self, width: int, height: int) -> int:
        """The largest cell pitch whose board picture fits in ``width`` x ``height`` pixels
        (the smallest pitch if none fits)."""
        game = self.renderer.game
        low, high = SMALLEST_CELL, LARGEST_CELL
        while low < high:
            middle = (low + high + 1) // 2
            picture_w, picture_h = BoardGeometry(game, cell=middle).size
            if picture_w <= width and picture_h <= height:
                low = middle
            else:
                high = middle - 1
        return low

    def fit(self) -> None:
        """Lay the window out again if its size changed (the person resized it): the board
        is redrawn with the cell pitch that fits, centred above the text lines."""
        if self.window is None:
            return
        size = tuple(self.surface.get_size())
        if size == self._laid_out:
            return
        width, height = size
        board_w, board_h = self.renderer.size
        room = width - self.side_width
        if self._laid_out is not None:  # a resize: the largest board that fits
            self._use_cell(self.fitting_cell(room, height - self.panel_height))
            board_w, board_h = self.renderer.size
        self.board_rect = pygame.Rect((max(0, (room - board_w) // 2), 0), (board_w, board_h))
        self._laid_out = size

    def _use_cell(self, cell: int) -> None:
        if cell != self.renderer.geometry.cell:
            self.renderer.close()
            self.renderer = PygameRenderer(self.renderer.game, cell=cell)

    def try_open(self) -> str | None:
        """Open the window; returns None, or pygame's reason why it cannot (no display)."""
        try:
            self.open()
        except pygame.error as error:
            self.close()
            return str(error) or "pygame cannot open a display"
        return None

    def close(self) -> None:
        """Close the window (and the display if this frame initialised it); safe to repeat."""
        self.renderer.close()
        if self.window is not None:
            self.window.destroy()
            self.window = None
            self._laid_out = None
        if self._opened_display:
            pygame.display.quit()
            self._opened_display = False

    @property
    def surface(self) -> pygame.Surface:
        """The window's surface."""
        return self.window.get_surface()

    def board(self) -> pygame.Surface:
        """A subsurface for drawing the board (renderer coordinates)."""
        return self.surface.subsurface(self.board_rect)

    def side_rect(self) -> pygame.Rect:
        """The column right of the board (as tall as the board, ``side_width`` wide)."""
        right = self.surface.get_width()
        left = max(self.board_rect.right, right - self.side_width)
        return pygame.Rect(left, PAD, right - left - PAD, self.board_rect.h - PAD)

    def status_rect(self) -> pygame.Rect:
        """The big status line."""
        top = self.board_rect.bottom + PAD
        return pygame.Rect(PAD, top, self.surface.get_width() - 2 * PAD, STATUS_LINE)

    def small_rect(self, index: int) -> pygame.Rect:
        """Small text line ``index`` (0-based) under the status line."""
        rect = self.status_rect()
        return pygame.Rect(rect.x, rect.bottom + index * SMALL_LINE, rect.w, SMALL_LINE)

    def clear(self) -> None:
        """Lay out for the window's size (:meth:`fit`), fill the window with the background
        and draw the key-help strip."""
        self.fit()
        self.shown = []
        surface = self.surface
        surface.fill(BACKGROUND)
        top = self.small_rect(self.small_lines).y
        strip = pygame.Rect(0, top, surface.get_width(), SMALL_LINE)
        surface.fill(STATUS_BAR, strip)
        self.text(self.key_help, strip, small=True, centre=True)

    def text(
        self,
        text: str,
        rect: pygame.Rect,
        *,
        small: bool = False,
        colour: RGB = TEXT,
        centre: bool = False,
        baseline: int | None = None,
    ) -> int:
        """Draw one line of text in ``rect`` (shrunk to fit; control characters escaped),
        on the window row ``baseline`` (default: the one that centres the line in
        ``rect``); returns its right edge."""
        if not text:
            return rect.x
        self.shown.append(printable(text))
        return self._draw_text(text, rect, small, colour, centre, baseline)

    def paragraph(self, text: str, first: int, count: int) -> None:
        """Draw ``text`` on small lines ``first`` to ``first + count - 1``, wrapped at spaces
        to the window's width (the last line shrunk to fit what is left)."""
        if not text:
            return
        self.shown.append(printable(text))
        width = self.small_rect(first).w
        lines = [""]
        for word in text.split(" "):
            trial = f"{lines[-1]} {word}" if lines[-1] else word
            too_wide = self.fonts[1].get_rect(printable(trial)).width > width
            if too_wide and lines[-1] and len(lines) < count:
                lines.append(word)
            else:
                lines[-1] = trial
        for index, line in enumerate(lines):
            self._draw_text(line, self.small_rect(first + index), True, TEXT, False)

    def _draw_text(
        self,
        text: str,
        rect: pygame.Rect,
        small: bool,
        colour: RGB,
        centre: bool,
        line: int | None = None,
    ) -> int:
        font = self.fonts[1 if small else 0]
        picture, bounds = font.render(printable(text), colour)
        scale = 1.0
        if picture.get_width() > rect.w:
            scale = rect.w / picture.get_width()
            picture = pygame.transform.smoothscale(
                picture, (rect.w, max(1, round(picture.get_height() * scale)))
            )
        # On the baseline, so that "g5" and "b3" (or "Red" and a shrunk "Yellow") stand level
        line = baseline(font, rect.centery) if line is None else line
        place = picture.get_rect(left=rect.x, top=line - round(bounds.y * scale))
        if centre:
            place.centerx = rect.centerx
        self.surface.blit(picture, place)
        return place.right

    def action_at(self, pos: Sequence[int]) -> int | None:
        """The action a click at window pixel ``pos`` names, or None off the board."""
        self.fit()
        if not self.board_rect.collidepoint(pos):
            return None
        return self.renderer.action_at((pos[0] - self.board_rect.x, pos[1] - self.board_rect.y))

    def column_label_baseline(self) -> int | None:
        """The window row of the board's column labels' baseline, or None without them."""
        line = self.renderer.column_label_baseline()
        return None if line is None else self.board_rect.y + line

    def cell_pixel(self, row: int, col: int) -> tuple[int, int]:
        """Window pixel at the centre of cell (row, col)."""
        x, y = self.renderer.geometry.center(row, col)
        return (round(x) + self.board_rect.x, round(y) + self.board_rect.y)

    def screenshot(self) -> np.ndarray:
        """The window's picture as a new uint8 (height, width, 3) array."""
        surface = self.surface
        pixels = np.frombuffer(pygame.image.tobytes(surface, "RGB"), dtype=np.uint8)
        return pixels.reshape(surface.get_height(), surface.get_width(), 3).copy()


def run_frames(step: Callable[[], bool], close: Callable[[], None], fps: float) -> None:
    """Call ``step()`` about ``fps`` times a second until it returns False, then ``close()``
    (also when a step raises).

    Raises:
        TypeError, ValueError: ``fps`` is not a positive number.
    """
    fps = require_number("fps", fps, 0.0, strict_low=True)
    clock = pygame.time.Clock()
    try:
        while step():
            clock.tick(fps)
    finally:
        close()


def explain_no_window(problem: str) -> int:
    """Say on stderr that no window can be opened and what to do; returns exit status 1."""
    print(f"connectn: cannot open a window ({problem}); use --ui terminal", file=sys.stderr)
    return 1
