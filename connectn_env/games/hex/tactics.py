"""Tactics (see :mod:`~connectn_env.games.tactics`) of Hex.

A roll-out that needs no winning-move test fills the board in the policy's order and decides
the winner with one flood fill at the end, as the play-out kernel does (a full Hex board has
exactly one winner, who is also the first to connect). With ``DECISIVE`` every move goes
through the union-find of :func:`~connectn_env.games.hex.kernels.apply`, so that a cell wins
when it touches one of the player's edges (or a chain joined to it) and the other. While the
swap may still come, ``start`` plays the roll-out's first moves itself, as the play-out kernel
does.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.codes import ONGOING
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.hex.kernels import (
    BOTTOM,
    LEFT,
    P_COLS,
    P_ROWS,
    P_SWAP,
    P_UNION,
    RIGHT,
    TOP,
    apply,
    full_board_outcome,
    legal_actions,
    neighbour_steps,
    padded_size_of,
)
from connectn_env.games.lib.header import H_MOVES, H_OUTCOME, H_PLAYER, HEADER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import EMPTY
from connectn_env.games.lib.rng import random_below
from connectn_env.games.tactics import DECISIVE, UNDECIDED, Tactics

# counters
C_FREE = 0
C_MODE = 1
NUM_COUNTERS = 2
# modes
FILL = 0  # stones only; the winner by a flood fill once the board is full
UNION = 1  # apply (union-find) per move


@compiled_kernel
def new_workspace(kernels, params, state, num_actions):
    """The free moves (actions, padded indices and where each is), counters, a stack."""
    size = params[P_ROWS] * params[P_COLS] + 1
    return (
        np.empty(size, dtype=np.int64),
        np.empty(size, dtype=np.int64),
        np.full(size, -1, dtype=np.int64),
        np.zeros(NUM_COUNTERS, dtype=np.int64),
    )


@njit(cache=True)
def _swap_ahead(params, state):
    return params[P_SWAP] == 1 and state[H_MOVES] < 2


@compiled_kernel
def start(kernels, params, state, tws, flags, rng, moves, players, count):
    """Play random moves while the swap may still come; list the empty cells; pick the
    mode."""
    actions, pads, where, counters = tws
    while _swap_ahead(params, state) and state[H_OUTCOME] == ONGOING:
        legal = legal_actions(params, state, actions)
        action = actions[random_below(rng, legal)]
        moves[count] = action
        players[count] = state[H_PLAYER]
        count += 1
        apply(params, state, action)
    counters[C_MODE] = UNION if flags & DECISIVE else FILL
    rows, cols = params[P_ROWS], params[P_COLS]
    width = cols + 1
    free = 0
    for action in range(rows * cols):
        pad = (action // cols + 1) * width + action % cols + 1
        if state[HEADER + pad] == EMPTY:
            actions[free] = action
            pads[free] = pad
            where[action] = free
            free += 1
        else:
            where[action] = -1
    counters[C_FREE] = free
    return count


@compiled_kernel
def play(kernels, params, state, tws, action):
    """Place the stone (through ``apply`` with ``DECISIVE``) and keep the free list; a full
    board is left to ``finish``."""
    actions, pads, where, counters = tws
    index = where[action]
    last = counters[C_FREE] - 1
    pad = pads[index]
    actions[index] = actions[last]
    pads[index] = pads[last]
    where[actions[index]] = index
    where[action] = -1
    counters[C_FREE] = last
    if counters[C_MODE] == UNION:
        apply(params, state, action)
        return state[H_OUTCOME]
    player = state[H_PLAYER]
    state[HEADER + pad] = player + 1
    state[H_PLAYER] = 1 - player
    return UNDECIDED if last == 0 else ONGOING


@compiled_kernel
def finish(kernels, params, state, tws):
    """The winner of the full board (one flood fill)."""
    state[H_OUTCOME] = full_board_outcome(params, state[HEADER:], tws[1])
    return state[H_OUTCOME]


@njit(cache=True)
def _root(state, union, node):
    """The root of ``node``'s set (read only: no path compression)."""
    while state[union + node] != node:
        node = state[union + node]
    return node


@compiled_kernel
def random_move(kernels, params, state, tws, rng):
    """A random free move."""
    actions, counters = tws[0], tws[3]
    return actions[random_below(rng, counters[C_FREE])]


@njit(cache=True)
def winning_cell(params, state, player, actions, count):
    """The first of the empty cells ``actions[:count]`` where a stone of ``player`` joins
    their two sides (read from the union-find), or -1."""
    rows, cols = params[P_ROWS], params[P_COLS]
    width = cols + 1
    union = params[P_UNION]
    edges = padded_size_of(rows, cols)
    first = _root(state, union, edges + (TOP if player == 0 else LEFT))
    second = _root(state, union, edges + (BOTTOM if player == 0 else RIGHT))
    stone = player + 1
    for i in range(count):
        action = actions[i]
        if action >= rows * cols:
            continue  # the swap
        row, col = action // cols, action % cols
        line = row if player == 0 else col
        end = rows - 1 if player == 0 else cols - 1
        touches_first = line == 0
        touches_second = line == end
        pad = (row + 1) * width + col + 1
        for step in neighbour_steps(width):
            if state[HEADER + pad + step] == stone:
                root = _root(state, union, pad + step)
                touches_first |= root == first
                touches_second |= root == second
        if touches_first and touches_second:
            return action
    return -1


@compiled_kernel
def winning_move(kernels, params, state, tws, player):
    """A free cell that connects ``player``'s sides, or -1 (-1 also when filling)."""
    actions, counters = tws[0], tws[3]
    if counters[C_MODE] == FILL:
        return -1
    return winning_cell(params, state, player, actions, counters[C_FREE])


@compiled_kernel
def expansion(kernels, params, state, tws, out, flags):
    """The legal moves; with ``DECISIVE`` the winning cell if there is one, else the cell that
    stops the opponent's connection, if there is one (two such cells: both, a lost node)."""
    count = legal_actions(params, state, out)
    if flags & DECISIVE == 0:
        return count
    player = np.int64(state[H_PLAYER])
    win = winning_cell(params, state, player, out, count)
    if win >= 0:
        out[0] = win
        return 1
    kept = 0
    for i in range(count):  # every cell where the opponent would connect
        if winning_cell(params, state, 1 - player, out[i : i + 1], 1) >= 0:
            out[kept] = out[i]
            kept += 1
    return kept if kept > 0 else legal_actions(params, state, out)


TACTICS = Tactics.of(globals())
