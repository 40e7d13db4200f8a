"""Telling people about numba compiles: records on the ``connectn_env.compile`` logger.

The first use of a game's kernels or of the search compiles them (seconds; numba caches the
result on disk, so later processes load it in milliseconds). numba signals a compile with its
``numba:compile`` event, which fires only when a function is really compiled: not when it is
already compiled, not when it loads from the cache. A listener on that event logs, at INFO and
before the compile starts, ``"compiling Gomoku 15 x 15 search kernels (first use; cached
afterwards)"``, and when it is over ``"compiled Gomoku 15 x 15 search kernels in 4.1 s"``.
What is compiled is named by the innermost :func:`compiling` block around it (the search
agents open one per search); a compile outside any block is named by its function. A name is
announced once per process (what later blocks of that name compile is logged at DEBUG).

A compile that is not numba's (``torch.compile`` of a network on its first call) is announced
the same way, by :func:`announce_compile` around it.

Like any library, the package only logs: the logger has a ``NullHandler`` and no level, so
nothing is shown until a program asks. The ``connectn`` programs attach a handler (with
:func:`compile_notices` or their own); in a notebook or script::

    import logging
    logging.basicConfig(level=logging.INFO)  # or only this logger:
    logging.getLogger("connectn_env.compile").setLevel(logging.INFO)

(``basicConfig`` shows every library's INFO records; the second line, with a handler of your
own on that logger or the root, only these.)

Worker processes (``connectn train``'s self-play) compile on their own: with the environment
variable ``CONNECTN_COMPILE_NOTICES=stderr`` (:data:`NOTICES_ENV`; a program sets it for the
processes it starts with :func:`worker_notices_on_stderr`) a process shows its compile
records on stderr, one line each, from the import of this module.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import event

COMPILE_LOGGER = "connectn_env.compile"
NOTICES_ENV = "CONNECTN_COMPILE_NOTICES"
_logger = logging.getLogger(COMPILE_LOGGER)
_logger.addHandler(logging.NullHandler())


_announced: set[str] = set()  # the names announced in this process (each once)
_announced_lock = threading.Lock()


def _first_announcement(what: str) -> bool:
    """True the first time in this process that compiles named ``what`` are announced."""
    with _announced_lock:
        first = what not in _announced
        _announced.add(what)
    return first


class _ThreadState(threading.local):
    """Per thread (numba compiles in the calling thread): the open :func:`compiling` blocks
    (``[what, announced, compile seconds]`` each) and the depth of nested compiles."""

    def __init__(self) -> None:
        self.blocks: list[list[Any]] = []
        self.depth = 0
        self.started = 0.0
        self.unnamed = ""


_state = _ThreadState()


class _CompileListener(event.Listener):
    """Logs the start of each outermost real compile (and the end of one outside a block)."""

    def on_start(self, ev: event.Event) -> None:
        state = _state
        state.depth += 1
        if state.depth > 1:
            return
        state.started = time.perf_counter()
        if state.blocks:
            block = state.blocks[-1]
            if block[1] is None:
                block[1] = _first_announcement(block[0])
                level = logging.INFO if block[1] else logging.DEBUG
                _logger.log(level, "compiling %s (first use; cached afterwards)", block[0])
        else:
            function = ev.data["dispatcher"].py_func
            state.unnamed = f"{function.__module__}.{function.__qualname__}"
            _logger.info("compiling %s (first use; cached afterwards)", state.unnamed)

    def on_end(self, ev: event.Event) -> None:
        state = _state
        state.depth -= 1
        if state.depth > 0:
            return
        seconds = time.perf_counter() - state.started
        if state.blocks:
            state.blocks[-1][2] += seconds
        else:
            _logger.info("compiled %s in %.1f s", state.unnamed, seconds)


event.register("numba:compile", _CompileListener())


@contextmanager
def compiling(what: str) -> Iterator[None]:
    """Name the numba compiles inside this block ``what`` (``"Gomoku 15 x 15 search
    kernels"``): the first one logs the start record, the end of the block the done record
    with the seconds spent compiling. Nothing is logged if nothing is compiled. Each name is
    announced once per process: a later block of the same name that compiles logs its
    records at DEBUG (a first move compiles in several searches: one announcement, not one
    per search). Blocks nest (the innermost names) and are per thread."""
    if not isinstance(what, str):
        raise TypeError(f"what must be a str naming what is compiled, got {what!r}")
    block: list[Any] = [what, None, 0.0]  # announced: None (nothing compiled yet) or a bool
    _state.blocks.append(block)
    try:
        yield
    finally:
        _state.blocks.pop()
    if block[1] is not None:  # (not when the block failed)
        level = logging.INFO if block[1] else logging.DEBUG
        _logger.log(level, "compiled %s in %.1f s", what, block[2])


@contextmanager
def announce_compile(what: str, first_use: str = "first call in this process") -> Iterator[None]:
    """Log the start and the end of a compile that runs inside this block (one that numba does
    not signal): ``"compiling <what> (<first_use>)"``, then ``"compiled <what> in 8.8 s"`` (not
    when the block fails)."""
    if not isinstance(what, str) or not isinstance(first_use, str):
        raise TypeError(f"what and first_use must be str, got {what!r} and {first_use!r}")
    _logger.info("compiling %s (%s)", what, first_use)
    started = time.perf_counter()
    yield
    _logger.info("compiled %s in %.1f s", what, time.perf_counter() - started)


@contextmanager
def compile_notices(show: Callable[[str], Any]) -> Iterator[logging.Handler]:
    """Pass each compile record's message to ``show`` (from the compiling thread) inside this
    block: a program's way to display them (its progress line, stderr, a protocol's comment
    line). The logger lets INFO records through meanwhile (its level is put back at the end).

    Raises:
        TypeError: ``show`` is not callable.
    """
    if not callable(show):
        raise TypeError(f"show must be callable, got {show!r}")
    handler = _Forward(show)
    level = _logger.level
    if _logger.getEffectiveLevel() > logging.INFO:
        _logger.setLevel(logging.INFO)
    _logger.addHandler(handler)
    try:
        yield handler
    finally:
        _logger.removeHandler(handler)
        _logger.setLevel(level)


class _Forward(logging.Handler):
    def __init__(self, show: Callable[[str], Any]) -> None:
        super().__init__(logging.INFO)
        self.show = show

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.show(record.getMessage())
        except Exception:  # a display that fails must not stop the compile
            self.handleError(record)


@contextmanager
def worker_notices_on_stderr() -> Iterator[None]:
    """Inside this block, the processes started from this one (which inherit the environment)
    show their compile records on stderr (:data:`NOTICES_ENV`); the variable is put back at
    the end."""
    before = os.environ.get(NOTICES_ENV)
    os.environ[NOTICES_ENV] = "stderr"
    try:
        yield
    finally:
        if before is None:
            del os.environ[NOTICES_ENV]
        else:
            os.environ[NOTICES_ENV] = before


def _notices_on_stderr_if_asked() -> None:
    """Show this process's compile records on stderr if :data:`NOTICES_ENV` says so."""
    if os.environ.get(NOTICES_ENV) == "stderr":
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(f"connectn (process {os.getpid()}): %(message)s"))
        _logger.addHandler(handler)
        _logger.setLevel(logging.INFO)


_notices_on_stderr_if_asked()
