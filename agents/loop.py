"""The search loop, compiled once for every game of the suite (numba specialises it per game).

A simulation walks the tree from the root, playing the tree's moves on a copy of the root
position through the game's kernels, until it reaches a leaf: a proven node, a finished game,
or a node to evaluate; the leaf's value is backed up (with the MCTS-Solver's proofs and RAVE's
AMAF statistics). What values a leaf is injected, as in mctx or OpenSpiel's ``Evaluator``:

- a compiled evaluator (:func:`rollout_value`, or any function with its signature made with
  :func:`~connectn_env.games.contract.compiled_kernel`) runs inside :func:`run_simulations`;
- an external one (a network in Python) is served by stopping at the leaf:
  ``run_simulations(..., external=True)`` returns with the leaf's position in the workspace,
  the caller evaluates it (many searches' leaves at once, if it likes) and hands the priors and
  value to :func:`resolve_leaf`.

The selection formula (UCT, RAVE, PUCT, each of the first two optionally UCB1-tuned), the
expansion rule (every legal move, or the game's tactical choice of moves: see
:mod:`connectn_env.games.tactics`) and the evaluator are options of this one loop (the
roll-out policies of :mod:`agents.rollout` are such an evaluator). On third-party
environments :mod:`agents.generic` does not use this loop: its own compiled walk
(:func:`agents.generic.descend`) selects with the same functions of :mod:`agents.tree`, and the
leaves (moves, play-outs, evaluations) are played in Python on copies of the env's position.
The walk here is one flat loop on purpose: split into functions it ran up to a quarter slower.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

from agents.tree import (
    I_ACTION,
    I_COUNT,
    I_SOLVED,
    I_VISITS,
    LOSS,
    MODE_RAVE,
    UNSOLVED,
    backup,
    backup_tuned,
    best_root_child,
    expand,
    mark_terminal,
    open_child,
    rave_update,
    select_child,
    shuffle_together,
    solved_r0,
    tree_reset,
)
from connectn_env.games.contract import Outcome, compiled_kernel
from connectn_env.games.lib.jit import njit

_ONGOING = int(Outcome.ONGOING)
_PLAYER_0_WINS = int(Outcome.PLAYER_0_WINS)
_PLAYER_1_WINS = int(Outcome.PLAYER_1_WINS)


class SearchConfig(
    namedtuple(
        "SearchConfig",
        "mode exploration rave_k expand_visits evaluate_expanded tuned expansion fastest_win",
        defaults=(False, 0, False),
    )
):
    """Options of the compiled loop.

    Attributes:
        mode: Selection formula, ``agents.tree.MODE_UCT``, ``MODE_RAVE`` or ``MODE_PUCT``.
        exploration: The formula's exploration constant (UCT's ``c``, PUCT's ``c_puct``).
        rave_k: RAVE's equivalence parameter ``k``.
        expand_visits: A leaf (not the root) is expanded once it has this many visits (1:
            expand on the second visit, as OpenSpiel's UCT does; 0: at once, as AlphaZero).
        evaluate_expanded: True: a newly expanded node is itself evaluated (AlphaZero);
            False: the search goes one step further and evaluates the new child (UCT).
        tuned: UCB1-tuned exploration (UCT and RAVE; see :func:`agents.tree.select_child`):
            the tree then also keeps squared values. Default False.
        expansion: Flags of the game's tactics (``DECISIVE``, ``LOCAL`` of
            :mod:`connectn_env.games.tactics`) that choose the moves of a new node; only read
            when ``data`` is an :class:`agents.rollout.PolicyData`, which carries the tactics.
            Default 0: every legal move.
        fastest_win: Once the root is a proven win, go on searching its unproven moves for a
            faster win (the budget permitting) instead of stopping. Default False.
    """

    __slots__ = ()


@njit(cache=True)
def outcome_r0(outcome):
    """The result for player 0 of a finished game's Outcome code."""
    if outcome == _PLAYER_0_WINS:
        return 1.0
    if outcome == _PLAYER_1_WINS:
        return -1.0
    return 0.0


@compiled_kernel
def rollout_value(kernels, params, state, rng, workspace, moves, players, count, tree, data):
    """Evaluator: one uniformly random play-out; its moves are appended to the trace.

    Every compiled evaluator has this signature: ``state`` is the leaf's position (it may be
    consumed), ``moves``/``players`` the simulation's trace so far (``count`` entries; append
    the play-out's), ``tree`` the ``(ints, floats, meta)`` buffers and ``data`` the evaluator's
    own arrays. Returns ``(result for player 0 in [-1, 1], new count)``.
    """
    count = kernels.playout(params, state, rng, workspace, moves, players, count)
    return outcome_r0(kernels.outcome(params, state)), count


@njit(cache=True)
def new_workspace(kernels, params, root, num_actions, max_moves):
    """The work arrays of one search: a state copy, legal actions and priors, the path from the
    root, the simulation's trace (moves and movers), RAVE's stamps, the game's play-out
    workspace, and where an external evaluation stopped (leaf node and depth)."""
    work = np.empty_like(root)
    actions = np.empty(num_actions, dtype=np.int64)
    priors = np.empty(num_actions, dtype=np.float64)
    path = np.empty(max_moves + 2, dtype=np.int64)
    moves = np.empty(max_moves + 1, dtype=np.int64)
    players = np.empty(max_moves + 1, dtype=np.int64)
    stamp = np.zeros((2, num_actions), dtype=np.int64)
    leaf = np.zeros(2, dtype=np.int64)
    game_workspace = kernels.new_workspace(params)
    return work, actions, priors, path, moves, players, stamp, game_workspace, leaf


def node_moves(kernels, params, state, actions, data, flags):
    """The moves a new node gets (written to ``actions``, the count returned): with an
    :class:`agents.rollout.PolicyData` and ``flags``, its tactics' choice; else every legal
    move. Compiled code only: the choice is made when numba types ``data``."""
    raise NotImplementedError("node_moves is only called from compiled code")


@overload(node_moves)
def _node_moves(kernels, params, state, actions, data, flags):
    if isinstance(data, types.BaseNamedTuple) and "tactics" in data.fields:

        def tactical(kernels, params, state, actions, data, flags):
            if flags == 0:
                return kernels.legal_actions(params, state, actions)
            tactics = data.tactics
            return tactics.expansion(kernels, params, state, data.workspace, actions, flags)

        return tactical

    def every_legal_move(kernels, params, state, actions, data, flags):
        return kernels.legal_actions(params, state, actions)

    return every_legal_move


@njit(cache=True)
def _expand_uniform(kernels, params, tree, workspace, node, rng, data, flags):
    """Expand ``node`` with one child per move of :func:`node_moves`, uniform priors, random
    order."""
    ints, floats, meta = tree
    work, actions, priors = workspace[0], workspace[1], workspace[2]
    count = node_moves(kernels, params, work, actions, data, flags)
    for i in range(count):
        priors[i] = 1.0 / count
    shuffle_together(actions, priors, count, rng)
    return expand(ints, floats, meta, node, kernels.player(params, work), actions, priors, count)


# Compiled without numba's reference counting (``_nrt=False``, inherited by what it calls): the
# loop allocates nothing and every array it touches is owned by the caller, while counting
# references costs two atomic instructions per array argument per call of every kernel and tree
# function, which was a quarter of Connect Four's time per simulation.
@njit(cache=True, _nrt=False)
def run_simulations(
    kernels, evaluator, params, root, tree, config, rng, workspace, data, simulations, external
):
    """Run up to ``simulations`` simulations; returns how many were finished.

    Each walks from the root to a leaf, playing the tree's moves on a copy of ``root``
    through the game's kernels, and backs up the leaf's value: proven (MCTS-Solver), the
    game's result, or ``evaluator``'s. Returns early once the root is proven (with
    ``config.fastest_win``, once every move of a won root is proven), or, with
    ``external``, at the first leaf that needs the caller's evaluation: then the leaf's
    position is in the workspace's state copy and ``(leaf, depth, trace length)`` in its
    ``leaf`` array; the caller evaluates it and calls :func:`resolve_leaf` (this is how a
    network in Python, or many searches' leaves in one batch, are served).
    """
    ints, floats, meta = tree
    work, path, moves, players, stamp = (
        workspace[0],
        workspace[3],
        workspace[4],
        workspace[5],
        workspace[6],
    )
    game_workspace, leaf_info = workspace[7], workspace[8]
    for sim in range(simulations):
        for i in range(root.shape[0]):  # (``work[:] = root`` may allocate: not without NRT)
            work[i] = root[i]
        node = 0
        depth = 0
        path[0] = 0
        evaluate = False
        if ints[0, I_SOLVED] != UNSOLVED:
            if not config.fastest_win or ints[0, I_SOLVED] != LOSS:
                return sim
            node = open_child(ints, floats, 0, config.exploration)  # a faster win there?
            if node < 0:
                return sim
            moves[0] = ints[node, I_ACTION]
            players[0] = kernels.player(params, work)
            kernels.apply(params, work, moves[0])
            depth = 1
            path[1] = node
        while ints[node, I_SOLVED] == UNSOLVED and kernels.outcome(params, work) == _ONGOING:
            if ints[node, I_COUNT] == 0:
                if node != 0 and ints[node, I_VISITS] < config.expand_visits:
                    evaluate = True
                    break
                if external:
                    leaf_info[0] = node
                    leaf_info[1] = depth
                    return sim
                if not _expand_uniform(
                    kernels, params, tree, workspace, node, rng, data, config.expansion
                ):
                    evaluate = True  # the tree is full
                    break
                if config.evaluate_expanded:
                    evaluate = True
                    break
            node = select_child(
                ints, floats, node, config.mode, config.exploration, config.rave_k, config.tuned
            )
            action = ints[node, I_ACTION]
            moves[depth] = action
            players[depth] = kernels.player(params, work)
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
            if evaluator is None:
                count = kernels.playout(params, work, rng, game_workspace, moves, players, count)
                r0 = outcome_r0(kernels.outcome(params, work))
            else:
                r0, count = evaluator(
                    kernels, params, work, rng, game_workspace, moves, players, count, tree, data
                )
        if config.tuned:
            backup_tuned(ints, floats, node, r0)
        else:
            backup(ints, floats, node, r0)
        if config.mode == MODE_RAVE:
            rave_update(ints, floats, meta, stamp, path, depth, moves, players, 0, count, r0)
    return simulations


@njit(cache=True)
def resolve_leaf(kernels, params, tree, config, workspace, priors, r0, rng):
    """Finish the simulation that :func:`run_simulations` stopped at (``external``): expand the
    leaf with ``priors`` (over the whole action space; renormalised over the legal actions,
    uniform if they sum to 0) and back up ``r0``, the leaf's value for player 0."""
    ints, floats, meta = tree
    work, actions, child_priors, path, moves, players, stamp, _, leaf_info = workspace
    leaf, depth = leaf_info[0], leaf_info[1]
    legal = kernels.legal_actions(params, work, actions)
    total = 0.0
    for i in range(legal):
        child_priors[i] = priors[actions[i]]
        total += child_priors[i]
    for i in range(legal):
        child_priors[i] = child_priors[i] / total if total > 0 else 1.0 / legal
    shuffle_together(actions, child_priors, legal, rng)
    expand(ints, floats, meta, leaf, kernels.player(params, work), actions, child_priors, legal)
    if config.tuned:
        backup_tuned(ints, floats, leaf, r0)
    else:
        backup(ints, floats, leaf, r0)
    if config.mode == MODE_RAVE:
        rave_update(ints, floats, meta, stamp, path, depth, moves, players, 0, depth, r0)


@njit(cache=True)
def search_action(
    kernels, evaluator, params, state, tree, config, rng, workspace, data, simulations
):
    """A fresh search from ``state`` (for compiled callers such as the vector env's in-loop
    opponent): reset the tree, run the simulations, return the action to play."""
    ints, floats, meta = tree
    tree_reset(ints, floats, meta, kernels.player(params, state))
    run_simulations(
        kernels, evaluator, params, state, tree, config, rng, workspace, data, simulations, False
    )
    return ints[best_root_child(ints, floats), I_ACTION]


__all__ = [
    "SearchConfig",
    "new_workspace",
    "node_moves",
    "outcome_r0",
    "resolve_leaf",
    "rollout_value",
    "run_simulations",
    "search_action",
]
