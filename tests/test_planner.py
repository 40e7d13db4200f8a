"""MCTSPlanner: shortest paths on GridPath compared with A*, the goal on Gymnasium's
FrozenLake and CliffWalking, the env left untouched, the return scale, and bad input."""

from __future__ import annotations

import re
import threading

import gymnasium as gym
import numpy as np
import pytest

import connectn_env  # noqa: F401  (registers GridPath-v0)
from agents import MCTSPlanner, Plan
from agents import tree as search_tree
from agents.planner import _ReturnScale
from connectn_env.gridpath import GridPathEnv, astar

MARGIN = 2  # steps a plan may be longer than A*'s path (every map below: 0 when measured)


def replay(env: gym.Env, seed: int, actions: tuple[int, ...]) -> tuple[float, bool]:
    """(return, terminated) of playing ``actions`` after ``env.reset(seed=seed)``."""
    env.reset(seed=seed)
    total, terminated = 0.0, False
    for action in actions:
        _, reward, terminated, truncated, _ = env.step(action)
        total += reward
        if terminated or truncated:
            break
    return total, terminated


@pytest.mark.parametrize(
    "make_planner",
    [
        # A*'s own heuristic as the leaf value, no roll-outs
        lambda: MCTSPlanner(
            simulations=200, rollout_depth=0, evaluate=lambda env: env.heuristic_value(), seed=0
        ),
        # no knowledge at all: the return so far is the leaf value
        lambda: MCTSPlanner(simulations=200, rollout_depth=0, seed=0),
    ],
    ids=["heuristic", "no-heuristic"],
)
def test_gridpath_20x20_plans_are_as_short_as_astar(make_planner):
    env = gym.make("connectn_env/GridPath-v0", size=20, obstacle_density=0.3)
    excess = []
    for seed in range(5):
        env.reset(seed=seed)
        shortest = len(astar(env.unwrapped.grid_map)) - 1
        plan = make_planner().plan(env)
        assert plan.terminated and not plan.truncated
        assert replay(env, seed, plan.actions) == (pytest.approx(plan.total_return), True)
        assert plan.total_return == pytest.approx(1.0 - 0.01 * len(plan.actions))
        excess.append(len(plan.actions) - shortest)
    assert all(0 <= steps <= MARGIN for steps in excess), excess
    assert excess.count(0) >= 4, excess


def test_acting_step_by_step_reaches_the_goal():
    env = GridPathEnv(size=10, obstacle_density=0.3)
    env.reset(seed=1)
    planner = MCTSPlanner(simulations=300, rollout_depth=0, seed=0)
    terminated = False
    for _ in range(60):
        _, _, terminated, truncated, _ = env.step(planner.act(env))
        if terminated or truncated:
            break
    assert terminated


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [("FrozenLake-v1", {"is_slippery": False}), ("FrozenLake8x8-v1", {"is_slippery": False})],
)
def test_frozen_lake_goal_is_reached(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    env.reset(seed=0)
    plan = MCTSPlanner(simulations=50, max_depth=100, seed=0).plan(env)
    assert plan.terminated and plan.total_return == 1.0
    assert replay(env, 0, plan.actions) == (1.0, True)


@pytest.mark.slow  # about 7 s
def test_cliff_walking_goal_is_reached_along_the_cliff():
    env = gym.make("CliffWalking-v1")
    env.reset(seed=0)
    plan = MCTSPlanner(simulations=200, max_depth=100, seed=0).plan(env)
    assert plan.terminated and plan.total_return >= -15.0  # the shortest path: 13 steps
    assert replay(env, 0, plan.actions) == (plan.total_return, True)


def test_the_env_is_left_as_it_was():
    env = gym.make("connectn_env/GridPath-v0", size=12, render_mode="ansi")
    env.reset(seed=4)
    env.step(1)
    before = env.unwrapped.clone_state()
    planner = MCTSPlanner(simulations=100, seed=0)
    planner.search(env)
    planner.plan(env, max_searches=3)
    assert env.unwrapped.clone_state() == before
    assert env.unwrapped.render_mode == "ansi"
    lake = gym.make("FrozenLake-v1", is_slippery=False)
    lake.reset(seed=0)
    lake.step(2)
    position = lake.unwrapped.s
    planner.plan(lake)
    assert lake.unwrapped.s == position


def test_search_result_counts_and_values():
    env = GridPathEnv(grid_map="S...\n.##.\n...G")
    env.reset()
    result = MCTSPlanner(simulations=64, rollout_depth=0, seed=0).search(env)
    assert result.visits.shape == (4,) and result.visits.sum() == result.simulations == 64
    assert result.best_return == pytest.approx(1.0 - 0.05)  # 5 steps
    assert result.action == result.best_actions[0] and len(result.best_actions) == 5
    assert result.action in (1, 2)  # right or down: both start a shortest path
    assert result.values[result.action] <= result.best_return + 1e-9
    assert result.tree_nodes > 1


def test_planning_without_revisit_pruning_still_finds_the_goal():
    env = GridPathEnv(size=8, obstacle_density=0.2)
    env.reset(seed=2)
    plan = MCTSPlanner(simulations=300, prune_revisits=False, seed=0).plan(env)  # roll-outs
    assert plan.terminated
    assert isinstance(plan, Plan) and plan.searches >= len(plan.actions)


def test_a_fixed_value_range_plans_as_well():
    env = GridPathEnv(size=10, obstacle_density=0.3)
    env.reset(seed=5)
    shortest = len(astar(env.grid_map)) - 1
    planner = MCTSPlanner(simulations=200, rollout_depth=0, value_range=(-2.0, 1.0), seed=0)
    plan = planner.plan(env)
    assert plan.terminated and len(plan.actions) <= shortest + MARGIN


def test_the_adaptive_return_scale_rescales_stored_values_exactly():
    rng = np.random.default_rng(0)
    tree = search_tree.new_tree(16)
    ints, floats, meta = tree
    search_tree.tree_reset(ints, floats, meta, 0)
    actions = np.arange(3, dtype=np.int64)
    search_tree.expand(ints, floats, meta, 0, 0, actions, np.full(3, 1 / 3), 3)
    scale = _ReturnScale(None)
    returns: dict[int, list[float]] = {1: [], 2: [], 3: []}
    for _ in range(200):
        child = int(rng.integers(1, 4))
        value = float(rng.normal(child, 3.0))
        returns[child].append(value)
        search_tree.backup(ints, floats, child, scale.normalise(value, tree))
    for child, values in returns.items():
        stored = scale.to_return(np.array([floats[child, search_tree.F_MEAN]]))[0]
        assert stored == pytest.approx(np.mean(values))
    everything = [v for values in returns.values() for v in values]
    assert (scale.low, scale.high) == (min(everything), max(everything))
    root_mean = -floats[0, search_tree.F_VALUE] / ints[0, search_tree.I_VISITS]
    assert scale.to_return(np.array([root_mean]))[0] == pytest.approx(np.mean(everything))


class LockedEnv(gym.Env):
    """A deterministic env that cannot be copied and has no clone/restore interface."""

    action_space = gym.spaces.Discrete(2)
    observation_space = gym.spaces.Discrete(2)

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return 0, {}

    def step(self, action):
        return 0, 1.0, True, False, {}


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"simulations": 0}, ValueError),
        ({"time_limit": 0}, ValueError),
        ({"exploration": -1}, ValueError),
        ({"max_depth": 0}, ValueError),
        ({"rollout_depth": -1}, ValueError),
        ({"evaluate": 3}, TypeError),
        ({"value_range": (1.0, 0.0)}, ValueError),
        ({"value_range": 1.0}, TypeError),
        ({"discount": 0}, ValueError),
        ({"discount": 1.5}, ValueError),
        ({"max_nodes": 1}, ValueError),
        ({"prune_revisits": "yes"}, TypeError),
        ({"seed": -1}, ValueError),
    ],
)
def test_bad_parameters_are_refused(kwargs, error):
    with pytest.raises(error):
        MCTSPlanner(**kwargs)


NOT_FINITE = "evaluate must return a finite number from -1e+300 to 1e+300, got "
NOT_REAL = "evaluate must return a real number, got "


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (float("inf"), ValueError, NOT_FINITE + "inf"),
        (float("nan"), ValueError, NOT_FINITE + "nan"),
        (1e308, ValueError, NOT_FINITE + "1e+308"),  # would overflow the return scale
        (-1e301, ValueError, NOT_FINITE + "-1e+301"),
        (np.float64("-inf"), ValueError, NOT_FINITE + "-inf"),
        ("0.5", TypeError, NOT_REAL + "'0.5' of type str"),
        (None, TypeError, NOT_REAL + "None of type NoneType"),
        (True, TypeError, NOT_REAL + "True of type bool"),
        (np.array([1.0]), TypeError, NOT_REAL + "array([1.]) of type ndarray"),
    ],
)
def test_an_evaluate_that_returns_no_usable_number_is_refused(value, error, message):
    env = GridPathEnv(grid_map="S...\n.##.\n...G")
    env.reset()
    planner = MCTSPlanner(simulations=16, rollout_depth=0, evaluate=lambda _: value, seed=0)
    with pytest.raises(error, match=re.escape(message)):
        planner.search(env)
    assert env.position == (0, 0) and env.steps == 0  # the env is left as it was
    for fine in (1e300, np.float32(2.0), 3):
        planner.evaluate = lambda _, fine=fine: fine
        assert np.isfinite(planner.search(env).values).all()


def test_envs_it_cannot_plan_on_are_refused():
    planner = MCTSPlanner(simulations=50, seed=0)
    with pytest.raises(TypeError, match="Discrete action space"):
        planner.search(gym.make("Pendulum-v1"))
    with pytest.raises(TypeError, match="Discrete action space"):
        planner.search("not an env")
    locked = LockedEnv()
    locked.reset(seed=0)
    with pytest.raises(TypeError, match="cannot copy env"):
        planner.plan(locked)
    env = GridPathEnv(size=5)
    with pytest.raises(ValueError, match="call reset"):
        planner.search(env)  # not reset yet: the env's own error, and the env is unchanged
    assert env.grid_map is None
    env.reset(seed=0)
    with pytest.raises(ValueError, match="max_searches"):
        planner.plan(env, max_searches=0)
    assert planner.plan(env).terminated  # the planner is still usable
