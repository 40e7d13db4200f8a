"""The viewer of ``connectn replay``: the terminal (Enter/n, p, f, l, a number, q) and the
window (arrow keys, Home/End, Q, closing) show every position of a record."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pygame
import pytest

from connectn_env.play.replay import move_caption, replay_terminal
from connectn_env.play.replay_window import ReplayWindow
from connectn_env.records import GameConfig, GameRecord, save_record

HEX_MOVES = (4, 9, 0, 2, 3, 5, 6)  # swap, then red connects a1-a2-a3


def record_of(game, params, moves, players=("alice", "mcts")):
    state = GameConfig(game, params).make_game().new_initial_state()
    for action in moves:
        state.apply_action(action)
    return GameRecord.from_state(state, players=players)


def test_terminal_replay_steps_through_the_game():
    record = record_of("tictactoe", {}, (0, 3, 1, 4, 2))
    out = io.StringIO()
    lines = "n\n\np\nl\nn\n3\nf\np\nbogus\n9\n99\nq\n"
    assert replay_terminal(record, stdin=io.StringIO(lines), stdout=out) == 0
    text = out.getvalue()
    assert "Start: 5 moves, X (alice) moves first" in text
    assert "Move 1 of 5: X (alice) plays a1" in text
    assert "Move 2 of 5: O (mcts) plays a2" in text
    assert "Move 5 of 5: X (alice) plays c1" in text
    assert "Result: player_0 (alice) wins" in text
    assert "That was the last move" in text and "This is the start" in text
    assert "'bogus' is not a replay command (moves are 0 to 5)" in text
    assert "No such move: 9 (moves are 0 to 5)." in text
    assert "No such move: 99 (moves are 0 to 5)." in text
    assert "not a replay command" not in text.replace("'bogus' is not a replay command", "")
    assert "[X]" in text  # the boards are printed with the last move marked


def test_terminal_replay_takes_only_ascii_move_numbers():
    record = record_of("tictactoe", {}, (0, 3, 1, 4, 2))
    out = io.StringIO()
    lines = ["\u00b2", "\u0663", "9" * 5000, "0" * 5000 + "3"]
    assert replay_terminal(record, stdin=io.StringIO("\n".join(lines)), stdout=out) == 0
    text = out.getvalue()
    assert "'\u00b2' is not a replay command (moves are 0 to 5)" in text
    assert "'\u0663' is not a replay command (moves are 0 to 5)" in text
    assert f"No such move: {'9' * 12}... (moves are 0 to 5)." in text
    assert "Move 3 of 5: X (alice) plays b1" in text  # 0003


def test_terminal_replay_quits_at_end_of_input():
    record = record_of("connect_four", {}, (3, 3, 4))
    out = io.StringIO()
    assert replay_terminal(record, stdin=io.StringIO("l\n"), stdout=out) == 0
    assert "Result: unfinished" in out.getvalue()
    assert out.getvalue().endswith("replay> \n")


def test_replay_command_reads_a_saved_sgf(tmp_path):
    record = record_of("hex", {"rows": 3, "cols": 3, "swap": True}, HEX_MOVES)
    sgf = next(p for p in save_record(record, tmp_path) if p.suffix == ".sgf")
    run = subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", "replay", str(sgf), "--ui", "terminal"],
        input="2\nl\nq\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert run.returncode == 0, run.stderr
    assert "Move 2 of 7: O (mcts) plays swap" in run.stdout
    assert "Result: player_0 (alice) wins" in run.stdout


def press(viewer, key):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
    return viewer.step()


def shown_board(viewer):
    rect = viewer.frame.board_rect
    return viewer.frame.screenshot()[rect.top : rect.bottom, rect.left : rect.right]


def test_window_replay_follows_the_arrow_keys():
    record = record_of("hex", {"rows": 3, "cols": 3, "swap": True}, HEX_MOVES)
    viewer = ReplayWindow(record)
    renderer = viewer.frame.renderer
    try:
        assert viewer.step()
        assert viewer.index == 0
        assert np.array_equal(shown_board(viewer), renderer.rgb_array(viewer.states[0]))
        for key, index in [
            (pygame.K_LEFT, 0),
            (pygame.K_RIGHT, 1),
            (pygame.K_RIGHT, 2),
            (pygame.K_LEFT, 1),
            (pygame.K_END, 7),
            (pygame.K_RIGHT, 7),
            (pygame.K_HOME, 0),
            (pygame.K_END, 7),
        ]:
            assert press(viewer, key)
            assert viewer.index == index
            assert np.array_equal(shown_board(viewer), renderer.rgb_array(viewer.states[index]))
        assert viewer.states[-1].winner == 0
        assert not press(viewer, pygame.K_q)
    finally:
        viewer.close()


@pytest.mark.parametrize("event", [pygame.WINDOWCLOSE, pygame.QUIT])
def test_window_replay_closes(event):
    viewer = ReplayWindow(record_of("connect_four", {}, (3,)))
    viewer.step()
    pygame.event.post(pygame.event.Event(event))
    assert not viewer.step()
    viewer.close()
    viewer.close()
    assert viewer.frame.window is None


def test_replay_refuses_other_objects():
    with pytest.raises(TypeError, match="GameRecord"):
        ReplayWindow({"moves": [1, 2]})
    with pytest.raises(TypeError, match="GameRecord"):
        replay_terminal("game.json")


def test_go_board_captions_use_capital_letters():
    record = record_of("gomoku", {"rows": 9, "cols": 9, "rule": "freestyle"}, (40, 41))
    names = ("Black", "White")
    assert move_caption(record, 2, names) == "Move 2 of 2: White (mcts) plays f5"
    assert move_caption(record, 2, names, upper=True) == "Move 2 of 2: White (mcts) plays F5"


def test_window_move_list_marks_the_move_shown():
    from connectn_env.play.movelist import MARK, ROW_HEIGHT

    record = record_of("tictactoe", {}, (0, 3, 1, 4, 2))
    viewer = ReplayWindow(record)

    def marked_moves():
        """The move numbers (1-based) whose cell in the list is on the mark colour."""
        shot = viewer.frame.screenshot()
        rect = viewer.frame.side_rect()
        number_w = round(rect.w * 0.24)
        move_w = (rect.w - number_w) // 2
        found = []
        for move in range(1, 6):
            x = rect.x + number_w + ((move - 1) % 2) * move_w + 3
            y = rect.y + (1 + (move - 1) // 2) * ROW_HEIGHT + ROW_HEIGHT // 2
            if (shot[y, x] == MARK).all():
                found.append(move)
        return found

    try:
        viewer.step()
        assert marked_moves() == []  # the empty board: no move marked
        assert viewer.frame.shown[-8:] == ["1.", "a1", "a2", "2.", "b1", "b2", "3.", "c1"]
        for expected in (1, 2, 3):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
            viewer.step()
            assert marked_moves() == [expected]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END))
        viewer.step()
        assert marked_moves() == [5]
    finally:
        viewer.close()
