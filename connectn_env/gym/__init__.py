"""Gymnasium single-agent envs (``gym.make("connectn_env/ConnectFour-v0")``) and the
native vector env (``gym.make_vec``): the learner plays one side against an opponent."""

from connectn_env.gym.factories import build_game, make_env, make_vector_env
from connectn_env.gym.opponents import make_opponent
from connectn_env.gym.single_agent import BoardGameGymEnv
from connectn_env.gym.vector import BoardGameVectorEnv
from connectn_env.registration import GYM_ENVS, register_gym_envs

__all__ = [
    "GYM_ENVS",
    "BoardGameGymEnv",
    "BoardGameVectorEnv",
    "build_game",
    "make_env",
    "make_opponent",
    "make_vector_env",
    "register_gym_envs",
]
