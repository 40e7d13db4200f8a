"""The search progress hook: called between chunks, can stop the search early."""

import pytest

from agents import MCTSAgent, PUCTAgent
from connectn_env import connect_n_v0, tictactoe
from connectn_env.games import REGISTRY


@pytest.mark.parametrize("agent_type", [MCTSAgent, PUCTAgent])
def test_progress_reports_growing_simulations_and_values_in_range(agent_type):
    env = connect_n_v0.env()
    env.reset()
    for column in (3, 2, 3):  # beyond the opening book, which answers without a search
        env.step(column)
    calls = []
    agent = agent_type(simulations=2000, seed=0)
    result = agent.search(env, progress=lambda n, t, v: calls.append((n, t, v)))
    assert calls, "progress was never called"
    sims = [n for n, _, _ in calls]
    assert sims == sorted(sims) and sims[-1] <= result.simulations
    assert all(-1.0 <= v <= 1.0 and t >= 0.0 for _, t, v in calls)


def test_progress_returning_true_stops_the_search():
    env = connect_n_v0.env()
    env.reset()
    for column in (3, 2, 3):  # beyond the opening book, which answers without a search
        env.step(column)
    agent = MCTSAgent(simulations=200_000, seed=0)
    result = agent.search(env, progress=lambda n, t, v: n >= 1000)
    assert 1000 <= result.simulations < 200_000
    assert env.unwrapped.game_state.legal_action_mask()[result.action] == 1


def test_progress_must_be_callable_and_agent_stays_usable():
    env = connect_n_v0.env(**REGISTRY["tictactoe"].fixed)
    env.reset()
    agent = MCTSAgent(simulations=100, seed=0)
    with pytest.raises(TypeError, match="progress"):
        agent.search(env, progress="not callable")
    assert agent.act(env) in tictactoe().new_initial_state().legal_actions()
