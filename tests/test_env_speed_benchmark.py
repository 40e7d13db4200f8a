"""The env speed benchmark runs and prints its table (the speed itself is not checked)."""

from __future__ import annotations

import re
from pathlib import Path

from benchmark_helpers import run_benchmark

SCRIPT = "env_speed.py"


def test_quick_benchmark_prints_the_table(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--quick", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "| env | connectn-env steps/s | pettingzoo steps/s | ratio |" in out
    number = r"\d{1,3}(,\d{3})*"
    for name in ("connect_four 6x7", "tictactoe 3x3"):
        assert re.search(rf"^\| {name} \| {number} \| {number} \| \d+\.\d\dx \|$", out, re.M)
    for name in ("gomoku 15x15", "hex 11x11"):
        assert re.search(rf"^\| {name} \| {number} \| - \| - \|$", out, re.M)
    assert re.search(r"^GameState\.clone\(\): \d+\.\d\d us \(median\)$", out, re.M)


def test_benchmark_rejects_zero_runs(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--runs", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "--runs and --steps must be at least 1, got 0" in result.stderr
