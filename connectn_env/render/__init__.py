"""Drawing: text (:func:`render_ansi`) and pygame pictures (:class:`PygameRenderer`).

``PygameRenderer`` is a lazy attribute: pygame is imported the first time it is used,
never by ``import connectn_env`` or ``import connectn_env.render``.
"""

from __future__ import annotations

from typing import Any

from connectn_env.render.ansi import render_ansi
from connectn_env.render.geometry import BoardGeometry, board_style, star_points

__all__ = ["BoardGeometry", "PygameRenderer", "board_style", "render_ansi", "star_points"]


def __getattr__(name: str) -> Any:
    if name == "PygameRenderer":
        from connectn_env.render.pygame_renderer import PygameRenderer

        return PygameRenderer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
