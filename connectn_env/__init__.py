"""connectn-env: board games (Connect-N, Gomoku, Hex, ...) as PettingZoo and Gymnasium
environments, with fast MCTS baselines.

Importing the package makes the PettingZoo module of every registered game family
(``connectn_env.connect_n_v0``, ``connectn_env.hex_v0``, ...) and registers the PettingZoo
and Gymnasium ids; it imports no pygame and compiles no numba code.
``connectn_env.evaluate`` (an agent's Elo on a game's ladder) is imported on first use.
"""

import sys

from connectn_env.envs.modules import install_env_modules
from connectn_env.envs.order import CallOrderError
from connectn_env.errors import ConnectnError
from connectn_env.games import (
    REGISTRY,
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
from connectn_env.registration import (
    GYM_ENVS,
    PETTINGZOO_ENVS,
    register_gym_envs,
    register_pettingzoo_envs,
)

ENV_MODULES = install_env_modules(sys.modules[__name__])
register_pettingzoo_envs()
register_gym_envs()

__version__ = "0.2.0"

__all__ = [
    "ENV_MODULES",
    "GYM_ENVS",
    "PETTINGZOO_ENVS",
    "REGISTRY",
    "TERMINAL_PLAYER",
    "BoardGame",
    "CallOrderError",
    "ConnectnError",
    "ConnectNGame",
    "GameState",
    "GomokuGame",
    "HexGame",
    "IllegalActionError",
    "Outcome",
    "__version__",
    "connect_four",
    "evaluate",
    "tictactoe",
    *ENV_MODULES,
]


def __getattr__(name: str) -> object:
    """``evaluate`` (:func:`connectn_env.ladder.evaluate`), imported on first use so that
    importing the package stays light."""
    if name == "evaluate":
        from connectn_env.ladder import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
