"""``connectn evaluate`` and ``connectn ladder``, as a user runs them (a subprocess)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import run_main

import connectn_env.ladder
from connectn_env.ladder.command import _require_ladder_to_replace

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]
SHIPPED = Path(connectn_env.ladder.__file__).parent / "data"  # the shipped ladder files


def _connectn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    return subprocess.run(
        [executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_ladder_show_prints_the_shipped_ladder(tmp_path: Path) -> None:
    shown = _connectn("ladder", "show", *SIX, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "connect_n_6x6" in shown.stdout and "calibration" in shown.stdout
    refused = _connectn("ladder", "show", "tictactoe", cwd=tmp_path)
    assert refused.returncode == 2 and "tictactoe has no ladder" in refused.stderr


def test_evaluate_rates_a_candidate_and_writes_json(tmp_path: Path) -> None:
    done = _connectn(
        "evaluate", *SIX, "mcts:simulations=10,preset=uct", "--games", "8", "--workers", "1",
        "--json", "r.json", "--results", "games.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "on the connect_n_6x6 ladder" in done.stdout and "95% CI" in done.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["games"] == 8 and data["elo_ci95"][0] <= data["elo"] <= data["elo_ci95"][1]


def test_evaluate_refuses_unknown_candidates_and_games_without_a_ladder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)  # in this process: each refusal comes before any game
    ab = ["--vs", "random", "--sprt", "0,50"]
    refusals = {
        "candidate 'nonsense:'": [*SIX, "nonsense:"],
        "tictactoe has no ladder; the games with a ladder: connect_four": ["tictactoe", "random"],
        "--vs B and --sprt ELO0,ELO1 go together": [*SIX, "random", "--vs", "random"],
        "the A/B mode (--vs) takes no --ladder": [*SIX, "random", *ab, "--ladder", "x.json"],
        "--alpha, --max-games: only with --vs B --sprt ELO0,ELO1": [
            *SIX, "random", "--alpha", "0.1", "--max-games", "4",
        ],
    }  # fmt: skip
    for message, args in refusals.items():
        code, _, err = run_main(["evaluate", *args], capsys)
        assert code == 2 and message in err, (args, err)
    assert list(tmp_path.iterdir()) == []


def test_the_ab_mode_prints_the_llr_and_a_verdict(tmp_path: Path) -> None:
    done = _connectn(
        "evaluate", "tictactoe", "random", "--vs", "random", "--sprt", "0,50", "--max-games",
        "12", "--workers", "1", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "LLR" in done.stderr and "[-2.94, 2.94]" in done.stdout
    assert "6 pairs, 12 games" in done.stdout and "Ptnml(0-2) " in done.stdout
    assert "inconclusive" in done.stdout


@pytest.mark.slow  # about 15 s: a run killed, then resumed
def test_a_killed_evaluation_resumes_without_losing_or_repeating_games(tmp_path: Path) -> None:
    args = [*SIX, "mcts:simulations=100,preset=uct", "--games", "60", "--workers", "1"]
    args += ["--results", "games.jsonl", "--no-progress"]
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    process = subprocess.Popen([executable, "evaluate", *args], cwd=tmp_path)
    results = tmp_path / "games.jsonl"
    deadline = time.monotonic() + 120
    while _lines(results) < 12 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    kept = _lines(results) - 1
    assert 10 <= kept < 60
    done = _connectn("evaluate", *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert ", 60 games" in done.stdout
    lines = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    keys = [(*line["pairing"], line["index"]) for line in lines]
    assert len(keys) == len(set(keys)) == 60


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_ladder_build_replaces_only_a_ladder_file_of_its_game(tmp_path: Path) -> None:
    precious = tmp_path / "notes.json"
    precious.write_text('{"mine": true}\n')
    for existing in (precious, SHIPPED / "connect_four.json"):
        copy = tmp_path / f"out-{existing.name}"
        copy.write_bytes(existing.read_bytes())
        refused = _connectn("ladder", "build", *SIX, "--out", copy.name, cwd=tmp_path)
        assert refused.returncode == 2
        assert f"--out {copy.name} exists and is not a connect_n_6x6 ladder" in refused.stderr
        assert copy.read_bytes() == existing.read_bytes()
    _require_ladder_to_replace(SHIPPED / "connect_n_6x6.json", "connect_n_6x6")  # a rebuild
