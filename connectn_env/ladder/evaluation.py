"""``evaluate``: a candidate's Elo on a game's ladder, with its 95% interval.

The candidate plays the rungs in game pairs (one opening of the game's suite, one game with
each colour), each pair against the rung whose rating is nearest its current estimate (where
its expected score is nearest 50%, so each game tells the most), starting at the middle
rung; pair ``k`` against a rung plays the suite's opening ``k``. Its rating is fitted with
the rung ratings held fixed (:mod:`connectn_env.ladder.fit`), each rung's games weighed by
their pairs; its interval includes the uncertainty of the rungs' own ratings (the covariance
of the ladder's fit with the candidate's games added, ``random`` exact), and so does what it
predicts for the candidate against a rung (:meth:`Evaluation.predict`). Games run in the
arena's worker processes (or on Ray, or here for an agent object or a callable); with a
results file, a run killed midway resumes without losing or repeating a game.

A rung this installation cannot play (``az`` without torch) is skipped: the candidate plays
the others, whose ratings stay as in the ladder, and the result names the rungs skipped.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from connectn_env.arena.plan import GameTask, pairing_task, planned_opening
from connectn_env.arena.progress import Progress
from connectn_env.arena.results import GameResult
from connectn_env.arena.stats import Tally
from connectn_env.elo import Z95, PairingStats, Scored, anchor_of, expected_score
from connectn_env.games.validation import require_int, require_number
from connectn_env.ladder.candidates import Candidate, check_candidate, make_candidate
from connectn_env.ladder.fit import Predictor, fit_ratings
from connectn_env.ladder.games import LADDER_GAMES, ladder_key
from connectn_env.ladder.ladderfile import (
    Ladder,
    LadderRung,
    load_ladder,
    missing_note,
    shipped_ladder,
)
from connectn_env.ladder.matches import (
    DEFAULT_MOVE_TIMEOUT,
    open_results,
    play_tasks,
    require_candidate_at_fault,
    require_move_timeout,
)
from connectn_env.ladder.openings import OpeningSuite, choose_suite
from connectn_env.specs import parse_agent_spec

DEFAULT_GAMES = 200
MAX_GAMES = 10**7


@dataclass(frozen=True)
class RungScore(Scored):
    """The candidate's games against one rung (counts from the candidate's side; ``pairs``:
    the pentanomial counts of its complete game pairs)."""

    label: str
    spec: str
    rating: float
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: int = 0  # games the candidate lost by an error (an illegal move...)
    pairs: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` found.

    Attributes:
        game: The ladder's key.
        candidate: The candidate's label.
        rating: Its Elo on the ladder (``random`` = 0).
        ci95: The 95% interval of the rating, the uncertainty of the rungs' ratings
            included.
        rungs: Its games against each rung, weakest rung first.
        played: Games played by this run (the rest came from the results file).
        provisional: Whether the ladder is provisional.
        skipped: The ladder's rungs that cannot play in this installation (not played).
        openings: The number of openings of the suite the games started from (0: none).
        predictor: What the ratings predict, with their uncertainty
            (:meth:`predict`).
    """

    game: str
    candidate: str
    rating: float
    ci95: tuple[float, float]
    rungs: tuple[RungScore, ...]
    played: int
    provisional: bool
    skipped: tuple[LadderRung, ...] = ()
    openings: int = 0
    predictor: Predictor | None = field(default=None, repr=False, compare=False)

    def predict(self, rung: str) -> tuple[float, tuple[float, float]]:
        """The candidate's expected score per game against ``rung`` and its 95% interval
        (from the covariance of its rating and the rung's).

        Raises:
            ValueError: no such rung.
        """
        if self.predictor is None or rung not in self.predictor.ratings or rung == self.candidate:
            raise ValueError(f"no rung {rung!r} on this ladder")
        score, error = self.predictor.score(self.candidate, rung)
        return score, (max(0.0, score - Z95 * error), min(1.0, score + Z95 * error))

    @property
    def games(self) -> int:
        return sum(r.games for r in self.rungs)

    @property
    def errors(self) -> int:
        """Games the candidate lost by an error (an illegal move, an exception)."""
        return sum(r.errors for r in self.rungs)

    def table(self) -> str:
        """The result as ``connectn evaluate`` prints it."""
        low, high = self.ci95
        note = " (the ladder is provisional)" if self.provisional else ""
        pairs = sum(sum(r.pairs) for r in self.rungs)
        start = f"from {self.openings} openings" if self.openings else "from the empty board"
        lines = [
            f"{self.candidate} on the {self.game} ladder{note}:",
            f"Elo {self.rating:+.0f}, 95% CI [{low:+.0f}, {high:+.0f}] (the rungs' own "
            f"uncertainty included), {self.games} games, {pairs} game pairs {start}",
            "",
        ]
        width = max(len("rung"), *(len(r.label) for r in self.rungs))
        lines.append(f"{'rung':<{width}}    Elo  games    W    D    L  score  errors")
        for r in self.rungs:
            if r.games:
                lines.append(
                    f"{r.label:<{width}}  {r.rating:+5.0f}  {r.games:5d} {r.wins:4d} {r.draws:4d} "
                    f"{r.losses:4d}  {r.score:.3f}  {r.errors:6d}"
                )
        if self.errors:
            lines.append(
                f"{self.errors} games lost by an error of the candidate (illegal moves...)"
            )
        if self.skipped:
            lines.append(f"skipped, not playable here: {missing_note(self.skipped)}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data (what ``--json`` writes)."""
        return {
            "game": self.game,
            "candidate": self.candidate,
            "elo": self.rating,
            "elo_ci95": list(self.ci95),
            "games": self.games,
            "errors": self.errors,
            "provisional": self.provisional,
            "openings": self.openings,
            "rungs": [
                {
                    "label": r.label,
                    "spec": r.spec,
                    "elo": r.rating,
                    "games": r.games,
                    "wins": r.wins,
                    "draws": r.draws,
                    "losses": r.losses,
                    "score": None if math.isnan(r.score) else r.score,
                    "errors": r.errors,
                    "pentanomial": list(r.pairs),
                }
                for r in self.rungs
            ],
            "skipped": [
                {"label": r.label, "spec": r.spec, "reason": r.missing} for r in self.skipped
            ],
        }


def choose_rung(ratings: dict[str, float], estimate: float | None, games: dict[str, int]) -> str:
    """The rung to play next: the middle one (by rating) before any game, then the one whose
    expected score against ``estimate`` is nearest 50% (fewer games first among equals)."""
    order = sorted(ratings, key=ratings.get)
    if estimate is None:
        return order[(len(order) - 1) // 2]
    return min(
        order,
        key=lambda label: (abs(expected_score(estimate, ratings[label]) - 0.5), games[label]),
    )


def evaluate(
    candidate: Any,
    *,
    game: Any = None,
    games: int | None = None,
    minutes: float | None = None,
    workers: int | None = None,
    ray: str | None = None,
    results: str | Path | None = None,
    ladder: Ladder | str | Path | None = None,
    seed: int = 0,
    name: str | None = None,
    progress: bool = False,
    allow_factories: bool = False,
    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
    openings: OpeningSuite | str | Path | bool = True,
) -> Evaluation:
    """Rate ``candidate`` on ``game``'s ladder (see the module docstring).

    Call it under ``if __name__ == "__main__":`` in a script (worker processes are spawned).

    Args:
        candidate: An agent spec (``"mcts:simulations=400"``, ``"sb3:path=model.zip"``...),
            an ``AgentSpec``, an agent object with ``act(env)``, or a callable
            ``policy(observation, action_mask) -> action``. An illegal action or an
            exception loses that game (counted in ``errors``); the run goes on.
        game: The game: a ladder key (``"connect_n_6x6"``), a game name, a ``GameConfig``
            (needed unless ``ladder`` is given).
        games: Games to play in all (resumed ones included; default 200 unless ``minutes``).
        minutes: Stop starting games after this many minutes (games under way finish).
        workers: Worker processes (default: all cores); an agent object or a callable
            plays here, one game after another.
        ray: A Ray address: play the games as Ray tasks.
        results: The arena's JSON-lines results file: a rerun resumes from it.
        ladder: A ladder (or its file) instead of the one shipped for the game.
        seed: Base seed of the games.
        name: The candidate's label (default: its spec, or its class or function name).
        progress: Show progress on stderr.
        allow_factories: Accept a ladder file whose rungs name factories
            (``module:callable``: their code runs); by default its rungs must be built-in
            agents (see :func:`~connectn_env.ladder.ladderfile.load_ladder`).
        move_timeout: Seconds per move (default 300, at most a day; None: no limit), as the
            arena's: the candidate loses a game it takes longer in (a hung worker process is
            killed), a rung that does stops the run. An object or a callable plays here and
            loses only once its move returns (a hang cannot be stopped in this process).
        openings: The opening suite the game pairs start from: True (the game's shipped
            suite), False (the empty board), a suite or its file.

    Raises:
        ValueError: an unknown game or candidate, a game without a ladder, a candidate or a
            rung that cannot be built or play the game, a bad argument (named, with what is
            allowed); nothing is written then. Also a rung that fails in a game (an error, a
            timeout; the games played until then stay in ``results``), and no game at all
            (``minutes`` ran out before the first one): a rating of no game would be nan.
        TypeError: a candidate that is neither a spec, an agent nor a callable.
        ArenaError: a results file of another evaluation (a ValueError too).
    """
    entry = make_candidate(candidate, name)  # a bad spec is refused before the ladder loads
    ladder = _ladder(ladder, game, allow_factories)
    skipped = ladder.missing
    ladder = ladder.playable()
    cap, deadline = _budget(games, minutes)
    seed = require_int("seed", seed, 0)
    move_timeout = require_move_timeout(move_timeout)
    suite = choose_suite(openings, ladder.game)
    label = entry.label if entry.label not in ladder.labels else f"{entry.label} (candidate)"
    check_candidate(entry, ladder.game)
    _check_rungs(ladder)
    local = entry.local
    if workers is None:
        workers = 1 if local else os.cpu_count() or 1
    specs = [entry.spec, *(rung.spec for rung in ladder.rungs)]
    players = [label, *ladder.labels]
    with open_results(results, ladder.game, seed, players, specs, move_timeout, suite) as store:
        state = _Schedule(ladder, label, suite)
        for result in store.stream() if store else ():
            if result.pairing[0] == label and result.pairing[1] in state.specs:
                state.add(result)
        resumed = len(state.finished)
        tasks = state.tasks(entry, seed, cap, deadline, move_timeout)
        display = _Display(cap - resumed, deadline, enabled=progress)
        for result in play_tasks(tasks, workers=workers, ray=ray, local=local):
            if store is not None:
                store.add(result)
            state.add(result)
            display.advance(state.estimate())
        display.close()
    return state.evaluation(len(state.finished) - resumed, skipped)


def _ladder(ladder: Ladder | str | Path | None, game: Any, allow_factories: bool) -> Ladder:
    """The ladder to rate on: ``ladder`` (checked to be ``game``'s when both are given) or
    the one shipped for ``game``."""
    if ladder is None:
        if game is None:
            raise ValueError(f"evaluate needs game= (one of {', '.join(LADDER_GAMES)}) or ladder=")
        return shipped_ladder(game)
    if not isinstance(ladder, Ladder):
        return load_ladder(ladder, game, allow_factories=allow_factories)
    if game is not None and ladder_key(game) != ladder.key:
        raise ValueError(f"the ladder given is of {ladder.key}, not of {ladder_key(game)}")
    return ladder


def _budget(games: int | None, minutes: float | None) -> tuple[int, float | None]:
    """Games to reach and the monotonic time to stop starting games at."""
    if games is None:
        games = MAX_GAMES if minutes is not None else DEFAULT_GAMES
    games = require_int("games", games, 1, MAX_GAMES)
    if minutes is None:
        return games, None
    minutes = require_number("minutes", minutes, 0.0, strict_low=True)
    return games, time.monotonic() + 60 * minutes


def _check_rungs(ladder: Ladder) -> None:
    """Check every rung as a candidate is checked (built once, asked about the game): a rung
    that cannot play would lose every game and lift the candidate's rating.

    Raises:
        ValueError: the message names the rung and what is wrong.
    """
    for rung in ladder.rungs:
        entry = Candidate(rung.label, parse_agent_spec(rung.spec), False)
        check_candidate(entry, ladder.game, role="ladder rung")


class _Schedule:
    """The games so far and the adaptive plan: which rung the next game pair is against."""

    def __init__(self, ladder: Ladder, label: str, suite: OpeningSuite | None) -> None:
        self.ladder = ladder
        self.label = label
        self.suite = suite
        self.specs = {rung.label: parse_agent_spec(rung.spec) for rung in ladder.rungs}
        self.tally = Tally([label, *ladder.labels])
        self.finished: set[tuple[str, str, int]] = set()
        self.distinct: dict[str, set[int]] = {rung: set() for rung in self.specs}

    def add(self, result: GameResult) -> None:
        """Count a finished game of the candidate.

        Raises:
            ValueError: the rung, not the candidate, failed in that game (its error is
                named): the game says nothing of the candidate.
        """
        require_candidate_at_fault(
            result, self.label, "ladder rung", "the ladder cannot rate a candidate"
        )
        self.tally.add(result)
        self.finished.add(result.key)
        self.distinct[result.pairing[1]].add(hash(result.moves))

    def pairings(self) -> list[PairingStats]:
        """The candidate's games against each rung (candidate first)."""
        return [
            dataclasses.replace(p, distinct=len(self.distinct[p.b]))
            for p in self.tally.pairings()
            if p.a == self.label
        ]

    def estimate(self) -> float | None:
        """The candidate's rating from the games so far (None before any)."""
        if not self.finished:
            return None
        labels = [self.label, *self.ladder.labels]
        return fit_ratings(labels, self.pairings(), self.ladder.ratings).ratings[self.label]

    def tasks(
        self,
        entry: Candidate,
        seed: int,
        cap: int,
        deadline: float | None,
        move_timeout: float | None,
    ) -> Iterator[GameTask]:
        """Game pairs until ``cap`` games are done or started, or ``deadline`` passes."""
        games = dict.fromkeys(self.specs, 0)  # resumed and issued
        for _, rung, _ in self.finished:
            games[rung] += 1
        total = len(self.finished)
        next_pair = dict.fromkeys(self.specs, 0)
        openings = None if self.suite is None else self.suite.openings
        while total < cap and (deadline is None or time.monotonic() < deadline):
            rung = choose_rung(self.ladder.ratings, self.estimate(), games)
            pairing = (self.label, rung)
            while all((*pairing, 2 * next_pair[rung] + i) in self.finished for i in (0, 1)):
                next_pair[rung] += 1
            for index in (2 * next_pair[rung], 2 * next_pair[rung] + 1):  # colours swapped
                if (*pairing, index) in self.finished:
                    continue
                if total >= cap:
                    return
                specs = (entry.spec, self.specs[rung])
                opening = planned_opening(openings, index)
                yield pairing_task(
                    self.ladder.game, pairing, specs, index, seed, move_timeout, opening
                )
                games[rung] += 1
                total += 1
            next_pair[rung] += 1

    def evaluation(self, played: int, skipped: tuple[LadderRung, ...]) -> Evaluation:
        """The rating from every game counted.

        Raises:
            ValueError: no game at all.
        """
        if not self.finished:
            raise ValueError(
                "no game was played: the time budget ran out before the first game started, "
                "so there is no rating; give more minutes"
            )
        ladder, label = self.ladder, self.label
        labels = [label, *ladder.labels]
        pairings = self.pairings()
        rating = fit_ratings(labels, pairings, ladder.ratings).ratings[label]
        ratings = ladder.ratings | {label: rating}
        anchor = anchor_of(ladder.labels)
        predictor = Predictor(labels, [*ladder.pairings, *pairings], ratings, [anchor])
        error = predictor.difference_error(label, anchor)
        by_label = {p.b: p for p in pairings}
        return Evaluation(
            game=ladder.key,
            candidate=label,
            rating=rating,
            ci95=(rating - Z95 * error, rating + Z95 * error),
            rungs=tuple(_rung_score(rung, by_label[rung.label]) for rung in ladder.by_rating()),
            played=played,
            provisional=ladder.provisional,
            skipped=skipped,
            openings=0 if self.suite is None else len(self.suite.openings),
            predictor=predictor,
        )


def _rung_score(rung: LadderRung, games: PairingStats) -> RungScore:
    """The candidate's ``games`` against ``rung`` (candidate first) as a table row."""
    pairs = games.pairs or (0, 0, 0, 0, 0)
    return RungScore(
        rung.label, rung.spec, rung.rating, games.wins, games.draws, games.losses,
        games.errors_a, pairs,
    )  # fmt: skip


class _Display:
    """A progress bar for a number of games, or a line redrawn for a time budget."""

    def __init__(self, total: int, deadline: float | None, *, enabled: bool) -> None:
        self.deadline = deadline
        self.enabled = enabled
        self.bar = Progress(total, enabled=enabled and deadline is None)
        self.done = 0
        self.last = 0.0

    def advance(self, estimate: float | None) -> None:
        self.bar.advance()
        self.done += 1
        now = time.monotonic()
        if self.enabled and self.deadline is not None and now - self.last >= 1.0:
            self.last = now
            left = max(0.0, self.deadline - now) / 60
            guess = "" if estimate is None else f", Elo about {estimate:+.0f}"
            sys.stderr.write(f"\r{self.done} games, {left:.1f} minutes left{guess}  ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.deadline is not None:
            sys.stderr.write("\n")
