"""The rules of the compiled search loop, as compiled functions passed in (mctx-style).

:func:`agents.loop.run_simulations` knows no formula: it takes a :class:`SearchPolicy`, a
named tuple of five compiled functions and the settings they read, and calls

- ``select(ints, floats, node, settings) -> child``: the child to descend into;
- ``expand(kernels, params, tree, workspace, node, rng, data, settings) -> step``: what to do
  at a node without children, one of the step codes below (the rule may expand it);
- ``evaluate(kernels, params, state, rng, game_workspace, moves, players, count, tree, data)
  -> (r0, count)``: a leaf's value for player 0 (a play-out appends its moves to the trace);
- ``backup(tree, workspace, node, depth, count, r0)``: back a simulation's result up;
- ``proven_root(ints, floats, settings) -> child``: where a simulation starts once the root
  is proven, or -1 to stop.

Each is made with :func:`compiled_rule` (numba specialises the loop on the functions it gets,
inlines them, and caches each combination on disk), and reads from
``settings`` only the fields it needs: a rule with constants of its own brings a settings type
with those fields (see :mod:`agents.gumbel`).

The rules are registered by name, one registry per axis: :data:`SELECTS` (each with the
statistics it reads, and its default backup and move choice), :data:`BACKUPS` (each with the
statistics it keeps), :data:`MOVE_CHOICES` (the move played and the training target read
from the root's statistics) and :data:`ROOT_RULES` (a proven root, and what a search
prepares at its root); :func:`search_rules` puts one of each together and refuses what does
not fit. A new rule is a compiled function and one line in its registry (``backup_max``).
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from agents.tree import (
    F_INV_SQRT,
    F_MEAN,
    F_PRIOR,
    F_SQUARES,
    F_VALUE,
    I_AMAF_N,
    I_COUNT,
    I_FIRST,
    I_PARENT,
    I_PLAYER,
    I_SOLVED,
    I_VISITS,
    LOSS,
    UNSOLVED,
    WIN,
    amaf_mean,
    backup_squares,
    best_root_child,
    expand,
    inv_sqrt,
    mover_of,
    rave_update,
    resisting_root_child,
    shuffle_together,
    sqrt_log,
)
from agents.tree import backup as backup_values
from connectn_env.games.contract import typed_once_per_tuple
from connectn_env.games.lib.jit import njit

# What ``expand`` tells the loop to do at a node without children.
DESCEND = 0  # the node was expanded: select a child and go on
EVALUATE = 1  # evaluate the node with ``evaluate`` and back the value up
ASK_VALUE = 2  # stop: the caller values the node (no expansion) and backs the value up
ASK_EXPANSION = 3  # stop: the caller expands the node, then resumes the walk
ASK_BOTH = 4  # stop: the caller expands the node and backs up its evaluation


class SearchSettings(
    namedtuple(
        "SearchSettings",
        "exploration rave_equivalence expansion",
        defaults=(1.0, 0),
    )
):
    """The constants the built-in rules and the loop read.

    Attributes:
        exploration: UCT's ``c`` or PUCT's ``c_puct``.
        rave_equivalence: RAVE's ``k`` (read by the RAVE rules only; default 1).
        expansion: Flags of the game's tactics (``DECISIVE``, ``LOCAL`` of
            :mod:`connectn_env.games.tactics`) choosing the moves of a new node, read by the
            expansion rules when ``data`` is an :class:`agents.rollout.PolicyData` (which
            carries the tactics); 0 (the default): every legal move.
    """

    __slots__ = ()


@typed_once_per_tuple
class SearchPolicy(
    namedtuple("SearchPolicy", "select expand evaluate backup proven_root settings")
):
    """The rules one search runs: five compiled functions and their settings (see the module
    docstring)."""

    __slots__ = ()


def compiled_rule(function: Any) -> Any:
    """A rule: :func:`~connectn_env.games.contract.compiled_kernel` (a stable identity for
    numba's cache) with LLVM's ``alwaysinline`` (numba's ``forceinline``), so that the loop
    that gets it as an argument inlines it: a call per tree level cost 9% of a Connect Four
    search, and numba's own inlining of a function passed in, through an overload, cost a
    second compile of each rule (2 s of a cold first move)."""
    dispatcher = njit(cache=True, forceinline=True)(function)
    dispatcher._set_uuid(f"connectn-rule:{function.__module__}.{function.__qualname__}")
    return dispatcher


# --- selection ---------------------------------------------------------------------------


@compiled_rule
def select_uct(ints, floats, node, settings):
    """UCT: ``Q + c sqrt(ln N / n)``, unvisited children first; a proven win at once, never a
    proven loss if avoidable. No division, square root or logarithm per child (the hot loop
    of plain UCT)."""
    first = ints[node, I_FIRST]
    last = first + ints[node, I_COUNT]
    weight = settings.exploration * sqrt_log(max(ints[node, I_VISITS], 1))
    best = -1
    best_score = -math.inf
    # Unsigned indices: numba adds no negative-index wraparound code (7% of a search).
    for index in range(np.uint64(first), np.uint64(last)):
        status = ints[index, I_SOLVED]
        n = ints[index, I_VISITS]
        child = np.int64(index)
        if status != UNSOLVED or n == 0:
            if status == WIN:
                return child
            if status == LOSS:
                continue
            if n == 0:
                return child
        score = floats[index, F_MEAN] + weight * floats[index, F_INV_SQRT]
        if score > best_score:
            best_score = score
            best = child
    return first if best == -1 else best


# Inlined into each selection rule with constant flags, which LLVM then folds.
@njit(cache=True, inline="always")
def _select_ucb(ints, floats, node, exploration, rave_equivalence, rave, tuned):
    """UCT with RAVE's blend and/or UCB1-tuned's exploration (see the rules below)."""
    first = ints[node, I_FIRST]
    last = first + ints[node, I_COUNT]
    parent_visits = max(ints[node, I_VISITS], 1)
    log_n = math.log(parent_visits)
    weight = exploration * math.sqrt(log_n)
    beta = math.sqrt(rave_equivalence / (3.0 * parent_visits + rave_equivalence))
    tuned_bonus = 4.0 * math.sqrt(2.0 * log_n)  # times 1 / sqrt(n): 4 sqrt(2 ln N / n)
    best = -1
    best_score = -math.inf
    for child in range(first, last):
        status = ints[child, I_SOLVED]
        if status == WIN:
            return child
        if status == LOSS:
            continue
        n = ints[child, I_VISITS]
        if n == 0:
            if not rave or ints[child, I_AMAF_N] == 0:
                return child
            score = amaf_mean(ints, floats, child) + weight
        else:
            q = floats[child, F_MEAN]
            inv_sqrt = floats[child, F_INV_SQRT]
            explore = weight * inv_sqrt
            if tuned:
                variance = floats[child, F_SQUARES] / n - q * q
                explore *= math.sqrt(min(1.0, variance + tuned_bonus * inv_sqrt))
            if rave and ints[child, I_AMAF_N] > 0:
                score = (1.0 - beta) * q + beta * amaf_mean(ints, floats, child) + explore
            else:
                score = q + explore
        if score > best_score:
            best_score = score
            best = child
    return first if best == -1 else best


@compiled_rule
def select_uct_tuned(ints, floats, node, settings):
    """UCB1-tuned (Auer et al. 2002): UCT's exploration term scaled by ``sqrt(min(1, V))``,
    ``V = var + 4 sqrt(2 ln N / n)`` with ``var`` the child's value variance (the paper's
    formula for values in [-1, 1]); needs :func:`backup_tuned`."""
    return _select_ucb(ints, floats, node, settings.exploration, 1.0, False, True)


@compiled_rule
def select_rave(ints, floats, node, settings):
    """MC-RAVE (Gelly and Silver 2011): ``(1 - b) Q + b Q_amaf + c sqrt(ln N / n)`` with
    ``b = sqrt(k / (3 N + k))``; an unvisited child with AMAF data is scored by ``Q_amaf``
    alone. Needs :func:`backup_rave`."""
    return _select_ucb(
        ints, floats, node, settings.exploration, settings.rave_equivalence, True, False
    )


@compiled_rule
def select_rave_tuned(ints, floats, node, settings):
    """RAVE with UCB1-tuned's exploration; needs :func:`backup_rave_tuned`."""
    return _select_ucb(
        ints, floats, node, settings.exploration, settings.rave_equivalence, True, True
    )


@compiled_rule
def select_puct(ints, floats, node, settings):
    """PUCT (AlphaZero): ``Q + c P sqrt(N) / (1 + n)`` with ``Q = 0`` for unvisited
    children; a proven win at once, never a proven loss if avoidable."""
    first = ints[node, I_FIRST]
    exploration = settings.exploration
    sqrt_n = math.sqrt(max(ints[node, I_VISITS], 1))
    best = -1
    best_score = -math.inf
    for child in range(first, first + ints[node, I_COUNT]):
        status = ints[child, I_SOLVED]
        if status == WIN:
            return child
        if status == LOSS:
            continue
        prior = floats[child, F_PRIOR]
        score = floats[child, F_MEAN] + exploration * prior * sqrt_n / (1.0 + ints[child, I_VISITS])
        if score > best_score:
            best_score = score
            best = child
    return first if best == -1 else best


# --- backup ------------------------------------------------------------------------------


@compiled_rule
def backup_mean(tree, workspace, node, depth, count, r0):
    """Add one visit with result ``r0`` (for player 0) to ``node`` and its ancestors."""
    backup_values(tree[0], tree[1], node, r0)


@compiled_rule
def backup_tuned(tree, workspace, node, depth, count, r0):
    """:func:`backup_mean`, also keeping the sums of squared values (UCB1-tuned)."""
    backup_values(tree[0], tree[1], node, r0)
    backup_squares(tree[0], tree[1], node, r0)


@compiled_rule
def backup_rave(tree, workspace, node, depth, count, r0):
    """:func:`backup_mean` and RAVE's AMAF update from the simulation's trace (the path's
    ``depth`` moves and the play-out's, ``count`` in all)."""
    ints, floats, meta = tree
    backup_values(ints, floats, node, r0)
    rave_update(
        ints, floats, meta, workspace.stamp, workspace.path, depth, workspace.moves,
        workspace.players, 0, count, r0,
    )  # fmt: skip


@compiled_rule
def backup_rave_tuned(tree, workspace, node, depth, count, r0):
    """:func:`backup_rave` with the sums of squared values (UCB1-tuned)."""
    ints, floats, meta = tree
    backup_values(ints, floats, node, r0)
    backup_squares(ints, floats, node, r0)
    rave_update(
        ints, floats, meta, workspace.stamp, workspace.path, depth, workspace.moves,
        workspace.players, 0, count, r0,
    )  # fmt: skip


@compiled_rule
def backup_max(tree, workspace, node, depth, count, r0):
    """MaxUCT's backup (Keller and Helmert 2013, "MCTS with max backups"): a node with a
    searched child (visited or proven) is valued by its best one (a proven child by its
    proven result), for its mover; a node without one keeps the mean of its results. Visits
    count as in :func:`backup_mean`, and ``F_VALUE`` stays ``visits * F_MEAN``."""
    ints, floats = tree[0], tree[1]
    while node >= 0:
        n = ints[node, I_VISITS] + 1
        ints[node, I_VISITS] = n
        floats[node, F_INV_SQRT] = inv_sqrt(n)
        best = -math.inf
        first = ints[node, I_FIRST]
        for child in range(first, first + ints[node, I_COUNT]):
            status = ints[child, I_SOLVED]
            if status == UNSOLVED:
                if ints[child, I_VISITS] > 0:
                    best = max(best, floats[child, F_MEAN])
            else:
                best = max(best, 1.0 if status == WIN else (-1.0 if status == LOSS else 0.0))
        mover = mover_of(ints, node)
        if best > -math.inf:  # (children's values are for the player to move at the node)
            value = best if ints[node, I_PLAYER] == mover else -best
            floats[node, F_MEAN] = value
            floats[node, F_VALUE] = value * n
        else:
            total = floats[node, F_VALUE] + (r0 if mover == 0 else -r0)
            floats[node, F_VALUE] = total
            floats[node, F_MEAN] = total / n
        node = ints[node, I_PARENT]


# --- expansion ---------------------------------------------------------------------------


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


@njit(cache=True, inline="always")
def expand_uniform(kernels, params, tree, workspace, node, rng, data, settings):
    """Expand ``node`` with one child per move of :func:`node_moves`, uniform priors, random
    order; False if the tree is full."""
    work, actions, priors = workspace.state, workspace.actions, workspace.priors
    count = node_moves(kernels, params, work, actions, data, settings.expansion)
    for i in range(count):
        priors[i] = 1.0 / count
    shuffle_together(actions, priors, count, rng)
    ints, floats, meta = tree
    return expand(ints, floats, meta, node, kernels.player(params, work), actions, priors, count)


@compiled_rule
def expand_on_second_visit(kernels, params, tree, workspace, node, rng, data, settings):
    """UCT's rule (OpenSpiel's too): a node other than the root is evaluated on its first
    visit and expanded on its second, and the search then goes on to a new child."""
    if node != 0 and tree[0][node, I_VISITS] == 0:
        return EVALUATE
    if not expand_uniform(kernels, params, tree, workspace, node, rng, data, settings):
        return EVALUATE  # the tree is full
    return DESCEND


@compiled_rule
def expand_on_first_visit(kernels, params, tree, workspace, node, rng, data, settings):
    """AlphaZero's rule: a new node is expanded (uniform priors) and evaluated itself."""
    expand_uniform(kernels, params, tree, workspace, node, rng, data, settings)
    return EVALUATE


@compiled_rule
def caller_expands(kernels, params, tree, workspace, node, rng, data, settings):
    """AlphaZero's rule with the evaluation outside: the loop stops at each new node for the
    caller to expand it with its priors and back up its value (a network in Python)."""
    return ASK_BOTH


@compiled_rule
def caller_expands_on_second_visit(kernels, params, tree, workspace, node, rng, data, settings):
    """:func:`expand_on_second_visit` with the position outside (a third-party env): the
    caller values a node on its first visit, and expands it on its second visit before the
    walk resumes."""
    if node != 0 and tree[0][node, I_VISITS] == 0:
        return ASK_VALUE
    return ASK_EXPANSION


# --- the root: a proven root, and rules that prepare a search -------------------------------


@compiled_rule
def stop_at_proof(ints, floats, settings):
    """At a proven root: stop the search (-1)."""
    return -1


@compiled_rule
def search_faster_win(ints, floats, settings):
    """At a proven root: once it is won, search its unproven moves for a faster win (UCT over
    them, unvisited ones first; -1 once every move is proven); at a lost or drawn root, stop."""
    if ints[0, I_SOLVED] != LOSS:  # (the root's status is for its mover: LOSS, a won root)
        return -1
    first = ints[0, I_FIRST]
    weight = settings.exploration * sqrt_log(max(ints[0, I_VISITS], 1))
    best = -1
    best_score = -math.inf
    for child in range(first, first + ints[0, I_COUNT]):
        if ints[child, I_SOLVED] != UNSOLVED:
            continue
        if ints[child, I_VISITS] == 0:
            return child
        score = floats[child, F_MEAN] + weight * floats[child, F_INV_SQRT]
        if score > best_score:
            best_score = score
            best = child
    return best


@compiled_rule
def same_settings(settings, slot):
    """The settings of one search of a batch (``agents.batched``): the batch's own, for rules
    whose settings are constants."""
    return settings


class RootRule(NamedTuple):
    """What a search does at its root besides selecting (registered in :data:`ROOT_RULES`;
    an agent's root rules are merged, each field set by one rule at most).

    Attributes:
        proven: Compiled ``proven(ints, floats, settings) -> child``: where a simulation
            starts once the root is proven, or -1 to stop (the loop's ``proven_root``).
        prepare: ``prepare(tree, settings, generator, simulations) -> settings``, run in
            Python once the root is expanded, before each search's simulations (Gumbel
            draws its noise and plans its budget there); None: nothing to prepare.
        needs_simulations: The rule plans a simulation budget (refused with a time limit
            alone).
        batch_settings: ``batch_settings(settings, slots, num_actions, simulations)``: the
            settings of a batch of searches (:class:`agents.batched.BatchedSearch`); None:
            the settings themselves.
        for_slot: Compiled ``for_slot(batch settings, slot) -> settings`` of one search of
            the batch.
        prepare_slots: ``prepare_slots(trees, batch settings, generator, simulations,
            slots)``: :attr:`prepare` for the given searches of a batch (their roots are
            expanded); None: nothing to prepare.
        explores_itself: The rule draws its own noise at the root (Gumbel), so self-play
            adds no Dirichlet noise to the priors.
    """

    proven: Any = stop_at_proof
    prepare: Callable[..., Any] | None = None
    needs_simulations: bool = False
    batch_settings: Callable[..., Any] | None = None
    for_slot: Any = same_settings
    prepare_slots: Callable[..., Any] | None = None
    explores_itself: bool = False


# --- move choice and training target -------------------------------------------------------


@compiled_rule
def most_visited_child(ints, floats, settings):
    """The move to play after a UCT search: :func:`agents.tree.best_root_child`."""
    return best_root_child(ints, floats)


@compiled_rule
def resisting_child(ints, floats, settings):
    """The move to play after a PUCT search: :func:`agents.tree.resisting_root_child` (the
    slowest proven loss rather than an open move searched less and valued no higher)."""
    return resisting_root_child(ints, floats)


@compiled_rule
def visit_policy(ints, floats, settings, out):
    """The search policy over the root's children (``out[i]`` for the ``i``-th), a training
    target: a proven win gets everything; else the visit shares of the children not proven
    lost (of every child if all are; everything on the move :func:`best_root_child` plays if
    none of them was visited)."""
    first, count = ints[0, I_FIRST], ints[0, I_COUNT]
    best = best_root_child(ints, floats)
    for i in range(count):
        out[i] = 0.0
    if ints[best, I_SOLVED] == WIN:
        out[best - first] = 1.0
        return
    all_lost = ints[best, I_SOLVED] == LOSS
    total = 0.0
    for i in range(count):
        if all_lost or ints[first + i, I_SOLVED] != LOSS:
            out[i] = ints[first + i, I_VISITS]
            total += out[i]
    if total > 0:
        for i in range(count):
            out[i] /= total
    else:
        out[best - first] = 1.0


@njit(cache=True, inline="always")
def _sampled_top(ints):
    """The most visits of a root child not proven lost."""
    first = ints[0, I_FIRST]
    top = 0
    for child in range(first, first + ints[0, I_COUNT]):
        if ints[child, I_SOLVED] != LOSS:
            top = max(top, ints[child, I_VISITS])
    return top


@njit(cache=True)
def sampling_total(ints, floats, temperature):
    """The total weight of the root's children for a move drawn at ``temperature`` (> 0):
    ``(n / top) ** (1 / temperature)`` for each visited child not proven lost (``top``: the
    most visits among them). 0.0 when nothing is to be drawn: the best move is proven (a
    win, a draw kept rather than open moves, or every move lost) or no such child was
    visited; the move choice's move is then played."""
    best = best_root_child(ints, floats)
    if ints[best, I_SOLVED] != UNSOLVED:
        return 0.0
    first = ints[0, I_FIRST]
    top = _sampled_top(ints)
    total = 0.0
    for child in range(first, first + ints[0, I_COUNT]):
        if ints[child, I_SOLVED] != LOSS and ints[child, I_VISITS] > 0:
            total += (ints[child, I_VISITS] / top) ** (1.0 / temperature)
    return total


@njit(cache=True)
def sampled_child(ints, floats, temperature, draw):
    """The root child drawn at ``temperature``: where ``draw`` (uniform in ``[0, total)`` of
    :func:`sampling_total`) falls among the weights of the children, in the tree's order."""
    first = ints[0, I_FIRST]
    top = _sampled_top(ints)
    chosen = -1
    for child in range(first, first + ints[0, I_COUNT]):
        if ints[child, I_SOLVED] != LOSS and ints[child, I_VISITS] > 0:
            draw -= (ints[child, I_VISITS] / top) ** (1.0 / temperature)
            chosen = child
            if draw < 0.0:
                break
    return chosen


class MoveChoice(NamedTuple):
    """How the move and the training target are read from the root's statistics after a
    search (registered in :data:`MOVE_CHOICES`); both :class:`~agents.PUCTAgent` and
    :class:`agents.batched.BatchedSearch` play and train by these.

    Attributes:
        choose: Compiled ``choose(ints, floats, settings) -> child``: the root child to play
            (at temperature 0).
        target: Compiled ``target(ints, floats, settings, out)``: the search's policy over the
            root's children (``SearchResult.pi``, the training target).
        samples: A temperature > 0 draws the move from the visit counts
            (:func:`sampling_total`, :func:`sampled_child`); False: ``choose``'s move at any
            temperature (Gumbel's own draws are its sampling).
        root: The root rule whose settings it reads (Gumbel's), or None.
    """

    choose: Any
    target: Any = visit_policy
    samples: bool = True
    root: str | None = None


# --- the registries ------------------------------------------------------------------------

VALUE = "value"  # visits, mean value and 1 / sqrt(visits)
SQUARES = "squares"  # the sums of squared values (UCB1-tuned)
AMAF = "amaf"  # all-moves-as-first visits and values (RAVE)


class Select(NamedTuple):
    """A selection rule (registered in :data:`SELECTS`).

    Attributes:
        function: The compiled ``select`` of :class:`SearchPolicy`.
        reads: The statistics it reads (:data:`VALUE`, :data:`SQUARES`, :data:`AMAF`): only
            a backup that keeps them all runs with it.
        backup: The name of the backup it runs with unless another is given.
        choice: The name of the move choice it plays by unless another is given.
        roots: The root rules it needs (Gumbel's settings).
        rave: The name of its variant with RAVE's blend, if it has one.
    """

    function: Any
    reads: frozenset[str]
    backup: str
    choice: str
    roots: tuple[str, ...] = ()
    rave: str | None = None


class Backup(NamedTuple):
    """A backup rule (registered in :data:`BACKUPS`): its compiled ``backup`` of
    :class:`SearchPolicy` and the statistics it keeps (see :attr:`Select.reads`)."""

    function: Any
    keeps: frozenset[str]


# The rules by name, one registry per axis; a new rule is a compiled function and one line.
# (Gumbel's entries are registered by agents.gumbel, imported at the end of this module.)
SELECTS: dict[str, Select] = {
    "ucb1": Select(select_uct, frozenset({VALUE}), "mean", "most-visited", rave="rave"),
    "ucb1-tuned": Select(
        select_uct_tuned, frozenset({VALUE, SQUARES}), "tuned", "most-visited", rave="rave-tuned"
    ),
    "rave": Select(select_rave, frozenset({VALUE, AMAF}), "rave", "most-visited"),
    "rave-tuned": Select(
        select_rave_tuned, frozenset({VALUE, SQUARES, AMAF}), "rave-tuned", "most-visited"
    ),
    "puct": Select(select_puct, frozenset({VALUE}), "mean", "resisting"),
}
BACKUPS: dict[str, Backup] = {
    "mean": Backup(backup_mean, frozenset({VALUE})),
    "tuned": Backup(backup_tuned, frozenset({VALUE, SQUARES})),
    "rave": Backup(backup_rave, frozenset({VALUE, AMAF})),
    "rave-tuned": Backup(backup_rave_tuned, frozenset({VALUE, SQUARES, AMAF})),
    "max": Backup(backup_max, frozenset({VALUE})),
}
MOVE_CHOICES: dict[str, MoveChoice] = {
    "most-visited": MoveChoice(most_visited_child),
    "resisting": MoveChoice(resisting_child),
}
ROOT_RULES: dict[str, RootRule] = {
    "stop": RootRule(),
    "fastest-win": RootRule(proven=search_faster_win),
}

# The selection rules each agent offers as ``selection=NAME`` (and agent specs as
# ``selection=NAME``); RAVE's variants are chosen with ``rave=True``. MCTS's backups: any.
MCTS_SELECTIONS = ("ucb1", "ucb1-tuned", "gumbel")
MCTS_BACKUPS = tuple(BACKUPS)
PUCT_SELECTIONS = ("puct", "gumbel")


class Rules(NamedTuple):
    """The rules of one search, one of each axis (:func:`search_rules`).

    Attributes:
        select: The compiled ``select``.
        backup: The compiled ``backup``.
        choice: The move choice and training target.
        root: The root rules, merged.
    """

    select: Any
    backup: Any
    choice: MoveChoice
    root: RootRule


def _named(registry: dict[str, Any], what: str, name: str) -> Any:
    """``registry[name]``, or a ValueError listing the names."""
    if name not in registry:
        raise ValueError(f"no {what} {name!r}; the {what}s are {', '.join(sorted(registry))}")
    return registry[name]


def root_rule(names: tuple[str, ...]) -> RootRule:
    """The root rules ``names`` (of :data:`ROOT_RULES`) merged into one.

    Raises:
        ValueError: an unknown name, or two rules setting the same field.
    """
    merged, setters, default = RootRule(), {}, RootRule()
    for name in names:
        rule = _named(ROOT_RULES, "root rule", name)
        for field, value in rule._asdict().items():
            if value == getattr(default, field) or value == getattr(merged, field):
                continue
            if field in setters:
                raise ValueError(
                    f"root rules {setters[field]!r} and {name!r} both set {field}; give one"
                )
            setters[field] = name
            merged = merged._replace(**{field: value})
    return merged


def search_rules(
    select: str,
    *,
    rave: bool = False,
    backup: str | None = None,
    choice: str | None = None,
    roots: tuple[str, ...] = (),
) -> Rules:
    """The rules of a search: the selection rule ``select`` (its RAVE variant with ``rave``),
    ``backup`` and ``choice`` (default: the selection rule's own) and the root rules
    ``roots`` with those the selection and the move choice need.

    Raises:
        ValueError: an unknown name; a selection rule without a RAVE variant; a backup that
            does not keep what the selection rule reads; root rules setting the same field.
    """
    rule = _named(SELECTS, "selection rule", select)
    if rave:
        if rule.rave is None:
            with_rave = sorted(name for name, each in SELECTS.items() if each.rave is not None)
            raise ValueError(
                f"selection rule {select!r} has no RAVE variant (rave=True); the rules with "
                f"one are {', '.join(with_rave)}"
            )
        select, rule = rule.rave, SELECTS[rule.rave]
    backup = rule.backup if backup is None else backup
    kept = _named(BACKUPS, "backup", backup)
    if not rule.reads <= kept.keeps:
        missing = ", ".join(sorted(rule.reads - kept.keeps))
        allowed = sorted(name for name, each in BACKUPS.items() if rule.reads <= each.keeps)
        raise ValueError(
            f"selection rule {select!r} reads {missing} statistics, which backup {backup!r} "
            f"does not keep; the backups it runs with are {', '.join(allowed)}"
        )
    moves = _named(MOVE_CHOICES, "move choice", rule.choice if choice is None else choice)
    needed = (*rule.roots, *(() if moves.root is None else (moves.root,)))
    names = tuple(dict.fromkeys((*needed, *roots)))
    return Rules(rule.function, kept.function, moves, root_rule(names))


import agents.gumbel  # noqa: E402,F401  (registers Gumbel's rules, built on this module's)
