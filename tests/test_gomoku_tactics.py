"""Gomoku 15 x 15 (freestyle) at the default budget: the default ``MCTSAgent()`` never misses
a win in one, a block of a closed or broken four, or a defence against an open or broken
three, on 38 hand-made positions, 10 seeds each (plain UCT at that budget misses them)."""

from __future__ import annotations

import numpy as np
import pytest
from agents_helpers import play
from gomoku_helpers import (
    PATTERNS,
    double_threat_moves,
    four_making_moves,
    tactical_position,
    threats,
    windows,
)

from agents import MCTSAgent
from connectn_env import gomoku_v0

COUNTS = {"win": 7, "win broken": 5, "closed four": 7, "broken four": 7, "open three": 7}
COUNTS["broken three"] = 5
CASES = [(kind, seed) for kind, count in COUNTS.items() for seed in range(count)]


def test_the_positions_cover_every_kind():
    assert set(COUNTS) == set(PATTERNS) and len(CASES) >= 30


def test_the_threat_searches_find_what_trying_every_empty_cell_finds():
    """They try only the cells that can make a threat; on crowded random 9 x 9 boards they
    find the same moves as trying every empty cell."""
    lines = windows(9, 9)
    rng = np.random.default_rng(0)
    found = 0
    for _ in range(60):
        flat = rng.choice(3, size=81, p=[0.5, 0.25, 0.25])
        for player in (0, 1):
            every = []
            for move in np.flatnonzero(flat == 0):
                flat[move] = player + 1
                every.append((int(move), len(threats(flat, lines, player))))
                flat[move] = 0
            assert four_making_moves(flat, lines, player) == {m for m, n in every if n >= 1}
            assert double_threat_moves(flat, lines, player) == {m for m, n in every if n >= 2}
            found += any(n >= 2 for _, n in every)
    assert found >= 10  # the boards have double threats to find


@pytest.mark.parametrize(("kind", "seed"), CASES, ids=[f"{k}-{s}" for k, s in CASES])
def test_default_agent_never_misses_the_tactic(kind, seed):
    state, answers = tactical_position(kind, seed)
    env = play(lambda: gomoku_v0.env(size=15), state.history())
    assert 0 < len(answers) < 20
    for agent_seed in range(10):
        result = MCTSAgent(seed=agent_seed).search(env)
        assert result.action in answers, (agent_seed, result.action, answers)
        if kind.startswith("win"):
            assert result.proven == "win"


def test_plain_uct_misses_blocks_at_the_default_budget():
    """The positions are not trivial: plain UCT at the same budget misses some of them."""
    misses = 0
    for kind, seed in CASES:
        if kind.startswith("win"):
            continue
        state, answers = tactical_position(kind, seed)
        env = play(lambda: gomoku_v0.env(size=15), state.history())
        misses += MCTSAgent(seed=0, preset="uct").act(env) not in answers
    assert misses >= 10
