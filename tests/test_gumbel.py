"""Gumbel root search (agents/gumbel.py): the halving schedule, the improved policy, the move
choice, and better choices than PUCT on few simulations."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from agents_helpers import play, pz_tictactoe

from agents import MCTSAgent, PUCTAgent
from agents.gumbel import MAX_CONSIDERED, halving_level
from agents.options import MAX_SIMULATIONS
from agents.rules import MCTS_SELECTIONS, PUCT_SELECTIONS, search_rules
from connectn_env import connect_n_v0, gomoku_v0, othello_v0
from connectn_env.games import REGISTRY
from connectn_env.specs import parse_agent_spec

TICTACTOE = REGISTRY["tictactoe"].fixed
# Positions where the player to move wins at once with one move (and only with it).
WINS_AT_ONCE = [
    (connect_n_v0.env, {}, [0, 0, 1, 1, 2, 6], 3),
    (connect_n_v0.env, {}, [6, 6, 5, 5, 4, 0], 3),
    (connect_n_v0.env, {}, [0, 1, 0, 1, 0, 2], 0),
    (connect_n_v0.env, TICTACTOE, [0, 3, 1, 4], 2),
    (connect_n_v0.env, TICTACTOE, [0, 1, 4, 2], 8),
    (gomoku_v0.env, {"size": 9}, [0, 9, 1, 10, 2, 11, 3, 12], 4),
]


def _laid_out(considered: int, simulations: int) -> list[int]:
    """The schedule laid out whole, as the search once computed it (for comparison)."""
    if considered <= 1:
        return list(range(simulations))
    phases, schedule, level, moves = math.ceil(math.log2(considered)), [], 0, considered
    while len(schedule) < simulations:
        for _ in range(max(1, simulations // (phases * moves))):
            schedule.extend([level] * moves)
            level += 1
        moves = max(2, moves // 2)
    return schedule[:simulations]


@pytest.mark.parametrize("considered", [1, 2, 3, 7, 16])
@pytest.mark.parametrize("simulations", [1, 8, 50, 200, 1001])
def test_the_schedule_halves_the_considered_moves(considered, simulations) -> None:
    schedule = [halving_level(i, considered, simulations) for i in range(simulations)]
    assert schedule == _laid_out(considered, simulations)
    if considered == 1:
        assert schedule == list(range(simulations))
        return
    first = min(considered, simulations)
    assert schedule[:first] == [0] * first  # every considered move once, first
    assert schedule == sorted(schedule)
    counts = [schedule.count(level) for level in range(schedule[-1])]  # the last may be cut
    assert all(2 <= count <= considered for count in counts)
    assert counts == sorted(counts, reverse=True)


def test_a_budget_of_10_to_the_12_is_planned_without_laying_it_out() -> None:
    """The schedule is read one simulation at a time: a search capped at 10**12 simulations
    under a time limit answers in time (the whole schedule, built first, never ended)."""
    budget = MAX_SIMULATIONS
    assert halving_level(0, 16, budget) == 0
    assert halving_level(budget - 1, 16, budget) > halving_level(budget // 2, 16, budget) > 0
    for make, kwargs in ((connect_n_v0.env, TICTACTOE), (othello_v0.env, {"size": 4})):
        env = play(lambda: make(**kwargs), [])  # noqa: B023
        agent = PUCTAgent(simulations=budget, time_limit=0.3, selection="gumbel", seed=0)
        agent.search(env)  # compiled before the clock
        start = time.perf_counter()
        result = agent.search(env)
        assert time.perf_counter() - start < 5.0 and result.simulations > 0


def test_with_8_simulations_gumbel_finds_winning_moves_more_often_than_puct() -> None:
    """Uniform priors and play-out values, 50 seeds per position: sequential halving tries
    up to 16 moves once each before it spends a second visit, PUCT follows the first move
    whose play-out won. Gumbel finds the win at least as often on each position, and more
    often over all of them."""
    hits = {selection: [] for selection in PUCT_SELECTIONS}
    for make, kwargs, moves, best in WINS_AT_ONCE:
        for selection in PUCT_SELECTIONS:
            found = 0
            for seed in range(50):
                env = play(lambda: make(**kwargs), moves)  # noqa: B023
                agent = PUCTAgent(simulations=8, selection=selection, seed=seed)
                found += agent.search(env).action == best
            hits[selection].append(found)
    assert all(g >= p for g, p in zip(hits["gumbel"], hits["puct"], strict=True)), hits
    assert sum(hits["gumbel"]) > sum(hits["puct"]), hits


@pytest.mark.parametrize("agent", [
    PUCTAgent(simulations=30, selection="gumbel", seed=1),
    MCTSAgent(simulations=30, selection="gumbel", preset="uct", seed=1),
], ids=["puct", "mcts"])  # fmt: skip
def test_the_improved_policy_is_a_distribution_over_the_legal_moves(agent) -> None:
    env = play(connect_n_v0.env, [0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6])  # columns 0 and 6 full
    result = agent.search(env)
    assert result.pi.shape == (7,)
    assert result.pi[0] == result.pi[6] == 0.0
    assert (result.pi[1:6] > 0).all()
    assert result.pi.sum() == pytest.approx(1.0)
    # the move played is one of those the search spent most on
    considered = result.visits[1:6]
    assert result.visits[result.action] == considered.max()


def test_sequential_halving_visits_the_considered_moves_in_its_plan() -> None:
    env = gomoku_v0.env(size=9)
    env.reset()
    result = PUCTAgent(simulations=64, selection="gumbel", seed=3).search(env)
    visited = result.visits[result.visits > 0]
    assert len(visited) == MAX_CONSIDERED  # 81 legal moves, 16 considered
    assert sorted(visited.tolist()) == [1] * 8 + [3] * 4 + [7] * 2 + [15] * 2  # halving


def test_gumbel_searches_third_party_envs_too() -> None:
    env = play(pz_tictactoe, [0, 3, 1, 4])
    for agent in (
        MCTSAgent(simulations=20, selection="gumbel", seed=0),
        PUCTAgent(simulations=20, selection="gumbel", seed=0),
    ):
        result = agent.search(env)
        assert result.action == 2
        assert result.pi.sum() == pytest.approx(1.0)


def test_gumbel_options_are_checked() -> None:
    with pytest.raises(ValueError, match="plans a simulation budget"):
        PUCTAgent(simulations=None, time_limit=1.0, selection="gumbel")
    with pytest.raises(ValueError, match="plans a simulation budget"):
        MCTSAgent(time_limit=1.0, selection="gumbel")
    with pytest.raises(ValueError, match="selection rule 'gumbel' has no RAVE variant"):
        MCTSAgent(simulations=10, selection="gumbel", rave=True)
    env = gomoku_v0.env(size=9)  # Gomoku's defaults have RAVE: refused when the search starts
    env.reset()
    with pytest.raises(ValueError, match="selection='gumbel' with rave=True"):
        MCTSAgent(simulations=10, selection="gumbel").search(env)
    with pytest.raises(ValueError, match="selection"):
        PUCTAgent(selection="ucb1")
    with pytest.raises(ValueError, match="selection rule 'gumbel' has no RAVE variant"):
        search_rules("gumbel", rave=True)
    assert "gumbel" in MCTS_SELECTIONS


def test_gumbel_is_an_agent_spec_key() -> None:
    agent = parse_agent_spec("puct:simulations=16,selection=gumbel").build()
    assert isinstance(agent, PUCTAgent) and agent.selection == "gumbel"
    agent = parse_agent_spec("mcts:simulations=16,selection=gumbel").build()
    assert agent.selection == "gumbel"
    with pytest.raises(ValueError, match="selection"):
        parse_agent_spec("puct:selection=ucb1")


def test_a_reused_tree_plans_only_this_searchs_visits() -> None:
    env = connect_n_v0.env()
    env.reset()
    agent = PUCTAgent(simulations=16, selection="gumbel", seed=0)
    first = agent.search(env)
    second = agent.search(env)  # the same root: the tree is reused
    assert second.visits.sum() == first.visits.sum() + 16
    assert np.isclose(second.pi.sum(), 1.0)


def test_batched_gumbel_halves_in_every_slot_and_answers_with_its_policy() -> None:
    from agents.batched import BatchedSearch, uniform_evaluator
    from agents.tree import I_COUNT, I_FIRST, I_VISITS
    from connectn_env.games import REGISTRY

    game = REGISTRY["gomoku"].make(size=9)
    search = BatchedSearch(game, 3, simulations=64, selection="gumbel", seed=0)
    search.run([0, 1, 2], uniform_evaluator)
    ints = search.trees[0]
    for slot in range(3):
        first, count = ints[slot, 0, I_FIRST], ints[slot, 0, I_COUNT]
        visits = ints[slot, first : first + count, I_VISITS]
        assert sorted(visits[visits > 0].tolist()) == [1] * 8 + [3] * 4 + [7] * 2 + [15] * 2
    policies = search.policies([0, 1, 2])
    assert np.allclose(policies.sum(axis=1), 1.0, atol=1e-5) and (policies >= 0).all()
    moves = search.choose([0, 1, 2], temperature=1.0)  # the halving's move, at any temperature
    assert len(set(moves.tolist())) > 1  # each slot its own Gumbel variables
    for slot, move in enumerate(moves):
        assert policies[slot, move] > 0
        search.play(slot, int(move))
    search.run([0, 1, 2], uniform_evaluator)  # the reused subtrees: only this search is planned
    assert np.allclose(search.policies([0, 1, 2]).sum(axis=1), 1.0, atol=1e-5)
    with pytest.raises(ValueError, match="selection"):
        BatchedSearch(game, 1, simulations=8, selection="ucb1")


def test_searches_that_make_a_policy_each_keep_no_more_than_the_newest_types() -> None:
    """Gumbel makes a policy per search (its noise and plan); the typing cache of policies
    stays bounded over many searches."""
    from agents.rules import SearchPolicy
    from connectn_env.games.contract import TYPES_KEPT

    env = connect_n_v0.env()
    env.reset()
    agent = PUCTAgent(lambda obs: (obs["action_mask"], 0.0), simulations=4, selection="gumbel")
    for _ in range(TYPES_KEPT + 20):
        agent.search(env)
    assert 0 < len(SearchPolicy._numba_types) <= TYPES_KEPT


def test_before_the_root_is_expanded_there_is_no_plan() -> None:
    """The search's first simulation runs on an unplanned root: an empty plan (a plan without
    the children's start visits made the root rule read past them)."""
    from agents.gumbel import prepare
    from agents.rules import SearchSettings
    from agents.tree import new_tree, tree_reset

    tree = new_tree(10)
    tree_reset(*tree, 0)
    settings = prepare(tree, SearchSettings(exploration=1.0), np.random.default_rng(0), 30)
    assert settings.plan.shape == settings.start.shape == settings.gumbel.shape == (0,)
