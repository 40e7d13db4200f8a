"""Finished games: the :class:`GameResult` type and the resumable JSON-lines results file.

The file's first line describes the tournament (game, parameters, base seed, move
timeout); every other line is one finished game, appended as soon as it ends. A rerun with
the same file skips the games already there; a file from a different tournament is
refused.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from connectn_env.arena.plan import GameTask
from connectn_env.records.gameconfig import GameConfig
from connectn_env.records.record import RESULTS, GameRecord

__all__ = ["ArenaError", "GameResult", "ResultsFile"]


class ArenaError(ValueError):
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
        date: ISO 8601 time the game ended.
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

    @property
    def key(self) -> tuple[str, str, int]:
        return (*self.pairing, self.index)

    def score_of(self, label: str) -> float:
        """1, 0.5 or 0: the points of agent ``label`` in this game."""
        if self.result == "draw":
            return 0.5
        return 1.0 if self.players[int(self.result[-1])] == label else 0.0

    def to_record(self, game: GameConfig, seed: int) -> GameRecord:
        """The game as a :class:`GameRecord` (for ``--record``)."""
        meta = {"pairing": list(self.pairing), "index": self.index, "seed": seed}
        if self.error is not None:
            meta["error"] = self.error
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
        data = asdict(self)
        for key in ("pairing", "players", "moves", "max_move_seconds"):
            data[key] = list(data[key])
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """Inverse of :meth:`to_json`. Raises ValueError naming a missing or bad key."""
        try:
            result = cls(
                pairing=_pair(data["pairing"], "pairing"),
                index=int(data["index"]),
                players=_pair(data["players"], "players"),
                result=data["result"],
                reason=data.get("reason", ""),
                error=data.get("error"),
                moves=tuple(int(m) for m in data.get("moves", ())),
                seconds=float(data.get("seconds", 0.0)),
                max_move_seconds=tuple(data.get("max_move_seconds", (0.0, 0.0))),
                date=data.get("date", ""),
            )
        except KeyError as error:
            raise ValueError(f"missing key {error}") from None
        except (TypeError, ValueError) as error:
            raise ValueError(f"bad value: {error}") from None
        if result.result not in RESULTS[:3]:
            raise ValueError(
                f"key 'result' must be player_0, player_1 or draw, got {result.result}"
            )
        if sorted(result.players) != sorted(result.pairing):
            raise ValueError(f"players {result.players} do not match pairing {result.pairing}")
        return result


def _pair(value: Any, name: str) -> tuple[str, str]:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise ValueError(f"key {name!r} must hold two labels, got {value!r}")
    return (str(value[0]), str(value[1]))


class ResultsFile:
    """Append-only JSON lines of finished games, resumable.

    Args:
        path: The file (created with its header line if missing or empty).
        header: The tournament's description; an existing file must have the same.

    Raises:
        ArenaError: the file belongs to another tournament or a line is malformed (the
            message names the line).
    """

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = {"type": "tournament", **header}
        self.finished: dict[tuple[str, str, int], GameResult] = {}
        if self.path.exists() and self.path.stat().st_size > 0:
            self._read()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._append(self.header)

    def _read(self) -> None:
        lines = self.path.read_text(encoding="utf-8").split("\n")
        complete = lines[:-1]  # the text after the last newline is an unfinished line
        if lines[-1].strip():
            # A write cut short (the run was killed): drop the partial line.
            text = "\n".join(complete) + ("\n" if complete else "")
            self.path.write_text(text, encoding="utf-8")
        if not complete:
            self._append(self.header)
            return
        first = self._parse(complete[0], 1)
        if first.get("type") != "tournament":
            raise ArenaError(f"{self.path} line 1: not a connectn arena results file")
        for key in ("game", "params", "seed", "move_timeout"):
            if first.get(key) != self.header[key]:
                raise ArenaError(
                    f"{self.path} holds another tournament: its {key} is {first.get(key)!r}, "
                    f"this run's is {self.header[key]!r}; use another --out file"
                )
        seen: dict[tuple[str, str, int], int] = {}
        for number, line in enumerate(complete[1:], start=2):
            if not line.strip():
                continue
            data = self._parse(line, number)
            try:
                result = GameResult.from_json(data)
            except ValueError as error:
                raise ArenaError(f"{self.path} line {number}: {error}") from None
            if result.key in seen:
                raise ArenaError(
                    f"{self.path} line {number}: game {result.index} of "
                    f"{' vs '.join(result.pairing)} is already on line {seen[result.key]}"
                )
            seen[result.key] = number
            self.finished[result.key] = result

    def _parse(self, line: str, number: int) -> dict[str, Any]:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise ArenaError(f"{self.path} line {number}: invalid JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise ArenaError(f"{self.path} line {number}: expected a JSON object")
        return data

    def check_plan(self, tasks: list[GameTask]) -> None:
        """Finished games must be the planned games (same seats)."""
        planned = {task.key: task for task in tasks}
        for key, result in self.finished.items():
            task = planned.get(key)
            if task is not None and task.labels != result.players:
                raise ArenaError(
                    f"{self.path}: game {result.index} of {' vs '.join(result.pairing)} was "
                    f"played with seats {result.players}, expected {task.labels}"
                )

    def add(self, result: GameResult) -> None:
        """Append one finished game (flushed at once)."""
        self.finished[result.key] = result
        self._append({"type": "game", **result.to_json()})

    def _append(self, data: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(data) + "\n")
