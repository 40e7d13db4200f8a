"""Tree buffers of collected agents are reused by the next agent (agents/treepool.py)."""

from __future__ import annotations

import gc

import numpy as np

from agents import MCTSAgent, treepool
from connectn_env import connect_n_v0


def searched(max_nodes: int, *, seed: int = 3, reuse_tree: bool = False):
    env = connect_n_v0.env()
    env.reset()
    env.step(3)
    agent = MCTSAgent(
        simulations=400, max_nodes=max_nodes, reuse_tree=reuse_tree, seed=seed, preset="uct"
    )
    return agent, agent.search(env)


def test_a_new_agent_reuses_a_collected_agents_trees_and_searches_alike() -> None:
    first, _ = searched(6_001, seed=1)
    arrays = [id(array) for tree in first._trees for array in tree]
    del first
    gc.collect()
    second, reused = searched(6_001)
    assert sorted(id(array) for tree in second._trees for array in tree) == sorted(arrays)
    _, fresh = searched(6_002)  # another size: new trees
    assert np.array_equal(reused.visits, fresh.visits)
    assert np.array_equal(reused.values, fresh.values)
    assert reused.action == fresh.action and reused.tree_nodes == fresh.tree_nodes


def test_at_most_one_pair_per_size_is_kept() -> None:
    agents = [searched(6_003, seed=seed)[0] for seed in range(3)]
    trees = {id(agent._trees[0][0]) for agent in agents}
    assert len(trees) == 3  # live agents never share trees
    del agents
    gc.collect()
    assert len(treepool._kept[6_003]) == treepool.KEPT_PER_SIZE == 1
