"""A brute-force reference of Gomoku's rules, for tests (the k-in-a-row reference, n = 5)."""

from __future__ import annotations

from connectn_env.games.connect_n.reference import KInARowReference
from connectn_env.games.game import BoardGame
from connectn_env.games.gomoku import FIVE


def new_reference_state(game: BoardGame) -> KInARowReference:
    """The reference position of a Gomoku game's empty board."""
    return KInARowReference(
        game.rows, game.cols, FIVE, gravity=False, exact=game.rule == "standard"
    )
