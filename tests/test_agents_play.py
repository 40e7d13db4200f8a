"""Agents in whole games: strength against random, self-play, determinism, seat swaps,
third-party envs (PettingZoo classic, OpenSpiel through shimmy)."""

from __future__ import annotations

import numpy as np
import pytest
from agents_helpers import play, play_game, pz_connect_four, pz_tictactoe

from agents import MCTSAgent, PolicyAgent, PUCTAgent, RandomAgent
from connectn_env import connect_n_v0, gomoku_v0, hex_v0


def _tictactoe():
    return connect_n_v0.env(rows=3, cols=3, n=3, gravity=False)


def test_tictactoe_mcts_never_loses_to_random_and_draws_itself():
    mcts = MCTSAgent(simulations=2000, seed=0)
    for game in range(50):
        env = _tictactoe()
        env.reset()
        seats = ["player_0", "player_1"][:: 1 if game % 2 == 0 else -1]
        totals = play_game(env, {seats[0]: mcts, seats[1]: RandomAgent(seed=game)})
        assert totals[seats[0]] >= 0, f"game {game}: MCTS lost"
    env = _tictactoe()
    env.reset()
    other = MCTSAgent(simulations=2000, seed=1)
    assert play_game(env, {"player_0": mcts, "player_1": other}) == {
        "player_0": 0.0,
        "player_1": 0.0,
    }


def test_connect_four_mcts_beats_random():
    mcts = MCTSAgent(simulations=1000, seed=0)
    wins = 0
    for game in range(50):
        env = connect_n_v0.env()
        env.reset()
        seats = ["player_0", "player_1"][:: 1 if game % 2 == 0 else -1]
        totals = play_game(env, {seats[0]: mcts, seats[1]: RandomAgent(seed=game)})
        wins += totals[seats[0]] > 0
    assert wins >= 48


@pytest.mark.parametrize("rave", [False, True])
@pytest.mark.parametrize("backend", ["auto", "generic"])
def test_same_seed_same_moves(rave, backend):
    def game(seed):
        env = hex_v0.env(size=4)
        env.reset()
        moves = []
        agents = {
            "player_0": MCTSAgent(simulations=200, seed=seed, rave=rave, backend=backend),
            "player_1": MCTSAgent(simulations=200, seed=seed + 1, rave=rave, backend=backend),
        }
        while not env.terminations[env.agent_selection]:
            moves.append(agents[env.agent_selection].act(env))
            env.step(moves[-1])
        return moves

    assert game(5) == game(5)


def test_rave_changes_the_search_and_fills_amaf():
    env = play(lambda: hex_v0.env(size=7), [24])
    plain = MCTSAgent(simulations=3000, seed=0, preset="uct").search(env)
    rave = MCTSAgent(simulations=3000, seed=0, preset="uct", rave=True).search(env)
    assert not np.array_equal(plain.visits, rave.visits)
    assert rave.simulations == plain.simulations == 3000


def test_agents_swap_seats_with_random():
    players = [MCTSAgent(simulations=100, seed=0), RandomAgent(seed=1)]
    for game in range(4):
        env = pz_connect_four()
        env.reset()
        seats = players if game % 2 == 0 else players[::-1]
        totals = play_game(env, dict(zip(env.possible_agents, seats, strict=True)))
        assert sorted(totals.values()) in ([-1, 1], [0, 0])


def test_policy_agent_plays_a_function():
    def leftmost(observation, action_mask):
        assert observation.shape == (6, 7, 2)
        return np.int64(np.flatnonzero(action_mask)[0])

    env = connect_n_v0.env()
    env.reset()
    totals = play_game(env, {"player_0": PolicyAgent(leftmost), "player_1": RandomAgent(0)})
    assert set(totals) == {"player_0", "player_1"}


def test_policy_agent_rejects_illegal_and_non_int_actions():
    env = play(connect_n_v0.env, [0] * 6)  # column 0 is full
    with pytest.raises(ValueError, match="action 0"):
        PolicyAgent(lambda obs, mask: 0).act(env)
    with pytest.raises(TypeError, match="integer"):
        PolicyAgent(lambda obs, mask: 1.5).act(env)
    assert PolicyAgent(lambda obs, mask: np.array([2])).act(env) == 2


def test_othello_through_shimmy():
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(game_name="othello")
    env.reset(seed=0)
    agent = MCTSAgent(simulations=30, seed=0)
    for _ in range(6):
        result = agent.search(env)
        assert env.infos[env.agent_selection]["action_mask"][result.action] == 1
        env.step(result.action)
    assert not env.terminations[env.agent_selection]


def test_memory_flat_with_tree_reuse_and_node_limit():
    """Gomoku 15x15 self-play: 200 moves, tree reused, node limit hit, buffers unchanged."""
    agent = MCTSAgent(simulations=300, max_nodes=5000, seed=0)
    env = gomoku_v0.env(size=15)
    env.reset()
    agent.act(env)
    buffers = [id(a) for tree in agent._trees for a in tree]
    limit_hit = False
    moves = 0
    while moves < 200 and not env.terminations[env.agent_selection]:
        result = agent.search(env)
        limit_hit |= result.node_limit_reached
        assert result.tree_nodes <= 5000
        env.step(result.action if moves % 10 == 0 else RandomAgent(moves).act(env))
        moves += 1
    assert limit_hit
    assert sorted(buffers) == sorted(id(a) for tree in agent._trees for a in tree)


def test_tree_reuse_keeps_the_subtree():
    env = connect_n_v0.env()
    env.reset()
    agent = MCTSAgent(simulations=2000, seed=0, exact=False)  # no opening book: a search
    first = agent.search(env)
    env.step(first.action)
    second = agent.search(env)  # same agent, other side: one move below the old root
    assert second.visits.sum() > 2000


def test_generic_tree_reuse_on_pettingzoo():
    env = pz_tictactoe()
    env.reset()
    agent = MCTSAgent(simulations=500, seed=0)
    first = agent.search(env)
    env.step(first.action)
    env.step(RandomAgent(0).act(env))
    second = agent.search(env)
    assert second.visits.sum() > second.simulations


def test_puct_follows_a_one_hot_prior_and_masks_illegal_moves():
    env = play(connect_n_v0.env, [0] * 6)  # column 0 full

    def net(observation):
        assert set(observation) == {"observation", "action_mask"}
        priors = np.zeros(7)
        priors[0] = 10.0  # all mass on an illegal move ...
        priors[5] = 1.0  # ... and some on 5
        return priors, 0.0

    result = PUCTAgent(net, simulations=50, seed=0).search(env)
    assert result.action == 5
    assert result.visits[0] == 0 and result.pi[0] == 0
    assert result.visits[5] == result.visits.sum()


def test_puct_dirichlet_noise_only_when_asked():
    env = play(connect_n_v0.env, [3])
    quiet = PUCTAgent(simulations=10, seed=0)
    quiet.search(env)
    np.testing.assert_allclose(quiet.root_priors(), np.full(7, 1 / 7))
    noisy = PUCTAgent(simulations=10, seed=0, noise_fraction=0.25, dirichlet_alpha=0.3)
    noisy.search(env)
    priors = noisy.root_priors()
    assert not np.allclose(priors, 1 / 7)
    assert priors.sum() == pytest.approx(1.0)


def test_puct_temperature_samples_moves():
    env = _tictactoe()
    env.reset()
    greedy = {PUCTAgent(simulations=30, seed=s).act(env) for s in range(6)}
    sampled = {PUCTAgent(simulations=30, seed=s, temperature=5.0).act(env) for s in range(6)}
    assert len(sampled) > len(greedy) or len(sampled) > 2


def test_puct_generic_path_and_default_evaluator():
    env = play(pz_tictactoe, [0, 3, 1, 4])
    result = PUCTAgent(simulations=200, seed=0).search(env)
    assert result.action == 2
    assert result.pi.sum() == pytest.approx(1.0)
