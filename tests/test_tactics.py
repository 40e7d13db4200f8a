"""The games' tactics (``connectn_env.games.tactics``) agree with the rules, checked by brute
force on random positions of every registered game: the winning moves a roll-out is told
about, the moves a tactical tree node keeps, and the play-outs of the policy evaluator
(replayed move by move through ``GameState``)."""

from __future__ import annotations

import numpy as np
import pytest
from games_helpers import registered_games
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.rollout import new_policy_data, policy_rollout
from agents.tree import new_tree, tree_reset
from connectn_env.games import BoardGame, ConnectNGame, GameState, GomokuGame, HexGame
from connectn_env.games.lib.lines import winning_line_cells
from connectn_env.games.tactics import DECISIVE, GENERIC_TACTICS, LOCAL, UNDECIDED


def tactics_of(game: BoardGame):
    return game.tactics if game.tactics is not None else GENERIC_TACTICS


def random_position(game: BoardGame, seed: int, plies: int) -> GameState | None:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            return None
        state.apply_action(int(rng.choice(state.legal_actions())))
    return None if state.is_terminal() else state


def _hex_connects(board: np.ndarray, player: int) -> bool:
    rows, cols = board.shape
    stone = player + 1
    frontier = [(0, c) for c in range(cols)] if player == 0 else [(r, 0) for r in range(rows)]
    frontier = [cell for cell in frontier if board[cell] == stone]
    seen = set(frontier)
    while frontier:
        r, c = frontier.pop()
        if (player == 0 and r == rows - 1) or (player == 1 and c == cols - 1):
            return True
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)):
            other = (r + dr, c + dc)
            inside = 0 <= other[0] < rows and 0 <= other[1] < cols
            if inside and other not in seen and board[other] == stone:
                seen.add(other)
                frontier.append(other)
    return False


def wins_by_placing(state: GameState, action: int, player: int) -> bool | None:
    """True if a stone of ``player`` on the cell ``action`` names (the column's drop cell
    with gravity) completes a win; None for a game this helper does not know."""
    game = state.game
    board = state.board.copy()
    if isinstance(game, HexGame):
        if action >= game.rows * game.cols:
            return False  # the swap
        board[divmod(action, game.cols)] = player + 1
        return _hex_connects(board, player)
    if isinstance(game, ConnectNGame | GomokuGame):
        if game.gravity:
            empty = np.flatnonzero(board[:, action] == 0)
            row, col = int(empty[-1]), action
        else:
            row, col = divmod(action, game.cols)
        board[row, col] = player + 1
        n = game.n if isinstance(game, ConnectNGame) else 5
        exact = isinstance(game, GomokuGame) and game.rule == "standard"
        return bool(winning_line_cells(board, row, col, n, exact))
    return None


def winning_actions(state: GameState, player: int) -> set[int] | None:
    """Every legal action with which ``player`` wins at once (None: unknown game)."""
    if player == state.current_player():
        found = set()
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            if after.is_terminal() and after.returns()[player] > 0:
                found.add(action)
        return found
    answers = {a: wins_by_placing(state, a, player) for a in state.legal_actions()}
    if any(v is None for v in answers.values()):
        return None
    return {a for a, v in answers.items() if v}


@settings(max_examples=150, deadline=None)
@given(
    game=registered_games(),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 30),
    local=st.booleans(),
)
def test_rollout_winning_moves_and_random_moves_follow_the_rules(game, seed, plies, local):
    state = random_position(game, seed, plies)
    if state is None:
        return
    tactics = tactics_of(game)
    local = local and game.neighbourhoods
    flags = DECISIVE | (LOCAL if local else 0)
    kernels, params = game.kernels, game.params
    rng = np.array([seed | 1], dtype=np.uint64)
    moves = np.zeros(game.max_moves + 2, dtype=np.int64)
    players = np.zeros(game.max_moves + 2, dtype=np.int64)
    work = state.data.copy()
    tws = tactics.new_workspace(kernels, params, work, game.num_actions)
    count = tactics.start(kernels, params, work, tws, flags, rng, moves, players, 0)
    replay = state.clone()
    for i in range(count):  # moves the tactics played themselves (Hex before the swap)
        assert replay.current_player() == players[i]
        replay.apply_action(int(moves[i]))
    outcome = kernels.outcome(params, work)
    while outcome == 0:
        mover = replay.current_player()
        for player in (mover, 1 - mover):
            truth = winning_actions(replay, player)
            told = tactics.winning_move(kernels, params, work, tws, player)
            if truth is None or (tactics is GENERIC_TACTICS and player != mover):
                continue
            assert (told >= 0) == bool(truth), (player, told, truth, replay.history())
            assert told < 0 or told in truth
        action = tactics.random_move(kernels, params, work, tws, rng)
        assert action in replay.legal_actions()
        if local:  # next to a stone whenever some empty cell is
            near_stones = (replay.board == 0) & _dilate(replay.board != 0)
            assert near_stones[divmod(action, game.cols)] or not near_stones.any()
        outcome = tactics.play(kernels, params, work, tws, action)
        replay.apply_action(int(action))
        if outcome == UNDECIDED:  # Hex: the board is full
            outcome = tactics.finish(kernels, params, work, tws)
            assert replay.is_terminal()
    assert replay.is_terminal()
    assert outcome == int(replay.outcome)


def _dilate(mask: np.ndarray) -> np.ndarray:
    """Cells within one step (king move) of a True cell."""
    padded = np.pad(mask, 1)
    out = np.zeros_like(mask)
    rows, cols = mask.shape
    for dr in range(3):
        for dc in range(3):
            out |= padded[dr : dr + rows, dc : dc + cols]
    return out


@settings(max_examples=150, deadline=None)
@given(game=registered_games(), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40))
def test_tactical_expansion_keeps_the_wins_else_the_blocks(game, seed, plies):
    state = random_position(game, seed, plies)
    if state is None:
        return
    tactics = tactics_of(game)
    kernels, params = game.kernels, game.params
    data = state.data.copy()
    tws = tactics.new_workspace(kernels, params, data, game.num_actions)
    out = np.empty(game.num_actions, dtype=np.int64)
    count = tactics.expansion(kernels, params, data, tws, out, DECISIVE)
    kept = set(out[:count].tolist())
    assert np.array_equal(data, state.data)  # the position is left as it was
    assert len(kept) == count and kept and kept <= set(state.legal_actions())
    mover = state.current_player()
    wins = winning_actions(state, mover)
    if wins:
        assert kept <= wins
        if not isinstance(game, HexGame):
            assert kept == wins
        return
    threats = winning_actions(state, 1 - mover)
    if threats is None or tactics is GENERIC_TACTICS:
        assert kept == set(state.legal_actions())
    elif threats:
        assert kept == threats
    elif game.gravity or isinstance(game, HexGame):
        assert kept == set(state.legal_actions())


@settings(max_examples=100, deadline=None)
@given(game=registered_games(), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_generic_tactics_find_the_same_wins(game, seed, plies):
    """The kernels-only fallback tells a winning move exactly when the game's tactics do."""
    state = random_position(game, seed, plies)
    if state is None:
        return
    kernels, params = game.kernels, game.params
    rng = np.array([1], dtype=np.uint64)
    trace = np.zeros(game.max_moves + 2, dtype=np.int64)
    answers = []
    for tactics in (tactics_of(game), GENERIC_TACTICS):
        work = state.data.copy()
        tws = tactics.new_workspace(kernels, params, work, game.num_actions)
        if tactics.start(kernels, params, work, tws, DECISIVE, rng, trace, trace.copy(), 0):
            return  # the game's tactics played opening moves (Hex with swap): not comparable
        move = tactics.winning_move(kernels, params, work, tws, state.current_player())
        answers.append(move >= 0)
    assert answers[0] == answers[1]


def _windows(rows: int, cols: int, n: int) -> np.ndarray:
    """Every line of ``n`` cells of a board, as flat cell indices."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + (n - 1) * dr, c + (n - 1) * dc
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append([(r + k * dr) * cols + c + k * dc for k in range(n)])
    return np.array(lines)


def _threats(flat: np.ndarray, windows: np.ndarray, player: int) -> set[int]:
    """Empty cells where a stone of ``player`` makes five (freestyle) on the flat board."""
    stones = flat[windows]
    own = (stones == player + 1).sum(axis=1)
    empty = (stones == 0).sum(axis=1)
    full = windows[(own == windows.shape[1] - 1) & (empty == 1)]
    return {int(cell) for cell in full[flat[full] == 0]}


def _double_threat_moves(flat: np.ndarray, windows: np.ndarray, player: int) -> set[int]:
    found = set()
    for move in np.flatnonzero(flat == 0):
        flat[move] = player + 1
        if len(_threats(flat, windows, player)) >= 2:
            found.add(int(move))
        flat[move] = 0
    return found


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(4, 24))
def test_gomoku_defences_against_an_open_three_are_exact(seed, plies):
    """When the opponent can make two threats at once (an open three becoming an open four),
    a tactical node keeps exactly the moves after which it no longer can, and the mover's own
    four-making moves."""
    game = GomokuGame(size=7)
    state = random_position(game, seed, plies)
    if state is None:
        return
    windows = _windows(7, 7, 5)
    flat = state.board.reshape(-1).astype(np.int64)
    mover = state.current_player()
    if _threats(flat, windows, mover) or _threats(flat, windows, 1 - mover):
        return
    doubles = _double_threat_moves(flat, windows, 1 - mover)
    if not doubles:
        return
    defences = set()
    fours = set()
    for move in np.flatnonzero(flat == 0):
        flat[move] = mover + 1
        if not _double_threat_moves(flat, windows, 1 - mover):
            defences.add(int(move))
        if _threats(flat, windows, mover):
            fours.add(int(move))
        flat[move] = 0
    tactics = game.tactics
    data = state.data.copy()
    tws = tactics.new_workspace(game.kernels, game.params, data, game.num_actions)
    out = np.empty(game.num_actions, dtype=np.int64)
    count = tactics.expansion(game.kernels, game.params, data, tws, out, DECISIVE)
    kept = set(out[:count].tolist())
    assert kept == (defences or doubles_cells(flat, windows, 1 - mover)) | fours


def doubles_cells(flat: np.ndarray, windows: np.ndarray, player: int) -> set[int]:
    """The empty cells of the lines holding three stones of ``player`` and two empty cells."""
    stones = flat[windows]
    own = (stones == player + 1).sum(axis=1)
    empty = (stones == 0).sum(axis=1)
    lines = windows[(own == 3) & (empty == 2)]
    return {int(cell) for cell in lines.reshape(-1) if flat[cell] == 0}


@pytest.mark.parametrize(
    "game",
    [ConnectNGame(), ConnectNGame(rows=9, cols=9, n=4), GomokuGame(size=9), HexGame(size=5)],
    ids=["connect_four", "connect_n-9x9-gravity", "gomoku-9", "hex-5"],
)
@pytest.mark.parametrize("options", [{"decisive": True}, {"lgr": True}, {"pool_rave": 3}])
def test_policy_playouts_replay_legally_to_their_result(game, options):
    """The evaluator's play-outs (appended to a trace) are legal games with the result it
    returns, and an LGR table only ever holds legal actions."""
    kwargs = {"decisive": False, "lgr": False, "pool_rave": 0, "local": False, **options}
    if game.neighbourhoods:
        kwargs["local"] = True
    data = new_policy_data(game, game.new_initial_state().data, **kwargs)
    tree = new_tree(64)
    rng = np.array([7], dtype=np.uint64)
    for seed in range(30):
        state = random_position(game, seed, seed % 12)
        if state is None:
            continue
        tree_reset(*tree, state.current_player())
        moves = np.zeros(game.max_moves + 2, dtype=np.int64)
        players = np.zeros(game.max_moves + 2, dtype=np.int64)
        work = state.data.copy()
        workspace = game.kernels.new_workspace(game.params)
        r0, count = policy_rollout(
            game.kernels, game.params, work, rng, workspace, moves, players, 0, tree, data
        )
        replay = state.clone()
        for action, player in zip(moves[:count], players[:count], strict=True):
            if replay.is_terminal():
                assert isinstance(game, HexGame)  # Hex fills the board, then scores it
                break
            assert replay.current_player() == player
            replay.apply_action(int(action))
        assert replay.is_terminal()
        assert r0 == replay.returns()[0]
    assert np.all(data.replies < game.num_actions)
