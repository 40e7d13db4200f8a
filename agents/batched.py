"""Many PUCT searches at once, one network call per step: the batched search of AlphaZero
self-play and evaluation.

:class:`BatchedSearch` keeps ``slots`` positions of one game, each with its own tree (the
trees are stacked arrays of :mod:`agents.tree`'s layout). A step of :meth:`BatchedSearch.run`
walks every unfinished search to its next leaf with the compiled loop
(:func:`agents.loop.run_simulations` with ``external=True``), writes each leaf's observation,
player to move and legal mask into batch arrays, calls the evaluator once on the whole batch,
and backs the answers up with :func:`agents.loop.resolve_leaf`; the tree work is compiled,
only the evaluator call is Python. :class:`agents.selfplay.BatchedSelfPlay` plays whole games
on it.

The evaluator is any callable ``evaluate(observations, players, masks) -> (priors, values)``
over a batch: ``observations`` int8 ``(n, rows, cols, 2)`` planes ``[player to move,
opponent]`` (what ``env.observe`` gives), ``players`` int64 ``(n,)`` (0 or 1, the player to
move), ``masks`` int8 ``(n, num_actions)``; it returns priors ``(n, num_actions)`` (any
non-negative weights; renormalised over the legal actions) and values ``(n,)`` in [-1, 1]
for the player to move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents import tree as search_tree
from agents.loop import SearchWorkspace, new_workspace, resolve_leaf, rollout_value, run_simulations
from agents.rules import (
    ASK_BOTH,
    PUCT_SELECTIONS,
    SearchPolicy,
    SearchSettings,
    caller_expands,
    sampled_child,
    sampling_total,
    search_rules,
)
from agents.search import check_seed
from connectn_env.games import BoardGame, GameState
from connectn_env.games.codes import ONGOING
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.rng import new_rng, xorshift_next
from connectn_env.games.validation import (
    require_bool,
    require_choice,
    require_int,
    require_number,
)

BatchEvaluator = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[Any, Any]]

_NO_DATA = np.zeros(0, dtype=np.int64)


def uniform_evaluator(
    observations: np.ndarray, players: np.ndarray, masks: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Uniform priors and value 0 for every position (a network-free evaluator for tests)."""
    return masks.astype(np.float64), np.zeros(len(masks))


# --- compiled pieces ----------------------------------------------------------------------


@njit(cache=True)
def _slot_workspace(work, game_workspace, g):
    """The loop's workspace (see :func:`agents.loop.new_workspace`) of slot ``g``."""
    states, actions, priors, paths, moves, players, stamps, leaves = work
    return SearchWorkspace(
        states[g],
        actions[g],
        priors[g],
        paths[g],
        moves[g],
        players[g],
        stamps[g],
        game_workspace,
        leaves[g],
    )


@njit(cache=True)
def _slot_policy(policy, for_slot, g):
    """The policy of slot ``g``'s search: the batch's rules with the slot's settings."""
    return SearchPolicy(
        policy.select, policy.expand, policy.evaluate, policy.backup, policy.proven_root,
        for_slot(policy.settings, g),
    )  # fmt: skip


@njit(cache=True)
def _targets(ints, floats, slots, settings, for_slot, target, out):
    """Each root's training target over the action space: the move choice's ``target``
    scattered to the children's actions."""
    for i in range(slots.shape[0]):
        g = slots[i]
        out[i, :] = 0.0
        first = ints[g, 0, search_tree.I_FIRST]
        count = ints[g, 0, search_tree.I_COUNT]
        if count == 0:
            continue
        shares = np.zeros(count)
        target(ints[g], floats[g], for_slot(settings, g), shares)
        for k in range(count):
            out[i, ints[g, first + k, search_tree.I_ACTION]] = shares[k]


@njit(cache=True)
def _collect_leaves(
    kernels,
    params,
    roots,
    trees,
    policy,
    for_slot,
    rngs,
    work,
    game_workspace,
    slots,
    done,
    target,
    observations,
    players_out,
    masks,
    pending,
):
    """Walk each slot's search to its next leaf; write the leaves into the batch arrays.

    A slot whose search is finished (``done >= target``) or whose root is proven is skipped
    (a proven root counts as finished). Returns the number of leaves written."""
    ints, floats, metas = trees
    n = 0
    for i in range(slots.shape[0]):
        g = slots[i]
        if done[g] >= target[g]:
            continue
        tree = (ints[g], floats[g], metas[g])
        workspace = _slot_workspace(work, game_workspace, g)
        slot_policy = _slot_policy(policy, for_slot, g)
        finished = run_simulations(
            kernels, params, roots[g], tree, slot_policy, rngs[g], workspace, _NO_DATA,
            target[g] - done[g],
        )  # fmt: skip
        done[g] += finished
        if done[g] >= target[g]:
            continue
        if workspace.leaf[2] != ASK_BOTH:  # the root is proven
            done[g] = target[g]
            continue
        workspace.leaf[2] = 0
        leaf = workspace.state
        player = kernels.player(params, leaf)
        kernels.observe(params, leaf, player, observations[n])
        legal = workspace.actions
        count = kernels.legal_actions(params, leaf, legal)
        masks[n, :] = 0
        for k in range(count):
            masks[n, legal[k]] = 1
        players_out[n] = player
        pending[n] = g
        n += 1
    return n


@njit(cache=True)
def _resolve_leaves(
    kernels, params, trees, policy, for_slot, rngs, work, game_workspace, pending, n, priors,
    values, done,
):  # fmt: skip
    """Back up the evaluator's answers for the ``n`` leaves of :func:`_collect_leaves`."""
    ints, floats, metas = trees
    for i in range(n):
        g = pending[i]
        tree = (ints[g], floats[g], metas[g])
        workspace = _slot_workspace(work, game_workspace, g)
        player = kernels.player(params, workspace.state)
        r0 = values[i] if player == 0 else -values[i]
        slot_policy = _slot_policy(policy, for_slot, g)
        resolve_leaf(kernels, params, tree, slot_policy, workspace, priors[i], r0, rngs[g])
        done[g] += 1


@njit(cache=True)
def _add_root_noise(ints, floats, slots, noise, fraction):
    """Mix ``noise[i, :count]`` (a Dirichlet draw per slot) into the priors of each root's
    children: ``(1 - fraction) * prior + fraction * noise``."""
    for i in range(slots.shape[0]):
        g = slots[i]
        first = ints[g, 0, search_tree.I_FIRST]
        for k in range(ints[g, 0, search_tree.I_COUNT]):
            prior = floats[g, first + k, search_tree.F_PRIOR]
            floats[g, first + k, search_tree.F_PRIOR] = (1.0 - fraction) * prior + fraction * noise[
                i, k
            ]


@njit(cache=True)
def _uniform01(rng):
    """A float in [0, 1) from the xorshift state."""
    return (xorshift_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _choose_actions(
    ints, floats, slots, settings, for_slot, choose, samples, temperatures, rngs, out
):
    """The move each root plays: the move choice's ``choose`` at temperature 0 (or at any
    temperature where it does not ``samples``), else one drawn from the visit counts
    (:func:`agents.rules.sampling_total`, with the slot's generator)."""
    for i in range(slots.shape[0]):
        g = slots[i]
        temperature = temperatures[i]
        total = 0.0
        if samples and temperature > 0.0:
            total = sampling_total(ints[g], floats[g], temperature)
        if total > 0.0:
            draw = _uniform01(rngs[g]) * total
            chosen = sampled_child(ints[g], floats[g], temperature, draw)
        else:
            chosen = choose(ints[g], floats[g], for_slot(settings, g))
        out[i] = ints[g, chosen, search_tree.I_ACTION]


@njit(cache=True)
def _advance(kernels, params, roots, trees, spare, g, action, reuse, room):
    """Play ``action`` at slot ``g``'s root; keep the subtree below it when ``reuse`` and at
    least ``room`` free nodes remain after it, else start a fresh tree."""
    ints, floats, metas = trees
    spare_ints, spare_floats, spare_meta = spare
    kernels.apply(params, roots[g], action)
    child = -1
    first = ints[g, 0, search_tree.I_FIRST]
    for c in range(first, first + ints[g, 0, search_tree.I_COUNT]):
        if ints[g, c, search_tree.I_ACTION] == action:
            child = c
            break
    player = kernels.player(params, roots[g])
    if reuse and child >= 0 and ints[g, child, search_tree.I_COUNT] > 0:
        size = search_tree.compact_subtree(
            ints[g], floats[g], child, spare_ints, spare_floats, spare_meta
        )
        if size + room <= ints.shape[1]:
            ints[g, :size] = spare_ints[:size]
            floats[g, :size] = spare_floats[:size]
            metas[g, search_tree.M_NODES] = size
            metas[g, search_tree.M_FULL] = 0
            ints[g, 0, search_tree.I_PLAYER] = player
            return
    search_tree.tree_reset(ints[g], floats[g], metas[g], player)


@njit(cache=True)
def _outcome_of(kernels, params, roots, g):
    return kernels.outcome(params, roots[g])


# --- the batched search -------------------------------------------------------------------


def _check_evaluation(output: Any, count: int, num_actions: int) -> tuple[np.ndarray, np.ndarray]:
    """``(priors float64 (count, A), values float64 (count,))`` from an evaluator's answer."""
    if not isinstance(output, tuple | list) or len(output) != 2:
        raise TypeError(f"the evaluator must return (priors, values), got {type(output).__name__}")
    priors = np.ascontiguousarray(np.asarray(output[0], dtype=np.float64))
    values = np.ascontiguousarray(np.asarray(output[1], dtype=np.float64).reshape(-1))
    if priors.shape != (count, num_actions) or values.shape != (count,):
        raise ValueError(
            f"the evaluator must return priors of shape ({count}, {num_actions}) and values of "
            f"shape ({count},), got {priors.shape} and {values.shape}"
        )
    if not (np.all(np.isfinite(priors)) and np.all(priors >= 0)):
        raise ValueError("the evaluator's priors must be finite and >= 0")
    if not np.all(np.abs(values) <= 1.0 + 1e-6):
        raise ValueError(f"the evaluator's values must be in [-1, 1], got {values}")
    return priors, np.clip(values, -1.0, 1.0)


def search_policy(c_puct: float, selection: str = "puct") -> SearchPolicy:
    """The compiled loop's policy of an AlphaZero search: PUCT (or another selection rule of
    :data:`agents.rules.PUCT_SELECTIONS`), each new node expanded and evaluated by the caller
    (the batch's evaluator)."""
    rule = search_rules(require_choice("selection", selection, PUCT_SELECTIONS))
    settings = SearchSettings(exploration=c_puct)
    return SearchPolicy(
        rule.select, caller_expands, rollout_value, rule.backup, rule.root.proven, settings
    )


class BatchedSearch:
    """``slots`` PUCT searches of one game, run together: one evaluator call per step serves the
    next leaf of every search.

    Each slot holds a root position and its tree; :meth:`run` adds ``simulations`` simulations
    to the trees of the given slots, :meth:`play` moves a root on (keeping the subtree below the
    move), :meth:`policies` and :meth:`choose` read the searches' answers.

    Args:
        game: The game (a :class:`~connectn_env.games.BoardGame` of the suite).
        slots: Number of positions searched together (the evaluator's largest batch).
        simulations: Simulations per search (sizes the trees; :meth:`run` may ask for fewer).
        c_puct: PUCT's exploration constant in ``Q + c P sqrt(N) / (1 + n)``.
        selection: ``"puct"`` or ``"gumbel"`` (Gumbel AlphaZero: sequential halving at each
            root; :meth:`policies` gives the improved policy and :meth:`choose` the move the
            halving picked, whatever the temperature: see :mod:`agents.gumbel`).
        reuse_tree: Keep the subtree of the move played (:meth:`play`).
        seed: None, an int or a ``np.random.Generator`` (tie-breaking, move sampling, noise).
    """

    def __init__(
        self,
        game: BoardGame,
        slots: int,
        *,
        simulations: int,
        c_puct: float = 1.5,
        selection: str = "puct",
        reuse_tree: bool = True,
        seed: Any = None,
    ) -> None:
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
        self.game = game
        self.slots = require_int("slots", slots, 1)
        self.simulations = require_int("simulations", simulations, 1)
        self.c_puct = require_number("c_puct", c_puct, 0.0)
        self.reuse_tree = require_bool("reuse_tree", reuse_tree)
        self.generator = check_seed(seed)
        self.policy = search_policy(self.c_puct, selection)
        self.selection = selection
        self.rule = search_rules(selection)
        actions = game.num_actions
        if self.rule.root.batch_settings is not None:
            settings = self.rule.root.batch_settings(
                self.policy.settings, self.slots, actions, self.simulations
            )
            self.policy = self.policy._replace(settings=settings)
        # a search expands at most one node per simulation plus the root, each with at most
        # num_actions children; the trees hold two searches' worth, so half can be reused
        self._room = (self.simulations + 1) * actions + 1
        max_nodes = 2 * self._room
        self.roots = np.tile(game.representation.initial, (self.slots, 1))
        self.trees = (
            np.zeros((self.slots, max_nodes, search_tree.NUM_INT_FIELDS), dtype=np.int32),
            np.zeros((self.slots, max_nodes, search_tree.NUM_FLOAT_FIELDS), dtype=np.float64),
            np.zeros((self.slots, search_tree.NUM_META), dtype=np.int64),
        )
        self._spare = search_tree.new_tree(max_nodes)
        one = new_workspace(game.kernels, game.params, self.roots[0], actions, game.max_moves)
        self._game_workspace = one.game
        per_slot = (one.state, one.actions, one.priors, one.path, one.moves, one.players, one.stamp)
        stacked = (np.zeros((self.slots, *array.shape), dtype=array.dtype) for array in per_slot)
        self._work = (*stacked, np.zeros((self.slots, 3), dtype=np.int64))
        self._rngs = np.stack([new_rng(self.generator) for _ in range(self.slots)])
        self._done = np.zeros(self.slots, dtype=np.int64)
        self._target = np.zeros(self.slots, dtype=np.int64)
        rows, cols = game.rows, game.cols
        self._observations = np.zeros((self.slots, rows * cols * 2), dtype=np.int8)
        self._players = np.zeros(self.slots, dtype=np.int64)
        self._masks = np.zeros((self.slots, actions), dtype=np.int8)
        self._pending = np.zeros(self.slots, dtype=np.int64)
        self.evaluations = 0  # evaluator calls so far
        self.leaves = 0  # positions evaluated so far
        for slot in range(self.slots):
            self.reset(slot)

    # --- positions ---------------------------------------------------------------------

    def reset(self, slot: int, state: GameState | None = None) -> None:
        """Put ``state`` (default: the starting position) at ``slot``'s root, with a new tree."""
        slot = self._slot(slot)
        if state is None:
            self.roots[slot] = self.game.representation.initial
        else:
            if state.game != self.game:
                raise ValueError(f"the state is a position of {state.game!r}, not {self.game!r}")
            self.roots[slot] = state.data
        player = self.game.kernels.player(self.game.params, self.roots[slot])
        ints, floats, metas = self.trees
        search_tree.tree_reset(ints[slot], floats[slot], metas[slot], player)

    def state(self, slot: int) -> GameState:
        """A copy of ``slot``'s root position."""
        return GameState(self.game, self.roots[self._slot(slot)].copy())

    def is_over(self, slot: int) -> bool:
        """True if the game at ``slot`` is finished."""
        slot = self._slot(slot)
        return _outcome_of(self.game.kernels, self.game.params, self.roots, slot) != ONGOING

    def play(self, slot: int, action: int) -> None:
        """Play ``action`` at ``slot``'s root (keeping its subtree if ``reuse_tree``).

        Raises:
            ValueError: the action is illegal there (nothing changes).
        """
        slot = self._slot(slot)
        game = self.game
        if not 0 <= action < game.num_actions or game.kernels.check(
            game.params, self.roots[slot], action
        ):
            raise ValueError(f"action {action} is illegal at slot {slot}: {self.state(slot)!r}")
        _advance(
            game.kernels,
            game.params,
            self.roots,
            self.trees,
            self._spare,
            slot,
            action,
            self.reuse_tree,
            self._room,
        )

    # --- search --------------------------------------------------------------------------

    def run(
        self,
        slots: Any,
        evaluate: BatchEvaluator,
        *,
        simulations: Any = None,
        noise: tuple[float, float] | None = None,
    ) -> None:
        """Add ``simulations`` (default: the constructor's) simulations to each slot's tree:
        one number, or one per slot (playout cap randomization: full and fast searches in the
        same batches).

        Unexpanded roots are expanded first (one evaluation, not counted as a simulation, as in
        AlphaZero); with ``noise = (alpha, fraction)`` the roots' priors then get Dirichlet
        noise. Finished games and proven roots are skipped.

        Raises:
            TypeError, ValueError: a budget out of ``[1, simulations]`` or not one per slot
                (nothing changes); the evaluator answered in the wrong form (the trees keep
                the simulations finished before the failed step).
        """
        slots = np.asarray(np.atleast_1d(slots), dtype=np.int64)
        budgets = self._budgets(simulations, len(slots))
        playing = np.array([not self.is_over(s) for s in slots], dtype=bool)
        slots, budgets = slots[playing], budgets[playing]
        if slots.size == 0:
            return
        ints = self.trees[0]
        unexpanded = slots[ints[slots, 0, search_tree.I_COUNT] == 0]
        if unexpanded.size:
            self._done[unexpanded] = 0
            self._target[unexpanded] = 1
            self._search(unexpanded, evaluate)
        if noise is not None:
            alpha, fraction = noise
            alpha = require_number("noise alpha", alpha, 0.0, strict_low=True)
            self._add_noise(slots, alpha, require_number("noise fraction", fraction, 0.0))
        if self.rule.root.prepare_slots is not None:
            settings = self.rule.root.prepare_slots(
                self.trees, self.policy.settings, self.generator, budgets, slots
            )
            self.policy = self.policy._replace(settings=settings)
        self._done[slots] = 0
        self._target[slots] = budgets
        self._search(slots, evaluate)

    def _budgets(self, simulations: Any, count: int) -> np.ndarray:
        """int64 ``(count,)``: the simulations of each slot of a :meth:`run`."""
        if simulations is None:
            return np.full(count, self.simulations, dtype=np.int64)
        if np.ndim(simulations) == 0:
            budget = require_int("simulations", simulations, 1, self.simulations)
            return np.full(count, budget, dtype=np.int64)
        top = self.simulations
        budgets = [require_int("simulations", budget, 1, top) for budget in simulations]
        if len(budgets) != count:
            raise ValueError(f"simulations: {len(budgets)} budgets for {count} slots")
        return np.asarray(budgets, dtype=np.int64)

    def _search(self, slots: np.ndarray, evaluate: BatchEvaluator) -> None:
        game = self.game
        rows, cols, actions = game.rows, game.cols, game.num_actions
        while True:
            n = _collect_leaves(
                game.kernels,
                game.params,
                self.roots,
                self.trees,
                self.policy,
                self.rule.root.for_slot,
                self._rngs,
                self._work,
                self._game_workspace,
                slots,
                self._done,
                self._target,
                self._observations,
                self._players,
                self._masks,
                self._pending,
            )
            if n == 0:
                return
            observations = self._observations[:n].reshape(n, rows, cols, 2)
            output = evaluate(observations, self._players[:n], self._masks[:n])
            priors, values = _check_evaluation(output, n, actions)
            self.evaluations += 1
            self.leaves += n
            _resolve_leaves(
                game.kernels,
                game.params,
                self.trees,
                self.policy,
                self.rule.root.for_slot,
                self._rngs,
                self._work,
                self._game_workspace,
                self._pending,
                n,
                priors,
                values,
                self._done,
            )

    def _add_noise(self, slots: np.ndarray, alpha: float, fraction: float) -> None:
        ints, floats, _ = self.trees
        counts = ints[slots, 0, search_tree.I_COUNT]
        width = int(counts.max(initial=0))
        if width == 0 or fraction <= 0:
            return
        noise = self.generator.gamma(alpha, size=(len(slots), width))
        noise[np.arange(width)[None, :] >= counts[:, None]] = 0.0
        totals = noise.sum(axis=1, keepdims=True)
        noise = np.divide(noise, totals, out=np.zeros_like(noise), where=totals > 0)
        _add_root_noise(ints, floats, slots, noise, float(fraction))

    # --- answers -------------------------------------------------------------------------

    def policies(self, slots: Any) -> np.ndarray:
        """float32 ``(len(slots), num_actions)``: each root's training target, the move
        choice's (:class:`agents.rules.MoveChoice`, the same as :class:`~agents.PUCTAgent`'s
        ``SearchResult.pi``): the visit shares of the moves not proven lost (a proven win
        gets everything); with ``selection="gumbel"``, the improved policy."""
        slots = np.asarray(np.atleast_1d(slots), dtype=np.int64)
        out = np.zeros((len(slots), self.game.num_actions), dtype=np.float64)
        _targets(
            self.trees[0], self.trees[1], slots, self.policy.settings, self.rule.root.for_slot,
            self.rule.choice.target, out,
        )  # fmt: skip
        return out.astype(np.float32)

    def choose(self, slots: Any, temperature: Any = 0.0) -> np.ndarray:
        """The action each root plays, as :class:`~agents.PUCTAgent` plays: temperature 0 the
        move choice's (PUCT: :func:`agents.tree.resisting_root_child`), else drawn in
        proportion to ``visits ** (1 / temperature)`` among the moves not proven lost (a
        proven win or draw is played as at 0); ``temperature`` is one number or one per
        slot. With ``selection="gumbel"`` the move sequential halving picked (its Gumbel
        variables are the sampling), whatever the temperature."""
        slots = np.asarray(np.atleast_1d(slots), dtype=np.int64)
        temperatures = np.broadcast_to(np.asarray(temperature, dtype=np.float64), slots.shape)
        out = np.zeros(len(slots), dtype=np.int64)
        choice = self.rule.choice
        _choose_actions(
            self.trees[0], self.trees[1], slots, self.policy.settings, self.rule.root.for_slot,
            choice.choose, choice.samples, np.ascontiguousarray(temperatures), self._rngs, out,
        )  # fmt: skip
        return out

    def root_value(self, slot: int) -> float:
        """Mean value of ``slot``'s root for the player to move."""
        ints, floats, _ = self.trees
        slot = self._slot(slot)
        visits = max(int(ints[slot, 0, search_tree.I_VISITS]), 1)
        return float(-floats[slot, 0, search_tree.F_VALUE] / visits)

    def tree_nodes(self, slot: int) -> int:
        """Nodes in use in ``slot``'s tree."""
        return int(self.trees[2][self._slot(slot), search_tree.M_NODES])

    def _slot(self, slot: Any) -> int:
        return require_int("slot", slot, 0, self.slots - 1)
