"""Game records: the :class:`GameRecord` type, its JSON form, and saving / loading files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from connectn_env.games import GameState, IllegalActionError
from connectn_env.records.gameconfig import GameConfig

__all__ = [
    "RESULTS",
    "GameRecord",
    "load_record",
    "record_from_json",
    "record_to_json",
    "save_record",
    "write_record",
]

FORMAT = "connectn-record"
VERSION = 1
RESULTS = ("player_0", "player_1", "draw", "unfinished")
SGF_GAMES = ("gomoku", "hex")


@dataclass(frozen=True)
class GameRecord:
    """One game: which game, who played, the moves and how it ended.

    Attributes:
        game: The game and its parameters.
        moves: Actions in order (the env's action indices; Hex swap = ``rows * cols``).
        players: Names (agent specs) of player_0 and player_1. player_0 moves first (Black
            in Gomoku and Hex).
        result: ``"player_0"`` or ``"player_1"`` (the winner), ``"draw"`` or ``"unfinished"``.
        reason: How a decided game ended when it is not on the board: ``""`` (on the board),
            ``"resign"``, ``"forfeit"`` (an agent failed: see ``meta["error"]``) or
            ``"timeout"``.
        date: ISO 8601 time the game ended (UTC).
        meta: Anything else worth keeping (JSON-serialisable): seeds, errors, event.
    """

    game: GameConfig
    moves: tuple[int, ...]
    players: tuple[str, str] = ("player_0", "player_1")
    result: str = "unfinished"
    reason: str = ""
    date: str = field(default_factory=lambda: _now())
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.game, GameConfig):
            raise TypeError(f"game must be a GameConfig, got {self.game!r}")
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {self.result!r}")
        if len(self.players) != 2 or not all(isinstance(p, str) for p in self.players):
            raise TypeError(f"players must be two strings, got {self.players!r}")
        object.__setattr__(self, "moves", tuple(int(m) for m in self.moves))
        object.__setattr__(self, "players", tuple(self.players))

    @classmethod
    def from_state(
        cls,
        state: GameState,
        *,
        players: tuple[str, str] = ("player_0", "player_1"),
        result: str | None = None,
        reason: str = "",
        meta: dict[str, Any] | None = None,
    ) -> GameRecord:
        """The record of the game that led to ``state``.

        Args:
            state: The final position (``env.unwrapped.game_state``).
            players: Names of player_0 and player_1.
            result: Override the result read from the position (for a resignation,
                forfeit or timeout); by default the position's winner, draw or unfinished.
            reason: See :class:`GameRecord`.
            meta: Extra data.
        """
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a GameState, got {state!r}")
        return cls(
            game=GameConfig.from_game(state.game),
            moves=tuple(state.history()),
            players=players,
            result=result if result is not None else result_of(state),
            reason=reason,
            meta=dict(meta or {}),
        )

    def replay_states(self) -> list[GameState]:
        """The initial position and the position after every move (``len(moves) + 1``).

        Raises:
            ValueError: a move is illegal (the message names the move number).
        """
        state = self.game.make_game().new_initial_state()
        states = [state.clone()]
        for number, action in enumerate(self.moves, start=1):
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                raise ValueError(f"move {number}: {error}") from None
            states.append(state.clone())
        return states

    def final_state(self) -> GameState:
        """The position after the last move."""
        return self.replay_states()[-1]

    @property
    def winner(self) -> int | None:
        """0 or 1 for a decided game, else None."""
        return {"player_0": 0, "player_1": 1}.get(self.result)


def result_of(state: GameState) -> str:
    """``"player_0"``/``"player_1"``/``"draw"`` for a finished position, else ``"unfinished"``."""
    if not state.is_terminal():
        return "unfinished"
    return "draw" if state.winner is None else f"player_{state.winner}"


def check_consistent(record: GameRecord, where: str) -> None:
    """Replay the moves; the result must agree with a finished position.

    Raises:
        ValueError: an illegal move (also any move after the end) or a contradicting result.
    """
    try:
        states = record.replay_states()
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    on_board = result_of(states[-1])
    if on_board != "unfinished" and record.result != on_board:
        raise ValueError(
            f"{where}: result {record.result!r} contradicts the final position ({on_board})"
        )


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The record as a JSON-serialisable dict."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record.game.name,
        "params": record.game.params,
        "players": list(record.players),
        "moves": list(record.moves),
        "result": record.result,
        "reason": record.reason,
        "date": record.date,
        "meta": record.meta,
    }


def record_from_json(data: Any, where: str = "record") -> GameRecord:
    """Inverse of :func:`record_to_json`, validated (moves replayed).

    Raises:
        ValueError: a missing or malformed key (named in the message), or illegal moves.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ValueError(f"{where}: key 'format' must be {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"{where}: key 'version' must be {VERSION}, got {data.get('version')!r}")
    for key, kind in (("game", str), ("params", dict), ("players", list), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise ValueError(
                f"{where}: key {key!r} must be a {kind.__name__}, got {data.get(key)!r}"
            )
    moves = data["moves"]
    if not all(isinstance(m, int) and not isinstance(m, bool) for m in moves):
        raise ValueError(f"{where}: key 'moves' must hold integer actions, got {moves!r}")
    try:
        game = GameConfig(data["game"], data["params"])
        record = GameRecord(
            game=game,
            moves=tuple(moves),
            players=tuple(data["players"]),
            result=data.get("result", "unfinished"),
            reason=data.get("reason", ""),
            date=data.get("date", ""),
            meta=data.get("meta", {}),
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None
    check_consistent(record, where)
    return record


def write_record(record: GameRecord, path: str | Path) -> Path:
    """Write one file; the format follows the suffix: ``.json`` or ``.sgf`` (Gomoku, Hex).

    Raises:
        ValueError: an unknown suffix, or SGF for a game SGF does not cover.
    """
    from connectn_env.records.sgf import record_to_sgf

    path = Path(path)
    if path.suffix == ".json":
        text = _json_text(record_to_json(record))
    elif path.suffix == ".sgf":
        text = record_to_sgf(record)
    else:
        raise ValueError(f"unknown record format {path.suffix!r} for {path}; use .json or .sgf")
    path.write_text(text, encoding="utf-8")
    return path


def save_record(
    record: GameRecord, directory: str | Path, *, stem: str | None = None
) -> list[Path]:
    """Save a finished game into ``directory``: JSON always, SGF too for Gomoku and Hex.

    Args:
        record: The game.
        directory: Created if missing.
        stem: File name without suffix; default ``<game>-<date>``; a number is appended
            rather than overwrite an existing file.

    Returns:
        The paths written.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"record must be a GameRecord, got {record!r}")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    if stem is None:
        stem = f"{record.game.name}-{record.date.replace(':', '').replace('+0000', 'Z')}"
    suffixes = [".json", ".sgf"] if record.game.name in SGF_GAMES else [".json"]
    base, number = stem, 1
    while any((directory / f"{stem}{s}").exists() for s in suffixes):
        number += 1
        stem = f"{base}-{number}"
    return [write_record(record, directory / f"{stem}{s}") for s in suffixes]


def load_record(path: str | Path) -> GameRecord:
    """Read a ``.json`` or ``.sgf`` record (other suffixes: sniffed from the first character).

    Raises:
        ValueError: the file is malformed; the message names the file and the line,
            key or property at fault.
        OSError: the file cannot be read.
    """
    from connectn_env.records.sgf import record_from_sgf

    path = Path(path)
    text = path.read_text(encoding="utf-8")
    kind = path.suffix if path.suffix in (".json", ".sgf") else None
    if kind is None:
        kind = ".sgf" if text.lstrip().startswith("(") else ".json"
    if kind == ".sgf":
        return record_from_sgf(text, where=str(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} line {error.lineno}: invalid JSON: {error.msg}") from None
    return record_from_json(data, where=str(path))


def _json_text(data: dict[str, Any]) -> str:
    """JSON with one top-level key per line (moves stay on one line)."""
    body = ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items())
    return "{\n" + body + "\n}\n"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
