"""The ladder's statistics: rung ratings from neighbouring pairs, a rating fitted against
fixed rungs, and the calibration check.

The model is :mod:`connectn_env.elo`'s (Bradley-Terry on the Elo scale, draws half a win,
one virtual draw per pairing played, intervals from the Fisher information): a ladder built
from scratch anchors ``random`` at 0; a rung added later, or a candidate, is fitted with the
existing ratings held fixed, so the levels do not move.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from connectn_env.elo import (
    PairingStats,
    elo_intervals,
    elo_ratings,
    elo_ratings_fixed,
    expected_score,
)

__all__ = ["CalibrationRow", "Fit", "calibration", "fit_ratings", "neighbour_pairs"]

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
