"""connectn-env: Connect-N, Gomoku and Hex as PettingZoo and Gymnasium environments.

Importing the package registers the environments with PettingZoo (and Gymnasium); it
imports no pygame and compiles no numba code.
"""

from connectn_env import connect_n_v0, gomoku_v0, hex_v0
from connectn_env.envs.order import CallOrderError
from connectn_env.games import (
    TERMINAL_PLAYER,
    BoardGame,
    ConnectNGame,
    GameState,
    GomokuGame,
    HexGame,
    IllegalActionError,
    Outcome,
    connect_four,
    tictactoe,
)
from connectn_env.gym.registration import GYM_ENVS, register_gym_envs
from connectn_env.registration import PETTINGZOO_ENVS, register_pettingzoo_envs

register_pettingzoo_envs()
register_gym_envs()

__version__ = "0.1.0"

__all__ = [
    "GYM_ENVS",
    "PETTINGZOO_ENVS",
    "TERMINAL_PLAYER",
    "BoardGame",
    "CallOrderError",
    "ConnectNGame",
    "GameState",
    "GomokuGame",
    "HexGame",
    "IllegalActionError",
    "Outcome",
    "__version__",
    "connect_four",
    "connect_n_v0",
    "gomoku_v0",
    "hex_v0",
    "tictactoe",
]
