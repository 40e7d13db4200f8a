"""What the agents read from a PettingZoo AEC environment, and how they copy one.

Only the public AEC API is used: ``agent_selection``, ``observe``, ``infos``,
``terminations``, ``truncations``, ``rewards``, ``possible_agents``, ``action_space``,
``step`` and ``unwrapped``.
"""

from __future__ import annotations

import copy
import copyreg
import types
from typing import Any

import numpy as np
from gymnasium.spaces import Space

from connectn_env.games import GameKernels, GameState


def native_state(env: Any) -> GameState | None:
    """The env's position if its game has compiled kernels (the suite's games, and any game
    plugin registered with it), else None."""
    state = getattr(getattr(env, "unwrapped", env), "game_state", None)
    game = getattr(state, "game", None)
    if isinstance(getattr(game, "kernels", None), GameKernels) and hasattr(state, "data"):
        return state
    return None


def require_env(env: Any) -> Any:
    """``env`` if it has the AEC API the agents read, else a TypeError naming it."""
    missing = [name for name in ("agent_selection", "agents", "observe", "step")
               if not hasattr(env, name)]  # fmt: skip
    if missing:
        raise TypeError(
            f"env must be a PettingZoo AEC env (agent_selection, agents, observe, step), got "
            f"{env!r:.80} of type {type(env).__name__}, which has no {', '.join(missing)}"
        )
    return env


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
    if is_over(require_env(env)):
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


_ATOMS = (int, float, str, bool, bytes, type(None), np.generic)
_SHARED = (types.ModuleType, types.FunctionType, type, Space)  # never changed by stepping
_AEC_ENV: type | None = None
_PLAIN: dict[type, bool] = {}


def _aec_env() -> type:
    global _AEC_ENV
    if _AEC_ENV is None:
        from pettingzoo import AECEnv

        _AEC_ENV = AECEnv
    return _AEC_ENV


def _is_plain(cls: type) -> bool:
    """True if ``copy.deepcopy`` would copy instances of ``cls`` by copying their ``__dict__``
    (no custom copy or pickling hooks, no slots), so :func:`_copy` may do that directly."""
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _PLAIN[cls] = (
            cls.__reduce_ex__ is object.__reduce_ex__
            and cls.__reduce__ is object.__reduce__
            and getattr(cls, "__getstate__", object.__getstate__) is object.__getstate__
            and not hasattr(cls, "__setstate__")
            and not hasattr(cls, "__deepcopy__")
            and not hasattr(cls, "__slots__")
            and "__dict__" in dir(cls)
            and cls.__new__ is object.__new__
            and cls not in copyreg.dispatch_table
        )
    return plain


def _copy_dict_of(obj: Any, memo: dict[int, Any], *, env: bool = False) -> Any:
    result = type(obj).__new__(type(obj))
    memo[id(obj)] = result
    state = {k: _copy(v, memo) for k, v in vars(obj).items()}
    if env and "render_mode" in state:
        state["render_mode"] = None
    result.__dict__.update(state)
    return result


def _copy(obj: Any, memo: dict[int, Any]) -> Any:
    if isinstance(obj, _ATOMS):
        return obj
    if id(obj) in memo:
        return memo[id(obj)]
    cls = type(obj)
    if cls is dict:
        result = {}
        memo[id(obj)] = result
        result.update((k, _copy(v, memo)) for k, v in obj.items())
        return result
    if cls is list:
        result = memo[id(obj)] = [_copy(v, memo) for v in obj]
        return result
    if cls is np.ndarray:
        result = memo[id(obj)] = obj.copy()
        return result
    module = cls.__module__ or ""
    if module.startswith("pygame"):
        result = None  # windows, surfaces, clocks: a copy never draws
    elif module.startswith("pyspiel"):
        result = obj.clone() if hasattr(obj, "clone") else obj  # states clone; games are shared
    elif isinstance(obj, _SHARED):
        result = obj  # spaces are not changed by stepping
    elif isinstance(obj, _aec_env()):
        # Bypass __reduce_ex__: EzPickle envs (PettingZoo classic, shimmy) would rebuild a
        # fresh, un-reset env from their constructor arguments.
        return _copy_dict_of(obj, memo, env=True)
    elif cls is tuple:
        result = tuple(_copy(v, memo) for v in obj)
    elif _is_plain(cls):
        return _copy_dict_of(obj, memo)
    else:
        result = copy.deepcopy(obj, memo)
    memo[id(obj)] = result
    return result


def transparent_core(env: Any) -> Any:
    """``env`` without its outer PettingZoo wrappers that change nothing when only legal
    actions are played (order enforcing, out-of-bounds assertion, illegal-move termination):
    simulating on the inner env is the same game, without the wrappers' per-call cost."""
    from pettingzoo.utils.wrappers import (
        AssertOutOfBoundsWrapper,
        OrderEnforcingWrapper,
        TerminateIllegalWrapper,
    )

    transparent = (AssertOutOfBoundsWrapper, OrderEnforcingWrapper, TerminateIllegalWrapper)
    while type(env) in transparent:
        env = env.env
    return env


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
