"""Hand-made positions with known outcomes: every line direction, draws, gravity, Gomoku
overlines, Hex chains and the swap rule, ``winning_cells()``; some checked against OpenSpiel."""

from __future__ import annotations

import itertools

import pyspiel
import pytest

from connectn_env import (
    TERMINAL_PLAYER,
    ConnectNGame,
    GomokuGame,
    HexGame,
    IllegalActionError,
    Outcome,
    connect_four,
    tictactoe,
)
from connectn_env.games import BoardGame, GameState

Cell = tuple[int, int]


def play(game: BoardGame, actions: list[int]) -> GameState:
    """Apply ``actions`` from the empty board."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def play_openspiel(name: str, params: dict, actions: list[int]) -> pyspiel.State:
    state = pyspiel.load_game(name, params).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def interleave(game: BoardGame, first: list[Cell], second: list[Cell]) -> list[int]:
    """Cell actions: player_0 plays ``first`` and player_1 ``second``, in turn."""
    order = [cell for pair in itertools.zip_longest(first, second) for cell in pair if cell]
    return [r * game.cols + c for r, c in order]


def has_line(cells: set[Cell], n: int) -> bool:
    """True if ``cells`` holds ``n`` or more consecutive cells along some line direction."""
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all((r + i * dr, c + i * dc) in cells for i in range(n)):
                return True
    return False


def with_fillers(game: BoardGame, line: list[Cell], winner: int, n: int) -> list[int]:
    """Actions where ``winner`` plays ``line`` in order and the other player plays fillers.

    Fillers are the first cells in row-major order that are off the line and never give
    the other player ``n`` in a row (no gravity).
    """
    fillers: list[Cell] = []
    needed = len(line) - 1 if winner == 0 else len(line)
    for cell in itertools.product(range(game.rows), range(game.cols)):
        if len(fillers) == needed:
            break
        if cell not in line and not has_line({*fillers, cell}, n):
            fillers.append(cell)
    assert len(fillers) == needed, "board too small for the fillers"
    return interleave(game, *((line, fillers) if winner == 0 else (fillers, line)))


def assert_won_by(state: GameState, winner: int, cells: list[Cell]) -> None:
    assert state.is_terminal()
    assert state.winner == winner
    assert state.outcome == Outcome(winner + 1)
    assert state.current_player() == TERMINAL_PLAYER
    assert state.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    assert state.winning_cells() == sorted(cells)
    assert state.legal_actions() == []


def assert_ongoing_before_last(game: BoardGame, actions: list[int]) -> None:
    before = play(game, actions[:-1])
    assert not before.is_terminal()
    assert before.winning_cells() == []


# --- Connect-N without gravity: every direction, edges and corners -------------------

ROWS, COLS, N = 5, 6, 4
CONNECT_LINES = {
    "horizontal top-left corner": [(0, 0), (0, 1), (0, 2), (0, 3)],
    "horizontal bottom-right corner": [(4, 2), (4, 3), (4, 4), (4, 5)],
    "vertical left edge": [(1, 0), (2, 0), (3, 0), (4, 0)],
    "vertical right edge": [(0, 5), (1, 5), (2, 5), (3, 5)],
    "diagonal from top-left corner": [(0, 0), (1, 1), (2, 2), (3, 3)],
    "diagonal into bottom-right corner": [(1, 2), (2, 3), (3, 4), (4, 5)],
    "anti-diagonal from top-right corner": [(0, 5), (1, 4), (2, 3), (3, 2)],
    "anti-diagonal into bottom-left corner": [(4, 0), (3, 1), (2, 2), (1, 3)],
    "horizontal, last stone in the middle": [(2, 1), (2, 2), (2, 4), (2, 3)],
    "vertical, last stone in the middle": [(0, 3), (1, 3), (3, 3), (2, 3)],
    "diagonal, last stone in the middle": [(1, 1), (2, 2), (4, 4), (3, 3)],
    "anti-diagonal, last stone in the middle": [(1, 4), (4, 1), (3, 2), (2, 3)],
}


@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize("line", CONNECT_LINES.values(), ids=CONNECT_LINES.keys())
def test_connect_n_lines_in_every_direction(line: list[Cell], winner: int) -> None:
    game = ConnectNGame(rows=ROWS, cols=COLS, n=N, gravity=False)
    actions = with_fillers(game, line, winner, N)
    assert_ongoing_before_last(game, actions)
    state = play(game, actions)
    assert_won_by(state, winner, line)
    assert state.last_move_cell() == line[-1]


def test_connect_n_matches_openspiel_mnk_on_a_non_square_board() -> None:
    game = ConnectNGame(rows=4, cols=5, n=3, gravity=False)
    line = [(3, 2), (1, 4), (2, 3)]  # anti-diagonal into the right edge, middle stone last
    actions = with_fillers(game, line, 1, 3)
    state = play(game, actions)
    reference = play_openspiel("mnk", {"m": 5, "n": 4, "k": 3}, actions)
    assert reference.is_terminal()
    assert state.returns() == list(reference.returns())
    assert_won_by(state, 1, line)


def test_line_shorter_than_n_does_not_win() -> None:
    game = ConnectNGame(rows=ROWS, cols=COLS, n=N, gravity=False)
    # player_0: three in a row and a fourth stone off the line.
    state = play(game, [0, 6, 1, 7, 2, 12, 4])
    assert not state.is_terminal()
    assert state.current_player() == 1


def test_tictactoe_known_draw_matches_openspiel() -> None:
    actions = [4, 0, 2, 6, 3, 5, 7, 1, 8]
    state = play(tictactoe(), actions)
    reference = play_openspiel("tic_tac_toe", {}, actions)
    assert reference.is_terminal()
    assert state.is_terminal()
    assert state.outcome == Outcome.DRAW
    assert state.winner is None
    assert state.returns() == list(reference.returns()) == [0.0, 0.0]
    assert state.winning_cells() == []
    assert state.current_player() == TERMINAL_PLAYER
    assert str(state) == "o o x\nx x o\no x x"


def test_draw_on_a_one_row_board() -> None:
    game = ConnectNGame(rows=1, cols=4, n=3, gravity=False)
    state = play(game, [0, 1, 3, 2])
    assert state.outcome == Outcome.DRAW


@pytest.mark.parametrize("gravity", [False, True])
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 4), (4, 2)])
def test_n_equals_one_first_move_wins(rows: int, cols: int, gravity: bool) -> None:
    game = ConnectNGame(rows=rows, cols=cols, n=1, gravity=gravity)
    action = cols - 1 if gravity else rows * cols - 1
    state = play(game, [action])
    assert_won_by(state, 0, [(rows - 1, cols - 1)])


def test_tall_board_vertical_win() -> None:
    game = ConnectNGame(rows=7, cols=2, n=7, gravity=False)
    line = [(r, 1) for r in range(7)]
    state = play(game, with_fillers(game, line, 0, 7))
    assert_won_by(state, 0, line)


# --- gravity ---------------------------------------------------------------------------


def test_gravity_stacks_stones_and_fills_columns() -> None:
    game = ConnectNGame(rows=3, cols=2, n=3, gravity=True)
    state = play(game, [0, 0, 0])
    assert state.board.tolist() == [[1, 0], [2, 0], [1, 0]]
    assert state.last_move_cell() == (0, 0)
    assert state.legal_actions() == [1]
    assert state.legal_action_mask().tolist() == [0, 1]
    with pytest.raises(IllegalActionError, match="column 0 is full"):
        state.apply_action(0)
    state.apply_action(1)
    assert state.board.tolist() == [[1, 0], [2, 0], [1, 2]]


@pytest.mark.parametrize(
    ("game", "actions"),
    [
        (connect_four(), [3, 3, 4, 2, 0, 6, 6, 6, 6, 5]),
        (ConnectNGame(rows=8, cols=8, gravity=True), [3, 3, 4, 7, 7, 7, 7, 7, 7, 7, 7]),
        (tictactoe(), [4, 0, 8, 2]),
        (tictactoe(), [0, 1, 2, 4, 3, 5, 7, 6, 8]),  # a full board: drawn
    ],
)
def test_connect_n_position_set_up_from_a_board_plays_as_the_game(game, actions) -> None:
    played = play(game, actions)
    for player in (0, 1):
        set_up = game.position(played.board, player)
        assert (set_up.board == played.board).all() and set_up.outcome == played.outcome
        if played.is_terminal():
            continue
        assert set_up.current_player() == player
        assert set_up.legal_actions() == played.legal_actions()
        if player == played.current_player():  # the same game from here on
            for action in played.legal_actions():
                after, expected = set_up.clone(), played.clone()
                after.apply_action(action)
                expected.apply_action(action)
                assert after.outcome == expected.outcome
                assert (after.board == expected.board).all()


@pytest.mark.parametrize(
    ("game", "board", "player", "error", "message"),
    [
        (tictactoe(), [[1, 1, 1], [2, 2, 0], [0, 0, 0]], 1, ValueError, "already holds 3 in a row"),
        (tictactoe(), [[1, 0], [0, 2]], 0, ValueError, r"shape \(3, 3\), got \(2, 2\)"),
        (tictactoe(), [[3, 0, 0], [0, 0, 0], [0, 0, 0]], 0, ValueError, "values must be 0"),
        (tictactoe(), [[0.5] * 3] * 3, 0, TypeError, "must hold integers"),
        (tictactoe(), [[0] * 3] * 3, 2, ValueError, "player must be 0 or 1, got 2"),
        (tictactoe(), [[0] * 3] * 3, True, TypeError, "player must be 0 or 1"),
        (
            ConnectNGame(rows=2, cols=2, n=2, gravity=True),
            [[1, 0], [0, 0]],
            1,
            ValueError,
            "a stone above an empty cell",
        ),
    ],
)
def test_bad_connect_n_set_up_positions_are_refused(game, board, player, error, message) -> None:
    with pytest.raises(error, match=message):
        game.position(board, player)


CONNECT_FOUR_GAMES = {
    "vertical": ([0, 1, 0, 1, 0, 1, 0], 0, [(2, 0), (3, 0), (4, 0), (5, 0)]),
    "vertical, player_1": ([0, 1, 0, 1, 0, 1, 6, 1], 1, [(2, 1), (3, 1), (4, 1), (5, 1)]),
    "bottom row": ([0, 0, 1, 1, 2, 2, 3], 0, [(5, 0), (5, 1), (5, 2), (5, 3)]),
    "rising diagonal": ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0, [(5, 0), (4, 1), (3, 2), (2, 3)]),
    "falling diagonal": ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], 0, [(5, 6), (4, 5), (3, 4), (2, 3)]),
}


@pytest.mark.parametrize(
    ("actions", "winner", "cells"), CONNECT_FOUR_GAMES.values(), ids=CONNECT_FOUR_GAMES.keys()
)
def test_connect_four_games_match_openspiel(
    actions: list[int], winner: int, cells: list[Cell]
) -> None:
    assert_ongoing_before_last(connect_four(), actions)
    state = play(connect_four(), actions)
    reference = play_openspiel("connect_four", {}, actions)
    assert reference.is_terminal()
    assert state.returns() == list(reference.returns())
    assert str(state).replace(" ", "") == str(reference).strip()
    assert_won_by(state, winner, cells)


# --- Gomoku ----------------------------------------------------------------------------


# Black fills the gap last: a run of six (or seven) through the last stone.
SIX = [(7, 2), (7, 3), (7, 4), (7, 6), (7, 7), (7, 5)]
SEVEN = [(7, 1), (7, 2), (7, 3), (7, 4), (7, 6), (7, 7), (7, 5)]
WHITE_FAR = [(0, 2 * i) for i in range(7)]  # spaced out: never five in a row


@pytest.mark.parametrize("overline", [SIX, SEVEN], ids=["six", "seven"])
def test_gomoku_freestyle_overline_wins_like_openspiel(overline: list[Cell]) -> None:
    game = GomokuGame(rule="freestyle")
    actions = interleave(game, overline, WHITE_FAR[: len(overline) - 1])
    assert_ongoing_before_last(game, actions)
    state = play(game, actions)
    assert_won_by(state, 0, overline)
    reference = play_openspiel("gomoku", {"size": 15}, actions)
    assert reference.is_terminal()
    assert state.returns() == list(reference.returns())


@pytest.mark.parametrize("overline", [SIX, SEVEN], ids=["six", "seven"])
def test_gomoku_standard_overline_does_not_win(overline: list[Cell]) -> None:
    game = GomokuGame(rule="standard")
    state = play(game, interleave(game, overline, WHITE_FAR[: len(overline) - 1]))
    assert not state.is_terminal()
    assert state.current_player() == 1
    assert state.winning_cells() == []
    state.apply_action(14 * 15 + 14)  # the game goes on
    assert not state.is_terminal()


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_gomoku_exactly_five_wins_under_both_rules(rule: str) -> None:
    game = GomokuGame(rule=rule)
    five = [(10, 14), (11, 13), (13, 11), (14, 10), (12, 12)]  # anti-diagonal, two edges
    actions = interleave(game, five, WHITE_FAR[:4])
    assert_ongoing_before_last(game, actions)
    assert_won_by(play(game, actions), 0, five)


def test_gomoku_standard_five_blocked_by_opponent_still_wins() -> None:
    game = GomokuGame(rule="standard")
    five = [(3, 1), (3, 2), (3, 3), (3, 4), (3, 5)]
    white = [(3, 0), (3, 6), (0, 0), (0, 2)]
    assert_won_by(play(game, interleave(game, five, white)), 0, five)


def test_gomoku_standard_overline_and_five_in_one_move_wins() -> None:
    game = GomokuGame(rule="standard")
    # Black's last stone (7, 7) makes six in row 7 and exactly five in column 7.
    black = [(7, 4), (7, 5), (7, 6), (7, 8), (7, 9), (3, 7), (4, 7), (5, 7), (6, 7), (7, 7)]
    actions = interleave(game, black, [*WHITE_FAR, (14, 0), (14, 2)])
    assert_ongoing_before_last(game, actions)
    state = play(game, actions)
    assert_won_by(state, 0, [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)])


def test_gomoku_white_wins_on_a_rectangular_board() -> None:
    game = GomokuGame(rows=5, cols=9)
    five = [(4, 4), (3, 5), (2, 6), (1, 7), (0, 8)]  # anti-diagonal corner to corner
    black = [(0, 0), (2, 0), (4, 0), (0, 2), (4, 2)]
    state = play(game, interleave(game, black, five))
    assert_won_by(state, 1, five)


# --- Hex -----------------------------------------------------------------------------


def test_hex_player_0_connects_top_and_bottom() -> None:
    game = HexGame(size=4)
    chain = [(0, 1), (1, 1), (3, 1), (2, 1)]
    actions = interleave(game, chain, [(0, 0), (1, 0), (2, 0)])
    assert_ongoing_before_last(game, actions)
    assert_won_by(play(game, actions), 0, chain)


def test_hex_player_1_connects_left_and_right() -> None:
    game = HexGame(size=4)
    chain = [(2, 0), (2, 1), (2, 3), (2, 2)]
    actions = interleave(game, [(0, 0), (0, 1), (0, 2), (0, 3)], chain)
    assert_ongoing_before_last(game, actions)
    assert_won_by(play(game, actions), 1, chain)


def test_hex_winding_chain_through_both_diagonal_neighbours_matches_openspiel() -> None:
    game = HexGame(size=5)
    # An induced path from (0, 0) down to (4, 2): down column 0, along row 2, up-right to
    # (1, 3) by (r-1, c+1), then back down by (r+1, c-1) steps. The middle stone comes last.
    black = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 3), (1, 4), (2, 4), (3, 3), (4, 2), (2, 2)]
    white = [(0, 2), (0, 3), (0, 4), (1, 1), (1, 2), (4, 4), (4, 3), (3, 4), (0, 1)]
    actions = interleave(game, black, white)
    assert_ongoing_before_last(game, actions)
    state = play(game, actions)
    reference = play_openspiel("hex", {"board_size": 5}, actions)
    assert reference.is_terminal()
    assert state.returns() == list(reference.returns())
    assert_won_by(state, 0, black)


def test_hex_r_plus_1_c_plus_1_is_not_a_neighbour() -> None:
    game = HexGame(size=4)
    diagonal = [(0, 0), (1, 1), (2, 2), (3, 3)]
    state = play(game, interleave(game, diagonal, [(0, 3), (1, 3), (2, 3)]))
    assert not state.is_terminal()
    assert state.winning_cells() == []


def test_hex_chain_between_the_wrong_edges_does_not_win() -> None:
    game = HexGame(size=3)
    # player_0 joins left and right, player_1 joins top and bottom: nobody has won.
    state = play(game, interleave(game, [(1, 0), (1, 1), (1, 2)], [(0, 2), (2, 0)]))
    assert not state.is_terminal()
    game = HexGame(size=3)
    state = play(game, interleave(game, [(0, 0), (2, 2), (0, 1)], [(0, 2), (1, 2), (2, 1)]))
    assert not state.is_terminal()


def test_hex_one_by_one_first_move_wins() -> None:
    for swap in (False, True):
        state = play(HexGame(size=1, swap=swap), [0])
        assert_won_by(state, 0, [(0, 0)])


def test_hex_thin_boards() -> None:
    # One row: any stone of player_0 touches top and bottom.
    assert_won_by(play(HexGame(rows=1, cols=5), [3]), 0, [(0, 3)])
    # One column: player_1's first stone touches left and right.
    assert_won_by(play(HexGame(rows=5, cols=1), [0, 4]), 1, [(4, 0)])


def test_hex_rectangular_board_matches_openspiel() -> None:
    game = HexGame(rows=3, cols=5)
    chain = [(0, 3), (1, 2), (2, 1)]
    actions = interleave(game, chain, [(1, 0), (2, 4)])
    state = play(game, actions)
    reference = play_openspiel("hex", {"num_rows": 3, "num_cols": 5}, actions)
    assert reference.is_terminal()
    assert state.returns() == list(reference.returns())
    assert_won_by(state, 0, chain)


def test_hex_winning_cells_is_a_shortest_chain() -> None:
    game = HexGame(size=4)
    # A detour (0,0) (1,0) (1,1) (0,2) hangs off the straight column chain in column 2.
    black = [(0, 0), (1, 0), (1, 1), (0, 2), (1, 2), (2, 2), (3, 2)]
    white = [(3, 0), (2, 1), (3, 3), (0, 3), (2, 0), (1, 3)]
    state = play(game, interleave(game, black, white))
    assert_won_by(state, 0, [(0, 2), (1, 2), (2, 2), (3, 2)])


# --- Hex swap rule ---------------------------------------------------------------------


@pytest.mark.parametrize(("first", "mirrored"), [((0, 1), (1, 0)), ((2, 2), (2, 2))])
def test_hex_swap_mirrors_the_first_stone(first: Cell, mirrored: Cell) -> None:
    game = HexGame(size=4, swap=True)
    swap = game.swap_action
    assert swap == 16
    state = game.new_initial_state()
    assert swap not in state.legal_actions()
    state.apply_action(first[0] * 4 + first[1])
    assert state.legal_actions()[-1] == swap
    state.apply_action(swap)
    board = [[0] * 4 for _ in range(4)]
    board[mirrored[0]][mirrored[1]] = 2
    assert state.board.tolist() == board
    assert state.current_player() == 0
    assert state.history() == [first[0] * 4 + first[1], swap]
    assert state.last_move_cell() == mirrored
    assert swap not in state.legal_actions()
    assert (first == mirrored) == (first[0] * 4 + first[1] not in state.legal_actions())
    reference = play_openspiel("hex", {"board_size": 4, "swap": True}, state.history())
    assert state.legal_actions() == list(reference.legal_actions())


def test_hex_swap_is_illegal_at_the_wrong_time() -> None:
    game = HexGame(size=3, swap=True)
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="swap is only allowed"):
        state.apply_action(9)
    state.apply_action(4)
    state.apply_action(9)
    with pytest.raises(IllegalActionError, match="swap"):
        state.apply_action(9)  # player_0 after the swap
    state.apply_action(0)
    with pytest.raises(IllegalActionError, match="swap"):
        state.apply_action(9)  # player_1's second move
    state = play(game, [4, 0])
    with pytest.raises(IllegalActionError, match="swap"):
        state.apply_action(9)  # player_0's second move, no swap happened
    with pytest.raises(IllegalActionError, match="actions are 0 to 8"):
        play(HexGame(size=3), [4]).apply_action(9)  # no swap rule: out of range


def test_hex_swapped_stone_counts_for_player_1() -> None:
    game = HexGame(size=4, swap=True)
    # player_0 opens at (0, 1); after the swap player_1 owns (1, 0) on the left edge and
    # completes row 1 with it.
    actions = [1, game.swap_action]
    actions += interleave(game, [(3, 3), (3, 2), (0, 0)], [(1, 1), (1, 2), (1, 3)])
    assert_ongoing_before_last(game, actions)
    state = play(game, actions)
    assert_won_by(state, 1, [(1, 0), (1, 1), (1, 2), (1, 3)])
    reference = play_openspiel("hex", {"board_size": 4, "swap": True}, actions)
    assert reference.is_terminal()
    assert state.returns() == list(reference.returns())


def test_hex_swapped_away_stone_no_longer_counts_for_player_0() -> None:
    game = HexGame(size=2, swap=True)
    # player_0's (0, 0) becomes player_1's (0, 0); player_0's column-0 chain must restart.
    state = play(game, [0, game.swap_action, 2])
    assert not state.is_terminal()
    state.apply_action(3)  # player_1's (1, 1) is not adjacent to its (0, 0)
    assert not state.is_terminal()
    state.apply_action(1)  # player_0's (0, 1) and (1, 0) are adjacent: (r+1, c-1)
    assert_won_by(state, 0, [(0, 1), (1, 0)])
