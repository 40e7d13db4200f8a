"""Pictures of a grid map: RGB arrays drawn with numpy, text, and a pygame window that shows
the arrays (pygame is imported only when a window opens)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from connectn_env.gridpath.maps import Cell, GridMap

CELL_PIXELS = 24
HEADLESS_DRIVERS = ("dummy", "offscreen")  # no real screen: the window does not wait
FREE = (246, 244, 238)
OBSTACLE = (62, 64, 74)
GRID_LINE = (222, 219, 210)
START = (126, 196, 120)
GOAL = (222, 84, 70)
TRAIL = (176, 204, 238)
PLAN = (245, 158, 40)
AGENT = (38, 88, 196)
_MARGIN = 3  # pixels between a cell's edge and its coloured square
_PLAN_WIDTH = 5  # pixels of the planned path's line
_AGENT_RADIUS = 0.36  # in cells
TEXT_CHARS = {"free": ".", "obstacle": "#", "start": "S", "goal": "G", "trail": "o", "plan": "*"}
AGENT_CHAR = "A"


def _fill_cell(image: np.ndarray, cell: Cell, colour: tuple[int, int, int], margin: int) -> None:
    top, left = cell[0] * CELL_PIXELS, cell[1] * CELL_PIXELS
    image[
        top + margin : top + CELL_PIXELS - margin, left + margin : left + CELL_PIXELS - margin
    ] = colour


def _centre(cell: Cell) -> tuple[int, int]:
    return cell[0] * CELL_PIXELS + CELL_PIXELS // 2, cell[1] * CELL_PIXELS + CELL_PIXELS // 2


def draw_rgb(
    grid: GridMap, position: Cell, trail: Sequence[Cell], plan: Sequence[Cell]
) -> np.ndarray:
    """A new uint8 ``(rows * 24, cols * 24, 3)`` picture: obstacles dark, the start green,
    the goal red, the cells visited (``trail``) light blue, the planned path (``plan``, a
    line of neighbouring cells from the agent) orange, the agent a blue disc."""
    height, width = grid.rows * CELL_PIXELS, grid.cols * CELL_PIXELS
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = FREE
    blocks = np.kron(grid.obstacles, np.ones((CELL_PIXELS, CELL_PIXELS), dtype=bool))
    image[blocks] = OBSTACLE
    image[::CELL_PIXELS, :] = GRID_LINE
    image[:, ::CELL_PIXELS] = GRID_LINE
    for cell in trail:
        _fill_cell(image, cell, TRAIL, _MARGIN)
    _fill_cell(image, grid.start, START, _MARGIN)
    _fill_cell(image, grid.goal, GOAL, _MARGIN)
    half = _PLAN_WIDTH // 2
    for a, b in itertools.pairwise(plan):
        (y0, x0), (y1, x1) = _centre(a), _centre(b)
        top, bottom = min(y0, y1) - half, max(y0, y1) + half + 1
        left, right = min(x0, x1) - half, max(x0, x1) + half + 1
        image[top:bottom, left:right] = PLAN
    y, x = np.ogrid[:height, :width]
    cy, cx = _centre(position)
    radius = _AGENT_RADIUS * CELL_PIXELS
    image[(y - cy) ** 2 + (x - cx) ** 2 <= radius**2] = AGENT
    return image


def draw_text(grid: GridMap, position: Cell, trail: Sequence[Cell], plan: Sequence[Cell]) -> str:
    """The map as text: ``#`` obstacle, ``.`` free, ``S`` start, ``G`` goal, ``o`` visited,
    ``*`` planned, ``A`` the agent; one line per row."""
    rows = [
        [TEXT_CHARS["obstacle"] if wall else TEXT_CHARS["free"] for wall in line]
        for line in grid.obstacles
    ]
    for cell in trail:
        rows[cell[0]][cell[1]] = TEXT_CHARS["trail"]
    rows[grid.start[0]][grid.start[1]] = TEXT_CHARS["start"]
    for cell in plan:
        rows[cell[0]][cell[1]] = TEXT_CHARS["plan"]
    rows[grid.goal[0]][grid.goal[1]] = TEXT_CHARS["goal"]
    rows[position[0]][position[1]] = AGENT_CHAR
    return "\n".join("".join(line) for line in rows) + "\n"


class ArrayWindow:
    """A pygame window that shows RGB arrays (opened on the first frame).

    Initialises only ``pygame.display``; never calls ``pygame.init()`` or ``pygame.quit()``.

    Args:
        caption: The window's title.
        fps: Frames per second at most (waited for only on a real display).
    """

    def __init__(self, caption: str, fps: float) -> None:
        self.caption = caption
        self.fps = fps
        self.window: Any = None
        self._clock: Any = None

    def show(self, frame: np.ndarray) -> None:
        """Draw ``frame`` (uint8 ``(height, width, 3)``) and keep the window responsive."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
        import pygame

        if not pygame.display.get_init():
            pygame.display.init()
        size = (frame.shape[1], frame.shape[0])
        if self.window is None or tuple(self.window.size) != size:
            self.close()
            self.window = pygame.Window(self.caption, size)
            self._clock = pygame.time.Clock()
        surface = pygame.image.frombuffer(np.ascontiguousarray(frame).tobytes(), size, "RGB")
        self.window.get_surface().blit(surface, (0, 0))
        self.window.flip()
        pygame.event.pump()
        if pygame.display.get_driver() not in HEADLESS_DRIVERS:
            self._clock.tick(self.fps)

    def close(self) -> None:
        """Close the window if it is open; safe to repeat."""
        if self.window is not None:
            self.window.destroy()
            self.window = None
            self._clock = None

    def __deepcopy__(self, memo: dict[int, Any]) -> ArrayWindow:
        return ArrayWindow(self.caption, self.fps)  # a copy opens its own window if asked

    def __getstate__(self) -> dict[str, Any]:
        return {"caption": self.caption, "fps": self.fps, "window": None, "_clock": None}
