"""Pentanomial statistics of game pairs, as fishtest scores them.

A pair is two games from the same opening with colours swapped; its score for A is 0, 1/2,
1, 3/2 or 2 points, and the pentanomial counts are how many pairs scored each. The two
games of a pair are correlated (an opening that favours one colour gives each agent one
easy game), so the pair, not the game, is the independent trial: counting games as
independent gets the variance wrong, and pairing removes the opening's bias from it (M. Van
den Bergh, "Normalized Elo" and "A practical introduction to the GSPRT"; fishtest's
mathematics page).

Units: a pair's score is the mean of its two games' scores, ``x`` in ``{0, 1/4, 1/2, 3/4,
1}``. From ``N`` pairs:

- ``score``: A's mean score per game, the mean of ``x``.
- ``variance``: the variance of one pair's ``x``. Every count gets half a virtual pair
  added for it (2.5 pairs in all, mean 1/2) so that it is never zero: when every pair
  scored the same (deterministic agents replaying one game pair) the observed variance is
  0 and the LLR would be infinite after one pair. Fishtest adds 0.001 pairs instead, which
  decides after one pair; with half a pair, at 0,50 and the default error rates, 18 pairs
  of 1 point each are needed to accept H0 and 8 of 2 points to accept H1
  (``tests/test_pentanomial.py``).
- ``llr(elo0, elo1)``: the generalised SPRT's normal approximation (fishtest's
  ``LLR_logistic``): ``N (s1 - s0) (2 score - s0 - s1) / (2 variance)``, with ``s0``, ``s1``
  the scores per game that the logistic Elo model predicts for ``elo0``, ``elo1``.
- ``elo`` and ``elo_interval``: the logistic Elo of ``score`` and of the ends of its 95%
  normal interval ``score +- 1.96 sqrt(variance / N)`` (clipped to [0, 1]); an end at a
  score of 0 or 1 is unbounded (None).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from connectn_env.elo import PAIR_POINTS, Z95, expected_score, pair_variance

PAIR_SCORES = PAIR_POINTS  # points of a pair, the pentanomial's five kinds
_GAME_SCORES = (0.0, 0.5, 1.0)


def pair_kind(first: float, second: float) -> int:
    """The index in :data:`PAIR_SCORES` of a pair whose games A scored ``first`` and
    ``second`` (each 0, 1/2 or 1).

    Raises:
        ValueError: a game score that is not 0, 1/2 or 1.
    """
    for score in (first, second):
        if score not in _GAME_SCORES:
            raise ValueError(f"a game's score must be 0, 0.5 or 1, got {score!r}")
    return round(2 * (first + second))


def elo_of_score(score: float) -> float | None:
    """The Elo difference whose expected score per game is ``score``
    (``400 log10(score / (1 - score))``); None at 0 or 1 (unbounded)."""
    if not 0 < score < 1:
        return None
    return 400 * math.log10(score / (1 - score))


@dataclass(frozen=True)
class Pentanomial:
    """How many pairs A scored 0, 1/2, 1, 3/2 and 2 points in (``counts``), and the
    statistics of the module docstring."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        counts = self.counts
        if (
            not isinstance(counts, tuple)
            or len(counts) != len(PAIR_SCORES)
            or not all(type(n) is int and n >= 0 for n in counts)
        ):
            raise ValueError(f"counts must be a tuple of 5 integers >= 0, got {counts!r}")

    @classmethod
    def of_pairs(cls, pairs: Iterable[tuple[float, float]]) -> Pentanomial:
        """The counts of ``pairs``, A's scores in the two games of each (see
        :func:`pair_kind`)."""
        counts = [0] * len(PAIR_SCORES)
        for first, second in pairs:
            counts[pair_kind(first, second)] += 1
        return cls(tuple(counts))  # type: ignore[arg-type]

    def add(self, first: float, second: float) -> Pentanomial:
        """These counts with one more pair, whose games A scored ``first`` and ``second``."""
        counts = list(self.counts)
        counts[pair_kind(first, second)] += 1
        return Pentanomial(tuple(counts))  # type: ignore[arg-type]

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def score(self) -> float | None:
        """A's mean score per game; None before any pair."""
        if not self.pairs:
            return None
        points = sum(n * p for n, p in zip(self.counts, PAIR_SCORES, strict=True))
        return points / (2 * self.pairs)

    @property
    def variance(self) -> float:
        """The variance of one pair's mean score, with :data:`VIRTUAL_PAIRS` of each kind
        added (so always positive: 1/16 with no pair at all)."""
        return pair_variance(self.counts)

    def llr(self, elo0: float, elo1: float) -> float:
        """The GSPRT log-likelihood ratio of H1 (A is ``elo1`` stronger) against H0
        (``elo0``); 0 before any pair."""
        score = self.score
        if score is None:
            return 0.0
        s0, s1 = expected_score(elo0, 0.0), expected_score(elo1, 0.0)
        return self.pairs * (s1 - s0) * (2 * score - s0 - s1) / (2 * self.variance)

    def score_interval(self, z: float = Z95) -> tuple[float, float] | None:
        """The normal interval of the score per game (95% by default), clipped to [0, 1];
        None before any pair."""
        score = self.score
        if score is None:
            return None
        half = z * math.sqrt(self.variance / self.pairs)
        return max(0.0, score - half), min(1.0, score + half)

    @property
    def elo(self) -> float | None:
        """The Elo difference of A over B that the score gives; None before any pair, or
        when A scored 0 or everything (unbounded)."""
        return None if self.score is None else elo_of_score(self.score)

    def elo_interval(self, z: float = Z95) -> tuple[float | None, float | None] | None:
        """The Elo of the ends of :meth:`score_interval` (None for an unbounded end); None
        before any pair."""
        interval = self.score_interval(z)
        if interval is None:
            return None
        low, high = interval
        return elo_of_score(low), elo_of_score(high)
