"""Difficulty levels for players, read from a game's shipped ladder: level 1 is the weakest
rung (the one a beginner beats), the highest level the strongest rung, by fitted rating, and
each level at least 100 Elo above the one below (:meth:`Ladder.levels`), so that every level
is harder than the last (taken from the strongest rung down: a rung within 100 Elo of the
level above it is a rung, not a level).
"Level 5" of a game is then the same agent everywhere that uses this module: ``connectn play
--level``, ``connectn gtp`` and ``connectn pbrain``, Python.

A rung this installation cannot play (``az`` without torch) stays a level, so that the
numbers do not move: asking for it says what to install."""

from __future__ import annotations

from typing import Any

from connectn_env.ladder.games import command_game, ladder_key
from connectn_env.ladder.ladderfile import LadderRung, shipped_keys, shipped_ladder


def levels(game: Any) -> list[LadderRung]:
    """The rungs of ``game``'s shipped ladder that are levels (see the module docstring):
    ``levels(game)[0]`` is level 1.

    Raises:
        TypeError: ``game`` is not a game (see ``ladder_key``).
        ValueError: an unknown game, or a game without a shipped ladder (the message names
            the games that have one).
    """
    return shipped_ladder(levels_key(game)).levels()


def levels_key(game: Any) -> str:
    """The ladder key of ``game`` if its ladder ships (and with it, levels).

    Raises:
        TypeError: ``game`` is not a game (see ``ladder_key``).
        ValueError: no shipped ladder for ``game``; the message names the games with one.
    """
    try:
        key = ladder_key(game)
    except ValueError:
        key = None
    shipped = shipped_keys()
    if key in shipped:
        return key
    what = key or (repr(game[:100]) if isinstance(game, str) else str(game))
    with_levels = "; ".join(f"{k} (connectn play {command_game(k)})" for k in shipped)
    raise ValueError(
        f"no levels for {what}: levels come from a game's shipped ladder, and the games with "
        f"one are: {with_levels or 'none yet'}"
    )


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
        raise ValueError(
            f"level must be from 1 to {len(rungs)} for {levels_key(game)}, got {level}"
        )
    return rungs[level - 1]


def level_spec(game: Any, level: int) -> str:
    """The agent spec of ``level`` on ``game``'s ladder (see :func:`level_rung`), for
    ``AgentSpec``/``parse_agent_spec`` and ``--opponent``.

    Raises:
        TypeError, ValueError: as :func:`level_rung`; also a level this installation cannot
            play (the message says what to install).
    """
    rung = level_rung(game, level)
    if rung.missing:
        raise ValueError(f"level {level} ({rung.label}) cannot play here: {rung.missing}")
    return rung.spec
