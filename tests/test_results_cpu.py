"""Each game records the CPU time its worker spent (what a ladder build reports as its
CPU-hours), and results files from before it was recorded still read."""

from __future__ import annotations

import pytest

from connectn_env.arena import run_tournament
from connectn_env.arena.results import GameResult


def test_every_game_records_its_cpu_time_and_reads_it_back() -> None:
    result = run_tournament("tictactoe", ["mcts:simulations=50", "random"], games=2, workers=1)
    for game in result.results:
        assert game.cpu_seconds is not None and game.cpu_seconds > 0
        assert GameResult.from_json(game.to_json()) == game


def test_a_line_without_cpu_time_reads_as_none_and_a_bad_one_is_refused() -> None:
    line = {"pairing": ["a", "b"], "index": 0, "players": ["a", "b"], "result": "draw"}
    assert GameResult.from_json(line).cpu_seconds is None
    with pytest.raises(ValueError, match="cpu_seconds"):
        GameResult.from_json(line | {"cpu_seconds": -1.0})
    with pytest.raises(ValueError, match="cpu_seconds"):
        GameResult.from_json(line | {"cpu_seconds": "fast"})
