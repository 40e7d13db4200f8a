"""Every program shows compile records as they come: GTP (stderr, after warming up at start),
pbrain (MESSAGE lines at START), the arena (its progress lines, warming up in the parent),
``connectn bench`` and ``connectn train`` (stderr). A fake warm-up or command compiles a fresh
numba function inside a named block, as the search agents do."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from numba import njit

from agents import MCTSAgent
from agents import search as search_module
from connectn_env import cli
from connectn_env.arena import run_tournament, tournament
from connectn_env.arena.progress import Progress
from connectn_env.games import compile_notice
from connectn_env.games.compile_notice import compiling
from connectn_env.protocols import gtp, pbrain

START = "compiling fake kernels (first use; cached afterwards)"
DONE = re.compile(r"compiled fake kernels in \d+\.\d s")


@pytest.fixture(autouse=True)
def nothing_announced(monkeypatch):
    """Each test a process that has announced nothing yet (a name is announced once)."""
    monkeypatch.setattr(compile_notice, "_announced", set())


def compile_something(*args, **kwargs):
    """Compile a new numba function, as a first search does."""

    @njit
    def fake(x):
        return x * 3

    with compiling("fake kernels"):
        fake(1)
    return 0


def test_gtp_compiles_at_start_and_tells_stderr(monkeypatch, capsys):
    calls = []

    def warm(agent, game):
        calls.append(game.title)
        compile_something()

    monkeypatch.setattr(gtp, "warm_up_agent", warm)
    engine = gtp.GtpEngine(MCTSAgent(simulations=8), size=5)
    out = io.StringIO()
    engine.run(io.StringIO("name\nquit\n"), out)
    assert calls == ["Hex 5 x 5 (swap rule off)"]
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"connectn: {START}"
    assert DONE.fullmatch(err[1].removeprefix("connectn: "))
    assert out.getvalue().startswith("= connectn\n\n")


def test_gtp_start_survives_a_failing_agent(monkeypatch, capsys):
    def fail(agent, game):
        raise RuntimeError("no thoughts")

    monkeypatch.setattr(gtp, "warm_up_agent", fail)
    out = io.StringIO()
    gtp.GtpEngine(MCTSAgent(simulations=8), size=5).run(io.StringIO("name\n"), out)
    assert "warm-up failed: RuntimeError: no thoughts" in capsys.readouterr().err
    assert out.getvalue() == "= connectn\n\n"


def test_pbrain_tells_compiles_at_start_as_messages(monkeypatch):
    monkeypatch.setattr(pbrain, "warm_up_agent", compile_something)
    out = io.StringIO()
    pbrain.PbrainEngine(MCTSAgent(simulations=8)).run(io.StringIO("START 15\nEND\n"), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"MESSAGE {START}"
    assert DONE.fullmatch(lines[1].removeprefix("MESSAGE "))
    assert lines[2:] == ["OK"]


def test_pbrain_start_prepares_a_real_search(monkeypatch):
    monkeypatch.setattr(search_module, "_prepared", set())
    out = io.StringIO()
    engine = pbrain.PbrainEngine(MCTSAgent(simulations=8, seed=0))
    engine.run(io.StringIO("START 15\n"), out)
    assert out.getvalue().splitlines()[-1] == "OK"
    games = {key[2] for key in search_module._prepared if isinstance(key, tuple)}
    assert games == {engine.match.env.unwrapped.game}  # (class, options, game...): before a turn
    assert not engine.agent._trees  # on a scratch agent: this one has not searched


def test_arena_warms_up_in_the_parent_with_notes_on_its_progress(monkeypatch, capsys):
    monkeypatch.setattr(tournament, "warm_up_specs", compile_something)
    run_tournament("tictactoe", ["random", "random"], games=1, workers=1, progress=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == START and DONE.fullmatch(err[1])


def test_progress_note():
    stream = io.StringIO()
    Progress(4, stream).note("compiling\x07 kernels")
    assert stream.getvalue() == "compiling\\x07 kernels\n"
    quiet = io.StringIO()
    Progress(4, quiet, enabled=False).note("compiling")
    assert quiet.getvalue() == ""


def test_bench_and_train_tell_stderr(monkeypatch, capsys):
    import connectn_env.bench
    import connectn_env.train_command

    monkeypatch.setattr(connectn_env.bench, "run_bench", compile_something)
    monkeypatch.setattr(connectn_env.train_command, "run_train_command", compile_something)
    for argv in (["bench"], ["train", "tictactoe", "--out", "unused-run"]):
        compile_notice._announced.clear()  # each program is a process of its own
        assert cli.main(argv) == 0
        err = capsys.readouterr().err.splitlines()
        assert err[0] == f"connectn: {START}", argv
        assert DONE.fullmatch(err[1].removeprefix("connectn: "))


@pytest.mark.slow
def test_a_cold_arena_announces_the_search_compile_once(tmp_path):
    """The parent compiles before the workers start (they load the cache), and a name is
    announced once however many searches compile (the main job said it four times)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "OMP_NUM_THREADS": "1"}
    command = [sys.executable, "-m", "connectn_env.cli", "arena", "tictactoe"]
    command += ["mcts:preset=uct,simulations=20", "random", "--games", "2"]
    child = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stderr
    said = [line for line in re.split(r"[\r\n]+", child.stderr) if "compil" in line]
    assert len(said) == 2, said
    assert said[0] == "compiling Tic-tac-toe search kernels (first use; cached afterwards)"
    assert re.fullmatch(r"compiled Tic-tac-toe search kernels in \d+\.\d s", said[1])
