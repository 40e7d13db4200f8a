"""Opening suites: short move sequences that games between agents start from, so that
deterministic agents do not replay one game and games are decided by play, not by colour.

A suite is a small JSON file (``connectn_env/ladder/data/openings/<key>.json`` ships one per
ladder game; :mod:`connectn_env.ladder.openings_make` makes them)::

    {"format": "connectn-openings", "version": 1, "key": "connect_n_6x6",
     "game": {"name": ..., "params": {...}}, "command": "connectn openings make ...",
     "judge": "what kept an opening", "min_plies": 4, "max_plies": 6, "cpu_seconds": 12.5,
     "openings": [[14, 21, 15, 20], ...]}

Reading checks every field and refuses by name: a damaged file, a field missing or extra,
another game's suite, an opening outside ``[min_plies, max_plies]``, an illegal move, a
position where the game is over, and an opening that repeats an earlier one up to the
board's symmetries (those of :meth:`BoardGame.symmetries` that keep the starting position:
the mirror of Connect Four, the 8 of an empty square board, Hex's 180-degree rotation,
the 4 of Othello that keep its centre discs). Two move orders that reach one position are
one opening.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from connectn_env.atomic_write import write_text_atomically
from connectn_env.games import GameState, Symmetry
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int
from connectn_env.ladder.games import LADDER_GAMES, ladder_key
from connectn_env.records.checks import check_moves, short_repr
from connectn_env.safe_files import read_regular_bytes

OPENINGS = Path(__file__).resolve().parent / "data" / "openings"
FORMAT = "connectn-openings"
VERSION = 1
MAX_OPENINGS = 100_000
_MAX_BYTES = 1 << 24
_FIELDS = {
    "format",
    "version",
    "key",
    "game",
    "command",
    "judge",
    "min_plies",
    "max_plies",
    "cpu_seconds",
    "openings",
}


@dataclass(frozen=True)
class OpeningSuite:
    """A checked opening suite (see the module docstring for the fields).

    Attributes:
        key: The ladder key of its game.
        openings: The move sequences, each of ``min_plies`` to ``max_plies`` legal moves.
        min_plies: The fewest moves of an opening.
        max_plies: The most moves of an opening.
        command: The command that made it.
        judge: What decided that an opening is balanced, in words.
        cpu_seconds: CPU time its making took.
    """

    key: str
    openings: tuple[tuple[int, ...], ...]
    min_plies: int
    max_plies: int
    command: str = ""
    judge: str = ""
    cpu_seconds: float = 0.0

    @property
    def game(self) -> GameConfig:
        return LADDER_GAMES[self.key]

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        game = self.game
        return {
            "format": FORMAT,
            "version": VERSION,
            "key": self.key,
            "game": {"name": game.name, "params": game.params},
            "command": self.command,
            "judge": self.judge,
            "min_plies": self.min_plies,
            "max_plies": self.max_plies,
            "cpu_seconds": round(self.cpu_seconds, 1),
            "openings": [list(opening) for opening in self.openings],
        }

    @property
    def digest(self) -> str:
        """The SHA-256 (hex) of the game and the openings in order: what a results file
        records, so a resume with another suite (or the same openings reordered) is refused."""
        text = json.dumps([self.key, [list(o) for o in self.openings]], separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def reference(self) -> dict[str, Any]:
        """What a ladder built from the suite records of it: its digest and size."""
        return {"digest": self.digest, "openings": len(self.openings)}

    def rotated(self, first: int) -> OpeningSuite:
        """The suite with its opening ``first`` (from 0) first and those before it moved to
        the end: games from it start where the original's first games do not (a check on
        openings a ladder's short pairings did not play). Its digest is the rotated order's.

        Raises:
            TypeError: ``first`` is not an int.
            ValueError: ``first`` is not an opening's index.
        """
        first = require_int("the first opening", first, 0, len(self.openings) - 1)
        return replace(self, openings=self.openings[first:] + self.openings[:first])

    def table(self) -> str:
        """The suite in a few lines: game, size, plies, how it was made, the first openings."""
        game = self.game.make_game()
        lines = [
            f"{self.key}: {len(self.openings)} openings of {self.min_plies} to "
            f"{self.max_plies} plies (digest {self.digest[:12]})",
            f"made by: {self.command or '(not recorded)'}",
            f"judge: {self.judge or '(not recorded)'}",
            f"CPU time: {self.cpu_seconds:.1f} s",
        ]
        for number, opening in enumerate(self.openings[:10], start=1):
            lines.append(f"{number:4d}. {' '.join(game.action_name(a) for a in opening)}")
        if len(self.openings) > 10:
            lines.append(f"      ... {len(self.openings) - 10} more")
        return "\n".join(lines)

    @classmethod
    def from_json(cls, data: Any, source: str, key: str | None = None) -> OpeningSuite:
        """A suite from parsed JSON, every field and opening checked.

        Args:
            data: The parsed file.
            source: What to call it in messages (the file's path).
            key: The ladder key it must be the suite of, or None for any.

        Raises:
            ValueError: see the module docstring; the message names ``source``.
        """
        return _parse(data, source, key)


def suite_symmetries(game: GameConfig) -> tuple[Symmetry, ...]:
    """The symmetries of ``game``'s board that keep its starting position (identity first)."""
    board_game = game.make_game()
    start = board_game.new_initial_state().board.reshape(-1)
    kept = []
    for symmetry in board_game.symmetries():
        image = np.empty_like(start)
        image[symmetry.cells] = start
        if np.array_equal(image, start):
            kept.append(symmetry)
    return tuple(kept)


def position_key(state: GameState, symmetries: Sequence[Symmetry]) -> bytes:
    """The same bytes for a position and each of its images under ``symmetries`` (the
    smallest image of the board, with the player to move)."""
    board = state.board.reshape(-1)
    images = []
    for symmetry in symmetries:
        image = np.empty_like(board)
        image[symmetry.cells] = board
        images.append(image.astype(np.int8).tobytes())
    return bytes([state.current_player()]) + min(images)


def shipped_suite(game: Any) -> OpeningSuite:
    """The suite shipped for ``game`` (a ladder key, game name, ``GameConfig``...).

    Raises:
        ValueError: the game has no ladder, no suite ships for it, or its file is damaged.
    """
    key = ladder_key(game)
    path = OPENINGS / f"{key}.json"
    if not path.exists():
        raise ValueError(f"no opening suite ships for {key}; make one with connectn openings make")
    return load_suite(path, key)


def choose_suite(
    openings: OpeningSuite | str | Path | bool | None, game: GameConfig
) -> OpeningSuite | None:
    """The suite games of ``game`` start from: ``True``, the one shipped for the game (None
    if none ships); ``False`` or None, none (the empty board); a suite or its file, checked
    to be of ``game``.

    Raises:
        ValueError: a file that is not a suite of ``game`` (named), a suite of another game.
        TypeError: ``openings`` is none of these.
    """
    if openings is None or openings is False:
        return None
    if openings is True:
        try:
            key = ladder_key(game)
        except ValueError:
            return None
        return shipped_suite(key) if (OPENINGS / f"{key}.json").exists() else None
    if isinstance(openings, OpeningSuite):
        if openings.game != game:
            raise ValueError(f"the opening suite is of {openings.key}, not of {game}")
        return openings
    if not isinstance(openings, str | Path):
        raise TypeError(
            f"openings must be True (the shipped suite), False, a suite or its file, got "
            f"{short_repr(openings)}"
        )
    return load_suite(openings, game)


def load_suite(path: str | Path, game: Any = None) -> OpeningSuite:
    """Read and check the suite file ``path``.

    Args:
        path: The file.
        game: The game it must be the suite of (a ladder key, game name, ``GameConfig``...),
            or None for any.

    Raises:
        ValueError: not a readable suite, another game's, or a bad opening (named).
    """
    key = None if game is None else ladder_key(game)
    try:
        raw = read_regular_bytes(path, max_bytes=_MAX_BYTES, what="an opening suite")
        data = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not an opening suite: invalid JSON ({error.msg})") from None
    except (OSError, ValueError, RecursionError) as error:
        raise ValueError(f"{path}: not a readable opening suite: {error}") from None
    return _parse(data, str(path), key)


def save_suite(suite: OpeningSuite, path: str | Path) -> Path:
    """Write ``suite`` to ``path`` atomically, an opening per line."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = suite.to_json()
    openings = data.pop("openings")
    head = json.dumps(data, indent=1, allow_nan=False)[:-2]  # without the closing "\n}"
    body = ",\n  ".join(json.dumps(opening) for opening in openings)
    return write_text_atomically(path, f'{head},\n "openings": [\n  {body}\n ]\n}}\n')


def _parse(data: Any, source: str, key: str | None) -> OpeningSuite:
    def fail(message: str) -> ValueError:
        return ValueError(f"{source}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'not an opening suite (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise fail(f"suite format version {short_repr(data.get('version'))}; this reads {VERSION}")
    if set(data) != _FIELDS:
        missing, extra = sorted(_FIELDS - set(data)), sorted(set(data) - _FIELDS)
        raise fail(f"fields missing: {missing or 'none'}; fields not allowed: {extra or 'none'}")
    own_key = data["key"]
    if not isinstance(own_key, str) or own_key not in LADDER_GAMES:
        raise fail(f"unknown game key {short_repr(own_key)}; known: {', '.join(LADDER_GAMES)}")
    expected = LADDER_GAMES[own_key]
    if data["game"] != {"name": expected.name, "params": expected.params}:
        raise fail(f"its game {short_repr(data['game'])} is not {own_key}'s ({expected})")
    if key is not None and own_key != key:
        raise fail(f"an opening suite of {own_key}, not of {key}")
    if not all(isinstance(data[name], str) for name in ("command", "judge")):
        raise fail("command and judge must be strings")
    low, high, seconds = data["min_plies"], data["max_plies"], data["cpu_seconds"]
    if not (type(low) is int and type(high) is int and 1 <= low <= high <= 1000):
        raise fail(
            f"min_plies and max_plies must be integers with 1 <= min_plies <= max_plies <= 1000, "
            f"got {short_repr(low)} and {short_repr(high)}"
        )
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0:
        raise fail(f"cpu_seconds must be a number >= 0, got {short_repr(seconds)}")
    openings = data["openings"]
    if not isinstance(openings, list) or not 1 <= len(openings) <= MAX_OPENINGS:
        raise fail(f"'openings' must be a list of 1 to {MAX_OPENINGS:,} move lists")
    checked = check_openings(expected, openings, low, high, fail)
    return OpeningSuite(own_key, checked, low, high, data["command"], data["judge"], seconds)


def check_openings(
    game: GameConfig, openings: Sequence[Any], low: int, high: int, fail: Any = ValueError
) -> tuple[tuple[int, ...], ...]:
    """``openings`` checked: each a list of ``low`` to ``high`` legal moves of ``game`` that
    does not end the game, none the same position as an earlier one up to the symmetries.
    A bad opening raises ``fail(message)`` (by default a ``ValueError``) naming it by number.

    Raises:
        ValueError: the first bad opening, by number (with the default ``fail``).
    """
    board_game = game.make_game()
    symmetries = suite_symmetries(game)
    seen: dict[bytes, int] = {}
    checked = []
    for number, opening in enumerate(openings, start=1):
        try:
            moves = check_moves(opening, board_game.num_actions)
        except (TypeError, ValueError) as error:
            raise fail(f"opening {number}: {error}") from None
        if not low <= len(moves) <= high:
            raise fail(f"opening {number} has {len(moves)} moves; the suite's are {low} to {high}")
        state = board_game.new_initial_state()
        for ply, action in enumerate(moves, start=1):
            if state.is_terminal():
                raise fail(f"opening {number}: the game is over after move {ply - 1}")
            if action not in state.legal_actions():
                raise fail(
                    f"opening {number}: move {ply} ({board_game.action_name(action)}) is illegal"
                )
            state.apply_action(action)
        if state.is_terminal():
            raise fail(f"opening {number}: the game is over after its last move")
        position = position_key(state, symmetries)
        if position in seen:
            raise fail(
                f"opening {number} repeats opening {seen[position]} (the same position up to the "
                "board's symmetries)"
            )
        seen[position] = number
        checked.append(moves)
    return tuple(checked)
