"""Property tests over every registered game, random parameters and random games (Hypothesis).

Each game plugin's brute-force reference (``<plugin>.reference.new_reference_state``: plain
Python, full-board scans) replays the same games: the compiled kernels' incremental rules must
agree with it on every position. Copies, the legal mask and history replay are checked on
every position of the generated games; winning lines and chains against their definitions.
"""

from __future__ import annotations

import copy
import importlib
import pickle
from collections import deque

import numpy as np
from aec_helpers import play_to_end, snapshot
from games_helpers import random_positions, registered_games
from hypothesis import given, settings
from hypothesis import strategies as st

from connectn_env import ENV_MODULES, TERMINAL_PLAYER, IllegalActionError
from connectn_env.games import BoardGame, ConnectNGame, GomokuGame, HexGame

HEX_NEIGHBOURS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1))
SETTINGS = settings(max_examples=150, deadline=None)
SEEDS = st.integers(0, 2**32 - 1)


def reference_for(game: BoardGame):
    """The plugin's brute-force reference position of ``game``'s start."""
    module = importlib.import_module(f"{type(game).__module__}.reference")
    return module.new_reference_state(game)


def hex_distances(board: np.ndarray, stone: int) -> dict[tuple[int, int], int]:
    """BFS distance (in stones) of each ``stone`` cell reachable from its player's first edge."""
    rows, cols = board.shape
    starts = [(0, c) for c in range(cols)] if stone == 1 else [(r, 0) for r in range(rows)]
    dist = {cell: 1 for cell in starts if board[cell] == stone}
    queue = deque(dist)
    while queue:
        r, c = queue.popleft()
        for dr, dc in HEX_NEIGHBOURS:
            nxt = (r + dr, c + dc)
            on_board = 0 <= nxt[0] < rows and 0 <= nxt[1] < cols
            if on_board and board[nxt] == stone and nxt not in dist:
                dist[nxt] = dist[(r, c)] + 1
                queue.append(nxt)
    return dist


def hex_shortest_chain(board: np.ndarray, stone: int) -> int | None:
    """Length of the shortest edge-to-edge chain of ``stone``, None if not connected."""
    rows, cols = board.shape
    axis, last = (0, rows - 1) if stone == 1 else (1, cols - 1)
    ends = [d for cell, d in hex_distances(board, stone).items() if cell[axis] == last]
    return min(ends, default=None)


# --- properties --------------------------------------------------------------------------


@SETTINGS
@given(game=registered_games(), seed=SEEDS)
def test_kernels_match_the_brute_force_reference(game: BoardGame, seed: int) -> None:
    reference = reference_for(game)
    for state in random_positions(game, seed):
        history = state.history()
        if history:
            reference.apply(history[-1])
        assert state.outcome == reference.outcome()
        assert np.array_equal(state.board, reference.board)
        assert state.legal_actions() == reference.legal_actions()
        assert state.move_number == len(history)
        expected_player = TERMINAL_PLAYER if state.is_terminal() else reference.current_player()
        assert state.current_player() == expected_player
    assert state.is_terminal()
    assert sum(state.returns()) == 0
    cells = state.winning_cells()
    assert cells == sorted(cells)
    assert all(state.board[cell] == state.winner + 1 for cell in cells)


@SETTINGS
@given(game=registered_games([ConnectNGame, GomokuGame]), seed=SEEDS)
def test_k_in_a_row_winning_cells_are_a_winning_run_through_the_last_stone(
    game: BoardGame, seed: int
) -> None:
    state = random_positions(game, seed)[-1]
    reference = reference_for(game)
    for action in state.history():
        reference.apply(action)
    cells = state.winning_cells()
    if state.winner is None:
        assert cells == []
        return
    runs = [sorted(run) for run in reference.winning_runs(state.winner + 1)]
    assert cells in runs
    assert state.last_move_cell() in cells


@SETTINGS
@given(game=registered_games([HexGame]), seed=SEEDS)
def test_hex_winning_cells_are_a_shortest_chain_between_the_sides(game: BoardGame, seed: int):
    state = random_positions(game, seed)[-1]
    board, winner, cells = state.board, state.winner, state.winning_cells()
    stone = winner + 1
    assert len(cells) == hex_shortest_chain(board, stone)
    dist = hex_distances(board, stone)
    assert all(cell in dist for cell in cells)  # reachable from the first edge
    edge = [r for r, _ in cells] if winner == 0 else [c for _, c in cells]
    assert min(edge) == 0
    assert max(edge) == (game.rows if winner == 0 else game.cols) - 1


@SETTINGS
@given(game=registered_games(), seed=SEEDS)
def test_legal_mask_is_exactly_what_apply_action_accepts(game: BoardGame, seed: int) -> None:
    for state in random_positions(game, seed):
        mask = state.legal_action_mask()
        assert mask.dtype == np.int8
        assert mask.shape == (game.num_distinct_actions(),)
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        for action in range(-2, game.num_actions + 2):
            trial = state.clone()
            try:
                trial.apply_action(action)
            except IllegalActionError:
                assert action not in range(game.num_actions) or mask[action] == 0
                assert np.array_equal(trial.data, state.data), "a failed move changed the state"
            else:
                assert 0 <= action < game.num_actions
                assert mask[action] == 1
                assert trial.history() == [*state.history(), action]


@SETTINGS
@given(game=registered_games(), seed=SEEDS)
def test_history_replays_to_the_same_state(game: BoardGame, seed: int) -> None:
    for state in random_positions(game, seed)[-3:]:
        replay = game.new_initial_state()
        for action in state.history():
            replay.apply_action(action)
        assert np.array_equal(replay.data, state.data)
        assert replay == state
        assert hash(replay) == hash(state)


COPIES = {
    "clone": lambda obj: obj.clone(),
    "deepcopy": copy.deepcopy,
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj)),
}


@SETTINGS
@given(
    game=registered_games(),
    seed=SEEDS,
    how=st.sampled_from(sorted(COPIES)),
    fraction=st.floats(0, 1),
)
def test_state_copies_are_equal_and_independent(
    game: BoardGame, seed: int, how: str, fraction: float
) -> None:
    positions = random_positions(game, seed)
    state = positions[int(fraction * (len(positions) - 1))]
    saved = state.data.copy()
    twin = COPIES[how](state)
    assert twin is not state and twin.data is not state.data
    assert twin.game == state.game
    assert twin.history() == state.history()
    assert np.array_equal(twin.data, state.data)
    for player in (0, 1):
        assert np.array_equal(twin.observation(player), state.observation(player))
    assert twin.legal_actions() == state.legal_actions()
    assert twin.outcome == state.outcome
    if not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[-1])
        assert np.array_equal(state.data, saved), "the copy shares memory with the original"
        assert twin.move_number == state.move_number + 1


@SETTINGS
@given(
    game=registered_games(),
    wrapped=st.booleans(),
    how=st.sampled_from(["deepcopy", "pickle"]),
    moves=st.integers(0, 12),
    seed=SEEDS,
)
def test_env_copies_keep_the_game_and_continue_identically(
    game: BoardGame, wrapped: bool, how: str, moves: int, seed: int
) -> None:
    module = ENV_MODULES[f"{game.name}_v0"]
    env = module.env(**game.parameters) if wrapped else module.raw_env(**game.parameters)
    env.reset()
    for _ in range(moves):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = COPIES[how](env)
    before = snapshot(env)
    assert snapshot(twin) == before
    assert twin.unwrapped.game_state == env.unwrapped.game_state
    seen_twin = play_to_end(twin, np.random.default_rng(seed))
    assert snapshot(env) == before, "stepping the copy changed the original"
    assert play_to_end(env, np.random.default_rng(seed)) == seen_twin


@SETTINGS
@given(game=registered_games(), seed=SEEDS)
def test_observation_planes_match_the_board(game: BoardGame, seed: int) -> None:
    state = random_positions(game, seed)[-1]
    board = state.board
    for player in (0, 1):
        planes = state.observation(player)
        assert planes.dtype == np.int8
        assert planes.shape == (game.rows, game.cols, 2)
        assert np.array_equal(planes[..., 0], board == player + 1)
        assert np.array_equal(planes[..., 1], board == 2 - player)
