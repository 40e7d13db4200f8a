"""Colours shared by every board style, the :class:`Palette` a style fills in, and colour
mixing (plain data, no pygame)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RGB = tuple[int, int, int]

BACKGROUND: RGB = (238, 234, 226)
STATUS_BAR: RGB = (222, 216, 204)
TEXT: RGB = (45, 42, 38)


@dataclass(frozen=True)
class Palette:
    """Colours of one board style.

    Attributes:
        names: What the two players are called in the status bar (player_0, player_1).
        stones: Stone (disc, mark) colour of each player.
        edges: Outline or shade colour of each player's stones.
        board: The rack, paper, wood or empty hexagon colour.
        line: Grid lines, hexagon outlines, the rack's rim.
        last_move: Colour of the last-move marker on each player's stone.
        win: Colour of the winning line or chain.
    """

    names: tuple[str, str]
    stones: tuple[RGB, RGB]
    edges: tuple[RGB, RGB]
    board: RGB
    line: RGB
    last_move: tuple[RGB, RGB]
    win: RGB


def mix(a: Sequence[int], b: Sequence[int], t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (``t`` clipped to 0..1)."""
    t = min(1.0, max(0.0, t))
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
