"""The search loop: one compiled loop for every search of the suite, its rules passed in.

A simulation walks the tree from the root, playing the tree's moves on a copy of the root
position through the game's kernels, until it reaches a leaf: a proven node, a finished game,
or a node to evaluate; the leaf's value is backed up. The loop knows no formula: selection,
expansion, evaluation and backup are compiled functions of a :class:`~agents.rules.SearchPolicy`
(see :mod:`agents.rules`), and numba specialises the loop on the game and on the rules.

Where a leaf needs Python, the expansion rule stops the loop there (the ``ASK_*`` steps of
:mod:`agents.rules`): :func:`run_simulations` returns with the leaf's position in the
workspace's state copy and ``(leaf, depth, step)`` in its ``leaf`` array. The caller evaluates
the leaf (a network, many searches' leaves in one batch, or a third-party env's position,
:mod:`agents.generic`) and finishes the simulation with :func:`resolve_leaf`,
:func:`expand_leaf` and :func:`back_up_leaf`, or resumes the walk below a leaf it expanded
(:data:`RESUME`). The walk is one flat loop on purpose: split into functions it ran up to a
quarter slower.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from agents.rules import ASK_VALUE, EVALUATE, compiled_rule
from agents.tree import (
    I_ACTION,
    I_COUNT,
    I_PLAYER,
    I_SOLVED,
    UNSOLVED,
    expand,
    mark_terminal,
    shuffle_together,
    solved_r0,
    tree_reset,
)
from connectn_env.games.codes import ONGOING, PLAYER_0_WINS, PLAYER_1_WINS
from connectn_env.games.lib.jit import njit

# ``leaf[2]`` set by a caller that expanded the stopped leaf: the next simulation resumes there.
RESUME = -1


class SearchWorkspace(
    namedtuple("SearchWorkspace", "state actions priors path moves players stamp game leaf")
):
    """The work arrays of one search (:func:`new_workspace`).

    Attributes:
        state: The simulation's copy of the root position (at a stop: the leaf's).
        actions: Legal actions of a node being expanded (int64, ``num_actions``).
        priors: Their priors (float64).
        path: The nodes from the root to the leaf (int64, ``max_moves + 2``).
        moves: The simulation's moves, the path's then the play-out's (int64).
        players: Their movers (int64).
        stamp: RAVE's work array (int64, ``(2, num_actions)``).
        game: The game's play-out workspace.
        leaf: Where the loop stopped for the caller: ``(node, depth, step)`` (int64).
    """

    __slots__ = ()


@njit(cache=True)
def outcome_r0(outcome):
    """The result for player 0 of a finished game's Outcome code."""
    if outcome == PLAYER_0_WINS:
        return 1.0
    if outcome == PLAYER_1_WINS:
        return -1.0
    return 0.0


@compiled_rule
def rollout_value(kernels, params, state, rng, workspace, moves, players, count, tree, data):
    """Evaluator: one uniformly random play-out; its moves are appended to the trace.

    Every compiled evaluator has this signature: ``state`` is the leaf's position (it may be
    consumed), ``moves``/``players`` the simulation's trace so far (``count`` entries; append
    the play-out's), ``tree`` the ``(ints, floats, meta)`` buffers and ``data`` the evaluator's
    own arrays. Returns ``(result for player 0 in [-1, 1], new count)``.
    """
    count = kernels.playout(params, state, rng, workspace, moves, players, count)
    return outcome_r0(kernels.outcome(params, state)), count


def new_workspace(kernels, params, root, num_actions, max_moves):
    """A :class:`SearchWorkspace` for searches from positions like ``root`` (``max_moves``
    bounds a game's length, so the path and the trace). Made in Python: compiled, it was one
    more function for a cold first move to compile (0.4 CPU s), for the same arrays."""
    return SearchWorkspace(
        np.empty_like(root),
        np.empty(num_actions, dtype=np.int64),
        np.empty(num_actions, dtype=np.float64),
        np.empty(max_moves + 2, dtype=np.int64),
        np.empty(max_moves + 1, dtype=np.int64),
        np.empty(max_moves + 1, dtype=np.int64),
        np.zeros((2, num_actions), dtype=np.int64),
        kernels.new_workspace(params),
        np.zeros(3, dtype=np.int64),
    )


# Compiled without numba's reference counting (``_nrt=False``, inherited by what it calls): the
# loop allocates nothing and every array it touches is owned by the caller, while counting
# references costs two atomic instructions per array argument per call of every kernel and tree
# function, which was a quarter of Connect Four's time per simulation.
@njit(cache=True, _nrt=False)
def run_simulations(kernels, params, root, tree, policy, rng, workspace, data, simulations):
    """Run up to ``simulations`` simulations under ``policy``; returns how many were finished.

    Each walks from the root (or from a leaf the caller expanded: :data:`RESUME`) to a leaf,
    playing the tree's moves on a copy of ``root`` through the game's kernels, and backs up
    the leaf's value: proven (MCTS-Solver), the game's result, or ``policy.evaluate``'s.
    Returns early once the root is proven and ``policy.proven_root`` starts no simulation
    there (MCTS's :func:`~agents.rules.search_faster_win` goes on while a won root has unproven
    moves), or at a leaf ``policy.expand`` asks the caller about (see the module
    docstring). ``data`` is the rules' own data (a roll-out policy's tables).
    """
    ints, floats = tree[0], tree[1]
    settings = policy.settings
    work, path, moves, players = workspace.state, workspace.path, workspace.moves, workspace.players
    leaf_info = workspace.leaf
    for sim in range(simulations):
        evaluate = False
        if leaf_info[2] == RESUME:
            node = leaf_info[0]
            depth = leaf_info[1]
            leaf_info[2] = 0
        else:
            for i in range(root.shape[0]):  # (``work[:] = root`` may allocate: not without NRT)
                work[i] = root[i]
            node = 0
            depth = 0
            path[0] = 0
            if ints[0, I_SOLVED] != UNSOLVED:
                node = policy.proven_root(ints, floats, settings)  # (MCTS: a faster win?)
                if node < 0:
                    return sim
                moves[0] = ints[node, I_ACTION]
                players[0] = ints[0, I_PLAYER]
                kernels.apply(params, work, moves[0])
                depth = 1
                path[1] = node
        while ints[node, I_SOLVED] == UNSOLVED and kernels.outcome(params, work) == ONGOING:
            if ints[node, I_COUNT] == 0:
                step = policy.expand(kernels, params, tree, workspace, node, rng, data, settings)
                if step >= ASK_VALUE:
                    leaf_info[0] = node
                    leaf_info[1] = depth
                    leaf_info[2] = step
                    return sim
                if step == EVALUATE:
                    evaluate = True
                    break
            players[depth] = ints[node, I_PLAYER]
            node = policy.select(ints, floats, node, settings)
            action = ints[node, I_ACTION]
            moves[depth] = action
            kernels.apply(params, work, action)
            depth += 1
            path[depth] = node
        count = depth
        if ints[node, I_SOLVED] != UNSOLVED:
            r0 = solved_r0(ints, node)
        elif not evaluate:
            r0 = outcome_r0(kernels.outcome(params, work))
            mark_terminal(ints, node, r0)
        else:
            r0, count = policy.evaluate(
                kernels, params, work, rng, workspace.game, moves, players, count, tree, data
            )
        policy.backup(tree, workspace, node, depth, count, r0)
    return simulations


@njit(cache=True)
def expand_leaf(tree, workspace, player, actions, priors, count, rng):
    """Expand the leaf the loop stopped at (``player`` to move) with ``actions[:count]`` and
    their ``priors`` (shuffled together first); False if the tree is full. After an
    ``ASK_EXPANSION`` stop, set ``workspace.leaf[2] = RESUME`` to go on below it."""
    ints, floats, meta = tree
    shuffle_together(actions, priors, count, rng)
    return expand(ints, floats, meta, workspace.leaf[0], player, actions, priors, count)


@njit(cache=True)
def back_up_leaf(tree, policy, workspace, count, r0, terminal):
    """Finish the simulation stopped at the leaf: back up ``r0`` (for player 0) with
    ``policy.backup`` (``count``: the trace's length, the path's moves and any play-out's the
    caller appended); ``terminal``: the leaf is a finished game with that result (proven)."""
    node, depth = workspace.leaf[0], workspace.leaf[1]
    if terminal:
        mark_terminal(tree[0], node, r0)
    policy.backup(tree, workspace, node, depth, count, r0)


@njit(cache=True)
def resolve_leaf(kernels, params, tree, policy, workspace, priors, r0, rng):
    """Finish the simulation stopped at a leaf of one of the suite's games (``ASK_BOTH``):
    expand it with ``priors`` (over the whole action space; renormalised over the legal
    actions, uniform if they sum to 0) and back up ``r0``, its value for player 0."""
    work, actions, child_priors = workspace.state, workspace.actions, workspace.priors
    legal = kernels.legal_actions(params, work, actions)
    total = 0.0
    for i in range(legal):
        child_priors[i] = priors[actions[i]]
        total += child_priors[i]
    for i in range(legal):
        child_priors[i] = child_priors[i] / total if total > 0 else 1.0 / legal
    expand_leaf(tree, workspace, kernels.player(params, work), actions, child_priors, legal, rng)
    back_up_leaf(tree, policy, workspace, workspace.leaf[1], r0, False)


@njit(cache=True)
def search_action(kernels, params, state, tree, policy, choose, rng, workspace, data, simulations):
    """A fresh search from ``state`` (for compiled callers such as the vector env's in-loop
    opponent): reset the tree, run the simulations, return the action ``choose`` (the
    selection rule's move choice) picks."""
    ints, floats, meta = tree
    tree_reset(ints, floats, meta, kernels.player(params, state))
    run_simulations(kernels, params, state, tree, policy, rng, workspace, data, simulations)
    return ints[choose(ints, floats, policy.settings), I_ACTION]
