"""Every registered game's parameter schema: constructors check each parameter (a clear error
naming it), games rebuild from ``parameters``, copy and pickle, and the registry names them."""

from __future__ import annotations

import copy
import pickle

import pytest

from connectn_env.games import REGISTRY, BoardGame, Parameter, UnknownGameError

FAMILIES = REGISTRY.families()


def bad_values(parameter: Parameter) -> list[tuple[object, type[Exception]]]:
    """Values a constructor must refuse, with the error type."""
    if parameter.kind is bool:
        return [(1, TypeError), ("yes", TypeError), (None, TypeError)]
    if parameter.kind is int:
        wrong_type = [(2.0, TypeError), ("6", TypeError), (True, TypeError)]
        if parameter.default is not None:
            wrong_type.append((None, TypeError))
        if parameter.low is None:
            return wrong_type
        return [*wrong_type, (parameter.low - 1, ValueError), (parameter.high + 1, ValueError)]
    return [("no-such-rule", ValueError), (3, TypeError)]


CASES = [
    pytest.param(
        game_class, parameter.name, value, error, id=f"{game_class.name}-{parameter.name}={value!r}"
    )
    for game_class in FAMILIES
    for parameter in game_class.PARAMETERS
    for value, error in bad_values(parameter)
]


@pytest.mark.parametrize(("game_class", "name", "value", "error"), CASES)
def test_a_bad_parameter_is_refused_naming_it(game_class, name, value, error) -> None:
    with pytest.raises(error, match=rf"\b{name}\b"):
        game_class(**{name: value})


@pytest.mark.parametrize("game_class", FAMILIES, ids=lambda c: c.name)
def test_an_unknown_parameter_lists_the_known_ones(game_class) -> None:
    with pytest.raises(TypeError, match="colour") as info:
        game_class(colour="red")
    for parameter in game_class.PARAMETERS:
        assert parameter.name in str(info.value)


SIZED = [c for c in FAMILIES if {"size", "rows", "cols"} <= {p.name for p in c.PARAMETERS}]


@pytest.mark.parametrize("game_class", SIZED, ids=lambda c: c.name)
def test_a_size_that_conflicts_with_rows_or_cols_is_refused(game_class) -> None:
    for sides, shown in (
        ({"rows": 10}, "rows=10"),
        ({"cols": 8}, "cols=8"),
        ({"rows": 7, "cols": 9}, "rows=7, cols=9"),
    ):
        with pytest.raises(ValueError, match=rf"^size=7 conflicts with {shown}: give size"):
            game_class(size=7, **sides)
    agreeing = game_class(size=7, rows=7, cols=7)
    assert (agreeing.rows, agreeing.cols) == (7, 7) == (game_class(size=7).rows, 7)
    assert (game_class(rows=7, cols=9).rows, game_class(rows=7, cols=9).cols) == (7, 9)


def test_gomoku_envs_refuse_a_size_that_conflicts_with_rows() -> None:
    from connectn_env import gomoku_v0

    assert SIZED, "Gomoku and Hex take size, rows and cols"
    with pytest.raises(ValueError, match="size=15 conflicts with rows=10"):
        gomoku_v0.env(size=15, rows=10)


EXAMPLES = [
    pytest.param(game_class, parameters, id=f"{game_class.name}-{parameters}")
    for game_class in FAMILIES
    for parameters in ({}, *game_class.EXAMPLE_PARAMETERS)
]


@pytest.mark.parametrize(("game_class", "parameters"), EXAMPLES)
def test_games_rebuild_copy_and_pickle_with_their_parameters(game_class, parameters) -> None:
    game = game_class(**parameters)
    assert game_class(**game.parameters) == game
    for twin in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin == game and hash(twin) == hash(game)
        assert twin.num_actions == game.num_actions
    assert repr(game).startswith(f"{game_class.__name__}(")
    assert REGISTRY.entry_of(game).game_class is game_class
    assert game.num_actions > 0 and game.max_moves > 0


@pytest.mark.parametrize(("game_class", "parameters"), EXAMPLES)
def test_symmetries_are_permutations_and_start_with_the_identity(game_class, parameters) -> None:
    game: BoardGame = game_class(**parameters)
    symmetries = game.symmetries()
    assert symmetries[0].name == "identity"
    for symmetry in symmetries:
        assert sorted(symmetry.cells.tolist()) == list(range(game.rows * game.cols))
        assert sorted(symmetry.actions.tolist()) == list(range(game.num_actions))
        for action in game.special_actions:
            assert symmetry.actions[action] == action


def test_the_registry_names_presets_and_refuses_unknown_names() -> None:
    assert REGISTRY.entry_of(REGISTRY["connect_four"].make()).name == "connect_four"
    with pytest.raises(UnknownGameError, match="known games: connect_four, tictactoe"):
        REGISTRY["chess"]
    with pytest.raises(ValueError, match="fixed parameters"):
        REGISTRY["tictactoe"].make(rows=4)
