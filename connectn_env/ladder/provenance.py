"""Where and when a ladder was built: date, package version, git commit, machine."""

from __future__ import annotations

import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

_GIT_SECONDS = 5.0


def provenance() -> dict[str, Any]:
    """``{"date", "package_version", "git_commit", "machine"}`` of this run (``git_commit``
    is None outside a git checkout)."""
    from connectn_env import __version__

    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "package_version": __version__,
        "git_commit": _git_commit(),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
    }


def _git_commit() -> str | None:
    """The commit of the checkout this package runs from, with ``+dirty`` when files differ."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=_GIT_SECONDS,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=_GIT_SECONDS,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{commit}+dirty" if dirty else commit
