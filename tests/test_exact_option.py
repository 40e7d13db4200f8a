"""The search agents' ``exact`` option: the game's exact solver proves root moves into the
tree. Move results and proven line lengths against a brute force on a small board, the agent
against the perfect solver on Connect Four positions, where the option applies, bad input
(Gomoku's threat-space solver has its own tests in ``test_threat_space.py``)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from connect4_helpers import COLS, ROWS, columns_of, dropped, wins
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agents import MCTSAgent
from connectn_env import connect_n_v0, hex_v0
from connectn_env.games import ConnectNGame, GomokuGame, HexGame
from connectn_env.games.connect_n.solver import UNLIMITED, Connect4Solver, parse_columns
from connectn_env.specs import parse_agent_spec


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether (result, plies) ``a`` is better than ``b`` for the player to move: a higher
    result, then the faster win or the slower loss."""
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1]


@cache
def brute_moves(columns: tuple[str, ...]) -> dict[int, tuple[int, int]]:
    """``{column: (result, plies after it to the end)}`` in perfect play (fastest win, slowest
    loss), by brute force over every continuation."""
    plies = sum(map(len, columns))
    results = {}
    for col in range(COLS):
        if len(columns[col]) == ROWS:
            continue
        after = dropped(columns, col)
        if wins(after, col):
            results[col] = (1, 0)
        elif plies + 1 == ROWS * COLS:
            results[col] = (0, 0)
        else:
            best = None
            for reply in brute_moves(after).values():
                if best is None or _better(reply, best):
                    best = reply
            results[col] = (-best[0], best[1] + 1)
    return results


def _random_state(game: ConnectNGame, seed: int, plies: int):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(8, 16))
def test_move_results_and_line_lengths_agree_with_brute_force(seed, plies):
    game = ConnectNGame(rows=ROWS, cols=COLS, n=4)
    state = _random_state(game, seed, plies)
    if state.is_terminal():
        return
    legal = [int(a) for a in state.legal_actions()]
    results, _ = game.exact_solver().solve_moves(state, legal, UNLIMITED)
    assert results == brute_moves(columns_of(state.history()))


def test_a_small_node_budget_proves_part_or_nothing_and_says_so():
    game = ConnectNGame()
    state = game.new_initial_state()
    for move in parse_columns("4453"):
        state.apply_action(move)
    results, used = game.exact_solver().solve_moves(state, list(range(7)), 1000)
    assert used == 1000
    assert len(results) < 7  # an early position: far beyond 1,000 nodes


def _env_after(moves: list[int]):
    env = connect_n_v0.env()
    env.reset()
    for move in moves:
        env.step(move)
    return env


@pytest.mark.parametrize("moves", ["427631264721", "335662333565", "157564142155"])
def test_the_agent_plays_a_best_move_of_a_solvable_position(moves):
    columns = parse_columns(moves)
    scores = Connect4Solver().move_scores(columns)
    best = max(scores.values())
    env = _env_after(columns)
    result = MCTSAgent(exact=True, simulations=200_000, seed=0).search(env)
    assert scores[result.action] == best
    assert result.proven == ("win" if best > 0 else "loss" if best < 0 else "draw")
    for action, proven in result.proven_moves.items():
        assert proven == ("win" if scores[action] > 0 else "loss" if scores[action] < 0 else "draw")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(14, 30))
@example(seed=1655, plies=14)  # a proven win, not the fastest one: 3 wins later than 1, 4, 5
def test_proven_moves_agree_with_the_perfect_solver(seed, plies):
    """Every move the search proves has the solver's result, and a proven root plays a move
    that keeps it. (The shortest win among the proven ones, not necessarily the solver's
    fastest: a faster win the budget did not prove is not known to the search.)"""
    state = _random_state(ConnectNGame(), seed, plies)
    if state.is_terminal():
        return
    moves = [int(a) for a in state.history()]
    scores = Connect4Solver().move_scores(moves)
    result = MCTSAgent(exact=True, simulations=20_000, seed=seed).search(_env_after(moves))
    for action, proven in result.proven_moves.items():
        assert proven == ("win" if scores[action] > 0 else "loss" if scores[action] < 0 else "draw")
    if result.proven is not None:
        assert np.sign(scores[result.action]) == np.sign(max(scores.values()))


def test_a_time_limit_shares_the_time_and_finds_the_win():
    columns = parse_columns("427631264721")
    result = MCTSAgent(exact=True, time_limit=2.0, seed=0).search(_env_after(columns))
    assert result.proven == "win"
    assert result.elapsed < 2.5


def test_the_defaults_use_a_solver_where_the_game_has_one():
    agent = MCTSAgent()
    assert agent.options_for(ConnectNGame()).exact is True
    assert agent.options_for(GomokuGame()).exact is True  # its threat-space search
    assert agent.options_for(HexGame()).exact is False
    assert agent.options_for(ConnectNGame(rows=3, cols=3, n=3, gravity=False)).exact is False
    assert agent.options_for(ConnectNGame(n=5)).exact is False
    assert MCTSAgent(preset="uct").options_for(ConnectNGame()).exact is False
    assert parse_agent_spec("mcts:exact=false,simulations=10").build(0).exact is False


def test_bad_exact_options_are_refused_and_change_nothing():
    with pytest.raises(TypeError, match="exact"):
        MCTSAgent(exact="yes")
    with pytest.raises(ValueError, match="exact=True cannot run on backend='generic'"):
        MCTSAgent(exact=True, backend="generic")
    env = hex_v0.env(size=5)
    env.reset()
    before = env.unwrapped.game_state.clone()
    with pytest.raises(ValueError, match="exact=True needs a game with an exact solver"):
        MCTSAgent(exact=True, simulations=10).search(env)
    assert env.unwrapped.game_state == before


def test_the_solver_is_only_tried_where_it_usually_finishes():
    game = ConnectNGame()
    state = game.new_initial_state()
    solver = game.exact_solver()
    assert not solver.reaches(state)  # the empty board: a search's opening keeps its time
    for move in [3, 3, 2, 4, 2, 2, 4, 4, 3, 1]:
        state.apply_action(move)
    assert solver.reaches(state)  # 10 stones: 32 empty cells
    # an early position the opening book does not hold (its positions are answered from it)
    result = MCTSAgent(simulations=500, seed=0).search(_env_after([3, 2, 3]))
    assert result.simulations == 500 and result.proven is None


def test_a_progress_callback_stops_the_search_while_the_solver_works():
    env = _env_after([3, 3, 2, 4, 2, 2, 4, 4, 3, 1, 1])  # about a second to solve every move
    calls = []

    def stop(simulations, elapsed, value):
        calls.append(simulations)
        return True

    result = MCTSAgent(time_limit=30.0, seed=0).search(env, progress=stop)
    assert calls == [1]  # heard after the first slice of the solver, before any simulation
    assert result.elapsed < 1.0
    assert env.unwrapped.game_state.legal_action_mask()[result.action]
