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
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from agents.alphazero.config import ConfigError, TrainConfig

__all__ = ["RunDirectory", "RunDirectoryError"]

RUN_FORMAT = "connectn-alphazero-run"


class RunDirectoryError(ValueError):
    """The run directory cannot be used as asked (the message says why and what to do)."""


class RunDirectory:
    """The files of one run (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.run_file = self.path / "run.json"
        self.latest = self.path / "latest.pt"
        self.best = self.path / "best.pt"
        self.buffer = self.path / "buffer.npz"
        self.checkpoints = self.path / "checkpoints"
        self.metrics = self.path / "metrics.jsonl"
        self.plots = self.path / "plots.png"
        self._lock: Any = None

    def stored_config(self) -> TrainConfig:
        """The config in ``run.json``.

        Raises:
            RunDirectoryError: no readable run file.
        """
        try:
            data = json.loads(self.run_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RunDirectoryError(
                f"{self.path} holds no training run (no {self.run_file.name}); start one "
                "without --resume"
            ) from None
        except (OSError, ValueError) as error:
            raise RunDirectoryError(f"cannot read {self.run_file}: {error}") from None
        if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
            raise RunDirectoryError(f"{self.run_file} is not a connectn training run file")
        try:
            return TrainConfig.from_json(data["config"], out=self.path)
        except (ConfigError, KeyError) as error:
            raise RunDirectoryError(f"{self.run_file} holds a bad config: {error}") from None

    def check(self, config: TrainConfig) -> None:
        """Check that ``config`` may start (or, with ``resume``, continue) the run here.

        Raises:
            RunDirectoryError: a new run in a directory that is not empty, or a resumed run
                whose directory holds no run, another game's run or other training settings.
        """
        if self.path.exists() and not self.path.is_dir():
            raise RunDirectoryError(f"{self.path} is a file, not a run directory")
        if not config.resume:
            if self.run_file.exists():
                stored = self.stored_config()
                raise RunDirectoryError(
                    f"{self.path} holds a training run of {stored.game} already: add --resume "
                    "(resume=True) to continue it, or choose another output directory"
                )
            if self.path.exists() and any(self.path.iterdir()):
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
                f"a resumed run keeps its training settings; {self.path} differs in {details}"
            )

    def create(self, config: TrainConfig) -> None:
        """Make the directory and write ``run.json`` (a new run)."""
        self.path.mkdir(parents=True, exist_ok=True)
        self.checkpoints.mkdir(exist_ok=True)
        data = {"format": RUN_FORMAT, "config": config.to_json()}
        write_text_atomic(self.run_file, json.dumps(data, indent=2) + "\n")

    def lock(self) -> None:
        """Take the directory's lock (one training per directory at a time).

        Raises:
            RunDirectoryError: another process holds it.
        """
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return
        handle = open(self.path / ".lock", "a")  # noqa: SIM115 (held until unlock)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise RunDirectoryError(
                f"another training is running in {self.path} (it holds {self.path / '.lock'})"
            ) from None
        self._lock = handle

    def unlock(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.close()
            self._lock = None


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
