"""Positions of third-party envs for the generic search: the cheapest faithful copy per env.

A search copies its root position once per simulation and plays moves and random play-outs on
the copies. A *state adapter* turns an env (its outer transparent wrappers removed) into such a
position, a :class:`SimState`; adapters are looked up by the env's type in a small registry:

- shimmy's ``OpenSpielCompatibilityV0`` on a deterministic, sequential two-player game: the
  ``pyspiel.State`` itself, copied with ``clone()`` (C++) and stepped with ``apply_action``;
- PettingZoo's ``tictactoe_v3`` and ``connect_four_v3``: a position of the suite's game with
  the same rules (Connect-N), set up from the env's board and played by its compiled kernels;
- anything else: :class:`EnvCopyState`, a full copy of the env per simulation (the fallback).

Each adapter must be move-by-move equal to the full copy (legal actions, end of game, rewards
since the root): ``tests/test_generic_fast_clone.py`` plays random games to check it.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from agents.envapi import copy_unchecked, is_over, observation_and_mask
from connectn_env.games import ConnectNGame
from connectn_env.games.codes import ONGOING
from connectn_env.games.contract import bind
from connectn_env.games.state import GameState


class SimState:
    """A position to simulate on, with the simulation's trace (moves and movers) since the
    root. Subclasses give ``player``, ``legal``, ``terminal_r0``, ``copy`` and ``_apply``."""

    __slots__ = ("moves", "players")

    def _trace_from(self, other: SimState) -> None:
        self.moves = list(other.moves)
        self.players = list(other.players)

    def copy(self) -> SimState:
        """An independent copy in the same position."""
        raise NotImplementedError

    def player(self) -> int:
        """Index in ``possible_agents`` of the agent to move."""
        raise NotImplementedError

    def legal(self) -> np.ndarray:
        """Legal actions of the agent to move (int64)."""
        raise NotImplementedError

    def terminal_r0(self) -> float | None:
        """Sign of player 0's minus player 1's reward since the root once the game is over,
        else None."""
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def step(self, action: int) -> None:
        """Play ``action`` (a legal action of the agent to move), recording it in the trace."""
        self.players.append(self.player())
        self.moves.append(action)
        self._apply(action)

    def rollout(self, generator: np.random.Generator) -> float:
        """Uniformly random moves to the end; the result for player 0."""
        while (r0 := self.terminal_r0()) is None:
            legal = self.legal()
            self.step(int(legal[int(generator.random() * len(legal))]))
        return r0


class EnvCopyState(SimState):
    """The fallback: the whole env, copied attribute by attribute, stepped through its API."""

    __slots__ = ("agents", "env", "totals")

    def __init__(self, env: Any) -> None:
        self.env = env
        self.agents = list(env.possible_agents)
        self.totals = [0.0, 0.0]
        self.moves, self.players = [], []

    def copy(self) -> EnvCopyState:
        other = object.__new__(EnvCopyState)
        other.env = copy_unchecked(self.env)
        other.agents = self.agents
        other.totals = list(self.totals)
        other._trace_from(self)
        return other

    def player(self) -> int:
        return self.agents.index(self.env.agent_selection)

    def legal(self) -> np.ndarray:
        mask = observation_and_mask(self.env, self.env.agent_selection)[1]
        return np.flatnonzero(mask).astype(np.int64)

    def terminal_r0(self) -> float | None:
        if not is_over(self.env):
            return None
        return float(np.sign(self.totals[0] - self.totals[1]))

    def num_actions(self) -> int:
        """Size of the action space of the agent to move."""
        return int(self.env.action_space(self.env.agent_selection).n)

    def observation(self) -> Any:
        """The env's observation of the agent to move."""
        return self.env.observe(self.env.agent_selection)

    def _apply(self, action: int) -> None:
        self.env.step(action)
        for i, agent in enumerate(self.agents):
            self.totals[i] += float(self.env.rewards.get(agent, 0.0))


class SpielState(SimState):
    """A ``pyspiel.State`` under shimmy's ``OpenSpielCompatibilityV0``: cloned in C++ and
    stepped with ``apply_action``. shimmy ends the game when the state is terminal or after
    the game's ``max_game_length`` actions (truncation); the rewards since the root are the
    state's returns minus those at the root."""

    __slots__ = ("base", "left", "state")

    def __init__(self, state: Any, left: int) -> None:
        self.state = state
        self.base = list(state.returns())
        self.left = left  # actions before shimmy truncates
        self.moves, self.players = [], []

    def copy(self) -> SpielState:
        other = object.__new__(SpielState)
        other.state = self.state.clone()
        other.base = self.base
        other.left = self.left
        other._trace_from(self)
        return other

    def player(self) -> int:
        return self.state.current_player()

    def legal(self) -> np.ndarray:
        return np.asarray(self.state.legal_actions(), dtype=np.int64)

    def terminal_r0(self) -> float | None:
        state = self.state
        if not state.is_terminal() and self.left > 0:
            return None
        returns, base = state.returns(), self.base
        return float(np.sign((returns[0] - base[0]) - (returns[1] - base[1])))

    def _apply(self, action: int) -> None:
        self.state.apply_action(action)
        self.left -= 1

    def rollout(self, generator: np.random.Generator) -> float:
        state, moves, players = self.state, self.moves, self.players
        while not state.is_terminal() and self.left > 0:
            legal = state.legal_actions()
            action = legal[int(generator.random() * len(legal))]
            players.append(state.current_player())
            moves.append(action)
            state.apply_action(action)
            self.left -= 1
        return self.terminal_r0()


class BoardState(SimState):
    """A PettingZoo classic board game as a position of the suite's game with the same rules
    (tic-tac-toe and Connect Four are Connect-N games): the game's compiled kernels give the
    legal moves, play a move and tell the result, as the env's ``step`` does."""

    __slots__ = ("data", "rules")

    def __init__(self, state: GameState) -> None:
        self.data = state.data
        self.rules = _bound_kernels(state.game)
        self.moves, self.players = [], []

    def copy(self) -> BoardState:
        other = object.__new__(BoardState)
        other.data = self.data.copy()
        other.rules = self.rules
        other._trace_from(self)
        return other

    def player(self) -> int:
        return self.rules.player(self.rules.params, self.data)

    def legal(self) -> np.ndarray:
        rules = self.rules
        return rules.actions[: rules.legal_actions(rules.params, self.data, rules.actions)].copy()

    def terminal_r0(self) -> float | None:
        return _RESULT_R0[self.rules.outcome(self.rules.params, self.data)]

    def _apply(self, action: int) -> None:
        self.rules.apply(self.rules.params, self.data, action)

    def rollout(self, generator: np.random.Generator) -> float:
        rules, data, moves, players = self.rules, self.data, self.moves, self.players
        params, actions, legal_actions = rules.params, rules.actions, rules.legal_actions
        player, outcome, apply = rules.player, rules.outcome, rules.apply
        while outcome(params, data) == ONGOING:
            count = legal_actions(params, data, actions)
            action = int(actions[int(generator.random() * count)])
            players.append(player(params, data))
            moves.append(action)
            apply(params, data, action)
        return self.terminal_r0()


class _BoundKernels:
    """A game's ``player``, ``outcome``, ``legal_actions`` and ``apply`` kernels bound to its
    argument types (:func:`~connectn_env.games.contract.bind`: numba's per-call typing, most
    of a call's cost from Python, is skipped), its params and a work buffer of actions."""

    __slots__ = ("actions", "apply", "legal_actions", "outcome", "params", "player")

    def __init__(self, game: ConnectNGame) -> None:
        kernels, params, data = game.kernels, game.params, game.new_initial_state().data
        self.params = params
        self.actions = np.empty(game.num_actions, dtype=np.int64)
        self.player = bind(kernels.player, params, data)
        self.outcome = bind(kernels.outcome, params, data)
        self.legal_actions = bind(kernels.legal_actions, params, data, self.actions)
        self.apply = bind(kernels.apply, params, data, 0)


@functools.cache
def _bound_kernels(game: ConnectNGame) -> _BoundKernels:
    return _BoundKernels(game)


# An Outcome code -> the result for player 0 (None: the game goes on)
_RESULT_R0 = (None, 1.0, -1.0, 0.0)
_TICTACTOE = ConnectNGame(rows=3, cols=3, n=3, gravity=False)
_CONNECT_FOUR = ConnectNGame(rows=6, cols=7, n=4, gravity=True)


def _board_state(env: Any, cells: list[int], game: ConnectNGame) -> SimState | None:
    """The board adapter, if the env is at a standard point: the two agents in their original
    order, nobody done (else the full copy is used). ``cells``: row-major from the top, 0
    empty, 1 and 2 the players' marks."""
    agents = list(env.possible_agents)
    if (
        list(env.agents) != agents
        or any(env.terminations.values())
        or any(env.truncations.values())
        or env.agent_selection not in agents
    ):
        return None
    board = np.reshape(cells, (game.rows, game.cols))
    return BoardState(game.position(board, agents.index(env.agent_selection)))


def tictactoe_state(env: Any) -> SimState | None:
    """State adapter of PettingZoo's ``tictactoe_v3`` raw env (its lines are those of the
    row-major 3 x 3 board of its squares: the same rules as the suite's tic-tac-toe)."""
    return _board_state(env, env.board.squares, _TICTACTOE)


def connect_four_state(env: Any) -> SimState | None:
    """State adapter of PettingZoo's ``connect_four_v3`` raw env."""
    return _board_state(env, env.board, _CONNECT_FOUR)


def openspiel_state(env: Any) -> SimState | None:
    """State adapter of shimmy's ``OpenSpielCompatibilityV0`` on a deterministic, sequential,
    two-player game at a decision node (else None: the full copy is used)."""
    import pyspiel

    game_type = env.game_type
    state = getattr(env, "game_state", None)
    if (
        state is None
        or env._env.num_players() != 2
        or game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL
        or game_type.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        or state.is_terminal()
        or state.current_player() < 0
        or env.agent_selection != env.possible_agents[state.current_player()]
    ):
        return None
    left = env._env.max_game_length() - (env.game_length - 1)
    return SpielState(state.clone(), left)


StateAdapter = Callable[[Any], "SimState | None"]

# "module.ClassName" of an env's exact type -> its adapter
_ADAPTERS: dict[str, StateAdapter] = {
    "shimmy.openspiel_compatibility.OpenSpielCompatibilityV0": openspiel_state,
    "pettingzoo.classic.tictactoe.tictactoe.raw_env": tictactoe_state,
    "pettingzoo.classic.connect_four.connect_four.raw_env": connect_four_state,
}


def register_state_adapter(env_type: type, adapter: StateAdapter) -> None:
    """Use ``adapter(env) -> SimState | None`` for envs of exactly ``env_type`` (a subclass
    may change the rules: it needs its own) in the generic search; None from the adapter means
    "use the full copy".

    Raises:
        TypeError: ``env_type`` is not a class or ``adapter`` is not callable.
    """
    if not isinstance(env_type, type):
        raise TypeError(f"env_type must be a class, got {env_type!r}")
    if not callable(adapter):
        raise TypeError(f"adapter must be callable, got {adapter!r}")
    _ADAPTERS[f"{env_type.__module__}.{env_type.__qualname__}"] = adapter


@contextlib.contextmanager
def full_copies_only() -> Iterator[None]:
    """Within the block, every env is simulated on full copies (the fallback): for comparing
    an adapter with it (tests, benchmarks)."""
    saved = dict(_ADAPTERS)
    _ADAPTERS.clear()
    try:
        yield
    finally:
        _ADAPTERS.update(saved)


def sim_state(env: Any) -> SimState:
    """The cheapest faithful position of ``env`` (already a private copy; outer transparent
    wrappers removed): its registered adapter's, else the full copy."""
    cls = type(env)
    adapter = _ADAPTERS.get(f"{cls.__module__}.{cls.__qualname__}")
    state = adapter(env) if adapter is not None else None
    return EnvCopyState(env) if state is None else state
