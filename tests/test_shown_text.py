"""Text from files and agents never reaches the terminal or the window raw: control
characters (``\\x1b[2J`` clears a terminal, ``\\x1b]0;...\\x07`` retitles it) are escaped."""

from __future__ import annotations

import io

import pytest

from connectn_env.cli import main
from connectn_env.play.frame import BoardFrame
from connectn_env.play.replay_window import ReplayWindow
from connectn_env.play.session import GameSession
from connectn_env.play.terminal import run_terminal
from connectn_env.records import GameConfig, GameRecord
from connectn_env.render.pygame_renderer import PygameRenderer
from connectn_env.safetext import printable

EVIL = "\x1b[2J\x1b]0;pwned\x07\u202e\x9b"
UNSAFE = ("\x1b", "\x07", "\u202e", "\x9b")


@pytest.mark.parametrize(
    ("text", "newlines", "shown"),
    [
        ("plain text, é and 日本", False, "plain text, é and 日本"),
        ("\x1b[2J", False, "\\x1b[2J"),
        ("a\nb\tc", False, "a\\x0ab\\x09c"),
        ("a\nb\tc", True, "a\nb\\x09c"),
        ("\x7f\x85\u202e\u2066\u200f\u061c", False, "\\x7f\\x85\\u202e\\u2066\\u200f\\u061c"),
        (42, False, "42"),
    ],
)
def test_printable_escapes_control_characters(text, newlines: bool, shown: str) -> None:
    assert printable(text, newlines=newlines) == shown


class _FailingAgent:
    def act(self, env):
        raise RuntimeError(f"no move{EVIL}")


def test_terminal_play_escapes_names_and_agent_errors() -> None:
    session = GameSession(GameConfig("tictactoe").make_env(), _FailingAgent(), human_player=1)
    out = io.StringIO()
    status = run_terminal(session, stdin=io.StringIO(""), stdout=out, opponent=f"bot{EVIL}")
    text = out.getvalue()
    assert status == 1 and not any(c in text for c in UNSAFE)
    assert "Opponent: bot\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\x9b\n" in text
    assert "The AI failed: RuntimeError: no move\\x1b[2J" in text


def test_window_title_and_text_are_escaped() -> None:
    record = GameRecord(GameConfig("hex", {"size": 3}), (4,), players=(f"m{EVIL}", "bob"))
    viewer = ReplayWindow(record, title=f"replay{EVIL}")
    assert viewer.frame.title == "replay\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\x9b"
    viewer.frame.open()
    try:
        viewer.draw()
    finally:
        viewer.close()
    drawn = viewer.frame.shown
    assert any("m\\x1b[2J" in text for text in drawn)
    assert not any(c in text for text in drawn for c in UNSAFE)


def test_board_frame_refuses_a_non_string_title() -> None:
    with pytest.raises(TypeError, match="title must be a str"):
        BoardFrame(PygameRenderer(GameConfig("tictactoe").make_game()), title=5, key_help="")


def test_play_with_a_spec_that_builds_no_agent_is_an_error_not_a_traceback(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "tictactoe", "--ui", "terminal", "--opponent", "arena_helpers:not_an_agent"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "connectn play: error: the opponent arena_helpers:not_an_agent cannot be built" in err
    assert "TypeError: agent factory arena_helpers:not_an_agent returned 42" in err
