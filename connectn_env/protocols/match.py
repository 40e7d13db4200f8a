"""A game played over a text protocol: the AEC env an agent reads, moves, undo, thinking."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from connectn_env.games import GameState
from connectn_env.records import GameConfig

__all__ = ["ProtocolMatch", "choose_action"]


def choose_action(agent: Any, env: Any, budget: float | None = None) -> tuple[int, str]:
    """The agent's action for ``env.agent_selection``, and a line about the search.

    Args:
        agent: Anything with ``act(env)``. A search agent (``MCTSAgent``, ``PUCTAgent``)
            stops at its own limit or after ``budget`` seconds, whichever comes first; other
            agents are asked ``act(env)`` and are expected to answer quickly.
        env: The AEC env, at the position to move from (not modified).
        budget: Seconds of thinking allowed, or None for the agent's own limit.

    Returns:
        ``(action, note)``; ``note`` is ``""`` or, for a search agent, its simulation count,
        time and value estimate.
    """
    from agents import MCTSAgent, PUCTAgent

    if not isinstance(agent, MCTSAgent | PUCTAgent):
        return int(agent.act(env)), ""

    start = time.perf_counter()

    def stop(simulations: int, seconds: float, value: float) -> bool:
        # Wall-clock time since the call: the search's own clock starts after its set-up.
        return budget is not None and time.perf_counter() - start >= budget

    result = agent.search(env, progress=stop)
    note = (
        f"{result.simulations} simulations in {result.elapsed:.2f} s, "
        f"value {result.root_value:+.2f} for the side to move"
    )
    return int(result.action), note


class ProtocolMatch:
    """One game between the protocol's other side and our agent, through a raw AEC env.

    The env raises on illegal actions and is then unchanged, so a bad move from the other
    side loses nothing. Undo replays the history without the last move.

    Args:
        config: The game.
    """

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.env = config.make_env()
        self.env.reset()

    @property
    def state(self) -> GameState:
        """The current position (read-only: play through :meth:`play`)."""
        return self.env.unwrapped.game_state

    def history(self) -> list[int]:
        """The actions played so far."""
        return self.state.history()

    def play(self, action: int) -> None:
        """Play ``action`` for the side to move.

        Raises:
            IllegalActionError: the action is illegal now (the game is unchanged).
            ValueError: the game is over or the action is out of range (unchanged too).
        """
        if self.state.is_terminal():
            raise ValueError("the game is over")
        self.env.step(action)

    def replay(self, actions: Sequence[int]) -> None:
        """Start again from the empty board and play ``actions``; on an illegal action the
        match is left exactly as it was and the error is raised."""
        before = self.history()
        self.env.reset()
        try:
            for action in actions:
                self.play(action)
        except ValueError:
            self.env.reset()
            for action in before:
                self.env.step(action)
            raise

    def undo(self) -> int:
        """Take back the last move and return it.

        Raises:
            ValueError: no move has been played.
        """
        history = self.history()
        if not history:
            raise ValueError("no move to take back")
        self.replay(history[:-1])
        return history[-1]

    def think(self, agent: Any, budget: float | None = None) -> tuple[int, str]:
        """The agent's action here (see :func:`choose_action`), checked, not played.

        Raises:
            ValueError: the game is over, or the agent failed: it raised (any exception: an
                agent may be user code) or answered an illegal action.
        """
        if self.state.is_terminal():
            raise ValueError("the game is over")
        try:
            action, note = choose_action(agent, self.env, budget)
        except Exception as error:
            raise ValueError(f"the agent raised {type(error).__name__}: {error}") from error
        mask = self.state.legal_action_mask()
        if not (0 <= action < len(mask) and mask[action]):
            raise ValueError(f"the agent chose the illegal action {action}")
        return action, note
