"""The run directory of a training run: what it holds, and the checks before anything in it
is written (a run of another game, changed training settings or an unreadable checkpoint is
refused and nothing is touched).

Layout::

    RUN_DIR/run.json          the game and the training config (written once)
    RUN_DIR/latest.pt         the newest training checkpoint (weights, optimizer, progress)
    RUN_DIR/buffer.npz        the replay buffer at the time of latest.pt
    RUN_DIR/best.pt           the network to play with (highest Elo so far, else the newest)
    RUN_DIR/checkpoints/      the weights of every evaluated network (step-NNNNNNN.pt)
    RUN_DIR/metrics.jsonl     one JSON object per line: training, evaluation records
    RUN_DIR/plots.png         loss, Elo, score against each MCTS budget, games/s
    RUN_DIR/.lock             locked by the training running here (:mod:`connectn_env.file_lock`)

A training takes the lock before it looks at anything, then checks (and, resuming, reads
every file, :mod:`agents.alphazero.resume`) before it writes anything.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from agents.alphazero.config import TrainConfig
from connectn_env.atomic_write import leftover_temporaries, write_text_atomically
from connectn_env.errors import ConnectnError
from connectn_env.file_lock import FileLock, LockError
from connectn_env.safe_files import describe_file_error, file_kind, read_regular_text

RUN_FORMAT = "connectn-alphazero-run"
MAX_RUN_FILE_BYTES = 2**20
LOCK_NAME = ".lock"


class RunDirectoryError(ValueError, ConnectnError):
    """The run directory cannot be used as asked (the message names the file, says what is
    wrong and what to do)."""


class RunDirectory:
    """The files of one run (see the module docstring).

    :meth:`open` is the way in: it creates the directory of a new run, takes the lock, and
    only then looks at what the directory holds, so of two trainings started together on one
    directory the second changes nothing.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.run_file = self.path / "run.json"
        self.latest = self.path / "latest.pt"
        self.best = self.path / "best.pt"
        self.buffer = self.path / "buffer.npz"
        self.checkpoints = self.path / "checkpoints"
        self.metrics = self.path / "metrics.jsonl"
        self.plots = self.path / "plots.png"
        self.lock_file = self.path / LOCK_NAME
        self._lock: FileLock | None = None
        self._made_directory = False

    def stored_config(self) -> TrainConfig:
        """The config in ``run.json``.

        Raises:
            RunDirectoryError: no readable run file.
        """
        where = self.run_file
        try:
            text = read_regular_text(where, max_bytes=MAX_RUN_FILE_BYTES, what="a run file")
        except FileNotFoundError:
            raise RunDirectoryError(
                f"{self.path} holds no training run (no {where.name}); start one without --resume"
            ) from None
        except (OSError, ValueError) as error:
            raise RunDirectoryError(describe_file_error(where, error)) from None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise RunDirectoryError(f"{where}: not JSON ({error})") from None
        if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
            raise RunDirectoryError(f"{where}: not a connectn training run file")
        try:
            return TrainConfig.from_json(data["config"], out=self.path)
        except (KeyError, TypeError, ValueError) as error:
            raise RunDirectoryError(f"{where}: a bad config: {error}") from None

    def open(self, config: TrainConfig) -> None:
        """Make the directory (a new run), take its lock, then :meth:`check` it for ``config``.

        Raises:
            RunDirectoryError: another training holds the lock, or :meth:`check` refuses;
                nothing in the directory is changed (a lock file made here is removed).
        """
        if self.path.exists() and not self.path.is_dir():
            raise RunDirectoryError(f"{self.path}: a file, not a run directory")
        if not config.resume:
            self._made_directory = not self.path.exists()
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise RunDirectoryError(f"{self.path}: cannot create it: {error}") from None
        elif not self.path.is_dir():
            raise RunDirectoryError(
                f"{self.path} holds no training run (no such directory); start one without --resume"
            )
        self.lock()
        try:
            self.check(config)
        except BaseException:
            self.unlock(remove_made=True)
            raise

    def check(self, config: TrainConfig) -> None:
        """Check that ``config`` may start (or, with ``resume``, continue) the run here.

        Raises:
            RunDirectoryError: a new run in a directory that holds anything, or a resumed run
                whose directory holds no run, another game's run, other training settings,
                no checkpoint, or a file of the wrong kind where the run writes.
        """
        if not config.resume:
            if self.run_file.exists():
                stored = self.stored_config()
                raise RunDirectoryError(
                    f"{self.path} holds a training run of {stored.game} already: add --resume "
                    "(resume=True) to continue it, or choose another output directory"
                )
            if self._entries():
                raise RunDirectoryError(
                    f"{self.path} is not empty and holds no training run: choose an empty or "
                    "new directory"
                )
            return
        stored = self.stored_config()
        if stored.game != config.game:
            raise RunDirectoryError(
                f"{self.path} holds a training run of {stored.game}, not of {config.game}"
            )
        changed = stored.training_differences(config)
        if changed:
            details = ", ".join(
                f"{name}={getattr(config, name)!r} (the run has {getattr(stored, name)!r})"
                for name in changed
            )
            raise RunDirectoryError(
                f"{self.run_file}: a resumed run keeps its training settings; this one "
                f"differs in {details}"
            )
        for path in (self.latest, self.buffer):
            if not os.path.lexists(path):
                raise RunDirectoryError(self._missing(path))
        for path in (self.latest, self.best, self.buffer, self.metrics, self.plots):
            _require_kind(path, directory=False)
        _require_kind(self.checkpoints, directory=True)

    def _entries(self) -> list[str]:
        """The names in the directory, but the lock file."""
        return sorted(name for name in os.listdir(self.path) if name != LOCK_NAME)

    def _missing(self, path: Path) -> str:
        held = self._entries()
        shown = ", ".join(held[:8]) + (", ..." if len(held) > 8 else "") if held else "nothing"
        return (
            f"{path}: missing, so the run cannot be resumed ({self.path} holds {shown}; "
            f"--resume continues from {self.latest.name} and {self.buffer.name}). To start "
            "afresh, train into a new --out directory"
        )

    def create(self, config: TrainConfig) -> None:
        """Write ``run.json`` and make ``checkpoints/`` (a new run, after :meth:`open`)."""
        self.checkpoints.mkdir(exist_ok=True)
        data = {"format": RUN_FORMAT, "config": config.to_json()}
        write_text_atomically(self.run_file, json.dumps(data, indent=2, allow_nan=False) + "\n")

    def remove_leftovers(self) -> None:
        """Remove the temporary files of writes that a kill cut short (call under the lock)."""
        written = (self.run_file, self.latest, self.best, self.buffer, self.metrics, self.plots)
        for path in written:
            for leftover in leftover_temporaries(path):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def lock(self) -> None:
        """Take the directory's lock (one training per directory at a time).

        Raises:
            RunDirectoryError: another process holds it (the message names it), or the lock
                file is not a file.
        """
        busy = f"{self.lock_file}: another training is running in {self.path}"
        self._lock = FileLock(self.lock_file, busy)
        try:
            self._lock.acquire()
        except LockError as error:
            self._lock = None
            raise RunDirectoryError(str(error)) from None

    def unlock(self, *, remove_made: bool = False) -> None:
        """Release the lock; with ``remove_made``, remove the lock file and the directory if
        :meth:`open` made them (a directory the run gave up on is left as it was)."""
        if self._lock is None:
            return
        self._lock.release(remove=remove_made and self._lock.made)
        self._lock = None
        if remove_made and self._made_directory:
            with contextlib.suppress(OSError):  # only if empty: another run may be starting
                self.path.rmdir()


def _require_kind(path: Path, *, directory: bool) -> None:
    """Refuse a path that exists and is not a directory (``directory``) or a regular file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise RunDirectoryError(describe_file_error(path, error)) from None
    wanted = "a directory" if directory else "a regular file"
    if file_kind(mode) != wanted:
        raise RunDirectoryError(
            f"{path}: {file_kind(mode)} where the run writes {wanted}; move it away"
        )
