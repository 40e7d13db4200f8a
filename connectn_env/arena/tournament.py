"""Round-robin tournaments: :func:`run_tournament` and the ``connectn arena`` command."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectn_env.arena.plan import agent_labels, plan_games
from connectn_env.arena.pool import play_games
from connectn_env.arena.progress import Progress
from connectn_env.arena.results import ArenaError, GameResult, ResultsFile
from connectn_env.arena.stats import (
    CI_METHOD,
    ELO_METHOD,
    PairingStats,
    Standing,
    anchor_of,
    elo_ratings,
    pairing_stats,
    standings,
)
from connectn_env.games.validation import require_int, require_number
from connectn_env.records.gameconfig import GameConfig
from connectn_env.records.record import save_record
from connectn_env.specs import AgentSpec, parse_agent_spec

__all__ = ["TournamentResult", "run_arena_command", "run_tournament"]


@dataclass(frozen=True)
class TournamentResult:
    """Every game of a finished tournament and the tables computed from them.

    Attributes:
        game: The game.
        labels: Agent labels in command-line order.
        results: The planned games' results (resumed ones included), in plan order.
        games: Games per pairing.
        seed: Base seed.
        move_timeout: Seconds per move, or None.
        played: Games played by this run (the rest came from the results file).
    """

    game: GameConfig
    labels: tuple[str, ...]
    results: tuple[GameResult, ...]
    games: int
    seed: int
    move_timeout: float | None
    played: int

    @property
    def pairings(self) -> list[PairingStats]:
        """Wins, draws, losses and score of each pairing (first agent's side)."""
        return pairing_stats(self.labels, self.results)

    @property
    def elo(self) -> dict[str, float]:
        """Elo rating of each agent, anchored at :attr:`anchor`."""
        return elo_ratings(self.labels, self.pairings)

    @property
    def anchor(self) -> str:
        """The agent rated 0 (``random`` when present, else the first agent)."""
        return anchor_of(self.labels)

    @property
    def standings(self) -> list[Standing]:
        return standings(self.labels, self.results, self.elo)

    def table(self) -> str:
        """The pairing table, the Elo table and the errors, as printed by ``connectn arena``."""
        lines = [f"{self.game}: {self.games} games per pairing, seed {self.seed}", ""]
        lines += _pairing_table(self.pairings)
        lines += ["", *_elo_table(self.standings)]
        first = [r.score_of(r.players[0]) for r in self.results]
        lines += [
            "",
            "score: points per game of the pairing's first agent (win 1, draw 1/2);",
            "95% CI: Wilson score interval on the score.",
            f"Elo: {ELO_METHOD}; anchor {self.anchor} = 0.",
        ]
        if first:
            share = sum(first) / len(first)
            lines.append(f"player_0 (moves first) scored {share:.3f} over {len(first)} games.")
        lines += _error_lines(self.results)
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The tables as JSON-serialisable data (what ``--json`` writes)."""
        elo = self.elo
        return {
            "game": self.game.name,
            "params": self.game.params,
            "games_per_pairing": self.games,
            "seed": self.seed,
            "move_timeout": self.move_timeout,
            "agents": list(self.labels),
            "pairings": [p.to_json() for p in self.pairings],
            "elo": {label: None if math.isnan(v) else v for label, v in elo.items()},
            "elo_anchor": self.anchor,
            "standings": [
                {
                    "agent": s.label,
                    "elo": None if math.isnan(s.elo) else s.elo,
                    "games": s.games,
                    "score": s.score,
                    "errors": s.errors,
                }
                for s in self.standings
            ],
            "errors": [
                r.error | {"pairing": list(r.pairing), "index": r.index}
                for r in self.results
                if r.error
            ],
            "methods": {"ci95": CI_METHOD, "elo": ELO_METHOD},
        }


def run_tournament(
    game: str | GameConfig,
    agents: Sequence[str | AgentSpec],
    *,
    games: int = 10,
    workers: int | None = None,
    seed: int = 0,
    move_timeout: float | None = None,
    out: str | Path | None = None,
    record_dir: str | Path | None = None,
    progress: bool = False,
    ray: str | None = None,
) -> TournamentResult:
    """Play a round robin: every pair of agents plays ``games`` games, colours alternating.

    Each game runs in a worker process with agents built fresh from their specs and seeded
    from (``seed``, the pairing, the game number), so results do not depend on ``workers``
    (time-budgeted agents aside). Call it under ``if __name__ == "__main__":`` in a script
    (worker processes are spawned).

    Args:
        game: A game name (``"connect_four"``...) or a :class:`GameConfig`.
        agents: Two or more agent specs (``"mcts:simulations=200"``, ``"random"``...).
        games: Games per pairing.
        workers: Worker processes (default: all cores).
        seed: Base seed (>= 0).
        move_timeout: Seconds per move; an agent that takes longer (or hangs) loses the game.
        out: JSON-lines file that gets every finished game; a rerun resumes from it.
        record_dir: Save every game played as a record (JSON, and SGF for Gomoku and Hex).
        progress: Show progress on stderr.
        ray: A Ray address (``"auto"``, ``"ray://host:10001"``, ``"local"``): play the games
            as Ray tasks there instead of in local processes (``workers`` then caps the games
            running at once; see :mod:`connectn_env.arena.ray_pool`).

    Raises:
        ArenaError: fewer than two agents, a ``human`` agent, or a results file from
            another tournament.
        TypeError, ValueError: a bad argument.
    """
    config = game if isinstance(game, GameConfig) else GameConfig(game)
    specs = [a if isinstance(a, AgentSpec) else parse_agent_spec(a) for a in agents]
    if len(specs) < 2:
        raise ArenaError(f"a tournament needs at least two agents, got {len(specs)}")
    if any(spec.is_human for spec in specs):
        raise ArenaError("'human' cannot play in the arena (use connectn play)")
    games = require_int("games", games, 1)
    seed = require_int("seed", seed, 0)
    if ray is None or workers is not None:
        workers = require_int("workers", workers if workers is not None else os.cpu_count() or 1, 1)
    if move_timeout is not None:
        move_timeout = require_number("move_timeout", move_timeout, 0.0, strict_low=True)
    tasks = plan_games(config, specs, games=games, seed=seed, move_timeout=move_timeout)
    finished: dict[tuple[str, str, int], GameResult] = {}
    store = None
    if out is not None:
        header = {"game": config.name, "params": config.params, "seed": seed}
        store = ResultsFile(Path(out), {**header, "move_timeout": move_timeout})
        store.check_plan(tasks)
        finished = dict(store.finished)
    todo = [task for task in tasks if task.key not in finished]
    bar = Progress(len(todo), enabled=progress)
    if ray is None:
        results = play_games(todo, workers)
    else:
        from connectn_env.arena.ray_pool import play_games_ray

        results = play_games_ray(todo, ray, workers)
    for result in results:
        finished[result.key] = result
        if store is not None:
            store.add(result)
        if record_dir is not None:
            save_record(result.to_record(config, seed), record_dir, stem=_record_stem(result))
        bar.advance()
    return TournamentResult(
        game=config,
        labels=tuple(agent_labels(specs)),
        results=tuple(finished[task.key] for task in tasks),
        games=games,
        seed=seed,
        move_timeout=move_timeout,
        played=len(todo),
    )


def run_arena_command(args: argparse.Namespace) -> int:
    """``connectn arena``: run the tournament, print the tables, write ``--json``."""
    result = run_tournament(
        args.game_config,
        args.agents,
        games=args.games,
        workers=args.workers,
        seed=args.seed,
        move_timeout=args.move_timeout,
        out=args.out,
        record_dir=args.record,
        progress=not args.no_progress,
        ray=getattr(args, "ray", None),
    )
    skipped = len(result.results) - result.played
    if skipped:
        print(f"resumed: {skipped} finished games read from {args.out}, {result.played} played")
    print(result.table())
    if args.json is not None:
        args.json.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    return 0


def _record_stem(result: GameResult) -> str:
    a, b = (re.sub(r"[^A-Za-z0-9_.=-]+", "_", label) for label in result.pairing)
    return f"{a}-vs-{b}-{result.index:04d}"


def _pairing_table(pairings: list[PairingStats]) -> list[str]:
    names = [f"{p.a} vs {p.b}" for p in pairings]
    width = max(len("pairing"), *(len(n) for n in names))
    lines = [f"{'pairing':<{width}}  games    W    D    L  score  95% CI"]
    for name, p in zip(names, pairings, strict=True):
        low, high = p.interval
        lines.append(
            f"{name:<{width}}  {p.games:5d} {p.wins:4d} {p.draws:4d} {p.losses:4d}  "
            f"{p.score:.3f}  [{low:.3f}, {high:.3f}]"
        )
    return lines


def _elo_table(rows: list[Standing]) -> list[str]:
    width = max(len("agent"), *(len(r.label) for r in rows))
    lines = [f"{'agent':<{width}}    Elo  games  score  errors"]
    for r in rows:
        elo = "    nan" if math.isnan(r.elo) else f"{round(r.elo):+7d}".replace("+0", " 0")
        lines.append(f"{r.label:<{width}}{elo}  {r.games:5d}  {r.score:.3f}  {r.errors:6d}")
    return lines


def _error_lines(results: Sequence[GameResult]) -> list[str]:
    counts = Counter(
        (r.error["agent"], r.error["type"], r.error["message"]) for r in results if r.error
    )
    if not counts:
        return []
    lines = ["", "games lost by error or timeout:"]
    for (agent, kind, message), count in counts.most_common():
        lines.append(f"  {agent}: {count} x {kind}: {message}")
    return lines
