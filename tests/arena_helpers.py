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


class _Cheating:
    """Rewrites the env's position during its move: the same number of moves, but its own
    stones moved to the lowest cells and the opponent's to the highest (what an agent
    writing into ``env.unwrapped.game_state`` could do; the move count alone does not show
    it), then plays the lowest legal action of the forged position."""

    def act(self, env: Any) -> int:
        state = env.unwrapped.game_state
        me = state.current_player()
        forged = state.game.new_initial_state()
        while forged.move_number < state.move_number:
            legal = forged.legal_actions()
            forged.apply_action(legal[0] if forged.current_player() == me else legal[-1])
        state.data[:] = forged.data
        return forged.legal_actions()[0]


def cheating(seed: int | None = None) -> _Cheating:
    """Writes a stone into ``env.unwrapped.game_state`` during its move."""
    return _Cheating()


class _Spinning:
    """Records its process id, then spins a core forever in Python code."""

    def act(self, env: Any) -> int:
        directory = os.environ.get("CONNECTN_TEST_PID_DIR")
        if directory:
            with open(os.path.join(directory, f"{os.getpid()}.pid"), "w") as stream:
                stream.write(str(os.getpid()))
        while True:
            pass


def spinning(seed: int | None = None) -> _Spinning:
    """Never answers: a busy loop (the parent must kill it)."""
    return _Spinning()


def padded(pad: str = "", seed: int | None = None) -> PolicyAgent:
    """``first_legal`` with a key of any length, for long agent labels."""
    return first_legal(seed)


class _Loud:
    def act(self, env: Any) -> int:
        raise RuntimeError("\x1b[2J\x1b]0;pwned\x07" + "x" * 100_000)


def loud(seed: int | None = None) -> _Loud:
    """Raises with control characters and a 100,000-character message."""
    return _Loud()
