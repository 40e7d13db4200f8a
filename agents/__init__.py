"""Agents that play any PettingZoo AEC env through its public API: random, policy adapter,
UCT-MCTS (with RAVE and MCTS-Solver) and PUCT (AlphaZero-style); alpha-beta on this suite's
games; Connect Four's perfect player; MCTS planning on single-agent Gymnasium envs.

Every agent has ``act(env) -> action`` for ``env.agent_selection``; search agents also have
``search(env) -> SearchResult``. On this suite's envs the search runs compiled (numba).
``AlphaZeroAgent`` (a network trained by :mod:`agents.alphazero`) needs torch and is imported
on first use.
"""

from typing import Any

from agents.alphabeta import AlphaBetaAgent, AlphaBetaResult
from agents.mcts import MCTSAgent
from agents.perfect import PerfectAgent
from agents.planner import MCTSPlanner, Plan, PlanSearchResult
from agents.puct import PUCTAgent
from agents.search import SearchResult
from agents.simple import PolicyAgent, RandomAgent

__all__ = [
    "AlphaBetaAgent",
    "AlphaBetaResult",
    "AlphaZeroAgent",
    "MCTSAgent",
    "MCTSPlanner",
    "PUCTAgent",
    "PerfectAgent",
    "Plan",
    "PlanSearchResult",
    "PolicyAgent",
    "RandomAgent",
    "SearchResult",
]


def __getattr__(name: str) -> Any:
    """``AlphaZeroAgent`` is imported on first use (it needs torch, an optional extra)."""
    if name == "AlphaZeroAgent":
        from agents.alphazero import AlphaZeroAgent

        return AlphaZeroAgent
    raise AttributeError(f"module 'agents' has no attribute {name!r}")
