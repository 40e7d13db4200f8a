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


def test_a_game_lost_before_its_opening_was_played_writes_a_line_that_reads_back() -> None:
    """An agent that cannot be built in the worker forfeits before the opening's moves: the
    line must not claim an opening longer than its moves (a resume refused the whole file)."""
    from connectn_env.arena.plan import pairing_task
    from connectn_env.games.config import GameConfig
    from connectn_env.specs import parse_agent_spec

    specs = (parse_agent_spec("random"), parse_agent_spec("random"))
    task = pairing_task(GameConfig("connect_four"), ("a", "b"), specs, 0, 0, None, (3, 3, 2))
    error = {"player": 0, "agent": "a", "type": "ImportError", "message": "cannot import"}
    lost = {"result": "player_1", "reason": "forfeit", "error": error, "moves": []}
    result = GameResult.of_played_game(task, lost | {"seconds": 0.1, "max_move_seconds": [0, 0]})
    assert result.opening == 0
    assert GameResult.from_json(result.to_json()) == result
