"""Roll-out policies: a compiled ``evaluate`` rule (:mod:`agents.rules`) that plays
the play-out move by move through the game's tactics (:mod:`connectn_env.games.tactics`).

At each move of the play-out, in this order:

1. ``decisive``: a move that wins at once; else one that stops the opponent's win at once
   (decisive and anti-decisive moves, Teytaud and Teytaud 2010);
2. ``lgr``: the last good reply to the previous move (LGRF-1, Baier and Drake 2010): after each
   simulation the winner's replies are stored and the loser's stored replies forgotten;
3. ``pool_rave=K``: with probability :data:`POOL_PROBABILITY`, a move drawn from the pool of
   the K moves with the best AMAF values (Rimmel, Teytaud and Teytaud 2010): for the player
   to move at the root its children's, for the other player the children's of the root's most
   visited child; the pools are rebuilt every :data:`POOL_REFRESH` visits of the root, and
   at once at a new root;
4. a uniformly random move (``local``: among the cells next to the stones).

A proposed move that is illegal now (a stored reply, a pool move) is skipped.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from agents.tree import I_ACTION, I_AMAF_N, I_COUNT, I_FIRST, I_PLAYER, I_VISITS, amaf_mean
from connectn_env.games.codes import DRAW, OK, ONGOING, PLAYER_0_WINS
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.rng import random_below
from connectn_env.games.tactics import DECISIVE, LOCAL, UNDECIDED

POOL_PROBABILITY = 0.5
POOL_REFRESH = 64

# settings entries
S_DECISIVE = 0
S_LGR = 1
S_POOL = 2  # K, 0 without PoolRAVE
S_LOCAL = 3
S_REBUILT = 4  # the root's visits when the pools were last rebuilt
NUM_SETTINGS = 5

_PROBABILITY_SCALE = 1 << 16


class PolicyData(namedtuple("PolicyData", "tactics workspace settings replies pools")):
    """The ``data`` of :func:`policy_rollout`.

    Attributes:
        tactics: The game's :class:`~connectn_env.games.tactics.Tactics`.
        workspace: The tactics' workspace.
        settings: int64 array: decisive, lgr, pool size K, local, the root's visits when the
            pools were last rebuilt (the ``S_*`` indices).
        replies: int64 ``(2, num_actions)``: each player's stored reply to each action, -1
            for none (LGR).
        pools: int64 ``(2, K + 1)``: ``pools[side, 0]`` moves in the pool of the root's player
            (side 0) and of the other player (side 1), then the moves.
    """

    __slots__ = ()


def new_policy_data(
    game: Any,
    state: np.ndarray,
    *,
    decisive: bool,
    lgr: bool,
    pool_rave: int,
    local: bool,
) -> PolicyData:
    """The data of :func:`policy_rollout` for ``game`` (``state``: any of its positions)."""
    from connectn_env.games.tactics import GENERIC_TACTICS

    tactics = game.tactics if game.tactics is not None else GENERIC_TACTICS
    settings = np.zeros(NUM_SETTINGS, dtype=np.int64)
    settings[S_DECISIVE] = int(decisive)
    settings[S_LGR] = int(lgr)
    settings[S_POOL] = pool_rave
    settings[S_LOCAL] = int(local)
    return PolicyData(
        tactics,
        tactics.new_workspace(game.kernels, game.params, state, game.num_actions),
        settings,
        np.full((2, game.num_actions), -1, dtype=np.int64),
        np.zeros((2, pool_rave + 1), dtype=np.int64),
    )


def expansion_flags(*, decisive: bool, local: bool) -> int:
    """``SearchSettings.expansion`` for these options (the tactics' flags)."""
    return (DECISIVE if decisive else 0) | (LOCAL if local else 0)


@njit(cache=True)
def _fill_pool(ints, floats, node, pools, side, size):
    """Put the (at most) ``size`` children of ``node`` with the best AMAF means into
    ``pools[side]`` (insertion into a short sorted list of child nodes, which become their
    actions at the end; nothing is allocated, as the search loop allows)."""
    kept = 0
    first = ints[node, I_FIRST]
    for child in range(first, first + ints[node, I_COUNT]):
        if ints[child, I_AMAF_N] == 0:
            continue
        value = amaf_mean(ints, floats, child)
        if kept < size:
            position = kept
            kept += 1
        elif value <= amaf_mean(ints, floats, pools[side, size]):
            continue
        else:
            position = size - 1
        while position > 0 and amaf_mean(ints, floats, pools[side, position]) < value:
            pools[side, position + 1] = pools[side, position]
            position -= 1
        pools[side, position + 1] = child
    for i in range(1, kept + 1):
        pools[side, i] = ints[pools[side, i], I_ACTION]
    pools[side, 0] = kept


@njit(cache=True)
def refresh_pools(tree, pools, size):
    """Rebuild both pools from the tree's AMAF statistics (see the module docstring)."""
    ints, floats, _ = tree
    _fill_pool(ints, floats, 0, pools, 0, size)
    pools[1, 0] = 0
    first = ints[0, I_FIRST]
    most = -1
    for child in range(first, first + ints[0, I_COUNT]):
        if most < 0 or ints[child, I_VISITS] > ints[most, I_VISITS]:
            most = child
    if most >= 0:
        _fill_pool(ints, floats, most, pools, 1, size)


@njit(cache=True)
def update_replies(replies, moves, players, start, count, outcome):
    """LGRF-1 after a simulation with this Outcome: each reply ``moves[i]`` to
    ``moves[i - 1]`` (``start < i < count``) is stored for the winner and forgotten for the
    loser (if it is the stored one)."""
    if outcome != PLAYER_0_WINS and outcome != PLAYER_0_WINS + 1:
        return
    winner = outcome - PLAYER_0_WINS
    for i in range(start + 1, count):
        player = players[i]
        previous = moves[i - 1]
        if player == winner:
            replies[player, previous] = moves[i]
        elif replies[player, previous] == moves[i]:
            replies[player, previous] = -1


@compiled_kernel
def policy_rollout(kernels, params, state, rng, workspace, moves, players, count, tree, data):
    """Evaluator: one play-out under the policy of ``data`` (see the module docstring); its
    moves are appended to the trace. Returns ``(result for player 0, new count)``."""
    tactics, tws, settings, replies, pools = data
    decisive = settings[S_DECISIVE] != 0
    lgr = settings[S_LGR] != 0
    pool_size = settings[S_POOL]
    flags = (DECISIVE if decisive else 0) | (LOCAL if settings[S_LOCAL] != 0 else 0)
    root_player = tree[0][0, I_PLAYER]
    if pool_size > 0:
        visits = tree[0][0, I_VISITS]
        if visits < settings[S_REBUILT] or visits >= settings[S_REBUILT] + POOL_REFRESH:
            refresh_pools(tree, pools, pool_size)
            settings[S_REBUILT] = visits
    threshold = int(POOL_PROBABILITY * _PROBABILITY_SCALE)
    count = tactics.start(kernels, params, state, tws, flags, rng, moves, players, count)
    outcome = kernels.outcome(params, state)
    previous = moves[count - 1] if count > 0 else -1
    while outcome == ONGOING:
        player = kernels.player(params, state)
        action = -1
        if decisive:
            action = tactics.winning_move(kernels, params, state, tws, player)
            if action < 0:
                action = tactics.winning_move(kernels, params, state, tws, 1 - player)
        if action < 0 and lgr and previous >= 0:
            reply = replies[player, previous]
            if reply >= 0 and kernels.check(params, state, reply) == OK:
                action = reply
        if action < 0 and pool_size > 0 and random_below(rng, _PROBABILITY_SCALE) < threshold:
            side = 0 if player == root_player else 1
            size = pools[side, 0]
            if size > 0:
                candidate = pools[side, 1 + random_below(rng, size)]
                if kernels.check(params, state, candidate) == OK:
                    action = candidate
        if action < 0:
            action = tactics.random_move(kernels, params, state, tws, rng)
        moves[count] = action
        players[count] = player
        count += 1
        outcome = tactics.play(kernels, params, state, tws, action)
        previous = action
    if outcome == UNDECIDED:
        outcome = tactics.finish(kernels, params, state, tws)
    if lgr:
        update_replies(replies, moves, players, 0, count, outcome)
    if outcome == DRAW:
        return 0.0, count
    return (1.0 if outcome == PLAYER_0_WINS else -1.0), count
