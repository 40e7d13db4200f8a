"""Running a script of ``benchmarks/`` the way a user does, for its smoke tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


def run_benchmark(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``benchmarks/<script>`` with ``args`` in ``cwd``; output captured, no check."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
