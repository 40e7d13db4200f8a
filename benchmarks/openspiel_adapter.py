"""OpenSpiel's algorithms on the suite's registered games against OpenSpiel's C++ games.

The suite's games reach OpenSpiel as Python games (``connectn_env.openspiel_games``): each
call crosses OpenSpiel's C++/Python trampoline into an adapter over ``GameState``. This
measures what that costs, with the same code on both sides in one process:

- random play-outs through the ``pyspiel.State`` API (``legal_actions``, ``apply_action``),
  in actions per second;
- OpenSpiel's Python ``MCTSBot`` (UCT, one random roll-out per simulation) from the empty
  board, in simulations per second.

After a warm-up run, runs are interleaved; the median of the runs is reported with the ratio
ours / OpenSpiel's.

    python benchmarks/openspiel_adapter.py            # 5 runs
    python benchmarks/openspiel_adapter.py --quick    # a smoke test: 1 short run
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import connectn_env.openspiel_games  # noqa: F401  (registers the connectn_* games)

PAIRS = [
    ("connect four", "connectn_connect_four", "connect_four"),
    ("hex 11x11", "connectn_hex", "hex"),
    ("gomoku 15x15", "connectn_gomoku", "gomoku"),
]


def playout_rate(game: pyspiel.Game, actions: int, seed: int) -> float:
    """Random play-outs until ``actions`` actions were applied; actions per second."""
    rng = np.random.default_rng(seed)
    done = 0
    start = time.perf_counter()
    while done < actions:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
    return done / (time.perf_counter() - start)


def mcts_rate(game: pyspiel.Game, simulations: int, seed: int) -> float:
    """One ``MCTSBot`` search of ``simulations`` from the empty board; simulations per second."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 1.4, simulations, evaluator, random_state=np.random.RandomState(seed))
    start = time.perf_counter()
    bot.mcts_search(game.new_initial_state())
    return simulations / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one short run")
    args = parser.parse_args()
    runs, actions, simulations = (1, 2_000, 100) if args.quick else (args.runs, 20_000, 1_000)
    print(f"Median of {runs} interleaved runs.\n")
    print("| game | measure | `connectn_*` (Python game) | OpenSpiel C++ game | ratio |")
    print("|---|---|---:|---:|---:|")
    for label, ours_name, theirs_name in PAIRS:
        games = {"ours": pyspiel.load_game(ours_name), "theirs": pyspiel.load_game(theirs_name)}
        for measure, function, amount in (
            ("play-out actions/s", playout_rate, actions),
            ("MCTSBot simulations/s", mcts_rate, simulations),
        ):
            rates: dict[str, list[float]] = {"ours": [], "theirs": []}
            for game in games.values():
                function(game, amount // 10, seed=runs)  # warm-up: loads numba's cache
            for run in range(runs):
                for side, game in games.items():
                    rates[side].append(function(game, amount, seed=run))
            ours, theirs = (statistics.median(rates[side]) for side in ("ours", "theirs"))
            print(f"| {label} | {measure} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f}x |")


if __name__ == "__main__":
    main()
