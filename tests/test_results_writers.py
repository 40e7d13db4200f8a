"""Every results file a command appends to takes one writer at a time, and is only ever a
results file: ``evaluate --results`` (ladder and A/B mode), ``ladder build --results`` and
``arena --out``.

Two writers: a second process holds the file's lock (as a run writing it does), then the
command is started; it must be refused at once, naming the file and the holder, with the
file as it was (two runs at once wrote every game twice, and each rerun was refused after).
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_main
from test_file_lock import held_by_another_process

from connectn_env.arena.results import ArenaError, ResultsFile
from connectn_env.games.config import GameConfig

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]
FIRST = "arena_helpers:first_legal"
HEADER = {"game": "tictactoe", "params": GameConfig("tictactoe").params, "seed": 0}
HEADER["move_timeout"] = None
QUIET = ["--workers", "1", "--no-progress"]
WRITERS = {
    "evaluate --results": ["evaluate", *SIX, "random", "--games", "2", *QUIET, "--results"],
    "evaluate --vs --results": [
        "evaluate", "tictactoe", "random", "--vs", "random", "--sprt", "0,50", "--max-games",
        "2", *QUIET, "--results",
    ],
    "ladder build --results": [
        "ladder", "build", *SIX, "--games-per-pair", "1", *QUIET, "--out", "L.json", "--results",
    ],
    "arena --out": ["arena", "tictactoe", FIRST, "random", "--games", "2", *QUIET, "--out"],
}  # fmt: skip


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("existing", [False, True], ids=["new file", "a file of games"])
def test_a_second_writer_is_refused_at_once_and_changes_nothing(
    tmp_path, monkeypatch, capsys, writer: str, existing: bool
) -> None:
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "R.jsonl"
    if existing:
        results.write_text(json.dumps({"type": "tournament", **HEADER}) + "\n")
    before = results.read_bytes() if existing else None
    with held_by_another_process(results) as holder:
        code, out, err = run_main([*WRITERS[writer], str(results)], capsys)
    assert code == 2 and out == "", err  # no game played
    name = "--results" if "--results" in writer else "--out"
    prefix = f"connectn {writer.split()[0]}: error: {name} {results}: another run is writing"
    assert err.startswith(prefix), err
    assert f"held by pid {holder.pid}" in err and err.count("\n") == 1, err
    assert (results.read_bytes() if results.exists() else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == (["R.jsonl"] if existing else [])


HEADER_LINE = json.dumps({"type": "tournament", **HEADER}).encode()
NOT_OURS = {
    "a line without a newline": b"notes",
    "a text file": b"my notes\nsecond line\n",
    "one byte": b"x",
    "a header and notes": HEADER_LINE + b"\nnotes",
    "a header and half a game of notes": HEADER_LINE + b'\n{"type": "gam e"',
    "a longer header": HEADER_LINE + b" ",
}


@pytest.mark.parametrize("content", NOT_OURS.values(), ids=NOT_OURS)
def test_a_file_that_is_not_a_results_file_is_left_as_it_is(tmp_path, content: bytes) -> None:
    """A last line without a newline was cut off as a write a kill cut short, whatever it
    held: ``printf notes > precious.txt`` lost its notes to the results."""
    path = tmp_path / "precious.txt"
    path.write_bytes(content)
    with pytest.raises(ArenaError, match=r"precious\.txt line [12]: "):
        ResultsFile(path, HEADER)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.txt"]  # the lock gone


@pytest.mark.parametrize("writer", ["evaluate --results", "arena --out"])
def test_the_commands_leave_a_precious_file_as_it_is(tmp_path, capsys, writer: str) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"notes")
    code, out, err = run_main([*WRITERS[writer], str(precious)], capsys)
    assert code == 2 and out == "", err
    assert f"{precious} line 1: no newline ends it and it is not a header line" in err, err
    assert precious.read_bytes() == b"notes"


@pytest.mark.parametrize(
    "partial",
    [HEADER_LINE[:1], HEADER_LINE[:-1], HEADER_LINE + b'\n{"type": "game", "pairing": ["a'],
    ids=["a brace", "a header but its last byte", "a game line cut short"],
)
def test_a_line_of_ours_cut_short_is_still_cut_off(tmp_path, partial: bytes) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(partial)
    with ResultsFile(path, HEADER) as store:
        assert store.finished == set()
    assert path.read_bytes() == HEADER_LINE + b"\n"
