"""benchmarks/connect4_first_errors.py on games built here from the shipped opening suite,
whose first errors are known (a missed winning move right after the opening, a lost opening
converted by the perfect player, the agent's win), and on games the arena played."""

from __future__ import annotations

import json
from pathlib import Path

from benchmark_helpers import run_benchmark

from connectn_env.arena.results import GameResult
from connectn_env.cli import main
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
    """A game record as the arena writes it: ``opening`` of ``moves`` were the opening's."""
    players = ("agent", "perfect") if agent_seat == 0 else ("perfect", "agent")
    result = "draw" if winner is None else f"player_{winner}"
    record = GameResult(
        ("agent", "perfect"), 0, players, result, moves=tuple(moves), opening=opening
    )
    return {"type": "game"} | record.to_json()


def first_errors(games: Path, agent: str, against: str, cwd: Path) -> list[str]:
    done = run_benchmark(
        "connect4_first_errors.py", str(games), "--agent", agent, "--against", against, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_it_finds_the_missed_winning_move_and_the_lost_openings(tmp_path) -> None:
    solver = Connect4Solver()
    openings = json.loads(SUITE.read_text())["openings"]
    opening = next(o for o in openings if solver.solve(o) > 0)
    mover = len(opening) % 2  # the seat to move after the opening: it is won for it
    scores = solver.move_scores(opening)
    missed = min(column for column, score in scores.items() if score <= 0)
    blunder, blunder_winner = perfect_finish(solver, [*opening, missed])
    converted, converted_winner = perfect_finish(solver, opening)
    assert converted_winner == mover and blunder_winner != mover
    records = [
        game(blunder, mover, blunder_winner, len(opening)),  # the agent errs at once
        game(converted, 1 - mover, converted_winner, len(opening)),  # its opening was lost
        game(converted, mover, converted_winner, len(opening)),  # it wins
    ]
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(record) + "\n" for record in records))
    lines = first_errors(games, "agent", "perfect", tmp_path)
    drawn, lost = (1, 0) if blunder_winner is None else (0, 1)
    assert lines[0] == f"agent against perfect: 3 games, won 1, drawn {drawn}, lost {lost + 1}"
    assert lines[1] == (
        "not won: 2; decided by the opening (no error of the agent's): 1; "
        "by an error of the agent's: 1"
    )
    assert lines[2].endswith("(1: the first move after it): 1: 1")


def test_the_perfect_player_makes_no_error_in_games_the_arena_played(tmp_path) -> None:
    """Games from the shipped suite's first opening, colours swapped: whatever the opening's
    random moves did, the perfect player's own moves never worsen its result."""
    games = tmp_path / "games.jsonl"
    main([
        "arena", "connect_four", "perfect", "ab:depth=1", "--openings", str(SUITE),
        "--games", "4", "--workers", "1", "--out", str(games), "--no-progress",
    ])  # fmt: skip
    lines = first_errors(games, "perfect", "ab:depth=1", tmp_path)
    assert lines[0].startswith("perfect against ab:depth=1: 4 games")
    assert lines[1].endswith("by an error of the agent's: 0")
