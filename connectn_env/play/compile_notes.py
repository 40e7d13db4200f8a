"""What the compiler is doing, for the window and the terminal: the records of the
``connectn_env.compile`` logger (``"compiling Gomoku search kernels (first use, cached
afterwards)"``, then a done message) caught while a game is shown."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from connectn_env.safetext import printable

COMPILE_LOGGER = "connectn_env.compile"


class CompileNotes(logging.Handler):
    """A logging handler on the ``connectn_env.compile`` logger, attached between
    :meth:`attach` and :meth:`detach` (or in a ``with`` block).

    Keeps the latest record (:meth:`latest`) and passes each one's message to ``on_note``.
    While attached, the logger lets INFO records through (its level is set to INFO if INFO
    records would not pass, and put back on :meth:`detach`). Records come from any thread (the
    agent compiles in its own).

    Args:
        on_note: Called with each record's message (control characters escaped), or None.
    """

    def __init__(self, on_note: Callable[[str], None] | None = None) -> None:
        super().__init__(logging.INFO)
        if on_note is not None and not callable(on_note):
            raise TypeError(f"on_note must be callable or None, got {on_note!r}")
        self.on_note = on_note
        self._latest: tuple[str, float] | None = None
        self._guard = threading.Lock()
        self._level_before: int | None = None

    @property
    def logger(self) -> logging.Logger:
        """The compile logger."""
        return logging.getLogger(COMPILE_LOGGER)

    def attach(self) -> CompileNotes:
        """Start catching the compile logger's records; safe to repeat. Returns self."""
        logger = self.logger
        if self in logger.handlers:
            return self
        logger.addHandler(self)
        if logger.getEffectiveLevel() > logging.INFO:
            self._level_before = logger.level
            logger.setLevel(logging.INFO)
        return self

    def detach(self) -> None:
        """Stop catching them and restore the logger's level; safe to repeat."""
        logger = self.logger
        if self not in logger.handlers:
            return
        logger.removeHandler(self)
        if self._level_before is not None:
            logger.setLevel(self._level_before)
            self._level_before = None

    def __enter__(self) -> CompileNotes:
        return self.attach()

    def __exit__(self, *exc_info: object) -> None:
        self.detach()

    def emit(self, record: logging.LogRecord) -> None:
        """Keep ``record``'s message (with the time it came) and pass it on."""
        try:
            text = printable(record.getMessage())
        except Exception:  # a bad format string in a record: logging's own report
            self.handleError(record)
            return
        with self._guard:
            self._latest = (text, time.monotonic())
        if self.on_note is not None:
            self.on_note(text)

    def latest(self, since: float = float("-inf")) -> str | None:
        """The message of the latest record that came at or after ``since`` (a
        ``time.monotonic()`` reading), or None."""
        with self._guard:
            latest = self._latest
        if latest is None or latest[1] < since:
            return None
        return latest[0]


__all__ = ["COMPILE_LOGGER", "CompileNotes"]
