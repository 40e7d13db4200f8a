"""A game by name and parameters: what a record, a tournament and the command line share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from connectn_env.games import GAME_CLASSES, BoardGame, ConnectNGame
from connectn_env.games.validation import require_choice
from connectn_env.registration import CONNECT_FOUR, TICTACTOE

__all__ = ["GAME_NAMES", "GameConfig"]

GAME_NAMES = ("connect_four", "tictactoe", "connect_n", "gomoku", "hex")
_PRESETS = {"connect_four": CONNECT_FOUR, "tictactoe": TICTACTOE}
_CLASSES: dict[str, type[BoardGame]] = {
    **GAME_CLASSES,
    **dict.fromkeys(_PRESETS, ConnectNGame),
}


@dataclass(frozen=True)
class GameConfig:
    """A game of the suite: a name from :data:`GAME_NAMES` and its constructor parameters.

    ``params`` always holds every parameter (``BoardGame.parameters``), so two configs of the
    same game compare equal however they were written. Building validates them.

    Attributes:
        name: ``"connect_four"``, ``"tictactoe"``, ``"connect_n"``, ``"gomoku"`` or ``"hex"``.
        params: Keyword arguments of the game class (for example rows, cols, n, gravity).
    """

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_choice("game", self.name, GAME_NAMES)
        if not isinstance(self.params, dict):
            raise TypeError(f"params must be a dict, got {self.params!r}")
        preset = _PRESETS.get(self.name)
        if preset is not None and {**preset, **self.params} != preset:
            raise ValueError(
                f"{self.name} has fixed parameters {preset}, got {self.params}; "
                "use connect_n for other boards"
            )
        try:
            game = _CLASSES[self.name](**{**(preset or {}), **self.params})
        except TypeError as error:
            raise ValueError(f"bad parameters for {self.name}: {self.params} ({error})") from None
        object.__setattr__(self, "params", dict(game.parameters))

    @classmethod
    def from_game(cls, game: BoardGame) -> GameConfig:
        """The config of a game object (Connect Four and tic-tac-toe get their own names)."""
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {game!r}")
        params = dict(game.parameters)
        for name, preset in _PRESETS.items():
            if isinstance(game, ConnectNGame) and params == preset:
                return cls(name, params)
        return cls(game.name, params)

    def make_game(self) -> BoardGame:
        """A new game object."""
        return _CLASSES[self.name](**self.params)

    def make_env(self, render_mode: str | None = None) -> Any:
        """A raw AEC env of this game (illegal actions raise)."""
        from connectn_env import connect_n_v0, gomoku_v0, hex_v0

        module = {"gomoku": gomoku_v0, "hex": hex_v0}.get(self.name, connect_n_v0)
        return module.raw_env(**self.params, render_mode=render_mode)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.params.items()))))

    def __str__(self) -> str:
        if self.name in _PRESETS:
            return self.name
        args = ",".join(f"{k}={_text(v)}" for k, v in self.params.items())
        return f"{self.name}({args})"


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
