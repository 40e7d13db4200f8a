"""The games of the suite, as plugins: rules as compiled kernels, no PettingZoo, Gymnasium or
pygame imports.

Each game family lives in its own folder (``connect_n``, ``gomoku``, ``hex``, ...) and is
listed once in :data:`PLUGINS`; :data:`REGISTRY` maps every game name (families and presets
such as ``connect_four``) to what builds it. Every game offers OpenSpiel's planning interface
through ``new_initial_state()``.
"""

from connectn_env.games import connect_n, gomoku, hex, othello
from connectn_env.games.compile_notice import COMPILE_LOGGER  # (announces numba compiles)
from connectn_env.games.connect_n import ConnectNGame, connect_four, tictactoe
from connectn_env.games.contract import NO_ACTION, TERMINAL_PLAYER, GameKernels, Outcome, Status
from connectn_env.games.coords import cell_name, column_label, parse_cell_name
from connectn_env.games.game import MAX_SIDE, BoardGame, ExactSolver, Symmetry
from connectn_env.games.gomoku import RULES as GOMOKU_RULES
from connectn_env.games.gomoku import GomokuGame
from connectn_env.games.hex import HexGame
from connectn_env.games.othello import OthelloGame
from connectn_env.games.parameters import Parameter
from connectn_env.games.registry import (
    GameEntry,
    GameRegistry,
    Preset,
    UnknownGameError,
    build_registry,
)
from connectn_env.games.state import GameState, IllegalActionError

# The registry line: a new game family is one more module here.
PLUGINS = [connect_n, gomoku, hex, othello]
REGISTRY: GameRegistry = build_registry(PLUGINS)

__all__ = [
    "COMPILE_LOGGER",
    "GOMOKU_RULES",
    "MAX_SIDE",
    "NO_ACTION",
    "PLUGINS",
    "REGISTRY",
    "TERMINAL_PLAYER",
    "BoardGame",
    "ConnectNGame",
    "ExactSolver",
    "GameEntry",
    "GameKernels",
    "GameRegistry",
    "GameState",
    "GomokuGame",
    "HexGame",
    "IllegalActionError",
    "OthelloGame",
    "Outcome",
    "Parameter",
    "Preset",
    "Status",
    "Symmetry",
    "UnknownGameError",
    "build_registry",
    "cell_name",
    "column_label",
    "connect_four",
    "parse_cell_name",
    "tictactoe",
]
