"""The registry of games: every name the suite knows a game by, and what each name builds.

A plugin module (``connectn_env/games/<family>/``) exports ``GAME`` (its
:class:`~connectn_env.games.BoardGame` subclass) and ``PRESETS`` (named parameter sets such as
Connect Four); :func:`build_registry` turns a list of plugins into a :class:`GameRegistry`.
The PettingZoo modules and ids, the Gymnasium ids, the command line's game names and options,
game records and rendering all read it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from connectn_env.errors import ConnectnError
from connectn_env.games.game import BoardGame
from connectn_env.games.parameters import Parameter

NAMESPACE = "connectn_env"


class UnknownGameError(ValueError, KeyError, ConnectnError):
    """A game name the registry does not know (the message lists the known names)."""

    __str__ = ValueError.__str__


@dataclass(frozen=True)
class Preset:
    """A named parameter set of a game family, with its own ids (Connect Four, tic-tac-toe).

    Attributes:
        name: Registry name (``"connect_four"``).
        fixed: The parameters it fixes.
        gym_name: Name in its Gymnasium id (``"ConnectFour"``).
        summary: One line for tables and ``--help``.
    """

    name: str
    fixed: dict[str, Any]
    gym_name: str
    summary: str


@dataclass(frozen=True)
class GameEntry:
    """A name of the registry: a game family, or a preset of one.

    Attributes:
        name: The name (``"hex"``, ``"connect_four"``).
        game_class: The family's class.
        fixed: Parameters fixed by a preset (empty for the family itself).
        gym_name: Name in the Gymnasium id.
        summary: One line for tables and ``--help``.
    """

    name: str
    game_class: type[BoardGame]
    fixed: dict[str, Any] = field(default_factory=dict)
    gym_name: str = ""
    summary: str = ""

    @property
    def family(self) -> str:
        """Name of the game family (``"connect_n"`` for Connect Four)."""
        return self.game_class.name

    @property
    def is_preset(self) -> bool:
        """True for a preset (fixed parameters)."""
        return bool(self.fixed)

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        """The parameters a user may set (none for a preset)."""
        return () if self.fixed else self.game_class.PARAMETERS

    @property
    def env_module(self) -> str:
        """Name of the PettingZoo module (``"connect_n_v0"``; presets share their family's)."""
        return f"{self.family}_v0"

    @property
    def pettingzoo_id(self) -> str:
        """PettingZoo registry id (``"connectn_env/connect_four-v0"``)."""
        return f"{NAMESPACE}/{self.name}-v0"

    @property
    def gym_id(self) -> str:
        """Gymnasium registry id (``"connectn_env/ConnectFour-v0"``)."""
        return f"{NAMESPACE}/{self.gym_name}-v0"

    def make(self, **parameters: Any) -> BoardGame:
        """The game with these parameters (the rest take their defaults).

        Raises:
            ValueError: a preset's fixed parameter given another value, or a bad value.
            TypeError: an unknown parameter or a wrong type.
        """
        for key, value in parameters.items():
            if key in self.fixed and self.fixed[key] != value:
                raise ValueError(
                    f"{self.name} has fixed parameters {self.fixed}, got {key}={value!r}; "
                    f"use {self.family} for other boards"
                )
        return self.game_class(**{**parameters, **self.fixed})

    def matches(self, game: BoardGame) -> bool:
        """True if ``game`` is this entry's game (for a preset: with its parameters)."""
        if type(game) is not self.game_class:
            return False
        parameters = game.parameters
        return all(parameters.get(k) == v for k, v in self.fixed.items())


class GameRegistry(Mapping[str, GameEntry]):
    """The suite's games by name (presets before their family); unknown names raise
    :class:`UnknownGameError` listing the known ones."""

    def __init__(self, entries: list[GameEntry]) -> None:
        self._entries = {entry.name: entry for entry in entries}

    def __getitem__(self, name: str) -> GameEntry:
        entry = self._entries.get(name) if isinstance(name, str) else None
        if entry is None:
            known = ", ".join(self._entries)
            raise UnknownGameError(f"unknown game {name!r}; known games: {known}")
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def families(self) -> list[type[BoardGame]]:
        """The game classes, in registry order."""
        return [entry.game_class for entry in self.values() if not entry.is_preset]

    def entry_of(self, game: BoardGame) -> GameEntry:
        """The entry naming ``game``: its preset if its parameters are one, else its family.

        Raises:
            TypeError: ``game`` is not a registered game.
        """
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
        family = None
        for entry in self.values():
            if entry.matches(game):
                if entry.is_preset:
                    return entry
                family = entry
        if family is None:
            raise TypeError(f"{type(game).__name__} is not a registered game")
        return family

    def make(self, name: str, **parameters: Any) -> BoardGame:
        """The game ``name`` with these parameters (see :meth:`GameEntry.make`)."""
        return self[name].make(**parameters)


def build_registry(plugins: list[ModuleType]) -> GameRegistry:
    """The registry of the plugin modules, in order: each family's presets, then the family."""
    entries = []
    for plugin in plugins:
        game_class = plugin.GAME
        for preset in plugin.PRESETS:
            entries.append(
                GameEntry(
                    preset.name, game_class, dict(preset.fixed), preset.gym_name, preset.summary
                )
            )
        entries.append(
            GameEntry(game_class.name, game_class, {}, game_class.gym_name, game_class.summary)
        )
    return GameRegistry(entries)
