"""A search's time budget starts after the compile: ``SearchAgent.prepare`` compiles what a
game's searches need on a scratch agent, before the clock, once per options and game."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from agents import MCTSAgent, PUCTAgent
from agents import search as search_module
from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import REGISTRY
from connectn_env.play.session import GameSession


def tictactoe_env(*moves: int) -> BoardGameEnv:
    env = BoardGameEnv(REGISTRY.make("tictactoe"))
    env.reset()
    for move in moves:
        env.step(move)
    return env


@pytest.fixture
def nothing_prepared(monkeypatch):
    """This process has prepared nothing yet (numba's compiled code stays: only the scratch
    searches run again)."""
    monkeypatch.setattr(search_module, "_prepared", set())


@pytest.mark.parametrize(
    "make",
    [
        lambda: MCTSAgent(simulations=300, preset="uct", seed=5),
        lambda: MCTSAgent(simulations=300, seed=5),
        lambda: PUCTAgent(lambda obs: (obs["action_mask"] * 1.0, 0.1), simulations=300, seed=5),
    ],
    ids=["uct", "defaults", "puct-function"],
)
def test_prepare_changes_neither_the_agent_nor_the_env(make, nothing_prepared):
    env = tictactoe_env(4)
    prepared, reference = make(), make()
    scratch_runs = []
    original = search_module.copy_unchecked  # (of the env, for a scratch search from the start)

    def counted(env):
        scratch_runs.append(1)
        return original(env)

    search_module.copy_unchecked = counted
    try:
        prepared.prepare(env)
        prepared.prepare(env)  # once per options and game
        assert env.unwrapped.game_state.history() == [4]
        result = prepared.search(env)
    finally:
        search_module.copy_unchecked = original
    expected = reference.search(env)
    assert len(scratch_runs) == 1
    np.testing.assert_array_equal(result.visits, expected.visits)
    assert result.action == expected.action and result.simulations == expected.simulations


def test_a_function_of_the_agent_is_not_called_by_prepare(nothing_prepared):
    calls = []

    def policy_value(observation):
        calls.append(1)
        return observation["action_mask"] * 1.0, 0.0

    PUCTAgent(policy_value, simulations=50).prepare(tictactoe_env())
    assert calls == []


def test_the_search_prepares_before_its_clock_starts(nothing_prepared, monkeypatch):
    events = []
    original = search_module.copy_unchecked
    monkeypatch.setattr(
        search_module,
        "copy_unchecked",
        lambda env: (events.append("prepare"), original(env))[1],
    )
    real = search_module.time.perf_counter

    class Clock:
        @staticmethod
        def perf_counter():
            events.append("clock")
            return real()

    monkeypatch.setattr(search_module, "time", Clock)
    MCTSAgent(simulations=20, preset="uct").search(tictactoe_env())
    assert events.index("prepare") < events.index("clock")


def test_prepare_on_another_env_or_a_bad_one():
    from pettingzoo.classic import tictactoe_v3

    env = tictactoe_v3.env()
    env.reset()
    MCTSAgent(simulations=10).prepare(env)  # the generic path: nothing to compile
    with pytest.raises(TypeError, match="must be a PettingZoo AEC env"):
        MCTSAgent(simulations=10).prepare("tictactoe")


def test_a_session_prepares_its_agent_in_the_background(nothing_prepared):
    prepared = []

    class Agent(MCTSAgent):
        def prepare(self, env):
            prepared.append(env.unwrapped.game_state.history())
            super().prepare(env)

    session = GameSession(tictactoe_env(), Agent(simulations=10))
    session.play(0)
    thread = session.prepare_agent()
    thread.join(timeout=60)
    assert not thread.is_alive() and prepared == [[0]]
    assert GameSession(tictactoe_env(), None).prepare_agent() is None


COLD_FIRST_MOVE = """
import time
from numba.core import event

fake = [0.0]  # the clock: one second per compiled function, 0.1 ms per simulation


class Clock(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        fake[0] += 1.0


event.register("numba:compile", Clock())
time.perf_counter = lambda: fake[0]

from agents.mcts import MCTSAgent
from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import REGISTRY
from connectn_env.games.compile_notice import compile_notices

simulate = MCTSAgent._native_simulations


def counted(self, state, rng, count):
    done = simulate(self, state, rng, count)
    fake[0] += 1e-4 * done
    return done


MCTSAgent._native_simulations = counted
env = BoardGameEnv(REGISTRY.make("connect_four"))
env.reset()
notes = []
with compile_notices(notes.append):
    cold, warm = (
        MCTSAgent(time_limit=0.5, preset="uct", seed=0).search(env).simulations
        for _ in range(2)
    )
print(cold, warm)
print(sum(note.startswith("compiling Connect Four search kernels") for note in notes))
"""


@pytest.mark.slow
def test_a_cold_first_timed_move_gets_the_simulations_of_a_warm_one(tmp_path):
    """In a fresh process with an empty numba cache, the first timed search compiles (each
    compiled function advances the fake clock a second): its budget starts after that."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "OMP_NUM_THREADS": "1"}
    child = subprocess.run(
        [sys.executable, "-c", COLD_FIRST_MOVE], env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr
    counts, announced = child.stdout.splitlines()
    cold, warm = map(int, counts.split())
    assert warm > 1000 and cold >= 0.9 * warm, (cold, warm)
    assert announced == "1"


@pytest.mark.parametrize(("preset", "searches"), [("uct", [0]), ("default", [0, "solvable"])])
def test_the_exact_solver_is_prepared_at_the_first_position_it_takes_on(
    preset, searches, nothing_prepared, monkeypatch
):
    searched = []
    search = MCTSAgent.search

    def spy(self, env, progress=None):
        state = env.unwrapped.game_state
        solver = state.game.exact_solver()
        searched.append("solvable" if solver.reaches(state) else len(state.history()))
        return search(self, env, progress)

    monkeypatch.setattr(MCTSAgent, "search", spy)
    env = BoardGameEnv(REGISTRY.make("connect_four"))
    env.reset()
    agent = MCTSAgent(simulations=16, preset=preset)
    agent.prepare(env)
    assert searched == [0]  # not the solver's search: a first move does not wait for it
    solver, rng = env.unwrapped.game.exact_solver(), np.random.default_rng(0)
    while not solver.reaches(env.unwrapped.game_state):
        env.step(int(rng.choice(env.unwrapped.game_state.legal_actions())))
    agent.prepare(env)
    agent.prepare(env)
    assert searched == searches


def test_a_search_agent_subclass_that_names_no_scratch_agent_is_not_prepared(nothing_prepared):
    class Mine(search_module.SearchAgent):
        def __init__(self):
            super().__init__(
                simulations=4, time_limit=None, max_nodes=100, reuse_tree=False,
                backend="auto", seed=0,
            )  # fmt: skip

    Mine().prepare(tictactoe_env())
    assert search_module._prepared == set()


def test_what_only_later_searches_run_is_prepared_before_the_second_search(
    nothing_prepared, monkeypatch
):
    upkeep = []
    original = search_module._compile_tree_upkeep
    monkeypatch.setattr(
        search_module, "_compile_tree_upkeep", lambda: (upkeep.append(1), original())
    )
    env = tictactoe_env()
    agent = MCTSAgent(simulations=30, preset="uct")
    agent.search(env)
    assert upkeep == []  # the first move does not wait for the tree's reuse and pruning
    env.step(4)
    agent.search(env)
    agent.search(env)
    assert upkeep == [1]
