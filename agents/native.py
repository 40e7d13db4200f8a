"""Compiled UCT / RAVE search for this suite's games (the native fast path).

The whole simulation loop (select, expand, random play-out, backup with the MCTS-Solver,
RAVE update) runs in numba over a game's ``params`` vector and a position's ``state``
vector (see ``connectn_env.games.layout``) and the tree buffers of :mod:`agents.tree`.

Entry point for other compiled code (for example a compiled vector env that wants an
in-loop MCTS opponent)::

    uct_search_action(params, state, simulations, exploration, rng, ints, floats, meta) -> int

- ``params``: the game's int64 params vector (``game.params``).
- ``state``: the int32 state vector of a non-terminal position (``game_state.data``); it is
  not modified.
- ``simulations``: number of simulations (int > 0); ``exploration``: UCT constant (float).
- ``rng``: uint64 array of length 1, a non-zero xorshift state, advanced in place.
- ``ints``, ``floats``, ``meta``: tree buffers from ``agents.tree.new_tree(max_nodes)``,
  reused between calls (they are reset). When they fill up, search continues without
  expanding.

It returns the action to play (a proven win if found, else the most visited move that is not
a proven loss). It allocates only small work arrays; everything is ``@njit(cache=True)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.tree import (
    I_ACTION,
    I_COUNT,
    I_SOLVED,
    I_VISITS,
    MODE_RAVE,
    MODE_UCT,
    backup,
    best_root_child,
    expand,
    mark_terminal,
    rave_update,
    select_child,
    shuffle_together,
    solved_r0,
    tree_reset,
)
from connectn_env.games.kernels import apply_unchecked, legal_action_list
from connectn_env.games.layout import (
    HEADER,
    KIND_HEX,
    P_AUX,
    P_COLS,
    P_GRAVITY,
    P_HIST,
    P_KIND,
    P_MAX_MOVES,
    P_NUM_ACTIONS,
    P_ROWS,
    P_STATE_SIZE,
    S_LAST,
    S_MOVES,
    S_OUTCOME,
    S_PLAYER,
    S_STONES,
)
from connectn_env.games.playouts import new_playout_buffers, playout

_DRAW = 3


@njit(cache=True)
def outcome_r0(outcome):
    """Result for player 0 of a finished game's Outcome code (1, 2 or 3)."""
    if outcome == 1:
        return 1.0
    if outcome == 2:
        return -1.0
    return 0.0


@njit(cache=True)
def advance(params, state, action):
    """Play a legal ``action`` that is known not to end the game (it leads to a visited,
    unsolved tree node: had it ended the game, the solver would have marked the node).

    Same effect as ``apply_unchecked`` without the win and draw checks, for k-in-a-row
    games; Hex keeps its union-find up to date through ``apply_unchecked``.
    """
    if params[P_KIND] == KIND_HEX:
        apply_unchecked(params, state, action)
        return
    player = state[S_PLAYER]
    moves = state[S_MOVES]
    state[params[P_HIST] + moves] = action
    state[S_MOVES] = moves + 1
    state[S_LAST] = action
    cell = action
    if params[P_GRAVITY] == 1:
        height = params[P_AUX] + action
        cell += (params[P_ROWS] - 1 - state[height]) * params[P_COLS]
        state[height] += 1
    state[HEADER + cell] = player + 1
    state[S_STONES] += 1
    state[S_PLAYER] = 1 - player


@njit(cache=True)
def new_workspace(params):
    """Work arrays of one search: state copy, actions, priors, path, RAVE stamps, parity and
    the play-out's cell list and padded board."""
    num_actions = params[P_NUM_ACTIONS]
    max_moves = params[P_MAX_MOVES]
    work = np.empty(params[P_STATE_SIZE], dtype=np.int32)
    actions = np.empty(num_actions, dtype=np.int64)
    priors = np.empty(num_actions, dtype=np.float64)
    path = np.empty(max_moves + 2, dtype=np.int64)
    stamp = np.zeros((2, num_actions), dtype=np.int64)
    parity = np.empty(max_moves, dtype=np.int64)
    for j in range(max_moves):
        parity[j] = j & 1
    _, pads, board = new_playout_buffers(params)
    return work, actions, priors, path, stamp, parity, pads, board


@njit(cache=True)
def run_simulations(
    params,
    root_state,
    ints,
    floats,
    meta,
    simulations,
    mode,
    exploration,
    rave_equivalence,
    rng,
    work,
    actions,
    priors,
    path,
    stamp,
    parity,
    pads,
    board,
):
    """Run up to ``simulations`` simulations from ``root_state`` (node 0 of the tree).

    Returns the number run (fewer once the root is proven). A node is expanded on its
    second visit (as OpenSpiel's MCTSBot does), children in random order.
    """
    hist = params[P_HIST]
    root_moves = root_state[S_MOVES]
    for sim in range(simulations):
        if ints[I_SOLVED, 0] != 0:
            return sim
        work[:] = root_state
        node = 0
        depth = 0
        path[0] = 0
        while work[S_OUTCOME] == 0 and ints[I_SOLVED, node] == 0:
            if node != 0 and ints[I_VISITS, node] == 0:
                break
            if ints[I_COUNT, node] == 0:
                count = legal_action_list(params, work, actions)
                for i in range(count):
                    priors[i] = 1.0 / count
                shuffle_together(actions, priors, count, rng)
                if not expand(ints, floats, meta, node, work[S_PLAYER], actions, priors, count):
                    break
            node = select_child(ints, floats, node, mode, exploration, rave_equivalence)
            if ints[I_VISITS, node] > 0 and ints[I_SOLVED, node] == 0:
                advance(params, work, ints[I_ACTION, node])
            else:
                apply_unchecked(params, work, ints[I_ACTION, node])
            depth += 1
            path[depth] = node
        if ints[I_SOLVED, node] != 0:
            r0 = solved_r0(ints, node)
        elif work[S_OUTCOME] != 0:
            r0 = outcome_r0(work[S_OUTCOME])
            mark_terminal(ints, node, r0)
        else:
            r0 = outcome_r0(playout(params, work, rng, actions, pads, board))
        backup(ints, floats, node, r0)
        if mode == MODE_RAVE:
            moves = work[hist : hist + work[S_MOVES]]
            rave_update(
                ints, floats, meta, stamp, path, depth, moves, parity, root_moves,
                work[S_MOVES], r0,
            )  # fmt: skip
    return simulations


@njit(cache=True)
def uct_search_action(params, state, simulations, exploration, rng, ints, floats, meta):
    """Plain UCT search from ``state``; returns the action to play (see module docstring)."""
    work, actions, priors, path, stamp, parity, pads, board = new_workspace(params)
    tree_reset(ints, floats, meta, state[S_PLAYER])
    run_simulations(
        params, state, ints, floats, meta, simulations, MODE_UCT, exploration, 0.0, rng,
        work, actions, priors, path, stamp, parity, pads, board,
    )  # fmt: skip
    return ints[I_ACTION, best_root_child(ints, floats)]
