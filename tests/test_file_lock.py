"""The one-writer lock (``connectn_env.file_lock``): another process is refused at once and
named, a lock its dead holder left is taken over, every name of a file shares one lock.

The holder is a real second process (flock locks conflict between processes); nothing here
waits on a clock: the holder says when it holds the lock, and lets it go when told.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from connectn_env.file_lock import FileLock, LockError, lock_beside

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="flock needs a POSIX system")

_HOLD = """
import sys
from connectn_env.file_lock import lock_beside
lock = lock_beside(sys.argv[1], "busy")
lock.acquire()
print("held", flush=True)
sys.stdin.read()
lock.release(remove=True)
"""


@contextmanager
def held_by_another_process(path: Path) -> Iterator[subprocess.Popen]:
    """A second process holding the lock of ``path`` (:func:`lock_beside`) until the block
    ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


def test_a_lock_held_by_another_process_is_refused_at_once_naming_the_holder(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    with held_by_another_process(path) as holder:
        lock = lock_beside(path, f"{path}: another run is writing it")
        with pytest.raises(LockError) as refused:
            lock.acquire()
        message = str(refused.value)
        assert message.startswith(f"{path}: another run is writing it (held by pid {holder.pid}")
        assert "-c" in message  # the holder's command line
    with lock_beside(path, "busy"):  # given back: taken now
        assert (tmp_path / ".games.jsonl.lock").is_file()
    assert not (tmp_path / ".games.jsonl.lock").exists()


def test_a_lock_left_by_a_killed_holder_is_taken_over(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    with held_by_another_process(path) as holder:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
    lock_file = tmp_path / ".games.jsonl.lock"
    left = json.loads(lock_file.read_text())
    assert left["pid"] == holder.pid  # the dead holder's lock file is still there
    lock = lock_beside(path, "busy")
    lock.acquire()
    assert json.loads(lock_file.read_text())["pid"] == os.getpid()
    lock.release()
    assert lock_file.read_text() == ""  # given back without removing: emptied


@pytest.mark.parametrize("alias", ["symlink", "relative", "dotdot"])
def test_every_name_of_a_file_has_one_lock(tmp_path, monkeypatch, alias: str) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    if alias == "symlink":
        other = tmp_path / "sub" / "link.jsonl"
        other.symlink_to(path)
    else:
        other = Path("../games.jsonl") if alias == "relative" else tmp_path / "sub/../games.jsonl"
    with held_by_another_process(path), pytest.raises(LockError, match="held by pid"):
        lock_beside(other, "busy").acquire()


def test_the_holding_thread_may_take_the_lock_again_and_another_thread_may_not(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    outer, inner = lock_beside(path, "busy"), lock_beside(path, "busy")
    outer.acquire()
    inner.acquire()  # a ladder build's round opening the file its build holds
    refusals: list[Exception] = []

    def other_thread() -> None:
        try:
            lock_beside(path, "busy").acquire()
        except LockError as error:
            refusals.append(error)

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert len(refusals) == 1 and "another thread of this process" in str(refusals[0])
    outer.release(remove=True)  # released out of order: the inner acquire still holds it
    with held_by_another_process(tmp_path / "other.jsonl"):  # (a second process runs)
        pass
    with pytest.raises(LockError, match="busy"):
        FileLock(tmp_path / ".games.jsonl.lock", "busy").acquire()  # still held
    inner.release(remove=True)
    with held_by_another_process(path):  # free for another process now
        pass


def test_a_lock_file_that_is_not_a_file_is_refused(tmp_path) -> None:
    (tmp_path / ".games.jsonl.lock").mkdir()
    with pytest.raises(LockError, match=r"\.games\.jsonl\.lock: a directory, not a lock file"):
        lock_beside(tmp_path / "games.jsonl", "busy").acquire()


def test_a_training_holding_a_run_directory_is_named_to_the_second(tmp_path) -> None:
    from agents.alphazero.rundir import RunDirectory, RunDirectoryError

    script = (
        "import sys\nfrom agents.alphazero.rundir import RunDirectory\n"
        "run = RunDirectory(sys.argv[1]); run.lock(); print('held', flush=True)\n"
        "sys.stdin.read(); run.unlock()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout.readline() == b"held\n"
        with pytest.raises(RunDirectoryError) as refused:
            RunDirectory(tmp_path).lock()
        expected = f"{tmp_path}/.lock: another training is running in {tmp_path} (held by pid "
        assert str(refused.value).startswith(expected + str(holder.pid))
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert (tmp_path / ".lock").read_bytes() == b""  # given back, emptied
    run = RunDirectory(tmp_path)
    run.lock()
    run.unlock()
