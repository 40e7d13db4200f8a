"""Simulations per CPU second on third-party envs: MCTSAgent's generic path against OpenSpiel's
Python ``MCTSBot``, and against the generic path on full env copies.

One process, CPU time (``time.thread_time``), runs interleaved, medians (with ranges) of
``--repeats`` searches from the start of the game, the same number of simulations and the same
UCT constant (c = 1.4, one uniformly random roll-out per simulation, solver on for both):

- OpenSpiel's ``tic_tac_toe``, ``connect_four`` and ``nim`` through shimmy's
  ``OpenSpielCompatibilityV0`` (MCTSAgent, ``preset="uct"``) against
  ``open_spiel.python.algorithms.mcts.MCTSBot`` with a ``RandomRolloutEvaluator`` on the same
  game (the searches clone the ``pyspiel.State``: :mod:`agents.positions`);
- PettingZoo's ``tictactoe_v3`` and ``connect_four_v3`` (board adapters) against the same agent
  forced onto full env copies (:func:`agents.positions.full_copies_only`, the fallback for any
  other env); the OpenSpiel games are timed on full copies too.

Usage: ``python benchmarks/third_party_vs_openspiel.py [--repeats 5] [--simulations 2000]``
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import pettingzoo
import pyspiel
from open_spiel.python.algorithms import mcts as py_mcts
from shimmy import OpenSpielCompatibilityV0

from agents import MCTSAgent
from agents.positions import full_copies_only

UCT_C = 1.4
SPIEL_GAMES = ("tic_tac_toe", "connect_four", "nim")
PETTINGZOO_ENVS = {
    name: partial(pettingzoo.make, "aec", f"classic/{name.replace('_v', '-v')}")
    for name in ("tictactoe_v3", "connect_four_v3")
}


def cpu_rate(search: Callable[[], int]) -> float:
    """Simulations per CPU second of one call of ``search`` (which returns its simulations)."""
    start = time.thread_time()
    done = search()
    return done / (time.thread_time() - start)


def ours(make_env: Callable[[], object], simulations: int, seed: int, *, full: bool) -> float:
    env = make_env()
    env.reset()
    agent = MCTSAgent(simulations=simulations, reuse_tree=False, seed=seed, preset="uct")
    agent.search(env)  # the first search loads the compiled code
    context = full_copies_only() if full else contextlib.nullcontext()
    with context:
        return cpu_rate(lambda: agent.search(env).simulations)


def openspiel_python(game_name: str, simulations: int, seed: int) -> float:
    game = pyspiel.load_game(game_name)
    bot = py_mcts.MCTSBot(
        game, UCT_C, simulations, py_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        solve=True, random_state=np.random.RandomState(seed),
    )  # fmt: skip
    state = game.new_initial_state()
    return cpu_rate(lambda: bot.mcts_search(state).explore_count)


def medians(runs: dict[str, list[float]]) -> dict[str, tuple[float, float, float]]:
    return {k: (statistics.median(v), min(v), max(v)) for k, v in runs.items()}


def cell(stat: tuple[float, float, float]) -> str:
    return f"{stat[0]:,.0f} ({stat[1]:,.0f}-{stat[2]:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=2000)
    args = parser.parse_args()
    if args.repeats < 1 or args.simulations < 1:
        parser.error("--repeats and --simulations must be at least 1")
    n = args.simulations
    print(f"load average {os.getloadavg()[0]:.2f}; {n} simulations, medians of {args.repeats}")
    print("\n| game (shimmy) | ours | ours, full copies | OpenSpiel Python MCTSBot | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name in SPIEL_GAMES:

        def make(name: str = name) -> OpenSpielCompatibilityV0:
            return OpenSpielCompatibilityV0(game_name=name)

        runs: dict[str, list[float]] = {"ours": [], "full": [], "theirs": []}
        for seed in range(args.repeats):  # interleaved
            runs["ours"].append(ours(make, n, seed, full=False))
            runs["full"].append(ours(make, n, seed, full=True))
            runs["theirs"].append(openspiel_python(name, n, seed))
        m = medians(runs)
        ratio = m["ours"][0] / m["theirs"][0]
        print(f"| {name} | {cell(m['ours'])} | {cell(m['full'])} | {cell(m['theirs'])} "
              f"| {ratio:.1f}x |")  # fmt: skip
    print("\n| env (PettingZoo) | ours | ours, full copies | ratio |")
    print("|---|---:|---:|---:|")
    for name, make_env in PETTINGZOO_ENVS.items():
        runs = {"ours": [], "full": []}
        for seed in range(args.repeats):
            runs["ours"].append(ours(make_env, n, seed, full=False))
            runs["full"].append(ours(make_env, n, seed, full=True))
        m = medians(runs)
        print(f"| {name} | {cell(m['ours'])} | {cell(m['full'])} "
              f"| {m['ours'][0] / m['full'][0]:.1f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
