"""Othello's compiled kernels against the brute-force reference
(``connectn_env.games.othello.reference``) over random games of sizes 4 to 10 in both state
layouts (Hypothesis), and the properties every position must have: the legal mask is exactly
what ``apply_action`` accepts, both layouts agree, copies are independent, the observation
planes are the board, the play-out plays legal games, the symmetries map games to games."""

from __future__ import annotations

import copy
import pickle

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from othello_helpers import LAYOUTS, PaddedOthello, random_positions

from connectn_env.games import TERMINAL_PLAYER, IllegalActionError, OthelloGame, Outcome
from connectn_env.games.othello import bitboard, padded
from connectn_env.games.othello.reference import ReferenceOthello

SETTINGS = settings(max_examples=120, deadline=None)
SEEDS = st.integers(0, 2**32 - 1)
SIZES = st.sampled_from([4, 6, 8, 10])
OUTCOMES = {(1.0, -1.0): Outcome.PLAYER_0_WINS, (-1.0, 1.0): Outcome.PLAYER_1_WINS}


@st.composite
def games(draw: st.DrawFn, sizes: st.SearchStrategy[int] = SIZES) -> OthelloGame:
    """An Othello game of a random even size in a random layout."""
    return draw(st.sampled_from(LAYOUTS))(size=draw(sizes))


@SETTINGS
@given(game=games(), seed=SEEDS)
def test_random_games_match_the_reference_move_for_move(game: OthelloGame, seed: int) -> None:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    reference = ReferenceOthello(game.size)
    while True:
        assert np.array_equal(state.board, np.array(reference.board))
        assert state.legal_actions() == reference.legal_actions()
        assert state.is_terminal() == reference.over
        assert state.history() == reference.history
        if reference.over:
            break
        assert state.current_player() == reference.player
        action = int(rng.choice(reference.legal_actions()))
        state.apply_action(action)
        reference.apply(action)
    assert state.current_player() == TERMINAL_PLAYER
    assert state.returns() == reference.returns()
    assert state.outcome == OUTCOMES.get(tuple(reference.returns()), Outcome.DRAW)
    assert game.discs(state) == reference.discs()
    assert len(state.history()) <= game.max_moves


@settings(max_examples=6, deadline=None)
@given(game=games(st.sampled_from([12, 14, 16])), seed=SEEDS)
def test_large_boards_match_the_reference(game: OthelloGame, seed: int) -> None:
    positions = random_positions(game, seed)
    reference = ReferenceOthello(game.size)
    for state in positions[1:]:
        reference.apply(state.history()[-1])
        assert np.array_equal(state.board, np.array(reference.board))
        assert state.legal_actions() == reference.legal_actions()
    assert positions[-1].returns() == reference.returns()


@settings(max_examples=60, deadline=None)
@given(game=games(st.sampled_from([4, 6, 8])), seed=SEEDS)
def test_legal_mask_is_exactly_what_apply_action_accepts(game: OthelloGame, seed: int) -> None:
    for state in random_positions(game, seed):
        mask = state.legal_action_mask()
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
        kernel_mask = np.full(game.num_actions, 7, dtype=np.int8)
        layout = bitboard if game.kernels is bitboard.KERNELS else padded
        layout.legal_mask(game.params, state.data, kernel_mask)  # main's contract kernel
        assert np.array_equal(kernel_mask, mask)
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        assert mask[game.pass_action] == (mask[: game.pass_action].sum() == 0) or (
            state.is_terminal() and mask.sum() == 0
        )
        for action in range(-1, game.num_actions + 1):
            trial = state.clone()
            try:
                trial.apply_action(action)
            except IllegalActionError:
                assert action not in range(game.num_actions) or mask[action] == 0
                assert np.array_equal(trial.data, state.data), "a failed move changed the state"
            else:
                assert mask[action] == 1
                assert trial.history() == [*state.history(), action]


@SETTINGS
@given(size=st.sampled_from([4, 6, 8]), seed=SEEDS)
def test_both_layouts_play_the_same_games(size: int, seed: int) -> None:
    bitboards, padded = OthelloGame(size=size), PaddedOthello(size=size)
    assert bitboards.representation.kernels != padded.representation.kernels
    for state in random_positions(bitboards, seed):
        twin = padded.new_initial_state()
        for action in state.history():
            twin.apply_action(action)
        assert np.array_equal(twin.board, state.board)
        assert twin.legal_actions() == state.legal_actions()
        assert twin.outcome == state.outcome
        for player in (0, 1):
            assert np.array_equal(twin.observation(player), state.observation(player))


@SETTINGS
@given(game=games(), seed=SEEDS, fraction=st.floats(0, 1))
def test_history_replays_and_copies_are_independent(
    game: OthelloGame, seed: int, fraction: float
) -> None:
    positions = random_positions(game, seed)
    state = positions[int(fraction * (len(positions) - 1))]
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert np.array_equal(replay.data, state.data) and replay == state
    saved = state.data.copy()
    for twin in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state and twin.data is not state.data
        assert twin.legal_actions() == state.legal_actions()
        if not twin.is_terminal():
            twin.apply_action(twin.legal_actions()[-1])
            assert np.array_equal(state.data, saved), "the copy shares memory with the original"


@SETTINGS
@given(game=games(), seed=SEEDS)
def test_observation_planes_are_the_board(game: OthelloGame, seed: int) -> None:
    for state in random_positions(game, seed)[::7]:
        board = state.board
        for player in (0, 1):
            planes = state.observation(player)
            assert planes.dtype == np.int8 and planes.shape == (game.size, game.size, 2)
            assert np.array_equal(planes[..., 0], board == player + 1)
            assert np.array_equal(planes[..., 1], board == 2 - player)


@settings(max_examples=200, deadline=None)
@given(game=games(), seed=SEEDS, prefix=st.integers(0, 40))
def test_playout_plays_a_legal_game_to_the_result_it_reports(
    game: OthelloGame, seed: int, prefix: int
) -> None:
    """Also in the padded layout, which the registry-wide play-out test only meets on
    boards larger than 8 x 8."""
    rng = np.random.default_rng(seed)
    start = game.new_initial_state()
    for _ in range(prefix):
        if start.is_terminal():
            return
        start.apply_action(int(rng.choice(start.legal_actions())))
    kernels, params = game.kernels, game.params
    data = start.data.copy()
    moves = np.full(game.max_moves + 1, -1, dtype=np.int64)
    players = np.full(game.max_moves + 1, -1, dtype=np.int64)
    xorshift = np.array([rng.integers(1, 2**63)], dtype=np.uint64)
    count = kernels.playout(
        params, data, xorshift, kernels.new_workspace(params), moves, players, 1
    )
    replay = start.clone()
    for action, player in zip(moves[1:count], players[1:count], strict=True):
        assert replay.current_player() == player
        replay.apply_action(int(action))
    assert replay.is_terminal()
    assert int(replay.outcome) == int(kernels.outcome(params, data))
    assert count - 1 + start.move_number <= game.max_moves


@settings(max_examples=60, deadline=None)
@given(game=games(st.sampled_from([4, 6, 8])), seed=SEEDS, fraction=st.floats(0, 1))
def test_symmetries_map_positions_and_moves_to_positions_and_moves(
    game: OthelloGame, seed: int, fraction: float
) -> None:
    """The image of a position under each of the eight symmetries has the image moves as its
    legal moves, and each move's result maps to the image move's result (pass to pass)."""
    symmetries = game.symmetries()
    assert len(symmetries) == 8 and symmetries[0].name == "identity"
    positions = random_positions(game, seed)
    state = positions[int(fraction * (len(positions) - 1))]
    if state.is_terminal():
        return
    player = state.current_player()
    for symmetry in symmetries:
        assert symmetry.actions[game.pass_action] == game.pass_action
        image = game.position(symmetry.planes(state.board[..., None])[..., 0], player)
        legal = state.legal_actions()
        assert image.legal_actions() == sorted(int(symmetry.actions[a]) for a in legal)
        action = legal[-1]
        after = state.clone()
        after.apply_action(action)
        image.apply_action(int(symmetry.actions[action]))
        assert np.array_equal(image.board, symmetry.planes(after.board[..., None])[..., 0])
        assert image.outcome == after.outcome
