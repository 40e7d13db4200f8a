"""Shared helpers of the agent tests: replay move lists on fresh envs, check tactics."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pettingzoo

EnvFactory = Callable[[], Any]

# PettingZoo's classic envs, made through its registry (importing them is deprecated)
pz_tictactoe: EnvFactory = partial(pettingzoo.make, "aec", "classic/tictactoe-v3")
pz_connect_four: EnvFactory = partial(pettingzoo.make, "aec", "classic/connect_four-v3")


def play(make_env: EnvFactory, moves: list[int]) -> Any:
    """A fresh env with ``moves`` played."""
    env = make_env()
    env.reset(seed=0)
    for move in moves:
        env.step(move)
    return env


def legal_actions(env: Any) -> list[int]:
    agent = env.agent_selection
    obs = env.observe(agent)
    mask = obs["action_mask"] if isinstance(obs, dict) else env.infos[agent]["action_mask"]
    return np.flatnonzero(mask).tolist()


def mover_wins(make_env: EnvFactory, moves: list[int], action: int) -> bool:
    """True if playing ``action`` after ``moves`` wins at once for the mover."""
    env = play(make_env, moves)
    mover = env.agent_selection
    env.step(action)
    return bool(env.terminations[mover]) and env.rewards[mover] > 0


def opponent_wins_next(make_env: EnvFactory, moves: list[int]) -> bool:
    """True if the player to move after ``moves`` has a winning move."""
    env = play(make_env, moves)
    return any(mover_wins(make_env, moves, a) for a in legal_actions(env))


def play_game(env: Any, agents: dict[str, Any]) -> dict[str, float]:
    """Play to the end with ``agents[name].act``; return the cumulative rewards."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(agents[agent].act(env))
        for name in env.possible_agents:
            totals[name] += env.rewards.get(name, 0.0)
    return totals
