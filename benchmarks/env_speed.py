"""AEC steps per second of random masked play: connectn-env against PettingZoo's classic envs.

Both sides run the same loop (``agent_iter`` + ``last`` + ``step``) in the same process and
pick a random legal action the same cheap way (a pre-drawn uniform number indexes
``np.flatnonzero(mask)``). Runs are interleaved and the median is reported, after a
warm-up run that compiles (or loads) the numba kernels.

    python benchmarks/env_speed.py            # 7 runs of 20000 steps per env
    python benchmarks/env_speed.py --quick    # a smoke test: 1 short run
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable
from dataclasses import dataclass

import pettingzoo
from pettingzoo import AECEnv

import connectn_env
from connectn_env import connect_n_v0, gomoku_v0, hex_v0
from connectn_env.bench import random_play_rate


@dataclass(frozen=True)
class Case:
    """One row of the table: our env and, where PettingZoo has the game, theirs."""

    name: str
    ours: Callable[[], AECEnv]
    theirs: Callable[[], AECEnv] | None = None


CASES = [
    Case(
        "connect_four 6x7",
        lambda: connect_n_v0.env(rows=6, cols=7, n=4, gravity=True),
        lambda: pettingzoo.make("aec", "classic/connect_four-v3"),
    ),
    Case(
        "tictactoe 3x3",
        lambda: connect_n_v0.env(rows=3, cols=3, n=3, gravity=False),
        lambda: pettingzoo.make("aec", "classic/tictactoe-v3"),
    ),
    Case("gomoku 15x15", lambda: gomoku_v0.env(size=15)),
    Case("hex 11x11", lambda: hex_v0.env(size=11)),
]


def clone_microseconds(runs: int, number: int) -> float:
    """Median cost of ``GameState.clone()`` on a mid-game Connect Four position, in us."""
    state = connectn_env.connect_four().new_initial_state()
    for action in (3, 3, 2, 4, 2, 2, 5):
        state.apply_action(action)
    times = timeit.repeat(state.clone, number=number, repeat=runs)
    return statistics.median(times) / number * 1e6


def measure(runs: int, steps: int) -> dict[str, dict[str, float]]:
    """Median steps/s of each case's envs: ``{case name: {"ours": .., "theirs": ..}}``."""
    envs = {
        case.name: {
            side: make()
            for side, make in (("ours", case.ours), ("theirs", case.theirs))
            if make is not None
        }
        for case in CASES
    }
    for sides in envs.values():  # warm-up: numba compilation or cache loading
        for env in sides.values():
            random_play_rate(env, min(steps, 500), seed=0)
    rates: dict[str, dict[str, list[float]]] = {
        name: {side: [] for side in sides} for name, sides in envs.items()
    }
    for run in range(runs):  # interleaved: every env once per run
        for name, sides in envs.items():
            for side, env in sides.items():
                rates[name][side].append(random_play_rate(env, steps, seed=run + 1))
    return {
        name: {side: statistics.median(values) for side, values in sides.items()}
        for name, sides in rates.items()
    }


def format_table(medians: dict[str, dict[str, float]], clone_us: float) -> str:
    """The results as a Markdown table, then the clone cost."""
    lines = [
        "| env | connectn-env steps/s | pettingzoo steps/s | ratio |",
        "|---|---:|---:|---:|",
    ]
    for name, sides in medians.items():
        if "theirs" in sides:
            theirs = f"{sides['theirs']:,.0f}"
            ratio = f"{sides['ours'] / sides['theirs']:.2f}x"
        else:
            theirs = ratio = "-"
        lines.append(f"| {name} | {sides['ours']:,.0f} | {theirs} | {ratio} |")
    lines.append(f"\nGameState.clone(): {clone_us:.2f} us (median)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per env (median)")
    parser.add_argument("--steps", type=int, default=20_000, help="env.step calls per run")
    parser.add_argument("--quick", action="store_true", help="1 run of 300 steps (smoke test)")
    args = parser.parse_args(argv)
    runs, steps = (1, 300) if args.quick else (args.runs, args.steps)
    if runs < 1 or steps < 1:
        parser.error(f"--runs and --steps must be at least 1, got {runs} and {steps}")
    medians = measure(runs, steps)
    clone_us = clone_microseconds(runs, number=1_000 if args.quick else 200_000)
    print(f"random masked play, median of {runs} interleaved run(s) of {steps} steps")
    print(format_table(medians, clone_us))


if __name__ == "__main__":
    main()
