"""Game records: the :class:`GameRecord` type, its JSON form, and saving / loading files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from connectn_env.games import GameState, IllegalActionError
from connectn_env.games.config import GameConfig
from connectn_env.records.checks import (
    MAX_NESTING,
    check_date,
    check_json_value,
    check_moves,
    check_reason,
    short_repr,
)

FORMAT = "connectn-record"
VERSION = 1
RESULTS = ("player_0", "player_1", "draw", "unfinished")


@dataclass(frozen=True)
class GameRecord:
    """One game: which game, who played, the moves and how it ended.

    Every field is checked when a record is made, and the moves are replayed through the
    rules: each must be legal, and the result must be what they give (a decided game whose
    final position is not won needs a ``reason``). A record that breaks this raises
    ``TypeError``/``ValueError`` naming the field, so a loaded record can be trusted.

    Attributes:
        game: The game and its parameters.
        moves: Actions in order (the env's action indices; Hex swap = ``rows * cols``).
        players: Names (agent specs) of player_0 and player_1. player_0 moves first (Black
            in Gomoku and Hex).
        result: ``"player_0"`` or ``"player_1"`` (the winner), ``"draw"`` or ``"unfinished"``.
        reason: How a decided game ended when it is not on the board: ``""`` (on the board),
            ``"resign"``, ``"forfeit"`` (an agent failed: see ``meta["error"]``) or
            ``"timeout"``.
        date: ISO 8601 time the game ended (UTC); at most 64 characters.
        meta: Anything else worth keeping (JSON data, nested at most 31 levels): seeds,
            errors, event.
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
        players = self.players
        if not (
            isinstance(players, tuple | list)
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            raise TypeError(f"players must be two strings, got {short_repr(players)}")
        if not isinstance(self.result, str) or self.result not in RESULTS:
            allowed = ", ".join(RESULTS)
            raise ValueError(f"result must be one of {allowed}, got {short_repr(self.result)}")
        check_reason(self.reason)
        check_date(self.date)
        if not isinstance(self.meta, dict):
            raise TypeError(f"meta must be a dict, got {short_repr(self.meta)}")
        check_json_value(self.meta, "meta", MAX_NESTING - 1)
        game = self.game.make_game()
        object.__setattr__(self, "moves", check_moves(self.moves, game.num_actions))
        object.__setattr__(self, "players", tuple(players))
        self._check_result(game.new_initial_state())

    def _check_result(self, state: GameState) -> None:
        """Replay the moves through the rules: each must be legal, and the result must be
        what they give (a win off the board needs a reason: resign, forfeit or timeout)."""
        for number, action in enumerate(self.moves, start=1):
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                raise ValueError(f"move {number}: {error}") from None
        on_board = result_of(state)
        moves = f"{len(self.moves)} move{'' if len(self.moves) == 1 else 's'}"
        if on_board != "unfinished":
            if self.result != on_board:
                raise ValueError(
                    f"result {self.result!r} contradicts the final position ({on_board})"
                )
            if self.reason:
                raise ValueError(
                    f"reason {self.reason!r} contradicts the final position: the game ended "
                    f"on the board ({on_board} after {moves})"
                )
        elif self.result in ("player_0", "player_1"):
            if not self.reason:
                raise ValueError(
                    f"result {self.result!r} is not what the moves give: after {moves} the "
                    "game is unfinished, and a win off the board needs a reason (resign, "
                    "forfeit or timeout)"
                )
        elif self.reason:
            raise ValueError(f"reason {self.reason!r} needs a winner, not result {self.result!r}")
        elif self.result == "draw":
            raise ValueError(
                f"result 'draw' is not what the moves give: after {moves} the game is unfinished"
            )

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
        """The initial position and the position after every move (``len(moves) + 1``)."""
        state = self.game.make_game().new_initial_state()
        states = [state.clone()]
        for action in self.moves:  # legal: checked when the record was made
            state.apply_action(action)
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
    """Inverse of :func:`record_to_json`, validated (moves replayed through the rules).

    Raises:
        ValueError: a missing or malformed key (named in the message), an illegal move, or
            a result the moves do not give.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        got = short_repr(data.get("format"))
        raise ValueError(f"{where}: key 'format' must be {FORMAT!r}, got {got}")
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # not True, not 1.0
        raise ValueError(f"{where}: key 'version' must be {VERSION}, got {short_repr(version)}")
    for key, kind in (("game", str), ("params", dict), ("players", list), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise ValueError(
                f"{where}: key {key!r} must be a {kind.__name__}, got {short_repr(data.get(key))}"
            )
    optional = {"result": (str, "unfinished"), "reason": (str, ""), "date": (str, "")}
    optional["meta"] = (dict, {})
    values = {}
    for key, (kind, default) in optional.items():
        values[key] = data.get(key, default)
        if not isinstance(values[key], kind):
            raise ValueError(
                f"{where}: key {key!r} must be a {kind.__name__}, got {short_repr(values[key])}"
            )
    moves = data["moves"]
    if not all(type(m) is int for m in moves):
        bad = next(m for m in moves if type(m) is not int)
        raise ValueError(f"{where}: key 'moves' must hold integer actions, got {short_repr(bad)}")
    try:
        return GameRecord(
            game=GameConfig(data["game"], data["params"]),
            moves=tuple(moves),
            players=tuple(data["players"]),
            **values,
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None


def json_text(data: dict[str, Any]) -> str:
    """JSON with one top-level key per line (moves stay on one line)."""
    body = ",\n".join(
        f" {json.dumps(key)}: {json.dumps(value, allow_nan=False)}" for key, value in data.items()
    )
    return "{\n" + body + "\n}\n"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
