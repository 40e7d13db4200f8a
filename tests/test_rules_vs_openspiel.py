"""Our rules agree with OpenSpiel's on random games: legal actions, player, returns."""

import numpy as np
import pyspiel
import pytest

from connectn_env.games import ConnectNGame, GomokuGame, HexGame, connect_four, tictactoe

CASES = [
    (connect_four, "connect_four", {}),
    (tictactoe, "tic_tac_toe", {}),
    (
        lambda: ConnectNGame(rows=5, cols=4, n=3),
        "connect_four",
        {"rows": 5, "columns": 4, "x_in_row": 3},
    ),
    (lambda: HexGame(size=5), "hex", {"board_size": 5}),
    (lambda: HexGame(size=4, swap=True), "hex", {"board_size": 4, "swap": True}),
    (lambda: HexGame(rows=3, cols=5), "hex", {"num_rows": 3, "num_cols": 5}),
    (lambda: GomokuGame(size=9), "gomoku", {"size": 9}),
]


@pytest.mark.parametrize(("make_game", "name", "params"), CASES)
def test_random_games_match_openspiel(make_game, name, params):
    game = make_game()
    reference = pyspiel.load_game(name, params)
    rng = np.random.default_rng(0)
    for _ in range(60):
        ours = game.new_initial_state()
        theirs = reference.new_initial_state()
        while not theirs.is_terminal():
            assert ours.legal_actions() == list(theirs.legal_actions())
            assert ours.current_player() == theirs.current_player()
            action = int(rng.choice(theirs.legal_actions()))
            ours.apply_action(action)
            theirs.apply_action(action)
        assert ours.is_terminal()
        assert ours.returns() == pytest.approx(list(theirs.returns()))
        assert ours.current_player() == theirs.current_player()
