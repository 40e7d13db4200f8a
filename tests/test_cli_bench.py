"""``connectn bench``: the measurements, the table, and skipping missing references."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from connectn_env import bench
from connectn_env.bench import BenchRow, env_rows, format_table, mcts_rows
from connectn_env.games import REGISTRY


def test_format_table_shows_ratios_and_notes() -> None:
    rows = [
        BenchRow("a env", "steps/s", 3000.0, "PettingZoo a", 1000.0),
        BenchRow("b MCTS", "sims/s", 500.0, "-", None, "OpenSpiel skipped: pip install open_spiel"),
    ]
    assert format_table(rows).splitlines() == [
        "| benchmark | unit | connectn-env | reference | reference value | ratio |",
        "|---|---|---:|---|---:|---:|",
        "| a env | steps/s | 3,000 | PettingZoo a | 1,000 | 3.00x |",
        "| b MCTS | sims/s | 500 | - | - | - |",
        "note: OpenSpiel skipped: pip install open_spiel",
    ]


def test_env_rows_measure_both_sides() -> None:
    rows = env_rows(runs=1, steps=60)
    names = [row.name for row in rows]
    assert names[:4] == ["connect_four 6x7 env", "tictactoe 3x3 env", "gomoku 15x15 env",
                         "hex 11x11 env"]  # fmt: skip
    assert len(names) == len(REGISTRY.families()) + 1  # every family, and tic-tac-toe
    assert all(row.ours > 0 for row in rows)
    assert rows[0].theirs > 0 and rows[0].ratio == rows[0].ours / rows[0].theirs
    assert rows[2].theirs is None and rows[2].reference == "-"


def test_env_rows_skip_pettingzoo_envs_that_cannot_be_made(monkeypatch) -> None:
    import pettingzoo

    def broken(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'pygame'")

    monkeypatch.setattr(pettingzoo, "make", broken)
    rows = env_rows(runs=1, steps=20)
    assert rows[0].theirs is None and rows[0].reference == "-"
    assert "PettingZoo connect_four_v3 skipped: ModuleNotFoundError" in rows[0].note
    assert "note: PettingZoo connect_four_v3 skipped" in format_table(rows)


def test_mcts_rows_with_and_without_openspiel(monkeypatch) -> None:
    rows = mcts_rows(repeats=1, simulations=64)
    names = [row.name for row in rows]
    assert names[:3] == ["connect_four 6x7 MCTS", "gomoku 15x15 MCTS", "hex 11x11 MCTS"]
    assert len(names) == len(REGISTRY.families())  # one row per registered game family
    assert all(row.ours > 0 for row in rows)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert all(row.theirs is None for row in rows)
    else:
        assert all(row.theirs > 0 and row.reference == "OpenSpiel C++ MCTSBot" for row in rows)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    rows = mcts_rows(repeats=1, simulations=32)
    assert all(row.theirs is None and "OpenSpiel skipped" in row.note for row in rows)


def test_run_bench_prints_one_table(monkeypatch, capsys) -> None:
    calls = []
    monkeypatch.setattr(bench, "env_rows", lambda runs, steps: calls.append((runs, steps)) or [])
    monkeypatch.setattr(
        bench, "mcts_rows", lambda repeats, sims: [BenchRow("x MCTS", "sims/s", 2.0, "y", 1.0)]
    )
    assert bench.run_bench() == 0
    out = capsys.readouterr().out
    assert calls == [(3, 3_000)]
    assert "| x MCTS | sims/s | 2 | y | 1 | 2.00x |" in out
    bench.run_bench(full=True)
    assert calls[-1] == (7, 20_000)


@pytest.mark.slow
def test_connectn_bench_command() -> None:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    done = subprocess.run([executable, "bench"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("| benchmark | unit | connectn-env |")
    families = len(REGISTRY.families())
    # header, env rows (every family and tic-tac-toe), MCTS rows (every family)
    assert sum(line.startswith("| ") for line in lines) == 1 + families + 1 + families
