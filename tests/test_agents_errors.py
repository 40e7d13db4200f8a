"""Bad input: clear errors at construction or first call, and the agent stays usable."""

from __future__ import annotations

import numpy as np
import pytest
from agents_helpers import play

from agents import MCTSAgent, PolicyAgent, PUCTAgent, RandomAgent
from connectn_env import connect_n_v0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"simulations": 0}, ValueError),
        ({"simulations": -5}, ValueError),
        ({"simulations": 1.5}, TypeError),
        ({"time_limit": 0}, ValueError),
        ({"time_limit": "1"}, TypeError),
        ({"exploration": -0.1}, ValueError),
        ({"rave": 1}, TypeError),
        ({"rave_equivalence": 0}, ValueError),
        ({"max_nodes": 1}, ValueError),
        ({"reuse_tree": "yes"}, TypeError),
        ({"seed": -1}, ValueError),
        ({"backend": "gpu"}, ValueError),
    ],
)
def test_mcts_rejects_bad_parameters(kwargs, error):
    with pytest.raises(error):
        MCTSAgent(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"simulations": 0}, ValueError),
        ({"temperature": -1.0}, ValueError),
        ({"c_puct": -1}, ValueError),
        ({"dirichlet_alpha": 0}, ValueError),
        ({"noise_fraction": 1.5}, ValueError),
        ({"policy_value_fn": 3}, TypeError),
    ],
)
def test_puct_rejects_bad_parameters(kwargs, error):
    with pytest.raises(error):
        PUCTAgent(**kwargs)


def test_policy_agent_needs_a_callable():
    with pytest.raises(TypeError):
        PolicyAgent("not a function")


@pytest.mark.parametrize(
    "agent", [MCTSAgent(simulations=10), PUCTAgent(simulations=10), RandomAgent(0)]
)
def test_act_on_a_finished_game(agent):
    env = play(connect_n_v0.env, [0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="game is over"):
        agent.act(env)


@pytest.mark.parametrize(
    ("output", "error", "match"),
    [
        ((np.ones(6), 0.0), ValueError, "shape"),
        ((np.full(7, np.nan), 0.0), ValueError, "finite"),
        ((np.ones(7), 2.0), ValueError, r"\[-1, 1\]"),
        ((np.ones(7), float("nan")), ValueError, r"\[-1, 1\]"),
        ((-np.ones(7), 0.0), ValueError, ">= 0"),
        (np.ones(7), TypeError, "priors, value"),
        (("a" * 7, 0.0), TypeError, "numeric"),
    ],
)
def test_puct_rejects_bad_policy_value_output(output, error, match):
    agent = PUCTAgent(lambda obs: output, simulations=5)
    env = play(connect_n_v0.env, [3])
    with pytest.raises(error, match=match):
        agent.search(env)


def test_policy_value_fn_crash_propagates_and_agent_stays_usable():
    calls = {"n": 0}

    def flaky(observation):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("network exploded")
        return np.ones(7), 0.0

    agent = PUCTAgent(flaky, simulations=20, seed=0)
    env = play(connect_n_v0.env, [3])
    with pytest.raises(RuntimeError, match="network exploded"):
        agent.search(env)
    result = agent.search(env)
    assert result.simulations == 20 and result.visits.sum() == 20


def test_mcts_usable_after_an_error():
    agent = MCTSAgent(simulations=50, seed=0)
    with pytest.raises(ValueError):
        agent.act(play(connect_n_v0.env, [0, 1, 0, 1, 0, 1, 0]))
    env = play(connect_n_v0.env, [3])
    assert 0 <= agent.act(env) < 7


def test_native_backend_needs_our_env():
    from agents_helpers import pz_tictactoe

    env = pz_tictactoe()
    env.reset()
    with pytest.raises(TypeError, match="native"):
        MCTSAgent(simulations=5, backend="native").act(env)
