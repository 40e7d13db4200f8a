"""Every registered game's compiled play-out (the ``playout`` kernel) plays legal games: the
moves and movers it records, replayed through ``GameState.apply_action``, reach the outcome it
reports (Hex fills the whole board and then scores it, so its record may go past the end)."""

import numpy as np
from games_helpers import registered_games
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=300, deadline=None)
@given(game=registered_games(), seed=st.integers(0, 2**32 - 1), prefix=st.integers(0, 20))
def test_playout_games_replay_legally_to_the_same_result(game, seed, prefix):
    rng = np.random.default_rng(seed)
    start = game.new_initial_state()
    for _ in range(prefix):
        if start.is_terminal():
            return
        start.apply_action(int(rng.choice(start.legal_actions())))
    if start.is_terminal():
        return
    kernels, params = game.kernels, game.params
    data = start.data.copy()
    moves = np.full(game.max_moves + 3, -1, dtype=np.int64)
    players = np.full(game.max_moves + 3, -1, dtype=np.int64)
    xorshift = np.array([rng.integers(1, 2**63)], dtype=np.uint64)
    count = kernels.playout(
        params, data, xorshift, kernels.new_workspace(params), moves, players, 3
    )
    outcome = kernels.outcome(params, data)
    assert count > 3 and np.all(moves[:3] == -1)

    replay = start.clone()
    for action, player in zip(moves[3:count], players[3:count], strict=True):
        assert replay.current_player() == player
        replay.apply_action(int(action))  # raises if the play-out made an illegal move
        if replay.is_terminal():
            break
    assert replay.is_terminal()
    assert int(replay.outcome) == int(outcome)
