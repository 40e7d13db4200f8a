"""Othello on hand-made positions with known answers, in both state layouts (bitboards and
the padded board): flips in each of the eight directions, several lines at once, lines that
do not flip, the forced pass, the end when neither side can move, full boards, draws; the
start as OpenSpiel sets it; parameters, bad input, notation and text."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pyspiel
import pytest
from othello_helpers import LAYOUTS, PaddedOthello, openspiel_board, picture

from connectn_env.games import (
    REGISTRY,
    TERMINAL_PLAYER,
    IllegalActionError,
    OthelloGame,
    Outcome,
)
from connectn_env.play.notation import move_format, move_name, parse_move

DIRECTIONS = {
    "up": (-1, 0),
    "down": (1, 0),
    "left": (0, -1),
    "right": (0, 1),
    "up-left": (-1, -1),
    "up-right": (-1, 1),
    "down-left": (1, -1),
    "down-right": (1, 1),
}
CENTRE = (3, 3)
BYSTANDERS = {(0, 1): 1, (7, 5): 2}  # on no line through CENTRE: never flipped


def line_from_centre(direction: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells from CENTRE (excluded) to the edge of an 8 x 8 board in ``direction``."""
    (dr, dc), (r, c) = direction, CENTRE
    cells = []
    while 0 <= r + dr < 8 and 0 <= c + dc < 8:
        r, c = r + dr, c + dc
        cells.append((r, c))
    return cells


def board_with(discs: dict[tuple[int, int], int]) -> np.ndarray:
    board = np.zeros((8, 8), dtype=np.int8)
    for cell, value in {**BYSTANDERS, **discs}.items():
        board[cell] = value
    return board


@pytest.fixture(params=LAYOUTS, ids=["bitboards", "padded"])
def layout(request: pytest.FixtureRequest) -> type[OthelloGame]:
    return request.param


# --- flips ------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", DIRECTIONS.values(), ids=DIRECTIONS.keys())
def test_a_move_flips_a_line_in_each_direction(layout, direction) -> None:
    """player_0 at CENTRE closes a line of player_1's discs that runs to one cell short of
    the edge: exactly that line flips."""
    line = line_from_centre(direction)
    discs = {cell: 2 for cell in line[:-1]} | {line[-1]: 1}
    game = layout()
    state = game.position(board_with(discs), 0)
    action = CENTRE[0] * 8 + CENTRE[1]
    assert action in state.legal_actions()
    state.apply_action(action)
    expected = board_with({cell: 1 for cell in line} | {CENTRE: 1})
    assert np.array_equal(state.board, expected)
    assert state.last_move_cell() == CENTRE


def test_every_closed_line_flips_at_once(layout) -> None:
    """Lines in all eight directions closed together; their lengths differ."""
    discs = {}
    for direction in DIRECTIONS.values():
        line = line_from_centre(direction)
        discs |= {cell: 2 for cell in line[:-1]} | {line[-1]: 1}
    state = layout().position(board_with(discs), 0)
    state.apply_action(CENTRE[0] * 8 + CENTRE[1])
    flipped = {cell for cell, value in discs.items() if value == 2}
    assert len(flipped) == 2 + 3 + 2 + 3 + 2 + 2 + 2 + 3  # in the order of DIRECTIONS
    assert np.array_equal(state.board, board_with(dict.fromkeys(discs, 1) | {CENTRE: 1}))


def test_only_closed_lines_flip(layout) -> None:
    """x at c5: up (o o x) and up-right (o x) are closed and flip; right (o to the edge),
    up-left (o o to the edge), down (o, a gap, x), down-left (o then empty) do not; left and
    down-right start with an own disc."""
    board = picture("""
        . . . . . . . .
        . . x . . . . .
        o . o . x . . .
        . o o o . . . .
        . x . o o o o o
        . o o x . . . .
        . . . . . . . .
        . . x . . . . .
    """)
    state = layout().position(board, 0)
    state.apply_action(4 * 8 + 2)  # c5
    expected = board.copy()
    for cell in [(4, 2), (3, 2), (2, 2), (3, 3)]:  # c5 itself, c4, c3 and d4
        expected[cell] = 1
    assert np.array_equal(state.board, expected)


def test_longest_line_of_six_flips(layout) -> None:
    """x o o o o o o . on the top row of an 8 x 8 board: h1 flips six discs."""
    board = picture("""
        x o o o o o o .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    state = layout().position(board, 0)
    assert state.legal_actions() == [7]
    state.apply_action(7)
    assert state.board[0].tolist() == [1] * 8
    assert state.is_terminal() and state.outcome == Outcome.PLAYER_0_WINS  # a wipe-out


def test_move_must_flip_and_explains_why_not(layout) -> None:
    game = layout()
    state = game.new_initial_state()
    before = state.data.copy()
    with pytest.raises(IllegalActionError, match="action 0 is illegal: a1 flips no disc"):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="d4 is occupied"):
        state.apply_action(3 * 8 + 3)
    with pytest.raises(IllegalActionError, match="pass is only legal without a move"):
        state.apply_action(64)
    with pytest.raises(IllegalActionError, match="actions are 0 to 64"):
        state.apply_action(65)
    assert np.array_equal(state.data, before)


# --- passes and the end -----------------------------------------------------------------

FORCED_PASS = """
    x o . .
    . . . .
    . . . .
    o o o x
"""


def test_a_player_without_a_move_must_pass(layout) -> None:
    """player_1 cannot flank a corner disc: its only legal action is the pass (16)."""
    game = layout(size=4)
    state = game.position(picture(FORCED_PASS), 1)
    assert state.legal_actions() == [16]
    assert state.legal_action_mask().tolist() == [0] * 16 + [1]
    with pytest.raises(IllegalActionError, match="c1 flips no disc"):
        state.apply_action(2)
    state.apply_action(16)
    assert state.current_player() == 0
    assert state.last_action == 16 and state.last_move_cell() is None
    assert state.history() == [16]
    assert state.legal_actions() == [2]  # after a pass the other player always has a move
    assert np.array_equal(state.board, picture(FORCED_PASS))


def test_game_ends_when_neither_side_can_move_without_passes(layout) -> None:
    """c1 flips b1; then neither player can place on a board with nine empty cells: the
    game is over at once (no pass is played), 4 discs to 3."""
    game = layout(size=4)
    state = game.position(picture(FORCED_PASS), 0)
    state.apply_action(2)
    assert np.array_equal(state.board, picture("x x x . \n . . . . \n . . . . \n o o o x"))
    assert state.is_terminal()
    assert state.current_player() == TERMINAL_PLAYER
    assert state.legal_actions() == [] and state.legal_action_mask().sum() == 0
    assert state.outcome == Outcome.PLAYER_0_WINS and state.returns() == [1.0, -1.0]
    assert state.winning_cells() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(16)


def test_a_position_where_neither_side_can_move_is_over_at_once(layout) -> None:
    board = picture("x x . . \n . . . . \n . . . . \n o o o x")
    state = layout(size=4).position(board, 1)
    assert state.is_terminal() and state.outcome == Outcome.DRAW and state.returns() == [0.0, 0.0]


BEFORE_LAST_MOVE = """
    . o x o
    o x o o
    o x x o
    o o x x
"""


def test_full_board_ends_in_a_draw_on_equal_discs(layout) -> None:
    """a1 flips b1 only (a-file open to the edge, b2 own): 8 discs each on a full board."""
    state = layout(size=4).position(picture(BEFORE_LAST_MOVE), 0)
    assert state.legal_actions() == [0]
    state.apply_action(0)
    assert state.board[0].tolist() == [1, 1, 1, 2]
    assert state.board[:, 0].tolist() == [1, 2, 2, 2]
    assert (state.board == 1).sum() == (state.board == 2).sum() == 8
    assert state.is_terminal() and state.outcome == Outcome.DRAW and state.winner is None
    assert state.returns() == [0.0, 0.0]


def test_full_board_more_discs_wins(layout) -> None:
    board = picture(BEFORE_LAST_MOVE)
    board[2, 3] = 1  # one disc more for player_0: 9 to 7 after a1
    state = layout(size=4).position(board, 0)
    state.apply_action(0)
    assert state.is_terminal() and state.winner == 0
    assert state.returns() == [1.0, -1.0]
    assert str(state).endswith("discs: x 9, o 7")


def test_player_1_wins_on_more_discs(layout) -> None:
    board = picture(BEFORE_LAST_MOVE)
    board[2, 1] = board[2, 2] = 2  # player_0 then ends with 6 against 10
    state = layout(size=4).position(board, 0)
    state.apply_action(0)
    assert state.is_terminal() and state.winner == 1 and state.returns() == [-1.0, 1.0]


# --- the start, parameters, notation ------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12, 14, 16])
def test_start_has_four_centre_discs_and_player_0_to_move(size) -> None:
    state = OthelloGame(size=size).new_initial_state()
    low, high = size // 2 - 1, size // 2
    expected = np.zeros((size, size), dtype=np.int8)
    expected[low, low] = expected[high, high] = 2
    expected[low, high] = expected[high, low] = 1
    assert np.array_equal(state.board, expected)
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 4
    assert state.game.num_actions == size * size + 1
    assert state.game.max_moves == 2 * (size * size - 4)


def test_start_and_first_moves_are_openspiels() -> None:
    ours = OthelloGame().new_initial_state()
    theirs = pyspiel.load_game("othello").new_initial_state()
    assert np.array_equal(ours.board, openspiel_board(theirs))
    assert ours.legal_actions() == theirs.legal_actions() == [19, 26, 37, 44]
    assert [ours.game.action_name(a) for a in ours.legal_actions()] == [
        theirs.action_to_string(0, a) for a in theirs.legal_actions()
    ]
    assert OthelloGame().openspiel_reference() == ("othello", {})
    assert OthelloGame(size=6).openspiel_reference() is None


@pytest.mark.parametrize("size", [5, 7, 9, 15])
def test_odd_sizes_are_refused(size) -> None:
    with pytest.raises(ValueError, match=f"size must be even \\(4, 6, 8, .*, 16\\), got {size}"):
        OthelloGame(size=size)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"size": 2}, ValueError, "size must be between 4 and 16, got 2"),
        ({"size": 18}, ValueError, "size must be between 4 and 16, got 18"),
        ({"size": 8.0}, TypeError, "size must be an int"),
        ({"rows": 8}, TypeError, "unexpected parameter 'rows'"),
    ],
)
def test_bad_parameters_are_refused(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        OthelloGame(**kwargs)


def test_registry_entry() -> None:
    entry = REGISTRY["othello"]
    assert entry.game_class is OthelloGame
    assert (entry.pettingzoo_id, entry.gym_id) == (
        "connectn_env/othello-v0",
        "connectn_env/Othello-v0",
    )
    assert REGISTRY.make("othello", size=6) == OthelloGame(size=6)
    assert OthelloGame().render_style == "othello"


def test_game_copies_pickles_and_equality() -> None:
    game = OthelloGame(size=6)
    assert pickle.loads(pickle.dumps(game)) == game == copy.deepcopy(game)
    assert game != OthelloGame(size=8) and game != PaddedOthello(size=6)
    assert repr(game) == "OthelloGame(size=6)"


@pytest.mark.parametrize(
    ("board", "player", "error", "message"),
    [
        (np.zeros((4, 4), dtype=np.int8), 0, ValueError, "at least 4 discs, got 0"),
        (np.ones((4, 5), dtype=np.int8), 0, ValueError, r"shape \(4, 4\), got \(4, 5\)"),
        (np.full((4, 4), 3), 0, ValueError, "values must be 0"),
        (np.ones((4, 4)) * 0.5, 0, TypeError, "must hold integers"),
        (picture(FORCED_PASS), 2, ValueError, "player must be 0 or 1, got 2"),
        (picture(FORCED_PASS), True, TypeError, "player must be 0 or 1"),
    ],
)
def test_bad_set_up_positions_are_refused(board, player, error, message) -> None:
    with pytest.raises(error, match=message):
        OthelloGame(size=4).position(board, player)


def test_notation_names_and_parses_the_pass() -> None:
    game = OthelloGame(size=4)
    assert game.special_actions == {16: "pass"}
    assert game.action_name(16) == move_name(game, 16) == "pass"
    assert game.parse_action(" PASS ") == 16
    assert move_name(game, 5) == game.action_name(5) == "b2"
    assert move_format(game) == "a cell, column letter then row number, a1 to d4, or 'pass'"
    forced = game.position(picture(FORCED_PASS), 1)
    assert parse_move(forced, "pass") == 16
    with pytest.raises(ValueError, match="c1 is illegal: it flips no disc"):
        parse_move(forced, "c1")
    start = game.new_initial_state()
    with pytest.raises(ValueError, match="pass is illegal: it is only legal without a move"):
        parse_move(start, "pass")
    with pytest.raises(ValueError, match="b2 is already taken"):
        parse_move(start, "b2")
    assert parse_move(start, "B1") == 1


def test_text_shows_the_board_and_the_disc_count() -> None:
    assert str(OthelloGame(size=4).new_initial_state()) == (
        ". . . .\n. o x .\n. x o .\n. . . .\ndiscs: x 2, o 2"
    )
