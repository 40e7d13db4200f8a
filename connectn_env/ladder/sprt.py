"""A/B testing of two agents with a sequential probability ratio test, as chess engine
testers do it (cutechess-cli's ``-sprt``, Stockfish's fishtest).

The test: H0 "A is ``elo0`` stronger than B" against H1 "A is ``elo1`` stronger", on the
logistic Elo scale, from the trinomial results (wins, draws, losses) of A. The
log-likelihood ratio is the generalised SPRT approximation that fishtest uses (M. Van den
Bergh, "A practical introduction to the GSPRT")::

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

with ``s0``, ``s1`` the scores the two Elo bounds predict, ``m`` A's mean score over the
``N`` games and ``v`` the variance of one game's score, estimated with half a virtual game
of each outcome added (so that a short run of wins alone does not make it zero). The test
stops at ``LLR >= log((1 - beta) / alpha)`` (H1 accepted: stronger) or
``LLR <= log(beta / (1 - alpha))`` (H0 accepted), or reports "inconclusive" after
``max_games``. No BayesElo draw model is involved.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectn_env.arena.plan import GameTask, pairing_task
from connectn_env.arena.results import GameResult
from connectn_env.elo import expected_score
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

__all__ = [
    "MAX_ELO_BOUND",
    "MIN_ELO_GAP",
    "MIN_PROBABILITY",
    "SPRTResult",
    "sprt",
    "sprt_bounds",
    "sprt_llr",
]

DEFAULT_MAX_GAMES = 2000
MAX_ELO_BOUND = 1000.0  # |elo0|, |elo1| at most this: a score of 0.3% to 99.7%
MIN_ELO_GAP = 0.1  # elo1 - elo0 at least this: closer bounds give one score, and no decision
MIN_PROBABILITY = 1e-6  # alpha and beta at least this: LLR bounds within +-14
_VIRTUAL = 0.5  # games of each outcome added to the variance estimate


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) given A's results
    (see the module docstring); 0 before any game."""
    games = wins + draws + losses
    if games == 0:
        return 0.0
    s0, s1 = expected_score(elo0, 0.0), expected_score(elo1, 0.0)
    mean = (wins + 0.5 * draws) / games
    won, drawn, lost = wins + _VIRTUAL, draws + _VIRTUAL, losses + _VIRTUAL
    total = won + drawn + lost
    m = (won + 0.5 * drawn) / total
    variance = (won * (1 - m) ** 2 + drawn * (0.5 - m) ** 2 + lost * m**2) / total
    return games * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@dataclass(frozen=True)
class SPRTResult:
    """The test's state: A's results against B, the LLR, its bounds and the decision
    (``"H1"``, ``"H0"`` or ``"inconclusive"``; None while it runs)."""

    a: str
    b: str
    elo0: float
    elo1: float
    wins: int
    draws: int
    losses: int
    llr: float
    bounds: tuple[float, float]
    decision: str | None

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

    def line(self) -> str:
        """``120 games  W 50  D 10  L 60  LLR -1.23  [-2.94, 2.94]``."""
        low, high = self.bounds
        return (
            f"{self.games} games  W {self.wins}  D {self.draws}  L {self.losses}  "
            f"LLR {self.llr:+.2f}  [{low:.2f}, {high:.2f}]"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "elo0": self.elo0,
            "elo1": self.elo1,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "llr": self.llr,
            "bounds": list(self.bounds),
            "decision": self.decision,
            "verdict": self.verdict,
            "method": "GSPRT approximation, logistic Elo, trinomial (fishtest)",
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
) -> SPRTResult:
    """Play A against B, colours alternating, until the SPRT accepts a hypothesis or
    ``max_games`` are played (see the module docstring).

    Call it under ``if __name__ == "__main__":`` in a script (worker processes are spawned).
    Games already under way when the test decides are played out and counted in the
    result (and the results file); the decision stays the one first reached.

    Args:
        a: The agent tested (any candidate of :func:`~connectn_env.ladder.evaluate`).
        b: The reference agent.
        game: A game name or ``GameConfig`` (any game: no ladder is needed).
        elo0: H0's Elo difference of A over B, -1000 to 1000.
        elo1: H1's, at least 0.1 more than ``elo0``, at most 1000.
        alpha: The probability of accepting H1 when H0 holds, from 1e-6 to less than 0.5.
        beta: The probability of accepting H0 when H1 holds (the same range).
        max_games: Stop with "inconclusive" after this many games.
        workers: Worker processes (default: all cores).
        ray: A Ray address: play the games as Ray tasks.
        results: The arena's JSON-lines results file: a rerun resumes from it.
        seed: Base seed of the games.
        report: Called with the state after every game.
        move_timeout: Seconds per move (default 300, at most a day; None: no limit), as
            :func:`~connectn_env.ladder.evaluate`'s: A loses a game it takes longer in, B
            taking longer stops the test.

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
    max_games = require_int("max_games", max_games, 1)
    seed = require_int("seed", seed, 0)
    move_timeout = require_move_timeout(move_timeout)
    first, second = make_candidate(a), make_candidate(b, role="B")
    labels = (first.label, second.label if second.label != first.label else f"{second.label}#2")
    check_candidate(first, config)
    check_candidate(second, config, role="B")
    specs = (first.spec, second.spec)
    with open_results(results, config, seed, labels, specs, move_timeout) as store:
        counts = [0, 0, 0]  # A's wins, draws, losses
        finished = set()
        for result in store.stream() if store else ():
            if result.pairing == labels:
                _tally(counts, result, labels[0])
                finished.add(result.index)
        bounds = sprt_bounds(alpha, beta)
        decision = _decide(counts, elo0, elo1, bounds, max_games)

        def tasks() -> Iterator[GameTask]:
            """Games while the test runs, up to ``max_games`` in all (resumed ones included)."""
            index, planned = 0, len(finished)
            while decision is None and planned < max_games:
                if index not in finished:
                    yield pairing_task(config, labels, specs, index, seed, move_timeout)
                    planned += 1
                index += 1

        local = first.local or second.local
        if workers is None:
            workers = os.cpu_count() or 1
        for result in play_tasks(tasks(), workers=workers, ray=ray, local=local):
            if store is not None:
                store.add(result)
            _tally(counts, result, labels[0])
            if decision is None:
                decision = _decide(counts, elo0, elo1, bounds, max_games)
            if report is not None:
                report(_result(labels, elo0, elo1, counts, bounds, decision))
    return _result(labels, elo0, elo1, counts, bounds, decision or "inconclusive")


def _tally(counts: list[int], result: GameResult, a: str) -> None:
    """Add ``result`` to A's wins, draws and losses; a game B lost by an error stops the test
    (A's win there says nothing of A)."""
    require_candidate_at_fault(result, a, "B", "the A/B test cannot judge A")
    counts[2 - round(2 * result.score_of(a))] += 1


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


def _decide(
    counts: list[int], elo0: float, elo1: float, bounds: tuple[float, float], max_games: int
) -> str | None:
    llr = sprt_llr(*counts, elo0, elo1)
    if llr >= bounds[1]:
        return "H1"
    if llr <= bounds[0]:
        return "H0"
    return "inconclusive" if sum(counts) >= max_games else None


def _result(
    labels: tuple[str, str],
    elo0: float,
    elo1: float,
    counts: list[int],
    bounds: tuple[float, float],
    decision: str | None,
) -> SPRTResult:
    llr = sprt_llr(*counts, elo0, elo1)
    return SPRTResult(*labels, elo0, elo1, *counts, llr, bounds, decision)
