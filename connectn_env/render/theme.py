"""Colours and player names of each board style (plain data, no pygame)."""

from __future__ import annotations

from dataclasses import dataclass

from connectn_env.render.geometry import GO, GRID, HEX, RACK

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


PALETTES: dict[str, Palette] = {
    RACK: Palette(
        names=("Red", "Yellow"),
        stones=((214, 38, 38), (246, 200, 30)),
        edges=((150, 18, 18), (190, 140, 0)),
        board=(30, 84, 196),
        line=(18, 52, 140),
        last_move=((255, 255, 255), (120, 80, 0)),
        win=(40, 220, 90),
    ),
    GRID: Palette(
        names=("X", "O"),
        stones=((200, 36, 36), (30, 84, 200)),
        edges=((200, 36, 36), (30, 84, 200)),
        board=(252, 251, 247),
        line=(80, 78, 74),
        last_move=((255, 236, 150), (255, 236, 150)),
        win=(40, 190, 80),
    ),
    GO: Palette(
        names=("Black", "White"),
        stones=((28, 28, 30), (246, 246, 242)),
        edges=((0, 0, 0), (130, 130, 126)),
        board=(224, 182, 104),
        line=(50, 36, 20),
        last_move=((235, 50, 40), (235, 50, 40)),
        win=(30, 150, 255),
    ),
    HEX: Palette(
        names=("Red", "Blue"),
        stones=((210, 44, 44), (36, 92, 206)),
        edges=((140, 20, 20), (18, 50, 140)),
        board=(246, 238, 218),
        line=(96, 86, 74),
        last_move=((255, 255, 255), (255, 255, 255)),
        win=(255, 204, 0),
    ),
}


__all__ = ["BACKGROUND", "PALETTES", "STATUS_BAR", "TEXT", "Palette"]
