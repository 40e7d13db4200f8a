"""PettingZoo API compliance of every env over a grid of parameters.

PettingZoo's ``api_test`` and ``seed_test``, plus checks of the pitfalls listed in the
design notes: exact observation dtypes, cached spaces, ``Discrete.sample(mask)``, numpy
integer actions, Python-bool terminations and fresh observation objects on every call.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from types import ModuleType

import numpy as np
import pettingzoo
import pytest
from aec_helpers import play_to_end, snapshot
from pettingzoo.test import api_test, seed_test

import connectn_env
from connectn_env import ENV_MODULES
from connectn_env.games import REGISTRY

NUM_CYCLES = 300

# Every registered game family with its defaults and its edge cases (EXAMPLE_PARAMETERS):
# a new game gets every test here by being registered.
PARAMETER_GRID: list[tuple[ModuleType, dict]] = [
    (ENV_MODULES[f"{game_class.name}_v0"], parameters)
    for game_class in REGISTRY.families()
    for parameters in ({}, *game_class.EXAMPLE_PARAMETERS)
]
FAMILY_MODULES = [ENV_MODULES[f"{game_class.name}_v0"] for game_class in REGISTRY.families()]


def grid_id(case: tuple[ModuleType, dict]) -> str:
    module, kwargs = case
    args = ",".join(f"{k}={v}" for k, v in kwargs.items()) or "defaults"
    return f"{module.__name__.rsplit('.', 1)[-1]}({args})"


def constructors() -> list:
    """(id, zero-argument constructor) for every factory, parameter set and registry id."""
    cases = [
        pytest.param(
            partial(getattr(module, factory), **kwargs),
            id=f"{factory}-{grid_id((module, kwargs))}",
        )
        for module, kwargs in PARAMETER_GRID
        for factory in ("env", "raw_env")
    ]
    cases += [
        pytest.param(partial(pettingzoo.make, "aec", env_id), id=env_id)
        for env_id in connectn_env.PETTINGZOO_ENVS
    ]
    return cases


CONSTRUCTORS = constructors()


# What api_test says of every env of the suite, and why it cannot be avoided (docs/environments.md,
# "PettingZoo conventions"): the first two are skipped only for the Dict-observation
# envs that api_test lists by name (connect_four_v3, tictactoe_v3, chess_v6, ...); the third
# is the empty board at reset, which PettingZoo's connect_four_v3 also reports (games that
# start with stones on the board, such as Othello, do not get it).
API_TEST_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}
EMPTY_BOARD_WARNING = "Observation numpy array is all zeros."


@pytest.mark.parametrize("make", CONSTRUCTORS)
def test_pettingzoo_api_test(make: Callable) -> None:
    env = make()
    starts_empty = not env.unwrapped.game.new_initial_state().board.any()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=NUM_CYCLES)
    advice = {str(w.message) for w in caught if issubclass(w.category, UserWarning)}
    assert advice == API_TEST_WARNINGS | ({EMPTY_BOARD_WARNING} if starts_empty else set())


@pytest.mark.parametrize("make", CONSTRUCTORS)
def test_pettingzoo_seed_test(make: Callable) -> None:
    seed_test(make, num_cycles=NUM_CYCLES)


@pytest.mark.parametrize("case", PARAMETER_GRID, ids=grid_id)
def test_observations_match_their_spaces_exactly(case: tuple[ModuleType, dict]) -> None:
    module, kwargs = case
    env = module.env(**kwargs)

    def check(env) -> None:
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            assert space is env.observation_space(agent)
            assert env.action_space(agent) is env.action_space(agent)
            obs = env.observe(agent)
            assert set(obs) == set(space.spaces)
            for key, value in obs.items():
                assert value.dtype == space[key].dtype == np.int8
                assert value.shape == space[key].shape
            assert space.contains(obs)
            board, own = env.unwrapped.game_state.board, env.possible_agents.index(agent) + 1
            assert np.array_equal(obs["observation"][..., 0], board == own)
            assert np.array_equal(obs["observation"][..., 1], board == 3 - own)
        for flags in (env.terminations, env.truncations):
            assert all(type(flag) is bool for flag in flags.values())

    env.reset(seed=1)
    play_to_end(env, np.random.default_rng(1), check)
    check(env)


@pytest.mark.parametrize("case", PARAMETER_GRID, ids=grid_id)
def test_discrete_sample_with_our_mask_gives_legal_actions(case: tuple[ModuleType, dict]) -> None:
    module, kwargs = case
    env = module.raw_env(**kwargs)
    env.reset(seed=3)
    for _ in range(4):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            break
        space = env.action_space(env.agent_selection)
        legal = set(env.unwrapped.game_state.legal_actions())
        assert {int(space.sample(obs["action_mask"])) for _ in range(50)} <= legal
        env.step(space.sample(obs["action_mask"]))


NUMPY_ACTIONS = [
    np.int8(2),
    np.int32(2),
    np.int64(2),
    np.uint8(2),
    np.array(2),
    np.array(2, dtype=np.int8),
    np.array(2, dtype=np.uint32),
]


@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("module", FAMILY_MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("kind", NUMPY_ACTIONS, ids=lambda a: f"{type(a).__name__}-{a.dtype}")
def test_step_accepts_numpy_integers(module: ModuleType, factory: str, kind) -> None:
    env, reference = getattr(module, factory)(), getattr(module, factory)()
    env.reset()
    reference.reset()
    legal = env.unwrapped.game_state.legal_actions()[0]
    assert legal < 128  # every kind of integer holds it
    action = np.array(legal, kind.dtype) if isinstance(kind, np.ndarray) else type(kind)(legal)
    env.step(action)
    reference.step(legal)
    assert env.unwrapped.game_state.history() == [legal]
    assert snapshot(env) == snapshot(reference)


@pytest.mark.parametrize("module", FAMILY_MODULES, ids=lambda m: m.__name__)
def test_every_call_returns_new_observation_objects(module: ModuleType) -> None:
    env = module.env()
    env.reset()
    env.step(env.unwrapped.game_state.legal_actions()[0])
    agent = env.agent_selection
    first = env.observe(agent)
    expected = {key: value.copy() for key, value in first.items()}
    from_last = env.last()[0]
    for obs in (first, from_last):
        obs["observation"][...] = 1
        obs["action_mask"][...] = 0
    for again in (env.observe(agent), env.last()[0]):
        for key, value in expected.items():
            assert np.array_equal(again[key], value)
            assert again[key] is not first[key]
    assert (
        env.unwrapped.game_state.legal_actions() == np.flatnonzero(expected["action_mask"]).tolist()
    )


@pytest.mark.parametrize("case", PARAMETER_GRID, ids=grid_id)
def test_mask_is_only_given_to_the_agent_to_move(case: tuple[ModuleType, dict]) -> None:
    module, kwargs = case
    env = module.env(**kwargs)

    def check(env) -> None:
        mover = env.agent_selection
        state = env.unwrapped.game_state
        for agent in env.possible_agents:
            mask = env.observe(agent)["action_mask"]
            if agent == mover and not env.terminations.get(agent, True):
                assert mask.tolist() == state.legal_action_mask().tolist()
                assert mask.any()
            else:
                assert not mask.any()

    env.reset(seed=2)
    play_to_end(env, np.random.default_rng(2), check)
