"""``connectn train``'s budget is kept and its numbers say what they measured: the workers
compile before the time budget starts (announced), a budget no run could spend is refused,
``--fast-simulations`` that would do nothing is refused, and the Elo printed at the end is
the last network's with the games it rests on ("not measured" where none)."""

from __future__ import annotations

import io
import time

import pytest

pytest.importorskip("torch", reason='the train extra is not installed: pip install ".[train]"')

from test_alphazero import TINY as ALPHAZERO_TINY

from agents.alphazero import ConfigError, TrainConfig, train
from agents.alphazero.workers import SelfPlayWorker
from connectn_env.cli import main
from connectn_env.train_command import _elo_line

MCTS_20 = "mcts:simulations=20,preset=uct"
TINY = {  # test_alphazero's tiny run, evaluated at its end
    **{key: value for key, value in ALPHAZERO_TINY.items() if key != "eval_minutes"},
    "eval_games": 2,
    "eval_budgets": (20,),
    "eval_simulations": 8,
}
SLOW_COMPILE = 2.0  # seconds the patched warm-up adds


def test_the_compile_comes_before_the_time_budget_and_is_announced(tmp_path, monkeypatch):
    """A warm-up as long as the whole budget (a cold compile on a slow machine) leaves the
    budget whole: the run's training seconds do not count it, and it is announced."""
    warm_up = SelfPlayWorker.warm_up
    calls = []

    def slow_warm_up(self) -> float:
        calls.append(time.monotonic())
        seconds = warm_up(self)
        time.sleep(SLOW_COMPILE)
        return seconds + SLOW_COMPILE

    monkeypatch.setattr(SelfPlayWorker, "warm_up", slow_warm_up)
    stream = io.StringIO()
    config = TrainConfig(game="tictactoe", out=tmp_path / "run", minutes=0.03, **TINY)
    began = time.monotonic()
    result = train(config, progress=stream)
    wall = time.monotonic() - began
    assert len(calls) == 1
    assert wall - result.seconds >= SLOW_COMPILE  # the training seconds leave the warm-up out
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("set-up: the workers compile the search before the time budget")
    assert lines[1].startswith("set-up done in ") and float(lines[1].split()[3]) >= SLOW_COMPILE
    assert len(result.evaluations) >= 1  # a short run still evaluates its network


def test_a_budget_beyond_any_run_is_refused(tmp_path, capsys) -> None:
    with pytest.raises(ConfigError, match=r"minutes must be at most 1e\+06 \(about 23 months\)"):
        TrainConfig(game="tictactoe", out=tmp_path / "run", minutes=1e300)
    assert TrainConfig(game="tictactoe", out=tmp_path / "run", minutes=1e6).minutes == 1e6
    with pytest.raises(SystemExit) as stop:
        main(["train", "tictactoe", "--out", str(tmp_path / "run"), "--minutes", "1e300"])
    assert stop.value.code == 2
    assert "minutes must be at most 1e+06 (about 23 months), got 1e+300" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_fast_simulations_without_playout_cap_randomization_are_refused(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "tictactoe", "--out", str(out), "--games", "8", "--workers", "0"]
    args += ["--simulations", "8", "--games-in-flight", "8", "--channels", "8", "--blocks", "1"]
    args += ["--batch-size", "32", "--buffer-size", "1000", "--eval-minutes", "0"]
    with pytest.raises(SystemExit) as stop:
        main([*args, "--fast-simulations", "2", "--no-progress"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("connectn train: error: --fast-simulations 2 does nothing")
    assert "give --full-search-fraction below 1" in error and error.count("\n") == 1
    assert not out.exists()


def eval_record(label: str, results: list[dict], elo: float | None) -> dict:
    return {"kind": "eval", "label": label, "results": results, "elo": {label: elo, MCTS_20: 0.0}}


def test_the_elo_printed_is_the_last_networks_with_its_games_or_not_measured() -> None:
    drawn = {"a": "step-0000018", "b": MCTS_20, "wins": 0, "draws": 4, "losses": 0}
    line = _elo_line([eval_record("step-0000018", [drawn], 0.0)])
    assert line == (
        "Elo of step-0000018, the last evaluated network: +0 (plain UCT at 20 simulations = 0), "
        "from 4 games: 0 won, 4 drawn, 0 lost"
    )
    assert MCTS_20 not in line  # the opponents never play one another: no rating of theirs
    assert "not measured" in _elo_line([])
    assert "not measured" in _elo_line([eval_record("step-0000000", [], None)])
