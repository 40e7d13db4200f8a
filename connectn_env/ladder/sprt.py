"""A/B testing of two agents with a sequential probability ratio test on game pairs, as
chess engine testers do it (fishtest, OpenBench, cutechess-cli's ``-sprt`` with
``-repeat``).

The games come in pairs: games ``2k`` and ``2k + 1`` are pair ``k``, with colours swapped
(A moves first in the even game) and fresh agent seeds in each; pair ``k`` is where an
opening suite's opening ``k`` goes. A pair scores 0, 1/2, 1, 3/2 or 2 points for A, and the
test counts pairs of each score (the pentanomial model, :mod:`connectn_env.pentanomial`):
the pair, not the game, is the independent trial, since both games of a pair share their
opening and first-player advantage.

The test: H0 "A is ``elo0`` stronger than B" against H1 "A is ``elo1`` stronger", on the
logistic Elo scale, with fishtest's generalised SPRT approximation::

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

over ``N`` pairs, ``m`` A's mean score per game, ``v`` the variance of a pair's mean score
(half a virtual pair of each score added so that it is never 0) and ``s0``, ``s1`` the
scores the two bounds predict. It stops at ``LLR >= log((1 - beta) / alpha)`` (H1 accepted:
stronger) or ``LLR <= log(beta / (1 - alpha))`` (H0 accepted), or reports "inconclusive"
after ``max_games`` (``max_games / 2`` pairs).

Pairs are counted in their order, each once it and every pair before it are complete, and
the test is checked after each: the decision, and the counts and LLR it reports, depend on
the games' results only, not on the order in which the workers finish them. Games under way
when it decides are played out and kept in the results file, but not counted (they are
``uncounted``); a rerun on the file reaches the same decision from the same pairs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from connectn_env.arena.plan import GameTask, pairing_task, planned_opening
from connectn_env.arena.results import GameResult
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int, require_number
from connectn_env.ladder.candidates import check_candidate, make_candidate
from connectn_env.ladder.matches import (
    DEFAULT_MOVE_TIMEOUT,
    open_results,
    play_tasks,
    require_candidate_at_fault,
    require_move_timeout,
)
from connectn_env.ladder.openings import OpeningSuite, choose_suite
from connectn_env.pentanomial import Pentanomial

DEFAULT_MAX_GAMES = 2000
MAX_ELO_BOUND = 1000.0  # |elo0|, |elo1| at most this: a score of 0.3% to 99.7%
MIN_ELO_GAP = 0.1  # elo1 - elo0 at least this: closer bounds give one score, and no decision
MIN_PROBABILITY = 1e-6  # alpha and beta at least this: LLR bounds within +-14
REPEATS_WARNED = 0.1  # a warning when more than this share of the games repeat earlier ones
METHOD = "GSPRT approximation, logistic Elo, pentanomial on game pairs (fishtest)"


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class SPRTResult:
    """The test's state: A's pairs and games against B, the LLR, its bounds and the
    decision (``"H1"``, ``"H0"`` or ``"inconclusive"``; None while it runs).

    ``pentanomial`` counts the pairs A scored 0, 1/2, 1, 3/2 and 2 points in; ``wins``,
    ``draws`` and ``losses`` are A's games of those pairs, ``distinct`` how many of them
    differ in their moves, ``uncounted`` the games played but not counted (under way when
    the test decided, or the unfinished half of a pair).
    """

    a: str
    b: str
    elo0: float
    elo1: float
    pentanomial: Pentanomial
    wins: int
    draws: int
    losses: int
    distinct: int
    llr: float
    bounds: tuple[float, float]
    decision: str | None
    uncounted: int = 0

    @property
    def pairs(self) -> int:
        return self.pentanomial.pairs

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def verdict(self) -> str:
        """``accepted H1 (stronger)``, ``accepted H0 (not stronger)``, ``inconclusive``."""
        return {
            "H1": f"accepted H1 (stronger: A is at least {self.elo1:g} Elo better)",
            "H0": f"accepted H0 (not stronger: A is at most {self.elo0:g} Elo better)",
            "inconclusive": "inconclusive (maximum number of games reached)",
            None: "running",
        }[self.decision]

    @property
    def warning(self) -> str | None:
        """A warning when more than a tenth of the games repeat an earlier game move for
        move (deterministic agents replay one game from the empty board); else None."""
        if self.games - self.distinct <= REPEATS_WARNED * self.games:
            return None
        return (
            f"warning: only {self.distinct} distinct games of {self.games}: the verdict rests "
            "on few games (deterministic agents replay the same games from the same start); "
            "games from an opening suite would differ"
        )

    def line(self) -> str:
        """``60 pairs, 120 games (118 distinct)  W 50 D 10 L 60  Ptnml(0-2) 3 12 30 10 5
        Elo -29 [-80, +21]  LLR -1.23 [-2.94, 2.94]``."""
        low, high = self.bounds
        return (
            f"{self.pairs} pairs, {self.games} games ({self.distinct} distinct)  "
            f"W {self.wins} D {self.draws} L {self.losses}  "
            f"Ptnml(0-2) {' '.join(map(str, self.pentanomial.counts))}  {self._elo_text()}"
            f"LLR {self.llr:+.2f}  [{low:.2f}, {high:.2f}]"
        )

    def _elo_text(self) -> str:
        """``Elo -29 [-80, +21]  `` (``-inf``, ``+inf``: unbounded); nothing before a pair."""
        interval = self.pentanomial.elo_interval()
        if interval is None:
            return ""
        unbounded = "+inf" if self.pentanomial.score == 1 else "-inf"
        estimate = _signed(self.pentanomial.elo, unbounded)
        low, high = _signed(interval[0], "-inf"), _signed(interval[1], "+inf")
        return f"Elo {estimate} [{low}, {high}]  "

    def to_json(self) -> dict[str, Any]:
        interval = self.pentanomial.elo_interval()
        return {
            "a": self.a,
            "b": self.b,
            "elo0": self.elo0,
            "elo1": self.elo1,
            "pairs": self.pairs,
            "pentanomial": list(self.pentanomial.counts),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "distinct_games": self.distinct,
            "uncounted_games": self.uncounted,
            "score": self.pentanomial.score,
            "elo": self.pentanomial.elo,
            "elo_ci95": None if interval is None else list(interval),
            "llr": self.llr,
            "bounds": list(self.bounds),
            "decision": self.decision,
            "verdict": self.verdict,
            "warning": self.warning,
            "method": METHOD,
        }


def sprt(
    a: Any,
    b: Any,
    *,
    game: Any,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = DEFAULT_MAX_GAMES,
    workers: int | None = None,
    ray: str | None = None,
    results: str | Path | None = None,
    seed: int = 0,
    report: Callable[[SPRTResult], None] | None = None,
    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
    openings: OpeningSuite | str | Path | bool = True,
) -> SPRTResult:
    """Play A against B in game pairs, colours swapped within each pair, until the SPRT
    accepts a hypothesis or ``max_games`` are played (see the module docstring).

    Call it under ``if __name__ == "__main__":`` in a script (worker processes are spawned).

    Args:
        a: The agent tested (any candidate of :func:`~connectn_env.ladder.evaluate`).
        b: The reference agent.
        game: A game name or ``GameConfig`` (any game: no ladder is needed).
        elo0: H0's Elo difference of A over B, -1000 to 1000.
        elo1: H1's, at least 0.1 more than ``elo0``, at most 1000.
        alpha: The probability of accepting H1 when H0 holds, from 1e-6 to less than 0.5.
        beta: The probability of accepting H0 when H1 holds (the same range).
        max_games: Stop with "inconclusive" after this many games (an even number: the
            games come in pairs).
        workers: Worker processes (default: all cores).
        ray: A Ray address: play the games as Ray tasks.
        results: The arena's JSON-lines results file: a rerun resumes from it (the missing
            game of an unfinished pair is played).
        seed: Base seed of the games.
        report: Called with the state after every pair counted (or several at once).
        move_timeout: Seconds per move (default 300, at most a day; None: no limit), as
            :func:`~connectn_env.ladder.evaluate`'s: A loses a game it takes longer in, B
            taking longer stops the test.
        openings: The opening suite pair ``k`` starts from (its opening ``k``): True (the
            game's shipped suite, if it has one; else the empty board), False (the empty
            board), a suite or its file.

    Raises:
        ValueError: a bad bound, probability or count (named), an unknown game or agent;
            also B failing in a game (it raised, played an illegal move, ran out of time or
            its process died): the games played until then stay in ``results``.
        TypeError: an agent that is neither a spec, an agent object nor a callable.
    """
    config = game if isinstance(game, GameConfig) else GameConfig(game)
    elo0, elo1 = _elo("elo0", elo0), _elo("elo1", elo1)
    if not elo1 - elo0 >= MIN_ELO_GAP:
        raise ValueError(
            f"elo0 must be less than elo1 by at least {MIN_ELO_GAP:g} Elo, got {elo0:g} and "
            f"{elo1:g}"
        )
    alpha, beta = _probability("alpha", alpha), _probability("beta", beta)
    max_games = require_int("max_games", max_games, 2)
    if max_games % 2:
        raise ValueError(f"max_games must be even (the games come in pairs), got {max_games}")
    seed = require_int("seed", seed, 0)
    move_timeout = require_move_timeout(move_timeout)
    first, second = make_candidate(a), make_candidate(b, role="B")
    labels = (first.label, second.label if second.label != first.label else f"{second.label}#2")
    check_candidate(first, config)
    check_candidate(second, config, role="B")
    suite = choose_suite(openings, config)
    moves = None if suite is None else suite.openings
    test = _PairedTest(labels, elo0, elo1, sprt_bounds(alpha, beta), max_games // 2)
    specs = (first.spec, second.spec)
    with open_results(results, config, seed, labels, specs, move_timeout, suite) as store:
        for result in store.stream() if store else ():
            if result.pairing == labels:
                test.add(result)

        def tasks() -> Iterator[GameTask]:
            """The games not yet played, pair by pair, while the test runs."""
            for index in range(max_games):
                if test.decision is not None:
                    return
                if index not in test.played:
                    opening = planned_opening(moves, index)
                    yield pairing_task(config, labels, specs, index, seed, move_timeout, opening)

        local = first.local or second.local
        if workers is None:
            workers = os.cpu_count() or 1
        for result in play_tasks(tasks(), workers=workers, ray=ray, local=local):
            if store is not None:
                store.add(result)
            if test.add(result) and report is not None:
                report(test.state())
    return test.state()


@dataclass
class _PairedTest:
    """The sequential test on the pairs, counted in order (see the module docstring)."""

    labels: tuple[str, str]
    elo0: float
    elo1: float
    bounds: tuple[float, float]
    max_pairs: int
    played: dict[int, GameResult] = field(default_factory=dict)
    pentanomial: Pentanomial = field(default_factory=Pentanomial)
    games: list[int] = field(default_factory=lambda: [0, 0, 0])  # A's wins, draws, losses
    moves: set[tuple[int, ...]] = field(default_factory=set)
    decision: str | None = None

    def __post_init__(self) -> None:
        self._decide()

    def add(self, result: GameResult) -> bool:
        """Take a game's result; count the pairs it completes while the test runs. Whether
        a pair was counted. A game B lost by an error stops the test (A's win there says
        nothing of A)."""
        require_candidate_at_fault(result, self.labels[0], "B", "the A/B test cannot judge A")
        self.played[result.index] = result
        counted = False
        while self.decision is None:
            pair = [self.played.get(2 * self.pentanomial.pairs + i) for i in (0, 1)]
            if None in pair:
                break
            scores = [game.score_of(self.labels[0]) for game in pair]
            for game, score in zip(pair, scores, strict=True):
                self.games[2 - round(2 * score)] += 1
                self.moves.add(tuple(game.moves))
            self.pentanomial = self.pentanomial.add(*scores)
            counted = True
            self._decide()
        return counted

    def _decide(self) -> None:
        llr = self.pentanomial.llr(self.elo0, self.elo1)
        if llr >= self.bounds[1]:
            self.decision = "H1"
        elif llr <= self.bounds[0]:
            self.decision = "H0"
        elif self.pentanomial.pairs >= self.max_pairs:
            self.decision = "inconclusive"

    def state(self) -> SPRTResult:
        return SPRTResult(
            *self.labels,
            self.elo0,
            self.elo1,
            self.pentanomial,
            *self.games,
            len(self.moves),
            self.pentanomial.llr(self.elo0, self.elo1),
            self.bounds,
            self.decision,
            len(self.played) - 2 * self.pentanomial.pairs,
        )


def _signed(value: float | None, unbounded: str) -> str:
    return unbounded if value is None else f"{value:+.0f}"


def _elo(name: str, value: Any) -> float:
    value = require_number(name, value)
    if abs(value) > MAX_ELO_BOUND:
        raise ValueError(
            f"{name} must be from {-MAX_ELO_BOUND:g} to {MAX_ELO_BOUND:g} Elo, got {value:g}"
        )
    return value


def _probability(name: str, value: Any) -> float:
    value = require_number(name, value)
    if not MIN_PROBABILITY <= value < 0.5:
        raise ValueError(
            f"{name} must be at least {MIN_PROBABILITY:g} and less than 0.5, got {value:g}"
        )
    return value
