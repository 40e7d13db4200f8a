"""Worker processes die with the arena: nothing is left running after a kill.

The parent turns SIGTERM (and SIGHUP) into ``SystemExit``, so its ``finally`` blocks stop
the workers as on Ctrl-C. SIGKILL cannot be caught, so each worker also watches its
parent: on Linux the kernel sends it SIGKILL when the parent dies
(``prctl(PR_SET_PDEATHSIG)``, which stops even a worker busy in compiled code), and
everywhere a watcher thread waits on the parent's sentinel (a pipe that the parent's death
closes) and ends the process.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import wait

PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>
_POLL_SECONDS = 0.5
_EXIT_ORPHANED = 1


def die_with_parent(parent_pid: int) -> None:
    """Make this process end when the process ``parent_pid`` (its parent) ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(_EXIT_ORPHANED)
    watcher = threading.Thread(
        target=_watch_parent, args=(parent_pid,), name="watch-parent", daemon=True
    )
    watcher.start()


def _watch_parent(parent_pid: int) -> None:
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is not None:
        wait([sentinel])
    else:  # not started by multiprocessing: poll the parent's process id
        while os.getppid() == parent_pid:
            time.sleep(_POLL_SECONDS)
    os._exit(_EXIT_ORPHANED)


@contextlib.contextmanager
def exit_on_termination() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise ``SystemExit(128 + signal)`` in the main
    thread (so ``finally`` blocks stop worker processes); outside the main thread this does
    nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    kinds = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {kind: signal.signal(kind, terminate) for kind in kinds}
    try:
        yield
    finally:
        for kind, handler in previous.items():
            signal.signal(kind, handler)
