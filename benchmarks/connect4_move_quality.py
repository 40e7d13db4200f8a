"""Connect Four move quality, judged by a perfect solver.

Positions: the shipped set of ``connectn evaluate connect_four CANDIDATE --positions``
(:mod:`connectn_env.ladder.positions`: 200 positions 10 to 22 plies into uniformly random
games, seed 0, kept when some legal move changes the game-theoretic result), or ``--positions
N`` new ones solved now. Each agent picks a move in each position, with the given seconds per
move; the solver's scores (:class:`connectn_env.games.connect_n.solver.Connect4Solver`) say
whether the move keeps the result (same sign of score as the best move) and whether it is a
best move (the highest score: the fastest win, or the longest resistance). Agents:
``MCTSAgent`` with its defaults (and any extra ``--agent`` spec, ``{t}`` standing for the
seconds), and OpenSpiel's C++ ``MCTSBot`` (UCT, c = 1.4, random roll-outs, solver on) with
``max_wall_clock_time`` set to the same seconds. Each agent starts afresh at each position
(no tree from earlier moves).

Usage::

    python benchmarks/connect4_move_quality.py --seconds 0.1 1
    python benchmarks/connect4_move_quality.py --agent "mcts:time={t},preset=uct" --seconds 1
    python benchmarks/connect4_move_quality.py --positions 200 --save FILE  # the shipped set
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from connectn_env import connect_n_v0
from connectn_env.elo import wilson
from connectn_env.ladder.positions import (
    PLIES,
    Position,
    critical_positions,
    load_positions,
    save_positions,
)
from connectn_env.ladder.provenance import provenance
from connectn_env.specs import parse_agent_spec


def judge(choose, positions: list[Position]) -> tuple[int, int, float]:
    """(moves keeping the result, best moves, median seconds per move) of ``choose(moves)``."""
    kept = best = 0
    seconds = []
    for position in positions:
        start = time.perf_counter()
        column = choose(list(position.moves))
        seconds.append(time.perf_counter() - start)
        kept += position.keeps(column)
        best += position.is_best(column)
    return kept, best, float(np.median(seconds))


def our_chooser(spec: str, seed: int):
    def choose(moves: list[int]) -> int:
        env = connect_n_v0.env()
        env.reset()
        for action in moves:
            env.step(action)
        return int(parse_agent_spec(spec).build(seed).act(env))

    return choose


def openspiel_chooser(seconds: float, seed: int):
    from opponents import OpenSpielMCTS

    bot = OpenSpielMCTS("connect_four", seconds=seconds, seed=seed)

    def choose(moves: list[int]) -> int:
        state = bot.game.new_initial_state()
        for action in moves:
            state.apply_action(action)
        return int(bot.bot.step(state))

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--positions", type=int, help="solve this many new positions (default: the shipped 200)"
    )
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.1, 1.0])
    parser.add_argument("--seed", type=int, default=0, help="seed of --positions' games")
    parser.add_argument("--agent", action="append", default=[], help="extra agent spec")
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--save", type=Path, help="write --positions' set there and stop")
    args = parser.parse_args()
    if args.save is not None and args.positions is None:
        parser.error("--save writes the positions of --positions N")
    start = time.perf_counter()
    if args.positions is None:
        positions = load_positions()
        print(f"{len(positions)} shipped positions (connectn_env.ladder.positions)")
    else:
        positions = critical_positions(args.positions, args.seed)
        print(
            f"{len(positions)} positions ({PLIES[0]}-{PLIES[1]} plies into random games, seed "
            f"{args.seed}) solved in {time.perf_counter() - start:.0f} s"
        )
    if args.save is not None:
        seconds = round(time.perf_counter() - start, 1)
        about = {"count": args.positions, "seed": args.seed, "plies": list(PLIES)}
        save_positions(positions, args.save, **about, seconds=seconds, **provenance())
        print(f"written: {args.save}")
        return
    print("| agent | s/move | result kept | 95% CI | best move | 95% CI | median s/move |")
    print("|---|---:|---:|---|---:|---|---:|")
    n = len(positions)
    for seconds in args.seconds:
        agents = [
            (f"MCTSAgent() defaults, time={seconds:g}", our_chooser(f"mcts:time={seconds}", 1))
        ]
        agents += [
            (spec.format(t=seconds), our_chooser(spec.format(t=seconds), 1)) for spec in args.agent
        ]
        if not args.no_openspiel:
            agents.append((f"OpenSpiel MCTSBot, {seconds:g} s", openspiel_chooser(seconds, 1)))
        for name, choose in agents:
            kept, best, median = judge(choose, positions)
            k_low, k_high = wilson(kept / n, n)
            b_low, b_high = wilson(best / n, n)
            print(
                f"| {name} | {seconds:g} | {kept / n:.1%} | [{k_low:.1%}, {k_high:.1%}] | "
                f"{best / n:.1%} | [{b_low:.1%}, {b_high:.1%}] | {median:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
