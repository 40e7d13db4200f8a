"""Gymnasium single-agent envs (``gym.make("connectn_env/ConnectFour-v0")``) and the
native vector env (``gym.make_vec``): the learner plays one side against an opponent.

``SelfPlayCallback`` and ``SB3VectorEnv`` (stable-baselines3) are imported on first use: the
envs do not need SB3.
"""

import importlib
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
    "SB3VectorEnv",
    "SelfPlayCallback",
    "SelfPlayOpponent",
    "build_game",
    "make_env",
    "make_opponent",
    "make_vector_env",
    "register_gym_envs",
]


_LAZY = {
    "SelfPlayCallback": "connectn_env.gym.selfplay_sb3",
    "SB3VectorEnv": "connectn_env.gym.sb3_vector",
}


def __getattr__(name: str) -> Any:
    """The SB3 parts are imported on first use (they need stable-baselines3)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'connectn_env.gym' has no attribute {name!r}")
