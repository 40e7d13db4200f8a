"""Hostile record files: every one is refused with a message naming the file and what is
wrong (or, for the valid ones, loads and is shown with its control characters escaped).

``tests/data/hostile/`` holds the small files and ``expected.json`` (file -> regular
expression of the error; ``^$``: the file is valid); the huge ones are made here.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

import pytest

from connectn_env.cli import main
from connectn_env.play.replay import replay_terminal
from connectn_env.records import GameConfig, GameRecord, load_record, record_from_sgf
from connectn_env.records.textfile import MAX_RECORD_BYTES

HOSTILE = Path(__file__).parent / "data" / "hostile"
EXPECTED: dict[str, str] = json.loads((HOSTILE / "expected.json").read_text(encoding="utf-8"))


def test_every_hostile_file_has_an_expectation() -> None:
    files = {path.name for path in HOSTILE.iterdir()} - {"expected.json"}
    assert files == set(EXPECTED)
    assert {Path(name).suffix for name in files} == {".json", ".sgf"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file_is_refused_with_its_name_and_reason(name: str) -> None:
    path = HOSTILE / name
    start = time.perf_counter()
    if EXPECTED[name] == "^$":
        assert isinstance(load_record(path), GameRecord)
    else:
        with pytest.raises(ValueError, match=EXPECTED[name]) as caught:
            load_record(path)
        assert str(path) in str(caught.value)
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("name", ["cheated_win.json", "not_utf8.sgf", "sz_5000_digits.sgf"])
def test_replay_command_refuses_a_hostile_file_without_a_traceback(name: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(HOSTILE / name), "--ui", "terminal"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("connectn replay: error: ") and "Traceback" not in err


@pytest.mark.parametrize("name", ["control_characters.json", "control_characters.sgf"])
def test_control_characters_from_a_file_never_reach_the_terminal(name: str) -> None:
    record = load_record(HOSTILE / name)
    assert "\x1b" in record.players[0]  # kept in the record as written...
    out = io.StringIO()
    replay_terminal(record, stdin=io.StringIO("l\nq\n"), stdout=out)
    shown = out.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "mallory\\x1b[2J\\x1b]0;pwned\\x07\\u202e" in shown  # ...and shown escaped


def test_a_cheated_result_cannot_be_made_even_in_python() -> None:
    with pytest.raises(ValueError, match="is not what the moves give"):
        GameRecord(GameConfig("tictactoe"), moves=(0, 3, 1), result="player_0")
    with pytest.raises(TypeError, match=r"move 2: an action must be an int, got 1\.7"):
        GameRecord(GameConfig("tictactoe"), moves=(0, 1.7))
    resigned = GameRecord(GameConfig("tictactoe"), (0, 3, 1), result="player_0", reason="resign")
    assert resigned.winner == 0


# --- huge, deep and non-regular files (made here) --------------------------------------


def test_files_over_the_size_cap_are_refused_before_parsing(tmp_path: Path) -> None:
    for suffix, filler in ((".json", " "), (".sgf", ";C[x]")):
        path = tmp_path / f"huge{suffix}"
        body = filler * (MAX_RECORD_BYTES // len(filler) + 1)
        path.write_text("(;GM[11]SZ[5]" + body + ")" if suffix == ".sgf" else body)
        with pytest.raises(ValueError, match=r"huge\.(json|sgf) has more than 10,485,760 bytes"):
            load_record(path)
    with pytest.raises(ValueError, match="more than the 10,485,760 a record may have"):
        record_from_sgf("(" + " " * MAX_RECORD_BYTES + ")")


def test_deep_json_is_refused_without_recursion(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match=r"deep\.json line 1: JSON nested deeper than 32 levels"):
        load_record(path)


def test_sgf_parsing_is_linear_in_the_length_of_a_property_name() -> None:
    # The old parser took 21 s for 1 MB and 81 s for 2 MB (quadratic).
    for size in (1_000_000, 9_000_000):
        start = time.perf_counter()
        with pytest.raises(ValueError, match=f"has {size:,} letters; at most 32"):
            record_from_sgf("(;GM[11]SZ[5];" + "B" * size + "[a1])")
        assert time.perf_counter() - start < 2


def test_sgf_with_deep_variations_reads_the_main_line_iteratively() -> None:
    text = "(;GM[11]SZ[5]" + "(;C[x]" * 100_000 + ")" * 100_000 + "(;B[a1]))"
    assert record_from_sgf(text).moves == ()  # the main line is the first variation
    text = "(;GM[11]SZ[5](;B[c3](;W[a1](;B[b1]))(;W[e5]))(;B[a1]))"
    assert record_from_sgf(text).moves == (12, 0, 1)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs need a POSIX system")
def test_devices_fifos_and_directories_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"game\.sgf is a FIFO \(named pipe\), not a regular file"):
        load_record(fifo)  # no writer: opening it for reading would block
    assert time.perf_counter() - start < 2
    with pytest.raises(ValueError, match=r"is a directory, not a regular file"):
        load_record(tmp_path)
    if sys.platform.startswith("linux"):
        with pytest.raises(ValueError, match=r"/dev/zero is a character device"):
            load_record("/dev/zero")


def test_saved_file_names_stay_in_the_directory(tmp_path: Path) -> None:
    from connectn_env.records import save_record

    record = GameRecord(GameConfig("tictactoe"), (4,), date="../../escape/2025-01-01")
    (path,) = save_record(record, tmp_path / "games")
    assert path.parent == tmp_path / "games" and path.name.startswith("tictactoe-")
    for stem in ("../x", "a/b", "", ".."):
        with pytest.raises(ValueError, match="stem must be a file name without a path"):
            save_record(record, tmp_path, stem=stem)
    with pytest.raises(ValueError, match="stem must be at most 200 characters"):
        save_record(record, tmp_path, stem="x" * 300)
