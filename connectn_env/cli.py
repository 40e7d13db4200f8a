"""The ``connectn`` command: play against the AI, run tournaments, replay games, benchmark.

Subcommands::

    connectn play GAME [game options] [--opponent SPEC] [--human-first | --ai-first]
                  [--seed N] [--ui window|terminal|auto] [--record DIR]
    connectn arena GAME SPEC SPEC [SPEC ...] [game options] [--games N] [--workers K]
                   [--seed N] [--move-timeout S] [--out FILE.jsonl] [--json FILE]
                   [--record DIR] [--no-progress]
    connectn replay FILE [--ui window|terminal|auto]
    connectn bench [--full]
    connectn demo GAME [game options] [--seed N]

GAME is connect_four, tictactoe, connect_n, gomoku or hex; game options are ``--rows
--cols --n --gravity/--no-gravity`` (connect_n), ``--size --rows --cols --rule``
(gomoku), ``--size --rows --cols --swap`` (hex).

What ``connectn_env.play.run_play(args)`` receives (an ``argparse.Namespace``):

- ``args.game_config``: :class:`connectn_env.records.GameConfig` (validated;
  ``.make_env(render_mode)``, ``.make_game()``); the raw options ``game, rows, cols, n,
  gravity, size, rule, swap`` are there too.
- ``args.opponent``: :class:`connectn_env.specs.AgentSpec` (parsed and validated, default
  ``mcts:time=1.0``; ``human`` means two people share the board). ``.build(seed)``.
- ``args.human_first``: bool (default True; ``--ai-first`` sets False).
- ``args.seed``: int or None.
- ``args.ui``: ``"window"``, ``"terminal"`` or ``"auto"`` (default).
- ``args.record``: ``pathlib.Path`` or None (save finished games with
  ``connectn_env.records.save_record``).

``connectn_env.play.run_replay(record, args)`` receives the loaded
:class:`connectn_env.records.GameRecord` and a namespace with ``args.file`` (Path) and
``args.ui``. Both return the process exit code.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from connectn_env.arena.tournament import MAX_MOVE_TIMEOUT, MAX_WORKERS
from connectn_env.envs.base import BoardGameEnv
from connectn_env.records.gameconfig import GAME_NAMES, GameConfig
from connectn_env.safetext import printable
from connectn_env.specs import AgentSpec, parse_agent_spec

__all__ = ["DEFAULT_OPPONENT", "game_config_from_args", "main", "make_raw_env"]

DEFAULT_OPPONENT = "mcts:time=1.0"
UIS = ("window", "terminal", "auto")
_OPTION_GAMES = {
    "rows": ("connect_n", "gomoku", "hex"),
    "cols": ("connect_n", "gomoku", "hex"),
    "n": ("connect_n",),
    "gravity": ("connect_n",),
    "size": ("gomoku", "hex"),
    "rule": ("gomoku",),
    "swap": ("hex",),
}


def game_config_from_args(args: argparse.Namespace) -> GameConfig:
    """The game that GAME and the game options describe.

    Raises:
        ValueError: an option that the game does not take, or a bad value.
    """
    for option, games in _OPTION_GAMES.items():
        if getattr(args, option) is not None and args.game not in games:
            raise ValueError(f"--{option} does not apply to {args.game} (only {', '.join(games)})")
    given = {option: getattr(args, option) for option in _OPTION_GAMES}
    # Options left out take the game class's defaults.
    return GameConfig(args.game, {k: v for k, v in given.items() if v is not None})


def make_raw_env(args: argparse.Namespace, render_mode: str | None = None) -> BoardGameEnv:
    """The raw AEC env that the command-line options describe."""
    return game_config_from_args(args).make_env(render_mode)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """GAME and its parameters (None = the game's default)."""
    parser.add_argument("game", choices=GAME_NAMES, help="which game")
    group = parser.add_argument_group("game options")
    group.add_argument("--rows", type=int, help="board height (connect_n 6, gomoku/hex --size)")
    group.add_argument("--cols", type=int, help="board width (connect_n 7, gomoku/hex --size)")
    group.add_argument("--n", type=int, help="connect_n: stones in a row to win (4)")
    group.add_argument(
        "--gravity", action=argparse.BooleanOptionalAction, help="connect_n: stones drop (yes)"
    )
    group.add_argument("--size", type=int, help="gomoku / hex: board side (15 / 11)")
    group.add_argument("--rule", choices=("freestyle", "standard"), help="gomoku rule")
    group.add_argument("--swap", action="store_true", default=None, help="hex: swap (pie) rule")


def _spec(allow_human: bool):
    def parse(text: str) -> AgentSpec:
        try:
            return parse_agent_spec(text, allow_human=allow_human)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.__name__ = "agent spec"
    return parse


def _int_at_least(low: int, high: int | None = None):
    """An argparse type: an integer (ASCII digits) from ``low`` to ``high``."""

    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", text.strip()):
            raise argparse.ArgumentTypeError(f"expected an integer, got {text[:40]!r}")
        value = int(text)
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0, at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {text[:40]!r}"
        ) from None
    if not (math.isfinite(value) and 0 < value <= MAX_MOVE_TIMEOUT):
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds greater than 0 and at most "
            f"{MAX_MOVE_TIMEOUT:g}, got {text[:40]}"
        )
    return value


_positive_int = _int_at_least(1)
_seed = _int_at_least(0)
SPEC_HELP = (
    "Agent specs: random, mcts[:simulations=800,c=1.4,time=0.5,rave=true,...], "
    "puct[:simulations=400,...], module:callable[:key=value,...]. A spec runs code: "
    "module:callable imports that module and calls that callable, whatever it is, so use "
    "only specs you would run as commands."
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="connectn", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser(
        "play", help="play against the AI (window or terminal)", epilog=SPEC_HELP
    )
    add_game_options(play)
    play.add_argument(
        "--opponent",
        type=_spec(allow_human=True),
        default=parse_agent_spec(DEFAULT_OPPONENT),
        metavar="SPEC",
        help=f"the AI (agent spec, default {DEFAULT_OPPONENT})",
    )
    order = play.add_mutually_exclusive_group()
    order.add_argument("--human-first", dest="human_first", action="store_true", default=True)
    order.add_argument("--ai-first", dest="human_first", action="store_false")
    play.add_argument("--seed", type=_seed, default=None, help="seed of the AI (>= 0)")
    play.add_argument("--ui", choices=UIS, default="auto", help="window, terminal or auto")
    play.add_argument("--record", type=Path, metavar="DIR", help="save finished games here")

    arena = commands.add_parser(
        "arena",
        help="round-robin tournament between agents",
        description="Round robin: every pair of agents plays --games games, colours alternating.",
        epilog=SPEC_HELP,
    )
    add_game_options(arena)
    arena.add_argument("agents", nargs="+", type=_spec(allow_human=False), metavar="SPEC")
    arena.add_argument("--games", type=_positive_int, default=10, help="games per pairing (10)")
    arena.add_argument(
        "--workers", type=_int_at_least(1, MAX_WORKERS), default=None,
        help=f"processes, 1 to {MAX_WORKERS} (all cores)",
    )  # fmt: skip
    arena.add_argument("--seed", type=_seed, default=0, help="base seed of every game (0)")
    arena.add_argument(
        "--move-timeout", type=_seconds, default=None, metavar="SECONDS",
        help="an agent whose move takes longer loses the game",
    )  # fmt: skip
    arena.add_argument("--out", type=Path, metavar="FILE", help="append games here (JSON lines)")
    arena.add_argument("--json", type=Path, metavar="FILE", help="write the tables as JSON")
    arena.add_argument("--record", type=Path, metavar="DIR", help="save every game here")
    arena.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    replay = commands.add_parser("replay", help="step through a saved game (.json or .sgf)")
    replay.add_argument("file", type=Path, help="a game record")
    replay.add_argument("--ui", choices=UIS, default="auto", help="window, terminal or auto")

    bench = commands.add_parser("bench", help="environment and MCTS speed against references")
    bench.add_argument("--full", action="store_true", help="more runs and simulations")

    demo = commands.add_parser("demo", help="a random-vs-random game as text")
    add_game_options(demo)
    demo.add_argument("--seed", type=_seed, default=0)
    return parser


def demo(args: argparse.Namespace) -> int:
    """Play one random-vs-random game and print every position."""
    env = make_raw_env(args, render_mode="ansi")
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)
    print(env.render())
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        print(f"\n{agent} plays {action}\n{env.render()}")
    env.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``connectn`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "replay":
            from connectn_env.play import run_replay
            from connectn_env.records import load_record

            try:
                record = load_record(args.file)
            except (ValueError, OSError) as error:
                parser.exit(2, printable(f"connectn replay: error: {error}\n", newlines=True))
            return run_replay(record, args)
        if args.command == "bench":
            from connectn_env.bench import run_bench

            return run_bench(full=args.full)
        try:
            args.game_config = game_config_from_args(args)
        except ValueError as error:
            parser.exit(2, f"connectn {args.command}: error: {error}\n")
        if args.command == "play":
            from connectn_env.play import AgentBuildError, run_play

            try:
                return run_play(args)
            except AgentBuildError as error:
                parser.exit(2, printable(f"connectn play: error: {error}\n", newlines=True))
        if args.command == "arena":
            from connectn_env.arena import ArenaError, run_arena_command

            try:
                return run_arena_command(args)
            except (ArenaError, OSError) as error:
                parser.exit(2, printable(f"connectn arena: error: {error}\n", newlines=True))
        return demo(args)
    except KeyboardInterrupt:
        parser.exit(130, "\ninterrupted\n")
    except SystemExit as stop:  # SIGTERM or SIGHUP during connectn arena
        if isinstance(stop.code, int) and stop.code > 128:
            parser.exit(stop.code, "\nterminated\n")
        raise
    return 2


if __name__ == "__main__":
    sys.exit(main())
