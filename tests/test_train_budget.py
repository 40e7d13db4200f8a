"""``connectn train`` refuses settings no run could honour or that would do nothing: a time
budget beyond any run, ``--fast-simulations`` without playout cap randomization."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason='the train extra is not installed: pip install ".[train]"')

from agents.alphazero import ConfigError, TrainConfig
from connectn_env.cli import main


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
