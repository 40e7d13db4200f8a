"""PettingZoo AEC environments: one generic base class, and a module per game family made
from the registry."""

from connectn_env.envs.base import AGENTS, RENDER_MODES, BoardGameEnv, wrap_classic

__all__ = ["AGENTS", "RENDER_MODES", "BoardGameEnv", "wrap_classic"]
