"""The ``connectn openings make`` and ``connectn openings show`` commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from connectn_env.arena.outputs import check_output_file
from connectn_env.gameoptions import game_config_from_args, path_argument
from connectn_env.ladder.games import ladder_key
from connectn_env.ladder.openings import load_suite, save_suite
from connectn_env.ladder.openings_make import make_suite, search_judge, solver_judge


def add_openings_make_options(
    sub: argparse.ArgumentParser, count: Callable[[str], int], seed: Callable[[str], int]
) -> None:
    """``connectn openings make GAME``'s options (``count``, ``seed``: the CLI's integer
    types)."""
    sub.add_argument("--count", type=count, default=100, metavar="N", help="openings (100)")
    sub.add_argument("--min-plies", type=count, required=True, metavar="N", help="fewest moves")
    sub.add_argument("--max-plies", type=count, required=True, metavar="N", help="most moves")
    sub.add_argument(
        "--nodes",
        type=count,
        default=500_000,
        metavar="N",
        help="Connect Four: the solver's nodes per position (500000)",
    )
    sub.add_argument(
        "--simulations",
        type=count,
        default=2000,
        metavar="N",
        help="other games: the MCTS judge's simulations per position (2000)",
    )
    sub.add_argument(
        "--band",
        type=float,
        default=0.15,
        metavar="V",
        help="other games: keep root values within V of 0 (0.15)",
    )
    sub.add_argument("--seed", type=seed, default=0, help="seeds the random openings (0)")
    sub.add_argument(
        "--max-cpu-seconds", type=float, default=None, metavar="S", help="stop drawing after S"
    )
    sub.add_argument("--out", type=path_argument, required=True, metavar="FILE")


def add_openings_show_options(sub: argparse.ArgumentParser) -> None:
    """``connectn openings show FILE``'s options."""
    sub.add_argument("file", type=path_argument, metavar="FILE", help="an opening suite")


def run_openings_command(args: argparse.Namespace, command: str) -> int:
    """``connectn openings make`` and ``connectn openings show`` (``command``: the command
    line, recorded in a suite it makes)."""
    if args.openings_command == "show":
        print(load_suite(args.file).table())
        return 0
    key = ladder_key(game_config_from_args(args))
    if not 0 < args.band <= 1:
        raise ValueError(f"--band must be above 0 and at most 1, got {args.band}")
    check_output_file(args.out, "--out", "an opening suite", replaced=True)
    if key == "connect_four":
        judge = solver_judge(args.nodes)
    else:
        judge = search_judge(args.simulations, args.band, args.seed)
    suite, tries = make_suite(
        key,
        count=args.count,
        min_plies=args.min_plies,
        max_plies=args.max_plies,
        judge=judge,
        seed=args.seed,
        command=command,
        max_cpu_seconds=args.max_cpu_seconds,
    )
    save_suite(suite, Path(args.out))
    short = "" if len(suite.openings) == args.count else f" (of {args.count} wanted)"
    print(
        f"{len(suite.openings)} openings{short} kept of {tries} drawn in "
        f"{suite.cpu_seconds:.1f} CPU s: {args.out}"
    )
    return 0
