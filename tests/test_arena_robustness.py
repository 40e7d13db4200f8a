"""The arena under a hostile test: kills, cheaters, corrupt results files, huge plans,
long labels, bad specs and arguments. Nothing lost, nothing left running, nothing cheats.

Agents from ``tests/arena_helpers.py`` are named by ``module:callable`` specs.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import random
import shutil
import signal
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
    ResultsFile,
    TournamentResult,
    elo_intervals,
    elo_ratings,
    plan_games,
    run_tournament,
)
from connectn_env.arena.plan import plan_size
from connectn_env.arena.pool import play_games
from connectn_env.arena.results import cut_partial_line
from connectn_env.arena.tournament import MAX_GAMES
from connectn_env.arena.worker import MAX_MESSAGE_LENGTH
from connectn_env.cli import main
from connectn_env.records import GameConfig, load_record
from connectn_env.specs import parse_agent_spec

TESTS = Path(__file__).parent
FIRST = "arena_helpers:first_legal"
HEADER = {"game": "tictactoe", "params": GameConfig("tictactoe").params, "seed": 0}
HEADER["move_timeout"] = None
LINUX = sys.platform.startswith("linux")


def _results_file(tmp_path: Path, games: int = 4) -> Path:
    out = tmp_path / "results.jsonl"
    run_tournament("tictactoe", [FIRST, "random"], games=games, workers=1, out=out)
    return out


# --- the results file -----------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "fork"), reason="kills a forked child at chosen points")
def test_killing_the_repair_at_any_point_loses_no_finished_game(tmp_path: Path) -> None:
    """A resumed run repairs a partial last line; SIGKILL it at every point from its first
    write to the file on: the finished games must always be there."""
    out = _results_file(tmp_path)
    complete = out.read_bytes()
    partial = complete + b'{"type": "game", "pairing": ["arena_hel'
    ResultsFile(out, HEADER)  # loads the compiled rules here, so that every child starts warm
    outcomes = set()
    for kill_at in itertools.count():
        out.write_bytes(partial)
        pid = os.fork()
        if pid == 0:  # the child: resume, and die at the kill_at-th event of the repair
            _resume_and_die_at(out, kill_at)
        _, status = os.waitpid(pid, 0)
        data = out.read_bytes()
        assert data in (partial, complete), f"killed at event {kill_at}: {len(data)} bytes left"
        outcomes.add(data)
        if os.WIFEXITED(status):
            assert os.WEXITSTATUS(status) == 0 and data == complete
            break
        assert os.WTERMSIG(status) == signal.SIGKILL
    assert outcomes == {partial, complete}  # killed before and after the cut
    assert kill_at >= 2


def _resume_and_die_at(path: Path, kill_at: int) -> None:
    """Open ``path`` as a results file; SIGKILL this process at the ``kill_at``-th Python
    event after the first operation that can change the file (0: at that operation)."""
    armed, events = [False], [0]

    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    def audit(event: str, args: tuple) -> None:
        # an operation on the results file itself (not on its lock file beside it)
        named = {str(arg) for arg in args[:2] if isinstance(arg, str | bytes | os.PathLike)}
        writes = str(path) in named and event in (
            "os.truncate",
            "os.rename",
            "os.replace",
            "os.remove",
            "shutil.move",
        )
        if event == "open" and str(args[0]) == str(path):
            mode, flags = args[1] or "", args[2] or 0
            writes = any(c in mode for c in "wax+") or bool(flags & (os.O_WRONLY | os.O_RDWR))
        if writes and not armed[0]:
            armed[0] = True
            if kill_at == 0:
                die()

    def profile(frame, event, arg) -> None:
        if armed[0]:
            events[0] += 1
            if events[0] == kill_at:
                die()

    try:
        sys.addaudithook(audit)
        sys.setprofile(profile)
        ResultsFile(path, HEADER)
        sys.setprofile(None)
    except BaseException:
        os._exit(1)
    os._exit(0)


def test_cut_partial_line_truncates_at_the_last_newline(tmp_path: Path) -> None:
    path = tmp_path / "f"
    for content, kept in ((b"a\nbc", b"a\n"), (b"a\n", b"a\n"), (b"", b""), (b"abc", b"")):
        path.write_bytes(content)
        assert cut_partial_line(path) == len(content) - len(kept)
        assert path.read_bytes() == kept
    long_tail = b"x\n" + b"y" * 200_000  # found by reading backwards in chunks
    path.write_bytes(long_tail)
    cut_partial_line(path)
    assert path.read_bytes() == b"x\n"


def test_a_non_utf8_results_file_names_the_file_and_line(tmp_path: Path) -> None:
    out = _results_file(tmp_path, games=2)
    lines = out.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"date": "', b'"date": "\xff')
    out.write_bytes(b"\n".join(lines))
    with pytest.raises(ArenaError, match=r"results\.jsonl line 3: not UTF-8 text \(byte 0xff"):
        run_tournament("tictactoe", [FIRST, "random"], games=2, workers=1, out=out)


GOOD_LINE = {
    "type": "game",
    "pairing": [FIRST, "random"],
    "index": 0,
    "players": [FIRST, "random"],
    "result": "draw",
    "moves": [0, 1, 2, 4, 3, 5, 7, 6, 8],
}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"index": "0"}, r"key 'index' must be an integer >= 0, got '0'"),
        ({"index": True}, r"key 'index' must be an integer >= 0, got True"),
        ({"index": -1}, r"key 'index' must be an integer >= 0"),
        ({"result": "player_7"}, r"key 'result' must be player_0, player_1 or draw"),
        ({"reason": 3}, r"key 'reason' must be one of"),
        ({"moves": [0, 1.7]}, r"key 'moves' must be a list of integers"),
        ({"moves": [2**63]}, r"move 1: action 9223372036854775808 is outside the action space"),
        ({"moves": [0, 0]}, r"move 2: action 0 is illegal"),
        ({"moves": [0, 3, 1], "result": "player_0"}, r"result 'player_0' is not what the"),
        ({"result": "player_0"}, r"result 'player_0' contradicts the final position \(draw\)"),
        ({"seconds": "fast"}, r"key 'seconds' must hold numbers of seconds"),
        ({"max_move_seconds": [1]}, r"key 'max_move_seconds' must hold two numbers"),
        ({"error": {"player": 0}}, r"key 'error' must be null or"),
        ({"date": 5}, r"key 'date': date must be a string"),
        ({"players": ["random", "random"]}, r"players \['random', 'random'\] do not match"),
    ],
)
def test_a_malformed_results_line_is_refused_with_its_number(
    tmp_path: Path, changes: dict, message: str
) -> None:
    out = _results_file(tmp_path, games=1)
    with out.open("a") as stream:
        stream.write(json.dumps({**GOOD_LINE, "index": 1, **changes}) + "\n")
    with pytest.raises(ArenaError, match=rf"results\.jsonl line 3: {message}"):
        run_tournament("tictactoe", [FIRST, "random"], games=2, workers=1, out=out)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"x": ' + "9" * 5000 + "}", r"line 2: invalid JSON \(.*4300"),
        ("[" * 100_000 + "]" * 100_000, r"line 2: invalid JSON \(.*recursion"),
        ("x" * 1_100_000, r"line 2: longer than 1,048,576 bytes"),
    ],
    ids=["5000 digits", "deep", "long"],
)
def test_hostile_results_lines_are_refused(tmp_path: Path, line: str, message: str) -> None:
    out = tmp_path / "results.jsonl"
    out.write_text(json.dumps({"type": "tournament", **HEADER}) + "\n" + line + "\n")
    with pytest.raises(ArenaError, match=message):
        ResultsFile(out, HEADER)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs need a POSIX system")
def test_out_must_be_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path, Path(os.devnull)):
        with pytest.raises(ArenaError, match="not a regular file; --out needs a results file"):
            run_tournament("tictactoe", [FIRST, "random"], games=1, workers=1, out=path)


# --- cheaters, failures, bad specs ------------------------------------------------------


def test_a_cheater_forfeits_and_its_position_is_not_recorded(tmp_path: Path) -> None:
    result = run_tournament(
        "tictactoe", ["arena_helpers:cheating", FIRST], games=2, workers=1, record_dir=tmp_path
    )
    for game in result.results:
        assert game.error["type"] == "PositionTampered" and game.reason == "forfeit"
        assert game.error["agent"] == "arena_helpers:cheating"
        assert game.score_of(FIRST) == 1.0
    for path in tmp_path.glob("*.json"):
        record = load_record(path)  # replayed through the rules: the forged stones are not in it
        assert record.result != "unfinished" and not record.final_state().is_terminal()


def test_a_spec_that_builds_no_agent_stops_the_run_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    cases = {
        "arena_helpers:broken_factory": r"cannot be built: ValueError: cannot build this agent",
        "arena_helpers:not_an_agent": r"cannot be built: TypeError: .* returned 42",
    }
    for spec, message in cases.items():
        with pytest.raises(ArenaError, match=rf"agent '{spec}' {message}"):
            run_tournament("tictactoe", [FIRST, spec], games=1, out=out)
    assert not out.exists()


def test_an_agents_error_message_is_cut_and_printed_escaped() -> None:
    result = run_tournament("tictactoe", ["arena_helpers:loud", FIRST], games=1, workers=1)
    (game,) = result.results
    message = game.error["message"]
    assert len(message) == MAX_MESSAGE_LENGTH and message.endswith("...")
    assert message.startswith("\x1b[2J")  # kept as it was in the results...
    table = result.table()
    assert "\x1b" not in table and "\x07" not in table
    assert "RuntimeError: \\x1b[2J\\x1b]0;pwned\\x07xxx" in table  # ...printed escaped


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-1"], r"argument --seed: must be at least 0, got -1"),
        (["--seed", "１"], r"argument --seed: expected an integer, got '１'"),
        (["--move-timeout", "inf"], r"argument --move-timeout: must be a finite number"),
        (["--move-timeout", "nan"], r"argument --move-timeout: must be a finite number"),
        (["--move-timeout", "0"], r"argument --move-timeout: must be a finite number"),
        (["--move-timeout", "1e9"], r"at most 86400"),
        (["--workers", "100000"], r"argument --workers: must be from 1 to 256"),
        (["--games", "0"], r"argument --games: must be from 1 to 1000000, got 0"),
        (["--games", "1000001"], r"argument --games: must be from 1 to 1000000, got 1000001"),
        (["--games", "9" * 20], r"argument --games: must be from 1 to 1000000, got 9{20}$"),
        (["--games", "9" * 40], r"argument --games: expected an integer"),
    ],
)
def test_bad_arena_arguments_are_argparse_errors(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "tictactoe", "random", "random", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert re_search(message, err)


def re_search(pattern: str, text: str) -> bool:
    import re

    return re.search(pattern, text) is not None


def test_help_says_that_a_spec_runs_code(capsys) -> None:
    for command in ("arena", "play"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "A spec runs code" in " ".join(capsys.readouterr().out.split())


# --- huge plans and long labels ---------------------------------------------------------


def test_the_plan_is_streamed() -> None:
    specs = [parse_agent_spec(s) for s in ("random", FIRST, "random")]
    start = time.perf_counter()
    tasks = plan_games(GameConfig("tictactoe"), specs, games=10**14, seed=0, move_timeout=None)
    first = list(itertools.islice(tasks, 3))
    assert time.perf_counter() - start < 1 and [t.index for t in first] == [0, 1, 2]
    assert plan_size(3, 10**14) == 3 * 10**14


def test_play_games_takes_tasks_only_as_workers_free_up() -> None:
    specs = [parse_agent_spec(s) for s in (FIRST, "random")]
    plan = list(plan_games(GameConfig("tictactoe"), specs, games=2, seed=0, move_timeout=None))
    pulled = []

    def endless():
        for task in itertools.cycle(plan):
            pulled.append(task)
            yield task

    results = play_games(endless(), workers=2)
    assert len([next(results) for _ in range(3)]) == 3
    results.close()
    assert len(pulled) <= 3 + 2


def test_long_labels_give_short_unique_file_names_with_the_game(tmp_path: Path) -> None:
    long_a = f"arena_helpers:padded:pad={'x' * 300}a"
    long_b = f"arena_helpers:padded:pad={'x' * 300}b"
    result = run_tournament(
        "tictactoe", [long_a, long_b, "random"], games=1, workers=1, record_dir=tmp_path
    )
    names = sorted(path.name for path in tmp_path.iterdir())
    assert len(names) == len(result.results) == 3
    assert all(len(name.encode()) <= 255 and name.startswith("tictactoe-") for name in names)
    assert "tictactoe-random" not in names[0]  # the pairings keep their order in the name
    assert all(load_record(tmp_path / name).moves for name in names)


def test_short_labels_name_game_agents_and_number(tmp_path: Path) -> None:
    run_tournament("tictactoe", ["mcts:simulations=20", "random"], games=1, record_dir=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [
        "tictactoe-mcts_simulations=20-vs-random-0000.json"
    ]


# --- Elo intervals ----------------------------------------------------------------------


def _pairing(a: str, b: str, wins: int, draws: int, losses: int) -> PairingStats:
    return PairingStats(a, b, wins, draws, losses, 0, 0)


def test_elo_interval_of_two_agents_has_the_closed_form() -> None:
    # One pairing of N games plus one virtual draw: the Fisher information of the log-
    # strength difference is (N + 1) p (1 - p), p the fitted score.
    for wins, draws, losses in ((4, 0, 0), (3, 1, 6), (10, 0, 0), (50, 10, 40)):
        pairings = [_pairing("x", "random", wins, draws, losses)]
        elo = elo_ratings(["x", "random"], pairings)
        n = wins + draws + losses + 1
        p = (wins + draws / 2 + 0.5) / n
        half = 1.959963984540054 * 400 / math.log(10) / math.sqrt(n * p * (1 - p))
        intervals = elo_intervals(["x", "random"], pairings, elo)
        assert intervals["random"] == (0.0, 0.0)
        assert intervals["x"] == pytest.approx((elo["x"] - half, elo["x"] + half), abs=1e-6)


def test_two_agents_with_the_same_capped_rating_get_wide_intervals() -> None:
    # The case of the issue: a and b both beat random 10-0 and drew 5-5 with each other;
    # both show the same rating, the intervals say how little that means.
    labels = ["a", "b", "random", "c"]
    pairings = [
        _pairing("a", "b", 5, 0, 5),
        _pairing("a", "random", 10, 0, 0),
        _pairing("b", "random", 10, 0, 0),
        _pairing("a", "c", 0, 0, 0),
        _pairing("b", "c", 0, 0, 0),
        _pairing("random", "c", 0, 0, 0),
    ]
    elo = elo_ratings(labels, pairings)
    intervals = elo_intervals(labels, pairings, elo)
    assert elo["a"] == pytest.approx(elo["b"]) and elo["a"] > 400
    low, high = intervals["a"]
    assert low < elo["a"] - 200 and high > elo["a"] + 200
    assert intervals["a"] == pytest.approx(intervals["b"])
    assert math.isnan(intervals["c"][0])  # no games
    more = [_pairing("a", "b", 500, 0, 500), *pairings[1:]]  # a and b known to be equal
    narrower = elo_intervals(labels, more, elo_ratings(labels, more))["a"]
    assert narrower[1] - narrower[0] < high - low


def test_agents_never_linked_to_the_anchor_get_an_unbounded_interval() -> None:
    labels = ["a", "b", "random", "c"]
    pairings = [
        _pairing("a", "b", 3, 0, 1),
        _pairing("a", "random", 0, 0, 0),
        _pairing("a", "c", 0, 0, 0),
        _pairing("b", "random", 0, 0, 0),
        _pairing("b", "c", 0, 0, 0),
        _pairing("random", "c", 2, 0, 2),
    ]
    intervals = elo_intervals(labels, pairings, elo_ratings(labels, pairings))
    assert intervals["a"] == intervals["b"] == (-math.inf, math.inf)
    assert all(math.isfinite(v) for v in intervals["c"])


def test_elo_intervals_are_in_the_table_and_the_json() -> None:
    results = tuple(
        GameResult((FIRST, "random"), i, (FIRST, "random")[:: 1 - 2 * (i % 2)], "draw")
        for i in range(4)
    )
    result = TournamentResult(GameConfig("tictactoe"), (FIRST, "random"), results, 4, 0, None, 4)
    low, high = result.elo_intervals[FIRST]
    assert low < 0 < high and result.elo_intervals["random"] == (0.0, 0.0)
    table = result.table()
    assert f"[{low:+.0f}, {high:+.0f}]" in table and "anchor" in table
    assert "Elo 95% CI: rating +- 1.96 standard errors from the Fisher information" in table
    data = result.to_json()
    assert data["elo_ci95"][FIRST] == pytest.approx([low, high])
    assert data["standings"][0]["elo_ci95"] is not None
    json.dumps(data, allow_nan=False)


# --- kills: nothing left running ---------------------------------------------------------


def _connectn(*args: str, cwd: Path, extra_env: dict[str, str]) -> subprocess.Popen:
    """Start ``connectn`` with stdout and stderr in files of ``cwd`` (not pipes, which a
    surviving worker would hold open)."""
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    assert executable is not None, "the connectn entry point is not installed"
    env = {**os.environ, **extra_env, "PYTHONPATH": pythonpath(TESTS)}
    with open(cwd / "stdout.txt", "w") as stdout, open(cwd / "stderr.txt", "w") as stderr:
        return subprocess.Popen([executable, *args], cwd=cwd, env=env, stdout=stdout, stderr=stderr)


def _stop_all(process: subprocess.Popen, children: set[int]) -> None:
    """Kill whatever is still running of the test's processes (after a failure)."""
    for pid in [process.pid, *children]:
        if _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    process.wait(timeout=30)


def _children(pid: int) -> set[int]:
    """Process ids of every descendant of ``pid`` (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), [pid]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found.add(child)
                frontier.append(child)
    return found


def _alive(pid: int) -> bool:
    """True if ``pid`` runs (a zombie waiting for its reaper is dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
@pytest.mark.parametrize("kill", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_no_worker_survives_a_killed_arena(tmp_path: Path, kill: int) -> None:
    """Two workers spin a core each in an agent that never answers (a 60 s move timeout);
    the arena is killed: every process it started must end."""
    spinning = "arena_helpers:spinning"
    process = _connectn(
        "arena", "tictactoe", spinning, "random", "--games", "4", "--workers", "2",
        "--move-timeout", "60", "--no-progress", cwd=tmp_path,
        extra_env={"CONNECTN_TEST_PID_DIR": str(tmp_path)},
    )  # fmt: skip
    children: set[int] = set()
    try:
        assert _wait_for(lambda: len(list(tmp_path.glob("*.pid"))) == 2, 120), "no spinning"
        children = _children(process.pid)
        spinners = {int(p.stem) for p in tmp_path.glob("*.pid")}
        assert spinners <= children and all(_alive(pid) for pid in spinners)
        process.send_signal(kill)
        code = process.wait(timeout=30)
        assert _wait_for(lambda: not any(_alive(pid) for pid in children), 15), [
            pid for pid in children if _alive(pid)
        ]
        if kill == signal.SIGTERM:
            assert code == 128 + signal.SIGTERM
            assert "terminated" in (tmp_path / "stderr.txt").read_text()
    finally:
        _stop_all(process, children | _children(process.pid))


@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
def test_a_huge_games_count_starts_at_once_and_sigterm_keeps_the_games(tmp_path: Path) -> None:
    process = _connectn(
        "arena", "tictactoe", FIRST, "random", "--games", str(MAX_GAMES), "--workers", "1",
        "--out", "games.jsonl", "--no-progress", cwd=tmp_path, extra_env={},
    )  # fmt: skip
    out = tmp_path / "games.jsonl"
    children: set[int] = set()
    try:
        played = lambda: out.exists() and out.read_text().count("\n") >= 6  # noqa: E731
        assert _wait_for(played, 120), (tmp_path / "stderr.txt").read_text()
        children = _children(process.pid)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 128 + signal.SIGTERM
        assert _wait_for(lambda: not any(_alive(pid) for pid in children), 15)
    finally:
        _stop_all(process, children | _children(process.pid))
    lines = out.read_text().splitlines()
    assert all(json.loads(line) for line in lines[:-1])  # every finished game is readable
    resumed = ResultsFile(out, HEADER)
    assert len(resumed.finished) >= 5


@pytest.mark.slow
@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
def test_arena_record_killed_again_and_again_keeps_every_record(tmp_path: Path) -> None:
    """``connectn arena --record`` SIGKILLed three times while it plays, at a random moment
    once games come; each run resumes the last. After every kill, and at the end, every game
    with a results line has its record: JSON and SGF read back whole, the same moves."""
    from test_arena_records import check_records

    games, out, records = 150, tmp_path / "games.jsonl", tmp_path / "records"
    argv = ["arena", "hex", "--size", "3", FIRST, "random", "--games", str(games)]
    argv += ["--workers", "1", "--out", out.name, "--record", records.name, "--no-progress"]
    chance = random.Random(25)
    finished: list[GameResult] = []
    for _ in range(3):
        process = _connectn(*argv, cwd=tmp_path, extra_env={})
        children: set[int] = set()
        try:
            lines = len(finished) + 4  # the header and three new games
            assert _wait_for(lambda n=lines: _has_lines(out, n), 120), (
                tmp_path / "stderr.txt"
            ).read_text()
            time.sleep(chance.uniform(0.0, 0.05))
            children = _children(process.pid)
            process.kill()
            assert process.wait(timeout=30) == -signal.SIGKILL
            assert _wait_for(lambda pids=children: not any(_alive(p) for p in pids), 15)
        finally:
            _stop_all(process, children | _children(process.pid))
        finished = check_records(out, records)
        assert len(finished) < games  # killed before the end
    process = _connectn(*argv, cwd=tmp_path, extra_env={})
    try:
        assert process.wait(timeout=300) == 0, (tmp_path / "stderr.txt").read_text()
    finally:
        _stop_all(process, _children(process.pid))
    assert sorted(r.index for r in check_records(out, records)) == list(range(games))
    assert len(list(records.iterdir())) == 2 * games  # no temporary file left


def _has_lines(path: Path, count: int) -> bool:
    return path.exists() and path.read_bytes().count(b"\n") >= count


def test_a_results_file_of_another_tournament_is_refused_naming_the_option_given(
    tmp_path: Path,
) -> None:
    """``evaluate --results`` said "use another --out file" (the arena's option)."""
    path = tmp_path / "games.jsonl"
    ResultsFile(path, HEADER, option="--results").close()
    with pytest.raises(ArenaError, match=r"its seed is 0, this run's is 1; use another --results"):
        ResultsFile(path, {**HEADER, "seed": 1}, option="--results")
    with pytest.raises(ArenaError, match=r"its seed is 0, this run's is 1; use another --out"):
        ResultsFile(path, {**HEADER, "seed": 1})
