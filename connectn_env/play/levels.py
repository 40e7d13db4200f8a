"""``connectn play --level N``: the opponent as a level of the game's ladder
(:mod:`connectn_env.ladder.levels`), changed between games in the window (+ and -) and the
terminal (``level N``)."""

from __future__ import annotations

from typing import Any

from connectn_env.ladder.ladderfile import LadderRung
from connectn_env.ladder.levels import level_spec, levels, levels_key
from connectn_env.play.session import GameSession
from connectn_env.specs import parse_agent_spec, resolve_agent


class PlayLevels:
    """The levels of a game and the one played.

    A level asked for while a game is under way (some move played, the game not over) waits
    for the next game (:meth:`new_game`); otherwise it replaces the session's agent at once.

    Args:
        game: The game (a ``GameConfig``, a ``BoardGame``, a ladder key...).
        level: The level to start at (1 = the weakest rung).
        seed: The seed the level's agent is built with.

    Attributes:
        key: The game's ladder key.
        rungs: The levels' rungs, weakest first.
        level: The level played now.
        pending: The level of the next game, or None.

    Raises:
        TypeError, ValueError: a game without levels, a level out of range or one this
            installation cannot play (the message names the games with levels, the range, or
            what to install).
    """

    def __init__(self, game: Any, level: int, *, seed: int | None = None) -> None:
        level_spec(game, level)
        self.key = levels_key(game)
        self.rungs = levels(self.key)
        self.level = level
        self.pending: int | None = None
        self.seed = seed
        self.game = game

    @property
    def rung(self) -> LadderRung:
        """The rung of the level played now."""
        return self.rungs[self.level - 1]

    def name(self, level: int | None = None) -> str:
        """``"level 3: uct-100, Elo +634"`` (default: the level played now)."""
        level = self.level if level is None else level
        rung = self.rungs[level - 1]
        return f"level {level}: {rung.label}, Elo {rung.rating:+.0f}"

    def describe(self) -> str:
        """The level played, the range and the next game's level, in one line."""
        text = f"Playing {self.name()} (levels 1 to {len(self.rungs)}, {self.key} ladder)"
        if self.pending is not None:
            text += f"; next game: {self.name(self.pending)}"
        return text + "."

    def build(self, level: int | None = None) -> Any:
        """A new agent of ``level`` (default: the level played now).

        Raises:
            ValueError: its spec did not give an agent (the message names the level).
        """
        level = self.level if level is None else level
        spec = self.rungs[level - 1].spec
        try:
            return resolve_agent(
                parse_agent_spec(spec, allow_human=False), self.game, seed=self.seed
            )
        except Exception as error:
            raise ValueError(
                f"level {level} ({spec}) cannot be built: {type(error).__name__}: {error}"
            ) from error

    def choose(self, level: int, session: GameSession) -> str:
        """Ask for ``level``: at once between games, else from the next game. Returns what
        happened, to show the player.

        Raises:
            TypeError, ValueError: ``level`` is not a level of the game, or one this
                installation cannot play (nothing changes).
        """
        level_spec(self.key, level)
        if session.moves and not session.over:
            self.pending = None if level == self.level else level
            if self.pending is None:
                return f"Staying at {self.name()}."
            return f"From the next game: {self.name(level)}."
        self._play(level, session)
        return f"Now {self.name()}."

    def step(self, change: int, session: GameSession) -> str:
        """Ask for the level ``change`` above (or below) the one asked for last; at the
        ends, says so."""
        target = (self.pending or self.level) + change
        if not 1 <= target <= len(self.rungs):
            end = "highest" if change > 0 else "lowest"
            return f"Level {target - change} is the {end}."
        return self.choose(target, session)

    def new_game(self, session: GameSession) -> str:
        """Start playing the level asked for during the last game, if any; returns what
        changed ("" if nothing)."""
        if self.pending is None:
            return ""
        self._play(self.pending, session)
        return f"Now {self.name()}."

    def _play(self, level: int, session: GameSession) -> None:
        session.replace_agent(self.build(level))
        self.level, self.pending = level, None
