"""Agent factories for the arena tests, named by ``module:callable`` specs
(``arena_helpers:first_legal``...); the tests directory is on ``sys.path``."""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from agents import PolicyAgent


def _first(observation: Any, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def first_legal(seed: int | None = None) -> PolicyAgent:
    """Always plays the lowest legal action (deterministic)."""
    return PolicyAgent(_first)


class _Crashing:
    def act(self, env: Any) -> int:
        raise RuntimeError("boom: this agent always fails")


def crashing(seed: int | None = None) -> _Crashing:
    """Raises on every move."""
    return _Crashing()


class _Sleepy:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, env: Any) -> int:
        time.sleep(self.seconds)
        return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def sleepy(seconds: float = 30.0) -> _Sleepy:
    """Sleeps ``seconds`` per move, then plays the lowest legal action (no seed argument)."""
    return _Sleepy(seconds)


class _Exiting:
    def act(self, env: Any) -> int:
        os._exit(3)


def exiting(seed: int | None = None) -> _Exiting:
    """Kills its own process on its first move."""
    return _Exiting()


def broken_factory(seed: int | None = None) -> Any:
    """Fails while the agent is being built."""
    raise ValueError("cannot build this agent")


def not_an_agent(seed: int | None = None) -> int:
    """Returns something without ``act``."""
    return 42


class _Stubborn:
    def act(self, env: Any) -> int:
        return 0


def illegal(seed: int | None = None) -> _Stubborn:
    """Always plays action 0, legal or not (the env refuses it once it is taken)."""
    return _Stubborn()
