"""What the compiler is doing, for the window and the terminal: the records of the
``connectn_env.compile`` logger (``"compiling Gomoku 15 x 15 search kernels (first use;
cached afterwards)"``, then a done message), caught while a game is shown."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack

from connectn_env.games.compile_notice import compile_notices
from connectn_env.safetext import printable


class CompileNotes:
    """Catches the compile logger's records between :meth:`listen` and :meth:`stop` (or in
    a ``with`` block), through :func:`~connectn_env.games.compile_notice.compile_notices`.

    Keeps the latest message (:meth:`latest`) and passes each one to ``on_note``. Records
    come from any thread (the agent compiles in its own).

    Args:
        on_note: Called with each record's message (control characters escaped), or None.
    """

    def __init__(self, on_note: Callable[[str], None] | None = None) -> None:
        if on_note is not None and not callable(on_note):
            raise TypeError(f"on_note must be callable or None, got {on_note!r}")
        self.on_note = on_note
        self._latest: tuple[str, float] | None = None
        self._guard = threading.Lock()
        self._listening: ExitStack | None = None

    @property
    def listening(self) -> bool:
        """True between :meth:`listen` and :meth:`stop`."""
        return self._listening is not None

    def listen(self) -> CompileNotes:
        """Start catching the compile records; safe to repeat. Returns self."""
        if self._listening is None:
            stack = ExitStack()
            stack.enter_context(compile_notices(self.note))
            self._listening = stack
        return self

    def stop(self) -> None:
        """Stop catching them (the logger is as it was before); safe to repeat."""
        stack, self._listening = self._listening, None
        if stack is not None:
            stack.close()

    def __enter__(self) -> CompileNotes:
        return self.listen()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def note(self, message: str) -> None:
        """Keep ``message`` (with the time it came) and pass it on."""
        text = printable(message)
        with self._guard:
            self._latest = (text, time.monotonic())
        if self.on_note is not None:
            self.on_note(text)

    def latest(self, since: float = float("-inf")) -> str | None:
        """The latest message that came at or after ``since`` (a ``time.monotonic()``
        reading), or None."""
        with self._guard:
            latest = self._latest
        if latest is None or latest[1] < since:
            return None
        return latest[0]
