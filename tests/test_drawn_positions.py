"""The default agent keeps a draw its search proved (issue 43, item 9), and every draw plain
UCT keeps where its exact solver reaches, judged by the perfect solver on drawn Connect Four
positions (``tests/data/connect4_drawn*.json``, made by
``benchmarks/connect4_drawn_positions.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents import MCTSAgent
from connectn_env import connect_n_v0
from connectn_env.games.connect_n.solver import Connect4Solver, parse_columns
from connectn_env.ladder.positions import Position, load_positions

DRAWN = Path(__file__).parent / "data" / "connect4_drawn.json"  # 8 to 20 plies in
DRAWN_LATE = Path(__file__).parent / "data" / "connect4_drawn_late.json"  # 14 to 20
SIMULATIONS = 10_000
SEEDS = (0, 1, 2)


def searched(position: Position, seed: int, **options: object):
    """The search result of a fresh ``MCTSAgent`` in ``position``."""
    env = connect_n_v0.env()
    env.reset()
    for action in position.moves:
        env.step(action)
    return MCTSAgent(simulations=SIMULATIONS, seed=seed, **options).search(env)


@pytest.mark.parametrize(("path", "low"), [(DRAWN, 8), (DRAWN_LATE, 14)])
def test_the_drawn_sets_are_solved_drawn_positions_with_a_losing_move(path, low) -> None:
    positions = load_positions(path)
    assert len(positions) == 40
    assert all(low <= len(p.moves) <= 20 and p.best == 0 for p in positions)
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


def test_where_the_exact_solver_reaches_the_default_keeps_every_draw_plain_uct_keeps() -> None:
    """From 14 stones on (the solver proves some of the root's moves within 8 nodes per
    simulation), per seed. Earlier, where it proves nothing (11 to 13 stones took 1.3 to 13.7
    million nodes to score every move, against 80,000), the play-out policies decide, and
    each loses drawn positions the other keeps."""
    for seed in SEEDS:
        default_lost, uct_lost = [], []
        for number, position in enumerate(load_positions(DRAWN_LATE)):
            if not position.keeps(searched(position, seed).action):
                default_lost.append(number)
            if not position.keeps(searched(position, seed, preset="uct").action):
                uct_lost.append(number)
        assert set(default_lost) <= set(uct_lost), (seed, default_lost, uct_lost)
        assert len(default_lost) < len(uct_lost)
