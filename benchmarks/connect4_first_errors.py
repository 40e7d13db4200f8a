"""Connect Four: where an agent's games against another are decided, by the perfect solver.

Reads played games (the JSON lines of ``connectn arena --out``, ``connectn evaluate --results``
or a ladder's games, plain or ``.xz``, read as the arena reads them), and for each game of the
agent (a pairing member starting with ``--agent``) against ``--against`` judges every move the
agent made after the game's opening with :class:`Connect4Solver`: a move that turns a won
position into a draw or a loss, or a drawn one into a loss, is an error. The table says how
many games the agent did not win, how many of those the opening decided (no error of the
agent's: a lost or drawn position it could not better), and on which ply after the opening each
other game's first error fell.

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

from connectn_env.arena.results import GameResult
from connectn_env.games.connect_n.solver import Connect4Solver


def games_of(path: Path, agent: str, against: str) -> Iterator[tuple[GameResult, int]]:
    """Each finished game of ``agent`` against ``against`` in ``path`` (read as the arena
    reads its results), with the agent's seat."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("type") != "game":
                continue
            game = GameResult.from_json(record)
            if game.error is not None:
                continue
            for mine, theirs in (game.pairing, game.pairing[::-1]):
                if mine.startswith(agent) and theirs.startswith(against):
                    yield game, game.players.index(mine)
                    break


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
    args = parser.parse_args()
    solver = Connect4Solver()
    start = time.process_time()
    results: collections.Counter[str] = collections.Counter()
    lost_at_opening = 0
    error_plies: collections.Counter[int] = collections.Counter()
    for game, seat in games_of(args.games, args.agent, args.against):
        won = game.result == f"player_{seat}"
        results["won" if won else "drawn" if game.result == "draw" else "lost"] += 1
        if won:
            continue
        ply = first_error(solver, list(game.moves), seat, game.opening)
        if ply is None:
            lost_at_opening += 1
        else:
            error_plies[ply - game.opening + 1] += 1
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
