"""One writer at a time: an exclusive lock on a lock file, taken without waiting.

A training's run directory (``RUN_DIR/.lock``) and every results file a run appends to (the
lock file ``.NAME.lock`` beside it: :func:`lock_beside`) are locked before they are read, so
a second process started on the same file is refused at once, before it changes anything,
with a message naming the file and the process that holds it.

The lock is ``flock`` on the lock file: the system gives it back when its holder ends,
killed (SIGKILL) included, so a lock file left by a dead process is simply taken over. The
holder writes who it is into the lock file (pid, host, start time, command line) for the
message a refused process prints, and empties it (or removes it) when it gives the lock
back. Where ``fcntl`` is missing (Windows), nothing is locked.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path

from connectn_env.errors import ConnectnError
from connectn_env.safe_files import describe_file_error, file_kind
from connectn_env.safetext import printable

_ATTEMPTS = 3  # the lock file may be removed under us by a holder giving it back
_MAX_HOLDER_BYTES = 4096
_BUSY = (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK)
# the locks this process holds: lock file (resolved) -> [thread, acquires, descriptor]
_taken: dict[str, list[int]] = {}
_taken_guard = threading.Lock()


class LockError(ValueError, ConnectnError):
    """The lock is held by another process (``held``), or cannot be taken; the message names
    the file and the holder."""

    def __init__(self, message: str, *, held: bool = False) -> None:
        super().__init__(message)
        self.held = held


class FileLock:
    """An exclusive lock on ``lock_file`` (made if missing), taken without waiting.

    Args:
        lock_file: The lock file.
        busy: What a refusal says first (``"RUN_DIR/.lock: another training is running"``);
            the holder follows in brackets.
        reentrant: Whether the thread holding the lock may take it again (each
            :meth:`acquire` then needs its :meth:`release`): a ladder build holds its
            results file across the tournaments that each open it.

    Attributes:
        made: Whether :meth:`acquire` created the lock file.
    """

    def __init__(self, lock_file: str | Path, busy: str, *, reentrant: bool = False) -> None:
        self.lock_file = Path(lock_file)
        self.busy = busy
        self.reentrant = reentrant
        self.made = False
        self._held = False
        self._key = os.path.realpath(self.lock_file)

    def acquire(self) -> None:
        """Take the lock.

        Raises:
            LockError: another process (or, for a reentrant lock, another thread of this
                one) holds it, or the lock file cannot be made, opened or locked.
        """
        if self._held:
            raise LockError(f"{self.lock_file}: this lock is held already")
        if self.reentrant and self._enter_again():
            self._held = True
            return
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return
        for _ in range(_ATTEMPTS):
            descriptor, made = self._open()
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                holder = _holder(descriptor)
                os.close(descriptor)
                if error.errno in _BUSY:
                    raise LockError(f"{self.busy} ({holder})", held=True) from None
                raise LockError(self._error(error)) from None
            if _same_file(descriptor, self.lock_file):
                _write_holder(descriptor)
                self.made, self._held = made, True
                with _taken_guard:
                    _taken[self._key] = [threading.get_ident(), 1, descriptor]
                return
            os.close(descriptor)  # removed by a holder that gave it back: take the new one
        raise LockError(f"{self.lock_file}: replaced again and again while it was being locked")

    def release(self, *, remove: bool = False) -> None:
        """Give the lock back (nothing if it is not held): the lock file is removed with
        ``remove``, else emptied of the holder's description. Of a lock taken again by
        its thread, the last release gives it back."""
        if not self._held:
            return
        self._held = False
        with _taken_guard:
            entry = _taken.get(self._key)
            if entry is None:
                return
            entry[1] -= 1
            if entry[1] > 0:
                return
            del _taken[self._key]
        descriptor = entry[2]
        with contextlib.suppress(OSError):
            if remove:
                os.unlink(self.lock_file)  # under the lock, so no one takes the file unlinked
            else:
                os.ftruncate(descriptor, 0)
        with contextlib.suppress(OSError):
            os.close(descriptor)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release(remove=True)

    def _enter_again(self) -> bool:
        """Count one more acquire if this thread holds the lock already.

        Raises:
            LockError: another thread of this process holds it.
        """
        with _taken_guard:
            entry = _taken.get(self._key)
            if entry is None:
                return False
            if entry[0] != threading.get_ident():
                holder = f"another thread of this process, pid {os.getpid()}"
                raise LockError(f"{self.busy} ({holder})", held=True)
            entry[1] += 1
            return True

    def _open(self) -> tuple[int, bool]:
        """A descriptor of the lock file (made if missing) and whether it was made here."""
        flags = os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        for _ in range(_ATTEMPTS):
            try:
                return os.open(self.lock_file, flags | os.O_CREAT | os.O_EXCL, 0o644), True
            except FileExistsError:
                pass
            except OSError as error:
                raise LockError(self._error(error)) from None
            try:
                descriptor = os.open(self.lock_file, flags)
            except FileNotFoundError:  # removed between the two opens (or a dangling link)
                continue
            except IsADirectoryError:
                raise LockError(f"{self.lock_file}: a directory, not a lock file") from None
            except OSError as error:
                raise LockError(self._error(error)) from None
            mode = os.fstat(descriptor).st_mode
            if file_kind(mode) != "a regular file":
                os.close(descriptor)
                raise LockError(f"{self.lock_file}: {file_kind(mode)}, not a lock file")
            return descriptor, False
        raise LockError(f"{self.lock_file}: a link to nothing, not a lock file")

    def _error(self, error: OSError) -> str:
        return describe_file_error(self.lock_file, error) + " (a lock file)"


def lock_beside(path: str | Path, busy: str) -> FileLock:
    """The reentrant lock of the file ``path``: the lock file ``.NAME.lock`` beside the
    file ``path`` names (links followed, so every name of one file has one lock)."""
    real = Path(os.path.realpath(path))
    return FileLock(real.with_name(f".{real.name}.lock"), busy, reentrant=True)


def _write_holder(descriptor: int) -> None:
    """Write who holds the lock into the lock file (for the messages of refused processes)."""
    holder = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv)[:1000],
    }
    with contextlib.suppress(OSError):  # the description is a courtesy; the lock is taken
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, (json.dumps(holder) + "\n").encode(), 0)


def _holder(descriptor: int) -> str:
    """The holder of the lock, in words, from what it wrote into the lock file."""
    try:
        data = json.loads(os.pread(descriptor, _MAX_HOLDER_BYTES, 0))
        pid, host, since, command = (data[k] for k in ("pid", "host", "since", "command"))
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return "held by another process"
    text = f"held by pid {pid} on {host} since {since}: {command}"
    return printable(text[:300])


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        here, there = os.fstat(descriptor), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
