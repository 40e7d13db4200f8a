"""Levels for players (``--level N``): the terminal through the command line, the window's
+ and - keys (SDL's dummy driver), ``connectn gtp`` and ``connectn pbrain``, bad levels."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pygame
import pytest
from pythonpath_helpers import child_environment

import agents
from connectn_env import cli
from connectn_env.ladder import ladderfile, level_rung, levels
from connectn_env.play import _recorder
from connectn_env.play.levels import PlayLevels
from connectn_env.play.session import GameSession
from connectn_env.play.window import PlayWindow
from connectn_env.records import GameConfig, load_record

SIX = ["connect_n", "--cols", "6", "--no-gravity"]
SIX_GAME = GameConfig("connect_n", {"rows": 6, "cols": 6, "gravity": False})
TOP = len(levels("connect_n_6x6"))  # the highest level of the shipped 6 x 6 ladder


def elo(level: int) -> str:
    """How level ``level`` of the shipped 6 x 6 ladder is named (``"uct-100, Elo +634"``)."""
    rung = level_rung("connect_n_6x6", level)
    return f"{rung.label}, Elo {rung.rating:+.0f}"


def connectn(*args, stdin=""):
    environment = child_environment(SDL_VIDEODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", *args],
        input=stdin, capture_output=True, text=True, timeout=120, env=environment,
    )  # fmt: skip


def session_at(level, **kwargs):
    levels = PlayLevels(SIX_GAME, level, seed=0)
    return GameSession(SIX_GAME.make_env(), levels.build(), **kwargs), levels


def test_the_terminal_plays_a_level_lists_them_and_changes_between_games():
    lines = ["level", "level 2", "a1", "level 1", "level 0", "level x", "new", "quit"]
    run = connectn("play", *SIX, "--level", "1", "--ui", "terminal", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert f"Playing level 1: random, Elo +0 (levels 1 to {TOP}, connect_n_6x6 ladder)" in out
    assert "Commands: undo, new, hint, analyse, switch, level [N], help, quit." in out
    top = level_rung("connect_n_6x6", TOP)
    assert re.search(r">  1  random +Elo +\+0\n", out) and f"  {TOP:2d}  {top.label} " in out
    assert f"Now level 2: {elo(2)}." in out  # before the first move: at once
    assert "AI (O) plays" in out and "10 simulations" in out
    assert "From the next game: level 1: random, Elo +0." in out
    assert f"level must be from 1 to {TOP} for connect_n_6x6, got 0." in out
    assert f"level takes a number from 1 to {TOP}, not 'x'." in out
    assert "New game. Now level 1: random, Elo +0." in out


def test_without_levels_the_level_command_says_how_to_get_them():
    run = connectn("play", "tictactoe", "--ui", "terminal", "--opponent", "random", stdin="level\n")
    assert "No levels: the opponent is random. connectn play GAME --level N" in run.stdout
    assert "level [N]" not in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*SIX, "--level", "0"], f"level must be from 1 to {TOP} for connect_n_6x6, got 0"),
        (
            [*SIX, "--level", str(TOP + 1)],
            f"level must be from 1 to {TOP} for connect_n_6x6, got {TOP + 1}",
        ),
        ([*SIX, "--level", "two"], "argument --level: expected an integer, got 'two'"),
        (
            [*SIX, "--level", "2", "--opponent", "random"],
            "argument --opponent: not allowed with argument --level",
        ),
        (
            ["tictactoe", "--level", "1"],
            "no levels for tictactoe: levels come from a game's shipped ladder, and the games "
            "with one are: connect_four (connectn play connect_four); ",
        ),
    ],
)
def test_bad_levels_are_refused_with_what_is_allowed(args, message):
    run = connectn("play", *args, "--ui", "terminal")
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert run.stdout == ""


def test_a_level_change_waits_for_the_next_game_once_a_game_is_under_way():
    session, levels = session_at(1)
    before = session.agent
    assert levels.choose(3, session) == f"Now level 3: {elo(3)}."
    assert session.agent is not before
    session.play(0)
    first = session.agent
    assert levels.choose(5, session) == f"From the next game: level 5: {elo(5)}."
    assert session.agent is first
    assert levels.describe().endswith(f"; next game: level 5: {elo(5)}.")
    assert levels.step(-1, session) == f"From the next game: level 4: {elo(4)}."
    assert levels.choose(3, session) == f"Staying at level 3: {elo(3)}."
    assert levels.new_game(session) == ""
    levels.choose(4, session)
    session.new_game()
    assert levels.new_game(session) == f"Now level 4: {elo(4)}." and levels.level == 4
    with pytest.raises(
        ValueError, match=f"level must be from 1 to {TOP} for connect_n_6x6, got {TOP + 1}"
    ):
        levels.choose(TOP + 1, session)
    with pytest.raises(TypeError, match="level must be an int"):
        levels.choose("2", session)
    assert levels.level == 4 and levels.pending is None
    top_session, top = session_at(TOP)
    assert top.step(1, top_session) == f"Level {TOP} is the highest."


def test_the_level_played_is_recorded_with_each_game(tmp_path):
    session, levels = session_at(2)
    save = _recorder(tmp_path, "unused", 7, levels)
    for action in (0, 6, 1, 7, 2, 8, 3):  # a1 b1 c1 d1 for the first player
        session.play(action)
    save(session)
    (path,) = tmp_path.glob("*.json")
    record = load_record(path)
    assert record.players == ("human", "mcts:simulations=10,preset=uct")
    assert record.meta["level"] == 2 and record.meta["ladder"] == "connect_n_6x6"


def press(window, key):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
    assert window.step()


def test_the_window_shows_the_level_and_plus_and_minus_change_it():
    session, levels = session_at(1)
    window = PlayWindow(session, levels=levels)
    try:
        assert window.step()
        shown = "\n".join(window.frame.shown)
        assert "+/- level" in window.frame.key_help
        assert (
            f"Playing level 1: random, Elo +0 (levels 1 to {TOP}, connect_n_6x6 ladder)." in shown
        )
        assert "You (X) to move   against level 1: random, Elo +0" in window.frame.shown
        press(window, pygame.K_MINUS)
        assert window.message == "Level 1 is the lowest."
        press(window, pygame.K_PLUS)  # no move yet: at once
        assert window.message == f"Now level 2: {elo(2)}."
        assert isinstance(session.agent, agents.MCTSAgent) and window.thinker.agent is session.agent
        session.play(0)  # the person's move; the AI (level 2) answers
        for _ in range(2000):
            assert window.step()
            if len(session.moves) == 2 and not window.thinker.busy:
                break
        assert len(session.moves) == 2
        assert window.side_name(1) == f"AI (level 2: {elo(2)})"  # its name in the bar
        press(window, pygame.K_EQUALS)  # + without shift: from the next game
        assert window.message == f"From the next game: level 3: {elo(3)}."
        assert levels.level == 2 and session.agent.simulations == 10
        press(window, pygame.K_n)
        assert window.message == f"New game. Now level 3: {elo(3)}."
        assert session.agent.simulations == 100 and window.thinker.agent is session.agent
    finally:
        window.close()


def ladders_for_the_protocols(tmp_path, monkeypatch):
    """Hex 11 x 11 and Gomoku 15 x 15 ladders (the 6 x 6 one's rungs) in a data folder."""
    data = json.loads((ladderfile.DATA / "connect_n_6x6.json").read_text())
    for key, game in (("hex_11x11", "hex"), ("gomoku_15x15", "gomoku")):
        config = GameConfig(game)
        copy = {**data, "key": key, "game": {"name": game, "params": config.params}}
        (tmp_path / f"{key}.json").write_text(json.dumps(copy))
    monkeypatch.setattr(ladderfile, "DATA", tmp_path)


def run_engine(monkeypatch, capsys, argv, transcript):
    stdin = io.TextIOWrapper(io.BytesIO(transcript.encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    status = cli.main(argv)
    return status, capsys.readouterr()


def test_gtp_and_pbrain_play_a_level(tmp_path, monkeypatch, capsys):
    ladders_for_the_protocols(tmp_path, monkeypatch)
    status, out = run_engine(
        monkeypatch, capsys, ["gtp", "hex", "--swap", "--level", "1"], "version\ngenmove b\nquit\n"
    )
    assert status == 0 and "(random)" in out.out and out.out.count("= ") == 3
    status, out = run_engine(monkeypatch, capsys, ["pbrain", "--level", "2"], "ABOUT\nEND\n")
    assert status == 0 and 'agent="mcts:simulations=10,preset=uct"' in out.out


def test_gtp_and_pbrain_refuse_bad_levels(tmp_path, monkeypatch, capsys):
    run = connectn("gtp", "hex", "--size", "9", "--level", "1")
    assert run.returncode == 2 and "error: no levels for hex(rows=9,cols=9" in run.stderr
    run = connectn("pbrain", "--level", "3", "--opponent", "random")
    assert run.returncode == 2 and "not allowed with argument" in run.stderr
    ladders_for_the_protocols(tmp_path, monkeypatch)
    with pytest.raises(SystemExit) as stop:
        run_engine(monkeypatch, capsys, ["pbrain", "--level", "99"], "END\n")
    message = capsys.readouterr().err
    gomoku_top = len(levels("gomoku_15x15"))
    assert stop.value.code == 2
    assert f"level must be from 1 to {gomoku_top} for gomoku_15x15, got 99" in message
    with pytest.raises(SystemExit):
        run_engine(monkeypatch, capsys, ["gtp", "hex", "--size", "7", "--level", "1"], "quit\n")
    assert "no levels for hex_7x7" in capsys.readouterr().err
