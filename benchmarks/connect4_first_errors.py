"""Connect Four: where an agent's games against another are decided, by the perfect solver.

Reads played games (the JSON lines of ``connectn arena --out``, ``connectn evaluate
--results`` or a ladder's games, plain or ``.xz``) from an opening suite, and for each game
of the agent (a pairing member starting with ``--agent``) against ``--against`` judges every
move the agent made after the opening with :class:`Connect4Solver`: a move that turns a won
position into a draw or a loss, or a drawn one into a loss, is an error. The table says how
many games the agent did not win, how many of those its opening had already lost (no error
of its own), and on which ply after the opening each game's first error fell.

Issue 45's Connect Four question (why the network stays below ``perfect`` on the ladder)::

    python benchmarks/connect4_first_errors.py \\
        benchmarks/results/ladders/connect_four.games.jsonl.xz --agent az:pretrained \\
        --against perfect
"""

from __future__ import annotations

import argparse
import collections
import json
import lzma
import time
from collections.abc import Iterator
from pathlib import Path

from connectn_env.games.connect_n.solver import Connect4Solver

SUITE = Path(__file__).parents[1] / "connectn_env/ladder/data/openings/connect_four.json"


def games_of(path: Path, agent: str, against: str) -> Iterator[tuple[dict, int]]:
    """Each game of ``agent`` against ``against`` in ``path``, with the agent's seat."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("type") != "game" or record.get("error"):
                continue
            first, second = record["pairing"]
            if first.startswith(agent) and second.startswith(against):
                yield record, record["players"].index(first)
            elif second.startswith(agent) and first.startswith(against):
                yield record, record["players"].index(second)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def first_error(solver: Connect4Solver, moves: list[int], seat: int, start: int) -> int | None:
    """The ply (counted from the game's start) of the first move of ``seat`` from ply
    ``start`` on that makes its result worse, None if none does."""
    for ply in range(start, len(moves)):
        if ply % 2 != seat:
            continue
        if ply + 1 == len(moves):
            return None  # the game's last move: a win, or the only move left
        before = sign(solver.solve(moves[:ply]))
        if -sign(solver.solve(moves[: ply + 1])) < before:
            return ply
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, help="games file (JSON lines, plain or .xz)")
    parser.add_argument("--agent", required=True, help="the agent's spec, or its start")
    parser.add_argument("--against", required=True, help="the opponent's spec, or its start")
    parser.add_argument("--openings", type=Path, default=SUITE, help="the games' opening suite")
    args = parser.parse_args()
    openings = json.loads(args.openings.read_text())["openings"]
    solver = Connect4Solver()
    start = time.process_time()
    results: collections.Counter[str] = collections.Counter()
    lost_at_opening = 0
    error_plies: collections.Counter[int] = collections.Counter()
    for record, seat in games_of(args.games, args.agent, args.against):
        outcome = record["result"]
        won = outcome == f"player_{seat}"
        results["won" if won else "drawn" if outcome == "draw" else "lost"] += 1
        if won:
            continue
        opening = len(openings[record["opening"]])
        ply = first_error(solver, record["moves"], seat, opening)
        if ply is None:
            lost_at_opening += 1
        else:
            error_plies[ply - opening + 1] += 1
    not_won = results["drawn"] + results["lost"]
    print(
        f"{args.agent} against {args.against}: {sum(results.values())} games, won "
        f"{results['won']}, drawn {results['drawn']}, lost {results['lost']}"
    )
    print(
        f"not won: {not_won}; decided by the opening (no error of the agent's): "
        f"{lost_at_opening}; by an error of the agent's: {sum(error_plies.values())}"
    )
    print(
        "the first error's ply after the opening (1: the first move after it): "
        + ", ".join(f"{ply}: {count}" for ply, count in sorted(error_plies.items()))
    )
    print(f"{time.process_time() - start:.1f} CPU s")


if __name__ == "__main__":
    main()
