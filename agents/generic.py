"""The search on third-party environments: the one compiled loop of :mod:`agents.loop`, with
the moves and leaves played in Python on the cheapest faithful copy of the env (see
:mod:`agents.positions`).

The loop walks the tree over a stand-in position (:data:`PATH_KERNELS`: it only records the
moves) and stops at every leaf that needs the env, as its expansion rule asks
(``caller_expands_on_second_visit`` for UCT, ``caller_expands`` for PUCT: see
:mod:`agents.rules`). Here the path's moves are played on a copy of the root, and the end of
the game, the legal moves of a new node, a random play-out or an evaluation are done in
Python; the compiled functions of :mod:`agents.loop` expand the leaf, back its value up with
the policy's backup (MCTS-Solver proofs, RAVE's AMAF statistics from the trace written here)
or resume the walk below it. Solved nodes are backed up inside the loop without stopping.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from agents.envapi import clone_env, transparent_core
from agents.loop import RESUME, SearchWorkspace, back_up_leaf, expand_leaf, run_simulations
from agents.positions import EnvCopyState, SimState, sim_state
from agents.rules import ASK_BOTH, ASK_EXPANSION, ASK_VALUE, SearchPolicy, compiled_rule
from connectn_env.games.codes import ONGOING
from connectn_env.games.contract import bind, compiled_kernel

# ``evaluate(position) -> (priors over position.legal(), result for player 0)``; the position
# is a :class:`agents.positions.SimState`, an :class:`~agents.positions.EnvCopyState` (it has
# the env's ``observation()``) when the search is run with ``observed=True``
Evaluate = Callable[[SimState], tuple[np.ndarray, float]]


@compiled_kernel
def _ongoing(params, state):
    """The stand-in position never ends: the env's end is found in Python at the leaf (and a
    finished leaf is then proven, so the loop stops at it without asking again)."""
    return ONGOING


@compiled_kernel
def _recorded(params, state, action):
    """A move on the stand-in position: nothing to do (the loop records it in the trace)."""


class PathKernels(namedtuple("PathKernels", "outcome apply")):
    """The kernels the loop calls on a third-party env's leaves-in-Python search."""

    __slots__ = ()


PATH_KERNELS = PathKernels(_ongoing, _recorded)
_STAND_IN = np.zeros(1, dtype=np.int64)  # the stand-in position (and params)
_NO_ACTIONS = np.zeros(0, dtype=np.int64)
_NO_PRIORS = np.zeros(0, dtype=np.float64)


@compiled_rule
def caller_evaluates(kernels, params, state, rng, workspace, moves, players, count, tree, data):
    """The ``evaluate`` rule of a policy whose expansion rule asks the caller at every leaf:
    never reached (the caller values the leaves); NaN, were it reached."""
    return math.nan, count


class GenericWorkspace:
    """The loop's :class:`~agents.loop.SearchWorkspace` for a third-party env, grown in Python
    as the tree deepens and the play-outs lengthen (a game's length is not known)."""

    def __init__(self) -> None:
        self.arrays = self._allocate(64, 1)
        self.depth_bound = 0  # no node of the tree is expanded deeper (it only shrinks)
        self._entries: tuple[Any, ...] | None = None

    @staticmethod
    def _allocate(length: int, num_actions: int) -> SearchWorkspace:
        return SearchWorkspace(
            np.zeros(1, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.float64),
            np.zeros(length + 1, dtype=np.int64),
            np.zeros(length, dtype=np.int64),
            np.zeros(length, dtype=np.int64),
            np.zeros((2, num_actions), dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros(3, dtype=np.int64),
        )

    def entry_points(
        self, tree: tuple[np.ndarray, ...], policy: SearchPolicy, rng: np.ndarray
    ) -> tuple[Any, Any, Any]:
        """The compiled entry points of the loop, :func:`~agents.loop.back_up_leaf` and
        :func:`~agents.loop.expand_leaf` for ``policy`` (numba's typing of the workspace,
        kernels and policy tuples would cost more than a simulation's tree work on every
        call, and binding them once per chunk of simulations cost 6% of a search)."""
        if self._entries is None or self._entries[0] is not policy:
            arrays = self.arrays
            self._entries = (
                policy,
                bind(run_simulations, PATH_KERNELS, _STAND_IN, _STAND_IN, tree, policy, rng,
                     arrays, arrays.game, 1),
                bind(back_up_leaf, tree, policy, arrays, 1, 0.0, False),
                bind(expand_leaf, tree, arrays, 0, _NO_ACTIONS, _NO_PRIORS, 0, rng),
            )  # fmt: skip
        return self._entries[1:]

    def ensure(self, length: int, num_actions: int) -> SearchWorkspace:
        """The arrays, with room for a trace of ``length`` moves and ``num_actions`` actions
        (RAVE's stamps are kept: their epochs stay valid)."""
        old = self.arrays
        if len(old.moves) >= length and old.stamp.shape[1] >= num_actions:
            return old
        new = self._allocate(max(length, 2 * len(old.moves)), max(num_actions, old.stamp.shape[1]))
        for name in ("path", "moves", "players"):
            getattr(new, name)[: len(getattr(old, name))] = getattr(old, name)
        new.stamp[:, : old.stamp.shape[1]] = old.stamp
        new.leaf[:] = old.leaf
        self.arrays = new
        return new


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


def generic_simulations(
    tree: tuple[np.ndarray, np.ndarray, np.ndarray],
    root: EnvPosition,
    count: int,
    *,
    policy: SearchPolicy,
    workspace: GenericWorkspace,
    rng: np.ndarray,
    generator: np.random.Generator,
    evaluate: Evaluate | None = None,
    trace: bool = False,
    observed: bool = False,
) -> int:
    """Run up to ``count`` simulations of the compiled loop under ``policy`` on copies of
    ``root``; returns how many ran.

    ``policy.expand`` is a caller's rule: UCT's (a leaf is valued by a random play-out on its
    first visit and expanded with uniform priors on its second) or AlphaZero's (a leaf is
    expanded and valued by ``evaluate``, which is then required). ``trace``: write the
    play-outs' moves into the trace (RAVE's backup reads it). ``observed``: ``evaluate``
    reads the env (its ``observation()``), so the simulations play on full env copies
    (:class:`~agents.positions.EnvCopyState`) instead of the env's state adapter.
    """
    start = root.simulation_root(observed=observed)
    num_actions = root.num_actions()
    tree = tuple(tree)
    arrays = workspace.ensure(workspace.depth_bound + 2, num_actions)
    walk, finish, grow = workspace.entry_points(tree, policy, rng)
    leaf = arrays.leaf
    done = 0
    position, played = start, -1  # the leaf's position, and its depth (-1: none)
    while done < count:
        if workspace.depth_bound + 2 > len(arrays.moves):
            arrays = workspace.ensure(workspace.depth_bound + 2, num_actions)
            leaf = arrays.leaf
        done += walk(
            PATH_KERNELS, _STAND_IN, _STAND_IN, tree, policy, rng, arrays, arrays.game, count - done
        )
        _, depth, step = leaf.tolist()
        if done == count or step < ASK_VALUE:
            break
        leaf[2] = 0
        if played < 0 or not 0 <= depth - played <= 1:
            position, played = start.copy(), 0
        for move in arrays.moves[played:depth].tolist():
            position.step(move)
        played = depth
        r0 = position.terminal_r0()
        if r0 is not None:
            finish(tree, policy, arrays, depth, r0, True)
            played = -1
            done += 1
            continue
        if step == ASK_EXPANSION:
            actions = np.asarray(position.legal(), dtype=np.int64)
            priors = np.full(len(actions), 1.0 / len(actions))
            if grow(tree, arrays, position.player(), actions, priors, len(actions), rng):
                leaf[2] = RESUME  # the walk goes on below it: one step, one more move
                workspace.depth_bound = max(workspace.depth_bound, depth + 1)
                continue
        if step == ASK_BOTH:
            priors, r0 = evaluate(position)
            actions = np.asarray(position.legal(), dtype=np.int64)
            priors = np.asarray(priors, dtype=np.float64)
            grow(tree, arrays, position.player(), actions, priors, len(actions), rng)
            workspace.depth_bound = max(workspace.depth_bound, depth + 1)
            length = depth
        else:
            r0 = position.rollout(generator)
            length = len(position.moves)
            if trace:
                arrays = workspace.ensure(length, num_actions)
                leaf = arrays.leaf
                arrays.moves[depth:length] = position.moves[depth:]
                arrays.players[depth:length] = position.players[depth:]
        finish(tree, policy, arrays, length, r0, False)
        played = -1
        done += 1
    return done
