"""The ``connectn`` command.

``connectn demo GAME``: a random-vs-random game printed as text (works headless).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from connectn_env.envs.base import BoardGameEnv

GAMES = ("connect_four", "tictactoe", "connect_n", "gomoku", "hex")


def make_raw_env(args: argparse.Namespace, render_mode: str | None = None) -> BoardGameEnv:
    """Build the raw AEC env that the command-line options describe."""
    from connectn_env import connect_n_v0, gomoku_v0, hex_v0
    from connectn_env.registration import CONNECT_FOUR, TICTACTOE

    if args.game == "connect_four":
        return connect_n_v0.raw_env(**CONNECT_FOUR, render_mode=render_mode)
    if args.game == "tictactoe":
        return connect_n_v0.raw_env(**TICTACTOE, render_mode=render_mode)
    if args.game == "connect_n":
        return connect_n_v0.raw_env(
            rows=args.rows, cols=args.cols, n=args.n, gravity=args.gravity, render_mode=render_mode
        )
    if args.game == "gomoku":
        return gomoku_v0.raw_env(
            size=15 if args.size is None else args.size, rule=args.rule, render_mode=render_mode
        )
    return hex_v0.raw_env(
        size=11 if args.size is None else args.size, swap=args.swap, render_mode=render_mode
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """GAME and its parameters."""
    parser.add_argument("game", choices=GAMES, help="which game")
    parser.add_argument("--rows", type=int, default=6, help="connect_n: board height")
    parser.add_argument("--cols", type=int, default=7, help="connect_n: board width")
    parser.add_argument("--n", type=int, default=4, help="connect_n: stones in a row to win")
    parser.add_argument(
        "--gravity", action=argparse.BooleanOptionalAction, default=True, help="connect_n"
    )
    parser.add_argument("--size", type=int, default=None, help="gomoku / hex: board side")
    parser.add_argument("--rule", default="freestyle", help="gomoku: freestyle or standard")
    parser.add_argument("--swap", action="store_true", help="hex: enable the swap rule")


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
    parser = argparse.ArgumentParser(prog="connectn", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    demo_parser = commands.add_parser("demo", help="a random-vs-random game as text")
    add_game_options(demo_parser)
    demo_parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        return demo(args)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    return 2


if __name__ == "__main__":
    sys.exit(main())
