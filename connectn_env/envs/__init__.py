"""PettingZoo AEC environments: one generic base class and a thin module per game."""

from connectn_env.envs.base import AGENTS, RENDER_MODES, BoardGameEnv, wrap_classic

__all__ = ["AGENTS", "RENDER_MODES", "BoardGameEnv", "wrap_classic"]
