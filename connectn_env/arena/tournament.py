"""Round-robin tournaments: :func:`run_tournament` and the ``connectn arena`` command."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from connectn_env.arena.ledger import Ledger
from connectn_env.arena.lifeline import exit_on_termination
from connectn_env.arena.outputs import check_output_directory, check_output_file
from connectn_env.arena.plan import agent_labels, check_pairs, plan_games, plan_size
from connectn_env.arena.played import played_by
from connectn_env.arena.pool import play_games
from connectn_env.arena.progress import Progress
from connectn_env.arena.ray_pool import connect_ray, play_games_ray
from connectn_env.arena.recorder import GameRecorder
from connectn_env.arena.results import ArenaError, GameResult, ResultsFile
from connectn_env.arena.spool import StoredResults
from connectn_env.arena.stats import Standing, Tally
from connectn_env.arena.worker import describe_error
from connectn_env.atomic_write import write_text_atomically
from connectn_env.elo import (
    CI_METHOD,
    ELO_CI_METHOD,
    ELO_METHOD,
    PairingStats,
    anchor_of,
    elo_intervals,
    elo_ratings,
)
from connectn_env.games.compile_notice import compile_notices
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int, require_number
from connectn_env.safetext import printable
from connectn_env.same_file import check_outputs, spec_inputs
from connectn_env.specs import AgentSpec, parse_agent_spec
from connectn_env.warmup import warm_up_specs

if TYPE_CHECKING:
    from connectn_env.ladder.openings import OpeningSuite

MAX_GAMES = 10**6  # per pairing
MAX_WORKERS = 256
MAX_MOVE_TIMEOUT = 86_400.0  # a day


@dataclass(frozen=True)
class TournamentResult:
    """Every game of a finished tournament and the tables computed from them.

    Attributes:
        game: The game.
        labels: Agent labels in command-line order.
        results: The planned games' results (resumed ones included), in plan order: from
            :func:`run_tournament`, a :class:`~connectn_env.arena.spool.StoredResults` that
            reads them back from a temporary file when used (they are not kept in memory).
        games: Games per pairing.
        seed: Base seed.
        move_timeout: Seconds per move, or None.
        played: Games played by this run (the rest came from the results file).
        rerecorded: Records of finished games written again on resume (they were missing
            or damaged).
        tally: The counts the tables are made of (by default, counted from ``results``).
    """

    game: GameConfig
    labels: tuple[str, ...]
    results: Sequence[GameResult]
    games: int
    seed: int
    move_timeout: float | None
    played: int
    rerecorded: int = 0
    tally: Tally = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.tally is None:
            object.__setattr__(self, "tally", Tally.of(self.labels, self.results))

    @property
    def pairings(self) -> list[PairingStats]:
        """Wins, draws, losses, score, game pairs and distinct games of each pairing (first
        agent's side)."""
        distinct = self.distinct_games
        return [
            dataclasses.replace(p, distinct=distinct.get((p.a, p.b), 0))
            for p in self.tally.pairings()
        ]

    @functools.cached_property
    def distinct_games(self) -> dict[tuple[str, str], int]:
        """How many of each pairing's games differ by their moves (from the opening on):
        fewer than its games means games were replayed (deterministic agents from one
        position), and its games are not that many independent results."""
        stored = self.results
        games = stored.unordered() if isinstance(stored, StoredResults) else stored
        seen: dict[tuple[str, str], set[int]] = {}
        for result in games:
            seen.setdefault(result.pairing, set()).add(hash(result.moves))
        return {pairing: len(moves) for pairing, moves in seen.items()}

    @property
    def elo(self) -> dict[str, float]:
        """Elo rating of each agent, anchored at :attr:`anchor`."""
        return elo_ratings(self.labels, self.pairings)

    @property
    def elo_intervals(self) -> dict[str, tuple[float, float]]:
        """95% interval of each rating (Fisher information of the fit; see ``stats``)."""
        return elo_intervals(self.labels, self.pairings, self.elo)

    @property
    def anchor(self) -> str:
        """The agent rated 0 (``random`` when present, else the first agent)."""
        return anchor_of(self.labels)

    @property
    def standings(self) -> list[Standing]:
        return self.tally.standings(self.elo, self.elo_intervals)

    def table(self) -> str:
        """The pairing table, the Elo table and the errors, as printed by ``connectn arena``
        (control characters in labels and error messages escaped)."""
        lines = [f"{self.game}: {self.games} games per pairing, seed {self.seed}", ""]
        distinct = self.distinct_games
        lines += _pairing_table(self.pairings, distinct)
        lines += ["", *_elo_table(self.standings)]
        lines += [
            "",
            "score: points per game of the pairing's first agent (win 1, draw 1/2);",
            f"95% CI: {CI_METHOD}.",
            f"Elo: {ELO_METHOD}; anchor {self.anchor} = 0.",
            f"Elo 95% CI: {ELO_CI_METHOD}.",
        ]
        if self.tally.games:
            share = self.tally.first_player_points / self.tally.games
            played = self.tally.games
            lines.append(f"player_0 (moves first) scored {share:.3f} over {played} games.")
        lines += _repeat_lines(self.pairings, distinct)
        lines += _error_lines(self._lost_by_error())
        return printable("\n".join(lines), newlines=True)

    def to_json(self) -> dict[str, Any]:
        """The tables as JSON-serialisable data (what ``--json`` writes)."""
        elo, intervals = self.elo, self.elo_intervals
        return {
            "game": self.game.name,
            "params": self.game.params,
            "games_per_pairing": self.games,
            "seed": self.seed,
            "move_timeout": self.move_timeout,
            "agents": list(self.labels),
            "pairings": [p.to_json() for p in self.pairings],
            "elo": {label: None if math.isnan(v) else v for label, v in elo.items()},
            "elo_ci95": {label: _json_interval(intervals[label]) for label in self.labels},
            "elo_anchor": self.anchor,
            "standings": [
                {
                    "agent": s.label,
                    "elo": None if math.isnan(s.elo) else s.elo,
                    "elo_ci95": _json_interval(s.elo_ci95),
                    "games": s.games,
                    "score": s.score,
                    "errors": s.errors,
                }
                for s in self.standings
            ],
            "errors": [
                r.error | {"pairing": list(r.pairing), "index": r.index}
                for r in self._lost_by_error()
            ],
            "methods": {"ci95": CI_METHOD, "elo": ELO_METHOD, "elo_ci95": ELO_CI_METHOD},
        }

    def _lost_by_error(self) -> list[GameResult]:
        """The games lost by an error or a timeout, in plan order (read one game at a time
        from the disk: only these are held)."""
        stored = self.results
        games = stored.unordered() if isinstance(stored, StoredResults) else stored
        return sorted((result for result in games if result.error), key=self._plan_order)

    def _plan_order(self, result: GameResult) -> tuple[int, int, int]:
        a, b = result.pairing
        return self.labels.index(a), self.labels.index(b), result.index


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
    pairs: Sequence[tuple[int, int]] | None = None,
    openings: OpeningSuite | str | Path | None = None,
    first_opening: int = 0,
) -> TournamentResult:
    """Play a round robin: every pair of agents plays ``games`` games, colours alternating
    (or only the pairings ``pairs``), from the openings of a suite in game pairs when given.

    Each agent is built once from its spec before the first game, so a spec that cannot
    make an agent stops the run with its message. Each game then runs in a worker process
    with agents built fresh from their specs and seeded from (``seed``, the pairing, the
    game number), so results do not depend on ``workers`` (time-budgeted agents aside).
    The plan is streamed, never held in memory, and so are the games: each one goes to
    disk as it ends (``results`` reads them back when used), the tables are counted as the
    games come (:mod:`connectn_env.arena.ledger`). Every output path is checked before the
    first game. Call it under ``if __name__ == "__main__":`` in a script (worker processes
    are spawned).

    Args:
        game: A game name (``"connect_four"``...) or a :class:`GameConfig`.
        agents: Two or more agent specs (``"mcts:simulations=200"``, ``"random"``...).
        games: Games per pairing, 1 to 10**6.
        workers: Worker processes, 1 to 256 (default: all cores).
        seed: Base seed (>= 0).
        move_timeout: Seconds per move (at most a day); an agent that takes longer (or
            hangs) loses the game.
        out: JSON-lines file that gets every finished game; a rerun resumes from it.
        record_dir: Save every game as a record (JSON, and SGF for Gomoku and Hex), each
            file written atomically before the game's line in ``out``; on resume, the
            record of a finished game that is missing or damaged is written again.
        progress: Show progress on stderr.
        ray: A Ray address (``"auto"``, ``"ray://host:10001"``, ``"local"``): play the games
            as Ray tasks there instead of in local processes (``workers`` then caps the games
            running at once; see :mod:`connectn_env.arena.ray_pool`); Ray is reached before
            ``out`` is written.
        pairs: The pairings to play, as ``(i, j)`` indices into ``agents`` with ``i < j``
            (default: every pair). A ladder plays rungs one and two apart.
        openings: An opening suite (:class:`~connectn_env.ladder.openings.OpeningSuite`
            or its file) of this game: games ``2k`` and ``2k + 1`` of each pairing start from
            its opening ``k`` (from the first again once all are played), colours swapped,
            each game with its own agent seeds. The results file records the suite's digest
            (a resume with another suite is refused) and each game's opening.
        first_opening: Start from this opening of ``openings`` (from 0) instead of its first,
            the ones before it played last (:meth:`OpeningSuite.rotated
            <connectn_env.ladder.openings.OpeningSuite.rotated>`): games on openings that
            another match's first games did not play.

    Raises:
        ArenaError: fewer than two agents, a ``human`` agent, a spec that fails to build
            an agent, an output path that cannot be written (a directory for ``out``, a
            file for ``record_dir``...), a results file from another tournament, a record
            file of another tournament where a record goes, a Ray address that is
            malformed or unreachable, or ``first_opening`` without ``openings`` or past
            its last opening.
        OSError: a file cannot be written (a full disk): the games finished so far are
            in ``out`` with their records.
        TypeError, ValueError: a bad argument.
    """
    config = game if isinstance(game, GameConfig) else GameConfig(game)
    specs = [a if isinstance(a, AgentSpec) else parse_agent_spec(a) for a in agents]
    if len(specs) < 2:
        raise ArenaError(f"a tournament needs at least two agents, got {len(specs)}")
    if any(spec.is_human for spec in specs):
        raise ArenaError("'human' cannot play in the arena (use connectn play)")
    games = require_int("games", games, 1, MAX_GAMES)
    seed = require_int("seed", seed, 0)
    pairs = check_pairs(pairs, len(specs))
    if ray is None or workers is not None:
        if workers is None:
            workers = min(os.cpu_count() or 1, MAX_WORKERS)
        workers = require_int("workers", workers, 1, MAX_WORKERS)
    if move_timeout is not None:
        move_timeout = require_number("move_timeout", move_timeout, 0.0, strict_low=True)
        if move_timeout > MAX_MOVE_TIMEOUT:
            raise ValueError(
                f"move_timeout must be at most {MAX_MOVE_TIMEOUT:g} seconds, got {move_timeout}"
            )
    if out is not None:
        out = check_output_file(out, "--out", "a results file")
    recorder = None
    if record_dir is not None:
        recorder = GameRecorder(check_output_directory(record_dir, "--record"), config, seed)
    suite = _suite(openings, config, first_opening)
    labels = agent_labels(specs)
    _build_each(labels, specs)
    if ray is not None:
        connect_ray(ray)
    store = None
    if out is not None:
        header = {"game": config.name, "params": config.params, "seed": seed}
        header["move_timeout"] = move_timeout
        if suite is not None:
            header["openings"] = suite.digest
        store = ResultsFile(out, header)  # locked
    opening_moves = None if suite is None else suite.openings
    try:
        if store is not None:
            store.check_plan(labels, games, opening_moves)
            store.name_agents(
                {label: played_by(spec, config) for label, spec in zip(labels, specs, strict=True)}
            )
        ledger = Ledger(labels, store=store, recorder=recorder)
        finished = _resume(ledger, labels, games, pairs)

        def plan() -> Iterator[Any]:
            return plan_games(
                config,
                specs,
                games=games,
                seed=seed,
                move_timeout=move_timeout,
                pairs=pairs,
                openings=opening_moves,
            )

        bar = Progress(plan_size(len(specs), games, pairs) - ledger.tally.games, enabled=progress)
        with compile_notices(bar.note):  # compiled here once, loaded by every worker
            warm_up_specs(config.make_game(), specs)
        todo = (task for task in plan() if task.key not in finished)
        results = play_games(todo, workers) if ray is None else play_games_ray(todo, ray, workers)
        for result in results:
            ledger.add(result)
            bar.advance()
    finally:
        if store is not None:
            store.close()
    return TournamentResult(
        game=config,
        labels=tuple(labels),
        results=ledger.results,
        games=games,
        seed=seed,
        move_timeout=move_timeout,
        played=ledger.played,
        rerecorded=ledger.rerecorded,
        tally=ledger.tally,
    )


def _resume(
    ledger: Ledger, labels: list[str], games: int, pairs: list[tuple[int, int]]
) -> Iterable[tuple[str, str, int]]:
    """Add the planned games of the results file to ``ledger`` (writing again the records
    that are missing or damaged); the keys of the games not to play again."""
    if ledger.store is None:
        return ()
    planned = {(labels[i], labels[j]) for i, j in pairs}
    for result in ledger.store.stream():
        if result.pairing in planned and result.index < games:
            ledger.resume(result)
    return ledger.store.finished


def _suite(
    openings: OpeningSuite | str | Path | None, game: GameConfig, first: int
) -> OpeningSuite | None:
    """The suite ``openings`` names (read and checked if a file), of ``game``, from its
    opening ``first``.

    Raises:
        ArenaError: a file that is not a suite of ``game``, a suite of another game, or
            ``first`` without a suite or past its last opening.
        TypeError: ``first`` is not an int.
    """
    from connectn_env.ladder.openings import choose_suite

    first = require_int("first_opening", first, 0)
    try:
        suite = choose_suite(openings, game)
    except ValueError as error:
        raise ArenaError(f"--openings: {error}") from None
    if not first:
        return suite
    if suite is None:
        raise ArenaError(f"--first-opening {first} needs an opening suite (--openings)")
    if first >= len(suite.openings):
        raise ArenaError(
            f"--first-opening must be below the suite's {len(suite.openings)} openings, got {first}"
        )
    return suite.rotated(first)


def _build_each(labels: list[str], specs: list[AgentSpec]) -> None:
    """Build every agent once: a spec that cannot make an agent stops the run here."""
    for label, spec in zip(labels, specs, strict=True):
        try:
            spec.build(0)
        except Exception as error:
            kind, message = describe_error(error)
            raise ArenaError(f"agent {label!r} cannot be built: {kind}: {message}") from None


def run_arena_command(args: argparse.Namespace) -> int:
    """``connectn arena``: run the tournament, print the tables, write ``--json``
    (atomically; its path is checked before the first game, as are ``--out`` and
    ``--record``).

    SIGTERM and SIGHUP stop the run like Ctrl-C: the workers are stopped, the games
    finished so far stay in ``--out``.
    """
    if args.json is not None:
        check_output_file(args.json, "--json", "a file for the tables", replaced=True)
    try:
        inputs = [named for spec in args.agents for named in spec_inputs("the agent", spec)]
        check_outputs([("--out", args.out), ("--json", args.json)], inputs)
    except ValueError as error:
        raise ArenaError(str(error)) from None
    with exit_on_termination():
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
            ray=args.ray,
            openings=args.openings,
            first_opening=args.first_opening,
        )
    skipped = len(result.results) - result.played
    if skipped:
        print(f"resumed: {skipped} finished games read from {args.out}, {result.played} played")
    if result.rerecorded:
        print(
            f"{result.rerecorded} missing or damaged records of finished games written again "
            f"in {args.record}"
        )
    print(result.table())
    if args.json is not None:
        try:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(result.to_json(), indent=2, allow_nan=False)
            write_text_atomically(args.json, text + "\n")
        except OSError as error:
            reason = error.strerror or str(error)
            raise ArenaError(f"--json {args.json}: cannot write it ({reason})") from None
    return 0


def _json_interval(interval: tuple[float, float]) -> list[float | None] | None:
    """An interval for JSON: nan -> None, infinite ends -> None."""
    if math.isnan(interval[0]):
        return None
    return [v if math.isfinite(v) else None for v in interval]


def _pairing_table(pairings: list[PairingStats], distinct: dict[tuple[str, str], int]) -> list[str]:
    names = [f"{p.a} vs {p.b}" for p in pairings]
    width = max(len("pairing"), *(len(n) for n in names))
    lines = [f"{'pairing':<{width}}  games  distinct    W    D    L  score  95% CI"]
    for name, p in zip(names, pairings, strict=True):
        low, high = p.interval
        lines.append(
            f"{name:<{width}}  {p.games:5d}  {distinct.get((p.a, p.b), 0):8d} {p.wins:4d} "
            f"{p.draws:4d} {p.losses:4d}  {p.score:.3f}  [{low:.3f}, {high:.3f}]"
        )
    return lines


def _repeat_lines(pairings: list[PairingStats], distinct: dict[tuple[str, str], int]) -> list[str]:
    """The pairings whose games repeat (fewer distinct move sequences than games)."""
    repeated = [
        f"{p.a} vs {p.b} ({distinct.get((p.a, p.b), 0)} distinct of {p.games})"
        for p in pairings
        if distinct.get((p.a, p.b), 0) < p.games
    ]
    if not repeated:
        return []
    return [
        "",
        "games repeat (the same moves, so fewer independent results than games; an opening "
        "suite, --openings, starts games from different positions): " + "; ".join(repeated),
    ]


def _elo_table(rows: list[Standing]) -> list[str]:
    width = max(len("agent"), *(len(r.label) for r in rows))
    intervals = [_interval_text(r.elo_ci95) for r in rows]
    ci_width = max(len("95% CI"), *(len(text) for text in intervals))
    lines = [f"{'agent':<{width}}    Elo  {'95% CI':<{ci_width}}  games  score  errors"]
    for r, interval in zip(rows, intervals, strict=True):
        elo = "    nan" if math.isnan(r.elo) else f"{round(r.elo):+7d}".replace("+0", " 0")
        lines.append(
            f"{r.label:<{width}}{elo}  {interval:<{ci_width}}  {r.games:5d}  {r.score:.3f}  "
            f"{r.errors:6d}"
        )
    return lines


def _interval_text(interval: tuple[float, float]) -> str:
    low, high = interval
    if math.isnan(low):
        return "-"
    if low == high == 0:
        return "anchor"

    def end(value: float) -> str:
        return f"{value:+.0f}" if math.isfinite(value) else ("-inf" if value < 0 else "+inf")

    return f"[{end(low)}, {end(high)}]"


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
