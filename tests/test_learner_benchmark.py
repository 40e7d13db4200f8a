"""The learner speed benchmark runs and prints its table (the speed itself is not checked)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from benchmark_helpers import run_benchmark

pytest.importorskip("torch")

SCRIPT = "learner_speed.py"


@pytest.mark.slow  # about 6 s: trains two learners
def test_quick_benchmark_prints_the_table(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--quick", "--batch", "16", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "| game | NCHW ms/step | channels-last ms/step | speed-up |" in out
    for name in ("connect_four", "connect_n 6x6 k=4", "hex 11x11"):
        assert re.search(rf"^\| {name} \| \d+\.\d \| \d+\.\d \| \d+\.\d\dx \|$", out, re.M)


def test_benchmark_rejects_zero_steps(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--steps", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "--steps must be at least 1, got 0" in result.stderr
