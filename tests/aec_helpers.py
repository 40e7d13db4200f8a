"""Helpers shared by the env tests: a comparable snapshot of an env and random play."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from pettingzoo import AECEnv


def snapshot(env: AECEnv) -> dict:
    """Everything a step could change, as plain comparable values."""
    raw = env.unwrapped
    return {
        "data": raw.game_state.data.tolist(),
        "agents": list(raw.agents),
        "agent_selection": raw.agent_selection,
        "rewards": dict(raw.rewards),
        "cumulative": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": {agent: dict(info) for agent, info in raw.infos.items()},
        "observations": {
            agent: {key: value.tolist() for key, value in raw.observe(agent).items()}
            for agent in raw.possible_agents
        },
    }


def play_to_end(
    env: AECEnv, rng: np.random.Generator, check: Callable[[AECEnv], None] | None = None
) -> list[tuple]:
    """Random masked play until every agent is done, calling ``check(env)`` before each step.

    Returns:
        What each turn saw: (agent, reward, done, observation bytes, action).
    """
    trace = []
    for agent in env.agent_iter():
        if check is not None:
            check(env)
        obs, reward, terminated, truncated, _ = env.last()
        done = terminated or truncated
        action = None if done else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, reward, done, obs["observation"].tobytes(), action))
        env.step(action)
    return trace
