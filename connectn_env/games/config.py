"""A game by name and parameters: what a record, a tournament, the command line and a training
run share.

It lives with the games (below the envs and the agents) so that every layer can name a game;
it imports no env code: :meth:`GameConfig.make_env` opens the game's PettingZoo module by the
name the registry gives it (``GameEntry.env_module``), as the PettingZoo and Gymnasium ids do.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from connectn_env.games import REGISTRY, BoardGame

GAME_NAMES = tuple(REGISTRY)


@dataclass(frozen=True)
class GameConfig:
    """A game of the suite: a registry name (:data:`GAME_NAMES`) and its parameters.

    ``params`` always holds every parameter (``BoardGame.parameters``), so two configs of the
    same game compare equal however they were written. Building validates them.

    Attributes:
        name: A name of ``connectn_env.games.REGISTRY``: ``"connect_four"``, ``"hex"``...
        params: Keyword arguments of the game class (for example rows, cols, n, gravity).
    """

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        entry = REGISTRY[self.name]  # an unknown name lists the known ones
        if not isinstance(self.params, dict):
            raise TypeError(f"params must be a dict, got {self.params!r}")
        try:
            game = entry.make(**self.params)
        except TypeError as error:
            raise ValueError(f"bad parameters for {self.name}: {self.params} ({error})") from None
        object.__setattr__(self, "params", dict(game.parameters))

    @classmethod
    def from_game(cls, game: BoardGame) -> GameConfig:
        """The config of a game object (a preset's parameters get the preset's name)."""
        return cls(REGISTRY.entry_of(game).name, dict(game.parameters))

    def make_game(self) -> BoardGame:
        """A new game object."""
        return REGISTRY[self.name].make(**self.params)

    def make_env(self, render_mode: str | None = None) -> Any:
        """A raw AEC env of this game (illegal actions raise): its PettingZoo module's
        ``raw_env`` (``connectn_env.<family>_v0``, made when the package is imported)."""
        module = importlib.import_module(f"connectn_env.{REGISTRY[self.name].env_module}")
        return module.raw_env(**self.params, render_mode=render_mode)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.params.items()))))

    def __str__(self) -> str:
        if REGISTRY[self.name].is_preset:
            return self.name
        args = ",".join(f"{k}={_text(v)}" for k, v in self.params.items())
        return f"{self.name}({args})"


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
