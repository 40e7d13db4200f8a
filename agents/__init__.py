"""Agents that play any PettingZoo AEC env through its public API: random, policy adapter,
UCT-MCTS (with RAVE and MCTS-Solver) and PUCT (AlphaZero-style); alpha-beta on this suite's
games; MCTS planning on single-agent Gymnasium envs.

Every agent has ``act(env) -> action`` for ``env.agent_selection``; search agents also have
``search(env) -> SearchResult``. On this suite's envs the search runs compiled (numba).
"""

from agents.alphabeta import AlphaBetaAgent, AlphaBetaResult
from agents.mcts import MCTSAgent
from agents.planner import MCTSPlanner, Plan, PlanSearchResult
from agents.puct import PUCTAgent
from agents.search import SearchResult
from agents.simple import PolicyAgent, RandomAgent

__all__ = [
    "AlphaBetaAgent",
    "AlphaBetaResult",
    "MCTSAgent",
    "MCTSPlanner",
    "PUCTAgent",
    "Plan",
    "PlanSearchResult",
    "PolicyAgent",
    "RandomAgent",
    "SearchResult",
]
