"""Our rules agree with OpenSpiel's on random games (legal actions, player, returns), for every
registered game and parameter set that OpenSpiel also has (``BoardGame.openspiel_reference``)."""

import numpy as np
import pyspiel
import pytest

from connectn_env.games import REGISTRY

MAX_CELLS = 225  # larger example boards make slow OpenSpiel games and add nothing
CASES = [
    pytest.param(game, id=repr(game))
    for game_class in REGISTRY.families()
    for parameters in ({}, *game_class.EXAMPLE_PARAMETERS)
    if (game := game_class(**parameters)).openspiel_reference() is not None
    and game.rows * game.cols <= MAX_CELLS
]


def test_every_family_has_an_openspiel_case():
    covered = {param.values[0].name for param in CASES}
    assert covered == {game_class.name for game_class in REGISTRY.families()}


@pytest.mark.parametrize("game", CASES)
def test_random_games_match_openspiel(game):
    name, parameters = game.openspiel_reference()
    reference = pyspiel.load_game(name, parameters)
    assert reference.num_distinct_actions() == game.num_distinct_actions()
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
