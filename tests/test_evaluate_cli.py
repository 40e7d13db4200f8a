"""``connectn evaluate`` and ``connectn ladder``, as a user runs them (a subprocess)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]


def _connectn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    return subprocess.run(
        [executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_ladder_show_prints_the_shipped_ladder(tmp_path: Path) -> None:
    shown = _connectn("ladder", "show", *SIX, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "connect_n_6x6" in shown.stdout and "calibration" in shown.stdout
    refused = _connectn("ladder", "show", "othello", cwd=tmp_path)
    assert refused.returncode == 2 and "no ladder is built for othello_8x8" in refused.stderr


def test_evaluate_rates_a_candidate_and_writes_json(tmp_path: Path) -> None:
    done = _connectn(
        "evaluate", *SIX, "mcts:simulations=10,preset=uct", "--games", "8", "--workers", "1",
        "--json", "r.json", "--results", "games.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "on the connect_n_6x6 ladder" in done.stdout and "95% CI" in done.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["games"] == 8 and data["elo_ci95"][0] <= data["elo"] <= data["elo_ci95"][1]


def test_evaluate_refuses_unknown_candidates_and_games_without_a_ladder(tmp_path: Path) -> None:
    unknown = _connectn("evaluate", *SIX, "nonsense:", cwd=tmp_path)
    assert unknown.returncode == 2 and "candidate 'nonsense:'" in unknown.stderr
    no_ladder = _connectn("evaluate", "hex", "--rows", "7", "--cols", "7", "random", cwd=tmp_path)
    assert no_ladder.returncode == 2 and "no ladder is built for hex_7x7" in no_ladder.stderr
    half = _connectn("evaluate", *SIX, "random", "--vs", "random", cwd=tmp_path)
    assert half.returncode == 2 and "--vs B and --sprt ELO0,ELO1 go together" in half.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_ab_mode_prints_the_llr_and_a_verdict(tmp_path: Path) -> None:
    done = _connectn(
        "evaluate", "tictactoe", "random", "--vs", "random", "--sprt", "0,50", "--max-games",
        "12", "--workers", "1", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "LLR" in done.stderr and "[-2.94, 2.94]" in done.stdout
    assert "inconclusive" in done.stdout
