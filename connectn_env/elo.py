"""Scores and ratings from head-to-head results: an interval per pairing, an Elo fit.

Score: a win is 1 point, a draw 1/2. The 95% interval of a pairing played in game pairs is
the normal interval ``score +- 1.96 sqrt(v / N)`` over its ``N`` pairs, ``v`` the variance of
a pair's mean score (:func:`pair_variance`); without pairs, Wilson's score interval for a
proportion, applied to the score with draws as half a win (draws make the true variance
smaller than a win/loss game's, so that interval is conservative then).

Elo: maximum-likelihood Bradley-Terry ratings on the Elo scale (400 log10 of the strength
ratio), draws counted as half a win and half a loss, with one virtual draw added to every
pairing that was played (BayesElo's default prior), which keeps the ratings finite when an
agent wins every game. Ratings are anchored: ``random`` (the first agent whose spec is
``random``) is 0 when present, else the first agent. :func:`elo_ratings_fixed` fits the same
model with some ratings held fixed instead (a ladder's rungs: a new rung, or a candidate, is
rated against them and they do not move).

Game pairs: a pairing played in game pairs (one opening, colours swapped) carries its
pentanomial counts (:attr:`PairingStats.pairs`). Its two games are not independent, so the
fit weighs the pairing by its **effective games**, ``games / dispersion``, where the
dispersion is the variance of a pair's mean score (counted over the pairs, half a virtual
pair of each kind added) over what independent games of that score would give,
``score (1 - score) / 2``: a quasi-likelihood Bradley-Terry fit, with the points scaled to
the effective games. A pairing whose pairs all split 1-1 (each agent wins with one colour)
says its score is 1/2 more precisely than games would; one whose pairs are all 2-0 or 0-2
says less. Games that repeat an earlier game's moves (deterministic agents from one
position) count once: the effective games are the distinct games over the dispersion. A
pairing without pair counts weighs its (distinct) games.

Elo intervals: the covariance of the ratings is the inverse of the fit's Fisher information
(the curvature of its log-likelihood, virtual draws included) with the anchor held fixed;
each interval is the rating plus or minus 1.96 standard errors (with ratings held fixed,
the information of the free ratings only: the fixed ones are taken as known). Two agents
that both beat ``random`` in every game get the same capped rating but wide intervals, which
says how little their games tell.

A shared module below the agents and the arena (both read it: ``connectn arena``'s tables,
AlphaZero's evaluation); it imports nothing of the suite.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Z95 = 1.959963984540054
VIRTUAL_DRAWS = 1.0
VIRTUAL_PAIRS = 0.5  # pairs of each pentanomial kind added to a pair variance
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)  # a pair's points, the pentanomial's five kinds
CI_METHOD = (
    "normal interval on the score from the game pairs' pentanomial variance (Wilson's on the "
    "games without pairs), draws = 1/2, 95%"
)
ELO_METHOD = (
    "maximum-likelihood Bradley-Terry, draws = 1/2, one virtual draw per pairing, each "
    "pairing weighed by its effective games (distinct games over the game pairs' dispersion)"
)
ELO_CI_METHOD = (
    "rating +- 1.96 standard errors from the Fisher information of the fit (virtual draws "
    "included), relative to the anchor, 95%"
)


def wilson(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``score`` observed over ``games`` trials."""
    if games <= 0:
        return 0.0, 1.0
    n = float(games)
    denominator = 1 + z * z / n
    center = (score + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


class Scored:
    """Games and score of a record of ``wins``, ``draws`` and ``losses`` (the fields of the
    dataclass that takes this in)."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game, a draw 1/2 (nan before any game)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan


def pair_variance(counts: Sequence[float]) -> float:
    """The variance of one pair's mean score (0, 1/4, 1/2, 3/4 or 1) from the pentanomial
    ``counts`` (pairs that scored 0, 1/2, 1, 3/2 and 2 points), with :data:`VIRTUAL_PAIRS` of
    each kind added so that it is never 0 (1/16 with no pair)."""
    weights = [n + VIRTUAL_PAIRS for n in counts]
    total = sum(weights)
    values = [points / 2 for points in PAIR_POINTS]
    mean = sum(w * x for w, x in zip(weights, values, strict=True)) / total
    return sum(w * (x - mean) ** 2 for w, x in zip(weights, values, strict=True)) / total


@dataclass(frozen=True)
class PairingStats(Scored):
    """Results of agent ``a`` against agent ``b`` (wins, draws, losses from ``a``'s side).

    ``pairs``: when the games were played in game pairs, how many complete pairs ``a``
    scored 0, 1/2, 1, 3/2 and 2 points in (None: games not paired); ``distinct``: how many
    of the games differ by their moves (None: not counted).
    """

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    errors_a: int
    errors_b: int
    pairs: tuple[int, int, int, int, int] | None = None
    distinct: int | None = None

    @property
    def interval(self) -> tuple[float, float]:
        """The score's 95% interval: from the pairs (normal, pentanomial variance) when
        there are any, else Wilson's over the games."""
        if not self.games:
            return math.nan, math.nan
        if self.pairs is None or not sum(self.pairs):
            return wilson(self.score, self.games)
        half = Z95 * math.sqrt(pair_variance(self.pairs) / sum(self.pairs))
        return max(0.0, self.score - half), min(1.0, self.score + half)

    @property
    def effective_games(self) -> float:
        """The games the fit weighs this pairing by (see the module docstring): ``games``
        without pair counts."""
        games = float(self.games if self.distinct is None else min(self.games, self.distinct))
        if self.pairs is None or not sum(self.pairs) or not self.games:
            return games
        score = (self.wins + 0.5 * self.draws + 0.5 * VIRTUAL_DRAWS) / (self.games + VIRTUAL_DRAWS)
        dispersion = 2 * pair_variance(self.pairs) / (score * (1 - score))
        return games / dispersion

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "ci95": [low, high],
            "errors": {self.a: self.errors_a, self.b: self.errors_b},
            "pentanomial": None if self.pairs is None else list(self.pairs),
            "distinct_games": self.distinct,
        }


def expected_score(rating: float, opponent: float) -> float:
    """The score per game (draws 1/2) that the model predicts for ``rating`` against
    ``opponent``: ``1 / (1 + 10 ** ((opponent - rating) / 400))``, computed so that no
    difference overflows (a score of 0 or 1 past about 123,000 Elo)."""
    difference = (opponent - rating) / 400
    if difference > 0:
        odds = 10**-difference
        return odds / (1 + odds)
    return 1 / (1 + 10**difference)


def anchor_of(labels: Sequence[str]) -> str:
    """The agent rated 0: the first ``random`` agent, else the first agent."""
    return next((label for label in labels if label == "random"), labels[0])


def _fit_tables(
    labels: Sequence[str], pairings: Sequence[PairingStats]
) -> tuple[list[list[float]], list[list[float]]]:
    """``points[i][j]`` (i's points against j) and ``games[i][j]``, virtual draws included,
    each pairing's counts scaled to its effective games."""
    index = {label: i for i, label in enumerate(labels)}
    size = len(labels)
    points = [[0.0] * size for _ in range(size)]
    games = [[0.0] * size for _ in range(size)]
    for p in pairings:
        if p.games == 0:
            continue
        i, j = index[p.a], index[p.b]
        scale = p.effective_games / p.games
        points[i][j] += scale * (p.wins + 0.5 * p.draws) + 0.5 * VIRTUAL_DRAWS
        points[j][i] += scale * (p.losses + 0.5 * p.draws) + 0.5 * VIRTUAL_DRAWS
        games[i][j] = games[j][i] = games[i][j] + p.effective_games + VIRTUAL_DRAWS
    return points, games


def elo_ratings(
    labels: Sequence[str], pairings: Sequence[PairingStats], *, tolerance: float = 1e-10
) -> dict[str, float]:
    """Elo rating of every agent (see the module docstring), anchored at :func:`anchor_of`.

    Agents without any game get nan.
    """
    index = {label: i for i, label in enumerate(labels)}
    size = len(labels)
    points, games = _fit_tables(labels, pairings)
    played = [any(games[i]) for i in range(size)]
    strength = [1.0] * size
    for _ in range(100_000):  # minorisation-maximisation (Hunter 2004)
        old = list(strength)
        for i in range(size):
            if played[i]:
                strength[i] = sum(points[i]) / sum(
                    games[i][j] / (strength[i] + strength[j]) for j in range(size) if games[i][j]
                )
        scale = math.exp(sum(math.log(s) for s in strength) / size)  # fix the free scale
        strength = [s / scale for s in strength]
        if max(abs(math.log(s / o)) for s, o in zip(strength, old, strict=True)) < tolerance:
            break
    anchor = strength[index[anchor_of(labels)]]
    return {
        label: 400 * math.log10(strength[i] / anchor) if played[i] else math.nan
        for i, label in enumerate(labels)
    }


def elo_ratings_fixed(
    labels: Sequence[str],
    pairings: Sequence[PairingStats],
    fixed: Mapping[str, float],
    *,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Elo ratings with the ratings of ``fixed`` held as given: the others are fitted by the
    same model as :func:`elo_ratings` (no anchor: the fixed ratings set the scale).

    Args:
        labels: Every agent.
        pairings: Their results.
        fixed: Rating of each held agent (one or more of ``labels``, finite).

    Returns:
        Every agent's rating: the fixed ones as given, nan for a free agent whose games do
        not link it to a fixed one.

    Raises:
        ValueError: ``fixed`` is empty, names an agent not in ``labels`` or a rating that is
            not finite.
    """
    held = _held_indices(labels, fixed)
    size = len(labels)
    points, games = _fit_tables(labels, pairings)
    linked = _linked(games, held)
    strength = [10 ** (fixed[label] / 400) if i in held else 1.0 for i, label in enumerate(labels)]
    free = sorted(linked - set(held))
    for _ in range(100_000):  # minorisation-maximisation, the held strengths kept
        change = 0.0
        for i in free:
            new = sum(points[i]) / sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(size) if games[i][j]
            )
            change = max(change, abs(math.log(new / strength[i])))
            strength[i] = new
        if change < tolerance:
            break
    return {
        label: fixed[label]
        if i in held
        else (400 * math.log10(strength[i]) if i in linked else math.nan)
        for i, label in enumerate(labels)
    }


def rating_covariance(
    labels: Sequence[str],
    pairings: Sequence[PairingStats],
    elo: Mapping[str, float],
    held: Iterable[str],
) -> tuple[list[str], np.ndarray]:
    """The covariance (in Elo squared) of the ratings not ``held``, from the Fisher
    information of the fit at ``elo`` (virtual draws and effective games included), the
    ``held`` ratings taken as known.

    Returns:
        The labels the covariance covers (those linked to a held one by games, not held),
        and the matrix in their order.

    Raises:
        ValueError: ``held`` names an agent not in ``labels``.
    """
    held_index = []
    for label in held:
        if label not in labels:
            raise ValueError(f"held names {label!r}, which is not one of {list(labels)}")
        held_index.append(list(labels).index(label))
    size = len(labels)
    _, games = _fit_tables(labels, pairings)
    theta = [elo[label] * math.log(10) / 400 for label in labels]  # natural log-strengths
    information = np.zeros((size, size))
    for i in range(size):
        for j in range(i + 1, size):
            if games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * p * (1 - p)
                information[i, i] += w
                information[j, j] += w
                information[i, j] -= w
                information[j, i] -= w
    others = sorted(_linked(games, held_index) - set(held_index))
    if not others:
        return [], np.zeros((0, 0))
    scale = 400 / math.log(10)
    covariance = np.linalg.pinv(information[np.ix_(others, others)]) * scale**2
    return [labels[i] for i in others], covariance


def elo_intervals(
    labels: Sequence[str],
    pairings: Sequence[PairingStats],
    elo: dict[str, float],
    z: float = Z95,
    *,
    fixed: Iterable[str] = (),
) -> dict[str, tuple[float, float]]:
    """95% interval of each rating, relative to the anchor: ``elo +- z * standard error``,
    the standard errors from :func:`rating_covariance`.

    The anchor gets (0, 0); an agent without games (nan, nan); an agent whose games never
    link it to the anchor (-inf, inf). With ``fixed`` (the agents whose ratings
    :func:`elo_ratings_fixed` held), those play the anchor's part: each gets
    ``(elo, elo)``, and the others' errors are those of the free ratings alone.

    Raises:
        ValueError: ``fixed`` names an agent not in ``labels``.
    """
    held = list(fixed)
    if held:
        _held_indices(labels, {label: elo.get(label, math.nan) for label in held})
    else:
        held = [anchor_of(labels)]
    covered, covariance = rating_covariance(labels, pairings, elo, held)
    errors = {label: math.sqrt(covariance[k, k]) for k, label in enumerate(covered)}
    intervals = {}
    for label in labels:
        if math.isnan(elo[label]):
            intervals[label] = (math.nan, math.nan)
        elif label in held:
            intervals[label] = (elo[label], elo[label])
        elif label in errors:
            intervals[label] = (elo[label] - z * errors[label], elo[label] + z * errors[label])
        else:
            intervals[label] = (-math.inf, math.inf)
    return intervals


def _held_indices(labels: Sequence[str], fixed: Mapping[str, float]) -> list[int]:
    """The indices of the held agents, checked."""
    if not fixed:
        raise ValueError("fixed must hold at least one agent's rating, got none")
    held = []
    for label, rating in fixed.items():
        if label not in labels:
            raise ValueError(f"fixed names {label!r}, which is not one of {list(labels)}")
        if not isinstance(rating, int | float) or not math.isfinite(rating):
            raise ValueError(
                f"the fixed rating of {label!r} must be a finite number, got {rating!r}"
            )
        held.append(list(labels).index(label))
    return held


def _linked(games: list[list[float]], sources: Iterable[int]) -> set[int]:
    """The agents connected to ``sources`` by games (``sources`` included)."""
    linked = set(sources)
    frontier = list(linked)
    while frontier:
        i = frontier.pop()
        for j in range(len(games)):
            if games[i][j] and j not in linked:
                linked.add(j)
                frontier.append(j)
    return linked
