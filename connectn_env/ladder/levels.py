"""Difficulty levels for players, read from a game's shipped ladder: level 1 is the weakest
rung (the one a beginner beats), the highest level the strongest rung, by fitted rating.
"Level 5" of a game is then the same agent everywhere that uses this module."""

from __future__ import annotations

from typing import Any

from connectn_env.ladder.ladderfile import LadderRung, shipped_ladder

__all__ = ["level_rung", "level_spec", "levels"]


def levels(game: Any) -> list[LadderRung]:
    """The rungs of ``game``'s shipped ladder as levels: ``levels(game)[0]`` is level 1.

    Raises:
        ValueError: an unknown game, or a game without a shipped ladder.
    """
    return shipped_ladder(game).by_rating()


def level_rung(game: Any, level: int) -> LadderRung:
    """The rung of ``level`` (1 = weakest) on ``game``'s shipped ladder, with its rating.

    Raises:
        TypeError: ``level`` is not an int.
        ValueError: an unknown game, a game without a ladder, or a level out of range
            (the message gives the range).
    """
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(f"level must be an int, got {level!r} of type {type(level).__name__}")
    rungs = levels(game)
    if not 1 <= level <= len(rungs):
        raise ValueError(f"level must be from 1 to {len(rungs)} for {game!r}, got {level}")
    return rungs[level - 1]


def level_spec(game: Any, level: int) -> str:
    """The agent spec of ``level`` on ``game``'s ladder (see :func:`level_rung`), for
    ``AgentSpec``/``parse_agent_spec`` and ``--opponent``."""
    return level_rung(game, level).spec
