"""Drawing: pygame (imported lazily, only when a window or an image is drawn) and text."""

from connectn_env.render.ansi import render_ansi

__all__ = ["render_ansi"]
