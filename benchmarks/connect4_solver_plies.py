"""How long the Connect Four solver takes to answer a move, by ply.

For each ply, ``--samples`` positions of uniformly random games (seed ``--seed``; positions
where the game is not over) are given to :meth:`Connect4Solver.best_move` (what the perfect
player does beyond its opening book; ``--all-moves``: :meth:`Connect4Solver.move_scores`,
every move's exact score), each with a fresh solver (an empty transposition table: the worst
case). Prints the median and worst CPU seconds per ply, and the first ply from which every
ply measured answered within ``--limit`` seconds.

Usage::

    python benchmarks/connect4_solver_plies.py --plies 8 9 10 11 12 13 14 --samples 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from connectn_env.games.connect_n.solver import Connect4Solver, _wins


def random_position(ply: int, rng: random.Random) -> list[int]:
    """The moves of a uniformly random game of ``ply`` moves that is not over."""
    while True:
        moves: list[int] = []
        heights = [0] * 7
        for _ in range(ply):
            column = rng.choice([c for c in range(7) if heights[c] < 6])
            heights[column] += 1
            moves.append(column)
            if _wins(moves, 6, 7):
                break
        else:
            return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[8, 9, 10, 11, 12, 13, 14])
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--all-moves", action="store_true", help="time move_scores instead")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    worst_by_ply = {}
    method = "move_scores" if args.all_moves else "best_move"
    print(f"ply  median_s  worst_s  (CPU seconds of {method}, fresh solver)")
    for ply in sorted(args.plies):
        seconds = []
        for _ in range(args.samples):
            moves = random_position(ply, rng)
            solver = Connect4Solver()
            start = time.process_time()
            getattr(solver, method)(moves)
            seconds.append(time.process_time() - start)
        worst_by_ply[ply] = max(seconds)
        print(f"{ply:3d}  {statistics.median(seconds):8.3f}  {max(seconds):7.3f}", flush=True)
    late = [
        p
        for p in sorted(worst_by_ply)
        if all(worst_by_ply[q] <= args.limit for q in worst_by_ply if q >= p)
    ]
    print(f"within {args.limit:g} s from ply: {late[0] if late else 'none measured'}")


if __name__ == "__main__":
    main()
