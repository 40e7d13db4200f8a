"""The search tree as preallocated arrays, and the compiled functions that grow, score and
back it up. Both search paths (native and generic) and every agent (UCT, RAVE, PUCT) use
these functions (the selection formulas built on them are in :mod:`agents.rules`); nothing
here knows about games or environments.

Layout (one row per node, node 0 is the root; a node's fields share a cache line or two, and
a new tree touches only the memory its nodes use: with one array per field, selection read
four scattered rows per child and a fresh tree zeroed a huge page per field):

- ``ints`` (int32, ``(max_nodes, NUM_INT_FIELDS)``): parent, action leading to the node,
  first child and child count (children are contiguous), player to move at the node
  (``NO_PLAYER`` until the node is expanded), solver status, visits, AMAF visits, and for a
  solved node the plies to the end of its proven line (the fastest win, the slowest loss).
- ``floats`` (float64, ``(max_nodes, NUM_FLOAT_FIELDS)``): value sum, prior, AMAF value sum,
  two fields :func:`backup` keeps so that selection needs no division, square root or
  logarithm per child: the mean value (0 while unvisited) and ``1 / sqrt(visits)``, and the
  sum of squared values (kept by :func:`backup_squares`, for UCB1-tuned).
  Values are from the point of view of the node's *mover* (the player to move at its
  parent; for the root, the opponent of the player to move), in [-1, 1].
- ``meta`` (int64, ``(NUM_META,)``): nodes in use, whether the node limit was hit, the
  RAVE epoch counter.

Solver statuses are also from the mover's point of view. A reward is always passed as
``r0``, the result for player 0 (two-player zero-sum: player 1 gets ``-r0``).
"""

from __future__ import annotations

import math
import mmap

import numpy as np

from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.rng import random_below

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

# sqrt(ln n) and 1 / sqrt(n) for n below TABLE_SIZE, computed once with the libm functions the
# compiled code calls (so a lookup and the computation agree to the last bit, as the tests check):
# selection and backup read them instead of calling log, sqrt and dividing at every level of
# every simulation. numba embeds them in the compiled code (256 KB per compiled loop).
TABLE_SIZE = 1 << 14
_SQRT_LOG = np.array([0.0] + [math.sqrt(math.log(n)) for n in range(1, TABLE_SIZE)])
_INV_SQRT = np.array([0.0] + [1.0 / math.sqrt(n) for n in range(1, TABLE_SIZE)])


def new_tree(max_nodes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Allocate the ``(ints, floats, meta)`` buffers of a tree with room for ``max_nodes``.

    Pages are only touched when nodes are used, so a large bound costs no memory up front.
    """
    ints = _small_page_zeros((max_nodes, NUM_INT_FIELDS), np.int32)
    floats = _small_page_zeros((max_nodes, NUM_FLOAT_FIELDS), np.float64)
    meta = np.zeros(NUM_META, dtype=np.int64)
    return ints, floats, meta


def _small_page_zeros(shape: tuple[int, int], dtype: type) -> np.ndarray:
    """Zeros in an anonymous memory map that the kernel backs with small pages where it can
    (``MADV_NOHUGEPAGE``). numpy asks for huge pages for large arrays, and where the kernel
    compacts memory to make one, the first write to a new page of the tree stalled a search
    for 6 to 10 ms (past its time limit); without them, Hex 11 x 11 PUCT searches of 0.05 s
    all stayed within 0.052 s of CPU and ran as many simulations in every process."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if nbytes == 0:
        return np.zeros(shape, dtype=dtype)
    memory = mmap.mmap(-1, nbytes)
    if hasattr(mmap, "MADV_NOHUGEPAGE"):  # Linux
        memory.madvise(mmap.MADV_NOHUGEPAGE)
    return np.frombuffer(memory, dtype=dtype).reshape(shape)


@njit(cache=True, inline="always")
def sqrt_log(n):
    """``sqrt(ln n)`` for a visit count ``n >= 1``."""
    if n < TABLE_SIZE:
        return _SQRT_LOG[n]
    return math.sqrt(math.log(n))


@njit(cache=True, inline="always")
def inv_sqrt(n):
    """``1 / sqrt(n)`` for a visit count ``n >= 1``."""
    if n < TABLE_SIZE:
        return _INV_SQRT[n]
    return 1.0 / math.sqrt(n)


@njit(cache=True, inline="always")
def amaf_mean(ints, floats, node):
    """The mean AMAF value of ``node`` (which has AMAF visits), for its mover."""
    return floats[node, F_AMAF] / ints[node, I_AMAF_N]


@njit(cache=True)
def tree_reset(ints, floats, meta, player):
    """Make the tree a single unexpanded root with ``player`` to move."""
    meta[M_NODES] = 1
    meta[M_FULL] = 0
    for f in range(ints.shape[1]):
        ints[0, f] = 0
    for f in range(floats.shape[1]):
        floats[0, f] = 0.0
    ints[0, I_PARENT] = -1
    ints[0, I_ACTION] = -1
    ints[0, I_PLAYER] = player


# The functions of the search loop's walk, backup and expansion are inlined into the loop
# (``inline="always"``: typed inside their caller, not compiled as functions of their own):
# each separately compiled function costs its own numba pipeline, optimisation and machine
# code on first use, 8% of Connect Four's cold first move for these, and the search runs as
# fast either way. Called from Python they compile as usual.
@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def expand(ints, floats, meta, node, player, actions, priors, count):
    """Give ``node`` (``player`` to move) one child per action; False if the tree is full."""
    ints[node, I_PLAYER] = player
    first = meta[M_NODES]
    if first + count > ints.shape[0]:
        meta[M_FULL] = 1
        return False
    for i in range(count):
        child = first + i
        for f in range(NUM_INT_FIELDS):  # a constant count: stores, not a memset call per row
            ints[child, f] = 0
        ints[child, I_PARENT] = node
        ints[child, I_ACTION] = actions[i]
        ints[child, I_PLAYER] = NO_PLAYER
        for f in range(NUM_FLOAT_FIELDS):
            floats[child, f] = 0.0
        floats[child, F_PRIOR] = priors[i]
    ints[node, I_FIRST] = first
    ints[node, I_COUNT] = count
    meta[M_NODES] = first + count
    return True


@njit(cache=True, inline="always")
def mover_of(ints, node):
    """The player who made the move into ``node`` (for the root: the opponent of its player)."""
    parent = ints[node, I_PARENT]
    if parent < 0:
        return 1 - ints[node, I_PLAYER]
    return ints[parent, I_PLAYER]


@njit(cache=True, inline="always")
def backup(ints, floats, node, r0):
    """Add one visit with result ``r0`` (for player 0) to ``node`` and its ancestors."""
    while node >= 0:
        parent = ints[node, I_PARENT]
        n = ints[node, I_VISITS] + 1
        ints[node, I_VISITS] = n
        value = floats[node, F_VALUE] + (r0 if mover_of(ints, node) == 0 else -r0)
        floats[node, F_VALUE] = value
        floats[node, F_MEAN] = value / n
        floats[node, F_INV_SQRT] = inv_sqrt(n)
        node = parent


@njit(cache=True, inline="always")
def backup_squares(ints, floats, node, r0):
    """Add ``r0 ** 2`` to the sums of squared values of ``node`` and its ancestors (with
    :func:`backup`, for UCB1-tuned)."""
    square = r0 * r0
    while node >= 0:
        floats[node, F_SQUARES] += square
        node = ints[node, I_PARENT]


@njit(cache=True, inline="always")
def solved_r0(ints, node):
    """The exact result for player 0 of a solved node."""
    status = ints[node, I_SOLVED]
    if status == DRAW:
        return 0.0
    value = 1.0 if status == WIN else -1.0
    return value if mover_of(ints, node) == 0 else -value


@njit(cache=True, inline="always")
def _status_of_children(ints, node):
    """``(status, plies)`` of ``node`` for the player to move there, from its children: the
    solver status and the plies to the end of the proven line (the fastest win among the
    children proven so far, else the slowest loss; a draw: its shortest line)."""
    first = ints[node, I_FIRST]
    count = ints[node, I_COUNT]
    if count == 0:
        return UNSOLVED, 0
    win = -1
    draw = -1
    loss = -1
    any_open = False
    for child in range(first, first + count):
        status = ints[child, I_SOLVED]
        plies = ints[child, I_PROOF]
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


@njit(cache=True, inline="always")
def mark_terminal(ints, node, r0):
    """Record a terminal ``node`` with result ``r0`` and propagate proofs (and the length of
    the proven lines) to its ancestors."""
    mover = mover_of(ints, node)
    value = r0 if mover == 0 else -r0
    mark_proven(ints, node, WIN if value > 0 else (LOSS if value < 0 else DRAW), 0)


@njit(cache=True, inline="always")
def mark_proven(ints, node, status, plies):
    """Record that ``node`` is proven (``status`` for its mover, ``plies`` to the end of the
    proven line) and propagate proofs to its ancestors."""
    ints[node, I_SOLVED] = status
    ints[node, I_PROOF] = plies
    node = ints[node, I_PARENT]
    while node >= 0:
        status, plies = _status_of_children(ints, node)
        if status == UNSOLVED:
            return
        if status != DRAW and mover_of(ints, node) != ints[node, I_PLAYER]:
            status = LOSS if status == WIN else WIN
        ints[node, I_SOLVED] = status
        ints[node, I_PROOF] = plies
        node = ints[node, I_PARENT]


@njit(cache=True, inline="always")
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
        player = ints[node, I_PLAYER]
        reward = r0 if player == 0 else -r0
        first = ints[node, I_FIRST]
        for child in range(first, first + ints[node, I_COUNT]):
            if stamp[player, ints[child, I_ACTION]] == epoch:
                ints[child, I_AMAF_N] += 1
                floats[child, F_AMAF] += reward


@njit(cache=True)
def best_root_child(ints, floats):
    """The move to play: the proven win with the shortest proven line; else a proven draw
    (the most visited); else the most visited child that is not a proven loss (the higher
    mean value breaks ties); if every child is a proven loss, the one that loses last.

    A proven draw is kept rather than an open move however searched: the open move can only
    be better if it wins, which the search did not prove, and it may lose (a proven draw's
    value is exact, so visits spent there say nothing of it; an open move that the opponent
    can hold to a draw collects as many visits with a mean near 0, and was played)."""
    first = ints[0, I_FIRST]
    best = -1
    for child in range(first, first + ints[0, I_COUNT]):
        if best == -1:
            best = child
            continue
        status, best_status = ints[child, I_SOLVED], ints[best, I_SOLVED]
        if (status == WIN) != (best_status == WIN):
            if status == WIN:
                best = child
            continue
        if status == WIN:
            if ints[child, I_PROOF] < ints[best, I_PROOF]:
                best = child
            continue
        if (status == DRAW) != (best_status == DRAW):
            if status == DRAW:
                best = child
            continue
        if (status == LOSS) != (best_status == LOSS):
            if best_status == LOSS:
                best = child
            continue
        if status == LOSS and ints[child, I_PROOF] != ints[best, I_PROOF]:
            if ints[child, I_PROOF] > ints[best, I_PROOF]:
                best = child
            continue
        visits, best_visits = ints[child, I_VISITS], ints[best, I_VISITS]
        if visits > best_visits or (
            visits == best_visits and floats[child, F_MEAN] > floats[best, F_MEAN]
        ):
            best = child
    return best


@njit(cache=True)
def resisting_root_child(ints, floats):
    """:func:`best_root_child`, except where the search proved a move lost after searching it
    more than the move it would play, an open one, and valued that open move no higher than
    the proven loss (and proved no move a draw): then the proven loss that loses last. The
    open move was searched too little to be trusted, and in such positions (a network that
    values every move as lost) it usually loses sooner."""
    best = best_root_child(ints, floats)
    if ints[best, I_SOLVED] != UNSOLVED:
        return best  # a proven win, a proven draw, or every move lost: the slowest loss
    first = ints[0, I_FIRST]
    resist = False
    for child in range(first, first + ints[0, I_COUNT]):
        if (
            ints[child, I_SOLVED] == LOSS
            and ints[child, I_VISITS] > ints[best, I_VISITS]
            and floats[child, F_MEAN] >= floats[best, F_MEAN]
        ):
            resist = True
    if not resist:
        return best
    slowest = -1
    for child in range(first, first + ints[0, I_COUNT]):
        if ints[child, I_SOLVED] == LOSS and (
            slowest == -1
            or ints[child, I_PROOF] > ints[slowest, I_PROOF]
            or (
                ints[child, I_PROOF] == ints[slowest, I_PROOF]
                and ints[child, I_VISITS] > ints[slowest, I_VISITS]
            )
        ):
            slowest = child
    return slowest


@njit(cache=True)
def compact_subtree(ints, floats, root, new_ints, new_floats, new_meta):
    """Copy the subtree under ``root`` into the new buffers (breadth first, children kept
    contiguous); ``root`` becomes node 0. Returns the number of nodes copied."""
    return _copy_tree(ints, floats, root, new_ints, new_floats, new_meta, 0)


@njit(cache=True)
def kept_nodes(ints, min_visits):
    """Nodes :func:`prune` would keep with this ``min_visits``."""
    kept = 1
    stack = [0]
    while stack:
        node = stack.pop()
        if node == 0 or ints[node, I_VISITS] >= min_visits:
            first = ints[node, I_FIRST]
            count = ints[node, I_COUNT]
            kept += count
            for child in range(first, first + count):
                if ints[child, I_COUNT] > 0:
                    stack.append(child)
    return kept


@njit(cache=True)
def prune(ints, floats, meta, new_ints, new_floats, new_meta, min_visits):
    """Copy the tree into the new buffers, dropping the children of every node (but the root)
    visited fewer than ``min_visits`` times; such a node keeps its own statistics and is
    expanded again when the search comes back to it. Returns the nodes kept."""
    new_meta[M_EPOCH] = meta[M_EPOCH]
    return _copy_tree(ints, floats, 0, new_ints, new_floats, new_meta, min_visits)


@njit(cache=True)
def _copy_tree(ints, floats, root, new_ints, new_floats, new_meta, min_visits):
    """The copy of :func:`compact_subtree` and :func:`prune`: the subtree under ``root``,
    breadth first with children kept contiguous, ``root`` becoming node 0, without the
    children of the nodes below it visited fewer than ``min_visits`` times."""
    for f in range(ints.shape[1]):
        new_ints[0, f] = ints[root, f]
    for f in range(floats.shape[1]):
        new_floats[0, f] = floats[root, f]
    new_ints[0, I_PARENT] = -1
    new_ints[0, I_ACTION] = -1
    size = 1
    head = 0
    while head < size:
        old = new_ints[head, I_FIRST]
        count = new_ints[head, I_COUNT]
        if count > 0 and head > 0 and new_ints[head, I_VISITS] < min_visits:
            new_ints[head, I_FIRST] = 0
            new_ints[head, I_COUNT] = 0
        elif count > 0:
            new_ints[head, I_FIRST] = size
            for i in range(count):
                for f in range(ints.shape[1]):
                    new_ints[size + i, f] = ints[old + i, f]
                for f in range(floats.shape[1]):
                    new_floats[size + i, f] = floats[old + i, f]
                new_ints[size + i, I_PARENT] = head
            size += count
        head += 1
    new_meta[M_NODES] = size
    new_meta[M_FULL] = 0
    return size
