"""Compiled MCTS replies for the native vector env (imported only for ``opponent="mcts"``).

Each flagged board gets a fresh search of the one compiled search loop
(``agents.loop.search_action``, with the agent's policy and move choice) driven by the board's
own xorshift generator; one tree buffer and one workspace serve every board in turn.
"""

from __future__ import annotations

from agents.loop import search_action
from connectn_env.games.lib.jit import njit

# The opponent_kwargs this path understands; with any other the vector env calls the
# Python agent instead (time limits, RAVE...).
NATIVE_MCTS_KWARGS = frozenset({"simulations", "exploration", "max_nodes", "reuse_tree"})


@njit(cache=True)
def mcts_replies(
    kernels, params, states, which, rngs, simulations, policy, choose, tree, workspace, data
):
    """Play the search's move on every flagged board."""
    for i in range(states.shape[0]):
        if which[i]:
            action = search_action(
                kernels,
                params,
                states[i],
                tree,
                policy,
                choose,
                rngs[i : i + 1],
                workspace,
                data,
                simulations,
            )
            kernels.apply(params, states[i], action)
