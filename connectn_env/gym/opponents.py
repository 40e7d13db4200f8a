"""The built-in opponent of the single-agent envs: random, an ``agents`` agent, a callable,
or the learner itself (:mod:`connectn_env.gym.selfplay`).

Every opponent is wrapped in an adapter with two methods, ``reset(seed)`` at the start of
an episode and ``act(state) -> action`` for the player to move in a
:class:`~connectn_env.games.GameState`. The env checks the action it gets back.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import BoardGame, GameState, IllegalActionError
from connectn_env.games.validation import require_action
from connectn_env.gym.selfplay import SelfPlayOpponent, SelfPlaySeat, make_self_play
from connectn_env.memory_limits import check_max_nodes

OPPONENT_NAMES = ("random", "mcts", "self")
KWARGS_OPPONENTS = ("mcts", "self")  # the names that take opponent_kwargs


class Opponent(Protocol):
    """What the single-agent envs need from an opponent."""

    def reset(self, seed: int) -> None:
        """Start a new episode; ``seed`` makes the opponent's choices reproducible."""

    def act(self, state: GameState) -> int:
        """An action for the player to move in ``state`` (which must not be modified)."""


class RandomOpponent:
    """Plays a uniformly random legal action."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def reset(self, seed: int) -> None:
        """Reseed the generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, state: GameState) -> int:
        """A uniformly random legal action."""
        legal = np.flatnonzero(state.legal_action_mask())
        return int(legal[self.rng.integers(len(legal))])

    def __repr__(self) -> str:
        return "RandomOpponent()"


class CallableOpponent:
    """Calls ``fn(observation, action_mask) -> action`` with the opponent's own view.

    ``observation`` is the int8 (rows, cols, 2) planes [opponent's stones, learner's
    stones] and ``action_mask`` the int8 legal-action mask; both are new arrays.
    """

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any]) -> None:
        self.fn = fn

    def reset(self, seed: int) -> None:
        """Nothing to reseed: a callable owns its randomness."""

    def act(self, state: GameState) -> int:
        """The callable's choice."""
        return self.fn(state.observation(state.current_player()), state.legal_action_mask())

    def __repr__(self) -> str:
        return f"CallableOpponent({self.fn!r})"


class AgentOpponent:
    """Drives an agent of the ``agents`` package (anything with ``act(env) -> action``).

    The agent reads a private PettingZoo AEC env that is brought to the position of
    ``state`` before each call, by replaying the moves it has not seen yet. If the agent
    has a ``seed(seed)`` method, ``reset`` calls it.
    """

    def __init__(self, agent: Any, game: BoardGame) -> None:
        self.agent = agent
        self.env = BoardGameEnv(game)

    def reset(self, seed: int) -> None:
        """Start the private env afresh and reseed the agent."""
        self.env.reset()
        seed_fn = getattr(self.agent, "seed", None)
        if callable(seed_fn):
            seed_fn(seed)

    def act(self, state: GameState) -> int:
        """The agent's choice in ``state``."""
        self._sync(state.history())
        return self.agent.act(self.env)

    def _sync(self, history: list[int]) -> None:
        seen = self.env.game_state.history()
        if seen != history[: len(seen)]:
            self.env.reset()
            seen = []
        for action in history[len(seen) :]:
            self.env.step(action)

    def __repr__(self) -> str:
        return f"AgentOpponent({self.agent!r})"


class MCTSOpponent(AgentOpponent):
    """An ``agents.MCTSAgent(**kwargs)``, rebuilt with the episode's seed at each reset.

    Unless ``kwargs`` sets ``max_nodes``, the tree is bounded by ``4 * simulations *
    num_actions + 1`` nodes (room for every expansion of a search plus a reused subtree), so
    that copying or pickling the env does not copy the agent's default million-node buffers.

    Raises:
        ValueError: ``kwargs`` holds a ``seed`` (the env seeds the opponent) or a value the
            agent refuses.
        TypeError: ``kwargs`` holds an argument the agent does not take, or of a wrong type.
    """

    def __init__(self, kwargs: dict[str, Any], game: BoardGame) -> None:
        from agents import MCTSAgent  # lazy: agents is only needed for this opponent
        from agents.search import DEFAULT_MAX_NODES

        if "seed" in kwargs:
            raise ValueError(
                "opponent_kwargs must not hold a seed: the env seeds its opponent "
                "(use reset(seed=...))"
            )
        allowed = set(inspect.signature(MCTSAgent).parameters) - {"seed"}
        unknown = sorted(str(key) for key in kwargs if key not in allowed)
        if unknown:
            raise TypeError(
                f"opponent_kwargs {kwargs!r}: {unknown[0]!r} is not an MCTSAgent argument; "
                f"valid: {', '.join(sorted(allowed))}"
            )
        if "max_nodes" in kwargs:  # what the machine cannot hold is refused now
            check_max_nodes(kwargs["max_nodes"])
        self.kwargs = dict(kwargs)
        simulations = kwargs.get("simulations")
        if "max_nodes" not in kwargs and isinstance(simulations, int) and simulations > 0:
            bound = 4 * simulations * game.num_actions + 1
            self.kwargs["max_nodes"] = min(bound, DEFAULT_MAX_NODES)
        self._agent_class = MCTSAgent
        super().__init__(MCTSAgent(**self.kwargs), game)

    def reset(self, seed: int) -> None:
        """A fresh agent seeded with ``seed`` (no tree is kept from the last episode)."""
        self.agent = self._agent_class(**self.kwargs, seed=seed)
        self.env.reset()

    def __repr__(self) -> str:
        return f"MCTSOpponent({self.kwargs!r})"


class SpecOpponent(AgentOpponent):
    """The agent an agent spec names (``"ab:depth=4"``, ``"mcts:simulations=200,max_nodes=
    100000"``; see :mod:`connectn_env.specs`), rebuilt with the episode's seed at each reset
    (a ``seed`` key in the spec fixes it instead).

    Raises:
        ValueError: the spec is malformed, names ``human``, or names an agent that cannot
            play ``game`` (``perfect`` outside Connect Four, an ``az`` network of another
            game).
    """

    def __init__(self, text: str, game: BoardGame) -> None:
        from connectn_env.specs import parse_agent_spec, resolve_agent  # lazy: built on demand

        try:
            self.spec = parse_agent_spec(text, allow_human=False)
        except ValueError as error:
            names = ", ".join(repr(name) for name in OPPONENT_NAMES)
            raise ValueError(
                f"opponent {text!r} is neither one of {names} nor a valid agent spec: {error}"
            ) from None
        super().__init__(resolve_agent(self.spec, game, seed=0), game)

    def reset(self, seed: int) -> None:
        """A fresh agent seeded with ``seed`` (nothing is kept from the last episode)."""
        from connectn_env.specs import resolve_agent

        self.agent = resolve_agent(self.spec, self.env.game, seed=seed)
        self.env.reset()

    def __repr__(self) -> str:
        return f"SpecOpponent({str(self.spec)!r})"


def play_reply(opponent: Opponent, state: GameState) -> None:
    """Play ``opponent``'s choice in ``state`` (see :func:`apply_reply`)."""
    apply_reply(opponent, state, opponent.act(state))


def play_replies(opponents: Sequence[Opponent], states: Sequence[GameState]) -> None:
    """Play each opponent's choice in its state; the seats of one
    :class:`~connectn_env.gym.selfplay.SelfPlayOpponent` choose together, in one batch.

    Every choice is made before any is played.

    Raises:
        IllegalActionError: as :func:`apply_reply`; the states before it are played.
    """
    actions: list[Any] = [None] * len(opponents)
    pools: dict[int, list[int]] = {}
    for k, opponent in enumerate(opponents):
        if isinstance(opponent, SelfPlaySeat):
            pools.setdefault(id(opponent.pool), []).append(k)
        else:
            actions[k] = opponent.act(states[k])
    for rows in pools.values():
        seats = [opponents[k] for k in rows]
        chosen = seats[0].pool.act_batch(seats, [states[k] for k in rows])
        for k, action in zip(rows, chosen, strict=True):
            actions[k] = action
    for opponent, state, action in zip(opponents, states, actions, strict=True):
        apply_reply(opponent, state, action)


def apply_reply(opponent: Opponent, state: GameState, action: Any) -> None:
    """Play ``action``, ``opponent``'s choice, in ``state``.

    The action is checked in Python (an integer inside the action space) before it
    reaches the compiled rules, so an opponent answering ``2**63`` gets a clear error.

    Raises:
        IllegalActionError: the opponent chose an illegal action, one outside the action
            space or a non-integer (its message names the opponent); ``state`` is unchanged.
    """
    try:
        action = require_action(action, state.game.num_actions)
        state.apply_action(action)
    except (TypeError, ValueError) as error:
        raise IllegalActionError(
            f"the opponent {opponent!r} chose an illegal action: {error}"
        ) from error


def make_opponent(
    opponent: Any, opponent_kwargs: dict[str, Any] | None, game: BoardGame
) -> Opponent:
    """Build the adapter for ``opponent``.

    Args:
        opponent: ``"random"``, ``"mcts"`` (an ``agents.MCTSAgent(**opponent_kwargs)``,
            reseeded every episode), ``"self"`` (a new
            :class:`~connectn_env.gym.selfplay.SelfPlayOpponent` made with
            ``opponent_kwargs``), a ``SelfPlayOpponent`` (a seat at that shared pool),
            another agent spec such as ``"ab:depth=4"`` (built afresh with the episode's
            seed), an agent object with ``act(env)``, or a callable
            ``fn(observation, action_mask) -> action``. An agent object is used as it is
            (not copied): envs given the same object share it.
        opponent_kwargs: Keyword arguments for ``"mcts"`` or ``"self"``; must be None
            otherwise.
        game: The game the opponent plays.

    Raises:
        TypeError: ``opponent`` is none of the above, or ``opponent_kwargs`` is not a dict
            or holds a key the opponent does not take.
        ValueError: a string that is neither a name nor an agent spec, or ``opponent_kwargs``
            given for an opponent that takes none.
    """
    if opponent_kwargs is not None and not isinstance(opponent_kwargs, dict):
        raise TypeError(
            f"opponent_kwargs must be a dict or None, got {type(opponent_kwargs).__name__}"
        )
    if isinstance(opponent, str) and opponent == "mcts":
        return MCTSOpponent(opponent_kwargs or {}, game)
    if isinstance(opponent, str) and opponent == "self":
        return make_self_play(opponent_kwargs).seat()
    if opponent_kwargs:
        names = " or ".join(repr(name) for name in KWARGS_OPPONENTS)
        raise ValueError(
            f"opponent_kwargs are only used with opponent={names}, got {opponent_kwargs!r} "
            f"for opponent {opponent!r}"
        )
    if isinstance(opponent, str):
        if opponent == "random":
            return RandomOpponent()
        return SpecOpponent(opponent, game)  # an agent spec such as "ab:depth=4"
    if isinstance(opponent, SelfPlayOpponent):
        return opponent.seat()
    if hasattr(opponent, "act"):
        return AgentOpponent(opponent, game)
    if callable(opponent):
        return CallableOpponent(opponent)
    raise TypeError(
        "opponent must be 'random', 'mcts', 'self', an agent spec, a SelfPlayOpponent, an "
        "agent with act(env) or a callable fn(observation, action_mask) -> action, got "
        f"{opponent!r} of type {type(opponent).__name__}"
    )
