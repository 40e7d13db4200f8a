"""Shared pieces of the Othello tests: both state layouts, boards drawn as text, random games,
and OpenSpiel's board read back from its text."""

from __future__ import annotations

import numpy as np

from connectn_env.games import GameState, OthelloGame


class PaddedOthello(OthelloGame):
    """Othello forced onto the padded-board layout (the default keeps boards up to 8 x 8 as
    bitboards), so that both layouts are tested on every size."""

    bitboards = False


LAYOUTS = [OthelloGame, PaddedOthello]
STONES = {".": 0, "x": 1, "o": 2}


def picture(text: str) -> np.ndarray:
    """A board from rows of ``.``, ``x`` (player_0) and ``o`` (player_1), spaces ignored."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines()]
    return np.array([[STONES[ch] for ch in row] for row in rows], dtype=np.int8)


def random_positions(game: OthelloGame, seed: int) -> list[GameState]:
    """The positions of one game of uniformly random legal actions, first to last."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    positions = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        positions.append(state.clone())
    return positions


def openspiel_board(state: object) -> np.ndarray:
    """The board of a state of OpenSpiel's ``othello``, read from its text (``x`` black =
    player_0, ``o`` white = player_1, ``-`` empty)."""
    values = {"-": 0, "x": 1, "o": 2}
    rows = [
        [values[token] for token in line.split()[1:-1]]
        for line in str(state).splitlines()
        if line[:1].isdigit()
    ]
    return np.array(rows, dtype=np.int8)


def brute_moves(state: GameState) -> dict[int, int]:
    """``{action: result for the player to move}`` in perfect play, by trying every line with
    the game's own rules (``apply_action``, ``returns``)."""
    player = state.current_player()
    results = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal():
            result = int(np.sign(after.returns()[player]))
        else:
            best = max(brute_moves(after).values())
            result = best if after.current_player() == player else -best
        results[action] = result
    return results


def empty_cells(state: GameState) -> int:
    return int(np.count_nonzero(state.board == 0))
