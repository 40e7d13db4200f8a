"""``--record`` loses nothing: each record is written atomically before the game's results
line, and a resumed run writes again every finished game's record that is missing or
damaged. Killed at every write of the arena's parent, stopped by a full disk: every game
with a results line has its record, whole (JSON and SGF read back, the moves replayed).

Agents from ``tests/arena_helpers.py`` are named by ``module:callable`` specs.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from connectn_env import atomic_write
from connectn_env.arena import ArenaError, GameResult, run_tournament, tournament
from connectn_env.arena.plan import GameTask, plan_games
from connectn_env.arena.recorder import record_stem
from connectn_env.arena.worker import play_game
from connectn_env.records import GameConfig, load_record, save_record
from connectn_env.specs import parse_agent_spec

FIRST = "arena_helpers:first_legal"
HEX3 = GameConfig("hex", {"size": 3})
AGENTS = [FIRST, "random"]


def check_records(out: Path, records: Path, game: GameConfig = HEX3) -> list[GameResult]:
    """Every game line of ``out`` has its JSON and SGF record, both read back whole and
    holding that game; no temporary file is left beside a finished game's record."""
    lines = out.read_text().splitlines()[1:]
    results = [GameResult.from_json(json.loads(line)) for line in lines]
    for result in results:
        stem = record_stem(game, result)
        for suffix in (".json", ".sgf"):
            path = records / f"{stem}{suffix}"
            assert path.is_file(), f"game {result.index}: no {path.name}"
            record = load_record(path)  # parsed, every move replayed through the rules
            assert (record.moves, record.result, record.players) == (
                result.moves,
                result.result,
                result.players,
            ), path.name
            assert not atomic_write.leftover_temporaries(path)
        assert load_record(records / f"{stem}.json").meta["index"] == result.index
    return results


def _tournament(out: Path, records: Path, games: int = 4, **options) -> object:
    return run_tournament(
        HEX3, AGENTS, games=games, workers=1, out=out, record_dir=records, **options
    )


def test_resume_writes_again_the_records_that_are_missing_or_damaged(tmp_path: Path) -> None:
    out, records = tmp_path / "games.jsonl", tmp_path / "records"
    first = _tournament(out, records, games=5)
    assert first.played == 5 and first.rerecorded == 0
    stems = [record_stem(HEX3, r) for r in first.results]
    (records / f"{stems[0]}.json").unlink()  # a record lost (the kill of the issue)
    (records / f"{stems[1]}.json").write_text("")  # the full disk of the issue:
    (records / f"{stems[1]}.sgf").unlink()  # an empty .json and no .sgf
    (records / f"{stems[2]}.sgf").write_text("(;FF[4]GM[11]SZ[3];B[zz])")  # garbage
    other = load_record(records / f"{stems[4]}.json")  # a valid record of another game
    (records / f"{stems[3]}.json").write_text((records / f"{stems[4]}.json").read_text())
    resumed = _tournament(out, records, games=5)
    assert resumed.played == 0 and resumed.rerecorded == 4
    check_records(out, records)
    assert load_record(records / f"{stems[4]}.json") == other  # the intact ones untouched
    again = _tournament(out, records, games=5)
    assert again.rerecorded == 0


def test_the_command_says_how_many_records_it_wrote_again(tmp_path: Path, capsys) -> None:
    from connectn_env.cli import main

    argv = ["arena", "hex", "--size", "3", FIRST, "random", "--games", "2", "--workers", "1"]
    argv += ["--out", str(tmp_path / "g.jsonl"), "--record", str(tmp_path), "--no-progress"]
    assert main(argv) == 0
    for path in tmp_path.glob("*.sgf"):
        path.unlink()
    capsys.readouterr()
    assert main(argv) == 0
    assert f"2 missing or damaged records of finished games written again in {tmp_path}" in (
        capsys.readouterr().out
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="fills the disk with /dev/full")
@pytest.mark.parametrize("full_at", [5, 6], ids=["game 3's sgf", "game 3's json"])
def test_a_full_disk_loses_no_record_and_the_resumed_run_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_at: int
) -> None:
    """The disk fills up while the third game's record is written: the run stops with the
    error, the two games before are whole, the third has no results line and no file
    left; the resumed run plays it."""
    out, records = tmp_path / "games.jsonl", tmp_path / "records"
    writes = itertools.count(1)
    create = atomic_write._create_temporary

    def full_disk_at_one_write(path: Path) -> tuple[int, Path]:
        descriptor, temporary = create(path)
        if next(writes) == full_at:  # each game writes its .sgf, then its .json
            os.close(descriptor)
            descriptor = os.open("/dev/full", os.O_WRONLY)  # every write: ENOSPC
        return descriptor, temporary

    monkeypatch.setattr(tournament, "play_games", _play_here)
    monkeypatch.setattr(atomic_write, "_create_temporary", full_disk_at_one_write)
    with pytest.raises(OSError, match="No space left on device"):
        _tournament(out, records, games=4)
    assert len(check_records(out, records)) == 2
    names = [p.name for p in records.iterdir()]
    assert len(names) == 4 + (full_at == 6) and not any(n.endswith(".tmp") for n in names)
    monkeypatch.setattr(atomic_write, "_create_temporary", create)
    resumed = _tournament(out, records, games=4)
    assert resumed.played == 2 and resumed.rerecorded == 0
    assert len(check_records(out, records)) == 4


def test_a_record_of_another_tournament_is_left_alone(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(tournament, "play_games", _play_here)
    records = tmp_path / "records"
    first = run_tournament(HEX3, AGENTS, games=1, workers=1, record_dir=records)
    path = records / f"{record_stem(HEX3, first.results[0])}.json"
    before = path.read_bytes()
    with pytest.raises(
        ArenaError, match=r"holds the record of another tournament's game \(hex, .* seed 0\)"
    ):
        run_tournament(HEX3, AGENTS, games=1, workers=1, record_dir=records, seed=7)
    assert path.read_bytes() == before
    again = run_tournament(HEX3, AGENTS, games=1, workers=1, record_dir=records)
    assert again.played == 1 and path.read_bytes() == before  # the same game: replaced


def test_a_saved_record_is_written_atomically(tmp_path: Path, monkeypatch) -> None:
    """``save_record`` (``connectn play --record``) too: a failed write leaves no part."""
    monkeypatch.setattr(tournament, "play_games", _play_here)
    record = load_record(_one_record(tmp_path / "one"))

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_write.os, "fsync", fail)  # the disk fills up
    with pytest.raises(OSError, match="No space left"):
        save_record(record, tmp_path / "two", stem="game")
    assert os.listdir(tmp_path / "two") == []


def _one_record(directory: Path) -> Path:
    run_tournament(HEX3, AGENTS, games=1, workers=1, record_dir=directory, seed=3)
    return next(directory.glob("*.json"))


# --- SIGKILL at every write ---------------------------------------------------------------


def _play_here(tasks: Iterable[GameTask], workers: int) -> Iterator[GameResult]:
    """The games played in this process (no worker to spawn per run), as ``play_games``
    yields them: what the parent does with them is what is under test."""
    for task in tasks:
        data = play_game(task, lambda message: None)
        yield GameResult.of_played_game(task, data)


def _run_and_die_at(kill_at: int, out: Path, records: Path, games: int) -> None:
    """In a forked child: run the tournament, SIGKILL this process just before its
    ``kill_at``-th change to a file under ``out``'s folder (a file opened for writing, a
    rename, a truncation, a removal)."""
    folder, changes = str(out.parent), [0]

    def audit(event: str, args: tuple) -> None:
        if event == "open":
            path, mode, flags = str(args[0]), args[1] or "", args[2] or 0
            writes = any(c in mode for c in "wax+") or bool(flags & (os.O_WRONLY | os.O_RDWR))
        else:
            writes = event in ("os.rename", "os.truncate", "os.remove", "os.mkdir")
            path = str(args[0]) if args else ""
        if writes and path.startswith(folder):
            changes[0] += 1
            if changes[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    try:
        tournament.play_games = _play_here
        sys.addaudithook(audit)
        _tournament(out, records, games=games)
    except BaseException:
        os._exit(1)
    os._exit(0)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="kills forked children at chosen points")
def test_sigkill_at_every_write_keeps_every_finished_games_record(tmp_path: Path) -> None:
    """Kill the arena just before its 1st, 2nd, 3rd... change to a file, each run resuming
    where the last one died, until a run ends by itself. After every kill, every game with
    a results line has both record files whole; at the end all games are there."""
    out, records, games = tmp_path / "games.jsonl", tmp_path / "records", 6
    specs = [parse_agent_spec(spec) for spec in AGENTS]
    warm_up = plan_games(HEX3, specs, games=1, seed=0, move_timeout=None)
    list(_play_here(warm_up, 1))  # the compiled rules loaded here, for every child
    seen = {"recorded, no results line": 0, "temporary file left": 0}
    for kill_at in itertools.count(1):
        pid = os.fork()
        if pid == 0:
            _run_and_die_at(kill_at, out, records, games)
        _, status = os.waitpid(pid, 0)
        finished = check_records(out, records) if out.exists() else []
        jsons = list(records.glob("*.json")) if records.exists() else []
        seen["recorded, no results line"] += len(jsons) > len(finished)
        seen["temporary file left"] += any(records.glob(".*.tmp")) if records.exists() else 0
        if os.WIFEXITED(status):
            assert os.WEXITSTATUS(status) == 0
            break
        assert os.WTERMSIG(status) == signal.SIGKILL
    assert len(finished) == games and kill_at > games
    assert sorted(r.index for r in finished) == list(range(games))
    assert not list(records.glob(".*.tmp")) and len(list(records.iterdir())) == 2 * games
    assert all(count > 0 for count in seen.values()), seen  # the kills hit both windows
