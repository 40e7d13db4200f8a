"""The search on third-party environments: copies of any two-player AEC env, walked in Python
with the tree functions of :mod:`agents.tree` (the same tree, formulas and backup as the
compiled loop of :mod:`agents.loop`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents import tree as search_tree
from agents.envapi import (
    clone_env,
    copy_unchecked,
    is_over,
    observation_and_mask,
    transparent_core,
)

# ``evaluate(position) -> (priors over position.legal(), result for player 0)``
Evaluate = Callable[["EnvPosition"], tuple[np.ndarray, float]]


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

    def num_actions(self) -> int:
        """Size of the action space of the agent to move."""
        return int(self.env.action_space(self.env.agent_selection).n)

    def step(self, action: int) -> None:
        """Step the env and collect the rewards."""
        self.players.append(self.player())
        self.moves.append(int(action))
        self.env.step(int(action))
        for i, agent in enumerate(self.agents):
            self.totals[i] += float(self.env.rewards.get(agent, 0.0))

    def rollout(self, generator: np.random.Generator) -> float:
        """Uniformly random moves to the end; the result for player 0."""
        while (r0 := self.terminal_r0()) is None:
            legal = self.legal()
            self.step(int(legal[int(generator.random() * len(legal))]))
        return r0

    def observation(self) -> Any:
        """The env's observation of the agent to move."""
        return self.env.observe(self.env.agent_selection)


def generic_simulations(
    tree: tuple[np.ndarray, np.ndarray, np.ndarray],
    root: EnvPosition,
    count: int,
    *,
    mode: int,
    exploration: float,
    rave_k: float,
    rng: np.ndarray,
    generator: np.random.Generator,
    evaluate: Evaluate | None,
    stamp: np.ndarray,
    tuned: bool = False,
) -> int:
    """Run up to ``count`` simulations on copies of ``root``; returns how many ran.

    Without ``evaluate`` (UCT, RAVE) a leaf is expanded on its second visit and valued by a
    random play-out; with ``evaluate`` (PUCT) a leaf is expanded and valued at once: the
    expansion rules of :class:`agents.loop.SearchConfig` for the two cases. ``tuned``:
    UCB1-tuned selection (values backed up with their squares).
    """
    ints, floats, meta = tree
    for sim in range(count):
        if ints[0, search_tree.I_SOLVED] != search_tree.UNSOLVED:
            return sim
        position = root.copy()
        node = 0
        path = [0]
        while True:
            if ints[node, search_tree.I_SOLVED] != search_tree.UNSOLVED:
                r0 = search_tree.solved_r0(ints, node)
                break
            r0 = position.terminal_r0()
            if r0 is not None:
                search_tree.mark_terminal(ints, node, r0)
                break
            if ints[node, search_tree.I_COUNT] == 0:
                if evaluate is None and node != 0 and ints[node, search_tree.I_VISITS] == 0:
                    r0 = position.rollout(generator)
                    break
                actions = position.legal()
                if evaluate is None:
                    priors, r0 = np.full(len(actions), 1.0 / len(actions)), None
                else:
                    priors, r0 = evaluate(position)
                search_tree.shuffle_together(actions, priors, len(actions), rng)
                expanded = search_tree.expand(
                    ints, floats, meta, node, position.player(), actions, priors, len(actions)
                )
                if r0 is not None:
                    break
                if not expanded:
                    r0 = position.rollout(generator)
                    break
            node = search_tree.select_child(ints, floats, node, mode, exploration, rave_k, tuned)
            position.step(int(ints[node, search_tree.I_ACTION]))
            path.append(node)
        if tuned:
            search_tree.backup_tuned(ints, floats, node, r0)
        else:
            search_tree.backup(ints, floats, node, r0)
        if mode == search_tree.MODE_RAVE:
            moves = np.asarray(position.moves, dtype=np.int64)
            players = np.asarray(position.players, dtype=np.int64)
            nodes = np.asarray(path, dtype=np.int64)
            search_tree.rave_update(
                ints, floats, meta, stamp, nodes, len(path) - 1, moves, players, 0, len(moves), r0
            )
    return count


__all__ = ["EnvPosition", "Evaluate", "generic_simulations"]
