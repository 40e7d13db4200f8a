"""Every output path of ``connectn arena`` is checked before the first game: a ``--json``
that is a directory, a ``--record`` that is a file or a FIFO... is a ``connectn arena:
error`` naming the path and what is wrong, with no game played and nothing written (it was
found only after every game, the tables printed and then ``[Errno 21]``)."""

from __future__ import annotations

import errno
import os
import re
import tempfile
from pathlib import Path

import pytest

from connectn_env.arena import ArenaError, run_tournament, tournament
from connectn_env.arena.outputs import check_output_directory, check_output_file
from connectn_env.cli import main

FIRST = "arena_helpers:first_legal"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs need a POSIX system")


def _paths(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("mine\n")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
    return {"folder": tmp_path / "folder", "file": tmp_path / "file.txt", "fifo": tmp_path / "fifo"}


CASES = [
    ("--json", "folder", r"{folder} is a directory, not a regular file; --json needs a file"),
    ("--json", "fifo", r"{fifo} is a FIFO \(named pipe\), not a regular file; --json needs"),
    ("--json", "file.txt/t.json", r"--json {file}/t.json: {file} is a regular file, "),
    ("--record", "file.txt", r"{file} is a regular file, not a directory; --record needs"),
    ("--record", "fifo", r"{fifo} is a FIFO \(named pipe\), not a directory; --record needs"),
    ("--record", "file.txt/games", r"--record {file}/games: {file} is a regular file"),
    ("--out", "folder", r"{folder} is a directory, not a regular file; --out needs a results"),
    ("--out", "file.txt/g.jsonl", r"--out {file}/g.jsonl: {file} is a regular file, "),
]


@needs_fifo
@pytest.mark.parametrize(("option", "name", "message"), CASES)
def test_a_bad_output_path_stops_the_command_before_the_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture, option: str, name: str, message: str
) -> None:
    paths = _paths(tmp_path)
    target = tmp_path / name
    out = tmp_path / "games.jsonl"
    argv = ["arena", "tictactoe", FIRST, "random", "--games", "1", "--workers", "1"]
    argv += ["--no-progress", option, str(target)]
    if option != "--out":
        argv += ["--out", str(out)]
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    captured = capsys.readouterr()
    expected = message.format(**{key: re.escape(str(path)) for key, path in paths.items()})
    assert captured.err.startswith("connectn arena: error: ")
    assert re.search(expected, captured.err), captured.err
    assert captured.out == ""  # no table: no game was played
    assert sorted(os.listdir(tmp_path)) == before and paths["file"].read_text() == "mine\n"


def test_json_and_out_cannot_name_the_same_file(tmp_path: Path, capsys) -> None:
    argv = ["arena", "tictactoe", FIRST, "random", "--games", "1", "--no-progress"]
    argv += ["--out", str(tmp_path / "g.jsonl"), "--json", str(tmp_path / "." / "g.jsonl")]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "--out and --json both name" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


@needs_fifo
def test_run_tournament_checks_its_paths_before_the_first_game(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    out = tmp_path / "games.jsonl"
    for record_dir in (paths["file"], paths["fifo"]):
        with pytest.raises(ArenaError, match="not a directory; --record needs a directory"):
            run_tournament("tictactoe", [FIRST, "random"], out=out, record_dir=record_dir)
    assert not out.exists()


def test_missing_folders_are_created_for_every_output(tmp_path: Path) -> None:
    """A path whose folders do not exist yet is fine: they are made when written."""
    deep = tmp_path / "a" / "b"
    argv = ["arena", "tictactoe", FIRST, "random", "--games", "1", "--workers", "1"]
    argv += ["--no-progress", "--out", str(deep / "g.jsonl"), "--json", str(deep / "t.json")]
    argv += ["--record", str(deep / "games")]
    assert main(argv) == 0
    assert sorted(os.listdir(deep)) == ["g.jsonl", "games", "t.json"]
    assert len(os.listdir(deep / "games")) == 1


PROC_FILE = Path("/proc/version")


@pytest.mark.skipif(not PROC_FILE.is_file(), reason="needs Linux's /proc/version")
@pytest.mark.parametrize("option", ["--json", "--out"])
def test_a_file_that_takes_no_write_stops_the_command_before_the_first_game(
    capsys: pytest.CaptureFixture, option: str
) -> None:
    """/proc/version is a regular file that root may open for writing, but no write goes in
    and /proc takes no temporary file beside it: --json failed after every game, naming its
    temporary file; --out with ``[Errno 22] Invalid argument`` and no file named."""
    argv = ["arena", "tictactoe", FIRST, "random", "--games", "1", "--workers", "1"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--no-progress", option, str(PROC_FILE)])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"connectn arena: error: {option} {PROC_FILE}")
    assert captured.out == ""  # no table: no game was played


def test_a_json_file_that_cannot_be_written_after_the_games_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), f"{path}.tmp")

    monkeypatch.setattr(tournament, "write_text_atomically", full_disk)
    target = tmp_path / "t.json"
    argv = ["arena", "tictactoe", FIRST, "random", "--games", "1", "--workers", "1"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--no-progress", "--json", str(target)])
    assert stop.value.code == 2
    message = f"connectn arena: error: --json {target}: cannot write it (No space left on device)"
    assert capsys.readouterr().err == message + "\n"


def test_output_checks_leave_nothing_behind_and_probe_the_folder_of_a_replaced_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An existing file written atomically needs its folder to take a new file; an appended
    one does not. The probe file is removed."""
    target = tmp_path / "t.json"
    target.write_text("{}\n")
    assert check_output_file(target, "--json", replaced=True) == target
    assert check_output_directory(tmp_path / "games", "--record") == tmp_path / "games"
    assert os.listdir(tmp_path) == ["t.json"]

    def no_room(**kwargs: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", no_room)
    assert check_output_file(target, "--out") == target
    message = f"--json {target}: cannot create a file in {tmp_path} (Read-only file system)"
    with pytest.raises(ArenaError, match=re.escape(message)):
        check_output_file(target, "--json", replaced=True)
