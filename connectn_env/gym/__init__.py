"""Gymnasium single-agent envs (``gym.make("connectn_env/ConnectFour-v0")``) and the
native vector env (``gym.make_vec``): the learner plays one side against an opponent.

``SelfPlayCallback`` (stable-baselines3) is imported on first use: the envs do not need SB3.
"""

from typing import Any

from connectn_env.gym.factories import build_game, make_env, make_vector_env
from connectn_env.gym.opponents import make_opponent
from connectn_env.gym.selfplay import PolicySnapshot, SelfPlayOpponent
from connectn_env.gym.single_agent import BoardGameGymEnv
from connectn_env.gym.vector import BoardGameVectorEnv
from connectn_env.registration import GYM_ENVS, register_gym_envs

__all__ = [
    "GYM_ENVS",
    "BoardGameGymEnv",
    "BoardGameVectorEnv",
    "PolicySnapshot",
    "SelfPlayCallback",
    "SelfPlayOpponent",
    "build_game",
    "make_env",
    "make_opponent",
    "make_vector_env",
    "register_gym_envs",
]


def __getattr__(name: str) -> Any:
    """``SelfPlayCallback`` is imported on first use (it needs stable-baselines3)."""
    if name == "SelfPlayCallback":
        from connectn_env.gym.selfplay_sb3 import SelfPlayCallback

        return SelfPlayCallback
    raise AttributeError(f"module 'connectn_env.gym' has no attribute {name!r}")
