"""Agents take a win in one and block a loss in one, on both search paths."""

from __future__ import annotations

import pytest
from agents_helpers import (
    legal_actions,
    mover_wins,
    opponent_wins_next,
    play,
    pz_connect_four,
    pz_tictactoe,
)

from agents import MCTSAgent
from agents.envapi import native_state
from connectn_env import connect_n_v0, gomoku_v0, hex_v0


def _tictactoe():
    return connect_n_v0.env(rows=3, cols=3, n=3, gravity=False)


def _gomoku():
    return gomoku_v0.env(size=9)


def _hex():
    return hex_v0.env(size=5)


# (name, env factory, "win" or "block", moves leading to the position)
POSITIONS = [
    ("connect4", connect_n_v0.env, "win", [0, 1, 0, 1, 0, 1]),
    ("connect4", connect_n_v0.env, "block", [0, 1, 0, 1, 6, 1]),
    ("tictactoe", _tictactoe, "win", [0, 3, 1, 4]),
    ("tictactoe", _tictactoe, "block", [0, 4, 8, 2]),
    # first player: row 4, columns 2..5; second player must then stop 37..40 at 41
    ("gomoku", _gomoku, "win", [38, 0, 39, 8, 40, 72, 41, 80]),
    ("gomoku", _gomoku, "block", [36, 37, 8, 38, 72, 39, 80, 40]),
    # player_0 (top-bottom) has column 2 rows 0..3; player_1 has row 2 columns 0..3
    ("hex", _hex, "win", [2, 5, 7, 6, 12, 20, 17, 24]),
    ("hex", _hex, "block", [9, 10, 0, 11, 4, 12, 21, 13]),
    ("pz_tictactoe", pz_tictactoe, "win", [0, 3, 1, 4]),
    ("pz_tictactoe", pz_tictactoe, "block", [0, 4, 8, 2]),
    ("pz_connect4", pz_connect_four, "win", [0, 1, 0, 1, 0, 1]),
    ("pz_connect4", pz_connect_four, "block", [0, 1, 0, 1, 6, 1]),
]


def _cases():
    for name, make_env, kind, moves in POSITIONS:
        for backend in ["auto"] if name.startswith("pz_") else ["auto", "generic"]:
            yield pytest.param(make_env, kind, moves, backend, id=f"{name}-{kind}-{backend}")


@pytest.mark.parametrize(("make_env", "kind", "moves", "backend"), list(_cases()))
def test_takes_win_and_blocks_loss(make_env, kind, moves, backend):
    env = play(make_env, moves)
    legal = legal_actions(env)
    # the generic path is slower: enough simulations to expand every reply once or twice
    fast = backend == "auto" and native_state(env) is not None
    simulations = 3000 if fast else 300 if kind == "win" else 40 * len(legal)
    agent = MCTSAgent(simulations=simulations, seed=3, backend=backend, reuse_tree=False)
    if kind == "win":
        assert any(mover_wins(make_env, moves, a) for a in legal)  # the fixture is right
        result = agent.search(env)
        assert mover_wins(make_env, moves, result.action), result
        assert result.proven == "win"
        assert result.root_value == 1.0
    else:
        losing = [a for a in legal if opponent_wins_next(make_env, [*moves, a])]
        assert losing and len(losing) < len(legal)  # a threat that can be blocked
        action = agent.act(env)
        assert action not in losing


def test_generic_path_finds_forced_win_in_tictactoe():
    """x at 0 and 4, o at 8 and 1: x to move wins by force (fork) though not in one."""
    moves = [0, 8, 4, 1]
    agent = MCTSAgent(simulations=3000, seed=0, reuse_tree=False)
    result = agent.search(play(pz_tictactoe, moves))
    assert result.proven == "win"
    assert not mover_wins(pz_tictactoe, moves, result.action)  # a fork, not a line
    assert result.action in (2, 3, 6)
