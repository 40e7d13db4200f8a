"""The inference speed benchmark runs and prints its table (the speed itself is not checked)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from benchmark_helpers import run_benchmark

pytest.importorskip("torch")

SCRIPT = "inference_speed.py"


@pytest.mark.slow  # about 5 s: times each precision
def test_quick_benchmark_prints_the_table(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--quick", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "| game | runtime | precision | set-up s | ms per batch | speed-up |" in out
    for runtime in ("eager", "torch.jit.freeze"):
        for precision in ("float32", "bfloat16"):
            row = rf"^\| connect_n 6x6 k=4 \| {re.escape(runtime)} \| {precision} \| "
            found = re.search(row + r"\d+\.\d\d \| \d+\.\d\d \| \d+\.\d\dx \| (\S+) \|$", out, re.M)
            assert found, out
            assert float(found.group(1)) < (1e-4 if precision == "float32" else 0.1)


def test_benchmark_rejects_zero_calls(tmp_path: Path) -> None:
    result = run_benchmark(SCRIPT, "--calls", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "--calls must be at least 1, got 0" in result.stderr
