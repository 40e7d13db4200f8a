"""Finished games: the :class:`GameResult` type and the resumable JSON-lines results file.

The file's first line describes the tournament (game, parameters, base seed, move
timeout); every other line is one finished game, appended as soon as it ends. A rerun with
the same file skips the games already there; a file from a different tournament is
refused. Every line is checked (types, ranges, and the moves replayed through the rules),
so an edited or corrupted file is refused with the line named rather than counted. One run
at a time writes a file: it is locked while open.

Each game line also names what played (:mod:`~connectn_env.arena.played`: the agents'
specs and network digests), and a rerun whose agents differ under the same labels is
refused; lines written before results files named them are read as their labels say.

A run killed in the middle of a write leaves a partial last line. Resuming cuts it off by
truncating the file at its last newline: one ``truncate`` call that never touches the
finished games before it (the file is never rewritten).
"""

from __future__ import annotations

import json
import math
import os
import sys
import warnings
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO

from connectn_env.arena.plan import GameTask, planned_opening, planned_players
from connectn_env.arena.played import PlayedBy, played_fields, read_played
from connectn_env.errors import ConnectnError
from connectn_env.file_lock import LockError, lock_beside
from connectn_env.games.config import GameConfig
from connectn_env.records.checks import REASONS, check_date, short_repr
from connectn_env.records.record import RESULTS, GameRecord
from connectn_env.safe_files import decode_utf8, open_regular_file, require_regular_file

MAX_LINE_BYTES = 2**20  # a game's line is a few kB (the longest games, a 1 kB error message)
_GAME_LINE_START = b'{"type": "game", '


class ArenaError(ValueError, ConnectnError):
    """A tournament cannot run as asked (bad results file, too few agents...)."""


@dataclass(frozen=True)
class GameResult:
    """How one game of the tournament ended.

    Attributes:
        pairing: Labels of the pairing's agents (command-line order).
        index: Game number within the pairing.
        players: Labels of player_0 and player_1.
        result: ``"player_0"``, ``"player_1"`` or ``"draw"``.
        reason: ``""`` (decided on the board), ``"forfeit"`` (an error) or ``"timeout"``.
        error: None, or ``{"player", "agent", "type", "message"}`` of the agent that lost
            by error or timeout.
        moves: The actions played.
        seconds: Wall time of the game.
        max_move_seconds: Slowest move of player_0 and of player_1.
        cpu_seconds: CPU time of the worker process over the game (both agents; None in
            results files written before it was recorded).
        date: ISO 8601 time the game ended.
        opening: How many of ``moves`` were an opening's (played before the agents played).
    """

    pairing: tuple[str, str]
    index: int
    players: tuple[str, str]
    result: str
    reason: str = ""
    error: dict[str, Any] | None = None
    moves: tuple[int, ...] = ()
    seconds: float = 0.0
    max_move_seconds: tuple[float, float] = (0.0, 0.0)
    date: str = field(default="")
    opening: int = 0
    cpu_seconds: float | None = None

    @classmethod
    def of_played_game(
        cls, task: GameTask, data: dict[str, Any], moves: list[int] | None = None
    ) -> GameResult:
        """The result of ``task`` from what the worker's ``play_game`` returned (``data``),
        ended now; ``moves`` when the parent collected them itself (else ``data["moves"]``).
        A game lost before its opening was played out (an agent that could not be built, a
        worker that died) counts only the opening moves played."""
        played = tuple(data["moves"] if moves is None else moves)
        return cls(
            pairing=task.pairing,
            index=task.index,
            players=task.labels,
            result=data["result"],
            reason=data["reason"],
            error=data["error"],
            moves=played,
            seconds=data["seconds"],
            max_move_seconds=tuple(data["max_move_seconds"]),
            date=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            opening=min(len(task.opening), len(played)),
            cpu_seconds=data.get("cpu_seconds"),
        )

    @property
    def key(self) -> tuple[str, str, int]:
        return (*self.pairing, self.index)

    def score_of(self, label: str) -> float:
        """1, 0.5 or 0: the points of agent ``label`` in this game."""
        if self.result == "draw":
            return 0.5
        return 1.0 if self.players[int(self.result[-1])] == label else 0.0

    def to_record(self, game: GameConfig, seed: int) -> GameRecord:
        """The game as a :class:`GameRecord` (for ``--record``); its moves are replayed.

        Raises:
            ValueError: an illegal move, or a result the moves do not give.
        """
        meta = {"pairing": list(self.pairing), "index": self.index, "seed": seed}
        if self.error is not None:
            meta["error"] = self.error
        if self.opening:
            meta["opening"] = list(self.moves[: self.opening])
        return GameRecord(
            game=game,
            moves=self.moves,
            players=self.players,
            result=self.result,
            reason=self.reason,
            date=self.date,
            meta=meta,
        )

    def to_json(self) -> dict[str, Any]:
        """The game as JSON data (the keys in field order; built directly, as
        ``dataclasses.asdict`` copies every move deeply and is ten times slower; ``opening``
        only for a game that started from one)."""
        data = {
            "pairing": list(self.pairing),
            "index": self.index,
            "players": list(self.players),
            "result": self.result,
            "reason": self.reason,
            "error": None if self.error is None else dict(self.error),
            "moves": list(self.moves),
            "seconds": self.seconds,
            "max_move_seconds": list(self.max_move_seconds),
            "date": self.date,
        }
        if self.opening:
            data["opening"] = self.opening
        if self.cpu_seconds is not None:
            data["cpu_seconds"] = self.cpu_seconds
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """Inverse of :meth:`to_json`, every key checked.

        Raises:
            ValueError: a missing key or a value of the wrong type or range (named).
        """
        for key in ("pairing", "index", "players", "result"):
            if key not in data:
                raise ValueError(f"missing key {key!r}")
        pairing = _labels(data["pairing"], "pairing")
        players = _labels(data["players"], "players")
        if pairing[0] == pairing[1] or sorted(players) != sorted(pairing):
            raise ValueError(f"players {list(players)} do not match pairing {list(pairing)}")
        index = data["index"]
        if type(index) is not int or index < 0:
            raise ValueError(f"key 'index' must be an integer >= 0, got {short_repr(index)}")
        result = data["result"]
        if not isinstance(result, str) or result not in RESULTS[:3]:
            raise ValueError(
                f"key 'result' must be player_0, player_1 or draw, got {short_repr(result)}"
            )
        reason = data.get("reason", "")
        if not isinstance(reason, str) or reason not in REASONS:
            raise ValueError(f"key 'reason' must be one of {REASONS}, got {short_repr(reason)}")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(type(m) is int for m in moves):
            raise ValueError(f"key 'moves' must be a list of integers, got {short_repr(moves)}")
        slowest = data.get("max_move_seconds", [0.0, 0.0])
        if not isinstance(slowest, list) or len(slowest) != 2:
            raise ValueError(f"key 'max_move_seconds' must hold two numbers, got {slowest!r}")
        opening = data.get("opening", 0)
        if type(opening) is not int or not 0 <= opening <= len(moves):
            raise ValueError(
                f"key 'opening' must be a number of moves from 0 to {len(moves)}, got "
                f"{short_repr(opening)}"
            )
        try:
            date = check_date(data.get("date", ""))
        except (TypeError, ValueError) as error:
            raise ValueError(f"key 'date': {error}") from None
        return cls(
            pairing=pairing,
            index=index,
            players=players,
            result=result,
            reason=reason,
            error=_error(data.get("error")),
            moves=tuple(moves),
            seconds=_seconds(data.get("seconds", 0.0), "seconds"),
            max_move_seconds=(
                _seconds(slowest[0], "max_move_seconds"),
                _seconds(slowest[1], "max_move_seconds"),
            ),
            date=date,
            opening=opening,
            cpu_seconds=None
            if data.get("cpu_seconds") is None
            else _seconds(data["cpu_seconds"], "cpu_seconds"),
        )


def _labels(value: Any, name: str) -> tuple[str, str]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise ValueError(f"key {name!r} must hold two labels, got {short_repr(value)}")
    return (value[0], value[1])


def _seconds(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"key {name!r} must hold numbers of seconds, got {short_repr(value)}")
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"key {name!r} must hold finite seconds >= 0, got {value!r}")
    return float(value)


def _error(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or set(value) != {"player", "agent", "type", "message"}
        or value["player"] not in (0, 1)
        or isinstance(value["player"], bool)
        or not all(isinstance(value[k], str) for k in ("agent", "type", "message"))
    ):
        raise ValueError(
            "key 'error' must be null or {player: 0 or 1, agent, type, message: strings}, got "
            f"{short_repr(value)}"
        )
    return dict(value)


def cut_partial_line(path: str | Path) -> int:
    """Cut a partial last line (a write cut short) off the file at ``path``.

    The file is truncated at its last newline (found by reading backwards from the end): a
    single ``truncate`` call, so the lines before it are never at risk, even if the process
    is killed during the repair.

    Returns:
        The number of bytes removed (0 if the file ends with a newline or is empty).

    Raises:
        ValueError: ``path`` is not a regular file (a FIFO, a directory...).
    """
    with open_regular_file(path, max_bytes=None) as stream:  # read backwards, by chunks
        size = stream.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            start = max(0, end - 65536)
            stream.seek(start)
            chunk = stream.read(end - start)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                end = start + newline + 1
                break
            end = start
    if end < size:
        os.truncate(path, end)
    return size - end


class ResultsFile:
    """Append-only JSON lines of finished games, resumable.

    Args:
        path: The file (created with its header line if missing or empty; if it exists it
            must be a regular file).
        header: The tournament's description (``game``, ``params``, ``seed``,
            ``move_timeout``, and ``openings``: the SHA-256 of the opening suite, for a
            tournament that plays one); an existing file must have the same.
        option: The option that names the file, for the messages (``"--out"``).

    The file is locked (:func:`~connectn_env.file_lock.lock_beside`) before it is read, until
    :meth:`close` (or the end of a ``with`` block): a second process that opens it meanwhile
    is refused, and nothing is written twice. A last line without its newline (a write a
    kill cut short) is cut off only if it is the start of a header or a game line: a file
    that is not a results file is never cut, whatever its length.

    Attributes:
        finished: The keys ``(agent, agent, index)`` of the games in the file when it was
            opened (only the keys: :meth:`stream` reads the games back).

    Raises:
        ArenaError: the file is not a regular file, cannot be written, is being written by
            another process (named), belongs to another tournament, or a line is malformed,
            not UTF-8 or longer than 1 MiB (the message names the line); the file is left
            as it was.
    """

    def __init__(self, path: Path, header: dict[str, Any], option: str = "--out") -> None:
        self.path = Path(path)
        self.option = option
        self.header = {"type": "tournament", **header}
        self.game = GameConfig(header["game"], header["params"])
        self.finished: set[tuple[str, str, int]] = set()
        self.agents: dict[str, PlayedBy | None] = {}  # named in the games added
        self._played: dict[str, tuple[PlayedBy, int]] = {}  # by label: the first line's agent
        self._unnamed: set[str] = set()  # labels in lines that name no agents
        if self.path.exists():
            try:
                require_regular_file(self.path, self.path.stat().st_mode)
            except ValueError as error:
                raise ArenaError(f"{error}; {option} needs a results file") from None
        self._close = self._lock(option)
        try:
            if self.path.exists() and self.path.stat().st_size > 0:
                self._read()
            else:
                self._write_header(option)
        except BaseException:
            self.close()
            raise

    def _write_header(self, option: str) -> None:
        try:
            self._append(self.header)
        except OSError as error:
            reason = error.strerror or str(error)
            raise ArenaError(f"{option} {self.path}: cannot write it ({reason})") from None

    def _lock(self, option: str) -> weakref.finalize:
        """Take the file's lock (:func:`~connectn_env.file_lock.lock_beside`); the
        finalizer that gives it back, when :meth:`close` is called or the object is lost.

        Raises:
            ArenaError: another process writes the file (named, with the holder).
        """
        busy = f"{option} {self.path}: another run is writing this results file"
        lock = lock_beside(self.path, busy)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock.acquire()
        except OSError as error:
            reason = error.strerror or str(error)
            raise ArenaError(f"{option} {self.path}: cannot write it ({reason})") from None
        except LockError as error:
            if error.held:
                raise ArenaError(str(error)) from None
            raise ArenaError(f"{option} {self.path}: cannot lock it: {error}") from None
        return weakref.finalize(self, lock.release, remove=True)

    def close(self) -> None:
        """Give the file's lock back (the file is written no more)."""
        self._close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _read(self) -> None:
        seen: dict[tuple[str, str, int], int] = {}
        complete = True
        with open_regular_file(self.path, max_bytes=None) as stream:  # lines are bounded
            start = 0  # of the line
            for number, line in _lines(stream, self.path):
                if line is None:  # the partial last line of a killed run, if it is ours
                    self._check_partial(stream, start, number)
                    complete = False
                    break
                start += len(line) + 1
                try:
                    text = decode_utf8(line, str(self.path), number)
                except ValueError as error:
                    raise ArenaError(str(error)) from None
                if number == 1:
                    self._check_header(self._parse(text, 1))
                elif text.strip():
                    data = self._parse(text, number)
                    result = self._result(data, number)
                    self._note_played(data, result.pairing, number)
                    if result.key in seen:
                        raise ArenaError(
                            f"{self.path} line {number}: game {result.index} of "
                            f"{' vs '.join(result.pairing)} is already on line {seen[result.key]}"
                        )
                    seen[result.key] = number
        self.finished = {(sys.intern(a), sys.intern(b), index) for a, b, index in seen}
        if not complete:
            cut_partial_line(self.path)
        if self.path.stat().st_size == 0:  # only a partial header was there
            self._append(self.header)

    def _check_partial(self, stream: BinaryIO, start: int, number: int) -> None:
        """A last line without its newline is cut off only if it is the start of a line
        this file would hold (its header, a game); anything else is not ours to erase.

        Raises:
            ArenaError: it is not (the message names the line).
        """
        line = json.dumps(self.header).encode() if number == 1 else _GAME_LINE_START
        stream.seek(start)
        partial = stream.read(len(line) + (number == 1))  # a header is never longer
        if not (line.startswith(partial) or (number > 1 and partial.startswith(line))):
            what = "a header" if number == 1 else "a game"
            raise ArenaError(
                f"{self.path} line {number}: no newline ends it and it is not {what} line cut "
                "short; this is not a results file of this run, left as it is: give another file"
            )

    def _check_header(self, first: dict[str, Any]) -> None:
        if first.get("type") != "tournament":
            raise ArenaError(f"{self.path} line 1: not a connectn arena results file")
        for key in ("game", "params", "seed", "move_timeout", "openings"):
            if first.get(key) != self.header.get(key):
                raise ArenaError(
                    f"{self.path} holds another tournament: its {key} is "
                    f"{short_repr(first.get(key))}, this run's is {self.header.get(key)!r}; use "
                    f"another {self.option} file"
                )

    def _note_played(self, data: dict[str, Any], pairing: tuple[str, str], number: int) -> None:
        """Keep what line ``number`` says played; one label naming two agents is refused."""
        try:
            played = read_played(data)
        except ValueError as error:
            raise ArenaError(f"{self.path} line {number}: {error}") from None
        if played is None:
            self._unnamed.update(pairing)
            return
        for label, agent in zip(pairing, played, strict=True):
            if agent is None:
                continue
            seen = self._played.setdefault(label, (agent, number))
            if seen[0] != agent:
                raise ArenaError(
                    f"{self.path} line {number}: {label!r} is {agent}, but {seen[0]} on line "
                    f"{seen[1]}: one label cannot name two agents"
                )

    def name_agents(self, agents: dict[str, PlayedBy | None]) -> None:
        """Check that the file's games of these labels were played by these agents, and name
        them in every game added from now on (None: an agent no spec names).

        Games written before results files named their agents are counted as their labels
        say (a warning says so: a changed agent cannot be detected in them).

        Raises:
            ArenaError: a label whose games in the file were played by another agent (both
                named); nothing is written.
        """
        for label, agent in agents.items():
            seen = self._played.get(label)
            if agent is not None and seen is not None and seen[0] != agent:
                raise ArenaError(
                    f"{self.path}: its games of {label!r} were played by {seen[0]} (line "
                    f"{seen[1]}); this run's {label!r} is {agent}: those games cannot count for "
                    "it. Use another results file (or another label for the changed agent)"
                )
        unnamed = sorted(self._unnamed & agents.keys())
        if unnamed:
            warnings.warn(
                f"{self.path}: its games of {', '.join(map(repr, unnamed))[:300]} name no agent "
                "specs (written before results files named them): they count as their labels "
                "say, and an agent changed under the same label cannot be detected",
                stacklevel=2,
            )
        self.agents = dict(agents)

    def _result(self, data: dict[str, Any], number: int) -> GameResult:
        try:
            result = GameResult.from_json(data)
            result.to_record(self.game, self.header["seed"])  # replays the moves
        except (TypeError, ValueError) as error:
            raise ArenaError(f"{self.path} line {number}: {error}") from None
        return result

    def _parse(self, line: str, number: int) -> dict[str, Any]:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise ArenaError(f"{self.path} line {number}: invalid JSON ({error.msg})") from None
        except (ValueError, RecursionError) as error:  # a 5,000-digit number, deep nesting
            raise ArenaError(f"{self.path} line {number}: invalid JSON ({error})") from None
        if not isinstance(data, dict):
            raise ArenaError(f"{self.path} line {number}: expected a JSON object")
        return data

    def stream(self) -> Iterator[GameResult]:
        """The games of the file, read back one at a time (checked when it was opened)."""
        with open_regular_file(self.path, max_bytes=None) as stream:
            for number, line in _lines(stream, self.path):
                if number > 1 and line is not None and line.strip():
                    yield GameResult.from_json(json.loads(line))

    def check_plan(
        self,
        labels: list[str],
        games: int,
        openings: Sequence[tuple[int, ...]] | None = None,
    ) -> None:
        """Finished games of the planned pairings must have the planned seats and start
        with the planned opening (:func:`~connectn_env.arena.plan.planned_opening`)."""
        for result in self.stream():
            a, b = result.pairing
            if a not in labels or b not in labels or labels.index(a) > labels.index(b):
                continue
            expected = planned_players(result.pairing, result.index)
            if result.index < games and result.players != expected:
                raise ArenaError(
                    f"{self.path}: game {result.index} of {' vs '.join(result.pairing)} was "
                    f"played with seats {result.players}, expected {expected}"
                )
            opening = planned_opening(openings, result.index)
            if result.index < games and result.moves[: result.opening] != opening:
                raise ArenaError(
                    f"{self.path}: game {result.index} of {' vs '.join(result.pairing)} was "
                    f"played from the opening {list(result.moves[: result.opening])}, planned "
                    f"{list(opening)}"
                )

    def add(self, result: GameResult) -> None:
        """Append one finished game (flushed at once; nothing of it is kept in memory)."""
        named = played_fields(result.pairing, self.agents) if self.agents else {}
        self._append({"type": "game", **result.to_json(), **named})

    def _append(self, data: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(data, allow_nan=False) + "\n")


def _lines(stream: BinaryIO, path: Path) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line without its newline)`` for each line; ``(number, None)`` for a
    last line without a newline (cut short), which ends the iteration.

    Raises:
        ArenaError: a complete line longer than :data:`MAX_LINE_BYTES`.
    """
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if line.endswith(b"\n"):
            yield number, line[:-1]
            continue
        while len(line) > MAX_LINE_BYTES:  # too long: complete (refused) or cut short?
            line = stream.readline(MAX_LINE_BYTES + 1)
            if line.endswith(b"\n"):
                raise ArenaError(
                    f"{path} line {number}: longer than {MAX_LINE_BYTES:,} bytes; not a "
                    "results file line"
                )
        yield number, None
        return
