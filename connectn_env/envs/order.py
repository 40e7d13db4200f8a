"""PettingZoo's call-order checks with errors that say what is wrong.

PettingZoo's ``OrderEnforcingWrapper`` answers ``step()`` before ``reset()`` with a bare
``AssertionError("reset() needs to be called before step.")``. :class:`OrderEnforcedEnv`
keeps its checks but raises :class:`CallOrderError` (a ``ValueError``) naming the call and
what to do; reading ``agents``, ``rewards``... before ``reset()`` raises
:class:`ResetFirstError`, which is also an ``AttributeError`` (so ``hasattr`` keeps
working). ``step()`` or ``last()`` once every agent is done raises :class:`CallOrderError`
too, where PettingZoo logs a warning and ignores the step, and ``last()`` fails with a
``KeyError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.env import AECIterator
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from connectn_env.errors import ConnectnError

_NEEDS_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)


class CallOrderError(ValueError, ConnectnError):
    """An env method called out of order (``step`` before ``reset``...)."""


class ResetFirstError(CallOrderError, AttributeError):
    """An attribute read before ``reset()``; also an ``AttributeError``."""


def game_over_error(call: str) -> CallOrderError:
    """The error for ``call`` (``"last()"``...) made once every agent is done."""
    return CallOrderError(f"the game is over and every agent is done: call reset() before {call}")


class OrderEnforcedEnv(OrderEnforcingWrapper):
    """``OrderEnforcingWrapper`` whose errors are :class:`CallOrderError`."""

    def __getattr__(self, name: str) -> Any:
        if name in _NEEDS_RESET and not self._has_reset:
            raise ResetFirstError(f"env.{name} cannot be read before reset(): call env.reset()")
        return super().__getattr__(name)

    def _require_reset(self, call: str) -> None:
        if not self._has_reset:
            raise CallOrderError(f"{call} was called before reset(): call env.reset() first")

    def step(self, action: Any) -> None:
        self._require_reset("step()")
        if not self.agents:
            raise game_over_error(f"step() (got action {action!r})")
        super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._require_reset("last()")
        if not self.agents:
            raise game_over_error("last()")
        return super().last(observe)

    def observe(self, agent: Any) -> Any:
        self._require_reset("observe()")
        return super().observe(agent)

    def render(self) -> np.ndarray | str | list[Any] | None:
        self._require_reset("render()")
        return super().render()

    def state(self) -> np.ndarray:
        self._require_reset("state()")
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        self._require_reset("agent_iter()")
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):
    def __next__(self) -> Any:
        agent = AECIterator.__next__(self)
        if not self.env._has_updated:
            raise CallOrderError(
                "agent_iter() needs a step() or reset() before each next agent: call "
                "env.step(action) in the loop"
            )
        self.env._has_updated = False
        return agent
