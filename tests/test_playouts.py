"""The fast play-outs used by search (bitboards, padded boards, Hex fill) agree with the rules
kernel: every game they play, replayed move by move through ``GameState.apply_action``, is a
legal game with the same result."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from connectn_env.games import ConnectNGame, GomokuGame, HexGame
from connectn_env.games.layout import P_HIST, S_MOVES
from connectn_env.games.playouts import new_playout_buffers, playout


@st.composite
def games(draw):
    family = draw(st.sampled_from(["connect_n", "gomoku", "hex"]))
    if family == "connect_n":
        rows = draw(st.integers(1, 8))
        cols = draw(st.integers(1, 9))
        n = draw(st.integers(1, max(rows, cols)))
        return ConnectNGame(rows=rows, cols=cols, n=n, gravity=draw(st.booleans()))
    if family == "gomoku":
        size = draw(st.integers(5, 11))
        return GomokuGame(size=size, rule=draw(st.sampled_from(["freestyle", "standard"])))
    size = draw(st.integers(1, 9))
    return HexGame(size=size, swap=draw(st.booleans()))


@settings(max_examples=300, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32 - 1), prefix=st.integers(0, 20))
def test_playout_games_replay_legally_to_the_same_result(game, seed, prefix):
    rng = np.random.default_rng(seed)
    start = game.new_initial_state()
    for _ in range(prefix):
        if start.is_terminal():
            return
        start.apply_action(int(rng.choice(start.legal_actions())))
    if start.is_terminal():
        return
    data = start.data.copy()
    xorshift = np.array([rng.integers(1, 2**63)], dtype=np.uint64)
    outcome = playout(game.params, data, xorshift, *new_playout_buffers(game.params))
    hist = int(game.params[P_HIST])
    moves = data[hist + start.move_number : hist + int(data[S_MOVES])].tolist()

    replay = start.clone()
    played = 0
    for action in moves:
        replay.apply_action(action)  # raises if the play-out made an illegal move
        played += 1
        if replay.is_terminal():
            break
    assert replay.is_terminal()
    assert int(replay.outcome) == int(outcome)
    if game.kind != HexGame(size=1).kind:  # Hex fills the whole board, then scores it
        assert played == len(moves)
