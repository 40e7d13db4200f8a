"""Othello MCTS simulations per second: the compiled MCTSAgent against OpenSpiel's C++
``MCTSBot`` and against the generic path on shimmy's OpenSpiel Othello, in one process.

Every search starts from the 8 x 8 start position and runs UCT with c = 1.4 and one uniformly
random play-out per simulation, on one thread:

- ours: ``MCTSAgent`` on ``connectn_env.othello_v0`` (compiled search over the bitboard
  kernels), ``--simulations`` per search;
- OpenSpiel: ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)`` on ``othello``, the same
  number of simulations;
- generic: ``MCTSAgent(backend="generic")`` on shimmy's ``OpenSpielCompatibilityV0(
  game_name="othello")`` PettingZoo env (what a user without this suite's Othello gets today:
  the same tree in Python, simulating on copies of the env), ``--generic-simulations``.

The three run interleaved, ``--repeats`` times, after a warm-up search each (numba loads or
compiles its code then); each search is timed with ``time.thread_time()`` (CPU time of this
thread: steady on a shared machine) and the table gives the medians and the ratios. Our agent
is timed on its second search: the first allocates its tree buffers (up to 0.2 s for the
default ``max_nodes`` when the memory must be cleared), once per agent. A second
table gives our rate on other sizes and on the padded-board layout (boards above 8 x 8 use it).

    python benchmarks/othello_vs_openspiel.py                 # 5 repeats
    python benchmarks/othello_vs_openspiel.py --quick         # a smoke test
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

import pyspiel
from shimmy import OpenSpielCompatibilityV0

from agents import MCTSAgent
from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import OthelloGame


class PaddedOthello(OthelloGame):
    """Othello on the padded-board layout at every size (for the layout comparison)."""

    bitboards = False


def timed(search: Callable[[], int]) -> float:
    """Simulations per CPU second of one call of ``search`` (which returns its simulations).

    The garbage of earlier searches (the generic path leaves many env copies) is collected
    first, so that no search pays for another's.
    """
    gc.collect()
    start = time.thread_time()
    simulations = search()
    return simulations / (time.thread_time() - start)


def ours(game: OthelloGame, simulations: int, seed: int) -> Callable[[], int]:
    """The agent's second search: its first allocated the tree buffers (``max_nodes`` of them,
    once per agent, as in a game), which is no part of the search's speed."""
    env = BoardGameEnv(game)
    env.reset()
    agent = MCTSAgent(simulations=simulations, exploration=1.4, reuse_tree=False, seed=seed)
    agent.search(env)
    return lambda: agent.search(env).simulations


def openspiel(simulations: int, seed: int) -> Callable[[], int]:
    game = pyspiel.load_game("othello")
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, simulations, 1000, False, seed, False)
    state = game.new_initial_state()
    return lambda: (bot.step(state), simulations)[1]


def generic(simulations: int, seed: int) -> Callable[[], int]:
    env = OpenSpielCompatibilityV0(game_name="othello")
    env.reset(seed=seed)
    agent = MCTSAgent(
        simulations=simulations, exploration=1.4, reuse_tree=False, seed=seed, backend="generic"
    )
    return lambda: agent.search(env).simulations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=20_000)
    parser.add_argument("--generic-simulations", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="1 repeat of short searches")
    args = parser.parse_args()
    if args.quick:
        args.repeats, args.simulations, args.generic_simulations = 1, 2_000, 30
    sides = {
        "ours": lambda seed: ours(OthelloGame(), args.simulations, seed),
        "openspiel": lambda seed: openspiel(args.simulations, seed),
        "generic": lambda seed: generic(args.generic_simulations, seed),
    }
    for make in sides.values():
        timed(make(0))  # warm-up: numba's cache, OpenSpiel's and shimmy's first calls
    rates: dict[str, list[float]] = {side: [] for side in sides}
    for repeat in range(args.repeats):
        for side, make in sides.items():
            rates[side].append(timed(make(repeat + 1)))
    median = {side: statistics.median(values) for side, values in rates.items()}
    print(
        f"Othello 8x8 from the start, UCT c=1.4, one random roll-out per simulation; "
        f"medians of {args.repeats} interleaved searches, CPU time (time.thread_time)\n"
    )
    print("| search | simulations per search | sims/s | ours / this |")
    print("|---|---:|---:|---:|")
    rows = [
        ("MCTSAgent, compiled (connectn_env.othello_v0)", "ours", args.simulations),
        ("OpenSpiel C++ MCTSBot (othello)", "openspiel", args.simulations),
        ("MCTSAgent, generic path (shimmy OpenSpiel othello)", "generic", args.generic_simulations),
    ]
    for label, side, simulations in rows:
        ratio = median["ours"] / median[side]
        print(f"| {label} | {simulations:,} | {median[side]:,.0f} | {ratio:,.1f}x |")

    print("\n| our board, layout | sims/s |\n|---|---:|")
    for label, game in [
        ("6x6, bitboards", OthelloGame(size=6)),
        ("8x8, bitboards", OthelloGame()),
        ("8x8, padded board", PaddedOthello()),
        ("10x10, padded board", OthelloGame(size=10)),
        ("16x16, padded board", OthelloGame(size=16)),
    ]:
        timed(ours(game, 64, 0))
        values = [timed(ours(game, args.simulations, r + 1)) for r in range(args.repeats)]
        print(f"| {label} | {statistics.median(values):,.0f} |")


if __name__ == "__main__":
    main()
