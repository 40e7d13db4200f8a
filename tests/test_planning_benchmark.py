"""The planning benchmark runs and prints its tables (the speed itself is not checked)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from benchmark_helpers import run_benchmark

SCRIPT = "planning.py"


@pytest.mark.slow  # about 20 s: three planners on three maps
def test_quick_benchmark_prints_both_tables(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--quick", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"^\| A\* \| 3/3 \| 0\.00 \| [\d.]+ ms \| 1x \|$", out, re.M), out
    for name in ("MCTSPlanner, A\\* heuristic as leaf value", "MCTSPlanner, no heuristic"):
        assert re.search(
            rf"^\| {name} \| [0-3]/3 \| \d+\.\d\d \| [\d,]+ ms \| [\d,]+x \|$", out, re.M
        )
    for name in ("GridPath 20x20", "FrozenLake8x8-v1 \\(not slippery\\)", "CliffWalking-v1"):
        assert re.search(rf"^\| {name} \| [a-z_/]+ \| \d+ \| [+-][\d.]+ \| [\d,]+ \|$", out, re.M)


def test_benchmark_rejects_zero_maps(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--maps", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "--maps must be at least 1, got 0" in result.stderr
