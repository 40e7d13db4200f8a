"""The UI-independent parts of ``connectn play``: the game session (undo, switch sides,
hints, game-over callback), move notation, the background thinker and the UI choice."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pygame
import pytest

import agents
from connectn_env.games import tictactoe
from connectn_env.play.notation import move_name, parse_move
from connectn_env.play.session import GameSession
from connectn_env.play.thinking import Thinker
from connectn_env.play.ui import NoDisplayError, choose_ui, display_problem
from connectn_env.records import GameConfig, GameRecord, save_record


def session_of(game="tictactoe", agent=None, human_player=0, **params):
    return GameSession(GameConfig(game, params).make_env(), agent, human_player=human_player)


def play(session, *actions):
    for action in actions:
        session.play(action)


# --- session ---------------------------------------------------------------------------


def test_undo_takes_back_the_persons_move_and_the_reply():
    session = session_of(agent=agents.RandomAgent(seed=0))
    play(session, 4, 0, 8, 2)
    assert session.undo() == 2
    assert session.moves == (4, 0)
    assert session.undo() == 2
    assert session.moves == ()
    assert session.undo() == 0


def test_undo_when_the_person_moves_second_keeps_the_ai_opening():
    session = session_of(agent=agents.RandomAgent(seed=0), human_player=1)
    play(session, 4)
    assert session.undo() == 0  # the person has not moved yet
    play(session, 0, 8)
    assert session.undo() == 2
    assert session.moves == (4,)
    assert session.human_turn


def test_undo_after_the_person_wins_takes_back_one_move():
    session = session_of(agent=agents.RandomAgent(seed=0))
    play(session, 0, 3, 1, 4, 2)
    assert session.over and session.result_text(("X", "O")) == "You win!"
    assert session.undo() == 1
    assert session.moves == (0, 3, 1, 4)


def test_without_an_agent_undo_takes_back_one_move():
    session = session_of()
    play(session, 0, 1)
    assert session.undo() == 1
    assert session.moves == (0,)
    assert session.human_turn and not session.ai_turn


def test_switch_sides_and_new_game():
    session = session_of(agent=agents.RandomAgent(seed=0))
    assert session.human_turn
    session.switch_sides()
    assert session.ai_turn and session.ai_player == 0
    play(session, 4)
    session.new_game()
    assert session.moves == () and session.human_player == 1 and session.ai_turn


def test_results_from_the_persons_point_of_view():
    names = ("X", "O")
    session = session_of(agent=agents.RandomAgent(seed=0))
    assert session.result_text(names) is None
    play(session, 3, 0, 4, 1, 8, 2)
    assert session.result_text(names) == "The AI wins."
    session.new_game()
    play(session, 0, 4, 8, 2, 6, 3, 5, 7, 1)
    assert session.over and session.state.winner is None
    assert session.result_text(names) == "Draw."
    two = session_of()
    play(two, 0, 3, 1, 4, 2)
    assert two.result_text(names) == "X wins."


def test_game_over_is_reported_once_per_game():
    ended = []
    session = session_of(agent=agents.RandomAgent(seed=0))
    session.on_game_over = lambda s: ended.append(s.moves)
    play(session, 0, 3, 1, 4, 2)
    session.undo()
    play(session, 2)  # the same game again: not reported twice
    session.undo()
    play(session, 5, 8, 2)  # a different ending
    assert ended == [(0, 3, 1, 4, 2), (0, 3, 1, 4, 5, 8, 2)]


def test_hints_expire_with_the_position():
    session = session_of(agent=agents.RandomAgent(seed=0))
    session.note_answer("hint", (), 4, None)
    assert session.hint == 4
    assert session.analysis is None  # no search result: nothing to analyse
    play(session, 0)
    assert session.hint is None
    session.note_answer("hint", (1,), 4, None)  # an answer for another position
    assert session.hint is None


def test_bad_moves_and_arguments_leave_the_session_unchanged():
    session = session_of(agent=agents.RandomAgent(seed=0))
    play(session, 4)
    with pytest.raises(ValueError, match="cannot play b2"):
        session.play(4)
    with pytest.raises(ValueError, match="action must be between 0 and 8"):
        session.play(9)
    with pytest.raises(TypeError, match="action must be an int"):
        session.play("b2")
    assert session.moves == (4,)
    with pytest.raises(ValueError, match="kind must be one of"):
        session.note_answer("guess", (4,), 0, None)
    with pytest.raises(TypeError, match="BoardGameEnv"):
        GameSession(tictactoe())
    with pytest.raises(TypeError, match="act"):
        GameSession(GameConfig("tictactoe").make_env(), object())
    with pytest.raises(ValueError, match="human_player"):
        GameSession(GameConfig("tictactoe").make_env(), None, human_player=2)


def test_agents_search_a_copy():
    session = session_of(agent=agents.RandomAgent(seed=0))
    copy = session.position_copy()
    copy.step(0)
    assert session.moves == ()


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "params"),
    [
        ("connect_four", {}),
        ("tictactoe", {}),
        ("gomoku", {"rows": 9, "cols": 30}),
        ("hex", {"rows": 5, "cols": 5, "swap": True}),
    ],
)
def test_every_move_name_parses_back(game, params):
    game_obj = GameConfig(game, params).make_game()
    state = game_obj.new_initial_state()
    for action in range(game_obj.num_actions):
        if state.legal_action_mask()[action]:
            assert parse_move(state, move_name(game_obj, action).upper()) == action


def test_leading_zeros_are_read_as_numbers():
    connect_four = GameConfig("connect_four").make_game().new_initial_state()
    gomoku = GameConfig("gomoku", {"rows": 10, "cols": 10}).make_game().new_initial_state()
    assert parse_move(connect_four, "007") == 6
    assert parse_move(gomoku, "j0010") == 99


def test_move_names():
    hex_game = GameConfig("hex", {"rows": 3, "cols": 3, "swap": True}).make_game()
    assert move_name(hex_game, 9) == "swap"
    assert move_name(hex_game, 5) == "c2"
    assert move_name(GameConfig("connect_four").make_game(), 0) == "1"
    assert move_name(GameConfig("gomoku", {"rows": 3, "cols": 28}).make_game(), 27) == "ab1"
    with pytest.raises(ValueError, match="action must be between 0 and 9"):
        move_name(hex_game, 10)


@pytest.mark.parametrize(
    ("game", "params", "moves", "text", "message"),
    [
        ("connect_four", {}, [], "8", "there is no column 8: enter a column number, 1 to 7"),
        ("connect_four", {}, [], "x", "'x' is not a column"),
        ("connect_n", {"rows": 1, "cols": 3, "n": 3}, [0], "1", "column 1 is full"),
        ("tictactoe", {}, [], "d1", "cell 'd1' is off the 3 x 3 board"),
        ("tictactoe", {}, [], "2b", "must be column letters then a row number"),
        ("tictactoe", {}, [4], "b2", "b2 is already taken"),
        ("tictactoe", {}, [], "", "enter a move: a cell"),
        ("tictactoe", {}, [0, 3, 1, 4, 2], "c3", "the game is over"),
        ("hex", {"rows": 3, "cols": 3, "swap": True}, [], "swap", "only allowed as the second"),
        ("hex", {"rows": 3, "cols": 3}, [], "swap", "this game has no swap rule: enter a cell"),
        ("connect_four", {}, [], "swap", "this game has no swap rule: enter a column"),
        # Only ASCII digits are numbers; a long one is refused before int() would refuse it.
        ("connect_four", {}, [], "\u0663", "'\u0663' is not a column: enter a column number"),
        ("connect_four", {}, [], "\uff14", "'\uff14' is not a column"),
        ("connect_four", {}, [], "\u00b2", "'\u00b2' is not a column"),
        ("connect_four", {}, [], "9" * 5000, r"there is no column 9{12}\.\.\.: enter a column"),
        ("gomoku", {"rows": 9, "cols": 9}, [], "a" + "1" * 5000, r"cell 'a1{19}'\.\.\. is off"),
        ("gomoku", {"rows": 9, "cols": 9}, [], "a" * 5000 + "1", r"cell 'a{20}'\.\.\. is off"),
        ("gomoku", {"rows": 9, "cols": 9}, [], "a\u00b2", "cell name 'a\u00b2' must be column"),
    ],
)
def test_bad_moves_are_explained(game, params, moves, text, message):
    state = GameConfig(game, params).make_game().new_initial_state()
    for action in moves:
        state.apply_action(action)
    with pytest.raises(ValueError, match=message):
        parse_move(state, text)


# --- thinker -----------------------------------------------------------------------------


def wait_for_answer(thinker, timeout=30.0):
    start = time.monotonic()
    while (answer := thinker.poll()) is None:
        assert time.monotonic() - start < timeout
        time.sleep(0.002)
    return answer


def test_thinker_answers_with_the_search_result():
    session = session_of(agent=agents.MCTSAgent(simulations=50, seed=0))
    thinker = Thinker(session.agent)
    thinker.start("move", session)
    answer = wait_for_answer(thinker)
    assert answer.kind == "move" and answer.moves == () and answer.error is None
    assert session.is_legal(answer.action)
    assert answer.result.simulations == 50
    assert thinker.wait(5.0) and thinker.poll() is None


def test_thinker_with_a_plain_agent_and_a_failing_agent():
    session = session_of(agent=agents.RandomAgent(seed=0))
    thinker = Thinker(session.agent)
    thinker.start("hint", session)
    answer = wait_for_answer(thinker)
    assert answer.result is None and session.is_legal(answer.action)

    class Broken:
        def act(self, env):
            raise RuntimeError("no idea")

    thinker = Thinker(Broken())
    thinker.start("move", session)
    answer = wait_for_answer(thinker)
    assert answer.action is None and answer.error == "RuntimeError: no idea"


def test_thinker_stops_a_long_search_and_drops_its_answer():
    agent = agents.MCTSAgent(time_limit=30.0, seed=0, exact=False)  # no book: a search
    session = session_of("connect_four", agent=agent)
    thinker = Thinker(session.agent)
    thinker.start("move", session)
    start = time.monotonic()
    while (status := thinker.status()) is None or status.simulations is None:
        assert time.monotonic() - start < 30.0
        time.sleep(0.005)
    assert status.simulations > 0 and 0.0 <= status.win_chance <= 1.0
    with pytest.raises(RuntimeError, match="still thinking"):
        thinker.start("move", session)
    thinker.stop()
    assert thinker.status() is None
    assert thinker.wait(5.0)
    assert time.monotonic() - start < 10.0
    assert thinker.poll() is None


def test_thinker_refuses_finished_games_and_bad_kinds():
    session = session_of(agent=agents.RandomAgent(seed=0))
    thinker = Thinker(session.agent)
    with pytest.raises(ValueError, match="kind must be one of"):
        thinker.start("ponder", session)
    play(session, 0, 3, 1, 4, 2)
    with pytest.raises(ValueError, match="the game is over"):
        thinker.start("move", session)
    with pytest.raises(TypeError, match="act"):
        Thinker(None)


# --- choosing the UI ---------------------------------------------------------------------


def test_choose_ui(monkeypatch):
    assert choose_ui("terminal") == ("terminal", None)
    assert choose_ui("window") == ("window", None)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    ui, note = choose_ui("auto")
    assert ui == "terminal" and "SDL_VIDEODRIVER=dummy" in note
    with pytest.raises(ValueError, match="ui must be one of"):
        choose_ui("web")


def test_no_display_without_display_variables(monkeypatch):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert display_problem() == "neither DISPLAY nor WAYLAND_DISPLAY is set"


def test_score_text_counts_discs_in_othello_only():
    session = session_of("othello")
    assert session.score_text(("Black", "White")) == "Black 2, White 2"
    session.play(parse_move(session.state, "d3"))
    assert session.score_text(("X", "O")) == "X 4, O 1"
    assert session_of("hex", rows=3, cols=3).score_text(("Red", "Blue")) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [("a1", "a1 is illegal: it flips no disc"), ("pass", "pass is illegal: it is only legal")],
)
def test_othello_illegal_moves_are_named_not_numbered(text, reason):
    session = session_of("othello")
    with pytest.raises(ValueError, match=reason) as error:
        parse_move(session.state, text)
    assert "action" not in str(error.value)


def without_display(monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")


def test_a_window_without_a_display_is_refused_unless_a_driver_is_chosen(monkeypatch):
    without_display(monkeypatch)
    with pytest.raises(NoDisplayError, match=r"^--ui window: no display \(neither DISPLAY nor"):
        choose_ui("window")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # chosen by hand: drawn off screen
    assert choose_ui("window") == ("window", None)


def test_sdl_falling_back_to_an_offscreen_driver_is_no_display(monkeypatch):
    without_display(monkeypatch)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(pygame.display, "get_init", lambda: False)
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    monkeypatch.setattr(pygame.display, "quit", lambda: None)
    assert display_problem() == "SDL found no display and fell back to its offscreen driver"
    with pytest.raises(NoDisplayError, match="fell back to its offscreen driver"):
        choose_ui("window")
    assert choose_ui("auto")[0] == "terminal"


@pytest.mark.parametrize("command", [["play", "connect_four"], ["replay", "GAME"]])
def test_connectn_with_a_window_and_no_display_stops_with_one_line(command, tmp_path):
    if command[0] == "replay":
        session = session_of("tictactoe")
        session.play(4)
        command = ["replay", str(save_record(GameRecord.from_state(session.state), tmp_path)[0])]
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY")}
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", *command, "--ui", "window"],
        capture_output=True, text=True, timeout=60, env={**env, "WAYLAND_DISPLAY": ""},
    )  # fmt: skip
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "error: --ui window: no display (neither DISPLAY nor WAYLAND_DISPLAY" in run.stderr
    assert time.monotonic() - start < 30  # it hung for ever
