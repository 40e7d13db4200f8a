"""The play window driven by posted pygame events (SDL's dummy video driver): clicks, the
agent's answer, hover, undo, new game, switch sides, hint, analysis, a whole game, quitting;
screenshots checked pixel by pixel."""

from __future__ import annotations

import logging
import threading
import time

import numpy as np
import pygame
import pytest

import agents
from connectn_env.play.movelist import ROW_HEIGHT
from connectn_env.play.session import GameSession
from connectn_env.play.window import (
    HINT_COLOUR,
    LOSS_BANNER,
    NO_ANALYSIS,
    WIN_BANNER,
    PlayWindow,
)
from connectn_env.records import GameConfig, load_record, save_record
from connectn_env.records.record import GameRecord
from connectn_env.render.pygame_renderer import PygameRenderer
from connectn_env.render.theme import BACKGROUND, TEXT

TIMEOUT = 30.0


@pytest.fixture(autouse=True)
def _no_stale_events():
    yield
    if pygame.display.get_init():
        pygame.event.clear()


def make_window(game="connect_four", agent="mcts", *, human_player=0, **kwargs):
    if agent == "mcts":
        agent = agents.MCTSAgent(simulations=50, seed=0)
    elif agent == "random":
        agent = agents.RandomAgent(seed=0)
    session = GameSession(GameConfig(game, kwargs).make_env(), agent, human_player=human_player)
    window = PlayWindow(session)
    assert window.step()
    return window


def post(kind, **attributes):
    pygame.event.post(pygame.event.Event(kind, **attributes))


def click(window, row, col):
    post(pygame.MOUSEBUTTONDOWN, pos=window.frame.cell_pixel(row, col), button=1)


def press(window, key):
    post(pygame.KEYDOWN, key=key)
    return window.step()


def run_until(window, condition, timeout=TIMEOUT):
    start = time.monotonic()
    while not condition():
        assert window.step(), "the window closed"
        assert time.monotonic() - start < timeout, "timed out waiting for the window"
        time.sleep(0.002)
    window.step()  # draw the final state


def idle(window):
    return window.thinker is None or not window.thinker.busy


def sample(window, shot, row, col, dx=0.55):
    """Mean colour beside the centre of a cell (clear of the last-move marker)."""
    x, y = window.frame.cell_pixel(row, col)
    x += round(dx * window.frame.renderer.geometry.stone_radius)
    return shot[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).mean(axis=0)


def near(colour, expected, tolerance=40):
    return float(np.abs(np.asarray(colour) - np.asarray(expected)).max()) <= tolerance


def board_part(window, shot):
    rect = window.frame.board_rect
    return shot[rect.top : rect.bottom, rect.left : rect.right]


def plain_picture(window):
    """The renderer's picture of the position with the window's status bar text."""
    renderer = window.frame.renderer
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, window.session.state, status=window.bar_text())
    pixels = np.frombuffer(pygame.image.tobytes(surface, "RGB"), dtype=np.uint8)
    return pixels.reshape(renderer.size[1], renderer.size[0], 3)


def landing_row(state, col):
    return int(np.flatnonzero(state.board[:, col])[0])


def test_click_plays_and_the_ai_answers_on_screen():
    window = make_window()
    stones = window.frame.renderer.palette.stones
    try:
        assert near(sample(window, window.frame.screenshot(), 5, 3), BACKGROUND, 10)
        click(window, 2, 3)  # anywhere in column 3 (here the third row): the disc drops
        run_until(window, lambda: len(window.session.moves) == 2 and idle(window))
        human, ai = window.session.moves
        assert human == 3
        shot = window.frame.screenshot()
        assert near(sample(window, shot, 5, 3), stones[0])
        ai_row = landing_row(window.session.state, ai)
        assert near(sample(window, shot, ai_row, ai), stones[1])
        # Without hover, hint or overlay the board is exactly the renderer's picture.
        assert np.array_equal(board_part(window, shot), plain_picture(window))
        assert window.session.analysis.result.simulations > 0
    finally:
        window.close()


def test_hover_previews_the_stone_where_it_would_land():
    window = make_window(agent="random")
    try:
        post(pygame.MOUSEMOTION, pos=window.frame.cell_pixel(1, 4), rel=(0, 0), buttons=(0, 0, 0))
        window.step()
        shot = window.frame.screenshot()
        assert window.hover == 4
        plain = plain_picture(window)
        changed = np.argwhere((board_part(window, shot) != plain).any(axis=2))
        rows = changed[:, 0]
        geometry = window.frame.renderer.geometry
        bottom_y = geometry.center(5, 4)[1]
        assert len(changed) > 0
        assert abs(rows.mean() - bottom_y) < geometry.cell / 2  # at the bottom of column 4
        post(pygame.WINDOWLEAVE)
        window.step()
        assert window.hover is None
    finally:
        window.close()


def test_undo_takes_back_the_move_and_the_reply():
    window = make_window()
    try:
        click(window, 0, 2)
        run_until(window, lambda: len(window.session.moves) == 2 and idle(window))
        human, ai = window.session.moves
        ai_row = landing_row(window.session.state, ai)
        press(window, pygame.K_u)
        assert window.session.moves == ()
        assert window.message == "Took back 2 moves."
        shot = window.frame.screenshot()
        assert near(sample(window, shot, 5, human), BACKGROUND, 10)
        assert near(sample(window, shot, ai_row, ai), BACKGROUND, 10)
        press(window, pygame.K_u)
        assert window.message == "Nothing to undo."
    finally:
        window.close()


def test_switch_sides_and_new_game():
    window = make_window()
    session = window.session
    try:
        press(window, pygame.K_s)  # the person gives the first move to the AI
        assert session.human_player == 1
        run_until(window, lambda: len(session.moves) == 1 and idle(window))
        assert session.human_turn
        click(window, 0, 0)
        run_until(window, lambda: len(session.moves) == 3 and idle(window))
        press(window, pygame.K_n)
        assert session.moves == ()  # the AI's answer is applied on a later frame
        assert session.human_player == 1  # the person keeps their side
        run_until(window, lambda: len(session.moves) == 1 and idle(window))
        shot = window.frame.screenshot()
        stones = window.frame.renderer.palette.stones
        col = session.moves[0]
        assert near(sample(window, shot, 5, col), stones[0])  # the AI plays Red now
    finally:
        window.close()


def test_hint_is_drawn_as_a_marker():
    window = make_window()
    try:
        press(window, pygame.K_h)
        run_until(window, lambda: window.session.hint is not None and idle(window))
        hint = window.session.hint
        assert window.message.startswith(f"Hint: {hint + 1}")
        assert window.session.moves == ()  # a hint plays nothing
        shot = window.frame.screenshot()
        x, y = window.frame.cell_pixel(5, hint)
        assert any(near(shot[y, x + dx], HINT_COLOUR, 30) for dx in range(-3, 4))
        click(window, 0, hint)  # following the hint: the marker goes with the position
        run_until(window, lambda: len(window.session.moves) == 2 and idle(window))
        assert window.session.hint is None
    finally:
        window.close()


def stone_square(window, shot, row, col):
    """The pixels of the square inside the stone at (row, col)."""
    x, y = window.frame.cell_pixel(row, col)
    half = round(0.65 * window.frame.renderer.geometry.stone_radius)
    return shot[y - half : y + half + 1, x - half : x + half + 1]


@pytest.mark.parametrize(
    ("game", "params", "click_at"),
    [
        ("connect_four", {}, (0, 3)),
        ("tictactoe", {}, (1, 1)),
        ("gomoku", {"size": 9}, (4, 4)),
        ("hex", {"rows": 5, "cols": 5}, (2, 2)),
    ],
)
def test_analysis_overlay_tints_empty_cells_only(game, params, click_at):
    # exact=False: no opening book (a book move is known without a search: no shares)
    window = make_window(game, agents.MCTSAgent(simulations=50, seed=0, exact=False), **params)
    session = window.session
    try:
        press(window, pygame.K_a)
        assert window.show_analysis
        assert window.info_line() == NO_ANALYSIS
        press(window, pygame.K_a)
        click(window, *click_at)
        run_until(window, lambda: len(session.moves) == 2 and idle(window))
        plain = window.frame.screenshot()
        press(window, pygame.K_a)
        overlaid = window.frame.screenshot()
        pi = session.analysis.result.pi
        state = session.state
        searched = state.game.new_initial_state()  # the position of the AI's search
        searched.apply_action(session.moves[0])
        style = window.frame.renderer.style
        tinted = 0
        for action in range(state.game.num_actions):  # the searched empty cells are tinted
            cell = style.landing_cell(searched, action)  # where the move lands in it
            if cell is None or state.board[cell]:
                continue
            x, y = window.frame.cell_pixel(*cell)
            changed = overlaid[y - 1 : y + 2, x - 1 : x + 2] != plain[y - 1 : y + 2, x - 1 : x + 2]
            assert changed.any() == (pi[action] > 0), (action, cell)
            tinted += int(pi[action] > 0)
        assert tinted > 0
        for row, col in zip(*np.nonzero(state.board), strict=True):  # stones untouched
            np.testing.assert_array_equal(
                stone_square(window, overlaid, row, col), stone_square(window, plain, row, col)
            )
        ai_move = session.moves[1]  # on a stone now (in every game): its share is in words
        assert f", {style.move_label(state.game, ai_move)} (played) " in window.info_line()
        press(window, pygame.K_a)
        assert np.array_equal(window.frame.screenshot(), plain)
    finally:
        window.close()


def test_analysis_caption_names_the_line_and_the_proven_moves():
    agent = agents.MCTSAgent(simulations=3000, seed=0, preset="uct")
    window = make_window(agent=agent)
    try:
        for i in range(3):  # three in column 1: the AI must block, every other column loses
            click(window, 0, 0)
            run_until(window, lambda i=i: len(window.session.moves) == 2 * (i + 1))
        press(window, pygame.K_a)
        caption = window._analysis_caption()
        assert window.session.analysis.result.action == 0
        assert "; expected line 1 " in caption and "loss" in caption.split("; proven ")[1]
    finally:
        window.close()


def test_a_whole_game_shows_the_result_and_is_recorded(tmp_path):
    window = make_window("tictactoe", agent="random")
    session = window.session
    saved = []
    session.on_game_over = lambda s: saved.extend(
        save_record(GameRecord.from_state(s.state, players=("human", "random")), tmp_path)
    )
    try:
        while not session.over:
            run_until(window, lambda: (session.human_turn or session.over) and idle(window))
            if session.over:
                break
            action = int(np.flatnonzero(session.state.legal_action_mask())[0])
            click(window, *divmod(action, 3))
            window.step()
        window.step()
        result = session.result_text(window.names)
        assert result in ("You win!", "The AI wins.", "Draw.")
        shot = window.frame.screenshot()
        line = window.frame.status_rect()
        banner = shot[line.centery, line.x + 3]
        winner = session.state.winner
        if winner is not None:
            assert near(banner, WIN_BANNER if winner == 0 else LOSS_BANNER, 5)
        click(window, 0, 0)  # clicks after the end do nothing
        window.step()
        assert session.over
        assert len(saved) == 1
        assert load_record(saved[0]).moves == session.moves
    finally:
        window.close()


def test_illegal_clicks_are_explained():
    window = make_window("connect_n", agent=None, rows=2, cols=3, n=3, gravity=True)
    session = window.session
    try:
        for _ in range(2):
            click(window, 0, 1)
            window.step()
        assert session.moves == (1, 1)  # two people at one board
        click(window, 0, 1)
        window.step()
        assert session.moves == (1, 1)
        assert window.message == "That column is full: choose another."
        press(window, pygame.K_h)
        assert window.message.startswith("No AI to ask")
        press(window, pygame.K_u)
        assert session.moves == (1,)
    finally:
        window.close()


def test_clicking_the_opening_stone_swaps_in_hex():
    window = make_window("hex", agent="random", human_player=1, rows=3, cols=3, swap=True)
    session = window.session
    try:
        run_until(window, lambda: len(session.moves) == 1 and idle(window))
        first = session.moves[0]
        click(window, *divmod(first, 3))
        window.step()
        assert session.moves[:2] == (first, 9)
    finally:
        window.close()


def test_thinking_indicator_reports_simulations_and_win_chance():
    # exact=False: no opening book, so the AI's first move is searched
    window = make_window(
        agent=agents.MCTSAgent(time_limit=20.0, seed=0, exact=False), human_player=1
    )
    try:
        start = time.monotonic()
        while True:
            window.step()
            status = window.thinker.status()
            if status is not None and status.simulations:
                break
            assert time.monotonic() - start < TIMEOUT
        assert 0.0 <= status.win_chance <= 1.0
        assert status.kind == "move"
        shot = window.frame.screenshot()
        line = window.frame.status_rect()
        spinner = shot[line.top : line.bottom, line.left : line.left + line.h].reshape(-1, 3)
        red = window.frame.renderer.palette.stones[0]  # the AI plays Red
        assert sum(near(p, red, 30) for p in spinner) > 10
        click(window, 0, 0)  # the AI's turn: the click is refused
        window.step()
        assert window.message.startswith("The AI is thinking")
        begin = time.monotonic()
        assert not press(window, pygame.K_q)
        window.close()
        assert time.monotonic() - begin < 5.0  # the 20 s search was stopped
        assert not window.thinker.busy
        assert window.session.moves == ()
    finally:
        window.close()


@pytest.mark.parametrize("event", [pygame.WINDOWCLOSE, pygame.QUIT])
def test_closing_the_window_quits(event):
    opened_before = pygame.display.get_init()
    window = make_window(agent="random")
    post(event)
    assert not window.step()
    assert not window.running
    window.close()
    window.close()  # idempotent
    assert window.frame.window is None
    assert pygame.display.get_init() == opened_before  # quits only what it opened


def test_no_display_is_explained(monkeypatch, capsys):
    from connectn_env.play.window import run_window

    def no_screen():
        raise pygame.error("no screen here")

    monkeypatch.setattr(pygame.display, "get_init", lambda: False)
    monkeypatch.setattr(pygame.display, "init", no_screen)
    session = GameSession(GameConfig("tictactoe").make_env(), agents.RandomAgent(seed=0))
    assert run_window(session) == 1
    assert "cannot open a window (no screen here); use --ui terminal" in capsys.readouterr().err


# --- the window's size ---------------------------------------------------------------------


@pytest.fixture
def desktop(monkeypatch):
    """Pretend the desktop is ``width`` x ``height`` pixels."""

    def set_size(width, height):
        monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(width, height)])

    return set_size


def assert_everything_visible(window):
    frame = window.frame
    width, height = frame.window.size
    rect = frame.board_rect
    geometry = frame.renderer.geometry
    assert rect.left >= 0 and rect.right <= width and rect.bottom <= height
    for _, (x, y) in geometry.column_labels + geometry.row_labels:
        assert 0 <= x + rect.x <= width and 0 <= y <= rect.bottom, (x, y)
    assert frame.status_rect().right <= width
    assert frame.small_rect(frame.small_lines).bottom <= height  # the key bar
    assert np.array_equal(board_part(window, frame.screenshot()), plain_picture(window))


@pytest.mark.parametrize(
    ("game", "params"),
    [("gomoku", {}), ("gomoku", {"size": 19}), ("hex", {"swap": True}), ("connect_four", {})],
)
def test_the_window_fits_a_1024_x_600_screen(desktop, game, params):
    desktop(1024, 600)
    window = make_window(game, agent="random", **params)
    try:
        width, height = window.frame.window.size
        assert width <= 1024 and height <= 600 - 60  # room for a title bar and a task bar
        assert_everything_visible(window)
        click(window, 2, 3)  # clicks reach the smaller board
        window.step()
        cols = window.session.game.cols
        assert window.session.moves[0] == (3 if game == "connect_four" else 2 * cols + 3)
    finally:
        window.close()


def test_the_gomoku_window_fits_1024_x_768_and_keeps_its_size_on_a_large_screen(desktop):
    desktop(1024, 768)
    window = make_window("gomoku", agent="random")
    try:
        assert window.frame.window.size[1] <= 768 - 60
        assert_everything_visible(window)
    finally:
        window.close()
    desktop(1920, 1080)
    window = make_window("gomoku", agent="random")
    try:
        natural = PygameRenderer(window.session.game)
        assert window.frame.renderer.geometry.cell == natural.geometry.cell
        assert window.frame.board_rect.size == natural.size
    finally:
        window.close()


def test_resizing_redraws_the_board_to_fit_and_maps_clicks(desktop):
    desktop(1920, 1080)
    window = make_window("hex", agent=None, rows=9, cols=9)
    frame = window.frame
    try:
        first = frame.renderer.geometry.cell
        for size, grows in (((1400, 1000), True), ((560, 420), False)):
            frame.window.size = size
            window.step()
            assert tuple(frame.window.size) == size
            assert (frame.renderer.geometry.cell > first) == grows
            assert_everything_visible(window)
            post(pygame.MOUSEMOTION, pos=frame.cell_pixel(4, 6), rel=(0, 0), buttons=(0, 0, 0))
            window.step()
            assert window.hover == 4 * 9 + 6
            post(pygame.WINDOWLEAVE)
        click(window, 8, 0)
        window.step()
        assert window.session.moves == (8 * 9,)
    finally:
        window.close()


# --- what the window says ------------------------------------------------------------------


def shown(window):
    """Everything the window's last frame showed as text, one string."""
    return "\n".join(window.frame.shown)


def test_the_thinking_message_goes_once_the_ai_has_moved():
    agent = _HeldAgent()
    window = make_window(agent=agent, human_player=1)
    session = window.session
    try:
        click(window, 0, 0)  # the AI is to move: the click is refused
        window.step()
        assert "The AI is thinking: wait for its move." in shown(window)
        agent.go.set()
        run_until(window, lambda: len(session.moves) == 1 and idle(window))
        assert window.message == ""
        assert "The AI is thinking" not in shown(window)
    finally:
        agent.go.set()
        window.close()


def test_no_analysis_yet_is_said_only_while_there_is_none():
    # exact=False: no opening book, so the AI's answer to d is searched
    window = make_window(agent=agents.MCTSAgent(simulations=50, seed=0, exact=False))
    session = window.session
    try:
        press(window, pygame.K_a)
        assert NO_ANALYSIS in window.frame.shown
        click(window, 0, 3)
        run_until(window, lambda: len(session.moves) == 2 and idle(window))
        assert NO_ANALYSIS not in window.frame.shown
        assert "Analysis of the AI's move at move 2: share of 50 simulations" in shown(window)
    finally:
        window.close()


def test_the_status_texts_say_you_and_ai_with_the_agents_name():
    agent = _HeldAgent(announce=False)
    session = GameSession(GameConfig("tictactoe").make_env(), agent)
    window = PlayWindow(session, opponent="mcts:simulations=50")
    try:
        window.step()
        assert "You (X) to move" in window.frame.shown
        assert "player_0" not in shown(window)
        click(window, 1, 1)
        window.step()  # the AI's turn now: the bar and the status line name it
        assert "AI (mcts:simulations=50) to move" in window.frame.shown
        assert "AI (mcts:simulations=50) thinking" in shown(window)
        agent.go.set()
        run_until(window, lambda: len(session.moves) == 2 and idle(window))
        assert "You (X) to move" in window.frame.shown
        while not session.over:  # play on: the first free cell each time
            run_until(window, lambda: (session.human_turn or session.over) and idle(window))
            if not session.over:
                click(window, *divmod(int(session.state.legal_actions()[0]), 3))
                window.step()
        window.step()
        moves = len(session.moves)
        ends = (f"You win after {moves} moves", f"AI (mcts:simulations=50) wins after {moves}")
        assert any(end in shown(window) for end in (*ends, f"Draw after {moves} moves"))
    finally:
        agent.go.set()
        window.close()


def test_othello_shows_the_disc_count():
    window = make_window("othello", agent=None)
    try:
        assert "Black to move   Black 2, White 2" in window.frame.shown
        click(window, 2, 3)  # d3 flips d4
        window.step()
        assert "White to move   Black 4, White 1" in window.frame.shown
    finally:
        window.close()


def test_the_analysis_is_live_while_the_ai_thinks():
    # exact=False: no opening book, so the AI's first move is searched
    window = make_window(
        agent=agents.MCTSAgent(time_limit=20.0, seed=0, exact=False), human_player=1
    )
    try:
        press(window, pygame.K_a)
        start = time.monotonic()
        while True:  # the simulation count and the heat map come while the AI searches
            window.step()
            status = window.thinker.status()
            if status is not None and status.pi is not None:
                break
            assert time.monotonic() - start < TIMEOUT
        text = shown(window)
        assert "Live analysis of its move: share of " in text
        assert " simulations   its win chance " in text
        assert window.session.analysis is None  # nothing finished yet: the heat is live
        board = board_part(window, window.frame.screenshot())
        assert not np.array_equal(board, plain_picture(window))
        np.testing.assert_allclose(status.pi.sum(), 1.0)
        first = status.simulations
        run_until(window, lambda: window.thinker.status().simulations > first)
    finally:
        window.close()


def test_the_move_list_scrolls_and_follows_the_last_move():
    window = make_window("connect_n", agent=None, rows=15, cols=15, n=15, gravity=False)
    session = window.session
    try:
        for action in range(120):  # 60 rows of moves: more than the list shows
            session.play(action)
        window.step()
        text = window.frame.shown
        assert "60." in text and "o8" in text  # the last move (action 119) is in view
        assert "1." not in text
        post(pygame.MOUSEWHEEL, x=0, y=100, flipped=False)  # wheel up: the first moves
        window.step()
        assert "1." in window.frame.shown and "a1" in window.frame.shown
        assert "60." not in window.frame.shown
        post(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False)
        window.step()
        assert window.move_list.top == 3
        session.play(120)  # a new move: the list follows it again
        window.step()
        assert "61." in window.frame.shown
    finally:
        window.close()


class _HeldAgent:
    """An MCTS agent that searches only once let go (``go.set()``); with ``announce``, it
    first says on the compile logger that it compiles (as a first search does before its
    first simulation)."""

    def __init__(self, announce=True):
        self.agent = agents.MCTSAgent(simulations=50, seed=0)
        self.go = threading.Event()
        self.announce = announce

    def act(self, env):
        return self.search(env).action

    def search(self, env, progress=None):
        log = logging.getLogger("connectn_env.compile")
        if self.announce:
            log.info("compiling Connect Four search kernels (first use, cached afterwards)")
        assert self.go.wait(TIMEOUT)
        if self.announce:
            log.info("compiled Connect Four search kernels in 0.1 s")
        return self.agent.search(env, progress=progress)


def test_the_status_line_shows_the_compile_while_the_first_search_compiles():
    logger = logging.getLogger("connectn_env.compile")
    before = (list(logger.handlers), logger.level)
    agent = _HeldAgent()
    window = make_window(agent=agent, human_player=1)
    try:
        assert window.notes.listening and len(logger.handlers) == len(before[0]) + 1
        run_until(window, lambda: "compiling Connect Four" in shown(window))
        line = window.frame.status_rect()
        shot = window.frame.screenshot()
        spinner = shot[line.top : line.bottom, line.left : line.left + line.h].reshape(-1, 3)
        red = window.frame.renderer.palette.stones[0]
        assert sum(near(p, red, 30) for p in spinner) > 10  # the spinner turns beside it
        status = next(t for t in window.frame.shown if t.startswith("compiling"))
        assert status.endswith(" s") and "(first use, cached afterwards)" in status
        agent.go.set()
        run_until(window, lambda: len(window.session.moves) == 1 and idle(window))
        assert "compil" not in shown(window)
    finally:
        agent.go.set()
        window.close()
    assert not window.notes.listening
    assert (list(logger.handlers), logger.level) == before


def test_a_long_caption_is_wrapped_onto_two_lines():
    window = make_window("tictactoe", agent="random")
    try:
        words = " ".join(f"word{i}" for i in range(40))
        window.message = words
        window.step()
        assert window.frame.shown.count(words) == 1  # recorded once, drawn on two lines
        shot = window.frame.screenshot()
        for index in (0, 1):
            line = window.frame.small_rect(index)
            pixels = shot[line.top : line.bottom, line.left : line.right].reshape(-1, 3)
            assert (np.abs(pixels.astype(int) - TEXT).max(axis=1) < 60).sum() > 50
    finally:
        window.close()


# --- issue 42: the first frame, the hint over the analysis, book moves, captions, baselines


def test_the_first_frame_is_shown_before_the_ai_is_asked(monkeypatch):
    agent = _HeldAgent(announce=False)
    session = GameSession(GameConfig("othello").make_env(), agent, human_player=1)
    window = PlayWindow(session)
    opened = {}
    make = pygame.Window

    def window_made(*args, **kwargs):
        opened.update(kwargs)
        return make(*args, **kwargs)

    monkeypatch.setattr(pygame, "Window", window_made)
    flips = []
    flip = window.frame.flip
    monkeypatch.setattr(window.frame, "flip", lambda: (flips.append(window.thinker.busy), flip()))
    try:
        assert window.frame.try_open() is None  # as run_window opens it
        assert not window.frame.showing
        window.step()
        assert window.frame.showing
        assert opened["hidden"] is True  # shown by the first flip, painted
        assert flips[0] is False  # that frame came before the AI's search (and compile)
        assert window.thinker.busy
    finally:
        agent.go.set()
        window.close()


def test_the_hint_ring_leaves_the_analysis_percentage_readable():
    agent = agents.MCTSAgent(simulations=400, seed=0, exact=False)
    window = make_window(agent=agent)
    try:
        press(window, pygame.K_a)
        press(window, pygame.K_h)
        run_until(window, lambda: window.session.hint is not None and idle(window))
        hint = window.session.hint
        assert window.session.analysis.result.pi[hint] > 0  # a percentage on the ring's cell
        shot = window.frame.screenshot()
        x, y = window.frame.cell_pixel(5, hint)
        centre = shot[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3)
        assert not any(near(pixel, HINT_COLOUR, 30) for pixel in centre)  # no dot on it
        assert any(near(shot[y, x + dx], HINT_COLOUR, 30) for dx in range(-60, 60))  # the ring
    finally:
        window.close()


def test_a_book_move_shows_no_shares_and_says_it_was_known():
    window = make_window(agent=agents.MCTSAgent(simulations=50, seed=0), human_player=1)
    try:
        run_until(window, lambda: len(window.session.moves) == 1 and idle(window))
        plain = board_part(window, window.frame.screenshot())
        press(window, pygame.K_a)
        shot = board_part(window, window.frame.screenshot())
        assert np.array_equal(shot, plain)  # no share drawn (it showed 100% above the stone)
        caption = window.info_line()
        known = "4, known without a search (a forced win for it)"
        assert caption == f"Analysis of the AI's move at move 1: {known}"
    finally:
        window.close()


def test_the_heat_map_of_a_gravity_game_is_of_the_position_searched():
    window = make_window(agent=agents.MCTSAgent(simulations=200, seed=0, exact=False))
    session = window.session
    try:
        click(window, 0, 3)
        run_until(window, lambda: len(session.moves) == 2 and idle(window))
        plain = window.frame.screenshot()
        press(window, pygame.K_a)
        overlaid = window.frame.screenshot()
        column = session.moves[1]  # the AI's column: its share is in words, not a cell above
        row = landing_row(session.state, column) - 1
        x, y = window.frame.cell_pixel(row, column)
        assert np.array_equal(
            overlaid[y - 2 : y + 3, x - 2 : x + 3], plain[y - 2 : y + 3, x - 2 : x + 3]
        )
        assert f", {column + 1} (played) " in window.info_line()
        assert "simulations per move" in window.info_line() and "(also" not in window.info_line()
    finally:
        window.close()


def test_a_one_move_line_is_not_shown_and_one_simulation_is_singular():
    window = make_window(agent=agents.MCTSAgent(simulations=1, seed=0, exact=False))
    try:
        click(window, 0, 3)
        run_until(window, lambda: len(window.session.moves) == 2 and idle(window))
        press(window, pygame.K_a)
        caption = window.info_line()
        assert "share of 1 simulation per move" in caption
        assert "line" not in caption
    finally:
        window.close()


def text_bottom(shot, left, right, below):
    """The lowest row above row ``below`` with text pixels between columns left and right."""
    part = shot[:below, round(left) : round(right)].astype(int)
    dark = (np.abs(part - np.asarray(TEXT)).max(axis=2) < 60).any(axis=1)
    return int(np.flatnonzero(dark)[-1])


@pytest.mark.parametrize("game", ["connect_four", "othello"])
def test_the_move_list_heading_stands_on_the_column_labels_baseline(game):
    window = make_window(game, agent="random")
    try:
        shot = window.frame.screenshot()
        side, geometry = window.frame.side_rect(), window.frame.renderer.geometry
        rule = side.y + ROW_HEIGHT - 1  # under the heading
        x, _ = geometry.column_labels[0][1]  # "1" or "a": no descender
        half = geometry.cell / 3
        number_w = round(side.w * 0.24)
        move_w = (side.w - number_w) // 2
        bottoms = {
            text_bottom(shot, x - half, x + half, rule),
            text_bottom(shot, side.x + number_w, side.x + number_w + move_w, rule),
            text_bottom(shot, side.x + number_w + move_w, side.right, rule),
        }
        assert len(bottoms) == 1, bottoms  # "Red" and "Yellow" stood 1 and 3 px under "1"
    finally:
        window.close()
