"""Drawing: text (:func:`render_ansi`) and pygame pictures (:class:`PygameRenderer`), both
laid out by the game's board style (a module of :mod:`connectn_env.render.styles` named by
the game's ``render_style``).

``PygameRenderer`` is a lazy attribute: pygame is imported the first time it is used,
never by ``import connectn_env`` or ``import connectn_env.render``.
"""

from __future__ import annotations

from typing import Any

from connectn_env.render.ansi import render_ansi
from connectn_env.render.geometry import BoardGeometry
from connectn_env.render.style import BoardStyle, available_styles, board_style, load_style
from connectn_env.render.styles.go import star_points
from connectn_env.render.theme import Palette

__all__ = [
    "BoardGeometry",
    "BoardStyle",
    "Palette",
    "PygameRenderer",
    "available_styles",
    "board_style",
    "load_style",
    "render_ansi",
    "star_points",
]


def __getattr__(name: str) -> Any:
    if name == "PygameRenderer":
        from connectn_env.render.pygame_renderer import PygameRenderer

        return PygameRenderer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
