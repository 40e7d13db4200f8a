"""The native vector env as a stable-baselines3 ``VecEnv``: SB3 (PPO, MaskablePPO...) trains
on the compiled boards directly, with the opponent's replies batched (a self-play pool's
snapshots are evaluated once per step for all boards, not once per board).

This module imports stable-baselines3 (``pip install ".[rl]"``); the envs do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from connectn_env.gym.vector import BoardGameVectorEnv


class SB3VectorEnv(VecEnv):
    """A :class:`~connectn_env.gym.vector.BoardGameVectorEnv` seen as an SB3 ``VecEnv``.

    SB3 resets a finished episode in the step that ends it, so the vector env must use
    ``autoreset_mode="SameStep"``; the last observation of a finished episode is in
    ``infos[i]["terminal_observation"]`` (and ``infos[i]["illegal_action"]`` is True when
    an illegal action ended it). ``env_method("action_masks")`` gives each board's legal-
    action mask (what sb3-contrib's MaskablePPO asks for); ``get_attr(name)`` reads the
    vector env's attribute ``name`` for every board (``self_play``: the shared pool). Wrap
    it in SB3's ``VecMonitor`` for episode statistics.

    Args:
        env: The vector env (``gym.make_vec(id, num_envs=..., autoreset_mode="SameStep",
            ...)``; a wrapper around one is unwrapped).

    Raises:
        TypeError: ``env`` is not a BoardGameVectorEnv.
        ValueError: its autoreset mode is not ``"SameStep"``.
    """

    def __init__(self, env: Any) -> None:
        native = getattr(env, "unwrapped", env)
        if not isinstance(native, BoardGameVectorEnv):
            raise TypeError(
                f"env must be a BoardGameVectorEnv (gym.make_vec of a connectn_env id), got "
                f"{env!r} of type {type(env).__name__}"
            )
        if native.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError(
                f"env must reset finished boards in the same step, as SB3 expects: make it "
                f"with autoreset_mode='SameStep', got {native.autoreset_mode.value!r}"
            )
        self.env = native
        self._actions: np.ndarray | None = None
        super().__init__(
            native.num_envs, native.single_observation_space, native.single_action_space
        )

    def reset(self) -> np.ndarray:
        """Reset every board with the seeds given to ``seed()`` (if any)."""
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        observations, _ = self.env.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step every board; finished boards are already reset."""
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        illegal = info.get("final_info", {}).get("illegal_action")
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            if illegal is not None and illegal[i]:
                infos[i]["illegal_action"] = True
        return observations, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        """Close the vector env."""
        self.env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector env's attribute ``attr_name``, once per board of ``indices``."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Refused: the boards share one env object.

        Raises:
            AttributeError: always.
        """
        raise AttributeError(
            f"set_attr({attr_name!r}) is not supported: the boards of SB3VectorEnv share one "
            "env; set the attribute on SB3VectorEnv.env"
        )

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        """``env_method("action_masks")``: each board's int8 legal-action mask.

        Raises:
            AttributeError: another method name.
        """
        if method_name != "action_masks" or method_args or kwargs:
            raise AttributeError(
                f"env_method({method_name!r}) is not supported by SB3VectorEnv; only "
                "env_method('action_masks') is"
            )
        masks = self.env.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """No board is wrapped."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """One RGB frame per board (``render_mode="rgb_array"``)."""
        return list(self.env.render() or [None] * self.num_envs)

    def __repr__(self) -> str:
        return f"SB3VectorEnv({self.env!r})"
