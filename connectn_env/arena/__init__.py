"""Round-robin tournaments between agents, run in worker processes.

``run_tournament(game, specs, games=...)`` returns a :class:`TournamentResult` with the
per-pairing table (W/D/L, score, Wilson 95% interval) and Elo ratings; ``connectn arena``
prints it. See :mod:`connectn_env.elo` for the statistics and
:mod:`connectn_env.arena.results` for the resumable results file.
"""

from connectn_env.arena.plan import GameTask, agent_labels, plan_games
from connectn_env.arena.results import ArenaError, GameResult, ResultsFile
from connectn_env.arena.stats import Standing, pairing_stats
from connectn_env.arena.tournament import TournamentResult, run_arena_command, run_tournament
from connectn_env.elo import PairingStats, anchor_of, elo_intervals, elo_ratings, wilson

__all__ = [
    "ArenaError",
    "GameResult",
    "GameTask",
    "PairingStats",
    "ResultsFile",
    "Standing",
    "TournamentResult",
    "agent_labels",
    "anchor_of",
    "elo_intervals",
    "elo_ratings",
    "pairing_stats",
    "plan_games",
    "run_arena_command",
    "run_tournament",
    "wilson",
]
