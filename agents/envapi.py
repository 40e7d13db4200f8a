"""What the agents read from a PettingZoo AEC environment, and how they copy one.

Only the public AEC API is used: ``agent_selection``, ``observe``, ``infos``,
``terminations``, ``truncations``, ``rewards``, ``possible_agents``, ``action_space``,
``step`` and ``unwrapped``.
"""

from __future__ import annotations

import copy
import types
from typing import Any

import numpy as np
from gymnasium.spaces import Space

from connectn_env.games import GameState


def native_state(env: Any) -> GameState | None:
    """The env's :class:`~connectn_env.games.GameState` if it is one of this suite's envs."""
    state = getattr(getattr(env, "unwrapped", env), "game_state", None)
    return state if isinstance(state, GameState) else None


def is_over(env: Any) -> bool:
    """True if the game is finished (no agent left, or the agent to move is done)."""
    agent = env.agent_selection
    if not env.agents or agent not in env.agents:
        return True
    return bool(env.terminations.get(agent, False) or env.truncations.get(agent, False))


def observation_and_mask(env: Any, agent: str) -> tuple[Any, np.ndarray]:
    """``(observation, action_mask)`` of ``agent``; the mask comes from the observation dict,
    else from ``infos[agent]["action_mask"]``, else every action of a Discrete space is legal."""
    obs = env.observe(agent)
    if isinstance(obs, dict) and "action_mask" in obs:
        return obs, np.asarray(obs["action_mask"], dtype=np.int8)
    info = env.infos.get(agent, {}) if hasattr(env, "infos") else {}
    if isinstance(info, dict) and "action_mask" in info:
        return obs, np.asarray(info["action_mask"], dtype=np.int8)
    space = env.action_space(agent)
    if not hasattr(space, "n"):
        raise TypeError(f"agents need a Discrete action space, got {space!r} for {agent!r}")
    return obs, np.ones(int(space.n), dtype=np.int8)


def legal_mask(env: Any) -> np.ndarray:
    """Action mask of the agent to move; raises ValueError if the game is over or no move is
    legal."""
    if is_over(env):
        raise ValueError("the game is over: reset the env before asking an agent for a move")
    agent = env.agent_selection
    mask = observation_and_mask(env, agent)[1]
    if not mask.any():
        raise ValueError(f"agent {agent!r} has no legal action (its action mask is all zeros)")
    return mask


def same_observation(a: Any, b: Any) -> bool:
    """Deep equality of two observations (dicts, sequences, arrays, scalars)."""
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and a.keys() == b.keys()
            and all(same_observation(a[k], b[k]) for k in a)
        )
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, list | tuple):
        return (
            isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(same_observation(x, y) for x, y in zip(a, b, strict=True))
        )
    return bool(a == b)


def _is_env(obj: Any) -> bool:
    from pettingzoo import AECEnv

    return isinstance(obj, AECEnv)


_ATOMS = (int, float, str, bool, bytes, type(None), np.generic)


def _copy(obj: Any, memo: dict[int, Any]) -> Any:
    if isinstance(obj, _ATOMS):
        return obj
    if id(obj) in memo:
        return memo[id(obj)]
    if type(obj) is np.ndarray:
        result = memo[id(obj)] = obj.copy()
        return result
    module = type(obj).__module__ or ""
    if module.startswith("pygame"):
        result = None  # windows, surfaces, clocks: a copy never draws
    elif module.startswith("pyspiel"):
        result = obj.clone() if hasattr(obj, "clone") else obj  # states clone; games are shared
    elif isinstance(obj, types.ModuleType | types.FunctionType | type | Space):
        result = obj  # spaces are not changed by stepping
    elif _is_env(obj):
        # Bypass __reduce_ex__: EzPickle envs (PettingZoo classic, shimmy) would rebuild a
        # fresh, un-reset env from their constructor arguments.
        result = type(obj).__new__(type(obj))
        memo[id(obj)] = result
        state = {k: _copy(v, memo) for k, v in vars(obj).items()}
        if "render_mode" in state:
            state["render_mode"] = None
        result.__dict__.update(state)
    elif type(obj) is dict:
        result = {}
        memo[id(obj)] = result
        result.update((k, _copy(v, memo)) for k, v in obj.items())
    elif type(obj) in (list, tuple):
        items = [_copy(v, memo) for v in obj]
        result = items if type(obj) is list else tuple(items)
    else:
        result = copy.deepcopy(obj, memo)
    memo[id(obj)] = result
    return result


def copy_unchecked(env: Any) -> Any:
    """Copy ``env`` like :func:`clone_env` without checking the copy (for the hot loop)."""
    return _copy(env, {})


def clone_env(env: Any) -> Any:
    """An independent copy of ``env`` in the same position, for simulation.

    Wrappers and envs are copied attribute by attribute (not through pickling), pyspiel
    states with ``clone()``, pyspiel games shared, pygame objects dropped, rendering off.

    Raises:
        TypeError: the copy does not observe the same position as ``env``.
    """
    clone = copy_unchecked(env)
    agent = env.agent_selection
    if clone.agent_selection != agent or not same_observation(
        clone.observe(agent), env.observe(agent)
    ):
        raise TypeError(
            f"cannot copy env {env!r}: the copy does not observe the same position, so a "
            "search on it would be wrong; give the env a state that copy.deepcopy preserves"
        )
    return clone
