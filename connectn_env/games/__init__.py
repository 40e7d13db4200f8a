"""Pure game rules: no PettingZoo, Gymnasium or pygame imports.

Each game offers OpenSpiel's planning interface through ``new_initial_state()``.
"""

from connectn_env.games.coords import cell_name, column_label, parse_cell_name
from connectn_env.games.games import (
    GAME_CLASSES,
    GOMOKU_RULES,
    MAX_SIDE,
    ConnectNGame,
    GomokuGame,
    HexGame,
    connect_four,
    tictactoe,
)
from connectn_env.games.layout import TERMINAL_PLAYER, Outcome
from connectn_env.games.state import BoardGame, GameState, IllegalActionError

__all__ = [
    "GAME_CLASSES",
    "GOMOKU_RULES",
    "MAX_SIDE",
    "TERMINAL_PLAYER",
    "BoardGame",
    "ConnectNGame",
    "GameState",
    "GomokuGame",
    "HexGame",
    "IllegalActionError",
    "Outcome",
    "cell_name",
    "column_label",
    "connect_four",
    "parse_cell_name",
    "tictactoe",
]
