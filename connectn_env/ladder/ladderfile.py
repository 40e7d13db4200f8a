"""A ladder as data: its rungs with their ratings, the cross-table they come from, and how
it was built; read with every field checked, written atomically.

A file is JSON (``connectn_env/ladder/data/<key>.json`` ships one per game that has one)::

    {"format": "connectn-ladder", "version": 2, "key": "connect_n_6x6",
     "game": {"name": ..., "params": {...}},
     "rungs": [{"label", "spec", "rating", "ci95": [low, high], "games"}, ...],
     "pairings": [{"a", "b", "wins", "draws", "losses", "errors": {a: n, b: n},
                   "pentanomial": [5 counts] or null, "distinct_games": n or null}, ...],
     "held_out": [pairings as above, never fitted],
     "openings": {"digest", "openings"} or null, "checks": {...},
     "fixed": [labels held at earlier ratings], "command", "date", "package_version",
     "git_commit", "machine", "games_per_pair", "seed", "cpu_hours", "provisional"}

``provisional`` is true when a rating's interval is wider than +-50 Elo (the target) or the
builder asked for it. ``checks`` states the calibration and held-out checks (see
:mod:`connectn_env.ladder.fit`) as the file's ratings give them; a file whose statement
does not match its own numbers is refused (one without the statement is read, its checks
computed). Version 1 files (no pairs, no held-out
pairings, no suite) are read too.

A ladder file is data, whoever wrote it: its rungs may name built-in agents only (random,
mcts, puct, ab, az, perfect), checked before anything is imported. A rung that names a
factory (``module:callable``) is refused unless the reader allows factories
(``allow_factories=True``; ``--allow-factories`` on the command line): then loading the file
imports their modules and rating on it calls them, as a command line naming them would.

A rung whose agent this installation cannot make (``az`` without torch) is read all the
same, with what to install in :attr:`LadderRung.missing`: ``evaluate`` skips it
(:meth:`Ladder.playable`), a level of it says what to install, the other rungs keep their
ratings.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from connectn_env.atomic_write import write_text_atomically
from connectn_env.elo import ELO_CI_METHOD, ELO_METHOD, Z95, PairingStats, anchor_of
from connectn_env.games.config import GameConfig
from connectn_env.ladder.fit import Predictor, calibration, held_out_check
from connectn_env.ladder.games import LADDER_GAMES, ladder_key
from connectn_env.records.checks import short_repr
from connectn_env.safe_files import read_regular_bytes
from connectn_env.specs import BUILTIN_KINDS, AgentUnavailableError, parse_agent_spec

DATA = Path(__file__).resolve().parent / "data"
FORMAT = "connectn-ladder"
VERSION = 2
READABLE_VERSIONS = (1, 2)
TARGET_HALF_WIDTH = 50.0  # Elo: a rating's 95% interval at most +-50
DEFAULT_HELD_OUT = 4  # pairings a build holds out of the fit to check it
MAX_HELD_OUT = 100
HELD_OUT_GOAL = 0.8  # share of held-out pairings that must be consistent
MIN_LEVEL_GAP = 100.0  # Elo between a level for players and the one below it
MAX_RATING = 10_000.0  # Elo: a rating or interval end beyond +-this is refused
_MAX_BYTES = 1 << 22
MAX_COUNT = 10**12  # games, wins, draws, losses, errors
_PAIRING_FIELDS = {"a", "b", "wins", "draws", "losses", "errors", "pentanomial", "distinct_games"}


@dataclass(frozen=True)
class LadderRung:
    """A rung with its rating.

    Attributes:
        label: Its short name (``"uct-100"``).
        spec: Its agent spec (``"mcts:simulations=100,preset=uct"``).
        rating: Elo, ``random`` = 0.
        ci95: The 95% interval of the rating (a rung held at an earlier rating: itself).
        games: Games it played in the cross-table.
        missing: Why its agent cannot play in this installation and what to install
            (``az`` without torch), or ``""``.
    """

    label: str
    spec: str
    rating: float
    ci95: tuple[float, float]
    games: int
    missing: str = ""


@dataclass(frozen=True)
class Ladder:
    """A game's ladder (see the module docstring for the fields)."""

    key: str
    rungs: tuple[LadderRung, ...]
    pairings: tuple[PairingStats, ...]
    games_per_pair: int
    seed: int = 0
    fixed: tuple[str, ...] = ()
    command: str = ""
    cpu_hours: float = 0.0
    provisional: bool = True
    date: str = ""
    package_version: str = ""
    git_commit: str | None = None
    machine: dict[str, Any] = field(default_factory=dict)
    held_out: tuple[PairingStats, ...] = ()
    openings: dict[str, Any] | None = None

    @property
    def game(self) -> GameConfig:
        return LADDER_GAMES[self.key]

    @property
    def ratings(self) -> dict[str, float]:
        """Each rung's rating by label."""
        return {rung.label: rung.rating for rung in self.rungs}

    def rung(self, label: str) -> LadderRung:
        """The rung labelled ``label``.

        Raises:
            ValueError: no such rung (the message lists them).
        """
        for rung in self.rungs:
            if rung.label == label:
                return rung
        raise ValueError(f"{self.key} has no rung {label!r}; its rungs: {self.labels}")

    @property
    def labels(self) -> list[str]:
        return [rung.label for rung in self.rungs]

    @property
    def missing(self) -> tuple[LadderRung, ...]:
        """The rungs that cannot play in this installation (see :attr:`LadderRung.missing`)."""
        return tuple(rung for rung in self.rungs if rung.missing)

    def playable(self) -> Ladder:
        """This ladder without the rungs that cannot play here, and without their pairings
        (held-out ones too); the other rungs keep their ratings."""
        keep = [rung for rung in self.rungs if not rung.missing]
        labels = {rung.label for rung in keep}
        return dataclasses.replace(
            self,
            rungs=tuple(keep),
            pairings=tuple(p for p in self.pairings if p.a in labels and p.b in labels),
            held_out=tuple(p for p in self.held_out if p.a in labels and p.b in labels),
            fixed=tuple(label for label in self.fixed if label in labels),
        )

    def predictor(self) -> Predictor:
        """Predicted scores between rungs with the uncertainty of their ratings (the
        covariance of the fit at these ratings, ``random`` exact)."""
        return Predictor(self.labels, self.pairings, self.ratings, [anchor_of(self.labels)])

    @property
    def checks(self) -> dict[str, Any]:
        """The calibration check (fitted pairings whose observed interval holds the
        prediction) and the held-out check (held-out pairings consistent with it), as
        counts; ``passed`` when at least 80% of the held-out pairings are (None without
        any)."""
        fitted = calibration(self.pairings, self.ratings)
        held = held_out_check(self.predictor(), self.held_out) if self.held_out else []
        hits = sum(row.consistent for row in held)
        return {
            "calibration": {"inside": sum(row.consistent for row in fitted), "of": len(fitted)},
            "held_out": {
                "consistent": hits,
                "of": len(held),
                "passed": hits >= HELD_OUT_GOAL * len(held) if held else None,
            },
        }

    def levels(self) -> list[LadderRung]:
        """The rungs that are levels for players, weakest first: from the strongest rung
        down, each at least :data:`MIN_LEVEL_GAP` Elo below the level above it (a rung
        closer than that to it is not a level)."""
        chosen: list[LadderRung] = []
        for rung in reversed(self.by_rating()):
            if not chosen or rung.rating <= chosen[-1].rating - MIN_LEVEL_GAP:
                chosen.append(rung)
        return chosen[::-1]

    def by_rating(self) -> list[LadderRung]:
        """The rungs, weakest first by their fitted ratings."""
        return sorted(self.rungs, key=lambda rung: rung.rating)

    def table(self) -> str:
        """The ladder as ``connectn ladder show`` prints it: the ratings, the cross-table
        with the calibration check, and how it was built."""
        state = "PROVISIONAL" if self.provisional else "final"
        lines = [f"{self.key} ({self.game}): ladder, {state}", ""]
        width = max(len("rung"), *(len(r.label) for r in self.rungs))
        spec_width = max(len("spec"), *(len(r.spec) for r in self.rungs))
        ci_width = max(len("95% CI"), *(len(_ci(r)) for r in self.rungs))
        lines.append(
            f"level  {'rung':<{width}}  {'spec':<{spec_width}}    Elo  "
            f"{'95% CI':<{ci_width}}  above the rung below  games"
        )
        levels = {rung.label: number for number, rung in enumerate(self.levels(), start=1)}
        predictor = self.predictor()
        below = None
        for r in self.by_rating():
            held = " (held)" if r.label in self.fixed else ""
            held += " (cannot play here)" if r.missing else ""
            level = f"{levels[r.label]:5d}" if r.label in levels else " " * 5
            gap = ""
            if below is not None:
                spread = Z95 * predictor.difference_error(r.label, below.label)
                gap = f"{r.rating - below.rating:+.0f} +- {spread:.0f}"
            lines.append(
                f"{level}  {r.label:<{width}}  {r.spec:<{spec_width}}  {r.rating:+5.0f}  "
                f"{_ci(r):<{ci_width}}  {gap:<20}  {r.games:5d}{held}"
            )
            below = r
        rows = calibration(self.pairings, self.ratings)
        distinct = {(p.a, p.b): p.distinct for p in self.pairings}
        if rows:
            pair_width = max(len(f"{row.a} vs {row.b}") for row in rows)
            lines += [
                "",
                f"{'pairing':<{pair_width}}  games  distinct  score  95% CI          predicted",
            ]
            for row in rows:
                mark = "" if row.consistent else "  <- outside"
                unique = distinct[row.a, row.b]
                if unique is not None and unique < row.games:
                    mark += "  (games repeat)"
                lines.append(
                    f"{row.a + ' vs ' + row.b:<{pair_width}}  {row.games:5d}  "
                    f"{'-' if unique is None else unique:>8}  {row.observed:.3f}  "
                    f"[{row.interval[0]:.3f}, {row.interval[1]:.3f}]  {row.predicted:.3f}{mark}"
                )
            inside = sum(row.consistent for row in rows)
            lines.append(
                f"calibration: the predicted score is inside the observed score's 95% interval "
                f"in {inside} of {len(rows)} pairings"
            )
        lines += self._held_out_lines(predictor)
        suite = (
            f"openings: a suite of {self.openings['openings']} (digest "
            f"{self.openings['digest'][:12]}), in game pairs"
            if self.openings
            else "openings: none (every game from the empty board)"
        )
        lines += [
            "",
            f"Elo: {ELO_METHOD}; random = 0. 95% CI: {ELO_CI_METHOD}.",
            suite,
            f"built by: {self.command or '?'}",
            f"{self.games_per_pair} games per pair, seed {self.seed}, {self.cpu_hours:.3f} "
            f"CPU-hours, {self.date or '?'}, connectn-env {self.package_version or '?'}, "
            f"commit {self.git_commit or '?'}",
        ]
        if self.machine:
            lines.append("machine: " + ", ".join(f"{k} {v}" for k, v in self.machine.items()))
        if self.missing:
            lines.append(
                "cannot play in this installation (evaluate skips them, their levels say what "
                f"to install): {missing_note(self.missing)}"
            )
        return "\n".join(lines)

    def _held_out_lines(self, predictor: Predictor) -> list[str]:
        """The held-out check's table (none without held-out pairings)."""
        rows = held_out_check(predictor, self.held_out)
        if not rows:
            return []
        width = max(len(f"{row.a} vs {row.b}") for row in rows)
        lines = ["", f"{'held out':<{width}}  games  score  95% CI          predicted"]
        for row in rows:
            mark = "" if row.consistent else "  <- inconsistent"
            lines.append(
                f"{row.a + ' vs ' + row.b:<{width}}  {row.games:5d}  {row.observed:.3f}  "
                f"[{row.interval[0]:.3f}, {row.interval[1]:.3f}]  {row.predicted:.3f} "
                f"+- {Z95 * row.predicted_error:.3f}{mark}"
            )
        hits = sum(row.consistent for row in rows)
        verdict = "passed" if hits >= HELD_OUT_GOAL * len(rows) else "FAILED"
        lines.append(
            f"held-out check ({verdict}, goal {HELD_OUT_GOAL:.0%}): {hits} of {len(rows)} "
            "pairings never fitted score as predicted (within 1.96 standard errors of the "
            "difference)"
        )
        return lines

    def to_json(self) -> dict[str, Any]:
        """The ladder as JSON data (what :func:`save_ladder` writes)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "key": self.key,
            "game": {"name": self.game.name, "params": self.game.params},
            "rungs": [
                {
                    "label": r.label,
                    "spec": r.spec,
                    "rating": r.rating,
                    "ci95": list(r.ci95),
                    "games": r.games,
                }
                for r in self.rungs
            ],
            "pairings": [_pairing_json(p) for p in self.pairings],
            "held_out": [_pairing_json(p) for p in self.held_out],
            "openings": self.openings,
            "checks": self.checks,
            "fixed": list(self.fixed),
            "command": self.command,
            "date": self.date,
            "package_version": self.package_version,
            "git_commit": self.git_commit,
            "machine": self.machine,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "cpu_hours": self.cpu_hours,
            "provisional": self.provisional,
            "methods": {"elo": ELO_METHOD, "elo_ci95": ELO_CI_METHOD},
        }

    @classmethod
    def from_json(
        cls, data: Any, source: str, key: str | None = None, *, allow_factories: bool = False
    ) -> Ladder:
        """A ladder from JSON data, every field checked.

        Args:
            data: The parsed file.
            source: What to call it in messages (the file's path).
            key: The game it must be the ladder of, or None for any.
            allow_factories: Accept rungs that name factories (``module:callable``): their
                modules are imported (their code runs). False: built-in agents only.

        Raises:
            ValueError: a missing or bad field, a factory not allowed, or the ladder of
                another game (the message names ``source`` and what is wrong).
        """
        return _parse(data, source, key, allow_factories)


def _pairing_json(p: PairingStats) -> dict[str, Any]:
    return {
        "a": p.a,
        "b": p.b,
        "wins": p.wins,
        "draws": p.draws,
        "losses": p.losses,
        "errors": {p.a: p.errors_a, p.b: p.errors_b},
        "pentanomial": None if p.pairs is None else list(p.pairs),
        "distinct_games": p.distinct,
    }


def missing_note(rungs: Sequence[LadderRung]) -> str:
    """One line: the rungs that cannot play here, each group with what to install."""
    groups: dict[str, list[str]] = {}
    for rung in rungs:
        groups.setdefault(rung.missing, []).append(rung.label)
    return "; ".join(f"{', '.join(labels)}: {reason}" for reason, labels in groups.items())


def _ci(rung: LadderRung) -> str:
    return f"[{rung.ci95[0]:+.0f}, {rung.ci95[1]:+.0f}]"


def shipped_path(game: Any) -> Path:
    """Where the ladder of ``game`` ships (it may not exist yet)."""
    return DATA / f"{ladder_key(game)}.json"


def shipped_keys() -> list[str]:
    """The keys of the games whose ladder ships (has a file in :data:`DATA`)."""
    return [key for key in LADDER_GAMES if (DATA / f"{key}.json").exists()]


def shipped_ladder(game: Any) -> Ladder:
    """The ladder shipped for ``game``.

    Raises:
        ValueError: the game has no ladder, none is built yet, or its file is damaged.
    """
    key = ladder_key(game)
    path = shipped_path(key)
    if not path.exists():
        built = shipped_keys() or ["none"]
        raise ValueError(
            f"no ladder is built for {key} yet (built: {', '.join(built)}); build one with "
            f"connectn ladder build and evaluate against its file (--ladder FILE)"
        )
    return load_ladder(path, key)


def load_ladder(path: str | Path, game: Any = None, *, allow_factories: bool = False) -> Ladder:
    """Read and check a ladder file.

    Args:
        path: The file.
        game: The game it must be the ladder of (a ladder key, a game name, a
            ``GameConfig``...), or None for any.
        allow_factories: Accept rungs that name factories (``module:callable``), whose
            modules are imported here (their code runs); False: built-in agents only, checked
            before any import.

    Raises:
        ValueError: the file is not a readable ladder, names a factory not allowed, or is
            another game's (named).
    """
    key = None if game is None else ladder_key(game)
    path = Path(path)
    try:
        raw = read_regular_bytes(path, max_bytes=_MAX_BYTES, what="a ladder file")
        data = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not a ladder file: invalid JSON ({error.msg})") from None
    except (OSError, ValueError, RecursionError) as error:  # a 5,000-digit number too
        raise ValueError(f"{path}: not a readable ladder file: {error}") from None
    return _parse(data, str(path), key, allow_factories)


def save_ladder(ladder: Ladder, path: str | Path) -> Path:
    """Write ``ladder`` to ``path`` atomically (a reader sees the old file or the new one)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_text_atomically(
        path, json.dumps(ladder.to_json(), indent=1, allow_nan=False) + "\n"
    )


def _parse(data: Any, source: str, key: str | None, allow_factories: bool) -> Ladder:
    def fail(message: str) -> ValueError:
        return ValueError(f"{source}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'not a ladder file (no "format": "{FORMAT}")')
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise fail(
            f"ladder format version {short_repr(version)}; this reads "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    own_key = data.get("key")
    if not isinstance(own_key, str) or own_key not in LADDER_GAMES:
        raise fail(f"unknown ladder key {short_repr(own_key)}; known: {', '.join(LADDER_GAMES)}")
    game = data.get("game")
    expected = LADDER_GAMES[own_key]
    if game != {"name": expected.name, "params": expected.params}:
        raise fail(f"its game {short_repr(game)} is not {own_key}'s ({expected})")
    if key is not None and own_key != key:
        raise fail(f"the ladder of {own_key}, not of {key}")
    rungs = _rungs(data.get("rungs"), fail, allow_factories)
    labels = [r.label for r in rungs]
    pairings = _pairings(data.get("pairings"), labels, fail)
    held_out = _pairings(data.get("held_out", []), labels, fail, "held-out pairing")
    openings = data.get("openings")
    if openings is not None and not (
        isinstance(openings, dict)
        and set(openings) == {"digest", "openings"}
        and isinstance(openings["digest"], str)
        and len(openings["digest"]) == 64
        and _count(openings["openings"])
    ):
        raise fail(
            f"'openings' must be null or a suite's digest and size, got {short_repr(openings)}"
        )
    if version >= 2 and not {"held_out", "openings"} <= set(data):
        raise fail("a version 2 ladder needs held_out and openings")
    fixed = data.get("fixed", [])
    if not isinstance(fixed, list) or not all(label in labels for label in fixed):
        raise fail(f"'fixed' must list rung labels, got {short_repr(fixed)}")
    text = {name: data.get(name, "") for name in ("command", "date", "package_version")}
    if not all(isinstance(value, str) for value in text.values()):
        raise fail(f"command, date and package_version must be strings, got {short_repr(text)}")
    commit = data.get("git_commit")
    machine = data.get("machine", {})
    if (commit is not None and not isinstance(commit, str)) or not isinstance(machine, dict):
        raise fail("git_commit must be a string or null and machine an object")
    games = data.get("games_per_pair")
    seed = data.get("seed", 0)
    hours = data.get("cpu_hours", 0.0)
    provisional = data.get("provisional")
    if not (_count(games) and games >= 1) or type(seed) is not int or seed < 0:
        raise fail(
            f"games_per_pair must be an integer from 1 to {MAX_COUNT:,} and seed >= 0, got "
            f"{short_repr(games)}, {short_repr(seed)}"
        )
    if not _number(hours) or hours < 0 or not isinstance(provisional, bool):
        raise fail(
            f"cpu_hours must be a number >= 0 and provisional a bool, got {short_repr(hours)}, "
            f"{short_repr(provisional)}"
        )
    ladder = Ladder(
        key=own_key,
        rungs=tuple(rungs),
        pairings=tuple(pairings),
        games_per_pair=games,
        seed=seed,
        fixed=tuple(fixed),
        provisional=provisional,
        cpu_hours=float(hours),
        git_commit=commit,
        machine=machine,
        held_out=tuple(held_out),
        openings=openings,
        **text,
    )
    if "checks" in data and data["checks"] != ladder.checks:
        raise fail(
            f"its checks {short_repr(data['checks'])} are not what its own numbers give "
            f"({short_repr(ladder.checks)})"
        )
    return ladder


def _number(value: Any, limit: float = math.inf) -> bool:
    """A JSON number (not a bool) of size below ``limit``, finite (a 400-digit integer is
    too large for a float: not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return abs(float(value)) < limit
    except OverflowError:
        return False


def _count(value: Any) -> bool:
    return type(value) is int and 0 <= value <= MAX_COUNT


def _rating(value: Any) -> bool:
    return _number(value) and abs(value) <= MAX_RATING


def _rungs(value: Any, fail: Any, allow_factories: bool) -> list[LadderRung]:
    if not isinstance(value, list) or not value:
        raise fail("'rungs' must be a non-empty list")
    rungs = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict) or set(item) != {"label", "spec", "rating", "ci95", "games"}:
            raise fail(
                f"rung {number} must have label, spec, rating, ci95 and games, got "
                f"{short_repr(item)}"
            )
        label, spec, rating, ci95, games = (
            item[k] for k in ("label", "spec", "rating", "ci95", "games")
        )
        if not isinstance(label, str) or not label or any(r.label == label for r in rungs):
            raise fail(f"rung {number}: label {short_repr(label)} must be a new non-empty string")
        missing = ""
        try:
            parse_agent_spec(spec, allow_human=False, allow_factories=allow_factories)
        except AgentUnavailableError as error:
            missing = error.reason
        except (TypeError, ValueError) as error:
            raise fail(
                f"rung {short_repr(label)}: bad spec: {error}"
                f"{'' if allow_factories else _factory_note(spec)}"
            ) from None
        if not (
            _rating(rating)
            and isinstance(ci95, list)
            and len(ci95) == 2
            and all(_rating(v) for v in ci95)
            and ci95[0] <= rating <= ci95[1]
        ):
            raise fail(
                f"rung {short_repr(label)}: rating {short_repr(rating)} must be a number inside "
                f"its ci95 {short_repr(ci95)}, each from {-MAX_RATING:g} to {MAX_RATING:g}"
            )
        if not _count(games):
            raise fail(
                f"rung {short_repr(label)}: games must be an integer from 0 to {MAX_COUNT:,}, got "
                f"{short_repr(games)}"
            )
        ci = (float(ci95[0]), float(ci95[1]))
        rungs.append(LadderRung(label, spec, float(rating), ci, games, missing))
    anchor = next((r for r in rungs if r.spec == "random"), None)
    if anchor is None or anchor.rating != 0:
        raise fail("the rung with spec 'random' must be there, rated 0")
    return rungs


def _factory_note(spec: Any) -> str:
    """How to accept a rung that names a factory (``""`` for a built-in agent's spec)."""
    if not isinstance(spec, str) or spec.strip().partition(":")[0] in BUILTIN_KINDS:
        return ""
    return (
        "; a ladder file is data and runs no code: a rung naming a factory loads only with "
        "allow_factories=True (--allow-factories), which imports and runs it"
    )


def _pairings(
    value: Any, labels: list[str], fail: Any, what: str = "pairing"
) -> list[PairingStats]:
    if not isinstance(value, list):
        raise fail(f"the {what}s must be a list")
    pairings = []
    for number, item in enumerate(value, start=1):
        try:
            extra = set(item) - _PAIRING_FIELDS
            if extra:
                raise ValueError(f"fields not allowed: {sorted(extra)}")
            a, b = item["a"], item["b"]
            counts = [item[k] for k in ("wins", "draws", "losses")]
            errors = item["errors"]
            if a not in labels or b not in labels or a == b:
                raise ValueError(
                    f"a and b must be two rungs, got {short_repr(a)} and {short_repr(b)}"
                )
            if not all(_count(c) for c in counts):
                raise ValueError(
                    f"wins, draws and losses must be integers from 0 to {MAX_COUNT:,}, got "
                    f"{short_repr(counts)}"
                )
            if not isinstance(errors, dict) or set(errors) != {a, b}:
                raise ValueError(f"errors must count each side's, got {short_repr(errors)}")
            errors_a, errors_b = errors[a], errors[b]
            if not all(_count(e) for e in (errors_a, errors_b)):
                raise ValueError(
                    f"error counts must be integers from 0 to {MAX_COUNT:,}, got "
                    f"{short_repr(errors)}"
                )
            pairs, distinct = item.get("pentanomial"), item.get("distinct_games")
            if pairs is not None and not (
                isinstance(pairs, list)
                and len(pairs) == 5
                and all(_count(n) for n in pairs)
                and 2 * sum(pairs) <= sum(counts)
            ):
                raise ValueError(
                    f"pentanomial must be null or 5 pair counts, at most half the games, got "
                    f"{short_repr(pairs)}"
                )
            if distinct is not None and not (_count(distinct) and distinct <= sum(counts)):
                raise ValueError(
                    f"distinct_games must be null or at most the games, got {short_repr(distinct)}"
                )
        except (TypeError, KeyError, ValueError) as error:
            raise fail(f"{what} {number}: {error}") from None
        pairs = None if pairs is None else tuple(pairs)
        pairings.append(PairingStats(a, b, *counts, errors_a, errors_b, pairs, distinct))
    return pairings
