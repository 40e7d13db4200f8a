"""The games' optional search heuristics: evaluations against plain-Python references and
hand-counted cases, keys equal for transpositions and distinct for distinct positions."""

from __future__ import annotations

import heapq

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.negamax import observed_key
from connectn_env.games import (
    REGISTRY,
    ConnectNGame,
    GameState,
    GomokuGame,
    HexGame,
    connect_four,
    tictactoe,
)
from connectn_env.games.heuristics import Heuristics, heuristics_of

SETTINGS = settings(max_examples=60, deadline=None)
LINE_GAMES = [
    tictactoe(),
    connect_four(),  # bitboards
    ConnectNGame(rows=7, cols=9, n=4, gravity=True),  # (7 + 1) * 9 > 64: padded board
    ConnectNGame(rows=5, cols=4, n=3, gravity=False),
    GomokuGame(size=9),
    GomokuGame(rows=7, cols=11, rule="standard"),
]
HEX_GAMES = [HexGame(size=5), HexGame(rows=4, cols=6), HexGame(size=4, swap=True)]


def random_position(game, seed: int, moves: int) -> GameState:
    """Up to ``moves`` random moves from the start, stopping before the game ends."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        child = state.clone()
        child.apply_action(int(rng.choice(child.legal_actions())))
        if child.is_terminal():
            break
        state = child
    return state


def reference_open_lines(board: np.ndarray, n: int, player: int) -> float:
    """The open-line evaluation for ``player`` (0 or 1), window by window."""
    rows, cols = board.shape
    totals = {1: 0.0, 2: 0.0}
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                cells = [(r + i * dr, c + i * dc) for i in range(n)]
                if not all(0 <= y < rows and 0 <= x < cols for y, x in cells):
                    continue
                stones = {int(board[y, x]) for y, x in cells} - {0}
                if len(stones) == 1:
                    stone = stones.pop()
                    count = sum(int(board[y, x]) == stone for y, x in cells)
                    totals[stone] += 4.0 ** (count - 1)
    own, other = totals[player + 1], totals[2 - player]
    return (own - other) / (own + other + 8.0)


def evaluate(state: GameState) -> float:
    game = state.game
    return float(game.heuristics.evaluate(game.params, state.data))


def key(state: GameState) -> int:
    game = state.game
    return int(game.heuristics.key(game.params, state.data))


@SETTINGS
@given(
    index=st.integers(0, len(LINE_GAMES) - 1),
    seed=st.integers(0, 2**31),
    moves=st.integers(0, 40),
)
def test_open_line_evaluation_matches_the_reference(index, seed, moves):
    game = LINE_GAMES[index]
    state = random_position(game, seed, moves)
    n = game.n if isinstance(game, ConnectNGame) else 5
    expected = reference_open_lines(state.board, n, state.current_player())
    assert np.isclose(evaluate(state), expected)
    assert -1.0 < evaluate(state) < 1.0


def test_open_line_evaluation_by_hand_on_tictactoe():
    state = tictactoe().new_initial_state()
    assert evaluate(state) == 0.0
    state.apply_action(4)  # X in the centre: four open lines of one stone, O to move
    assert np.isclose(evaluate(state), (0 - 4) / (0 + 4 + 8))
    state.apply_action(0)  # O in a corner kills the diagonal; two open lines for O
    assert np.isclose(evaluate(state), (3 - 2) / (3 + 2 + 8))


def reference_distance(board: np.ndarray, player: int) -> int:
    """Dijkstra over the cells: an own stone costs 0, an empty cell 1, the opponent's are
    walls; from player_0's top row to its bottom row (player_1: left to right)."""
    rows, cols = board.shape
    own = player + 1
    cost = {0: 1, own: 0}
    starts = [(0, c) for c in range(cols)] if player == 0 else [(r, 0) for r in range(rows)]
    queue = [(cost[int(board[cell])], cell) for cell in starts if int(board[cell]) in cost]
    heapq.heapify(queue)
    done = set()
    while queue:
        distance, (r, c) = heapq.heappop(queue)
        if (r, c) in done:
            continue
        done.add((r, c))
        if (player == 0 and r == rows - 1) or (player == 1 and c == cols - 1):
            return distance
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1)):
            y, x = r + dr, c + dc
            if 0 <= y < rows and 0 <= x < cols and int(board[y, x]) in cost:
                heapq.heappush(queue, (distance + cost[int(board[y, x])], (y, x)))
    return rows * cols + 1


@SETTINGS
@given(
    index=st.integers(0, len(HEX_GAMES) - 1), seed=st.integers(0, 2**31), moves=st.integers(0, 20)
)
def test_hex_evaluation_matches_reference_shortest_paths(index, seed, moves):
    game = HEX_GAMES[index]
    state = random_position(game, seed, moves)
    player = state.current_player()
    own = reference_distance(state.board, player)
    other = reference_distance(state.board, 1 - player)
    assert np.isclose(evaluate(state), (other - own) / (other + own))


def test_hex_evaluation_by_hand():
    state = HexGame(size=3).new_initial_state()
    assert evaluate(state) == 0.0  # three cells each
    state.apply_action(4)  # player_0 in the centre needs two more cells, player_1 still three
    assert np.isclose(evaluate(state), (2 - 3) / (2 + 3))


def all_positions(game) -> list[GameState]:
    """Every position reachable from the start (finished ones included), once each."""
    seen: set[tuple] = set()
    found = []
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        signature = (state.current_player(), state.board.tobytes())
        if signature in seen:
            continue
        seen.add(signature)
        found.append(state)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            stack.append(child)
    return found


def generic_key(state: GameState) -> int:
    game = state.game
    planes = np.empty(2 * game.rows * game.cols, dtype=np.int8)
    return int(observed_key(game.kernels, game.params, state.data, planes))


def test_keys_are_distinct_for_every_position_of_small_games():
    for game in (
        tictactoe(),
        ConnectNGame(rows=4, cols=4, n=3, gravity=True),
        HexGame(size=3, swap=True),
    ):
        positions = all_positions(game)
        assert len({key(state) for state in positions}) == len(positions), game
        assert len({generic_key(state) for state in positions}) == len(positions), game


@SETTINGS
@given(index=st.integers(0, len(LINE_GAMES) - 1), seed=st.integers(0, 2**31))
def test_keys_are_equal_for_transpositions(index, seed):
    """The same stones played in another order (each player's moves permuted) give the
    same key; the order only matters without gravity, so gravity games swap nothing."""
    game = LINE_GAMES[index]
    state = random_position(game, seed, 12)
    history = state.history()
    rng = np.random.default_rng(seed)
    if not game.gravity:
        own, other = history[0::2], history[1::2]
        rng.shuffle(own)
        rng.shuffle(other)
        history = [move for pair in zip(own, other, strict=False) for move in pair]
        history += own[len(other) :]
    replayed = game.new_initial_state()
    for action in history:
        replayed.apply_action(action)
    assert (replayed.board == state.board).all()
    assert key(replayed) == key(state) and generic_key(replayed) == generic_key(state)


def test_every_registered_game_offers_heuristics_and_others_fall_back():
    for name, entry in REGISTRY.items():
        assert isinstance(heuristics_of(entry.make()), Heuristics), name
    assert heuristics_of(object()) is None

    class Plain(ConnectNGame):
        heuristics = None

    assert heuristics_of(Plain()) is None
