"""Gumbel root search (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR
2022): a selection rule, a move choice and a root rule of :mod:`agents.rules`, each named
``"gumbel"`` (``selection="gumbel"``).

At the root, the search draws a Gumbel variable ``g(a)`` per move and spends its simulation
budget by sequential halving: the ``m`` moves with the highest ``g(a) + logit(a)`` get visits
first, then the better half of them by ``g(a) + logit(a) + sigma(q(a))``, and so on (the
schedule of :func:`halving_level`). Below the root a move is chosen deterministically, by
the improved policy ``softmax(logit + sigma(q))`` minus the share of visits each move already
has. ``q`` are the completed Q-values: a visited move's mean value, an unvisited one's the
node's value mixed with the prior-weighted values of the visited moves; rescaled to [0, 1]
over the node's moves and scaled by ``sigma(q) = (c_visit + max visits) * c_scale * q``. The
move played is the considered move with the most visits and the best
``g + logit + sigma(q)``; the search's policy (``SearchResult.pi``, a training target) is the
improved policy at the root. mctx's ``gumbel_muzero_policy`` is the reference.

Proven moves (MCTS-Solver) keep their meaning: a proven win is taken at once, a proven loss
never while another move is open, and their completed values are the proven ones. The tree
does not keep a node's own first evaluation (mctx's "raw value"): the node's mean value stands
in for it. With uniform priors (``MCTSAgent``, or ``PUCTAgent`` without a network) the logits
are equal and the Gumbel variables alone order the moves.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any

import numpy as np

from agents.rules import (
    MOVE_CHOICES,
    ROOT_RULES,
    SELECTS,
    VALUE,
    MoveChoice,
    RootRule,
    Select,
    compiled_rule,
)
from agents.tree import (
    F_MEAN,
    F_PRIOR,
    I_COUNT,
    I_FIRST,
    I_SOLVED,
    I_VISITS,
    LOSS,
    UNSOLVED,
    WIN,
    best_root_child,
)
from connectn_env.games.lib.jit import njit

MAX_CONSIDERED = 16  # m: moves sampled at the root (mctx's max_num_considered_actions)
C_VISIT = 50.0  # sigma's visit offset (mctx's maxvisit_init)
C_SCALE = 0.1  # sigma's value scale (mctx's value_scale)
_TINY = 1e-30  # smallest prior a logit is taken of
_EPSILON = 1e-8  # smallest range the values are rescaled by


class GumbelSettings(
    namedtuple(
        "GumbelSettings",
        "exploration rave_equivalence expansion c_visit c_scale gumbel start plan",
    )
):
    """:class:`agents.rules.SearchSettings`' fields, then Gumbel's.

    Attributes:
        c_visit, c_scale: ``sigma(q) = (c_visit + max visits) * c_scale * q``.
        gumbel: The Gumbel variable of each root child (float64, in the root's child order).
        start: Each root child's visits when this search began (int64; a reused tree's).
        plan: ``[considered moves, simulations]`` of this search's sequential halving (int64;
            empty before the root is expanded): :func:`halving_level` reads its schedule from
            them, one simulation at a time, so that no budget is ever laid out in memory.
    """

    __slots__ = ()


@njit(cache=True)
def halving_level(index: int, considered: int, simulations: int) -> int:
    """Sequential halving's schedule: the number of visits a considered move must have gained
    to be the one searched by simulation ``index`` (0 to ``simulations - 1``). ``considered``
    moves share the budget in ``ceil(log2(considered))`` phases, the number of moves halving
    each phase (to no fewer than 2; phases of 2 go on until the budget is spent); each phase
    gives each of its moves ``max(1, simulations // (phases * moves))`` visits, one round of
    the moves per level. Computed for one simulation in at most ``phases + 17`` steps (the
    phases' roundings leave at most 32 simulations to phases of 2), whatever the budget."""
    if considered <= 1:
        return index
    phases = 1
    while (1 << phases) < considered:
        phases += 1
    level = 0
    moves = considered
    start = 0  # the first simulation of the phase
    while True:
        rounds = max(1, simulations // (phases * moves))
        if index < start + rounds * moves:
            return level + (index - start) // moves
        start += rounds * moves
        level += rounds
        moves = max(2, moves // 2)


def prepare(
    tree: tuple[np.ndarray, np.ndarray, np.ndarray],
    settings: Any,
    generator: np.random.Generator,
    simulations: int | None,
) -> GumbelSettings:
    """Draw the root children's Gumbel variables and plan the budget. Called once before the
    search's first simulation (the root may have no children yet: the plan is then empty and
    the root is searched like any node) and again once the root is expanded."""
    ints = tree[0]
    first, count = int(ints[0, I_FIRST]), int(ints[0, I_COUNT])
    start = ints[first : first + count, I_VISITS].astype(np.int64)
    budget = 0 if simulations is None else simulations
    plan = [min(MAX_CONSIDERED, count), budget] if count else []
    return GumbelSettings(
        *settings[:3],
        C_VISIT,
        C_SCALE,
        generator.gumbel(size=count),
        start,
        np.array(plan, dtype=np.int64),
    )


def batch_settings(settings: Any, slots: int, num_actions: int, simulations: int) -> Any:
    """The settings of a batch of ``slots`` searches: a row of Gumbel variables, start visits
    and plan per search (plans of no simulations until :func:`prepare_slots`)."""
    return GumbelSettings(
        *settings[:3],
        C_VISIT,
        C_SCALE,
        np.zeros((slots, num_actions), dtype=np.float64),
        np.zeros((slots, num_actions), dtype=np.int64),
        np.zeros((slots, 2), dtype=np.int64),
    )


def prepare_slots(
    trees: tuple[np.ndarray, np.ndarray, np.ndarray],
    settings: GumbelSettings,
    generator: np.random.Generator,
    budgets: np.ndarray,
    slots: np.ndarray,
) -> GumbelSettings:
    """:func:`prepare` for the given searches of a batch (their roots are expanded), each with
    its budget; returns the batch's settings."""
    ints = trees[0]
    for slot, budget in zip(slots, budgets, strict=True):
        first, count = int(ints[slot, 0, I_FIRST]), int(ints[slot, 0, I_COUNT])
        settings.gumbel[slot, :count] = generator.gumbel(size=count)
        settings.start[slot, :count] = ints[slot, first : first + count, I_VISITS]
        settings.plan[slot] = min(MAX_CONSIDERED, count), budget
    return settings


@compiled_rule
def gumbel_for_slot(settings, slot):
    """The settings of one search of a batch: its rows of the batch's arrays."""
    return GumbelSettings(
        settings.exploration,
        settings.rave_equivalence,
        settings.expansion,
        settings.c_visit,
        settings.c_scale,
        settings.gumbel[slot],
        settings.start[slot],
        settings.plan[slot],
    )


@njit(cache=True, inline="always")
def _child_value(ints, floats, child):
    """A visited or proven child's value for the player choosing it (the proven result if
    proven)."""
    status = ints[child, I_SOLVED]
    if status == WIN:
        return 1.0
    if status == LOSS:
        return -1.0
    if status == UNSOLVED:
        return floats[child, F_MEAN]
    return 0.0


@njit(cache=True, inline="always")
def _logit(floats, child):
    return math.log(max(floats[child, F_PRIOR], _TINY))


@njit(cache=True, inline="always")
def _completion(ints, floats, node):
    """``(value of unvisited children, lowest, highest completed value, sigma's factor
    without c_scale and c_visit: the most visits of a child)`` at ``node``."""
    first, last = ints[node, I_FIRST], ints[node, I_FIRST] + ints[node, I_COUNT]
    visits = 0
    most = 0
    weight = 0.0
    weighted = 0.0
    for child in range(first, last):
        n = ints[child, I_VISITS]
        if n > 0 or ints[child, I_SOLVED] != UNSOLVED:
            prior = max(floats[child, F_PRIOR], _TINY)
            weight += prior
            weighted += prior * _child_value(ints, floats, child)
        visits += n
        most = max(most, n)
    raw = -floats[node, F_MEAN]  # the node's value for its player to move
    mixed = raw if weight == 0.0 else (raw + visits * weighted / weight) / (visits + 1)
    low = math.inf
    high = -math.inf
    for child in range(first, last):
        if ints[child, I_VISITS] > 0 or ints[child, I_SOLVED] != UNSOLVED:
            q = _child_value(ints, floats, child)
        else:
            q = mixed
        low = min(low, q)
        high = max(high, q)
    return mixed, low, high, most


@njit(cache=True, inline="always")
def _sigma(ints, floats, child, mixed, low, high, scale):
    """``sigma`` of a child's completed value (``scale``: ``(c_visit + most) * c_scale``)."""
    if ints[child, I_VISITS] > 0 or ints[child, I_SOLVED] != UNSOLVED:
        q = _child_value(ints, floats, child)
    else:
        q = mixed
    return scale * (q - low) / max(high - low, _EPSILON)


@njit(cache=True, inline="always")
def _interior_choice(ints, floats, node, settings):
    """The child maximising ``softmax(logit + sigma(q)) - n / (1 + N)``: a proven win at once,
    a proven loss never if avoidable."""
    first, last = ints[node, I_FIRST], ints[node, I_FIRST] + ints[node, I_COUNT]
    mixed, low, high, most = _completion(ints, floats, node)
    scale = (settings.c_visit + most) * settings.c_scale
    top = -math.inf
    visits = 0
    for child in range(first, last):
        if ints[child, I_SOLVED] == WIN:
            return child
        top = max(top, _logit(floats, child) + _sigma(ints, floats, child, mixed, low, high, scale))
        visits += ints[child, I_VISITS]
    total = 0.0
    for child in range(first, last):
        total += math.exp(
            _logit(floats, child) + _sigma(ints, floats, child, mixed, low, high, scale) - top
        )
    best = -1
    best_score = -math.inf
    for child in range(first, last):
        if ints[child, I_SOLVED] == LOSS:
            continue
        logit = _logit(floats, child) + _sigma(ints, floats, child, mixed, low, high, scale)
        score = math.exp(logit - top) / total - ints[child, I_VISITS] / (1.0 + visits)
        if score > best_score:
            best_score = score
            best = child
    return first if best == -1 else best


@njit(cache=True, inline="always")
def _considered_choice(ints, floats, settings, level):
    """The root child with the best ``g + logit + sigma(q)`` among the open ones that gained
    ``level`` visits in this search (-1: none)."""
    first, count = ints[0, I_FIRST], ints[0, I_COUNT]
    mixed, low, high, most = _completion(ints, floats, 0)
    scale = (settings.c_visit + most) * settings.c_scale
    best = -1
    best_score = -math.inf
    for i in range(count):
        child = first + i
        if ints[child, I_SOLVED] == LOSS or ints[child, I_VISITS] - settings.start[i] != level:
            continue
        score = (
            settings.gumbel[i]
            + _logit(floats, child)
            + _sigma(ints, floats, child, mixed, low, high, scale)
        )
        if score > best_score:
            best_score = score
            best = child
    return best


@compiled_rule
def select_gumbel(ints, floats, node, settings):
    """Gumbel's selection: sequential halving at the root (while its plan lasts), the improved
    policy's deterministic choice below it (see the module docstring)."""
    plan = settings.plan
    if node == 0 and plan.shape[0] == 2 and settings.start.shape[0] >= ints[0, I_COUNT]:
        first, count = ints[0, I_FIRST], ints[0, I_COUNT]
        index = 0
        for i in range(count):
            child = first + i
            if ints[child, I_SOLVED] == WIN:
                return child
            index += ints[child, I_VISITS] - settings.start[i]
        if index < plan[1]:
            level = halving_level(index, plan[0], plan[1])
            child = _considered_choice(ints, floats, settings, level)
            if child >= 0:
                return child
    return _interior_choice(ints, floats, node, settings)


@compiled_rule
def choose_gumbel(ints, floats, settings):
    """The move to play: a proven win (the shortest), else the open considered move with the
    most visits in this search and the best ``g + logit + sigma(q)``."""
    first, count = ints[0, I_FIRST], ints[0, I_COUNT]
    if settings.start.shape[0] < count:  # not planned for this root
        return best_root_child(ints, floats)
    most = -1
    for i in range(count):
        child = first + i
        if ints[child, I_SOLVED] == WIN:
            return best_root_child(ints, floats)
        if ints[child, I_SOLVED] != LOSS:
            most = max(most, ints[child, I_VISITS] - settings.start[i])
    if most < 0:
        return best_root_child(ints, floats)  # every move loses: the slowest loss
    return _considered_choice(ints, floats, settings, most)


@compiled_rule
def improved_policy(ints, floats, settings, out):
    """``softmax(logit + sigma(q))`` over the root's children (``out[i]`` for the ``i``-th)."""
    first, count = ints[0, I_FIRST], ints[0, I_COUNT]
    mixed, low, high, most = _completion(ints, floats, 0)
    scale = (settings.c_visit + most) * settings.c_scale
    top = -math.inf
    for i in range(count):
        out[i] = _logit(floats, first + i) + _sigma(
            ints, floats, first + i, mixed, low, high, scale
        )
        top = max(top, out[i])
    total = 0.0
    for i in range(count):
        out[i] = math.exp(out[i] - top)
        total += out[i]
    for i in range(count):
        out[i] /= total


SELECTS["gumbel"] = Select(select_gumbel, frozenset({VALUE}), "mean", "gumbel", ("gumbel",))
MOVE_CHOICES["gumbel"] = MoveChoice(choose_gumbel, improved_policy, False, "gumbel")
ROOT_RULES["gumbel"] = RootRule(
    prepare=prepare,
    needs_simulations=True,
    batch_settings=batch_settings,
    for_slot=gumbel_for_slot,
    prepare_slots=prepare_slots,
    explores_itself=True,
)
