"""The second-player benchmark runs and prints a defender's result (the figures themselves are
not checked)."""

from __future__ import annotations

import re
from pathlib import Path

from benchmark_helpers import run_benchmark

SCRIPT = "second_player_defence.py"


def test_benchmark_prints_each_defenders_result(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "random", "--first", "random", "--games", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pattern = (
        r"^random moving second against random: (\d)-(\d)-(\d), score \d\.\d{3} \(\d+ CPU s\)$"
    )
    found = re.search(pattern, result.stdout, re.M)
    assert found and sum(int(n) for n in found.groups()) == 2


def test_benchmark_rejects_zero_games(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "random", "--games", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "--games must be at least 1, got 0" in result.stderr
