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


def test_rotated_suite_starts_at_the_opening_asked_and_keeps_them_all() -> None:
    rotated = SUITE.rotated(1)
    assert rotated.openings == (SUITE.openings[1], SUITE.openings[2], SUITE.openings[0])
    assert rotated.digest != SUITE.digest  # a resume from the other order is refused
    assert SUITE.rotated(0) == SUITE
    with pytest.raises(ValueError, match="the first opening must be between 0 and 2, got 3"):
        SUITE.rotated(3)
    with pytest.raises(TypeError, match="the first opening must be an int"):
        SUITE.rotated("1")


def test_first_opening_plays_the_suite_from_that_opening(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run_tournament(
        GAME, [FIRST, "random"], games=4, workers=1, out=out, openings=SUITE, first_opening=2
    )
    games = sorted(result.results, key=lambda r: r.index)
    starts = [game.moves[: game.opening] for game in games]
    assert starts == [SUITE.openings[2]] * 2 + [SUITE.openings[0]] * 2  # then round again
    before = out.read_text()
    with pytest.raises(ArenaError, match="holds another tournament: its openings is"):
        run_tournament(GAME, [FIRST, "random"], games=4, workers=1, out=out, openings=SUITE)
    assert out.read_text() == before


@pytest.mark.parametrize(
    ("first", "openings", "error", "message"),
    [
        (1, None, ArenaError, r"--first-opening 1 needs an opening suite \(--openings\)"),
        (3, SUITE, ArenaError, "--first-opening must be below the suite's 3 openings, got 3"),
        (-1, SUITE, ValueError, "first_opening must be at least 0, got -1"),
        (1.0, SUITE, TypeError, "first_opening must be an int"),
    ],
)
def test_bad_first_opening_is_refused_before_any_game(
    tmp_path: Path, first, openings, error, message
) -> None:
    out = tmp_path / "games.jsonl"
    with pytest.raises(error, match=message):
        run_tournament(
            GAME,
            [FIRST, "random"],
            games=2,
            workers=1,
            out=out,
            openings=openings,
            first_opening=first,
        )
    assert not out.exists()


def test_arena_command_takes_first_opening(tmp_path: Path, capsys) -> None:
    path = save_suite(SUITE, tmp_path / "six.json")
    out = tmp_path / "games.jsonl"
    argv = ["arena", "connect_n", "--rows", "6", "--cols", "6", "--no-gravity", FIRST, "random"]
    argv += ["--games", "2", "--workers", "1", "--no-progress", "--out", str(out)]
    assert main([*argv, "--openings", str(path), "--first-opening", "1"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert {line["opening"] for line in lines[1:]} == {len(SUITE.openings[1])}
    assert lines[0]["openings"] == SUITE.rotated(1).digest
    with pytest.raises(SystemExit) as error:
        main([*argv[:-2], "--first-opening", "1"])
    assert error.value.code == 2
    assert "--first-opening 1 needs an opening suite" in capsys.readouterr().err
