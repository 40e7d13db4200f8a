"""Hypothesis strategies over the game registry: every registered game family, parameters
drawn from its schema (``Parameter.test_high`` keeps boards small), and random games."""

from __future__ import annotations

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st

from connectn_env.games import REGISTRY, BoardGame, GameState, Parameter


def values(parameter: Parameter) -> st.SearchStrategy:
    """Values of one parameter: ints uniformly within its test bounds, bools, choices; None too
    where the default is None (a derived value)."""
    if parameter.kind is bool:
        strategy = st.booleans()
    elif parameter.kind is int:
        low = 1 if parameter.low is None else parameter.low
        high = parameter.test_high or parameter.high
        strategy = st.sampled_from(range(low, high + 1))  # st.integers favours the low end
    else:
        strategy = st.sampled_from(parameter.choices)
    return st.none() | strategy if parameter.default is None else strategy


@st.composite
def registered_games(draw: st.DrawFn, families: list[type[BoardGame]] | None = None) -> BoardGame:
    """A game of any registered family (or of ``families``), with random valid parameters."""
    game_class = draw(st.sampled_from(families or REGISTRY.families()))
    parameters = {p.name: draw(values(p)) for p in game_class.PARAMETERS}
    parameters = {k: v for k, v in parameters.items() if v is not None}
    try:
        return game_class(**parameters)
    except ValueError:
        reject()


def random_positions(game: BoardGame, seed: int) -> list[GameState]:
    """The positions of one random game (uniform legal moves), first to last."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    positions = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        positions.append(state.clone())
    return positions
