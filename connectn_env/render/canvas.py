"""Pygame drawing in picture pixels, for board styles (which never import pygame themselves).

A :class:`Canvas` wraps a surface drawn ``scale`` times larger than the picture (static
pictures are supersampled, then smoothly scaled down): styles give points, radii and widths
in picture pixels and the canvas scales them.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
import pygame

Point = tuple[float, float]
Colour = Sequence[int]  # RGB, or RGBA on a surface with per-pixel alpha

SUPERSAMPLE = 3  # static pictures are drawn this much larger, then smoothly scaled down


class Canvas:
    """A pygame surface drawn in picture pixels.

    Args:
        surface: Where to draw.
        scale: Surface pixels per picture pixel (an int).

    Attributes:
        surface: The surface.
        scale: Surface pixels per picture pixel.
    """

    def __init__(self, surface: pygame.Surface, scale: int = 1) -> None:
        self.surface = surface
        self.scale = scale

    def point(self, point: Point) -> Point:
        """``point`` in surface pixels."""
        return (point[0] * self.scale, point[1] * self.scale)

    def width(self, width: float) -> int:
        """A line width in surface pixels: at least one picture pixel (0 stays 0: filled)."""
        return 0 if width == 0 else max(self.scale, round(width * self.scale))

    def fill(self, colour: Colour, rect: Sequence[float] | None = None) -> None:
        """Fill the surface, or the rectangle (x, y, width, height)."""
        self.surface.fill(colour, None if rect is None else self._rect(rect))

    def rect(
        self, colour: Colour, rect: Sequence[float], width: float = 0, radius: float = 0
    ) -> None:
        """A rectangle (x, y, width, height), filled or outlined ``width`` thick, corners
        rounded by ``radius``."""
        pygame.draw.rect(
            self.surface, colour, self._rect(rect), self.width(width), round(radius * self.scale)
        )

    def circle(self, colour: Colour, centre: Point, radius: float, width: float = 0) -> None:
        """A disc, or a ring ``width`` thick."""
        pygame.draw.circle(
            self.surface, colour, self.point(centre), radius * self.scale, self.width(width)
        )

    def polygon(self, colour: Colour, points: Sequence[Point], width: float = 0) -> None:
        """A filled polygon, or its outline ``width`` thick."""
        pygame.draw.polygon(
            self.surface, colour, [self.point(p) for p in points], self.width(width)
        )

    def line(self, colour: Colour, start: Point, end: Point, width: float) -> None:
        """A line with square ends (pygame's)."""
        pygame.draw.line(
            self.surface, colour, self.point(start), self.point(end), self.width(width)
        )

    def thick_line(self, colour: Colour, start: Point, end: Point, width: float) -> None:
        """A line ``width`` thick in every direction, with round ends."""
        (x0, y0), (x1, y1) = self.point(start), self.point(end)
        thickness = self.width(width)
        length = math.hypot(x1 - x0, y1 - y0)
        if length > 0:
            nx, ny = (y0 - y1) / length * thickness / 2, (x1 - x0) / length * thickness / 2
            corners = [
                (x0 + nx, y0 + ny),
                (x1 + nx, y1 + ny),
                (x1 - nx, y1 - ny),
                (x0 - nx, y0 - ny),
            ]
            pygame.draw.polygon(self.surface, colour, corners)
        for point in ((x0, y0), (x1, y1)):
            pygame.draw.circle(self.surface, colour, point, thickness / 2)

    def blit_centered(self, sprite: pygame.Surface, centre: Point) -> None:
        """Blit ``sprite`` (surface pixels) centred on ``centre``."""
        x, y = self.point(centre)
        self.surface.blit(
            sprite, (round(x - sprite.get_width() / 2), round(y - sprite.get_height() / 2))
        )

    def _rect(self, rect: Sequence[float]) -> pygame.Rect:
        x, y, width, height = (v * self.scale for v in rect)
        return pygame.Rect(round(x), round(y), round(width), round(height))


def sprite(radius: float, draw: Callable[[Canvas, Point], None]) -> pygame.Surface:
    """A transparent square sprite for something round of ``radius`` pixels:
    ``draw(canvas, centre)`` draws it supersampled, then it is smoothly scaled down."""
    side = math.ceil(2 * radius) + 2
    big = pygame.Surface((side * SUPERSAMPLE, side * SUPERSAMPLE), pygame.SRCALPHA)
    draw(Canvas(big, SUPERSAMPLE), (side / 2, side / 2))
    return pygame.transform.smoothscale(big, (side, side))


def disc_sprite(colour: Colour, radius: float) -> pygame.Surface:
    """A disc of ``radius`` pixels."""
    return sprite(radius, lambda canvas, centre: canvas.circle(colour, centre, radius))


def ring_sprite(colour: Colour, radius: float, width: float) -> pygame.Surface:
    """A ring of outer ``radius`` and ``width`` pixels."""
    return sprite(radius, lambda canvas, centre: canvas.circle(colour, centre, radius, width))
