"""Standard output that says when it cannot be written.

``connectn warmup > /dev/full`` failed with an ``OSError`` traceback from whichever
``print`` came first. Within :func:`guarded_stdout`, a failed write or flush of stdout raises
:class:`StdoutError` instead, which names standard output; the CLI turns it into a one-line
error. A closed pipe stays a ``BrokenPipeError`` (the reader went away: not an error).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

from connectn_env.errors import ConnectnError


class StdoutError(OSError, ConnectnError):
    """Standard output cannot be written (a full disk, an I/O error)."""

    def __str__(self) -> str:
        return str(self.strerror)  # without "[Errno 28]": the message says it all


class _Guarded:
    """``stream`` with its write errors made :class:`StdoutError`; the rest is the stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with _named():
            return self._stream.write(text)

    def flush(self) -> None:
        with _named():
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _named() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise
    except StdoutError:
        raise
    except OSError as error:
        reason = error.strerror or str(error)
        raise StdoutError(error.errno, f"cannot write to standard output: {reason}") from None


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Within the block, ``sys.stdout``'s write errors raise :class:`StdoutError`."""
    stream = sys.stdout
    sys.stdout = _Guarded(stream)
    try:
        yield
    finally:
        sys.stdout = stream


def silence_stdout() -> None:
    """Point stdout's file descriptor at the null device, so that the interpreter's final
    flush of what is left cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no descriptor (a test)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
