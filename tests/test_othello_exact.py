"""Othello's exact endgame solver (connectn_env/games/othello/exact.py) and the search agents'
``exact`` option on it: move results against a brute force over the game's own rules, node
budgets, where it applies, and the PUCT and AlphaZero agents playing what it proves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from othello_helpers import brute_moves, empty_cells, picture, random_positions

from agents import MCTSAgent, PUCTAgent
from connectn_env import connect_n_v0, hex_v0, othello_v0
from connectn_env.games import GameState, OthelloGame
from connectn_env.games.othello.exact import REACH_EMPTY_CELLS

UNLIMITED = 10**12


def endgame(game: OthelloGame, seed: int, empty: int) -> GameState | None:
    """The first position of a random game with at most ``empty`` empty cells, if it is not
    over."""
    for state in random_positions(game, seed):
        if empty_cells(state) <= empty:
            return None if state.is_terminal() else state
    return None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([6, 8]), empty=st.integers(1, 8))
def test_move_results_agree_with_brute_force(seed, size, empty):
    game = OthelloGame(size=size)
    state = endgame(game, seed, empty)
    if state is None:
        return
    solved, used = game.exact_solver().solve_moves(state, state.legal_actions(), UNLIMITED)
    assert {action: proof[0] for action, proof in solved.items()} == brute_moves(state)
    assert 0 < used < UNLIMITED
    for action, (_, plies) in solved.items():
        after = state.clone()
        after.apply_action(action)
        assert (plies == 0) == after.is_terminal()
        assert plies <= 2 * empty_cells(state)  # a placement or a pass per ply, no two passes


def test_a_forced_pass_is_solved_as_the_pass_action():
    game = OthelloGame(size=6)
    board = picture(
        """
        x x x x x x
        x x x x x x
        x x x x x x
        x x x x o x
        x x x x o .
        x x x x . .
        """
    )
    state = game.position(board, player=1)  # o cannot place: it must pass
    assert state.legal_actions() == [game.pass_action]
    solved, _ = game.exact_solver().solve_moves(state, [game.pass_action], UNLIMITED)
    assert list(solved) == [game.pass_action]
    assert solved[game.pass_action][0] == brute_moves(state)[game.pass_action] == -1


def test_a_small_node_budget_proves_part_or_nothing_and_says_so():
    game = OthelloGame()
    state = next(s for seed in range(50) if (s := endgame(game, seed, 14)) is not None)
    legal = state.legal_actions()
    solver = game.exact_solver()
    full, full_used = solver.solve_moves(state, legal, UNLIMITED)
    assert set(full) == set(legal)
    part, used = solver.solve_moves(state, legal, full_used // 2)
    assert len(part) < len(legal) and used <= full_used // 2
    assert all(full[action] == proof for action, proof in part.items())


def test_the_solver_is_tried_from_its_reach_on_bitboards_only():
    game = OthelloGame()
    solver = game.exact_solver()
    positions = random_positions(game, 3)
    reached = [solver.reaches(state) for state in positions]
    assert reached == [empty_cells(state) <= REACH_EMPTY_CELLS for state in positions]
    assert any(reached) and not all(reached)
    assert OthelloGame(size=10).exact_solver() is None


def _solvable_position(empty: int = 14) -> tuple[object, dict[int, int]]:
    """An Othello env ``empty`` cells from the end (random play, seed 4), not over, and the
    results of its moves (the solver's, which the tests above check against brute force)."""
    env = othello_v0.env()
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while empty_cells(env.unwrapped.game_state) > empty:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    state = env.unwrapped.game_state
    solved, _ = state.game.exact_solver().solve_moves(state, state.legal_actions(), UNLIMITED)
    return env, {action: proof[0] for action, proof in solved.items()}


def test_puct_with_exact_plays_a_best_move_and_reports_the_proofs():
    env, results = _solvable_position()
    best = max(results.values())
    uniform = lambda observation: (observation["action_mask"], 0.0)  # noqa: E731
    for agent in (
        PUCTAgent(simulations=2000, exact=True, seed=0),  # 16,000 solver nodes: some proven
        PUCTAgent(uniform, simulations=200, exact=True, seed=0),  # 2,000,000: all
    ):
        result = agent.search(env)
        assert results[result.action] == best
        names = {1: "win", 0: "draw", -1: "loss"}
        assert result.proven_moves and all(
            names[results[action]] == proven for action, proven in result.proven_moves.items()
        )


def test_mcts_with_exact_proves_every_move_of_a_small_endgame():
    env, results = _solvable_position(10)
    result = MCTSAgent(simulations=1000, exact=True, seed=0).search(env)  # 8,000 nodes
    names = {1: "win", 0: "draw", -1: "loss"}
    assert result.proven_moves == {action: names[value] for action, value in results.items()}
    assert results[result.action] == max(results.values())


def test_exact_is_off_by_default_and_refused_where_it_cannot_run():
    assert PUCTAgent().exact is False
    assert MCTSAgent().options_for(OthelloGame()).exact is False  # not a game default here
    env = hex_v0.env(size=5)
    env.reset()
    with pytest.raises(ValueError, match="exact=True needs one of this suite's games"):
        PUCTAgent(exact=True).search(env)
    with pytest.raises(ValueError, match="exact=True cannot run on backend='generic'"):
        PUCTAgent(exact=True, backend="generic")
    with pytest.raises(TypeError, match="exact"):
        PUCTAgent(exact="yes")


def test_puct_with_exact_plays_the_connect_four_book_move():
    env = connect_n_v0.env()
    env.reset()
    result = PUCTAgent(simulations=50, exact=True, seed=0).search(env)
    assert result.action == 3 and result.proven == "win"
    assert result.pi[3] == 1.0 and result.principal_variation == (3,)


def test_the_network_agent_takes_exact_from_its_spec():
    pytest.importorskip("torch")
    from connectn_env.specs import resolve_agent

    env, results = _solvable_position()
    agent = resolve_agent("az:pretrained,simulations=50,exact=true", env.unwrapped.game)
    assert agent.exact is True
    assert results[agent.search(env).action] == max(results.values())
