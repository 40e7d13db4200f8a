"""Game pairs in the arena: each opening of a suite played twice, colours swapped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from connectn_env.arena import ArenaError, run_tournament
from connectn_env.arena.plan import plan_games
from connectn_env.cli import main
from connectn_env.ladder.games import LADDER_GAMES
from connectn_env.ladder.openings import OpeningSuite, save_suite
from connectn_env.records import load_record
from connectn_env.specs import parse_agent_spec

SIX = "connect_n_6x6"
GAME = LADDER_GAMES[SIX]
FIRST = "arena_helpers:first_legal"  # deterministic: the same game from the same position
SUITE = OpeningSuite(SIX, ((14, 21, 15, 20), (0, 35), (7, 8, 9)), 2, 4)


def test_plan_plays_each_opening_twice_colours_swapped_with_fresh_seeds() -> None:
    specs = [parse_agent_spec("random"), parse_agent_spec("mcts:simulations=10")]
    tasks = list(
        plan_games(GAME, specs, games=8, seed=3, move_timeout=None, openings=SUITE.openings)
    )
    openings = [task.opening for task in tasks]
    assert openings == [SUITE.openings[k // 2 % 3] for k in range(8)]
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.labels == second.labels[::-1]  # colours swapped within the pair
    assert len({seed for task in tasks for seed in task.seeds}) == 16  # fresh seeds per game


def test_tournament_plays_the_openings_in_pairs_and_counts_distinct_games(tmp_path) -> None:
    out, records = tmp_path / "games.jsonl", tmp_path / "records"
    result = run_tournament(
        GAME, [FIRST, "random"], games=4, workers=1, out=out, record_dir=records, openings=SUITE
    )
    games = sorted(result.results, key=lambda r: r.index)
    for game in games:
        opening = SUITE.openings[game.index // 2]
        assert game.moves[: len(opening)] == opening and game.opening == len(opening)
        assert len(game.moves) > len(opening)  # the agents played on
    assert games[0].players == games[1].players[::-1]
    assert games[2].players == games[3].players[::-1]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["openings"] == SUITE.digest
    assert {line["opening"] for line in lines[1:]} == {4, 2}
    record = load_record(next(records.glob("*.json")))
    assert record.meta["opening"] == list(record.moves[: len(record.meta["opening"])])
    assert "distinct" in result.table()
    assert (
        result.to_json()["pairings"][0]["distinct_games"]
        == result.distinct_games[(FIRST, "random")]
    )


def test_deterministic_agents_from_one_position_are_flagged_as_repeating() -> None:
    """Two copies of a deterministic agent replay one game; a suite gives one per opening."""
    result = run_tournament(GAME, [FIRST, FIRST], games=4, workers=1)
    assert list(result.distinct_games.values()) == [1]
    assert "games repeat" in result.table() and "(1 distinct of 4)" in result.table()
    paired = run_tournament(GAME, [FIRST, FIRST], games=6, workers=1, openings=SUITE)
    assert list(paired.distinct_games.values()) == [3]
    assert "(3 distinct of 6)" in paired.table()


def test_resume_with_another_suite_or_none_is_refused(tmp_path) -> None:
    out = tmp_path / "games.jsonl"
    run_tournament(GAME, [FIRST, "random"], games=2, workers=1, out=out, openings=SUITE)
    other = OpeningSuite(SIX, SUITE.openings[::-1], 2, 4)
    before = out.read_text()
    with pytest.raises(ArenaError, match="holds another tournament: its openings is"):
        run_tournament(GAME, [FIRST, "random"], games=4, workers=1, out=out, openings=other)
    with pytest.raises(ArenaError, match="holds another tournament: its openings is"):
        run_tournament(GAME, [FIRST, "random"], games=4, workers=1, out=out)
    assert out.read_text() == before
    resumed = run_tournament(GAME, [FIRST, "random"], games=4, workers=1, out=out, openings=SUITE)
    assert resumed.played == 2


def test_a_suite_of_another_game_is_refused(tmp_path: Path) -> None:
    suite = OpeningSuite("hex_7x7", ((0, 1),), 2, 2)
    with pytest.raises(ArenaError, match="the opening suite is of hex_7x7"):
        run_tournament(GAME, [FIRST, "random"], games=2, workers=1, openings=suite)
    path = save_suite(suite, tmp_path / "hex.json")
    with pytest.raises(ArenaError, match=r"--openings: .*an opening suite of hex_7x7, not of"):
        run_tournament(GAME, [FIRST, "random"], games=2, workers=1, openings=path)


def test_arena_command_takes_openings(tmp_path: Path, capsys) -> None:
    path = save_suite(SUITE, tmp_path / "six.json")
    argv = ["arena", "connect_n", "--rows", "6", "--cols", "6", "--no-gravity", FIRST, "random"]
    argv += ["--games", "2", "--workers", "1", "--no-progress", "--openings", str(path)]
    assert main(argv) == 0
    assert "distinct" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SystemExit) as error:
        main([*argv[:-1], str(tmp_path / "bad.json")])
    assert error.value.code == 2
    assert "--openings: " in capsys.readouterr().err
