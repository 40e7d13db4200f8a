"""``evaluate`` with a time budget that ends before the first game: no games give no rating,
so it is an error (exit status 2, nothing written), never ``Elo +nan`` or ``NaN`` in JSON;
games resumed from ``--results`` still give one."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_main

from connectn_env.ladder import evaluate

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]
ARGS = ["evaluate", *SIX, "random", "--workers", "1", "--no-progress"]


def test_no_game_in_the_time_budget_is_an_error_and_writes_no_json(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main([*ARGS, "--minutes", "1e-9", "--json", "j.json"], capsys)
    assert code == 2, err
    assert err.startswith("connectn evaluate: error: no game was played: the time budget"), err
    assert "nan" not in (out + err).lower()
    assert not (tmp_path / "j.json").exists()
    with pytest.raises(ValueError, match="no game was played"):
        evaluate("random", game="connect_n_6x6", minutes=1e-9, workers=1)


def test_games_resumed_from_results_are_rated_within_any_budget(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main([*ARGS, "--games", "2", "--results", "r.jsonl"], capsys)
    assert code == 0, err
    code, out, err = run_main(
        [*ARGS, "--minutes", "1e-9", "--results", "r.jsonl", "--json", "j"], capsys
    )
    assert code == 0, err
    data = json.loads((tmp_path / "j").read_text(), parse_constant=pytest.fail)
    assert data["games"] == 2 and "nan" not in out.lower()
