"""Choosing between the window and the terminal (``--ui window|terminal|auto``)."""

from __future__ import annotations

import os
import sys

from connectn_env.errors import ConnectnError
from connectn_env.games.validation import require_choice

UIS = ("window", "terminal", "auto")
HEADLESS_DRIVERS = ("dummy", "offscreen")


class NoDisplayError(ValueError, ConnectnError):
    """``--ui window`` where no window can be shown (and ``SDL_VIDEODRIVER`` is not set)."""


def display_problem() -> str | None:
    """Why no window can be shown here, or None if pygame can open a display.

    No display when SDL's video driver is ``dummy`` or ``offscreen``; on X11/Wayland
    systems when neither ``DISPLAY`` nor ``WAYLAND_DISPLAY`` is set (unless
    ``SDL_VIDEODRIVER`` names another driver); whenever pygame's display fails to
    initialise; and when SDL, finding no display, falls back to one of those drivers (it
    would draw a window no one sees). The probe leaves pygame's display as it found it.
    """
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in HEADLESS_DRIVERS:
        return f"SDL_VIDEODRIVER={driver} shows no window"
    desktop = sys.platform in ("win32", "darwin")
    if (
        not driver
        and not desktop
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        return "neither DISPLAY nor WAYLAND_DISPLAY is set"
    try:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
        import pygame

        if pygame.display.get_init():
            return None
        try:
            pygame.display.init()
            picked = pygame.display.get_driver()
        finally:
            pygame.display.quit()
    except Exception as error:  # ImportError, pygame.error: no usable display
        return f"pygame cannot open a display ({error})"
    if picked in HEADLESS_DRIVERS:
        return f"SDL found no display and fell back to its {picked} driver"
    return None


def choose_ui(requested: str) -> tuple[str, str | None]:
    """``(ui, note)``: the UI to use for ``requested`` and, when ``auto`` falls back to the
    terminal, a message saying why.

    ``window`` without a display is refused (a window SDL draws off screen would wait for
    clicks forever), unless ``SDL_VIDEODRIVER`` is set: a driver chosen by hand is used as
    it is (``dummy`` draws frames off screen, as tests and screenshots do).

    Raises:
        NoDisplayError: ``window`` without a display; the message says why and what to use.
        ValueError: ``requested`` is not ``"window"``, ``"terminal"`` or ``"auto"``.
    """
    require_choice("ui", requested, UIS)
    if requested == "terminal" or (requested == "window" and os.environ.get("SDL_VIDEODRIVER")):
        return requested, None
    problem = display_problem()
    if requested == "window":
        if problem is None:
            return "window", None
        raise NoDisplayError(
            f"--ui window: no display ({problem}); use --ui terminal, or --ui auto to play in "
            "the terminal when there is no display"
        )
    if problem is None:
        return "window", None
    return "terminal", f"No display available ({problem}): playing in the terminal."
