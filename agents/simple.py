"""Agents without search: uniformly random moves, and any policy function."""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import options as declare
from agents.envapi import legal_mask, observation_and_mask
from agents.search import check_seed


@dataclass(frozen=True)
class RandomOptions:
    """:class:`RandomAgent`'s options as declared once (spec ``random[:seed=S]``)."""

    seed: int | None = declare.seed()

    def __post_init__(self) -> None:
        declare.check_fields(self)


class RandomAgent:
    """Plays a uniformly random legal action.

    Args:
        seed: None, an int or a ``np.random.Generator``.
    """

    def __init__(self, seed: Any = None) -> None:
        self._generator = check_seed(seed)

    def act(self, env: Any) -> int:
        """A random legal action for ``env.agent_selection``.

        Raises:
            ValueError: the game is over or the agent to move has no legal action.
        """
        return int(self._generator.choice(np.flatnonzero(legal_mask(env))))

    def __repr__(self) -> str:
        return "RandomAgent()"


class PolicyAgent:
    """Adapts a policy ``fn(observation, action_mask) -> action`` (an RL library's model).

    ``observation`` is ``env.observe(agent)["observation"]`` when the observation is a dict
    with that key (PettingZoo classic and this suite), else the whole observation;
    ``action_mask`` is the int8 mask of legal actions. The returned action may be a Python or
    numpy integer or a one-element array; it is checked against the mask.

    Args:
        fn: The policy function.
    """

    def __init__(self, fn: Callable[[Any, np.ndarray], Any]) -> None:
        if not callable(fn):
            raise TypeError(f"fn must be callable as fn(observation, action_mask), got {fn!r}")
        self.fn = fn

    def act(self, env: Any) -> int:
        """The policy's action for ``env.agent_selection``.

        Raises:
            ValueError: the game is over, no action is legal, or the policy returned an
                illegal action.
            TypeError: the policy returned something that is not an integer action.
        """
        mask = legal_mask(env)
        obs = observation_and_mask(env, env.agent_selection)[0]
        if isinstance(obs, dict) and "observation" in obs:
            obs = obs["observation"]
        raw = self.fn(obs, mask.copy())
        action = raw
        if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = action.reshape(()).item()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise TypeError(
                f"the policy returned {raw!r} of type {type(raw).__name__}; it must return "
                "an integer action"
            )
        action = int(action)
        if not 0 <= action < len(mask) or not mask[action]:
            legal = np.flatnonzero(mask).tolist()
            raise ValueError(
                f"the policy returned action {action}, which is not legal for "
                f"{env.agent_selection}; legal actions: {legal}"
            )
        return action

    def __repr__(self) -> str:
        return f"PolicyAgent({self.fn!r})"
