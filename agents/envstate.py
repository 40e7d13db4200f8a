"""Saving, restoring and stepping a Gymnasium env for a planner.

Two ways to save a state, tried in this order:

1. The clone/restore interface: ``env.unwrapped.clone_state() -> state`` and
   ``env.unwrapped.restore_state(state)`` (ALE's Atari envs and this suite's GridPath have
   them). The planner steps ``env.unwrapped`` itself (outer wrappers are bypassed: their time
   limits and reward changes do not apply), with rendering switched off, and puts the
   original state and render mode back when it is done.
2. Copies: the env is copied with all its wrappers (``copy.deepcopy``; pygame windows and
   surfaces are dropped, spaces and the spec are shared, rendering is off) and the planner
   steps the copies: one copy per simulation, so this is slower, but the env given is never
   touched.

Either way the env must be deterministic: the same actions from the same state give the same
rewards and states (a random generator inside the env is saved with a copy, not with
``clone_state``).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium.spaces import Discrete, Space


def _wrapper_chain(env: Any) -> list[Any]:
    """The env and every env it wraps, outermost first."""
    chain = [env]
    while hasattr(chain[-1], "env") and chain[-1] is not chain[-1].unwrapped:
        chain.append(chain[-1].env)
    if chain[-1] is not env.unwrapped:
        chain.append(env.unwrapped)
    return chain


def copy_env(env: Any) -> Any:
    """A copy of ``env`` and its wrappers for simulation: pygame objects dropped, spaces and the
    spec shared, rendering off.

    Raises:
        TypeError: the env cannot be copied (give its unwrapped env ``clone_state`` and
            ``restore_state`` instead).
    """
    memo: dict[int, Any] = {}
    for layer in _wrapper_chain(env):
        for value in vars(layer).values():
            if type(value).__module__.startswith("pygame"):
                memo[id(value)] = None
            elif isinstance(value, Space) or type(value).__name__ == "EnvSpec":
                memo[id(value)] = value
    try:
        clone = copy.deepcopy(env, memo)
    except Exception as error:  # any object deepcopy refuses
        raise TypeError(
            f"cannot copy env {env!r} ({type(error).__name__}: {error}); planning needs a "
            "copyable env or env.unwrapped.clone_state() and restore_state()"
        ) from error
    if hasattr(clone.unwrapped, "render_mode"):
        clone.unwrapped.render_mode = None
    return clone


def has_clone_interface(env: Any) -> bool:
    """True if ``env.unwrapped`` has callable ``clone_state`` and ``restore_state``."""
    unwrapped = env.unwrapped
    return callable(getattr(unwrapped, "clone_state", None)) and callable(
        getattr(unwrapped, "restore_state", None)
    )


class EnvSimulator:
    """Steps a private view of an env and saves and restores its states (module docstring).

    Use it as a context manager: on exit the env given is as it was.

    Args:
        env: A Gymnasium env with a ``Discrete`` action space.

    Attributes:
        actions: Every action of the Discrete space (int64).

    Raises:
        TypeError: ``env`` is not a Gymnasium env with a Discrete action space, or cannot be
            copied and has no clone/restore interface.
    """

    def __init__(self, env: Any) -> None:
        space = getattr(env, "action_space", None)
        if not hasattr(env, "unwrapped") or not isinstance(space, Discrete):
            raise TypeError(
                f"planning needs a Gymnasium env with a Discrete action space, got {env!r}"
            )
        self.interface = "clone_state" if has_clone_interface(env) else "copy"
        self.actions = np.arange(space.start, space.start + space.n, dtype=np.int64)
        if self.interface == "clone_state":
            self.env = env.unwrapped
            self._original = self.env.clone_state()
            self._render_mode = getattr(self.env, "render_mode", None)
        else:
            self.env = copy_env(env)
            self._original = None
            self._render_mode = None

    def __enter__(self) -> EnvSimulator:
        if self.interface == "clone_state" and self._render_mode is not None:
            self.env.render_mode = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.interface == "clone_state":
            self.env.restore_state(self._original)
            if self._render_mode is not None:
                self.env.render_mode = self._render_mode

    def save(self) -> Any:
        """The current state (an opaque token for :meth:`load`)."""
        if self.interface == "clone_state":
            return self.env.clone_state()
        return copy_env(self.env)

    def load(self, token: Any) -> None:
        """Go back to a saved state (the token stays valid)."""
        if self.interface == "clone_state":
            self.env.restore_state(token)
        else:
            self.env = copy_env(token)

    def step(self, action: int) -> tuple[Any, float, bool, bool]:
        """``(observation, reward, terminated, truncated)`` of ``action``."""
        observation, reward, terminated, truncated, _ = self.env.step(int(action))
        return observation, float(reward), bool(terminated), bool(truncated)

    def legal_actions(self) -> np.ndarray:
        """The actions to try here: those of the env's ``action_masks()`` if it has one (the
        sb3-contrib convention), else the whole Discrete space."""
        masks = getattr(self.env.unwrapped, "action_masks", None)
        if callable(masks):
            return self.actions[np.flatnonzero(np.asarray(masks()))]
        return self.actions.copy()


def observation_key(observation: Any) -> Any:
    """A hashable value equal for equal observations (arrays, numbers, strings, and dicts,
    tuples and lists of them)."""
    if isinstance(observation, np.ndarray):
        return (observation.shape, observation.dtype.str, observation.tobytes())
    if isinstance(observation, dict):
        return tuple((key, observation_key(value)) for key, value in sorted(observation.items()))
    if isinstance(observation, tuple | list):
        return tuple(observation_key(value) for value in observation)
    if isinstance(observation, np.generic):
        return observation.item()
    return observation
