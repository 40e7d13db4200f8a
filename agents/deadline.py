"""A clock's bound on a built-in agent's next move, whatever budget the agent was built with.

The search agents (``MCTSAgent``, ``PUCTAgent``, ``AlphaZeroAgent``: every ``SearchAgent``)
and ``AlphaBetaAgent`` stop at the first budget spent of those they have (simulations, nodes,
depth, ``time_limit``). :func:`time_bounded` lowers ``time_limit`` to the clock's seconds for
one move, so that a level's simulations or depth stay its ceiling and the clock becomes its
limit. Other agents (random, Connect Four's perfect player, a user's factory) cannot be
stopped: they answer when they answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from agents.alphabeta import AlphaBetaAgent
from agents.search import SearchAgent
from connectn_env.games.validation import require_number

MIN_SECONDS = 0.01  # the least time a bounded move gets: a search expands its root, at least


def can_be_bounded(agent: Any) -> bool:
    """Whether :func:`time_bounded` bounds ``agent``'s moves (a built-in search agent or
    alpha-beta, subclasses included)."""
    return isinstance(agent, SearchAgent | AlphaBetaAgent)


@contextmanager
def time_bounded(agent: Any, seconds: float | None) -> Iterator[bool]:
    """Within the block, ``agent``'s moves stop after ``seconds`` (at least
    :data:`MIN_SECONDS`) or at its own budget, whichever comes first; its ``time_limit`` is
    restored after, whatever happens. The agent must not search in another thread meanwhile.

    Args:
        agent: Any agent; only those :func:`can_be_bounded` are bounded.
        seconds: The clock's seconds for the move, or None for the agent's own budget.

    Yields:
        Whether the agent's moves are bounded (False for an agent that cannot be, or for
        ``seconds=None``).

    Raises:
        TypeError, ValueError: ``seconds`` is not None or a finite number >= 0.
    """
    if seconds is not None:
        seconds = require_number("seconds", seconds, 0.0)
    if seconds is None or not can_be_bounded(agent):
        yield False
        return
    own = agent.time_limit
    bound = max(seconds, MIN_SECONDS)
    agent.time_limit = bound if own is None else min(own, bound)
    try:
        yield True
    finally:
        agent.time_limit = own
