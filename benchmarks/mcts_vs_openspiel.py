"""Simulations per second: MCTSAgent against OpenSpiel's MCTSBot, in one process.

Native path: plain UCT (``preset="uct"``), c = 1.4, one random roll-out per simulation,
20,000 simulations from the empty board, one thread, on every registered game family with its
default parameters (Connect Four, Gomoku 15x15, Hex 11x11, Othello 8x8), against OpenSpiel's
C++ ``pyspiel.MCTSBot`` on the same game; runs interleaved, medians reported, and the first
full search of the process (after a 64-simulation warm-up that loads the compiled code)
against the median of the later ones. Generic path: MCTSAgent on PettingZoo's
``tictactoe_v3`` (its board adapter) against OpenSpiel's Python ``MCTSBot`` on ``tic_tac_toe``,
2,000 simulations, CPU time, as in ``third_party_vs_openspiel.py`` (which has more games and
the full env copies). Also the compile
cost: cold (empty numba cache, measured in a subprocess) and first move vs later moves with a
warm cache.

Usage: ``python benchmarks/mcts_vs_openspiel.py [--repeats 5] [--simulations 20000]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import pyspiel
from third_party_vs_openspiel import PETTINGZOO_ENVS, openspiel_python, ours

from connectn_env.bench import mcts_games, openspiel_mcts_rate, our_mcts_rate

FIRST_MOVE_SCRIPT = """
import time
t0 = time.perf_counter()
from agents import MCTSAgent
from connectn_env import connect_n_v0
env = connect_n_v0.env(); env.reset()
agent = MCTSAgent(simulations={sims}, seed=0, reuse_tree=False, preset="uct")
t1 = time.perf_counter(); agent.act(env); t2 = time.perf_counter()
later = []
for _ in range(3):
    s = time.perf_counter(); agent.act(env); later.append(time.perf_counter() - s)
print(t2 - t1, sorted(later)[1])
"""


def generic_ttt(simulations: int, seed: int) -> tuple[float, float]:
    """Simulations per CPU second: the generic path on PettingZoo's ``tictactoe_v3`` (its board
    adapter, compiled code loaded first) and OpenSpiel's Python ``MCTSBot`` on ``tic_tac_toe``,
    measured as in ``third_party_vs_openspiel.py``."""
    return (
        ours(PETTINGZOO_ENVS["tictactoe_v3"], simulations, seed, full=False),
        openspiel_python("tic_tac_toe", simulations, seed),
    )


def run_script(script: str, env: dict[str, str]) -> list[float]:
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    return [float(x) for x in out.stdout.split()]


def compile_costs(simulations: int) -> tuple[float, float, float]:
    """(cold first move, warm-cache first move, later move) in seconds."""
    script = FIRST_MOVE_SCRIPT.format(sims=simulations)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold, _ = run_script(script, env)
        warm, later = run_script(script, env)
    return cold, warm, later


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=20_000)
    parser.add_argument("--skip-compile", action="store_true")
    args = parser.parse_args()
    print(
        "| game | MCTSAgent sims/s | OpenSpiel C++ MCTSBot sims/s | ratio "
        "| first search, share of later speed |"
    )
    print("|---|---:|---:|---:|---:|")
    for name, game in mcts_games():
        our_mcts_rate(game, 64)  # load (or compile) the numba code before timing
        ours, theirs = [], []
        for _ in range(args.repeats):  # interleaved
            ours.append(our_mcts_rate(game, args.simulations))
            theirs.append(openspiel_mcts_rate(pyspiel, game, args.simulations))
        a, b = statistics.median(ours[1:] or ours), statistics.median(theirs)
        print(f"| {name} | {a:,.0f} | {b:,.0f} | {a / b:.1f}x | {ours[0] / a:.0%} |")
    pairs = [generic_ttt(2000, seed) for seed in range(args.repeats)]
    a = statistics.median(p[0] for p in pairs)
    b = statistics.median(p[1] for p in pairs)
    print(
        f"| tic-tac-toe, generic path (PettingZoo tictactoe_v3, CPU time) vs OpenSpiel Python "
        f"MCTSBot (tic_tac_toe) "
        f"| {a:,.0f} | {b:,.0f} | {a / b:.1f}x |"
    )
    if not args.skip_compile:
        cold, warm, later = compile_costs(args.simulations)
        print(
            f"\ncompile: cold first move {cold:.2f} s; warm cache: first move {warm:.3f} s, "
            f"later moves {later:.3f} s (extra {warm - later:.3f} s)"
        )


if __name__ == "__main__":
    main()
