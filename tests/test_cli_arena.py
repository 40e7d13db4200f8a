"""The arena: tables and statistics, reproducibility, failing agents, resuming, the command.

Agents from ``tests/arena_helpers.py`` are named by ``module:callable`` specs; the worker
processes find that module because they inherit ``sys.path`` (and ``PYTHONPATH`` for the
``connectn`` subprocess).
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pythonpath_helpers import pythonpath

from connectn_env.arena import (
    ArenaError,
    GameResult,
    PairingStats,
    elo_ratings,
    plan_games,
    run_tournament,
    wilson,
)
from connectn_env.arena.plan import plan_size
from connectn_env.arena.progress import Progress
from connectn_env.cli import build_parser, game_config_from_args, main
from connectn_env.elo import anchor_of
from connectn_env.records import GameConfig, load_record
from connectn_env.specs import parse_agent_spec

TESTS = Path(__file__).parent
FIRST = "arena_helpers:first_legal"


# --- statistics ---------------------------------------------------------------------


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(0.5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(1.0, 4)  # no zero-width interval at the edge
    assert (round(low, 4), high) == (0.5101, 1.0)
    assert wilson(0.0, 4)[0] == 0.0
    assert wilson(0.3, 1000)[1] - wilson(0.3, 1000)[0] < 0.06


def _pairing(a: str, b: str, wins: int, draws: int, losses: int) -> PairingStats:
    return PairingStats(a, b, wins, draws, losses, 0, 0)


def test_elo_of_two_agents_has_the_closed_form() -> None:
    # One virtual draw: score (W + D/2 + 1/2) / (N + 1); Elo = 400 log10(s / (1 - s)).
    for wins, draws, losses in ((4, 0, 0), (3, 1, 0), (2, 0, 2), (0, 1, 5)):
        elo = elo_ratings(["x", "random"], [_pairing("x", "random", wins, draws, losses)])
        games = wins + draws + losses
        score = (wins + draws / 2 + 0.5) / (games + 1)
        assert elo["random"] == 0.0
        assert elo["x"] == pytest.approx(400 * math.log10(score / (1 - score)), abs=1e-6)


def test_elo_of_three_agents_is_transitive_and_anchored() -> None:
    labels = ["a", "b", "random"]
    pairings = [
        _pairing("a", "b", 6, 0, 4),
        _pairing("a", "random", 9, 1, 0),
        _pairing("b", "random", 8, 0, 2),
    ]
    elo = elo_ratings(labels, pairings)
    assert elo["random"] == 0.0 and elo["a"] > elo["b"] > 0
    # The fit's first-order condition: expected points equal actual points (+ virtual).
    for label in labels:
        expected = actual = 0.0
        for p in pairings:
            if label in (p.a, p.b):
                other = p.b if label == p.a else p.a
                points = p.wins + p.draws / 2 if label == p.a else p.losses + p.draws / 2
                actual += points + 0.5
                expected += (p.games + 1) / (1 + 10 ** ((elo[other] - elo[label]) / 400))
        assert expected == pytest.approx(actual, abs=1e-6)
    assert anchor_of(["a", "b"]) == "a"  # no random: the first agent is 0
    assert elo_ratings(["a", "b"], pairings[:1])["a"] == 0.0
    all_draws = elo_ratings(["a", "b"], [_pairing("a", "b", 0, 6, 0)])
    assert all_draws == {"a": 0.0, "b": pytest.approx(0.0, abs=1e-9)}


def test_plan_alternates_colours_and_seeds_by_pairing_not_position() -> None:
    specs = [parse_agent_spec(s) for s in ("random", "mcts:simulations=5", "random")]
    game = GameConfig("tictactoe")
    tasks = list(plan_games(game, specs, games=3, seed=9, move_timeout=None))
    assert len(tasks) == 3 * 3 == plan_size(3, 3)
    first = [t for t in tasks if t.pairing == ("random", "mcts:simulations=5")]
    assert [t.labels[0] for t in first] == ["random", "mcts:simulations=5", "random"]
    assert len({t.seeds for t in tasks}) == len(tasks)
    assert ("random", "random#2") in {t.pairing for t in tasks}  # repeated specs get a number
    fewer = list(plan_games(game, specs[1:], games=3, seed=9, move_timeout=None))
    same = {t.key: t.seeds for t in tasks}
    assert all(same[t.key] == t.seeds for t in fewer if t.key in same)


# --- tournaments --------------------------------------------------------------------


def _table_numbers(result) -> list[tuple]:
    return [(p.a, p.b, p.wins, p.draws, p.losses) for p in result.pairings]


def test_small_tournament_table_elo_and_ci_numbers() -> None:
    result = run_tournament("tictactoe", [FIRST, "random"], games=6, workers=2, seed=1)
    (pairing,) = result.pairings
    assert pairing.games == 6 == len(result.results)
    points = sum(r.score_of(FIRST) for r in result.results)
    assert pairing.score == pytest.approx(points / 6)
    assert pairing.wins + pairing.draws + pairing.losses == 6
    by_index = {r.index: r.score_of(FIRST) for r in result.results}
    pair_means = [(by_index[2 * k] + by_index[2 * k + 1]) / 2 for k in range(3)]
    kinds = [0] * 5
    for mean in pair_means:
        kinds[round(4 * mean)] += 1
    assert pairing.pairs == tuple(kinds)  # games 2k and 2k + 1 are pair k
    weights = [n + 0.5 for n in kinds]  # half a virtual pair of each kind
    mean = sum(w * k / 4 for k, w in enumerate(weights)) / sum(weights)
    variance = sum(w * (k / 4 - mean) ** 2 for k, w in enumerate(weights)) / sum(weights)
    half = 1.959963984540054 * math.sqrt(variance / 3)
    assert pairing.interval == pytest.approx((max(0, points / 6 - half), min(1, points / 6 + half)))
    smoothed = (points + 0.5) / 7
    effective = min(6, pairing.distinct) / (2 * variance / (smoothed * (1 - smoothed)))
    score = (points * effective / 6 + 0.5) / (effective + 1)
    assert result.elo[FIRST] == pytest.approx(400 * math.log10(score / (1 - score)), abs=1e-6)
    assert result.elo["random"] == 0.0 and result.anchor == "random"
    for game in result.results:  # colours alternate; the recorded games are legal and over
        assert game.players[game.index % 2] == FIRST
        record = game.to_record(result.game, result.seed)
        assert record.final_state().is_terminal()
        assert record.result == game.result
    table = result.table()
    low, high = pairing.interval
    assert f"{FIRST} vs random" in table
    assert f"{pairing.score:.3f}  [{low:.3f}, {high:.3f}]" in table
    assert f"{round(result.elo[FIRST]):+d}" in table
    assert "anchor random = 0" in table
    data = result.to_json()
    assert data["pairings"][0]["ci95"] == pytest.approx([low, high])
    assert data["elo"]["random"] == 0.0 and data["elo_anchor"] == "random"
    json.dumps(data)


@pytest.mark.slow
def test_results_do_not_depend_on_the_number_of_workers() -> None:
    agents = ["random", "mcts:simulations=20", FIRST]
    one = run_tournament("tictactoe", agents, games=2, workers=1, seed=4)
    two = run_tournament("tictactoe", agents, games=2, workers=2, seed=4)
    assert [(r.key, r.moves, r.result) for r in one.results] == [
        (r.key, r.moves, r.result) for r in two.results
    ]
    random_games = [r.moves for r in one.results if "mcts:simulations=20" not in r.pairing]
    assert len(set(random_games)) == 2  # the two games of a pairing get different seeds


def test_failing_agents_lose_and_their_errors_are_recorded() -> None:
    crashing, illegal = "arena_helpers:crashing", "arena_helpers:illegal"
    exiting, cheating = "arena_helpers:exiting", "arena_helpers:cheating"
    result = run_tournament(
        "tictactoe", [FIRST, crashing, illegal, exiting, cheating], games=1, workers=2
    )
    assert [p.wins for p in result.pairings[:4]] == [1, 1, 1, 1]  # FIRST beats all four
    errors = {}
    for game in result.results:
        assert game.error is not None and game.reason == "forfeit"
        assert game.result == f"player_{1 - game.error['player']}"
        errors.setdefault(game.error["agent"], set()).add(
            (game.error["type"], game.error["message"])
        )
    assert errors[crashing] == {("RuntimeError", "boom: this agent always fails")}
    assert errors[cheating] == {
        ("PositionTampered", "the agent changed the position during its move")
    }
    ((kind, message),) = errors[illegal]
    assert kind == "IllegalActionError" and "occupied" in message
    ((kind, message),) = errors[exiting]  # it died against FIRST, illegal and cheating
    assert kind == "WorkerDied" and "exit code 3" in message
    for game in result.results:  # every record replays: the cheater's stone is not in it
        record = game.to_record(result.game, result.seed)
        assert not record.final_state().is_terminal()
    assert "RuntimeError: boom" in result.table()
    assert result.standings[0].label == FIRST and result.standings[0].errors == 0


@pytest.mark.slow
def test_an_agent_over_the_move_timeout_loses_and_the_tournament_goes_on() -> None:
    hung, slow = "arena_helpers:sleepy:seconds=60", "arena_helpers:sleepy:seconds=0.4"
    start = time.monotonic()
    result = run_tournament("tictactoe", [FIRST, hung, slow], games=2, workers=2, move_timeout=0.25)
    assert time.monotonic() - start < 40  # the 60 s sleeper was stopped, not waited for
    errors = {agent: [r for r in result.results if r.error and r.error["agent"] == agent]
              for agent in (hung, slow)}  # fmt: skip
    # Each loses both games against FIRST and the one game of their pairing it starts.
    assert len(errors[hung]) == len(errors[slow]) == 3
    games = errors[hung] + errors[slow]
    assert all(r.reason == "timeout" and r.error["type"] == "MoveTimeout" for r in games)
    assert all("worker process was stopped" in r.error["message"] for r in errors[hung])
    assert all("more than the 0.25 s move timeout" in r.error["message"] for r in errors[slow])
    assert all(r.score_of(FIRST) == 1.0 for r in result.results if FIRST in r.players)


@pytest.mark.slow  # about 8 s
def test_resume_plays_only_missing_games_and_gives_the_same_results(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    agents = [FIRST, "random"]
    first = run_tournament("tictactoe", agents, games=2, workers=2, out=out)
    assert first.played == 2
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 2 and json.loads(lines[0])["type"] == "tournament"
    again = run_tournament("tictactoe", agents, games=2, workers=2, out=out)
    assert again.played == 0 and again.results == first.results
    more = run_tournament("tictactoe", agents, games=5, workers=2, out=out)
    assert more.played == 3
    assert out.read_text().splitlines()[:3] == lines  # finished games are not rewritten
    fresh = run_tournament("tictactoe", agents, games=5, workers=1)
    assert [(r.key, r.moves, r.result) for r in more.results] == [
        (r.key, r.moves, r.result) for r in fresh.results
    ]


def test_resume_after_a_kill_drops_the_cut_line(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_tournament("tictactoe", [FIRST, "random"], games=2, workers=1, out=out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:25])  # game 2's line cut short
    resumed = run_tournament("tictactoe", [FIRST, "random"], games=2, workers=1, out=out)
    assert resumed.played == 1
    assert len(out.read_text().splitlines()) == 3
    assert all(json.loads(line) for line in out.read_text().splitlines())


def test_results_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_tournament("tictactoe", [FIRST, "random"], games=1, workers=1, out=out)
    with pytest.raises(ArenaError, match=r"holds another tournament: its seed is 0, .* is 3"):
        run_tournament("tictactoe", [FIRST, "random"], games=1, workers=1, out=out, seed=3)
    with pytest.raises(ArenaError, match=r"its game is 'tictactoe', this run's is 'connect_n'"):
        run_tournament(GameConfig("connect_n", {"rows": 4}), [FIRST, "random"], out=out)
    with out.open("a") as stream:
        stream.write('{"type": "game", "pairing": ["a"], "index": 0, "players": [], "result": 1}\n')
    with pytest.raises(ArenaError, match=r"line 3: key 'pairing' must hold two labels, got \['a"):
        run_tournament("tictactoe", [FIRST, "random"], games=1, workers=1, out=out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(ArenaError, match=r"bad.jsonl line 1: invalid JSON"):
        run_tournament("tictactoe", [FIRST, "random"], games=1, out=bad)


def test_record_dir_saves_every_game(tmp_path: Path) -> None:
    result = run_tournament(
        GameConfig("hex", {"size": 3}), [FIRST, "random"], games=2, workers=1, record_dir=tmp_path
    )
    files = sorted(tmp_path.iterdir())
    assert [f.suffix for f in files] == [".json", ".sgf", ".json", ".sgf"]
    for game, path in zip(result.results, files[::2], strict=True):
        record = load_record(path)
        assert record.moves == game.moves and record.players == game.players
        assert load_record(path.with_suffix(".sgf")).moves == game.moves


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(ArenaError, match="at least two agents"):
        run_tournament("tictactoe", ["random"])
    with pytest.raises(ArenaError, match="'human' cannot play in the arena"):
        run_tournament("tictactoe", ["random", "human"])
    for games in (0, 10**6 + 1):
        with pytest.raises(ValueError, match=f"games must be between 1 and 1000000, got {games}"):
            run_tournament("tictactoe", ["random", "random"], games=games)
    with pytest.raises(ValueError, match="unknown key 'depth' for mcts"):
        run_tournament("tictactoe", ["random", "mcts:depth=3"])


def test_game_result_json_round_trip() -> None:
    result = GameResult(("a", "b"), 1, ("b", "a"), "player_0", moves=(4, 0), seconds=0.5)
    assert GameResult.from_json(json.loads(json.dumps(result.to_json()))) == result
    assert result.score_of("b") == 1.0 and result.score_of("a") == 0.0
    with pytest.raises(ValueError, match="missing key 'index'"):
        GameResult.from_json({"pairing": ["a", "b"], "players": ["a", "b"], "result": "draw"})


# --- the command --------------------------------------------------------------------


def _connectn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    assert executable is not None, "the connectn entry point is not installed"
    # The tests directory for the agent factories, then the code under test (not whatever
    # the connectn entry point's install points at).
    env = {**os.environ, "PYTHONPATH": pythonpath(TESTS)}
    return subprocess.run(
        [executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_connectn_arena_command_prints_the_tables(tmp_path: Path) -> None:
    done = _connectn(
        "arena", "tictactoe", FIRST, "random", "--games", "2", "--workers", "1",
        "--json", "tables.json", "--out", "games.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "tictactoe: 2 games per pairing, seed 0" in done.stdout
    assert f"{FIRST} vs random" in done.stdout
    assert "Elo" in done.stdout and "95% CI" in done.stdout
    assert "2/2 games" in done.stderr  # the progress lines
    tables = json.loads((tmp_path / "tables.json").read_text())
    assert tables["agents"] == [FIRST, "random"]
    assert tables["pairings"][0]["games"] == 2
    resumed = _connectn(
        "arena", "tictactoe", FIRST, "random", "--games", "2", "--out", "games.jsonl",
        "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed: 2 finished games read from games.jsonl, 0 played" in resumed.stdout
    assert resumed.stderr == ""


def test_connectn_arena_rejects_bad_input_before_playing(tmp_path: Path) -> None:
    done = _connectn("arena", "tictactoe", "random", "mcts:sims=5", cwd=tmp_path)
    assert done.returncode == 2
    assert "unknown key 'sims' for mcts; valid keys: simulations, time, c" in done.stderr
    done = _connectn("arena", "hex", "random", "random", "--n", "3", cwd=tmp_path)
    assert done.returncode == 2 and "--n does not apply to hex" in done.stderr
    done = _connectn("arena", "tictactoe", "random", cwd=tmp_path)
    assert done.returncode == 2 and "at least two agents" in done.stderr


def test_connectn_arena_names_a_bad_ray_address_before_any_game(tmp_path: Path, capsys) -> None:
    """It was a ValueError traceback from ray.init."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray is already running in this process: any address uses it")
    out = tmp_path / "games.jsonl"
    argv = ["arena", "tictactoe", "random:seed=1", "random:seed=2", "--games", "2"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--ray", "bogus", "--out", str(out), "--no-progress"])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == "connectn arena: error: --ray bogus: Invalid address format: bogus\n"
    assert captured.out == "" and not out.exists()


def test_progress_redraws_one_line_on_a_terminal_and_prints_lines_otherwise() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    bar = Progress(3, terminal)
    for _ in range(3):
        bar.advance()
    text = terminal.getvalue()
    assert text.startswith("\r[") and "\r[" + "#" * 24 + "] 3/3 games" in text
    assert text.count("\n") == 1 and text.endswith("\n") and "ETA" in text
    log = io.StringIO()
    bar = Progress(20, log)
    for _ in range(20):
        bar.advance()
    lines = log.getvalue().splitlines()
    assert len(lines) == 10 and lines[0].startswith("[#") and " 2/20 games" in lines[0]
    assert lines[-1].startswith("[" + "#" * 24 + "] 20/20 games")
    quiet = io.StringIO()
    Progress(5, quiet, enabled=False).advance()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(
    ("argv", "name", "params"),
    [
        (["connect_four"], "connect_four", {"rows": 6, "cols": 7, "n": 4, "gravity": True}),
        (["connect_n", "--rows", "5", "--n", "3", "--no-gravity"], "connect_n",
         {"rows": 5, "cols": 7, "n": 3, "gravity": False}),
        (["gomoku", "--size", "9", "--rule", "standard"], "gomoku",
         {"rows": 9, "cols": 9, "rule": "standard"}),
        (["gomoku", "--rows", "7"], "gomoku", {"rows": 7, "cols": 15, "rule": "freestyle"}),
        (["hex", "--size", "7", "--swap"], "hex", {"rows": 7, "cols": 7, "swap": True}),
        (["hex", "--rows", "4", "--cols", "6"], "hex", {"rows": 4, "cols": 6, "swap": False}),
    ],
)  # fmt: skip
def test_game_options_build_the_game(argv: list[str], name: str, params: dict) -> None:
    args = build_parser().parse_args(["arena", *argv, "random", "random"])
    assert game_config_from_args(args) == GameConfig(name, params)


def test_play_and_replay_options_reach_their_namespace() -> None:
    args = build_parser().parse_args(["play", "hex", "--size", "5", "--ai-first"])
    assert str(args.opponent) == "mcts:time=1" and args.human_first is False
    assert (args.seed, args.ui, args.record) == (None, "auto", None)
    args = build_parser().parse_args(["replay", "game.sgf", "--ui", "terminal"])
    assert (args.file, args.ui) == (Path("game.sgf"), "terminal")


def test_replay_of_a_malformed_file_exits_with_the_message(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text("(;GM[11]SZ[5];B[a1];W[a1])")
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(path), "--ui", "terminal"])
    assert exit_info.value.code == 2
    assert "bad.sgf line 1: W[a1] is illegal" in capsys.readouterr().err
