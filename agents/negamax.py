"""Compiled negamax with alpha-beta pruning and a transposition table, over any game's kernels.

One call of :func:`search_depth` searches the root to a fixed depth; :class:`agents.AlphaBetaAgent`
deepens iteratively. The recursion is unrolled into one loop over per-ply arrays (numba
compiles no recursion through first-class functions), so every position of the current line
lives in a row of ``states``: a move is a copy of the parent's row and ``kernels.apply``.

Scores are floats from the point of view of the player to move at the node: a static
evaluation in ``[-1, 1]``, 0 for a draw, ``WIN - ply`` for a win found ``ply`` moves below the
root (so the search prefers the fastest win and the slowest loss). The player to move is read
at every node, so games that do not alternate strictly are searched correctly.

Move ordering: the transposition table's move, two killer moves per ply, the history heuristic,
then a static bias per action (the caller's: cells near the centre first). Game knowledge (the
position key and the evaluation) comes from the game's optional
:class:`~connectn_env.games.heuristics.Heuristics`; without it the key is built from the
``observe`` planes and every unfinished leaf is worth 0.
"""

from __future__ import annotations

import time

import numpy as np
from numba import objmode

from connectn_env.games.codes import DRAW, OK, ONGOING
from connectn_env.games.heuristics import PLAYER_KEY, cell_key, mix64
from connectn_env.games.lib.jit import njit

WIN = 1.0e6
PROVEN = WIN - 1.0e5  # |score| above this is a proven win or loss
INFINITY = 2.0 * WIN
# transposition table bound types
EMPTY_SLOT = 0
EXACT = 1
LOWER = 2
UPPER = 3
CHECK_EVERY = 1024  # nodes between two looks at the clock and the node budget
# counters entries
C_NODES = 0
C_ABORTED = 1
NUM_COUNTERS = 2

_TT_MOVE_BONUS = 1.0e12
_KILLER_BONUS = (1.0e11, 1.0e10)


def new_table(bits: int) -> tuple[np.ndarray, ...]:
    """An empty transposition table of ``2 ** bits`` slots: keys, scores, depths, bound
    types, best moves, generations (pages are touched only when used)."""
    size = 1 << bits
    return (
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.float64),
        np.zeros(size, dtype=np.int32),
        np.zeros(size, dtype=np.int8),
        np.zeros(size, dtype=np.int32),
        np.zeros(size, dtype=np.int32),
    )


def new_work(root: np.ndarray, num_actions: int, plies: int, cells: int) -> tuple:
    """Per-ply work arrays for lines of up to ``plies`` moves below the root."""
    rows = plies + 1
    return (
        np.empty((rows, root.shape[0]), dtype=root.dtype),  # states
        np.empty((rows, num_actions), dtype=np.int64),  # moves, in the order tried
        np.empty((rows, num_actions), dtype=np.float64),  # ordering scores
        np.zeros((rows, 5), dtype=np.int64),  # move count, next move, depth, player, best move
        np.zeros((rows, 4), dtype=np.float64),  # alpha, beta, best score, alpha after the table
        np.zeros(rows, dtype=np.uint64),  # keys
        np.full((rows, 2), -1, dtype=np.int64),  # killer moves
        np.zeros(num_actions, dtype=np.float64),  # history
        np.full((rows, rows), -1, dtype=np.int64),  # principal variation (triangular)
        np.zeros(rows, dtype=np.int64),  # principal variation lengths
        np.empty(2 * cells, dtype=np.int8),  # observation planes (generic key)
    )


# columns of the per-ply int array
_COUNT = 0
_NEXT = 1
_DEPTH = 2
_PLAYER = 3
_BEST_MOVE = 4
# columns of the per-ply float array
_ALPHA = 0
_BETA = 1
_BEST = 2
_WINDOW_ALPHA = 3


@njit(cache=True)
def now():
    """``time.perf_counter()`` from compiled code (about 0.3 microseconds)."""
    with objmode(value="float64"):
        value = time.perf_counter()
    return value


@njit(cache=True)
def observed_key(kernels, params, state, planes):
    """The fallback position key: Zobrist numbers of the ``observe`` planes of player_0 and
    the player to move."""
    kernels.observe(params, state, 0, planes)
    value = np.uint64(0)
    for i in range(planes.shape[0]):
        if planes[i] != 0:
            value ^= cell_key(i // 2, 1 + i % 2)
    if kernels.player(params, state) == 1:
        value ^= PLAYER_KEY
    return value


@njit(cache=True)
def position_key(kernels, key_fn, params, state, planes):
    """The game's key, or :func:`observed_key` for a game without one (``key_fn`` None)."""
    if key_fn is None:
        return mix64(observed_key(kernels, params, state, planes))
    return mix64(key_fn(params, state))


@njit(cache=True)
def to_table(score, ply):
    """A score relative to the root made relative to the node ``ply`` moves below it."""
    if score > PROVEN:
        return score + ply
    if score < -PROVEN:
        return score - ply
    return score


@njit(cache=True)
def from_table(score, ply):
    """The inverse of :func:`to_table`."""
    if score > PROVEN:
        return score - ply
    if score < -PROVEN:
        return score + ply
    return score


@njit(cache=True)
def table_slot(table, key):
    """The slot of ``key``."""
    return np.int64(key & np.uint64(table[0].shape[0] - 1))


@njit(cache=True)
def table_store(table, key, score, depth, bound, move, generation):
    """Keep an entry unless the slot holds a deeper one of this search for another key."""
    keys, scores, depths, bounds, moves, generations = table
    slot = table_slot(table, key)
    if (
        bounds[slot] != EMPTY_SLOT
        and keys[slot] != key
        and generations[slot] == generation
        and depths[slot] > depth
    ):
        return
    keys[slot] = key
    scores[slot] = score
    depths[slot] = depth
    bounds[slot] = bound
    moves[slot] = move
    generations[slot] = generation


@njit(cache=True)
def _order(kernels, params, work, table, bias, ply, key):
    """List the legal moves of the position at ``ply`` with their ordering scores."""
    states, moves, scores, ints = work[0], work[1], work[2], work[3]
    killers, history = work[6], work[7]
    count = kernels.legal_actions(params, states[ply], moves[ply])
    slot = table_slot(table, key)
    tt_move = -1
    if table[3][slot] != EMPTY_SLOT and table[0][slot] == key:
        tt_move = table[4][slot]
    for i in range(count):
        action = moves[ply, i]
        score = history[action] + bias[action]
        if action == tt_move:
            score += _TT_MOVE_BONUS
        elif action == killers[ply, 0]:
            score += _KILLER_BONUS[0]
        elif action == killers[ply, 1]:
            score += _KILLER_BONUS[1]
        scores[ply, i] = score
    ints[ply, _COUNT] = count
    ints[ply, _NEXT] = 0


@njit(cache=True)
def _next_move(work, ply):
    """The best-scored untried move at ``ply`` (selection sort, one step), or -1."""
    moves, scores, ints = work[1], work[2], work[3]
    index = ints[ply, _NEXT]
    count = ints[ply, _COUNT]
    if index >= count:
        return -1
    best = index
    for i in range(index + 1, count):
        if scores[ply, i] > scores[ply, best]:
            best = i
    action = moves[ply, best]
    moves[ply, best] = moves[ply, index]
    scores[ply, best] = scores[ply, index]
    moves[ply, index] = action
    ints[ply, _NEXT] = index + 1
    return action


@njit(cache=True)
def _terminal_score(outcome, mover, ply):
    """Score for ``mover`` (who made the last move, at ``ply - 1``) of a finished game."""
    if outcome == DRAW:
        return 0.0
    if outcome - 1 == mover:
        return WIN - ply
    return -(WIN - ply)


@njit(cache=True)
def _next_check(nodes, node_limit):
    """When to look at the limits next: in ``CHECK_EVERY`` nodes, or at the node budget."""
    if node_limit >= 0:
        return min(nodes + CHECK_EVERY, node_limit)
    return nodes + CHECK_EVERY


@njit(cache=True)
def search_depth(
    kernels, key_fn, eval_fn, params, root, depth, table, work, bias, generation, limits, counters
):
    """Negamax with alpha-beta from ``root`` to ``depth`` plies (``depth >= 1``; the root is
    not finished).

    Args:
        key_fn, eval_fn: The game's heuristics kernels, or None for the fallbacks.
        table: From :func:`new_table` (kept between searches).
        work: From :func:`new_work` with room for ``depth`` plies.
        bias: Static ordering score per action, in [0, 1).
        generation: The search's number (older table entries are replaced first).
        limits: ``(node budget or -1, deadline in perf_counter seconds or inf)``: the search
            stops at the node budget (counted over all calls sharing ``counters``) and looks
            at the clock every ``CHECK_EVERY`` nodes.
        counters: int64 ``[nodes, aborted]``; nodes are added, aborted set to 1 if a limit
            stopped the search (the returned values are then meaningless).

    Returns:
        ``(score for the player to move, best move)``; the principal variation is
        ``work[8][0, :work[9][0]]``.
    """
    states, _, _, ints, floats, keys, killers, history, pv, pv_length, planes = work
    node_limit = np.int64(limits[0])
    deadline = limits[1]
    nodes = counters[C_NODES]
    next_check = _next_check(nodes, node_limit)
    states[0, :] = root
    ply = 0
    keys[0] = position_key(kernels, key_fn, params, root, planes)
    ints[0, _DEPTH] = depth
    ints[0, _PLAYER] = kernels.player(params, root)
    ints[0, _BEST_MOVE] = -1
    floats[0, _ALPHA] = -INFINITY
    floats[0, _BETA] = INFINITY
    floats[0, _WINDOW_ALPHA] = -INFINITY
    floats[0, _BEST] = -INFINITY
    pv_length[0] = 0
    _order(kernels, params, work, table, bias, 0, keys[0])
    returning = False
    value = 0.0  # the last finished child's score, for its parent's player
    while True:
        if returning:
            returning = False
            action = work[1][ply, ints[ply, _NEXT] - 1]
            if value > floats[ply, _BEST]:
                floats[ply, _BEST] = value
                ints[ply, _BEST_MOVE] = action
                if value > floats[ply, _ALPHA]:
                    floats[ply, _ALPHA] = value
                    length = pv_length[ply + 1]
                    pv[ply, ply] = action
                    for i in range(ply + 1, ply + 1 + length):
                        pv[ply, i] = pv[ply + 1, i]
                    pv_length[ply] = 1 + length
                    if value >= floats[ply, _BETA]:
                        if killers[ply, 0] != action:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = action
                        history[action] += ints[ply, _DEPTH] * ints[ply, _DEPTH]
                        ints[ply, _NEXT] = ints[ply, _COUNT]  # cut: no more moves
        action = _next_move(work, ply)
        if action >= 0:
            if nodes >= next_check:
                if (node_limit >= 0 and nodes >= node_limit) or (
                    deadline < np.inf and now() >= deadline
                ):
                    counters[C_NODES] = nodes
                    counters[C_ABORTED] = 1
                    return 0.0, -1
                next_check = _next_check(nodes, node_limit)
            child = ply + 1
            nodes += 1
            state = states[child]
            state[:] = states[ply]
            kernels.apply(params, state, action)
            mover = ints[ply, _PLAYER]
            outcome = kernels.outcome(params, state)
            if outcome != ONGOING:
                value = _terminal_score(outcome, mover, child)
                pv_length[child] = 0
                returning = True
                continue
            player = kernels.player(params, state)
            same = player == mover
            left = ints[ply, _DEPTH] - 1
            if left == 0:
                estimate = 0.0 if eval_fn is None else eval_fn(params, state)
                value = estimate if same else -estimate
                pv_length[child] = 0
                returning = True
                continue
            if same:
                alpha, beta = floats[ply, _ALPHA], floats[ply, _BETA]
            else:
                alpha, beta = -floats[ply, _BETA], -floats[ply, _ALPHA]
            key = position_key(kernels, key_fn, params, state, planes)
            slot = table_slot(table, key)
            tt_keys, tt_scores, tt_depths, tt_bounds = table[0], table[1], table[2], table[3]
            if tt_bounds[slot] != EMPTY_SLOT and tt_keys[slot] == key and tt_depths[slot] >= left:
                stored = from_table(tt_scores[slot], child)
                bound = tt_bounds[slot]
                if bound == EXACT:
                    alpha = beta = stored
                elif bound == LOWER and stored > alpha:
                    alpha = stored
                elif bound == UPPER and stored < beta:
                    beta = stored
                if alpha >= beta:
                    value = stored if same else -stored
                    pv_length[child] = 0
                    returning = True
                    continue
            ply = child
            keys[ply] = key
            ints[ply, _DEPTH] = left
            ints[ply, _PLAYER] = player
            ints[ply, _BEST_MOVE] = -1
            floats[ply, _ALPHA] = alpha
            floats[ply, _BETA] = beta
            floats[ply, _WINDOW_ALPHA] = alpha
            floats[ply, _BEST] = -INFINITY
            pv_length[ply] = 0
            _order(kernels, params, work, table, bias, ply, key)
            continue
        # every move of the node at `ply` is done (or cut): store it and return to the parent
        best = floats[ply, _BEST]
        if best <= floats[ply, _WINDOW_ALPHA]:
            bound = UPPER
        elif best >= floats[ply, _BETA]:
            bound = LOWER
        else:
            bound = EXACT
        table_store(
            table,
            keys[ply],
            to_table(best, ply),
            ints[ply, _DEPTH],
            bound,
            ints[ply, _BEST_MOVE],
            generation,
        )
        if ply == 0:
            counters[C_NODES] = nodes
            return best, ints[0, _BEST_MOVE]
        same = ints[ply, _PLAYER] == ints[ply - 1, _PLAYER]
        ply -= 1
        value = best if same else -best
        returning = True


@njit(cache=True)
def principal_line(kernels, key_fn, params, root, table, work, out):
    """The last :func:`search_depth`'s principal variation, continued with the table's best
    moves (where a transposition cut the line short), into ``out`` (at most its length);
    returns the number of moves."""
    pv, pv_length, planes = work[8], work[9], work[10]
    state = root.copy()
    length = 0
    limit = out.shape[0]
    for i in range(min(pv_length[0], limit)):
        out[length] = pv[0, i]
        kernels.apply(params, state, pv[0, i])
        length += 1
    while length < limit and kernels.outcome(params, state) == ONGOING:
        key = position_key(kernels, key_fn, params, state, planes)
        slot = table_slot(table, key)
        if table[3][slot] == EMPTY_SLOT or table[0][slot] != key:
            break
        move = table[4][slot]
        if move < 0 or kernels.check(params, state, move) != OK:
            break
        out[length] = move
        kernels.apply(params, state, move)
        length += 1
    return length
