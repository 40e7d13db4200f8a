"""The ladder's statistics: rung ratings from neighbouring pairs, a rating fitted against
fixed rungs, what the ratings predict (with the uncertainty of the ratings), the calibration
check on the pairings fitted and the held-out check on pairings that were not.

The model is :mod:`connectn_env.elo`'s (Bradley-Terry on the Elo scale, draws half a win,
one virtual draw per pairing played, game pairs weighed by their pentanomial dispersion,
intervals from the Fisher information): a ladder built from scratch anchors ``random`` at 0;
a rung added later, or a candidate, is fitted with the existing ratings held fixed, so the
levels do not move.

A prediction for ``a`` against ``b`` is the model's expected score at their ratings, with a
standard error from the covariance of the two ratings (the delta method). A held-out pairing
is **consistent** when its observed score and the prediction differ by at most 1.96
standard errors of the difference (the observed score's, from its pairs, and the
prediction's); the calibration check of fitted pairings asks the stricter question whether
the predicted score lies in the observed score's 95% interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from connectn_env.elo import (
    Z95,
    PairingStats,
    elo_intervals,
    elo_ratings,
    elo_ratings_fixed,
    expected_score,
    rating_covariance,
)

PAIR_REACH = 2  # rungs play the rungs one and two apart


@dataclass(frozen=True)
class Fit:
    """Ratings and their 95% intervals (a held rating's interval is itself)."""

    ratings: dict[str, float]
    intervals: dict[str, tuple[float, float]]


@dataclass(frozen=True)
class CalibrationRow:
    """One pairing's observed score (first agent's side) against the score its ratings
    predict, with the Wilson 95% interval of the observed one."""

    a: str
    b: str
    games: int
    observed: float
    predicted: float
    interval: tuple[float, float]

    @property
    def consistent(self) -> bool:
        """Whether the predicted score lies in the observed score's interval."""
        return self.interval[0] <= self.predicted <= self.interval[1]


def neighbour_pairs(count: int, reach: int = PAIR_REACH) -> list[tuple[int, int]]:
    """The pairs ``(i, j)`` of ``count`` rungs at most ``reach`` apart (``i < j``)."""
    return [(i, j) for i in range(count) for j in range(i + 1, min(i + reach + 1, count))]


def fit_ratings(
    labels: Sequence[str],
    pairings: Sequence[PairingStats],
    fixed: Mapping[str, float] | None = None,
) -> Fit:
    """The ratings of ``labels`` from ``pairings``: anchored at ``random`` (or the first
    label) when ``fixed`` is empty, else with the ratings of ``fixed`` held.

    Raises:
        ValueError: ``fixed`` names an agent not in ``labels`` or a rating that is not finite.
    """
    if fixed:
        ratings = elo_ratings_fixed(labels, pairings, fixed)
        return Fit(ratings, elo_intervals(labels, pairings, ratings, fixed=list(fixed)))
    ratings = elo_ratings(labels, pairings)
    return Fit(ratings, elo_intervals(labels, pairings, ratings))


def calibration(
    pairings: Sequence[PairingStats], ratings: Mapping[str, float]
) -> list[CalibrationRow]:
    """Each played pairing's observed score against the one ``ratings`` predict."""
    rows = []
    for p in pairings:
        if p.games == 0 or math.isnan(ratings[p.a]) or math.isnan(ratings[p.b]):
            continue
        predicted = expected_score(ratings[p.a], ratings[p.b])
        rows.append(CalibrationRow(p.a, p.b, p.games, p.score, predicted, p.interval))
    return rows


@dataclass(frozen=True)
class HeldOutRow:
    """A pairing the fit never saw: its observed score (first agent's side, with its 95%
    interval) against the prediction with its standard error."""

    a: str
    b: str
    games: int
    observed: float
    interval: tuple[float, float]
    predicted: float
    predicted_error: float

    @property
    def consistent(self) -> bool:
        """Whether observed and predicted differ by at most 1.96 standard errors of the
        difference (see the module docstring)."""
        observed_error = (self.interval[1] - self.interval[0]) / (2 * Z95)
        spread = math.hypot(observed_error, self.predicted_error)
        return abs(self.observed - self.predicted) <= Z95 * spread


class Predictor:
    """Scores predicted from ratings, with their standard errors.

    Args:
        labels: Every agent.
        pairings: The games the ratings were fitted on.
        ratings: The ratings.
        held: The agents whose ratings are taken as exact (the anchor, or the rungs held).
    """

    def __init__(
        self,
        labels: Sequence[str],
        pairings: Sequence[PairingStats],
        ratings: Mapping[str, float],
        held: Sequence[str],
    ) -> None:
        self.ratings = dict(ratings)
        covered, self._covariance = rating_covariance(labels, pairings, ratings, held)
        self._index = {label: k for k, label in enumerate(covered)}
        self._held = set(held)

    def difference_error(self, a: str, b: str) -> float:
        """The standard error (Elo) of ``a``'s rating minus ``b``'s; inf for an agent whose
        rating no game links to a held one."""
        variance = 0.0
        for label in (a, b):
            if label in self._held:
                continue
            if label not in self._index:
                return math.inf
            variance += self._covariance[self._index[label], self._index[label]]
        if a in self._index and b in self._index:
            variance -= 2 * self._covariance[self._index[a], self._index[b]]
        return math.sqrt(max(variance, 0.0))

    def score(self, a: str, b: str) -> tuple[float, float]:
        """``a``'s expected score per game against ``b`` and its standard error."""
        p = expected_score(self.ratings[a], self.ratings[b])
        slope = p * (1 - p) * math.log(10) / 400  # d score / d Elo
        return p, slope * self.difference_error(a, b)


def held_out_check(predictor: Predictor, held_out: Sequence[PairingStats]) -> list[HeldOutRow]:
    """Each held-out pairing's observed score against ``predictor``'s prediction."""
    rows = []
    for p in held_out:
        if p.games == 0:
            continue
        predicted, error = predictor.score(p.a, p.b)
        rows.append(HeldOutRow(p.a, p.b, p.games, p.score, p.interval, predicted, error))
    return rows
