"""The search on third-party environments: the tree is walked by compiled code, the moves are
played in Python on the cheapest faithful copy of the env (see :mod:`agents.positions`).

A simulation descends the tree in one compiled call (:func:`descend`: the selection formulas
of :mod:`agents.tree`, as in the compiled loop of :mod:`agents.loop`), plays the path's moves
on a copy of the root, and at the leaf does in Python what needs the env: the end of the game,
the legal moves of a new node, a random play-out or an evaluation; the value is backed up by
the same compiled functions of :mod:`agents.tree` (MCTS-Solver proofs, RAVE's AMAF statistics).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents import tree as search_tree
from agents.envapi import clone_env, transparent_core
from agents.positions import EnvCopyState, SimState, sim_state
from agents.tree import I_COUNT, I_SOLVED, UNSOLVED, select_child
from connectn_env.games.lib.jit import njit

# ``evaluate(position) -> (priors over position.legal(), result for player 0)``; the position
# is a :class:`agents.positions.SimState`, an :class:`~agents.positions.EnvCopyState` (it has
# the env's ``observation()``) when the search is run with ``observed=True``
Evaluate = Callable[[SimState], tuple[np.ndarray, float]]


class EnvPosition:
    """The root of a search on any two-player AEC env: a private copy of the env.

    Outer wrappers that change nothing for legal actions are left out of the copy (see
    :func:`~agents.envapi.transparent_core`). :meth:`simulation_root` gives the position the
    simulations copy.
    """

    def __init__(self, env: Any, *, verified: bool = False) -> None:
        core = transparent_core(env)
        self.env = core if verified else clone_env(core)
        self.agents = list(env.possible_agents)
        if len(self.agents) != 2:
            raise ValueError(
                f"search agents need a two-player game, the env has agents {self.agents}"
            )
        self._roots: dict[bool, SimState] = {}

    def simulation_root(self, *, observed: bool = False) -> SimState:
        """The position simulations start from: the env's registered state adapter's (a pyspiel
        state, a board), or with ``observed`` (an evaluator reads observations) a full copy."""
        root = self._roots.get(observed)
        if root is None:
            root = EnvCopyState(self.env) if observed else sim_state(self.env)
            self._roots[observed] = root
        return root

    def player(self) -> int:
        """Index in ``possible_agents`` of the agent to move."""
        return self.agents.index(self.env.agent_selection)

    def num_actions(self) -> int:
        """Size of the action space of the agent to move."""
        return int(self.env.action_space(self.env.agent_selection).n)


@njit(cache=True)
def descend(ints, floats, mode, exploration, rave_k, tuned, path, depth):
    """Select from ``path[depth]`` down to a leaf (a proven node or one without children),
    appending the nodes to ``path``; returns the new depth (at most ``len(path) - 1``: the
    caller grows ``path`` and calls again if the walk is not over)."""
    node = path[depth]
    last = path.shape[0] - 1
    while ints[node, I_SOLVED] == UNSOLVED and depth < last:
        if ints[node, I_COUNT] == 0:
            break
        node = select_child(ints, floats, node, mode, exploration, rave_k, tuned)
        depth += 1
        path[depth] = node
    return depth


def _walk(ints, floats, path, mode, exploration, rave_k, tuned) -> tuple[np.ndarray, int]:
    depth = descend(ints, floats, mode, exploration, rave_k, tuned, path, 0)
    while depth == len(path) - 1:
        node = path[depth]
        if ints[node, search_tree.I_SOLVED] != search_tree.UNSOLVED:
            break
        if ints[node, search_tree.I_COUNT] == 0:
            break
        path = np.concatenate([path, np.zeros_like(path)])
        depth = descend(ints, floats, mode, exploration, rave_k, tuned, path, depth)
    return path, depth


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
    observed: bool = False,
) -> int:
    """Run up to ``count`` simulations on copies of ``root``; returns how many ran.

    Without ``evaluate`` (UCT, RAVE) a leaf is expanded on its second visit and valued by a
    random play-out; with ``evaluate`` (PUCT) a leaf is expanded and valued at once: the
    expansion rules of :class:`agents.loop.SearchConfig` for the two cases. ``tuned``:
    UCB1-tuned selection (values backed up with their squares). ``observed``: ``evaluate``
    reads the env (its ``observation()``), so the simulations play on full env copies
    (:class:`~agents.positions.EnvCopyState`) instead of the env's state adapter.
    """
    ints, floats, meta = tree
    start = root.simulation_root(observed=observed)
    path = np.zeros(64, dtype=np.int64)
    action_of = ints[:, search_tree.I_ACTION]
    for sim in range(count):
        if ints[0, search_tree.I_SOLVED] != search_tree.UNSOLVED:
            return sim
        path, depth = _walk(ints, floats, path, mode, exploration, rave_k, tuned)
        position = start.copy()
        for d in range(1, depth + 1):
            position.step(int(action_of[path[d]]))
        node = int(path[depth])
        while True:  # at the leaf; twice at most (a new node, then its first child)
            if ints[node, search_tree.I_SOLVED] != search_tree.UNSOLVED:
                r0 = search_tree.solved_r0(ints, node)
                break
            r0 = position.terminal_r0()
            if r0 is not None:
                search_tree.mark_terminal(ints, node, r0)
                break
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
            depth += 1
            if depth == len(path):
                path = np.concatenate([path, np.zeros_like(path)])
            path[depth] = node
        if tuned:
            search_tree.backup_tuned(ints, floats, node, r0)
        else:
            search_tree.backup(ints, floats, node, r0)
        if mode == search_tree.MODE_RAVE:
            moves = np.asarray(position.moves, dtype=np.int64)
            players = np.asarray(position.players, dtype=np.int64)
            search_tree.rave_update(
                ints, floats, meta, stamp, path, depth, moves, players, 0, len(moves), r0
            )
    return count


__all__ = ["EnvPosition", "Evaluate", "descend", "generic_simulations"]
