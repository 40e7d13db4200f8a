"""Render dispatch shared by every env: one render mode, one lazily built pygame renderer."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from connectn_env.games import BoardGame, GameState
from connectn_env.render.ansi import render_ansi


class StateRenderer:
    """Draws positions of one game in one render mode; owns the pygame renderer if any.

    Copies and pickles drop the pygame renderer (pygame surfaces cannot be copied); it is
    rebuilt on the next draw.

    Args:
        game: The game whose positions are drawn.
        render_mode: ``"human"``, ``"rgb_array"``, ``"ansi"`` or None (drawing warns and
            returns None, as Gymnasium's envs do).
        caption: Window caption in human mode.
        fps: Frames per second in human mode (only waited for on a real display).
    """

    def __init__(
        self, game: BoardGame, render_mode: str | None, *, caption: str, fps: float
    ) -> None:
        self.game = game
        self.render_mode = render_mode
        self.caption = caption
        self.fps = fps
        self._pygame_renderer: Any = None

    def render(self, state: GameState) -> np.ndarray | str | None:
        """A window frame (human, returns None), an RGB array or text, per the render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode (render_mode=None): nothing to draw"
            )
            return None
        if self.render_mode == "ansi":
            return render_ansi(state)
        renderer = self._renderer()
        if self.render_mode == "rgb_array":
            return renderer.rgb_array(state)
        renderer.show(state, caption=self.caption, fps=self.fps)
        return None

    def close(self) -> None:
        """Close the window if one is open; safe to call more than once."""
        if self._pygame_renderer is not None:
            self._pygame_renderer.close()
            self._pygame_renderer = None

    def _renderer(self) -> Any:
        if self._pygame_renderer is None:
            from connectn_env.render.pygame_renderer import PygameRenderer  # imports pygame

            self._pygame_renderer = PygameRenderer(self.game)
        return self._pygame_renderer

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_pygame_renderer"] = None
        return state
