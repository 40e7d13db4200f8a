"""The ``connectn`` command: play against the AI, run tournaments, replay games, benchmark.

Subcommands::

    connectn play GAME [game options] [--opponent SPEC] [--human-first | --ai-first]
                  [--seed N] [--ui window|terminal|auto] [--record DIR]
    connectn arena GAME [game options] SPEC SPEC [SPEC ...] [--games N] [--workers K]
                   [--seed N] [--move-timeout S] [--out FILE.jsonl] [--json FILE]
                   [--record DIR] [--no-progress]
    connectn replay FILE [--ui window|terminal|auto]
    connectn bench [--full]
    connectn demo GAME [game options] [--seed N]

GAME is a name of the game registry (``connectn play --help`` lists them); its options are
the game's parameters (``connectn play hex --help``).

What ``connectn_env.play.run_play(args)`` receives (an ``argparse.Namespace``):

- ``args.game_config``: :class:`connectn_env.records.GameConfig` (validated;
  ``.make_env(render_mode)``, ``.make_game()``); ``args.game`` and the raw game options
  are there too.
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
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from connectn_env.envs.base import BoardGameEnv
from connectn_env.gameoptions import add_game_parsers, game_config_from_args
from connectn_env.specs import AgentSpec, parse_agent_spec

__all__ = ["DEFAULT_OPPONENT", "game_config_from_args", "main", "make_raw_env"]

DEFAULT_OPPONENT = "mcts:time=1.0"
UIS = ("window", "terminal", "auto")


def make_raw_env(args: argparse.Namespace, render_mode: str | None = None) -> BoardGameEnv:
    """The raw AEC env that the command-line options describe."""
    return game_config_from_args(args).make_env(render_mode)


def _spec(allow_human: bool):
    def parse(text: str) -> AgentSpec:
        try:
            return parse_agent_spec(text, allow_human=allow_human)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.__name__ = "agent spec"
    return parse


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="connectn", description=__doc__.splitlines()[0], allow_abbrev=False
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser(
        "play", help="play against the AI (window or terminal)", allow_abbrev=False
    )

    def play_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--opponent",
            type=_spec(allow_human=True),
            default=parse_agent_spec(DEFAULT_OPPONENT),
            metavar="SPEC",
            help=f"the AI (agent spec, default {DEFAULT_OPPONENT})",
        )
        order = sub.add_mutually_exclusive_group()
        order.add_argument("--human-first", dest="human_first", action="store_true", default=True)
        order.add_argument("--ai-first", dest="human_first", action="store_false")
        sub.add_argument("--seed", type=int, default=None, help="seed of the AI")
        sub.add_argument("--ui", choices=UIS, default="auto", help="window, terminal or auto")
        sub.add_argument("--record", type=Path, metavar="DIR", help="save finished games here")

    add_game_parsers(play, play_options)

    arena = commands.add_parser(
        "arena",
        allow_abbrev=False,
        help="round-robin tournament between agents",
        description="Round robin: every pair of agents plays --games games, colours alternating.",
    )

    def arena_options(sub: argparse.ArgumentParser) -> None:
        sub.epilog = (
            "Agent specs: random, mcts[:simulations=800,c=1.4,time=0.5,rave=true,...], "
            "puct[:simulations=400,...], module:callable[:key=value,...]."
        )
        sub.add_argument("agents", nargs="+", type=_spec(allow_human=False), metavar="SPEC")
        sub.add_argument("--games", type=_positive_int, default=10, help="games per pairing (10)")
        sub.add_argument(
            "--workers", type=_positive_int, default=None, help="processes (all cores)"
        )
        sub.add_argument("--seed", type=int, default=0, help="base seed of every game (0)")
        sub.add_argument(
            "--move-timeout",
            type=_positive_float,
            default=None,
            metavar="SECONDS",
            help="an agent whose move takes longer loses the game",
        )
        sub.add_argument("--out", type=Path, metavar="FILE", help="append games here (JSON lines)")
        sub.add_argument("--json", type=Path, metavar="FILE", help="write the tables as JSON")
        sub.add_argument("--record", type=Path, metavar="DIR", help="save every game here")
        sub.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    add_game_parsers(arena, arena_options)

    replay = commands.add_parser(
        "replay", help="step through a saved game (.json or .sgf)", allow_abbrev=False
    )
    replay.add_argument("file", type=Path, help="a game record")
    replay.add_argument("--ui", choices=UIS, default="auto", help="window, terminal or auto")

    bench = commands.add_parser(
        "bench", help="environment and MCTS speed against references", allow_abbrev=False
    )
    bench.add_argument("--full", action="store_true", help="more runs and simulations")

    demo = commands.add_parser("demo", help="a random-vs-random game as text", allow_abbrev=False)
    add_game_parsers(demo, lambda sub: sub.add_argument("--seed", type=int, default=0))
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
                parser.exit(2, f"connectn replay: error: {error}\n")
            return run_replay(record, args)
        if args.command == "bench":
            from connectn_env.bench import run_bench

            return run_bench(full=args.full)
        try:
            args.game_config = game_config_from_args(args)
        except ValueError as error:
            parser.exit(2, f"connectn {args.command}: error: {error}\n")
        if args.command == "play":
            from connectn_env.play import run_play

            return run_play(args)
        if args.command == "arena":
            from connectn_env.arena import ArenaError, run_arena_command

            try:
                return run_arena_command(args)
            except (ArenaError, OSError) as error:
                parser.exit(2, f"connectn arena: error: {error}\n")
        return demo(args)
    except KeyboardInterrupt:
        parser.exit(130, "\ninterrupted\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
