"""Positions the Python search loop walks on: this suite's game states (arrays and compiled
kernels) or copies of any AEC env. Both offer the same small interface."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.envapi import (
    clone_env,
    copy_unchecked,
    is_over,
    observation_and_mask,
    transparent_core,
)
from agents.native import outcome_r0
from connectn_env.games import GameState
from connectn_env.games.kernels import apply_unchecked, legal_action_list
from connectn_env.games.layout import P_HIST, S_MOVES, S_OUTCOME, S_PLAYER
from connectn_env.games.playouts import new_playout_buffers, playout


class NativePosition:
    """A position of this suite's games: the state vector plus compiled kernels."""

    def __init__(self, state: GameState, root_moves: int | None = None) -> None:
        self.game = state.game
        self.params = state.game.params
        self.data = state.data.copy()
        self.root_moves = int(self.data[S_MOVES]) if root_moves is None else root_moves
        self._buffers = new_playout_buffers(self.params)

    def copy(self) -> NativePosition:
        """An independent copy (sharing the work buffers)."""
        other = object.__new__(NativePosition)
        other.__dict__.update(self.__dict__)
        other.data = self.data.copy()
        return other

    def player(self) -> int:
        """Player to move, 0 or 1."""
        return int(self.data[S_PLAYER])

    def terminal_r0(self) -> float | None:
        """Result for player 0 if the game is over, else None."""
        outcome = int(self.data[S_OUTCOME])
        return None if outcome == 0 else outcome_r0(outcome)

    def legal(self) -> np.ndarray:
        """Legal actions (int64)."""
        out = self._buffers[0]
        return out[: legal_action_list(self.params, self.data, out)].copy()

    def step(self, action: int) -> None:
        """Play a legal action."""
        apply_unchecked(self.params, self.data, action)

    def rollout(self, rng: np.ndarray, generator: np.random.Generator) -> float:
        """Random play-out to the end (xorshift ``rng``); the result for player 0."""
        return float(outcome_r0(playout(self.params, self.data, rng, *self._buffers)))

    def moves_and_players(self) -> tuple[np.ndarray, np.ndarray, int, int]:
        """``(moves, players, start, end)`` of the moves played since the search root."""
        hist = int(self.params[P_HIST])
        end = int(self.data[S_MOVES])
        moves = self.data[hist : hist + end].astype(np.int64)
        return moves, np.arange(end, dtype=np.int64) & 1, self.root_moves, end

    def observation(self) -> dict[str, np.ndarray]:
        """What the env's ``observe`` returns for the player to move."""
        state = GameState(self.game, self.data)
        return {
            "observation": state.observation(self.player()),
            "action_mask": state.legal_action_mask(),
        }


class EnvPosition:
    """A copy of any two-player AEC env; moves are made with ``step``.

    Outer wrappers that change nothing for legal actions are left out of the copy (see
    :func:`~agents.envapi.transparent_core`).
    """

    def __init__(self, env: Any, *, verified: bool = False) -> None:
        core = transparent_core(env)
        self.env = core if verified else clone_env(core)
        self.agents = list(env.possible_agents)
        if len(self.agents) != 2:
            raise ValueError(
                f"search agents need a two-player game, the env has agents {self.agents}"
            )
        self.totals = [0.0, 0.0]
        self.moves: list[int] = []
        self.players: list[int] = []

    def copy(self) -> EnvPosition:
        """An independent copy of the env in this position."""
        other = object.__new__(EnvPosition)
        other.env = copy_unchecked(self.env)
        other.agents = self.agents
        other.totals = list(self.totals)
        other.moves = list(self.moves)
        other.players = list(self.players)
        return other

    def player(self) -> int:
        """Index in ``possible_agents`` of the agent to move."""
        return self.agents.index(self.env.agent_selection)

    def terminal_r0(self) -> float | None:
        """Sign of player 0's minus player 1's reward since the root, once the game is over."""
        if not is_over(self.env):
            return None
        return float(np.sign(self.totals[0] - self.totals[1]))

    def legal(self) -> np.ndarray:
        """Legal actions of the agent to move (int64)."""
        mask = observation_and_mask(self.env, self.env.agent_selection)[1]
        return np.flatnonzero(mask).astype(np.int64)

    def step(self, action: int) -> None:
        """Step the env and collect the rewards."""
        self.players.append(self.player())
        self.moves.append(int(action))
        self.env.step(int(action))
        for i, agent in enumerate(self.agents):
            self.totals[i] += float(self.env.rewards.get(agent, 0.0))

    def rollout(self, rng: np.ndarray, generator: np.random.Generator) -> float:
        """Uniformly random moves to the end (drawn from ``generator``)."""
        while (r0 := self.terminal_r0()) is None:
            legal = self.legal()
            self.step(int(legal[int(generator.random() * len(legal))]))
        return r0

    def moves_and_players(self) -> tuple[np.ndarray, np.ndarray, int, int]:
        """``(moves, players, start, end)`` of the moves played since the search root."""
        moves = np.asarray(self.moves, dtype=np.int64)
        return moves, np.asarray(self.players, dtype=np.int64), 0, len(moves)

    def observation(self) -> Any:
        """The env's observation of the agent to move."""
        return self.env.observe(self.env.agent_selection)
