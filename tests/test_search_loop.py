"""The one compiled search loop (agents/loop.py): evaluators, the external-evaluation protocol,
pruning at the node limit, PUCT's tree reuse, and the cache of its per-game specialisations."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from agents import MCTSAgent, PUCTAgent
from agents import tree as search_tree
from agents.loop import new_workspace, resolve_leaf, rollout_value, run_simulations
from agents.rules import (
    ASK_BOTH,
    SearchPolicy,
    SearchSettings,
    caller_expands,
    expand_on_first_visit,
    expand_on_second_visit,
    search_rules,
)
from connectn_env import connect_n_v0, gomoku_v0
from connectn_env.games import REGISTRY, GameState

NO_DATA = np.zeros(0, dtype=np.int64)
UCT = search_rules("ucb1", roots=("fastest-win",))
PUCT = search_rules("puct")
UCT_SETTINGS = SearchSettings(exploration=1.4)
UCT_POLICY = SearchPolicy(
    UCT.select, expand_on_second_visit, rollout_value, UCT.backup, UCT.root.proven, UCT_SETTINGS
)
PUCT_SETTINGS = SearchSettings(exploration=1.25)
PUCT_POLICY = SearchPolicy(
    PUCT.select, expand_on_first_visit, rollout_value, PUCT.backup, PUCT.root.proven,
    PUCT_SETTINGS,
)  # fmt: skip
PUCT_BY_CALLER = SearchPolicy(
    PUCT.select, caller_expands, rollout_value, PUCT.backup, PUCT.root.proven, PUCT_SETTINGS
)


def searched_tree(game, policy, simulations=300, seed=7):
    state = game.new_initial_state()
    tree = search_tree.new_tree(20_000)
    search_tree.tree_reset(*tree, state.current_player())
    workspace = new_workspace(
        game.kernels, game.params, state.data, game.num_actions, game.max_moves
    )
    rng = np.array([seed], dtype=np.uint64)
    run_simulations(game.kernels, game.params, state.data, tree, policy, rng, workspace,
                    NO_DATA, simulations)  # fmt: skip
    return tree


@pytest.mark.parametrize("game_class", REGISTRY.families(), ids=lambda c: c.name)
def test_the_expansion_rules_expand_on_the_visit_they_say(game_class) -> None:
    """expand_on_second_visit: a node other than the root has children only once visited
    twice, and the visits of the nodes with children add up; expand_on_first_visit: every
    simulation that does not end the game expands one node, visited once or more."""
    game = game_class()
    ints, _, meta = searched_tree(game, UCT_POLICY)
    nodes = int(meta[search_tree.M_NODES])
    expanded = np.flatnonzero(ints[1:nodes, search_tree.I_COUNT] > 0) + 1
    assert len(expanded) > 0
    assert ints[expanded, search_tree.I_VISITS].min() >= 2
    once = np.flatnonzero(ints[1:nodes, search_tree.I_VISITS] == 1) + 1
    assert (ints[once, search_tree.I_COUNT] == 0).all()
    ints, _, meta = searched_tree(game, PUCT_POLICY, simulations=100)
    nodes = int(meta[search_tree.M_NODES])
    expanded = np.flatnonzero(ints[:nodes, search_tree.I_COUNT] > 0)
    terminal = (ints[:nodes, search_tree.I_SOLVED] != search_tree.UNSOLVED).sum()
    assert len(expanded) + terminal >= 100 // 2 and len(expanded) <= 101
    assert ints[expanded, search_tree.I_VISITS].min() >= 1


@pytest.mark.parametrize("game_class", REGISTRY.families(), ids=lambda c: c.name)
def test_external_evaluation_equals_the_compiled_loop(game_class) -> None:
    """Stopping at each leaf and resolving it with the compiled loop's own priors (uniform)
    and value (a play-out drawn from the same generator, after the expansion's shuffle) grows
    exactly the PUCT tree that the compiled loop grows."""
    game = game_class()
    compiled = searched_tree(game, PUCT_POLICY, simulations=200)
    state = game.new_initial_state()
    tree = search_tree.new_tree(20_000)
    search_tree.tree_reset(*tree, state.current_player())
    workspace = new_workspace(
        game.kernels, game.params, state.data, game.num_actions, game.max_moves
    )
    rng = np.array([7], dtype=np.uint64)
    uniform = np.ones(game.num_actions)
    done = stops = 0
    while done < 200:
        done += run_simulations(game.kernels, game.params, state.data, tree, PUCT_BY_CALLER,
                                rng, workspace, NO_DATA, 200 - done)  # fmt: skip
        if done == 200 or workspace.leaf[2] != ASK_BOTH:
            break
        stops += 1
        leaf = GameState(game, workspace.state.copy())
        legal = np.array(leaf.legal_actions(), dtype=np.int64)
        after_shuffle = rng.copy()  # the expansion shuffles first: advance a copy alike
        search_tree.shuffle_together(legal, np.ones(len(legal)), len(legal), after_shuffle)
        r0, _ = rollout_value(game.kernels, game.params, leaf.data, after_shuffle, workspace.game,
                              workspace.moves, workspace.players, 0, tree, NO_DATA)  # fmt: skip
        resolve_leaf(game.kernels, game.params, tree, PUCT_BY_CALLER, workspace, uniform, r0, rng)
        rng[:] = after_shuffle
        done += 1
    assert stops > 0
    nodes = int(compiled[2][search_tree.M_NODES])
    assert int(tree[2][search_tree.M_NODES]) == nodes > 1
    assert np.array_equal(tree[0][:nodes], compiled[0][:nodes])
    assert np.allclose(tree[1][:nodes], compiled[1][:nodes])


def test_a_full_tree_is_pruned_and_keeps_growing() -> None:
    env = gomoku_v0.env(size=9)
    env.reset()
    agent = MCTSAgent(simulations=20_000, max_nodes=4_000, reuse_tree=False, seed=0)
    result = agent.search(env)
    assert result.node_limit_reached
    assert result.simulations == 20_000
    assert result.tree_nodes <= 4_000
    # the root kept every simulation's visit: nothing was lost with the pruned nodes
    assert result.visits.sum() == 20_000


@pytest.mark.parametrize("last_prune_seconds", [0.001, 1.0])
def test_a_timed_search_prunes_a_full_tree_only_with_time_to_spare(
    last_prune_seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = gomoku_v0.env(size=9)
    env.reset()
    agent = MCTSAgent(time_limit=0.2, max_nodes=4_000, reuse_tree=False, seed=0)
    agent._prune_seconds = last_prune_seconds
    prunes = []
    make_room = agent._make_room
    monkeypatch.setattr(agent, "_make_room", lambda: prunes.append(make_room()))
    result = agent.search(env)
    assert result.node_limit_reached
    assert result.elapsed >= 0.9 * 0.2  # a full tree does not end the search
    assert result.visits.sum() == result.simulations
    if last_prune_seconds > 0.1:  # more than half the budget: the tree stays full
        assert not prunes and result.tree_nodes > 4_000 - 82
    else:
        assert prunes


def test_pruning_drops_only_the_children_of_rarely_visited_nodes() -> None:
    game = REGISTRY["connect_four"].make()
    tree = searched_tree(game, UCT_POLICY, simulations=3_000)
    spare = search_tree.new_tree(20_000)
    kept = search_tree.prune(*tree, *spare, 8)
    assert kept == search_tree.kept_nodes(tree[0], 8) < tree[2][search_tree.M_NODES]
    ints = spare[0]
    for node in range(1, kept):
        if ints[node, search_tree.I_COUNT] > 0:
            assert ints[node, search_tree.I_VISITS] >= 8
            first = ints[node, search_tree.I_FIRST]
            assert all(
                ints[c, search_tree.I_PARENT] == node
                for c in range(first, first + ints[node, search_tree.I_COUNT])
            )
    assert ints[0, search_tree.I_VISITS] == tree[0][0, search_tree.I_VISITS]


def test_puct_reuses_its_tree() -> None:
    def policy_value(observation):
        return observation["action_mask"].astype(float), 0.0

    env = connect_n_v0.env()
    env.reset()
    agent = PUCTAgent(policy_value, simulations=300, seed=0)
    first = agent.search(env)
    env.step(first.action)
    second = agent.search(env)  # the other side, one move below the old root
    assert second.visits.sum() > 300
    env.step(second.action)
    fresh = PUCTAgent(policy_value, simulations=300, reuse_tree=False, seed=0).search(env)
    assert fresh.visits.sum() == 300


@pytest.mark.slow  # about 16 s: two processes compile
def test_per_game_specialisations_load_from_the_cache(tmp_path) -> None:
    """compiled_kernel gives kernels stable identities: a second process loads the loop
    specialised on a game from numba's cache instead of compiling it again."""
    script = textwrap.dedent(
        """
        from agents import MCTSAgent
        from agents.loop import run_simulations
        from connectn_env import hex_v0
        env = hex_v0.env(size=5)
        env.reset()
        MCTSAgent(simulations=50, seed=0).act(env)
        print(sum(run_simulations.stats.cache_hits.values()),
              sum(run_simulations.stats.cache_misses.values()))
        """
    )
    environment = {"NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env={**__import__("os").environ, **environment}, timeout=300)
        for _ in range(2)
    ]  # fmt: skip
    first, second = ([int(x) for x in run.stdout.split()] for run in runs)
    assert first == [0, 1]  # compiled and saved
    assert second == [1, 0]  # loaded


def test_an_evaluator_that_allocates_is_refused_when_the_loop_compiles() -> None:
    """The loop runs without numba's reference counting: code it calls must not allocate,
    and numba says so at compile time instead of leaking or crashing."""

    @njit
    def allocating_value(kernels, params, state, rng, workspace, moves, players, count, tree, data):
        scratch = np.zeros(2)
        return scratch[0], count

    with pytest.raises(TypingError, match=r"NRT required|Only accept returning of array"):
        policy = UCT_POLICY._replace(evaluate=allocating_value)
        searched_tree(REGISTRY.make("tictactoe"), policy, simulations=5)


def test_the_lookup_tables_equal_what_the_compiled_code_computes() -> None:
    """Selection and backup read sqrt(ln n) and 1 / sqrt(n) from tables below TABLE_SIZE and
    compute them above: both must agree to the last bit (the OpenSpiel cross-check compares
    visit counts exactly)."""

    @njit
    def computed(size):
        sqrt_logs = np.zeros(size)
        inverse_roots = np.zeros(size)
        for n in range(1, size):
            sqrt_logs[n] = math.sqrt(math.log(n))
            inverse_roots[n] = 1.0 / math.sqrt(n)
        return sqrt_logs, inverse_roots

    sqrt_logs, inverse_roots = computed(search_tree.TABLE_SIZE)
    assert np.array_equal(sqrt_logs, search_tree._SQRT_LOG)
    assert np.array_equal(inverse_roots, search_tree._INV_SQRT)


def test_new_trees_are_zeroed_writable_and_their_own_memory() -> None:
    """new_tree's arrays (mapped in small pages) read as zeros, take writes, and two trees
    share no memory; an empty bound still gives arrays of the right shape."""
    from agents import tree as search_tree

    first, second = search_tree.new_tree(50_000), search_tree.new_tree(50_000)
    for ints, floats, meta in (first, second):
        assert ints.shape == (50_000, search_tree.NUM_INT_FIELDS) and ints.dtype == np.int32
        assert floats.shape == (50_000, search_tree.NUM_FLOAT_FIELDS)
        assert floats.dtype == np.float64 and meta.dtype == np.int64
        assert ints.flags.writeable and ints.flags.c_contiguous and floats.flags.c_contiguous
        assert not ints.any() and not floats.any() and not meta.any()
    first[0][-1, 0], first[1][12_345, 1] = 7, 0.5
    assert first[0][-1, 0] == 7 and first[1][12_345, 1] == 0.5
    assert not second[0].any() and not second[1].any()
    assert not np.shares_memory(first[0], second[0])
    assert search_tree.new_tree(0)[0].shape == (0, search_tree.NUM_INT_FIELDS)
