"""The ``connectn`` command's first-hour surface: help texts, --version, demo output, pipes."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from cli_helpers import run_main
from pythonpath_helpers import child_environment

from connectn_env import __version__
from connectn_env.cli import HELP_WIDTH, main
from connectn_env.games import REGISTRY

COMMANDS = ["play", "arena", "replay", "bench", "demo", "gtp", "pbrain"]
GAME_COMMANDS = {"play", "arena", "demo"}  # these take GAME, then its options


def help_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", ["200", "100", "80"])
@pytest.mark.parametrize(
    "command",
    [None, *COMMANDS, *(f"{c} {game}" for c in sorted(GAME_COMMANDS) for game in REGISTRY)],
)
def test_help_lines_fit_in_100_columns_and_the_terminal(command, columns, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", columns)
    text = help_text(capsys, *(command.split() if command else []))
    width = min(HELP_WIDTH, int(columns))
    too_long = [line for line in text.splitlines() if len(line) > width]
    assert not too_long
    assert "``" not in text and ":class:" not in text  # no docstring markup


def test_top_level_help_lists_every_command_and_version(capsys):
    text = help_text(capsys)
    assert "Play against the AI, run tournaments, replay games, benchmark." in text
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s+\S", text, re.M), command
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"connectn {__version__}\n"


@pytest.mark.parametrize(
    ("command", "option", "words"),
    [
        ("play", "--opponent SPEC", "agent spec"),
        ("play", "--human-first", "you move first"),
        ("play", "--ai-first", "the AI moves first"),
        ("arena", "SPEC", "agent specs"),
        ("demo", "--seed SEED", "seed of both random players"),
        ("gtp", "--swap", "swap-pieces"),
        ("pbrain", "--opponent SPEC", "mcts:time=30"),
    ],
)
def test_options_have_help_text(command, option, words, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    text = help_text(capsys, command, *(["hex"] if command in GAME_COMMANDS else []))
    line = next(line for line in text.splitlines() if line.strip().startswith(option))
    following = text[text.index(line) :].split("\n  -", 1)[0]
    assert words in following, following


def test_spec_grammar_is_explained_where_specs_are_taken(capsys):
    for command in (["play", "gomoku"], ["arena", "hex"], ["gtp"], ["pbrain"]):
        text = " ".join(help_text(capsys, *command).split())
        assert "Agent specs: random[:seed=S], mcts[" in text


@pytest.mark.parametrize("name", list(REGISTRY))
def test_game_help_lists_the_games_parameters_with_defaults(name, capsys):
    text = " ".join(help_text(capsys, "play", name).split())
    for parameter in REGISTRY[name].parameters:
        assert f"--{parameter.name}" in text
        if parameter.default is not None:
            assert f"default: {parameter.help_default()}" in text


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["tictactoe"], r"[a-c][1-3]"),
        (["connect_four"], r"[1-7]"),
        (["gomoku", "--size", "7"], r"[a-g][1-7]"),
        (["hex", "--size", "3", "--swap"], r"[a-c][1-3]|swap"),
    ],
)
def test_demo_names_moves_in_the_play_notation(args, pattern, capsys):
    for seed in range(3):
        assert main(["demo", *args, "--seed", str(seed)]) == 0
        moves = re.findall(r"^player_[01] plays (\S+)$", capsys.readouterr().out, re.M)
        assert moves and all(re.fullmatch(pattern, move) for move in moves), moves


def test_demo_into_a_closed_pipe_ends_quietly():
    """``connectn demo ... | head -1``: no BrokenPipeError traceback."""
    env = child_environment()
    demo = subprocess.Popen(
        [sys.executable, "-m", "connectn_env.cli", "demo", "gomoku", "--size", "15"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert demo.stdout.readline()  # read one line, then hang up like head -1
    demo.stdout.close()
    assert demo.wait(timeout=120) == 1
    stderr = demo.stderr.read().decode()
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr


def run_engine(argv: list[str], transcript: str, monkeypatch, capsys) -> tuple[int, str, str]:
    """``connectn gtp|pbrain ...`` in this process with ``transcript`` on stdin."""
    stdin = io.TextIOWrapper(io.BytesIO(transcript.encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    return run_main(argv, capsys)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["gtp", "hex", "--size", "33"], "argument --size: must be from 1 to 32, got 33"),
        (["gtp", "hex", "--size", "9" * 23, "--level", "1"], "--size: must be from 1 to 32"),
        (
            ["gtp", "hex", "--opponent", "os:getcwd"],
            "error: the opponent os:getcwd cannot be built: TypeError: agent factory os:getcwd "
            "returned",
        ),
        (
            ["pbrain", "--opponent", "json:loads"],
            "error: the opponent json:loads cannot be built: TypeError: loads() missing",
        ),
        (["gtp", "hex", "--opponent", "perfect"], "error: the perfect player plays Connect Four"),
        (["pbrain", "--opponent", "perfect"], "error: the perfect player plays Connect Four"),
    ],
)
def test_protocol_engines_refuse_bad_options_before_reading_a_command(
    argv, message, monkeypatch, capsys
):
    """A size the game refuses, a spec that builds no agent or plays no Hex / Gomoku: an
    error naming it, exit 2, before the controller is answered (they were tracebacks, or
    an engine that failed every genmove / TURN)."""
    status, out, err = run_engine(
        argv, "name\ngenmove b\nSTART 15\nBEGIN\nquit\nEND\n", monkeypatch, capsys
    )
    assert status == 2 and out == ""
    assert err.startswith(f"usage: connectn {argv[0]}") or err.startswith(f"connectn {argv[0]}: ")
    assert message in err and "Traceback" not in err


def test_protocol_engines_take_the_largest_size_and_agents_that_play(monkeypatch, capsys):
    status, out, _ = run_engine(
        ["gtp", "hex", "--size", "32", "--opponent", "random"],
        "genmove b\nquit\n",
        monkeypatch,
        capsys,
    )
    assert status == 0 and out.startswith("= ") and not out.startswith("= \n")
    status, out, _ = run_engine(
        ["pbrain", "--opponent", "random"], "START 20\nBEGIN\nEND\n", monkeypatch, capsys
    )
    assert status == 0 and out.splitlines()[0] == "OK" and "," in out.splitlines()[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "tictactoe", "random", "random", "--record", ""],
        ["play", "tictactoe", "--record", " "],
        ["train", "tictactoe", "--out", ""],
        ["ladder", "show", "connect_four", "--file", ""],
        ["evaluate", "connect_four", "random", "--json", ""],
        ["replay", ""],
    ],
)
def test_an_empty_path_is_refused_not_read_as_the_current_directory(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "expected a path, got '" in capsys.readouterr().err
