"""The bootstrap phase of a training run: games of a search agent as the first training data.

Before self-play, the agent an agent spec names (the game's strongest search:
``mcts:simulations=2000``, ``ab:depth=6``...) plays ``bootstrap_games`` games against itself,
each from a randomised opening (:func:`agents.selfplay.random_opening`: the run's
``opening_moves``, or about the square root of the number of cells where that is 0, so that a
deterministic searcher does not play one game over and over; at least the run's
``bootstrap_min_opening`` moves, so that a solver starts where it solves fast). Each position
it searched is a training example, as in expert iteration: the policy target is its search's
policy (:attr:`SearchResult.pi <agents.search.SearchResult.pi>`, the target self-play trains
on: the visit shares for UCT and PUCT) where the agent is a search agent, else a one-hot on the
move it chose (alpha-beta, Connect Four's perfect player); the value target is the game's
result for the player to move. A game comes back as a :class:`~agents.selfplay.SelfPlayGame`,
so its positions enter the replay buffer (and its symmetries) as self-play's do.

Game ``i`` depends on the run's seed and ``i`` only (its opening and the agent's seed), not on
the worker that plays it nor on when: the trainer takes the games in order, so a resumed or
multi-worker bootstrap phase trains on the same games in the same order.

The agent is built from its spec by the resolver the trainer is handed (``connectn train``
passes :func:`connectn_env.specs.resolve_agent`): the specs sit above this package.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.alphabeta import AlphaBetaAgent
from agents.search import SearchAgent
from agents.selfplay import SelfPlayGame, random_opening
from connectn_env.games import BoardGame
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_action

# resolve(spec, game, *, seed) -> agent: connectn_env.specs.resolve_agent
AgentResolver = Callable[..., Any]
_STREAM = 4  # the run's seed stream of the bootstrap games (self-play's workers use 2)


def opening_moves_of(game: BoardGame, opening_moves: int) -> int:
    """The most random opening moves of a bootstrap game: the run's ``opening_moves``, or
    where that is 0, about the square root of the number of cells."""
    return opening_moves or max(1, round(math.sqrt(game.rows * game.cols)))


@dataclass(frozen=True)
class BootstrapTask:
    """Game ``index`` of a run's bootstrap phase.

    Attributes:
        spec: The agent spec.
        resolve: Builds the agent: ``resolve(spec, game, seed=...)``.
        index: The game's number in the phase, from 0.
        seed: The run's seed.
        opening_moves: The run's ``opening_moves`` (see :func:`opening_moves_of`).
        fewest_opening_moves: The fewest random opening moves (the run's
            ``bootstrap_min_opening``).
    """

    spec: str
    resolve: AgentResolver
    index: int
    seed: int
    opening_moves: int
    fewest_opening_moves: int = 0

    def _streams(self) -> list[np.random.SeedSequence]:
        return np.random.SeedSequence([self.seed, _STREAM, self.index]).spawn(2)

    def opening(self, game: BoardGame) -> list[int]:
        """The game's random opening moves (not searched, not trained on)."""
        generator = np.random.default_rng(self._streams()[0])
        moves = opening_moves_of(game, self.opening_moves)
        return random_opening(game, moves, generator, self.fewest_opening_moves).history()

    @property
    def agent_seed(self) -> int:
        """The seed the agent of this game is built with (unless its spec sets one)."""
        return int(self._streams()[1].generate_state(1)[0])

    def agent(self, config: GameConfig, seed: int) -> Any:
        """The agent of the spec for ``config``'s game, built with ``seed``.

        Raises:
            ValueError: a bad spec, a game it cannot play, or ``human``.
            TypeError: a factory that returned no agent.
        """
        agent = self.resolve(self.spec, config, seed=seed)
        if agent is None:
            raise ValueError(f"{self.spec!r} is a person, not an agent that plays by itself")
        return agent


@dataclass(frozen=True)
class BootstrapGame:
    """A finished bootstrap game.

    Attributes:
        index: Its number in the phase.
        game: Its positions as training data (the opening's left out).
        cpu_seconds: CPU time of the process that played it (building the agent included).
    """

    index: int
    game: SelfPlayGame
    cpu_seconds: float


def play_bootstrap_game(task: BootstrapTask, config: GameConfig) -> BootstrapGame:
    """Play game ``task.index`` of the phase to its end: the opening, then the agent on both
    sides, every position it searched recorded with its targets."""
    start = time.process_time()
    game = config.make_game()
    agent = task.agent(config, task.agent_seed)
    env = config.make_env()
    env.reset()
    for action in task.opening(game):
        env.step(action)
    trace = []
    while not env.game_state.is_terminal():
        state = env.game_state
        player = state.current_player()
        observation, mask = state.observation(player), state.legal_action_mask()
        action, policy = search_target(agent, env, game.num_actions)
        trace.append((observation, player, mask, policy, action))
        env.step(action)
    record = SelfPlayGame(
        observations=np.stack([step[0] for step in trace]),
        players=np.array([step[1] for step in trace], dtype=np.int8),
        masks=np.stack([step[2] for step in trace]),
        policies=np.stack([step[3] for step in trace]),
        moves=np.array([step[4] for step in trace], dtype=np.int64),
        result=float(env.game_state.returns()[0]),
    )
    return BootstrapGame(task.index, record, time.process_time() - start)


def search_target(agent: Any, env: Any, num_actions: int) -> tuple[int, np.ndarray]:
    """The agent's move in ``env`` and its policy target (float32, ``num_actions``): a search
    agent's :attr:`~agents.search.SearchResult.pi`, another agent's move as a one-hot."""
    if isinstance(agent, SearchAgent):
        result = agent.search(env)
        return int(result.action), result.pi.astype(np.float32)
    action = require_action(agent.act(env), num_actions, "the bootstrap agent")
    policy = np.zeros(num_actions, dtype=np.float32)
    policy[action] = 1.0
    return action, policy


def warm_up_agent(task: BootstrapTask, config: GameConfig) -> None:
    """Compile (or load from numba's cache) what the agent's searches need, before a time
    budget's clock starts (search and alpha-beta agents; others are not asked)."""
    agent = task.agent(config, 0)
    if isinstance(agent, SearchAgent | AlphaBetaAgent):
        env = config.make_env()
        env.reset()
        agent.prepare(env, later_moves=True)
