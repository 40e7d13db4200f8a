"""Gomoku 15 x 15 (freestyle) at the default budget: the default ``MCTSAgent()`` never misses
a win in one, a block of a closed or broken four, or a defence against an open or broken
three, on 38 hand-made positions, 10 seeds each (plain UCT at that budget misses them)."""

from __future__ import annotations

import pytest
from agents_helpers import play
from gomoku_helpers import PATTERNS, tactical_position

from agents import MCTSAgent
from connectn_env import gomoku_v0

COUNTS = {"win": 7, "win broken": 5, "closed four": 7, "broken four": 7, "open three": 7}
COUNTS["broken three"] = 5
CASES = [(kind, seed) for kind, count in COUNTS.items() for seed in range(count)]


def test_the_positions_cover_every_kind():
    assert set(COUNTS) == set(PATTERNS) and len(CASES) >= 30


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
