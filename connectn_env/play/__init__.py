"""``connectn play`` (a person against an agent, in a pygame window or a terminal) and the
viewer of ``connectn replay``.

The game logic (:class:`GameSession`) knows nothing of the user interfaces; the window
(:mod:`connectn_env.play.window`) imports pygame, the terminal
(:mod:`connectn_env.play.terminal`) does not.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from connectn_env.errors import ConnectnError
from connectn_env.play.session import GameSession
from connectn_env.play.ui import choose_ui
from connectn_env.safetext import printable

if TYPE_CHECKING:
    from connectn_env.play.levels import PlayLevels

HUMAN = "human"


class AgentBuildError(ValueError, ConnectnError):
    """The opponent's spec did not give an agent (its factory failed or returned no agent)."""


def run_play(args: argparse.Namespace) -> int:
    """``connectn play``: build the game and the opponent from ``args`` and play.

    ``args`` has ``game_config`` (a ``GameConfig``; if missing, it is built from ``game``
    and the game's options), ``opponent`` (an
    ``AgentSpec`` or a spec string; ``human``: two people share the board), optionally
    ``level`` (an int or None: a level of the game's ladder instead of ``opponent``),
    ``human_first``, ``seed``, ``ui`` (``"window"``, ``"terminal"`` or ``"auto"``) and
    ``record`` (a directory or None; created now). Returns the exit status: 2, with an
    ``error:`` line on stderr, if ``record`` cannot be a directory (before any game).

    Raises:
        ValueError: a bad game option, agent spec, level or ``ui``.
        NoDisplayError: ``ui`` is ``"window"`` and no window can be shown (before the agent
            is built).
        AgentBuildError: the opponent's spec did not give an agent.
    """
    from connectn_env.gameoptions import game_config_from_args
    from connectn_env.play.levels import PlayLevels
    from connectn_env.specs import AgentSpec, parse_agent_spec, resolve_agent

    problem = None if args.record is None else _record_directory_problem(Path(args.record))
    if problem is not None:
        print(printable(f"connectn play: error: {problem}"), file=sys.stderr, flush=True)
        return 2
    config = getattr(args, "game_config", None) or game_config_from_args(args)
    level = getattr(args, "level", None)
    levels = None if level is None else PlayLevels(config, level, seed=args.seed)
    spec = args.opponent if levels is None else levels.rung.spec
    if not isinstance(spec, AgentSpec):
        spec = parse_agent_spec(spec)
    ui, note = choose_ui(args.ui)
    try:
        agent = resolve_agent(spec, config, seed=args.seed)
    except Exception as error:
        raise AgentBuildError(
            f"the opponent {spec} cannot be built: {type(error).__name__}: {error}"
        ) from error
    recorder = None if args.record is None else _recorder(args.record, str(spec), args.seed, levels)
    session = GameSession(
        config.make_env(), agent, human_player=0 if args.human_first else 1, on_game_over=recorder
    )
    if note is not None:
        print(note, flush=True)
    if ui == "window":
        from connectn_env.play.window import run_window

        against = spec if levels is None else f"levels 1 to {len(levels.rungs)}"
        title = f"connectn play: {session.game.title} against {against}"
        return run_window(session, title=title, opponent=str(spec), levels=levels)
    from connectn_env.play.terminal import run_terminal

    return run_terminal(session, opponent=str(spec), levels=levels)


def run_replay(record: Any, args: argparse.Namespace) -> int:
    """``connectn replay``: show ``record`` (a ``GameRecord``) in the UI ``args.ui`` asks for
    (``"auto"``: a window if a display is available). Returns the exit status."""
    from connectn_env.play.replay import check_record, replay_terminal

    check_record(record)
    ui, note = choose_ui(args.ui)
    if note is not None:
        print(note, flush=True)
    if ui == "window":
        from connectn_env.play.replay_window import replay_window

        return replay_window(record)
    return replay_terminal(record)


def _record_directory_problem(directory: Path) -> str | None:
    """Why ``--record directory`` cannot hold records, or None: it is a directory then
    (created now: root passes the permission checks even where nothing can be made)."""
    from connectn_env.arena.outputs import check_output_directory
    from connectn_env.arena.results import ArenaError

    try:
        check_output_directory(directory, "--record")
        directory.mkdir(parents=True, exist_ok=True)
    except ArenaError as error:
        return str(error)
    except OSError as error:
        return f"--record {directory}: {error.strerror or error}"
    return None


def _recorder(
    directory: str | Path, opponent: str, seed: int | None, levels: PlayLevels | None = None
) -> Callable[[GameSession], None]:
    """Saves each finished game of a session into ``directory`` (JSON; SGF too for Gomoku
    and Hex) and says where (or why it could not: the session goes on); with ``levels``
    (``PlayLevels``), the level played then."""
    from connectn_env.records import GameRecord, save_record

    def save(session: GameSession) -> None:
        players = [HUMAN, HUMAN]
        meta = {"seed": seed, "program": "connectn play"}
        name = opponent
        if levels is not None:
            name = levels.rung.spec
            meta.update(level=levels.level, ladder=levels.key)
        if session.agent is not None:
            players[session.ai_player] = name
        record = GameRecord.from_state(session.state, players=tuple(players), meta=meta)
        try:
            paths = save_record(record, directory)
        except OSError as error:  # e.g. made read-only, or replaced by a file, since the start
            message = f"Game not saved: {directory}: {error.strerror or error}"
        else:
            message = f"Game saved: {', '.join(str(p) for p in paths)}"
        print(printable(message), file=sys.stderr, flush=True)

    return save
