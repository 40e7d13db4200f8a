"""The search tree as preallocated arrays, and the compiled functions that grow, score and
back it up. Both search paths (native and generic) and every agent (UCT, RAVE, PUCT) use
these functions; nothing here knows about games or environments.

Layout (struct of arrays, one column per node, node 0 is the root):

- ``ints`` (int32, ``(NUM_INT_FIELDS, max_nodes)``): parent, action leading to the node,
  first child and child count (children are contiguous), player to move at the node
  (``NO_PLAYER`` until the node is expanded), solver status, visits, AMAF visits, and for a
  solved node the plies to the end of its proven line (the fastest win, the slowest loss).
- ``floats`` (float64, ``(NUM_FLOAT_FIELDS, max_nodes)``): value sum, prior, AMAF value sum,
  two fields :func:`backup` keeps so that selection needs no division, square root or
  logarithm per child: the mean value (0 while unvisited) and ``1 / sqrt(visits)``, and the
  sum of squared values (kept by :func:`backup_tuned` only, for UCB1-tuned).
  Values are from the point of view of the node's *mover* (the player to move at its
  parent; for the root, the opponent of the player to move), in [-1, 1].
- ``meta`` (int64, ``(NUM_META,)``): nodes in use, whether the node limit was hit, the
  RAVE epoch counter.

Solver statuses are also from the mover's point of view. A reward is always passed as
``r0``, the result for player 0 (two-player zero-sum: player 1 gets ``-r0``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from connectn_env.games.contract import random_below

# ints rows
I_PARENT = 0
I_ACTION = 1
I_FIRST = 2
I_COUNT = 3
I_PLAYER = 4
I_SOLVED = 5
I_VISITS = 6
I_AMAF_N = 7
I_PROOF = 8
NUM_INT_FIELDS = 9
# floats rows
F_VALUE = 0
F_PRIOR = 1
F_AMAF = 2
F_MEAN = 3
F_INV_SQRT = 4
F_SQUARES = 5
NUM_FLOAT_FIELDS = 6
# meta entries
M_NODES = 0
M_FULL = 1
M_EPOCH = 2
NUM_META = 3

NO_PLAYER = -1
# Solver status of a node, for its mover.
UNSOLVED = 0
WIN = 1
LOSS = 2
DRAW = 3
# Selection formulas.
MODE_UCT = 0
MODE_PUCT = 1
MODE_RAVE = 2


def new_tree(max_nodes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Allocate the ``(ints, floats, meta)`` buffers of a tree with room for ``max_nodes``.

    Pages are only touched when nodes are used, so a large bound costs no memory up front.
    """
    ints = np.zeros((NUM_INT_FIELDS, max_nodes), dtype=np.int32)
    floats = np.zeros((NUM_FLOAT_FIELDS, max_nodes), dtype=np.float64)
    meta = np.zeros(NUM_META, dtype=np.int64)
    return ints, floats, meta


@njit(cache=True)
def tree_reset(ints, floats, meta, player):
    """Make the tree a single unexpanded root with ``player`` to move."""
    meta[M_NODES] = 1
    meta[M_FULL] = 0
    for f in range(ints.shape[0]):
        ints[f, 0] = 0
    for f in range(floats.shape[0]):
        floats[f, 0] = 0.0
    ints[I_PARENT, 0] = -1
    ints[I_ACTION, 0] = -1
    ints[I_PLAYER, 0] = player


@njit(cache=True)
def shuffle_together(actions, priors, count, rng):
    """Shuffle ``actions[:count]`` and ``priors[:count]`` with the same permutation."""
    for i in range(count - 1, 0, -1):
        j = random_below(rng, i + 1)
        a = actions[i]
        actions[i] = actions[j]
        actions[j] = a
        p = priors[i]
        priors[i] = priors[j]
        priors[j] = p


@njit(cache=True)
def expand(ints, floats, meta, node, player, actions, priors, count):
    """Give ``node`` (``player`` to move) one child per action; False if the tree is full."""
    ints[I_PLAYER, node] = player
    first = meta[M_NODES]
    if first + count > ints.shape[1]:
        meta[M_FULL] = 1
        return False
    for i in range(count):
        child = first + i
        for f in range(ints.shape[0]):
            ints[f, child] = 0
        ints[I_PARENT, child] = node
        ints[I_ACTION, child] = actions[i]
        ints[I_PLAYER, child] = NO_PLAYER
        for f in range(floats.shape[0]):
            floats[f, child] = 0.0
        floats[F_PRIOR, child] = priors[i]
    ints[I_FIRST, node] = first
    ints[I_COUNT, node] = count
    meta[M_NODES] = first + count
    return True


@njit(cache=True)
def select_child(ints, floats, node, mode, exploration, rave_equivalence, tuned=False):
    """The child to descend into: a proven win at once, never a proven loss if avoidable.

    ``MODE_UCT``: ``Q + c sqrt(ln N / n)``, unvisited children first.
    ``MODE_RAVE``: ``(1 - b) Q + b Q_amaf + c sqrt(ln N / n)`` with
    ``b = sqrt(k / (3 N + k))`` (Gelly and Silver's MC-RAVE schedule; ``k`` is
    ``rave_equivalence``); an unvisited child with AMAF data is scored by ``Q_amaf`` alone.
    ``MODE_PUCT``: ``Q + c P sqrt(N) / (1 + n)`` with ``Q = 0`` for unvisited children.

    ``tuned`` (UCT and RAVE; needs :func:`backup_tuned`): UCB1-tuned (Auer et al. 2002)
    scales the exploration term by ``sqrt(min(1, V))`` with ``V = var + 4 sqrt(2 ln N / n)``,
    ``var`` the child's value variance: the formula of the paper for values in [-1, 1]
    (whose largest variance is 1), equal to UCT's while a child has few visits.
    """
    first = ints[I_FIRST, node]
    last = first + ints[I_COUNT, node]
    parent_visits = max(ints[I_VISITS, node], 1)
    best = -1
    best_score = -math.inf
    if mode == MODE_UCT and not tuned:  # the hot loop: no division, sqrt or log per child
        weight = exploration * math.sqrt(math.log(parent_visits))
        for child in range(first, last):
            status = ints[I_SOLVED, child]
            n = ints[I_VISITS, child]
            if status != UNSOLVED or n == 0:
                if status == WIN:
                    return child
                if status == LOSS:
                    continue
                if n == 0:
                    return child
            score = floats[F_MEAN, child] + weight * floats[F_INV_SQRT, child]
            if score > best_score:
                best_score = score
                best = child
        return first if best == -1 else best
    sqrt_n = math.sqrt(parent_visits)
    log_n = math.log(parent_visits)
    weight = exploration * math.sqrt(log_n)
    beta = math.sqrt(rave_equivalence / (3.0 * parent_visits + rave_equivalence))
    tuned_bonus = 4.0 * math.sqrt(2.0 * log_n)  # times 1 / sqrt(n): 4 sqrt(2 ln N / n)
    for child in range(first, last):
        status = ints[I_SOLVED, child]
        if status == WIN:
            return child
        if status == LOSS:
            continue
        n = ints[I_VISITS, child]
        q = floats[F_MEAN, child]
        if mode == MODE_PUCT:
            score = q + exploration * floats[F_PRIOR, child] * sqrt_n / (1.0 + n)
            if score > best_score:
                best_score = score
                best = child
            continue
        if n == 0:
            if mode != MODE_RAVE or ints[I_AMAF_N, child] == 0:
                return child
            score = floats[F_AMAF, child] / ints[I_AMAF_N, child] + weight
        else:
            inv_sqrt = floats[F_INV_SQRT, child]
            explore = weight * inv_sqrt
            if tuned:
                variance = floats[F_SQUARES, child] / n - q * q
                explore *= math.sqrt(min(1.0, variance + tuned_bonus * inv_sqrt))
            if mode == MODE_RAVE and ints[I_AMAF_N, child] > 0:
                q_amaf = floats[F_AMAF, child] / ints[I_AMAF_N, child]
                score = (1.0 - beta) * q + beta * q_amaf + explore
            else:
                score = q + explore
        if score > best_score:
            best_score = score
            best = child
    return first if best == -1 else best


@njit(cache=True)
def open_child(ints, floats, node, exploration):
    """The unsolved child of ``node`` to search (UCT; unvisited ones first), or -1."""
    first = ints[I_FIRST, node]
    weight = exploration * math.sqrt(math.log(max(ints[I_VISITS, node], 1)))
    best = -1
    best_score = -math.inf
    for child in range(first, first + ints[I_COUNT, node]):
        if ints[I_SOLVED, child] != UNSOLVED:
            continue
        if ints[I_VISITS, child] == 0:
            return child
        score = floats[F_MEAN, child] + weight * floats[F_INV_SQRT, child]
        if score > best_score:
            best_score = score
            best = child
    return best


@njit(cache=True)
def mover_of(ints, node):
    """The player who made the move into ``node`` (for the root: the opponent of its player)."""
    parent = ints[I_PARENT, node]
    if parent < 0:
        return 1 - ints[I_PLAYER, node]
    return ints[I_PLAYER, parent]


@njit(cache=True)
def backup(ints, floats, node, r0):
    """Add one visit with result ``r0`` (for player 0) to ``node`` and its ancestors."""
    while node >= 0:
        parent = ints[I_PARENT, node]
        n = ints[I_VISITS, node] + 1
        ints[I_VISITS, node] = n
        value = floats[F_VALUE, node] + (r0 if mover_of(ints, node) == 0 else -r0)
        floats[F_VALUE, node] = value
        floats[F_MEAN, node] = value / n
        floats[F_INV_SQRT, node] = 1.0 / math.sqrt(n)
        node = parent


@njit(cache=True)
def backup_tuned(ints, floats, node, r0):
    """:func:`backup` that also keeps the sum of squared values (for UCB1-tuned)."""
    backup(ints, floats, node, r0)
    square = r0 * r0
    while node >= 0:
        floats[F_SQUARES, node] += square
        node = ints[I_PARENT, node]


@njit(cache=True)
def solved_r0(ints, node):
    """The exact result for player 0 of a solved node."""
    status = ints[I_SOLVED, node]
    if status == DRAW:
        return 0.0
    value = 1.0 if status == WIN else -1.0
    return value if mover_of(ints, node) == 0 else -value


@njit(cache=True)
def _status_of_children(ints, node):
    """``(status, plies)`` of ``node`` for the player to move there, from its children: the
    solver status and the plies to the end of the proven line (the fastest win among the
    children proven so far, else the slowest loss; a draw: its shortest line)."""
    first = ints[I_FIRST, node]
    count = ints[I_COUNT, node]
    if count == 0:
        return UNSOLVED, 0
    win = -1
    draw = -1
    loss = -1
    any_open = False
    for child in range(first, first + count):
        status = ints[I_SOLVED, child]
        plies = ints[I_PROOF, child]
        if status == WIN:
            if win < 0 or plies < win:
                win = plies
        elif status == UNSOLVED:
            any_open = True
        elif status == DRAW:
            if draw < 0 or plies < draw:
                draw = plies
        elif plies > loss:
            loss = plies
    if win >= 0:
        return WIN, win + 1
    if any_open:
        return UNSOLVED, 0
    if draw >= 0:
        return DRAW, draw + 1
    return LOSS, loss + 1


@njit(cache=True)
def mark_terminal(ints, node, r0):
    """Record a terminal ``node`` with result ``r0`` and propagate proofs (and the length of
    the proven lines) to its ancestors."""
    mover = mover_of(ints, node)
    value = r0 if mover == 0 else -r0
    mark_proven(ints, node, WIN if value > 0 else (LOSS if value < 0 else DRAW), 0)


@njit(cache=True)
def mark_proven(ints, node, status, plies):
    """Record that ``node`` is proven (``status`` for its mover, ``plies`` to the end of the
    proven line) and propagate proofs to its ancestors."""
    ints[I_SOLVED, node] = status
    ints[I_PROOF, node] = plies
    node = ints[I_PARENT, node]
    while node >= 0:
        status, plies = _status_of_children(ints, node)
        if status == UNSOLVED:
            return
        if status != DRAW and mover_of(ints, node) != ints[I_PLAYER, node]:
            status = LOSS if status == WIN else WIN
        ints[I_SOLVED, node] = status
        ints[I_PROOF, node] = plies
        node = ints[I_PARENT, node]


@njit(cache=True)
def rave_update(ints, floats, meta, stamp, path, depth, moves, players, start, end, r0):
    """AMAF update after one simulation.

    ``path[:depth + 1]`` are the nodes from the root to the leaf; ``moves[start:end]`` are
    all moves of the simulation (``moves[start + i]`` leaves ``path[i]``), made by
    ``players[start:end]``. A child of ``path[i]`` whose action its player made at any
    later point gets an AMAF visit. ``stamp`` is an int64 ``(2, num_actions)`` work array.
    """
    meta[M_EPOCH] += 1
    epoch = meta[M_EPOCH]
    for j in range(start + depth, end):
        stamp[players[j], moves[j]] = epoch
    for i in range(depth - 1, -1, -1):
        stamp[players[start + i], moves[start + i]] = epoch
        node = path[i]
        player = ints[I_PLAYER, node]
        reward = r0 if player == 0 else -r0
        first = ints[I_FIRST, node]
        for child in range(first, first + ints[I_COUNT, node]):
            if stamp[player, ints[I_ACTION, child]] == epoch:
                ints[I_AMAF_N, child] += 1
                floats[F_AMAF, child] += reward


@njit(cache=True)
def best_root_child(ints, floats):
    """The move to play: the proven win with the shortest proven line; else the most visited
    child that is not a proven loss (the higher mean value breaks ties); if every child is a
    proven loss, the one that loses last."""
    first = ints[I_FIRST, 0]
    best = -1
    for child in range(first, first + ints[I_COUNT, 0]):
        if best == -1:
            best = child
            continue
        status, best_status = ints[I_SOLVED, child], ints[I_SOLVED, best]
        if (status == WIN) != (best_status == WIN):
            if status == WIN:
                best = child
            continue
        if status == WIN:
            if ints[I_PROOF, child] < ints[I_PROOF, best]:
                best = child
            continue
        if (status == LOSS) != (best_status == LOSS):
            if best_status == LOSS:
                best = child
            continue
        if status == LOSS and ints[I_PROOF, child] != ints[I_PROOF, best]:
            if ints[I_PROOF, child] > ints[I_PROOF, best]:
                best = child
            continue
        visits, best_visits = ints[I_VISITS, child], ints[I_VISITS, best]
        if visits > best_visits or (
            visits == best_visits and floats[F_MEAN, child] > floats[F_MEAN, best]
        ):
            best = child
    return best


@njit(cache=True)
def compact_subtree(ints, floats, root, new_ints, new_floats, new_meta):
    """Copy the subtree under ``root`` into the new buffers (breadth first, children kept
    contiguous); ``root`` becomes node 0. Returns the number of nodes copied."""
    for f in range(ints.shape[0]):
        new_ints[f, 0] = ints[f, root]
    for f in range(floats.shape[0]):
        new_floats[f, 0] = floats[f, root]
    new_ints[I_PARENT, 0] = -1
    new_ints[I_ACTION, 0] = -1
    size = 1
    head = 0
    while head < size:
        old = new_ints[I_FIRST, head]
        count = new_ints[I_COUNT, head]
        if count > 0:
            new_ints[I_FIRST, head] = size
            for i in range(count):
                for f in range(ints.shape[0]):
                    new_ints[f, size + i] = ints[f, old + i]
                for f in range(floats.shape[0]):
                    new_floats[f, size + i] = floats[f, old + i]
                new_ints[I_PARENT, size + i] = head
            size += count
        head += 1
    new_meta[M_NODES] = size
    new_meta[M_FULL] = 0
    return size


@njit(cache=True)
def kept_nodes(ints, min_visits):
    """Nodes :func:`prune` would keep with this ``min_visits``."""
    kept = 1
    stack = [0]
    while stack:
        node = stack.pop()
        if node == 0 or ints[I_VISITS, node] >= min_visits:
            first = ints[I_FIRST, node]
            count = ints[I_COUNT, node]
            kept += count
            for child in range(first, first + count):
                if ints[I_COUNT, child] > 0:
                    stack.append(child)
    return kept


@njit(cache=True)
def prune(ints, floats, meta, new_ints, new_floats, new_meta, min_visits):
    """Copy the tree into the new buffers, dropping the children of every node (but the root)
    visited fewer than ``min_visits`` times; such a node keeps its own statistics and is
    expanded again when the search comes back to it. Returns the nodes kept."""
    for f in range(ints.shape[0]):
        new_ints[f, 0] = ints[f, 0]
    for f in range(floats.shape[0]):
        new_floats[f, 0] = floats[f, 0]
    size = 1
    head = 0
    while head < size:
        old = new_ints[I_FIRST, head]
        count = new_ints[I_COUNT, head]
        if count > 0 and head > 0 and new_ints[I_VISITS, head] < min_visits:
            new_ints[I_FIRST, head] = 0
            new_ints[I_COUNT, head] = 0
        elif count > 0:
            new_ints[I_FIRST, head] = size
            for i in range(count):
                for f in range(ints.shape[0]):
                    new_ints[f, size + i] = ints[f, old + i]
                for f in range(floats.shape[0]):
                    new_floats[f, size + i] = floats[f, old + i]
                new_ints[I_PARENT, size + i] = head
            size += count
        head += 1
    new_meta[M_NODES] = size
    new_meta[M_FULL] = 0
    new_meta[M_EPOCH] = meta[M_EPOCH]
    return size
