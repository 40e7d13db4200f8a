"""A game played over a text protocol: the AEC env an agent reads, moves, undo, thinking."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from connectn_env.games import GameState
from connectn_env.records import GameConfig


def choose_action(agent: Any, env: Any, budget: float | None = None) -> tuple[int, str]:
    """The agent's action for ``env.agent_selection``, and a line about its thinking.

    Args:
        agent: Anything with ``act(env)``. A built-in search agent (``MCTSAgent``,
            ``PUCTAgent``, ``AlphaZeroAgent``) or ``AlphaBetaAgent`` stops after ``budget``
            seconds or at its own budget (simulations, depth, nodes, time), whichever comes
            first (:func:`agents.deadline.time_bounded`): a level's budget is its ceiling,
            the clock its limit. Any other agent (a user's factory) is asked ``act(env)`` and
            cannot be stopped: the protocol waits for it, and the note says by how much it
            ran over.
        env: The AEC env, at the position to move from (not modified).
        budget: Seconds of thinking allowed, or None for the agent's own budget.

    Returns:
        ``(action, note)``; ``note`` is, for a search agent, its simulation count, time and
        value estimate; for alpha-beta its depth, nodes, time and value; for another agent
        ``""``, or its time when it ran over the budget.
    """
    from agents import AlphaBetaAgent
    from agents.deadline import time_bounded
    from agents.search import SearchAgent

    start = time.perf_counter()
    with time_bounded(agent, budget):
        if isinstance(agent, SearchAgent):
            found = agent.search(env)
            return int(found.action), (
                f"{found.simulations} simulations in {found.elapsed:.2f} s, "
                f"value {found.root_value:+.2f} for the side to move"
            )
        if isinstance(agent, AlphaBetaAgent):
            result = agent.analyse(env)
            return int(result.action), (
                f"depth {result.depth}, {result.nodes} nodes in {result.elapsed:.2f} s, "
                f"value {result.value:+.2f} for the side to move"
            )
    action = int(agent.act(env))
    elapsed = time.perf_counter() - start
    if budget is not None and elapsed > budget:
        return action, (
            f"took {elapsed:.2f} s, over the clock's {budget:.2f} s: this agent cannot be "
            "stopped by the clock"
        )
    return action, ""


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
