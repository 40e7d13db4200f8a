"""Connect Four drawn positions: does an agent keep the draw?

Builds, or reads, a set of drawn Connect Four positions judged by the suite's perfect solver
(:class:`connectn_env.games.connect_n.solver.Connect4Solver`): positions 8 to 20 plies (or
``--plies LOW HIGH``) into uniformly random games whose result for the player to move is a
draw, with at least one move that loses
(:func:`connectn_env.ladder.positions.critical_positions` with ``result=0``), in the
positions-file format of :mod:`connectn_env.ladder.positions`. Then
each agent spec (``{n}`` standing for the simulations) picks a move in each position, seeded,
afresh (no tree from earlier moves), and the table says how many of its moves keep the draw,
per seed, with the CPU seconds it took.

The test set ``tests/data/connect4_drawn.json`` (what ``tests/test_drawn_positions.py``
checks the default ``MCTSAgent`` on) was made by (300 CPU seconds, solving included)::

    python benchmarks/connect4_drawn_positions.py --build 40 --seed 43 \
        --save tests/data/connect4_drawn.json

and the later positions of ``tests/data/connect4_drawn_late.json``, where the default agent's
exact solver reaches (12 CPU seconds), by::

    python benchmarks/connect4_drawn_positions.py --build 40 --seed 44 --plies 14 20 \
        --save tests/data/connect4_drawn_late.json

and measured by::

    python benchmarks/connect4_drawn_positions.py --simulations 10000 --seeds 0 1 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from connectn_env import connect_n_v0
from connectn_env.ladder.positions import (
    Position,
    critical_positions,
    load_positions,
    save_positions,
)
from connectn_env.ladder.provenance import provenance
from connectn_env.specs import parse_agent_spec

DRAWN = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4_drawn.json"
PLIES = (8, 20)
AGENTS = ("mcts:simulations={n}", "mcts:simulations={n},preset=uct")


def drawn_kept(spec: str, seed: int, positions: list[Position]) -> list[bool]:
    """Whether the agent of ``spec`` (built afresh with ``seed`` for each position) keeps
    the draw in each position."""
    kept = []
    for position in positions:
        env = connect_n_v0.env()
        env.reset()
        for action in position.moves:
            env.step(action)
        column = int(parse_agent_spec(spec).build(seed).act(env))
        kept.append(position.keeps(column))
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=int, metavar="N", help="solve N new drawn positions")
    parser.add_argument("--seed", type=int, default=43, help="seed of --build's games")
    parser.add_argument("--save", type=Path, help="write --build's set there and stop")
    parser.add_argument(
        "--plies", type=int, nargs=2, default=PLIES, metavar=("LOW", "HIGH"), help="of --build"
    )
    parser.add_argument("--positions", type=Path, default=DRAWN, help="a positions file")
    parser.add_argument("--simulations", type=int, default=10_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--agent", action="append", help=f"agent spec (default: {AGENTS})")
    args = parser.parse_args()
    if (args.save is None) != (args.build is None):
        parser.error("--build N and --save FILE go together")
    if args.build is not None:
        start = time.process_time()
        plies = tuple(args.plies)
        if not 0 <= plies[0] <= plies[1] < 42:
            parser.error(f"--plies {plies[0]} {plies[1]}: LOW <= HIGH, from 0 to 41")
        positions = critical_positions(args.build, args.seed, plies=plies, result=0)
        seconds = round(time.process_time() - start, 1)
        about = {"count": args.build, "seed": args.seed, "plies": list(plies), "result": 0}
        save_positions(positions, args.save, **about, seconds=seconds, **provenance())
        print(f"{len(positions)} drawn positions in {seconds} CPU s: written to {args.save}")
        return
    positions = load_positions(args.positions)
    if any(position.best != 0 for position in positions):
        sys.exit(f"{args.positions}: not every position is drawn")
    name = args.positions.name
    print(f"{len(positions)} drawn positions ({name}), {args.simulations} simulations")
    print("| agent | seed | draws kept | lost at | CPU s |")
    print("|---|---:|---:|---|---:|")
    for spec in args.agent or AGENTS:
        spec = spec.format(n=args.simulations)
        for seed in args.seeds:
            start = time.process_time()
            kept = drawn_kept(spec, seed, positions)
            lost = " ".join(str(i) for i, k in enumerate(kept) if not k)
            print(
                f"| {spec} | {seed} | {sum(kept)} / {len(kept)} | {lost} | "
                f"{time.process_time() - start:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
