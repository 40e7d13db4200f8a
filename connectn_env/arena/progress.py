"""A dependency-free progress display on stderr: a bar on a terminal, lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from connectn_env.safetext import printable

_BAR_WIDTH = 24
_REFRESH_SECONDS = 0.2


class Progress:
    """Games done, rate and time left.

    On a terminal one line is redrawn in place (at most 5 times a second); otherwise a
    line is printed at every tenth of the work and at the end.

    Args:
        total: Games to play.
        stream: Where to write (default ``sys.stderr``).
        enabled: False to print nothing.
        unit: What is counted (``"games"``).
    """

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        *,
        enabled: bool = True,
        unit: str = "games",
    ) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and total > 0
        self.done = 0
        self.start = time.monotonic()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_draw = 0.0
        self._last_tenth = 0

    def advance(self, count: int = 1) -> None:
        """Count finished games and redraw if it is time."""
        self.done += count
        if not self.enabled:
            return
        now = time.monotonic()
        if self._tty:
            if now - self._last_draw >= _REFRESH_SECONDS or self.done == self.total:
                self._last_draw = now
                self.stream.write("\r" + self.line(now) + ("\n" if self.done == self.total else ""))
                self.stream.flush()
        else:
            tenth = self.done * 10 // self.total
            if tenth > self._last_tenth or self.done == self.total:
                self._last_tenth = tenth
                self.stream.write(self.line(now) + "\n")
                self.stream.flush()

    def note(self, message: str) -> None:
        """Show ``message`` on a line of its own (what the program is doing before the games
        come, such as compiling: ``connectn_env.games.compile_notice``); the bar is drawn
        again at the next game."""
        if not self.enabled:
            return
        clear = "\r\x1b[K" if self._tty else ""
        self.stream.write(f"{clear}{printable(message)}\n")
        self.stream.flush()

    def line(self, now: float | None = None) -> str:
        """``[#####-----] 12/40 games  3.1 games/s  ETA 0:09``."""
        elapsed = max((time.monotonic() if now is None else now) - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        filled = _BAR_WIDTH * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
        unit = self.unit
        return f"[{bar}] {self.done}/{self.total} {unit}  {rate:.2f} {unit}/s  ETA {_clock(left)}"


def _clock(seconds: float) -> str:
    if seconds == float("inf"):
        return "?"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
