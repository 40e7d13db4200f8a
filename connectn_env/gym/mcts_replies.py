"""Compiled MCTS replies for the native vector env (imported only for ``opponent="mcts"``).

Each flagged board gets a fresh UCT search (``agents.native.uct_search_action``) driven by
the board's own xorshift generator; one tree buffer serves every board in turn.
"""

from __future__ import annotations

from numba import njit

from agents.native import uct_search_action
from connectn_env.games.kernels import apply_unchecked

# The opponent_kwargs this path understands; with any other the vector env calls the
# Python agent instead (time limits, RAVE...).
NATIVE_MCTS_KWARGS = frozenset({"simulations", "exploration", "max_nodes", "reuse_tree"})


@njit(cache=True)
def mcts_replies(params, states, which, rngs, simulations, exploration, ints, floats, meta):
    """Play the UCT search's move on every flagged board."""
    for i in range(states.shape[0]):
        if which[i]:
            action = uct_search_action(
                params, states[i], simulations, exploration, rngs[i : i + 1], ints, floats, meta
            )
            apply_unchecked(params, states[i], action)
