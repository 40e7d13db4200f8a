"""Rendering: board styles, text, rgb_array pictures, the human window, pixel-to-action
mapping."""

from __future__ import annotations

import copy
import math
import pickle
import subprocess
import sys
import time
import types

import numpy as np
import pygame
import pytest
from pettingzoo.test import render_test
from pythonpath_helpers import child_environment

from connectn_env import connect_n_v0, gomoku_v0, hex_v0
from connectn_env.games import (
    REGISTRY,
    ConnectNGame,
    GomokuGame,
    HexGame,
    connect_four,
    tictactoe,
)
from connectn_env.games.othello import OthelloGame
from connectn_env.render import (
    BoardGeometry,
    BoardStyle,
    PygameRenderer,
    available_styles,
    board_style,
    load_style,
    render_ansi,
    star_points,
)
from connectn_env.render.theme import Palette

GAMES = {
    "connect_four": connect_four(),
    "connect_n_10x12": ConnectNGame(rows=10, cols=12, n=5),
    "tictactoe": tictactoe(),
    "mnk_7x9": ConnectNGame(rows=7, cols=9, n=4, gravity=False),
    "gomoku_15": GomokuGame(size=15),
    "gomoku_9x12": GomokuGame(rows=9, cols=12),
    "hex_11": HexGame(size=11),
    "hex_4x9": HexGame(rows=4, cols=9),
    "hex_swap_5": HexGame(size=5, swap=True),
    "othello_6": OthelloGame(size=6),
}


def play(game, actions):
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def cell_action(game, row, col):
    return col if game.gravity else row * game.cols + col


def patch(image, geometry, row, col, fraction=0.25):
    """Mean colour of a square around the centre of cell (row, col)."""
    x, y = geometry.center(row, col)
    half = max(2, round(geometry.cell * fraction))
    x, y = round(x), round(y)
    return image[y - half : y + half + 1, x - half : x + half + 1].reshape(-1, 3).mean(axis=0)


def pixel(image, geometry, row, col):
    x, y = geometry.center(row, col)
    return image[round(y), round(x)].astype(int)


# --- PettingZoo's render test ----------------------------------------------------------

ENV_CASES = [
    (connect_n_v0.env, {}),
    (connect_n_v0.env, {"rows": 1, "cols": 1, "n": 1}),
    (connect_n_v0.env, {"rows": 2, "cols": 3, "n": 2, "gravity": False}),
    (connect_n_v0.env, {"rows": 3, "cols": 3, "n": 3, "gravity": False}),
    (gomoku_v0.env, {"size": 9}),
    (gomoku_v0.env, {"rows": 1, "cols": 5}),
    (hex_v0.env, {"size": 1}),
    (hex_v0.env, {"size": 2}),
    (hex_v0.env, {"rows": 3, "cols": 5}),
    (hex_v0.env, {"size": 4, "swap": True}),
]


@pytest.mark.parametrize(("env_fn", "kwargs"), ENV_CASES)
def test_pettingzoo_render_test(env_fn, kwargs):
    render_test(lambda render_mode: env_fn(render_mode=render_mode, **kwargs))


# --- every style draws every test position --------------------------------------------


def style_games():
    """Every registered game with its defaults and the games above (each style at two sizes
    or more)."""
    games = {name: entry.make() for name, entry in REGISTRY.items()}
    games.update(GAMES)
    return games


STYLE_GAMES = style_games()


def test_every_style_has_test_games_of_two_sizes():
    sizes = {}
    for game in STYLE_GAMES.values():
        sizes.setdefault(game.render_style, set()).add((game.rows, game.cols))
    assert set(sizes) == set(available_styles())
    assert all(len(shapes) >= 2 for shapes in sizes.values()), sizes


def sample_positions(game):
    """(label, state): empty, after a quarter of the cells, a won end (random play), and
    after each special action legal on the second move (the swap)."""
    rng = np.random.default_rng(7)
    yield "empty", game.new_initial_state()
    mid = game.new_initial_state()
    while mid.move_number < max(3, game.rows * game.cols // 4) and not mid.is_terminal():
        mid.apply_action(int(rng.choice(mid.legal_actions())))
    yield "middle", mid
    for _ in range(100):
        end = game.new_initial_state()
        while not end.is_terminal():
            end.apply_action(int(rng.choice(end.legal_actions())))
        if end.winner is not None:
            yield "won", end
            break
    first = game.new_initial_state()
    first.apply_action(int(rng.choice(first.legal_actions())))
    for action in game.special_actions:
        if first.legal_action_mask()[action]:
            special = first.clone()
            special.apply_action(action)
            yield game.special_actions[action], special


def square(image, geometry, row, col, fraction):
    x, y = (round(v) for v in geometry.center(row, col))
    half = max(2, round(geometry.cell * fraction))
    return image[y - half : y + half + 1, x - half : x + half + 1].reshape(-1, 3).astype(int)


def changed_colour(before, after, geometry, row, col):
    """Mean colour of the pixels of a cell's square that differ between two pictures."""
    old, new = (square(p, geometry, row, col, 0.45) for p in (before, after))
    changed = (old != new).any(axis=1)
    return new[changed].mean(axis=0) if changed.any() else None


@pytest.mark.parametrize("name", STYLE_GAMES)
def test_every_style_draws_every_test_position(name):
    """Each stone changes its cell towards its player's colour; empty cells look as at the
    start (where the style marks legal moves, those that are not one in either position);
    text has a line per row; no PNGs involved."""
    game = STYLE_GAMES[name]
    renderer = PygameRenderer(game)
    geometry = renderer.geometry
    stones = renderer.palette.stones
    start = game.new_initial_state()
    start_picture = renderer.rgb_array(start)
    dots = renderer.style.legal_moves_shown
    labels = []
    for label, state in sample_positions(game):
        labels.append(label)
        image = renderer.rgb_array(state)
        assert image.shape == (renderer.size[1], renderer.size[0], 3), label
        marked = set(state.winning_cells()) | {state.last_move_cell()}
        dotted = {game.action_to_cell(a) for s in (start, state) for a in s.legal_actions()}
        for row in range(game.rows):
            for col in range(game.cols):
                value = int(state.board[row, col])
                at_start = int(start.board[row, col])
                if value == at_start == 0:
                    if dots and (row, col) in dotted:
                        continue
                    np.testing.assert_array_equal(
                        patch(image, geometry, row, col),
                        patch(start_picture, geometry, row, col),
                        err_msg=f"{label}: empty cell {(row, col)} changed",
                    )
                elif value not in (0, at_start) and (row, col) not in marked:
                    # a stone placed (or turned) since the start has its player's colour
                    colour = changed_colour(start_picture, image, geometry, row, col)
                    assert colour is not None, (label, (row, col))
                    nearest = np.argmin(np.linalg.norm(np.array(stones) - colour, axis=1))
                    assert nearest == value - 1, (label, (row, col), colour)
        text = render_ansi(state).splitlines()
        assert len(text) == game.rows + 2, label
    assert "won" in labels


# --- one module per style ----------------------------------------------------------------


class UnknownStyleGame(GomokuGame):
    render_style = "no_such_style"


def test_an_unknown_style_is_an_error_listing_the_styles():
    game = UnknownStyleGame(size=9)
    listed = ", ".join(available_styles())
    for build in (board_style, BoardGeometry, PygameRenderer):
        with pytest.raises(ValueError, match=f"no board style 'no_such_style'.*{listed}"):
            build(game)
    with pytest.raises(ValueError, match="no board style"):
        render_ansi(game.new_initial_state())
    for bad in ("../hex", "hex.sub", ""):
        with pytest.raises(ValueError, match="no board style"):
            load_style(bad)
    with pytest.raises(TypeError, match="str"):
        load_style(None)


class DotsStyle(BoardStyle):
    """A test style: a green board with lines, discs, legal moves shown (Othello's look)."""

    name = "dots"
    palette = Palette(
        names=("Black", "White"),
        stones=((20, 20, 20), (245, 245, 245)),
        edges=((0, 0, 0), (150, 150, 150)),
        board=(30, 130, 60),
        line=(10, 60, 25),
        last_move=((230, 40, 40), (230, 40, 40)),
        win=(255, 200, 0),
    )
    legal_moves_shown = True

    def draw_board(self, canvas, geometry):
        (left, top), (right, bottom) = geometry.frame[0], geometry.frame[2]
        canvas.fill(self.palette.board, (left, top, right - left, bottom - top))
        for col in range(geometry.game.cols + 1):
            x = geometry.center(0, col - 0.5)[0]
            canvas.line(self.palette.line, (x, top), (x, bottom), 1)

    def draw_stone(self, canvas, player, centre, radius):
        canvas.circle(self.palette.edges[player], centre, radius)
        canvas.circle(self.palette.stones[player], centre, radius * 0.9)


class DotsGomoku(GomokuGame):
    render_style = "dots"


@pytest.fixture
def dots_style(monkeypatch):
    """A style added as one new module (``connectn_env.render.styles.dots``)."""
    module = types.ModuleType("connectn_env.render.styles.dots")
    module.STYLE = DotsStyle()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module.STYLE


def test_a_style_module_must_define_its_style(monkeypatch):
    empty = types.ModuleType("connectn_env.render.styles.empty")
    misnamed = types.ModuleType("connectn_env.render.styles.misnamed")
    misnamed.STYLE = DotsStyle()
    for module in (empty, misnamed):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(ValueError, match=r"styles\.empty defines no STYLE"):
        load_style("empty")
    with pytest.raises(ValueError, match="STYLE named 'dots'"):
        load_style("misnamed")


def test_a_new_style_is_one_module_and_can_show_legal_moves(dots_style):
    game = DotsGomoku(size=7)
    assert board_style(game) == "dots" and load_style("dots") is dots_style
    renderer = PygameRenderer(game)
    state = game.new_initial_state()
    state.apply_action(3 * 7 + 3)
    image = renderer.rgb_array(state)
    geometry = renderer.geometry
    board_colour = np.array(dots_style.palette.board)
    assert np.abs(pixel(image, geometry, 0, 0) - board_colour).max() > 40  # a white dot
    corner = geometry.center(0, 0)
    off_dot = image[round(corner[1] + 0.3 * geometry.cell), round(corner[0] + 0.3 * geometry.cell)]
    assert np.abs(off_dot.astype(int) - board_colour).max() <= 3  # beside it, the board
    centre = pixel(image, geometry, 3, 3)
    assert np.argmin(np.linalg.norm(np.array(dots_style.palette.stones) - centre, axis=1)) == 0
    text = render_ansi(state).splitlines()
    assert text[1] == "1 * * * * * * *" and text[4] == "4 * * *[X]* * *"
    assert renderer.action_at(geometry.center(2, 5)) == 2 * 7 + 5


def test_geometry_with_a_chosen_cell_pitch():
    for game in (connect_four(), tictactoe(), GomokuGame(size=15), HexGame(size=11)):
        sizes = []
        for cell in (8, 24, 60, 150):
            geometry = BoardGeometry(game, cell=cell)
            assert geometry.cell == cell
            (x0, y0), (x1, y1) = geometry.center(0, 0), geometry.center(0, 1)
            assert math.dist((x0, y0), (x1, y1)) == pytest.approx(cell)
            sizes.append(geometry.size)
            renderer = PygameRenderer(game, cell=cell)
            image = renderer.rgb_array(game.new_initial_state())
            assert image.shape == (geometry.size[1], geometry.size[0], 3)
            for row, col in ((0, 0), (game.rows - 1, game.cols - 1)):
                assert renderer.action_at(geometry.center(row, col)) == cell_action(game, row, col)
        heights = [height for _, height in sizes]
        assert heights == sorted(heights) and heights[0] < heights[-1]
    for bad, error in ((5, ValueError), (201, ValueError), (10.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="cell"):
            BoardGeometry(connect_four(), cell=bad)


# --- sizes and layout ------------------------------------------------------------------


def all_shapes():
    for side in range(1, 33):
        yield ConnectNGame(rows=side, cols=side, n=1)
        yield ConnectNGame(rows=side, cols=side, n=1, gravity=False)
        yield HexGame(size=side)
        yield GomokuGame(rows=side, cols=max(side, 5))
    for rows, cols in ((1, 32), (32, 1), (4, 30), (30, 4)):
        yield ConnectNGame(rows=rows, cols=cols, n=1)
        yield HexGame(rows=rows, cols=cols)
        yield GomokuGame(rows=rows, cols=cols)


def test_picture_sizes_are_sensible_from_1x1_to_32x32():
    for game in all_shapes():
        geometry = BoardGeometry(game)
        width, height = geometry.size
        assert 300 <= max(width, height) <= 1000, (game, width, height)
        assert min(width, height) >= 80, (game, width, height)
        assert 16 <= geometry.cell <= 100
        points = list(geometry.frame) + [p for _, p in geometry.column_labels + geometry.row_labels]
        for x, y in points:  # board and coordinates inside the picture, above the status bar
            assert 0 <= x <= width and 0 <= y <= geometry.status_rect[1], (game, x, y)


def test_board_styles():
    assert board_style(connect_four()) == "rack"
    assert board_style(tictactoe()) == "grid"
    assert board_style(GomokuGame()) == "go"
    assert board_style(HexGame()) == "hex"
    assert {"rack", "grid", "go", "hex"} <= set(available_styles())
    for name in available_styles():
        style = load_style(name)
        assert isinstance(style, BoardStyle) and style.name == name
        assert load_style(name) is style


def test_coordinate_labels():
    assert [t for t, _ in BoardGeometry(connect_four()).column_labels] == list("1234567")
    assert BoardGeometry(connect_four()).row_labels == []
    gomoku = BoardGeometry(GomokuGame(size=15))
    assert [t for t, _ in gomoku.column_labels] == list("ABCDEFGHIJKLMNO")
    assert [t for t, _ in gomoku.row_labels] == [str(r) for r in range(1, 16)]
    assert gomoku.row_labels[0][1][1] < gomoku.row_labels[1][1][1]  # 1 at the top
    hex_labels = BoardGeometry(HexGame(rows=3, cols=28)).column_labels
    assert [t for t, _ in hex_labels][-3:] == ["z", "aa", "ab"]


def test_star_points():
    assert star_points(15, 15) == [(3, 3), (3, 11), (7, 7), (11, 3), (11, 11)]
    assert len(star_points(19, 19)) == 9 and (3, 9) in star_points(19, 19)
    assert star_points(9, 9) == [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]
    assert star_points(5, 5) == [(2, 2)]
    assert star_points(6, 6) == []
    assert star_points(32, 32) == [(3, 3), (3, 28), (28, 3), (28, 28)]


def test_hex_rows_shift_half_a_cell_and_match_openspiel_neighbours():
    geometry = BoardGeometry(HexGame(size=5))
    (x00, y00), (x10, y10) = geometry.center(0, 0), geometry.center(1, 0)
    assert x10 - x00 == pytest.approx(geometry.cell / 2)
    assert y10 - y00 == pytest.approx(geometry.cell * math.sqrt(3) / 2)
    center = geometry.center(2, 2)
    distances = {
        (dr, dc): math.dist(center, geometry.center(2 + dr, 2 + dc))
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    }
    touching = {d for d, dist in distances.items() if dist == pytest.approx(geometry.cell)}
    assert touching == {(0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1)}


# --- pixel to action -------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_action_at_cell_centres(name):
    game = GAMES[name]
    renderer = PygameRenderer(game)
    for row in range(game.rows):
        for col in range(game.cols):
            x, y = renderer.geometry.center(row, col)
            assert renderer.action_at((x, y)) == cell_action(game, row, col)
            assert renderer.action_at((x + 0.3 * renderer.geometry.cell, y)) == cell_action(
                game, row, col
            )
    assert renderer.action_at((1, renderer.size[1] - 1)) is None  # the status bar
    assert renderer.action_at((-5, -5)) is None


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if not g.gravity])
def test_action_at_is_the_nearest_cell(name):
    """Squares and hexagons are the Voronoi cells of their centres: a click maps to the
    nearest centre, or to None when that centre is off the board."""
    game = GAMES[name]
    geometry = BoardGeometry(game)
    centres = {
        (r, c): geometry.center(r, c)
        for r in range(-1, game.rows + 1)
        for c in range(-1, game.cols + 1)
    }
    rng = np.random.default_rng(0)
    width, height = geometry.size
    for x, y in rng.uniform((0, 0), (width, height), size=(400, 2)):
        nearest = min(centres, key=lambda cell: math.dist((x, y), centres[cell]))
        distances = sorted(math.dist((x, y), p) for p in centres.values())
        if distances[1] - distances[0] < 1e-6 or not (-1 < nearest[0] < game.rows):
            continue  # a tie on a border, or beyond the extra ring of cells
        if not (-1 < nearest[1] < game.cols):
            continue
        on_board = 0 <= nearest[0] < game.rows and 0 <= nearest[1] < game.cols
        expected = nearest[0] * game.cols + nearest[1] if on_board else None
        assert geometry.action_at((x, y)) == expected, (x, y, nearest)


def test_action_at_gravity_takes_the_column_above_the_rack():
    geometry = BoardGeometry(connect_four())
    x, _ = geometry.center(0, 4)
    assert geometry.action_at((x, 1)) == 4  # above the rack
    assert geometry.action_at((x, geometry.size[1] - 1)) is None  # below it


@pytest.mark.parametrize("bad", [None, "ab", (1,), (1, 2, 3), (1, "2"), (True, 2)])
def test_action_at_rejects_bad_positions(bad):
    with pytest.raises(TypeError, match="pos"):
        BoardGeometry(connect_four()).action_at(bad)


# --- pictures ----------------------------------------------------------------------------


# Games where any empty cell is a legal move (Othello's drawing is checked above).
PLACEMENT_GAMES = [name for name, game in GAMES.items() if game.render_style != "othello"]


@pytest.mark.parametrize("name", PLACEMENT_GAMES)
def test_rgb_array_shape_and_players_differ(name):
    game = GAMES[name]
    renderer = PygameRenderer(game)
    # player_0 at the first cell, player_1 at the last one, then player_0 elsewhere so
    # neither compared stone is the last move.
    last_col = game.cols - 1
    actions = [cell_action(game, game.rows - 1, 0), cell_action(game, game.rows - 1, last_col)]
    if game.cols > 2:
        actions.append(cell_action(game, game.rows - 1, 1))
    state = play(game, actions)
    image = renderer.rgb_array(state)
    assert image.dtype == np.uint8
    assert image.shape == (renderer.size[1], renderer.size[0], 3)
    assert image.flags.writeable and image.flags.c_contiguous
    geometry = renderer.geometry
    stone0 = patch(image, geometry, game.rows - 1, 0)
    stone1 = patch(image, geometry, game.rows - 1, last_col)
    empty = patch(image, geometry, 0, last_col // 2)
    for a, b in ((stone0, stone1), (stone0, empty), (stone1, empty)):
        assert np.linalg.norm(a - b) > 10
    if geometry.style.name != "grid":  # a stone's centre has its player's colour
        stones = np.array(renderer.palette.stones)
        for player, col in ((0, 0), (1, last_col)):
            centre = pixel(image, geometry, game.rows - 1, col)
            assert np.argmin(np.linalg.norm(stones - centre, axis=1)) == player


def test_rgb_array_is_a_new_array_each_call():
    renderer = PygameRenderer(tictactoe())
    state = tictactoe().new_initial_state()
    first = renderer.rgb_array(state)
    first[:] = 0
    assert renderer.rgb_array(state).any()


def test_last_move_is_marked():
    for game in (connect_four(), tictactoe(), GomokuGame(size=9), HexGame(size=5)):
        renderer = PygameRenderer(game)
        a, b = cell_action(game, game.rows - 1, 0), cell_action(game, game.rows - 1, 2)
        # the same stones, played in the other order: only the last-move mark moves
        first = renderer.rgb_array(play(game, [a, cell_action(game, 0, game.cols - 1), b]))
        second = renderer.rgb_array(play(game, [b, cell_action(game, 0, game.cols - 1), a]))
        geometry = renderer.geometry
        for col in (0, 2):
            assert (
                np.linalg.norm(
                    patch(first, geometry, game.rows - 1, col)
                    - patch(second, geometry, game.rows - 1, col)
                )
                > 3
            ), (game, col)


def winning_cases():
    c4 = connect_four()
    yield "connect_four diagonal", play(c4, [0, 1, 1, 2, 2, 3, 2, 3, 3, 5]), 3
    ttt = tictactoe()
    yield "tictactoe", play(ttt, [4, 0, 2, 1]), 6
    g = GomokuGame(size=9)
    row4, row5 = [4 * 9 + c for c in range(4)], [5 * 9 + c for c in range(4)]
    moves = [a for pair in zip(row4, row5, strict=True) for a in pair]
    yield "gomoku five", play(g, moves), 4 * 9 + 4
    h = HexGame(size=5)
    chain, other = [(0, 3), (1, 2), (2, 2), (3, 1)], [(0, 0), (1, 0), (2, 0), (3, 0)]
    moves = [a for pair in zip(chain, other, strict=True) for a in pair]
    yield "hex chain", play(h, [r * 5 + c for r, c in moves]), 4 * 5 + 1


@pytest.mark.parametrize(("label", "before", "winning_move"), list(winning_cases()))
def test_winning_cells_are_highlighted_only_at_the_end(label, before, winning_move):
    game = before.game
    renderer = PygameRenderer(game)
    after = before.clone()
    after.apply_action(winning_move)
    assert not before.is_terminal() and after.winner == 0
    winning = after.winning_cells()
    image_before, image_after = renderer.rgb_array(before), renderer.rgb_array(after)
    previous_last = before.last_move_cell()
    geometry = renderer.geometry
    changed = [
        np.linalg.norm(patch(image_before, geometry, *cell) - patch(image_after, geometry, *cell))
        > 3
        for cell in winning
        if cell not in (previous_last, after.last_move_cell())
    ]
    assert changed and all(changed), label
    board = after.board
    for row, col in zip(*np.nonzero(board), strict=True):  # other stones look the same
        cell = (int(row), int(col))
        if cell in winning or cell == previous_last:
            continue
        near_line = any(math.dist(cell, w) < 1.5 for w in winning)
        if not near_line:
            np.testing.assert_array_equal(
                patch(image_before, geometry, *cell), patch(image_after, geometry, *cell)
            )


def test_highlight_previews_a_legal_action_only():
    game = connect_four()
    renderer = PygameRenderer(game)
    state = play(game, [3])
    surface = pygame.Surface(renderer.size)

    def drawn(highlight):
        renderer.draw(surface, state, highlight=highlight)
        return pygame.surfarray.array3d(surface).transpose(1, 0, 2)

    plain = drawn(None)
    preview = drawn(3)  # lands on row 4 of column 3
    geometry = renderer.geometry
    assert np.linalg.norm(patch(preview, geometry, 4, 3) - patch(plain, geometry, 4, 3)) > 10
    np.testing.assert_array_equal(patch(preview, geometry, 3, 3), patch(plain, geometry, 3, 3))
    full = play(game, [3, 3, 3, 3, 3, 3])
    renderer.draw(surface, full)
    no_preview = pygame.surfarray.array3d(surface)
    renderer.draw(surface, full, highlight=3)  # a full column: nothing to preview
    np.testing.assert_array_equal(pygame.surfarray.array3d(surface), no_preview)


def test_status_text_replaces_the_status_bar_only():
    game = connect_four()
    renderer = PygameRenderer(game)
    state = play(game, [3])
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, state, status="AI (mcts) to move")
    custom = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    plain = renderer.rgb_array(state)
    top = renderer.geometry.status_rect[1]
    np.testing.assert_array_equal(custom[:top], plain[:top])  # the board is the same
    assert not np.array_equal(custom[top:], plain[top:])  # the bar says something else
    with pytest.raises(TypeError, match="status must be a str or None"):
        renderer.draw(surface, state, status=5)


def test_draw_onto_a_larger_surface():
    renderer = PygameRenderer(HexGame(size=3))
    state = play(HexGame(size=3), [4])
    surface = pygame.Surface((renderer.size[0] + 50, renderer.size[1] + 20))
    renderer.draw(surface, state)
    region = pygame.surfarray.array3d(surface)[: renderer.size[0], : renderer.size[1]]
    np.testing.assert_array_equal(region.transpose(1, 0, 2), renderer.rgb_array(state))


def test_renderer_rejects_bad_arguments():
    renderer = PygameRenderer(connect_four())
    state = connect_four().new_initial_state()
    with pytest.raises(TypeError, match="BoardGame"):
        PygameRenderer("connect_four")
    with pytest.raises(TypeError, match="GameState"):
        renderer.rgb_array("state")
    with pytest.raises(ValueError, match="position of"):
        renderer.rgb_array(tictactoe().new_initial_state())
    with pytest.raises(ValueError, match="at least"):
        renderer.draw(pygame.Surface((10, 10)), state)
    with pytest.raises(TypeError, match="Surface"):
        renderer.draw(np.zeros((10, 10, 3)), state)
    with pytest.raises(ValueError, match="highlight"):
        renderer.draw(pygame.Surface(renderer.size), state, highlight=7)
    with pytest.raises(TypeError, match="highlight"):
        renderer.draw(pygame.Surface(renderer.size), state, highlight=1.0)
    with pytest.raises(ValueError, match="fps"):
        renderer.show(state, caption="c", fps=0)
    with pytest.raises(TypeError, match="caption"):
        renderer.show(state, caption=None, fps=2)
    assert renderer.window is None  # failed calls opened nothing


# --- human mode ----------------------------------------------------------------------------


def test_show_under_the_dummy_driver():
    game = HexGame(size=4)
    renderer = PygameRenderer(game)
    other = PygameRenderer(connect_four())
    renderer.close()  # close before any show
    state = game.new_initial_state()
    other.show(connect_four().new_initial_state(), caption="other", fps=30)
    start = time.perf_counter()
    for action in (5, 6, 9):
        state.apply_action(action)
        renderer.show(state, caption="hex_v0", fps=1)  # would wait 1 s with a real display
    assert time.perf_counter() - start < 1.0
    assert renderer.window.title == "hex_v0" and tuple(renderer.window.size) == renderer.size
    shown = pygame.surfarray.array3d(renderer.window.get_surface()).transpose(1, 0, 2)
    np.testing.assert_array_equal(shown, renderer.rgb_array(state))
    renderer.close()
    renderer.close()
    assert renderer.window is None
    assert pygame.display.get_init()  # closing one window leaves pygame alone
    other.show(play(connect_four(), [2]), caption="other", fps=30)  # still usable
    other.close()


def test_env_human_mode_steps_and_closes_twice():
    env = hex_v0.env(size=3, render_mode="human")
    env.reset(seed=1)
    for action in (0, 1, 3):
        env.step(action)
    assert env.render() is None
    env.close()
    env.close()
    unopened = connect_n_v0.env(render_mode="human")
    unopened.reset()
    unopened.close()


@pytest.mark.parametrize("render_mode", ["rgb_array", "human"])
def test_copy_and_pickle_after_rendering(render_mode):
    env = gomoku_v0.raw_env(size=9, render_mode=render_mode)
    env.reset()
    for action in (40, 41, 50):
        env.step(action)
    env.render()
    for duplicate in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert duplicate.game_state == env.game_state
        if render_mode == "rgb_array":
            np.testing.assert_array_equal(duplicate.render(), env.render())
        else:
            assert duplicate.render() is None
            assert (
                duplicate._renderer._pygame_renderer.window
                is not env._renderer._pygame_renderer.window
            )
        duplicate.close()
    env.close()


def test_importing_the_package_does_not_import_pygame():
    """Styles, geometry and text work headless: no style module imports pygame."""
    code = (
        "import sys, connectn_env, connectn_env.render\n"
        "from connectn_env.render import BoardGeometry, available_styles, load_style, "
        "render_ansi\n"
        "from connectn_env.games import REGISTRY\n"
        "assert len(available_styles()) >= 4\n"
        "for name in available_styles():\n"
        "    load_style(name)\n"
        "for entry in REGISTRY.values():\n"
        "    game = entry.make()\n"
        "    BoardGeometry(game).action_at((100, 100))\n"
        "    render_ansi(game.new_initial_state())\n"
        "assert 'pygame' not in sys.modules, 'pygame imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=child_environment())


# --- text --------------------------------------------------------------------------------


def test_ansi_connect_four_diagonal_win():
    state = play(connect_four(), [0, 1, 1, 2, 2, 3, 2, 3, 3, 5, 3])
    expected = "\n".join(
        [
            " 1 2 3 4 5 6 7",
            " . . . . . . .",
            " . . . . . . .",
            " . . .[x]. . .",
            " . . x X . . .",
            " . x X O . . .",
            " x O O O . O .",
            "player_0 (X) wins after 11 moves",
        ]
    )
    assert render_ansi(state) == expected


def test_ansi_hex_rows_shift_half_a_cell():
    game = HexGame(size=4)
    state = play(game, [1, 0, 5, 4, 9, 8])
    expected = "\n".join(
        [
            "  a b c d",
            "1 O X . .",
            "2  O X . .",
            "3  [O]X . .",
            "4    . . . .",
            "player_0 (X) to move",
        ]
    )
    assert render_ansi(state) == expected
    state.apply_action(13)
    assert render_ansi(state).splitlines()[1:5] == [
        "1 O x . .",
        "2  O x . .",
        "3   O x . .",
        "4    .[x]. .",
    ]
    assert render_ansi(state).endswith("player_0 (X) wins after 7 moves")


def test_ansi_wide_boards_and_draws():
    wide = play(ConnectNGame(rows=2, cols=28, n=3, gravity=False), [27, 0])
    assert render_ansi(wide).splitlines()[:3] == [
        "   a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s  t  u  v  w  x  y  z aa ab",
        "1 [O] .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  X",
        "2  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .",
    ]
    draw = play(tictactoe(), [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert render_ansi(draw) == "\n".join(
        ["  a b c", "1 X O X", "2 X O O", "3 O X[X]", "draw after 9 moves"]
    )
    assert render_ansi(ConnectNGame(rows=1, cols=1, n=1).new_initial_state()) == (
        " 1\n .\nplayer_0 (X) to move"
    )


def test_ansi_rejects_non_states():
    with pytest.raises(TypeError, match="GameState"):
        render_ansi(connect_four())
