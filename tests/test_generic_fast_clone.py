"""The generic search's state adapters (agents.positions) are move-by-move the full env copy:
legal actions, player to move, end of game and result at every step of random games, from
roots in the middle of games; and a search on them visits exactly what a search on full
copies visits."""

from __future__ import annotations

import numpy as np
import pytest
from agents_helpers import pz_connect_four, pz_tictactoe
from shimmy import OpenSpielCompatibilityV0

from agents import MCTSAgent, PUCTAgent
from agents.envapi import clone_env, transparent_core
from agents.positions import (
    BoardState,
    EnvCopyState,
    SpielState,
    full_copies_only,
    register_state_adapter,
    sim_state,
    tictactoe_state,
)

ENVS = {
    "tictactoe_v3": (pz_tictactoe, BoardState),
    "connect_four_v3": (pz_connect_four, BoardState),
    "spiel_tic_tac_toe": (lambda: OpenSpielCompatibilityV0(game_name="tic_tac_toe"), SpielState),
    "spiel_connect_four": (lambda: OpenSpielCompatibilityV0(game_name="connect_four"), SpielState),
    "spiel_nim": (lambda: OpenSpielCompatibilityV0(game_name="nim"), SpielState),
}


def _env_after(name: str, moves: int, generator: np.random.Generator):
    """The env of ``name`` after up to ``moves`` random moves, stopping one move before the
    end (a search root is never over)."""
    env = ENVS[name][0]()
    env.reset()
    for _ in range(moves):
        probe = EnvCopyState(clone_env(transparent_core(env)))
        legal = probe.legal()
        probe.step(int(legal[0]))
        if probe.terminal_r0() is not None:
            break
        env.step(int(generator.choice(legal)))
    return env


@pytest.mark.parametrize("name", sorted(ENVS))
def test_adapter_equals_full_copy_move_by_move(name):
    generator = np.random.default_rng(7)
    games = 0
    for game in range(40):
        env = _env_after(name, game % 6, generator)
        core = transparent_core(env)
        fast, full = sim_state(clone_env(core)), EnvCopyState(clone_env(core))
        assert type(fast) is ENVS[name][1]
        fast = fast.copy()  # the copy is what the search steps
        while True:
            assert fast.terminal_r0() == full.terminal_r0()
            if full.terminal_r0() is not None:
                break
            assert fast.player() == full.player()
            legal = full.legal()
            np.testing.assert_array_equal(fast.legal(), legal)
            action = int(generator.choice(legal))
            fast.step(action)
            full.step(action)
        assert fast.moves == full.moves and fast.players == full.players
        games += 1
    assert games == 40


@pytest.mark.parametrize("name", sorted(ENVS))
def test_rollouts_equal_full_copy(name):
    env = _env_after(name, 2, np.random.default_rng(1))
    core = transparent_core(env)
    for seed in range(20):
        fast = sim_state(clone_env(core)).copy()
        full = EnvCopyState(clone_env(core))
        r_fast = fast.rollout(np.random.default_rng(seed))
        r_full = full.rollout(np.random.default_rng(seed))
        assert (r_fast, fast.moves, fast.players) == (r_full, full.moves, full.players)


@pytest.mark.parametrize("name", ["tictactoe_v3", "spiel_nim", "spiel_connect_four"])
@pytest.mark.parametrize(
    "options", [{"preset": "uct"}, {"rave": True}, {"selection": "ucb1-tuned"}]
)
def test_search_on_adapter_visits_what_full_copies_visit(name, options):
    env = _env_after(name, 1, np.random.default_rng(3))
    fast = MCTSAgent(simulations=300, seed=5, reuse_tree=False, **options).search(env)
    with full_copies_only():
        full = MCTSAgent(simulations=300, seed=5, reuse_tree=False, **options).search(env)
    np.testing.assert_array_equal(fast.visits, full.visits)
    assert fast.action == full.action


def test_full_copies_only_and_registry():
    env = pz_tictactoe()
    env.reset()
    core = clone_env(transparent_core(env))
    with full_copies_only():
        assert type(sim_state(core)) is EnvCopyState
    assert type(sim_state(core)) is BoardState
    with pytest.raises(TypeError, match="env_type must be a class"):
        register_state_adapter("raw_env", lambda env: None)
    with pytest.raises(TypeError, match="adapter must be callable"):
        register_state_adapter(type(core), None)


def test_adapter_declines_chance_games():
    env = OpenSpielCompatibilityV0(game_name="pig")  # dice: chance nodes, more than 2 players ok
    env.reset(seed=0)
    assert type(sim_state(clone_env(transparent_core(env)))) is EnvCopyState


def test_the_generic_workspace_grows_and_keeps_what_it_holds():
    from agents.generic import GenericWorkspace

    workspace = GenericWorkspace()
    small = workspace.ensure(10, 5)
    small.path[:3] = (0, 4, 9)
    small.stamp[1, 4] = 7
    small.leaf[:] = (9, 2, 3)
    big = workspace.ensure(500, 9)
    assert len(big.moves) >= 500 and len(big.path) > len(big.moves) and big.stamp.shape == (2, 9)
    assert big.path[:3].tolist() == [0, 4, 9] and big.stamp[1, 4] == 7
    assert big.leaf.tolist() == [9, 2, 3]
    assert workspace.ensure(20, 9) is big


def test_long_games_and_rave_traces_on_the_generic_path():
    """Breakthrough's random games run past a hundred plies: the trace RAVE reads grows past
    the workspace's first size while the search runs."""
    env = OpenSpielCompatibilityV0(game_name="breakthrough")
    env.reset(seed=0)
    result = MCTSAgent(simulations=60, rave=True, seed=0).search(env)
    assert result.simulations == 60 and result.visits.sum() == 60


def test_a_subclass_gets_the_full_copy_unless_registered(monkeypatch):
    import agents.positions

    monkeypatch.setattr(agents.positions, "_ADAPTERS", dict(agents.positions._ADAPTERS))

    class Variant(type(transparent_core(pz_tictactoe()))):  # may change the rules
        pass

    env = Variant()
    env.reset()
    assert type(sim_state(env)) is EnvCopyState
    register_state_adapter(Variant, tictactoe_state)
    assert type(sim_state(env)) is BoardState


def test_simulations_on_an_adapter_copy_no_env(monkeypatch):
    import agents.positions

    copies = []
    real = agents.positions.copy_unchecked
    monkeypatch.setattr(
        agents.positions, "copy_unchecked", lambda env: copies.append(1) or real(env)
    )
    env = OpenSpielCompatibilityV0(game_name="connect_four")
    env.reset()
    MCTSAgent(simulations=200, seed=0, reuse_tree=False, preset="uct").search(env)
    assert copies == []
    with full_copies_only():
        MCTSAgent(simulations=200, seed=0, reuse_tree=False, preset="uct").search(env)
    assert len(copies) >= 200


@pytest.mark.parametrize("name", ["tictactoe_v3", "spiel_tic_tac_toe"])
def test_puct_without_a_function_plays_on_the_adapter(name, monkeypatch):
    import agents.positions

    copies = []
    real = agents.positions.copy_unchecked
    monkeypatch.setattr(
        agents.positions, "copy_unchecked", lambda env: copies.append(1) or real(env)
    )
    env = _env_after(name, 1, np.random.default_rng(4))
    fast = PUCTAgent(simulations=200, seed=3, reuse_tree=False).search(env)
    assert copies == []
    with full_copies_only():
        full = PUCTAgent(simulations=200, seed=3, reuse_tree=False).search(env)
    assert len(copies) >= 200
    np.testing.assert_array_equal(fast.visits, full.visits)
    assert fast.action == full.action


def test_puct_with_a_function_reads_observations_of_full_copies():
    seen = []

    def uniform(observation):
        seen.append(observation)
        return np.ones(len(observation["action_mask"])), 0.0

    env = _env_after("tictactoe_v3", 1, np.random.default_rng(4))
    result = PUCTAgent(uniform, simulations=50, seed=3, reuse_tree=False).search(env)
    assert len(seen) >= 50 and all(set(o) == {"observation", "action_mask"} for o in seen)
    assert result.visits.sum() == 50
