"""The game config of records, tournaments and the command line: :class:`GameConfig`, defined
with the games (:mod:`connectn_env.games.config`, below the agents, which read it too) and
re-exported here."""

from connectn_env.games.config import GAME_NAMES, GameConfig

__all__ = ["GAME_NAMES", "GameConfig"]
