"""The games that have a ladder, each by a short key: a registry game and its parameters."""

from __future__ import annotations

from typing import Any

from connectn_env.games import BoardGame
from connectn_env.games.config import GameConfig

LADDER_GAMES: dict[str, GameConfig] = {
    "connect_four": GameConfig("connect_four"),
    "gomoku_15x15": GameConfig("gomoku", {"rows": 15, "cols": 15, "rule": "freestyle"}),
    "hex_11x11": GameConfig("hex", {"rows": 11, "cols": 11, "swap": False}),
    "othello_8x8": GameConfig("othello", {"size": 8}),
    "hex_7x7": GameConfig("hex", {"rows": 7, "cols": 7, "swap": False}),
    "connect_n_6x6": GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False}),
}


def _described() -> str:
    return "; ".join(f"{key} ({config})" for key, config in LADDER_GAMES.items())


def ladder_key(game: Any) -> str:
    """The ladder key of ``game``: a key of :data:`LADDER_GAMES`, a registry name whose
    default parameters are a ladder game (``"connect_four"``, ``"gomoku"``), a
    :class:`GameConfig` or a :class:`BoardGame`.

    Raises:
        TypeError: ``game`` is none of these.
        ValueError: the game (or board size) has no ladder; the message lists those that do.
    """
    if isinstance(game, str):
        if game in LADDER_GAMES:
            return game
        try:
            config = GameConfig(game)
        except (KeyError, ValueError):
            raise ValueError(
                f"unknown game {game[:100]!r}; the games with a ladder: {_described()}"
            ) from None
    elif isinstance(game, BoardGame):
        config = GameConfig.from_game(game)
    elif isinstance(game, GameConfig):
        config = GameConfig.from_game(game.make_game())  # connect_n 6x7 is connect_four
    else:
        raise TypeError(
            f"game must be a ladder key, a game name, a GameConfig or a BoardGame, got "
            f"{type(game).__name__}"
        )
    for key, ladder_config in LADDER_GAMES.items():
        if ladder_config == config:
            return key
    raise ValueError(f"{config} has no ladder; the games with a ladder: {_described()}")


def ladder_game(key: str) -> GameConfig:
    """The game of ladder ``key`` (see :func:`ladder_key` for what it accepts)."""
    return LADDER_GAMES[ladder_key(key)]


def command_game(key: str) -> str:
    """GAME and the options that differ from its defaults on the command line, for ladder
    ``key``: ``"connect_n --rows 6 --cols 6 --no-gravity"`` for ``connect_n_6x6``."""
    config = LADDER_GAMES[key]
    defaults = GameConfig(config.name).params
    words = [config.name]
    for name, value in config.params.items():
        if value == defaults[name]:
            continue
        if isinstance(value, bool):
            words.append(f"--{name}" if value else f"--no-{name}")
        else:
            words += [f"--{name}", str(value)]
    return " ".join(words)
