"""Othello's rules move for move against OpenSpiel's C++ ``othello``: board, player, legal
actions (passes included), terminal and returns, on random games: 300 here, 10,000 in the
slow test (both layouts). Also the suite's Othello as an OpenSpiel game
(``connectn_othello``) under OpenSpiel's own playthrough generator and MCTS."""

from __future__ import annotations

import time

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import generate_playthrough, mcts
from othello_helpers import LAYOUTS, openspiel_board

from connectn_env import openspiel_games
from connectn_env.games import OthelloGame

PLAYTHROUGH_KEYS = (
    "IsTerminal()",
    "History()",
    "CurrentPlayer()",
    "InformationStateString(",
    "LegalActions()",
    "Returns()",
)


def compare_random_games(game: OthelloGame, games: int, seed: int) -> dict[str, int]:
    """Play ``games`` random games on ours and OpenSpiel's side by side, asserting that they
    agree after every action; returns counts of what was seen."""
    name, params = game.openspiel_reference()
    reference = pyspiel.load_game(name, params)
    rng = np.random.default_rng(seed)
    seen = {"actions": 0, "passes": 0, "draws": 0, "player_1_wins": 0, "early_ends": 0}
    for _ in range(games):
        ours = game.new_initial_state()
        theirs = reference.new_initial_state()
        while not theirs.is_terminal():
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal
            assert ours.current_player() == theirs.current_player()
            action = legal[rng.integers(len(legal))]
            ours.apply_action(action)
            theirs.apply_action(action)
            seen["actions"] += 1
            seen["passes"] += action == game.pass_action
        assert ours.is_terminal()
        assert np.array_equal(ours.board, openspiel_board(theirs))
        assert ours.returns() == list(theirs.returns())
        assert ours.history() == theirs.history()
        seen["draws"] += ours.returns() == [0.0, 0.0]
        seen["player_1_wins"] += ours.winner == 1
        seen["early_ends"] += bool((ours.board == 0).any())
    return seen


@pytest.mark.parametrize("layout", LAYOUTS, ids=["bitboards", "padded"])
def test_300_random_games_match_openspiel(layout: type[OthelloGame]) -> None:
    seen = compare_random_games(layout(), 300, seed=1)
    assert seen["passes"] > 0 and seen["draws"] > 0 and seen["early_ends"] > 0
    assert 0 < seen["player_1_wins"] < 300


def test_boards_match_openspiel_after_every_move() -> None:
    reference = pyspiel.load_game("othello")
    rng = np.random.default_rng(5)
    for _ in range(20):
        ours, theirs = OthelloGame().new_initial_state(), reference.new_initial_state()
        while not theirs.is_terminal():
            action = int(rng.choice(theirs.legal_actions()))
            ours.apply_action(action)
            theirs.apply_action(action)
            assert np.array_equal(ours.board, openspiel_board(theirs))


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS, ids=["bitboards", "padded"])
def test_10000_random_games_match_openspiel(layout: type[OthelloGame]) -> None:
    start = time.perf_counter()
    seen = compare_random_games(layout(), 10_000, seed=2)
    print(f"10,000 games, {seen} in {time.perf_counter() - start:.1f} s")
    assert seen["passes"] > 1000 and seen["draws"] > 100


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_openspiel_playthrough_of_connectn_othello_is_othellos(seed: int) -> None:
    openspiel_games.register()

    def facts(game_string: str) -> list[str]:
        lines = generate_playthrough.playthrough_lines(game_string, seed=seed)
        return [line for line in lines if line.startswith(PLAYTHROUGH_KEYS)]

    ours = facts("connectn_othello")
    assert ours == facts("othello")
    assert any(line.startswith("Returns()") for line in ours)


def test_openspiel_mcts_searches_the_same_tree_on_connectn_othello() -> None:
    openspiel_games.register()

    def statistics(game_string: str) -> list[tuple[int, int, float]]:
        game = pyspiel.load_game(game_string)
        state = game.new_initial_state()
        for action in (19, 18):  # d3 c3
            state.apply_action(action)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(3))
        bot = mcts.MCTSBot(game, 1.4, 200, evaluator, random_state=np.random.RandomState(7))
        root = bot.mcts_search(state)
        return [(c.action, c.explore_count, c.total_reward) for c in root.children]

    ours = statistics("connectn_othello")
    assert ours == statistics("othello")
    assert sum(visits for _, visits, _ in ours) > 100
