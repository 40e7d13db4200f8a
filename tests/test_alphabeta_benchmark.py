"""The alpha-beta benchmark runs and prints its tables (the speed itself is not checked)."""

from __future__ import annotations

import re
from pathlib import Path

from benchmark_helpers import run_benchmark

SCRIPT = "alphabeta_speed.py"


def test_quick_benchmark_prints_both_tables(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--quick", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    number = r"\d{1,3}(,\d{3})*"
    for label, value in (("tic-tac-toe", r"\+0"), ("connect 3, 4x4, gravity", r"\+1")):
        assert re.search(
            rf"^\| {label} \| {value} \| [\d.,]+ ms \| [\d.,]+ ms \| [\d.,]+x faster \|$", out, re.M
        ), out
    for label in ("connect four", "gomoku 15x15", "hex 11x11"):
        assert re.search(rf"^\| {label} \| \d+ \| {number} \| {number} \|$", out, re.M), out


def test_benchmark_rejects_zero_runs(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--runs", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "--runs must be at least 1, got 0" in result.stderr
