"""benchmarks/connect4_first_errors.py on games built here from the shipped opening suite,
whose first errors are known: a missed winning move right after the opening, a lost
opening converted by the perfect player, and the agent's win."""

from __future__ import annotations

import json
from pathlib import Path

from benchmark_helpers import run_benchmark

from connectn_env.games.connect_n.solver import Connect4Solver

SUITE = Path(__file__).parents[1] / "connectn_env/ladder/data/openings/connect_four.json"


def perfect_finish(solver: Connect4Solver, moves: list[int]) -> tuple[list[int], int | None]:
    """``moves`` played on by the perfect player for both sides; the winner's seat (None: a
    draw)."""
    moves = list(moves)
    while len(moves) < 42:
        column, score = solver.best_move(moves)
        if score == (43 - len(moves)) // 2:  # a win at once
            return [*moves, column], len(moves) % 2
        moves.append(column)
    return moves, None


def game(moves: list[int], agent_seat: int, winner: int | None, opening: int) -> dict:
    players = ["agent", "perfect"] if agent_seat == 0 else ["perfect", "agent"]
    return {
        "type": "game",
        "pairing": ["agent", "perfect"],
        "players": players,
        "result": "draw" if winner is None else f"player_{winner}",
        "error": None,
        "moves": moves,
        "opening": opening,
    }


def test_it_finds_the_missed_winning_move_and_the_lost_openings(tmp_path) -> None:
    solver = Connect4Solver()
    openings = json.loads(SUITE.read_text())["openings"]
    index = next(i for i, o in enumerate(openings) if solver.solve(o) > 0)
    opening = openings[index]
    mover = len(opening) % 2  # the seat to move after the opening: it is won for it
    scores = solver.move_scores(opening)
    missed = min(column for column, score in scores.items() if score <= 0)
    blunder, blunder_winner = perfect_finish(solver, [*opening, missed])
    converted, converted_winner = perfect_finish(solver, opening)
    assert converted_winner == mover and blunder_winner != mover
    games = tmp_path / "games.jsonl"
    records = [
        game(blunder, mover, blunder_winner, index),  # the agent errs at once
        game(converted, 1 - mover, converted_winner, index),  # its opening was lost
        game(converted, mover, converted_winner, index),  # it wins
        {"type": "game", "pairing": ["other", "perfect"], "players": ["other", "perfect"]},
    ]
    games.write_text("".join(json.dumps(record) + "\n" for record in records))
    done = run_benchmark(
        "connect4_first_errors.py", str(games), "--agent", "agent", "--against", "perfect",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    drawn, lost = (1, 0) if blunder_winner is None else (0, 1)
    assert lines[0] == f"agent against perfect: 3 games, won 1, drawn {drawn}, lost {lost + 1}"
    assert lines[1] == (
        "not won: 2; decided by the opening (no error of the agent's): 1; "
        "by an error of the agent's: 1"
    )
    assert lines[2].endswith("(1: the first move after it): 1: 1")
