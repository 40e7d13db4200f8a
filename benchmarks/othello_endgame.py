"""Othello's exact endgame solver (``connectn_env/games/othello/exact.py``): its speed, and
where an agent's games against GRhino were decided.

``speed``: positions of seeded random games at each number of empty cells; for each, every
legal move solved (what the search agents' ``exact`` option asks), timed in CPU seconds
(``time.thread_time``); the table gives the median and the slowest, and the nodes per second::

    python benchmarks/othello_endgame.py speed --empty 12 14 16 18 20 --positions 20

``games``: the games of ``benchmarks/grhino_match.py --json`` files; for each game, the exact
result of the agent's first position with at most ``--empty`` empty cells (the agent to move)
against the game's result. Games lost from a won or drawn position were lost in the endgame;
games lost from a lost one, before it::

    python benchmarks/othello_endgame.py games benchmarks/results/grhino/*.json --empty 18
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from connectn_env.games import GameState, OthelloGame
from connectn_env.games.othello.exact import OthelloExact

UNLIMITED = 10**15
RESULT_NAMES = {1: "won", 0: "drawn", -1: "lost"}
SCORE_NAMES = {1.0: "won", 0.5: "drawn", 0.0: "lost"}  # a game's result for the agent


def empty_cells(state: GameState) -> int:
    return int(np.count_nonzero(state.board == 0))


def random_position(game: OthelloGame, seed: int, empty: int) -> GameState | None:
    """The first position of a uniformly random game (``seed``) with ``empty`` empty cells or
    fewer, None if the game ended before."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if empty_cells(state) <= empty:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return None


def solve_all(solver: OthelloExact, state: GameState) -> tuple[dict[int, tuple[int, int]], int]:
    """Every legal move of ``state`` solved: ``({action: (result, plies)}, nodes)``."""
    return solver.solve_moves(state, state.legal_actions(), UNLIMITED)


def speed(empties: Sequence[int], positions: int) -> list[str]:
    """The speed table's lines."""
    game = OthelloGame()
    solver = game.exact_solver()
    solve_all(solver, next(filter(None, (random_position(game, s, 8) for s in range(99)))))
    lines = [
        "| empty cells | positions | median CPU s | slowest CPU s | median nodes | nodes/s |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for empty in empties:
        seconds, nodes = [], []
        seed = 0
        while len(seconds) < positions:
            state = random_position(game, seed, empty)
            seed += 1
            if state is None or empty_cells(state) != empty:
                continue
            began = time.thread_time()
            _, used = solve_all(solver, state)
            seconds.append(time.thread_time() - began)
            nodes.append(used)
        rate = sum(nodes) / max(sum(seconds), 1e-9)
        lines.append(
            f"| {empty} | {positions} | {statistics.median(seconds):.4f} | {max(seconds):.3f} "
            f"| {statistics.median(nodes):,.0f} | {rate:,.0f} |"
        )
    return lines


def decided(paths: Sequence[Path], empty: int) -> list[str]:
    """The games table's lines: per file, games by the exact result of the agent's first
    position with at most ``empty`` empty cells, against their results."""
    game = OthelloGame()
    solver = game.exact_solver()
    lines = []
    for path in paths:
        record = json.loads(path.read_text())
        table: collections.Counter[tuple[str, str]] = collections.Counter()
        for played in record["games"]:
            seat = 0 if played["agent_colour"] == "black" else 1
            state = game.new_initial_state()
            position = "over before"
            for action in played["moves"]:
                if empty_cells(state) <= empty and state.current_player() == seat:
                    results, _ = solve_all(solver, state)
                    position = RESULT_NAMES[max(result for result, _ in results.values())]
                    break
                state.apply_action(action)
            table[position, SCORE_NAMES[played["result"]]] += 1
        lines += [
            f"{path}: {record['agent']} against {' '.join(record['engine'])}, "
            f"{len(record['games'])} games; the agent's position at {empty} empty cells or "
            "fewer (rows) against the game's result (columns)",
            "| position | won | drawn | lost |",
            "|---|---:|---:|---:|",
        ]
        for position in ("won", "drawn", "lost", "over before"):
            counts = [table[position, result] for result in ("won", "drawn", "lost")]
            if any(counts):
                lines.append(f"| {position} | " + " | ".join(map(str, counts)) + " |")
        value = {name: score for score, name in SCORE_NAMES.items()}
        perfect = sum(
            count * value[result if position == "over before" else position]
            for (position, result), count in table.items()
        )
        lines.append(
            f"score {sum(g['result'] for g in record['games']) / len(record['games']):.3f}; "
            f"with perfect play from there {perfect / len(record['games']):.3f} (GRhino's own "
            "errors after that point not counted)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    timing = commands.add_parser("speed", help="the solver's speed by empty cells")
    timing.add_argument("--empty", type=int, nargs="+", default=[12, 14, 16, 18])
    timing.add_argument("--positions", type=int, default=20)
    games = commands.add_parser("games", help="where games against GRhino were decided")
    games.add_argument("files", type=Path, nargs="+")
    games.add_argument("--empty", type=int, default=18)
    args = parser.parse_args(argv)
    if args.command == "speed":
        lines = speed(args.empty, args.positions)
    else:
        lines = decided(args.files, args.empty)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
