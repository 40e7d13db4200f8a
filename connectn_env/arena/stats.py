"""Tournament tables: per-pairing counts, one finished game at a time, and the standings.

The statistics themselves (a pairing's score with its Wilson interval, the Elo fit and its
intervals) are in :mod:`connectn_env.elo`, below the agents, which AlphaZero's evaluation
reads too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from connectn_env.arena.results import GameResult
from connectn_env.elo import PAIR_POINTS, PairingStats


@dataclass(frozen=True)
class Standing:
    """One agent's line of the Elo table."""

    label: str
    elo: float
    elo_ci95: tuple[float, float]
    games: int
    score: float
    errors: int


class Tally:
    """The counts the tables are made of, added up one finished game at a time.

    Per pairing: wins, draws and losses of its first agent, each side's games lost by
    error, and the pentanomial counts of its game pairs (games ``2k`` and ``2k + 1``, colours
    swapped: a pair counts once both its games are in); over all games: the points of the
    player who moved first. Nothing else of a game is kept (not its moves, not the game
    itself; only the score of a pair's first game until its second comes), so a tally stays
    the same size however many games it counts: the arena's parent keeps this while the
    games themselves go to disk.

    Args:
        labels: The agents, in command-line order; a pairing is ``(a, b)`` with ``a`` before
            ``b``.
    """

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = tuple(labels)
        self._counts = {
            (a, b): [0, 0, 0, 0, 0]  # wins, draws, losses of a; errors of a, of b
            for i, a in enumerate(self.labels)
            for b in self.labels[i + 1 :]
        }
        self._pairs = {pairing: [0] * len(PAIR_POINTS) for pairing in self._counts}
        self._half_pairs: dict[tuple[tuple[str, str], int], float] = {}  # a's score, by pair
        self.games = 0
        self._first_half_points = 0  # points of player_0, in halves (exact)

    @classmethod
    def of(cls, labels: Sequence[str], results: Iterable[GameResult]) -> Tally:
        """A tally of ``results`` (each of a pairing of ``labels``)."""
        tally = cls(labels)
        for result in results:
            tally.add(result)
        return tally

    def add(self, result: GameResult) -> None:
        """Count one finished game.

        Raises:
            ValueError: its pairing is not two of the labels in command-line order.
        """
        counts = self._counts.get(result.pairing)
        if counts is None:
            raise ValueError(
                f"pairing {list(result.pairing)} is not a pairing of {list(self.labels)}"
            )
        a = result.pairing[0]
        score = result.score_of(a)
        counts[2 - round(2 * score)] += 1  # 0: a won, 1: a draw, 2: a lost
        other = self._half_pairs.pop((result.pairing, result.index ^ 1), None)
        if other is None:
            self._half_pairs[result.pairing, result.index] = score
        else:
            self._pairs[result.pairing][round(2 * (score + other))] += 1
        if result.error is not None:
            counts[3 if result.error["agent"] == a else 4] += 1
        self.games += 1
        self._first_half_points += round(2 * result.score_of(result.players[0]))

    @property
    def first_player_points(self) -> float:
        """Points of player_0 (the player who moved first) over all games counted."""
        return self._first_half_points / 2

    def pairings(self) -> list[PairingStats]:
        """One entry per pair of agents, in command-line order."""
        return [
            PairingStats(a, b, *counts, pairs=tuple(self._pairs[a, b]))  # type: ignore[arg-type]
            for (a, b), counts in self._counts.items()
        ]

    def standings(
        self, elo: dict[str, float], intervals: dict[str, tuple[float, float]]
    ) -> list[Standing]:
        """Every agent with its rating and interval, games, score per game and games lost
        by error, strongest first."""
        games = dict.fromkeys(self.labels, 0)
        points = dict.fromkeys(self.labels, 0.0)
        errors = dict.fromkeys(self.labels, 0)
        for p in self.pairings():
            games[p.a] += p.games
            games[p.b] += p.games
            points[p.a] += p.wins + 0.5 * p.draws
            points[p.b] += p.losses + 0.5 * p.draws
            errors[p.a] += p.errors_a
            errors[p.b] += p.errors_b
        rows = [
            Standing(
                label,
                elo[label],
                intervals[label],
                games[label],
                points[label] / games[label] if games[label] else math.nan,
                errors[label],
            )
            for label in self.labels
        ]
        return sorted(rows, key=lambda row: -row.elo if not math.isnan(row.elo) else math.inf)


def pairing_stats(labels: Sequence[str], results: Iterable[GameResult]) -> list[PairingStats]:
    """One entry per pair of agents, in command-line order."""
    return Tally.of(labels, results).pairings()


def standings(
    labels: Sequence[str],
    results: Iterable[GameResult],
    elo: dict[str, float],
    intervals: dict[str, tuple[float, float]],
) -> list[Standing]:
    """Every agent with its rating and interval, games, score per game and games lost by
    error, strongest first."""
    return Tally.of(labels, results).standings(elo, intervals)
