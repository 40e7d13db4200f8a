"""AlphaBetaAgent's speed: solving small games against OpenSpiel's alpha-beta, and positions
per second with each game's evaluation.

1. Solve from the empty board (the exact value, every line searched to the end): our
   compiled negamax (transposition table, move ordering, the game's evaluation at the
   horizon of each iteration of the deepening) against OpenSpiel's
   ``open_spiel.python.algorithms.minimax.alpha_beta_search`` (Python over OpenSpiel's C++
   states, no table) on the same game, in one process. Both values are checked equal.
2. Throughput: positions visited per second in a fixed-depth search from a short opening,
   on Connect Four, Gomoku 15x15 and Hex 11x11.

Times are ``time.thread_time()`` (the machine may be shared); after a warm-up run (numba
loads or compiles), runs are interleaved and the median is reported.

    python benchmarks/alphabeta_speed.py            # 5 runs
    python benchmarks/alphabeta_speed.py --quick    # a smoke test: 1 run, small searches
"""

from __future__ import annotations

import argparse
import statistics
import time

import pyspiel
from open_spiel.python.algorithms.minimax import alpha_beta_search

from agents import AlphaBetaAgent
from connectn_env.games import ConnectNGame, GomokuGame, HexGame, connect_four, tictactoe

SOLVE = [
    ("tic-tac-toe", tictactoe(), ("tic_tac_toe", {})),
    (
        "connect 3, 4x4, gravity",
        ConnectNGame(rows=4, cols=4, n=3, gravity=True),
        ("connect_four", {"rows": 4, "columns": 4, "x_in_row": 3}),
    ),
    (
        "3 in a row, 4x4 (m,n,k)",
        ConnectNGame(rows=4, cols=4, n=3, gravity=False),
        ("mnk", {"m": 4, "n": 4, "k": 3}),
    ),
]
THROUGHPUT = [
    ("connect four", connect_four(), (3, 3, 2), 10),
    ("gomoku 15x15", GomokuGame(), (112, 113, 97), 3),
    ("hex 11x11", HexGame(), (60, 61), 3),
]
_VALUES = {"win": 1.0, "loss": -1.0, "draw": 0.0}


def ours_solve(game) -> tuple[float, float]:
    """(seconds, value for player_0) of a fresh agent solving the empty board."""
    agent = AlphaBetaAgent(depth=game.max_moves)
    start = time.thread_time()
    result = agent.analyse_state(game.new_initial_state())
    return time.thread_time() - start, _VALUES[result.proven]


def openspiel_solve(name: str, params: dict) -> tuple[float, float]:
    game = pyspiel.load_game(name, params)
    start = time.thread_time()
    value, _ = alpha_beta_search(game, maximum_depth=game.max_game_length())
    return time.thread_time() - start, value


def throughput(game, opening: tuple[int, ...], depth: int) -> tuple[float, int]:
    """(positions per second, positions) of a fresh depth-``depth`` search."""
    state = game.new_initial_state()
    for action in opening:
        state.apply_action(action)
    agent = AlphaBetaAgent(depth=depth)
    start = time.thread_time()
    result = agent.analyse_state(state)
    return result.nodes / (time.thread_time() - start), result.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one run, small searches")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    runs = 1 if args.quick else args.runs
    solve = SOLVE[:2] if args.quick else SOLVE
    print(f"Median of {runs} interleaved runs (thread time).\n")
    print("| solve from the empty board | value | AlphaBetaAgent | OpenSpiel alpha_beta_search "
          "| ratio |")  # fmt: skip
    print("|---|---:|---:|---:|---:|")
    for label, game, (name, params) in solve:
        ours_solve(game)  # warm-up
        times: dict[str, list[float]] = {"ours": [], "theirs": []}
        for _ in range(runs):
            seconds, ours_value = ours_solve(game)
            times["ours"].append(seconds)
            seconds, their_value = openspiel_solve(name, params)
            times["theirs"].append(seconds)
            if ours_value != their_value:
                raise SystemExit(f"{label}: values differ, {ours_value} != {their_value}")
        ours, theirs = statistics.median(times["ours"]), statistics.median(times["theirs"])
        print(
            f"| {label} | {ours_value:+.0f} | {ours * 1000:,.1f} ms | {theirs * 1000:,.1f} ms "
            f"| {theirs / ours:,.1f}x faster |"
        )
    print("\n| game | depth | positions | positions/s |")
    print("|---|---:|---:|---:|")
    for label, game, opening, depth in THROUGHPUT:
        depth = min(depth, 4) if args.quick else depth
        throughput(game, opening, 1)  # warm-up
        rates = []
        for _ in range(runs):
            rate, nodes = throughput(game, opening, depth)
            rates.append(rate)
        print(f"| {label} | {depth} | {nodes:,} | {statistics.median(rates):,.0f} |")


if __name__ == "__main__":
    main()
