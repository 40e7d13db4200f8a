"""benchmarks/othello_endgame.py: its ``games`` table on games built here, whose positions at
8 empty cells a brute force judges, and its ``speed`` table's shape."""

from __future__ import annotations

import json

import numpy as np
from benchmark_helpers import run_benchmark
from othello_helpers import brute_moves, empty_cells

from connectn_env.games import OthelloGame

NAMES = {1: "won", 0: "drawn", -1: "lost"}


def random_game(seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    state = OthelloGame().new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return state.history()


def judged(moves: list[int], seat: int) -> tuple[str, float]:
    """The brute force's result of ``seat``'s first position with at most 8 empty cells
    ("over before" if none), and ``seat``'s score in the game."""
    state = OthelloGame().new_initial_state()
    position = "over before"
    for action in moves:
        if empty_cells(state) <= 8 and state.current_player() == seat:
            position = NAMES[max(brute_moves(state).values())]
            break
        state.apply_action(action)
    final = OthelloGame().new_initial_state()
    for action in moves:
        final.apply_action(action)
    return position, (final.returns()[seat] + 1) / 2


def test_the_games_table_counts_what_a_brute_force_finds(tmp_path) -> None:
    games, expected = [], {}
    for seed in range(8):
        seat = seed % 2
        moves = random_game(seed)
        position, score = judged(moves, seat)
        colour = ("black", "white")[seat]
        games.append({"agent_colour": colour, "moves": moves, "result": score})
        key = (position, score)
        expected[key] = expected.get(key, 0) + 1
    record = {"agent": "random", "engine": ["gtp-rhino"], "level": 4, "games": games}
    path = tmp_path / "games.json"
    path.write_text(json.dumps(record))
    done = run_benchmark("othello_endgame.py", "games", str(path), "--empty", "8", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {}
    for line in done.stdout.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] in ("won", "drawn", "lost", "over before"):
            for score, count in zip((1.0, 0.5, 0.0), cells[1:], strict=True):
                if int(count):
                    rows[cells[0], score] = int(count)
    assert rows == expected
    mean = sum(game["result"] for game in games) / len(games)
    assert f"score {mean:.3f};" in done.stdout


def test_the_speed_table_has_a_row_per_count_of_empty_cells(tmp_path) -> None:
    done = run_benchmark(
        "othello_endgame.py", "speed", "--empty", "6", "8", "--positions", "2", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert [row.split("|")[1].strip() for row in rows[1:]] == ["6", "8"]
    assert all(row.split("|")[2].strip() == "2" for row in rows[1:])
