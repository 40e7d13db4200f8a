"""Building a ladder: the rungs play their neighbours one and two apart through the arena
(worker processes or Ray, resumable from its results file), in game pairs from the game's
opening suite; the ratings are fitted; then some pairings three apart, never fitted, are
played to check what the ratings predict."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from connectn_env.arena.outputs import check_output_file
from connectn_env.arena.results import GameResult
from connectn_env.arena.tournament import run_tournament
from connectn_env.elo import PairingStats
from connectn_env.file_lock import lock_beside
from connectn_env.games.validation import require_int
from connectn_env.ladder.fit import fit_ratings, neighbour_pairs
from connectn_env.ladder.games import LADDER_GAMES, ladder_key
from connectn_env.ladder.ladderfile import (
    DEFAULT_HELD_OUT,
    MAX_HELD_OUT,
    TARGET_HALF_WIDTH,
    Ladder,
    LadderRung,
    save_ladder,
)
from connectn_env.ladder.openings import OpeningSuite, choose_suite
from connectn_env.ladder.provenance import provenance
from connectn_env.ladder.rungs import Rung, ladder_rungs
from connectn_env.specs import parse_agent_spec

_ORDER_ROUNDS = 4  # rounds of pairs by fitted order, the guessed order's first included
_HELD_OUT_REACH = 3  # held-out pairings: rungs three apart in the fitted order


def build_ladder(
    game: Any,
    *,
    games_per_pair: int = 100,
    rungs: Sequence[Rung] | None = None,
    hold: Ladder | None = None,
    workers: int | None = None,
    ray: str | None = None,
    seed: int = 0,
    results: str | Path | None = None,
    out: str | Path | None = None,
    progress: bool = False,
    command: str = "",
    openings: OpeningSuite | str | Path | bool = True,
    held_out: int = DEFAULT_HELD_OUT,
) -> Ladder:
    """Play the rungs of ``game`` against their neighbours and fit their ratings.

    Each rung plays the rungs one and two places away (in ``rungs``' order, by expected
    strength), ``games_per_pair`` games per pair, colours alternating, through
    :func:`~connectn_env.arena.run_tournament`; then, until no pair is missing (at most
    three more rounds), it plays the rungs one and two places away in the order of the
    ratings fitted so far that it has not played yet. Every game starts from an opening of
    ``openings`` (the game's shipped suite by default), in game pairs: games ``2k`` and
    ``2k + 1`` of a pairing play opening ``k`` with colours swapped, and the fit weighs each
    pairing by its pairs (:mod:`connectn_env.elo`). A rung placed wrongly by the guessed
    order lost or won all its games and its rating was fixed by one side only: Gomoku's
    10,000-simulation plain UCT, guessed above alpha-beta at depth 2 and beaten by all its
    four neighbours, was fitted below UCT at 100 simulations, which it never played.

    The ratings are anchored at ``random`` = 0, or, with ``hold``, the rungs of that ladder
    (same label and spec) keep their ratings and only the pairs with a new rung are played:
    levels do not move when a rung is added.

    Then up to ``held_out`` pairings of rungs three apart in the fitted order, never fitted
    (spread along the ladder), are played the same way and kept apart: the ladder's
    held-out check compares what the ratings predict for them with what they scored. With
    ``hold``, that ladder's held-out pairings of two held rungs are kept beside them.

    Args:
        game: A ladder game (key, game name, ``GameConfig``...).
        games_per_pair: Games per pair of rungs.
        rungs: The rungs, weakest first (default: :func:`ladder_rungs` of the game).
        hold: A ladder of the same game whose ratings are held fixed.
        workers: Worker processes (default: all cores).
        ray: A Ray address: play the games as Ray tasks.
        seed: Base seed of the games.
        results: The arena's JSON-lines results file: a rerun resumes from it.
        out: Write the ladder here (atomically).
        progress: Show progress on stderr.
        command: The command line to record in the ladder.
        openings: The opening suite: True (the game's shipped suite), False (the empty
            board), a suite or its file.
        held_out: Pairings to hold out of the fit and check the ratings on (0 to 100).

    Raises:
        ValueError: an unknown game, a bad rung, ``hold`` of another game or with a rung
            that is not in ``rungs``, or a bad argument.
        ArenaError: a results file of another build, or a rung that cannot be built.
        LockError: another process is writing ``results`` (a ValueError too).
    """
    key = ladder_key(game)
    held_out = require_int("held_out", held_out, 0, MAX_HELD_OUT)
    suite = choose_suite(openings, LADDER_GAMES[key])
    rungs = list(ladder_rungs(key) if rungs is None else rungs)
    labels = [rung.label for rung in rungs]
    if len(set(labels)) != len(labels) or len(rungs) < 2:
        raise ValueError(f"rungs must be two or more with different labels, got {labels}")
    specs = [parse_agent_spec(rung.spec, allow_human=False) for rung in rungs]
    for spec in specs:
        spec.check_game(LADDER_GAMES[key])
    fixed = _held_ratings(hold, key, rungs)
    kept = _between_held(hold.pairings if hold else (), fixed)
    kept_out = _between_held(hold.held_out if hold else (), fixed)
    pairs = _unheld(neighbour_pairs(len(rungs)), labels, fixed)
    if not pairs:
        raise ValueError(f"every rung is held by the ladder given; nothing to play: {labels}")
    with _locked(results):  # every round's tournament takes it again
        played: dict[tuple[str, str], PairingStats] = {}  # by the rungs' labels, weaker first
        seconds = 0.0

        def play(chosen: list[tuple[int, int]]) -> None:
            """Play (or resume) the pairings ``chosen`` into ``played``."""
            nonlocal seconds
            result = run_tournament(
                LADDER_GAMES[key],
                specs,
                games=games_per_pair,
                workers=workers,
                ray=ray,
                seed=seed,
                out=results,
                progress=progress,
                pairs=chosen,
                openings=suite,
            )
            rename = dict(zip(result.labels, labels, strict=True))
            for p in result.pairings:
                if p.games:
                    played[rename[p.a], rename[p.b]] = dataclasses.replace(
                        p, a=rename[p.a], b=rename[p.b]
                    )
            seconds += sum(_cpu_seconds(game_result) for game_result in result.results)

        new = pairs
        for round_ in range(1, _ORDER_ROUNDS + 1):
            play(new)  # a round plays (or resumes) only its own pairs
            pairings = kept + [
                played[labels[i], labels[j]] for i, j in pairs if (labels[i], labels[j]) in played
            ]
            fit = fit_ratings(labels, pairings, fixed)
            fitted = sorted(range(len(rungs)), key=lambda i: fit.ratings[labels[i]])
            neighbours = [
                tuple(sorted((fitted[a], fitted[b]))) for a, b in neighbour_pairs(len(rungs))
            ]
            new = [pair for pair in _unheld(neighbours, labels, fixed) if pair not in pairs]
            if not new or round_ == _ORDER_ROUNDS:
                break
            pairs = sorted({*pairs, *new})
        checks = _held_out_pairs(fitted, pairs, labels, fixed, held_out)
        if checks:
            play(checks)
    held_intervals = {r.label: r.ci95 for r in hold.rungs if r.label in fixed} if hold else {}
    intervals = {label: held_intervals.get(label, fit.intervals[label]) for label in labels}
    games = dict.fromkeys(labels, 0)
    for p in pairings:
        games[p.a] += p.games
        games[p.b] += p.games
    ladder_rows = tuple(
        LadderRung(
            rung.label,
            rung.spec,
            fit.ratings[rung.label],
            intervals[rung.label],  # a held rung keeps the interval it was built with
            games[rung.label],
        )
        for rung in rungs
    )
    widest = max((r.ci95[1] - r.ci95[0]) / 2 for r in ladder_rows if r.label not in fixed)
    ladder = Ladder(
        key=key,
        rungs=ladder_rows,
        pairings=tuple(pairings),
        games_per_pair=games_per_pair,
        seed=seed,
        fixed=tuple(fixed),
        command=f"{hold.command}; then {command}" if hold else command,
        cpu_hours=(seconds + (hold.cpu_hours * 3600 if hold else 0.0)) / 3600,
        provisional=widest > TARGET_HALF_WIDTH or bool(hold and hold.provisional),
        held_out=(*kept_out, *(played[labels[i], labels[j]] for i, j in checks)),
        openings=None if suite is None else suite.reference,
        **provenance(),
    )
    if out is not None:
        save_ladder(ladder, out)
    return ladder


def _held_out_pairs(
    fitted: list[int],
    fitted_pairs: list[tuple[int, int]],
    labels: list[str],
    fixed: dict[str, float],
    count: int,
) -> list[tuple[int, int]]:
    """Up to ``count`` pairs of rungs three apart in the ``fitted`` order (rung indices,
    weakest first), none fitted nor of two held rungs, spread evenly along the ladder."""
    far = [
        tuple(sorted((fitted[k], fitted[k + _HELD_OUT_REACH])))
        for k in range(len(fitted) - _HELD_OUT_REACH)
    ]
    candidates = [pair for pair in _unheld(far, labels, fixed) if pair not in fitted_pairs]
    if count >= len(candidates):
        return sorted(candidates)
    if count == 0:
        return []
    step = (len(candidates) - 1) / max(1, count - 1)
    return sorted({candidates[round(k * step)] for k in range(count)})


def _cpu_seconds(result: GameResult) -> float:
    """A game's CPU time (its wall time in results files from before CPU time was recorded
    per game)."""
    return result.seconds if result.cpu_seconds is None else result.cpu_seconds


def _locked(results: str | Path | None) -> contextlib.AbstractContextManager:
    """The lock of the results file, held across the rounds (none without a file)."""
    if results is None:
        return contextlib.nullcontext()
    path = check_output_file(results, "--results", "a results file")
    path.parent.mkdir(parents=True, exist_ok=True)
    return lock_beside(path, f"--results {path}: another run is writing this results file")


def _unheld(
    pairs: list[tuple[int, int]], labels: list[str], fixed: dict[str, float]
) -> list[tuple[int, int]]:
    """``pairs`` less those of two held rungs."""
    return [(i, j) for i, j in pairs if not {labels[i], labels[j]} <= set(fixed)]


def _between_held(pairings: Iterable[PairingStats], fixed: dict[str, float]) -> list[PairingStats]:
    """The pairings whose two rungs are both held (their ratings ``fixed``)."""
    return [p for p in pairings if {p.a, p.b} <= fixed.keys()]


def _held_ratings(hold: Ladder | None, key: str, rungs: list[Rung]) -> dict[str, float]:
    """The ratings of ``hold``'s rungs that are in ``rungs`` with the same spec.

    Raises:
        ValueError: ``hold`` is of another game, or has a rung (by label) that is not among
            ``rungs``: the ladder built would silently lose it.
    """
    if hold is None:
        return {}
    if hold.key != key:
        raise ValueError(f"the ladder to hold is of {hold.key}, not of {key}")
    specs = {rung.label: rung.spec for rung in rungs}
    dropped = [f"{r.label!r} ({r.spec})" for r in hold.rungs if r.label not in specs]
    if dropped:
        raise ValueError(
            f"the ladder to hold has rungs that are not among the rungs built: "
            f"{', '.join(dropped)}; the ladder written would lose them (built: "
            f"{', '.join(specs)})"
        )
    return {r.label: r.rating for r in hold.rungs if specs.get(r.label) == r.spec}
