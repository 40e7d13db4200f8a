"""Property tests over random parameters and random games (Hypothesis).

The incremental win detection is checked against brute-force references written here
(a full-board run scan for k-in-a-row, a flood fill for Hex); copies, the legal mask and
history replay are checked on every position of the generated games.
"""

from __future__ import annotations

import copy
import pickle
from collections import deque
from types import ModuleType

import numpy as np
from aec_helpers import play_to_end, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from connectn_env import (
    TERMINAL_PLAYER,
    ConnectNGame,
    GomokuGame,
    HexGame,
    IllegalActionError,
    Outcome,
    connect_n_v0,
    gomoku_v0,
    hex_v0,
)
from connectn_env.games import GOMOKU_RULES, BoardGame, GameState

LINE_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
HEX_NEIGHBOURS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1))
ENV_MODULES: dict[type[BoardGame], ModuleType] = {
    ConnectNGame: connect_n_v0,
    GomokuGame: gomoku_v0,
    HexGame: hex_v0,
}
SETTINGS = settings(max_examples=150, deadline=None)
SEEDS = st.integers(0, 2**32 - 1)


def sides(low: int, high: int) -> st.SearchStrategy[int]:
    """Integers in [low, high], drawn uniformly (``st.integers`` favours small boards)."""
    return st.sampled_from(range(low, high + 1))


@st.composite
def games(draw: st.DrawFn, max_side: int = 10) -> BoardGame:
    """Any game of the suite with random parameters."""
    kind = draw(st.sampled_from([ConnectNGame, GomokuGame, HexGame]))
    rows = draw(sides(1, max_side))
    if kind is GomokuGame:
        cols = draw(sides(1 if rows >= 5 else 5, max_side))
        return GomokuGame(rows=rows, cols=cols, rule=draw(st.sampled_from(GOMOKU_RULES)))
    cols = draw(sides(1, max_side))
    if kind is HexGame:
        return HexGame(rows=rows, cols=cols, swap=rows == cols and draw(st.booleans()))
    n = draw(sides(1, min(max(rows, cols), 6)))
    return ConnectNGame(rows=rows, cols=cols, n=n, gravity=draw(st.booleans()))


def random_positions(game: BoardGame, seed: int) -> list[GameState]:
    """The positions of one random game (uniform legal moves), first to last."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    positions = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        positions.append(state.clone())
    return positions


# --- brute-force references ------------------------------------------------------------


def reference_board(game: BoardGame, actions: list[int]) -> np.ndarray:
    """The board after ``actions``, rebuilt without the kernels (0 empty, 1/2 stones)."""
    board = np.zeros((game.rows, game.cols), dtype=np.int8)
    for ply, action in enumerate(actions):
        stone = ply % 2 + 1
        if game.gravity:
            row = max(r for r in range(game.rows) if board[r, action] == 0)
            board[row, action] = stone
        elif action == game.rows * game.cols:  # Hex swap: the first stone, mirrored
            row, col = divmod(actions[0], game.cols)
            board[row, col] = 0
            board[col, row] = stone
        else:
            board[divmod(action, game.cols)] = stone
    return board


def maximal_runs(board: np.ndarray, stone: int) -> list[list[tuple[int, int]]]:
    """Every maximal straight run of ``stone`` (length >= 1) in the four line directions."""
    rows, cols = board.shape
    runs = []
    for r in range(rows):
        for c in range(cols):
            if board[r, c] != stone:
                continue
            for dr, dc in LINE_DIRECTIONS:
                pr, pc = r - dr, c - dc
                if 0 <= pr < rows and 0 <= pc < cols and board[pr, pc] == stone:
                    continue  # not the start of its run
                run = []
                rr, cc = r, c
                while 0 <= rr < rows and 0 <= cc < cols and board[rr, cc] == stone:
                    run.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                runs.append(run)
    return runs


def k_in_a_row_winning_runs(game: BoardGame, board: np.ndarray, stone: int) -> list:
    n = game.n if isinstance(game, ConnectNGame) else 5
    exact = isinstance(game, GomokuGame) and game.rule == "standard"
    return [
        run for run in maximal_runs(board, stone) if len(run) == n or (len(run) > n and not exact)
    ]


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


def reference_outcome(game: BoardGame, actions: list[int]) -> Outcome:
    """The outcome after ``actions``, from a full-board scan."""
    board = reference_board(game, actions)
    if isinstance(game, HexGame):
        winners = [p for p in (0, 1) if hex_shortest_chain(board, p + 1) is not None]
    else:
        winners = [p for p in (0, 1) if k_in_a_row_winning_runs(game, board, p + 1)]
    assert len(winners) <= 1, "both players cannot have won"
    if winners:
        return Outcome(winners[0] + 1)
    return Outcome.DRAW if np.all(board != 0) else Outcome.ONGOING


def assert_valid_winning_cells(state: GameState) -> None:
    game, board, winner = state.game, state.board, state.winner
    cells = state.winning_cells()
    if winner is None:
        assert cells == []
        return
    stone = winner + 1
    assert cells == sorted(cells)
    assert all(board[cell] == stone for cell in cells)
    if isinstance(game, HexGame):
        assert len(cells) == hex_shortest_chain(board, stone)
        dist = hex_distances(board, stone)
        assert all(cell in dist for cell in cells)  # reachable from the first edge
        edge = [r for r, _ in cells] if winner == 0 else [c for _, c in cells]
        assert min(edge) == 0
        assert max(edge) == (game.rows if winner == 0 else game.cols) - 1
    else:
        assert cells in [sorted(run) for run in k_in_a_row_winning_runs(game, board, stone)]
        assert state.last_move_cell() in cells


# --- properties --------------------------------------------------------------------------


@SETTINGS
@given(game=games(), seed=SEEDS)
def test_incremental_outcome_matches_brute_force(game: BoardGame, seed: int) -> None:
    for state in random_positions(game, seed):
        history = state.history()
        assert state.outcome == reference_outcome(game, history)
        assert np.array_equal(state.board, reference_board(game, history))
        assert state.move_number == len(history)
        expected_player = TERMINAL_PLAYER if state.is_terminal() else len(history) % 2
        assert state.current_player() == expected_player
    assert_valid_winning_cells(state)
    assert state.is_terminal()
    assert sum(state.returns()) == 0


@SETTINGS
@given(game=games(max_side=7), seed=SEEDS)
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
@given(game=games(), seed=SEEDS)
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
    game=games(),
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
    game=games(max_side=6),
    wrapped=st.booleans(),
    how=st.sampled_from(["deepcopy", "pickle"]),
    moves=st.integers(0, 12),
    seed=SEEDS,
)
def test_env_copies_keep_the_game_and_continue_identically(
    game: BoardGame, wrapped: bool, how: str, moves: int, seed: int
) -> None:
    module = ENV_MODULES[type(game)]
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
@given(game=games(), seed=SEEDS)
def test_observation_planes_match_the_board(game: BoardGame, seed: int) -> None:
    state = random_positions(game, seed)[-1]
    board = state.board
    for player in (0, 1):
        planes = state.observation(player)
        assert planes.dtype == np.int8
        assert planes.shape == (game.rows, game.cols, 2)
        assert np.array_equal(planes[..., 0], board == player + 1)
        assert np.array_equal(planes[..., 1], board == 2 - player)
