"""The default agent keeps a draw its search proved (issue 43, item 9), judged by the perfect
solver on drawn Connect Four positions (``tests/data/connect4_drawn.json``, made by
``benchmarks/connect4_drawn_positions.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents import MCTSAgent
from connectn_env import connect_n_v0
from connectn_env.games.connect_n.solver import Connect4Solver, parse_columns
from connectn_env.ladder.positions import Position, load_positions

DRAWN = Path(__file__).parent / "data" / "connect4_drawn.json"
SIMULATIONS = 10_000
SEEDS = (0, 1, 2)


def searched(position: Position, seed: int, **options: object):
    """The search result of a fresh ``MCTSAgent`` in ``position``."""
    env = connect_n_v0.env()
    env.reset()
    for action in position.moves:
        env.step(action)
    return MCTSAgent(simulations=SIMULATIONS, seed=seed, **options).search(env)


def test_the_drawn_set_is_solved_drawn_positions_8_to_20_plies_in_with_a_losing_move() -> None:
    positions = load_positions(DRAWN)
    assert len(positions) == 40
    assert all(8 <= len(p.moves) <= 20 and p.best == 0 for p in positions)
    assert all(any(score < 0 for score in p.scores.values()) for p in positions)


@pytest.mark.parametrize(
    ("moves", "seed"),
    [
        # proven draws 2, 4 and 7; column 5 (a loss the opponent can hold to a draw for
        # long) was as well visited, with a mean near 0, and played
        ("7112665176621767345", 1),
        ("4253571416332243", 2),  # proven draw 5; column 3, a loss, played
    ],
)
def test_a_proven_draw_is_kept_rather_than_an_open_move_searched_more(moves, seed) -> None:
    columns = parse_columns(moves)
    position = Position(tuple(columns), Connect4Solver().move_scores(columns))
    assert position.best == 0
    result = searched(position, seed)
    assert "draw" in result.proven_moves.values()
    assert result.proven_moves.get(result.action) == "draw"
    assert position.keeps(result.action)


def test_on_the_drawn_set_every_draw_the_default_search_proves_is_kept() -> None:
    """Wherever the default agent's search proves a move a draw (its exact solver: Connect
    Four from the 10th stone; a result plain UCT cannot see), it keeps the draw; plain UCT,
    which proves nothing there, loses some of those positions."""
    proved = kept = uct_kept = 0
    for position in load_positions(DRAWN):
        for seed in SEEDS:
            result = searched(position, seed)
            if "draw" not in result.proven_moves.values():
                continue
            proved += 1
            kept += position.keeps(result.action)
            uct_kept += position.keeps(searched(position, seed, preset="uct").action)
    assert proved >= 3
    assert kept == proved
    assert uct_kept < proved
