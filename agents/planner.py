"""MCTS for single-agent planning: the search tree and formulas of :mod:`agents.tree` on any
deterministic Gymnasium env whose state can be saved (see :mod:`agents.envstate`),
maximising the return.

Every node is "player 0's": a simulation's return (discounted rewards from the root to the
end of the episode, of the simulation's depth limit or of its roll-out, plus ``evaluate`` of
the last state if the episode goes on) is normalised to [-1, 1] and backed up along the path
with :func:`agents.tree.backup`; children are chosen by UCT (:func:`agents.rules.select_uct`).
A leaf is expanded on its first visit. The normalisation uses a fixed ``value_range`` or,
by default, the lowest and highest returns seen so far (the tree's sums are rescaled exactly
when they widen, as MuZero's min-max statistics do at selection time).

Revisits are pruned (``prune_revisits``): the search keeps, for every observation reached
since the root, the best return from the root it was reached with (and in fewest steps). A
node that reaches an observation no better than that (a loop back to an earlier state of its
path, or a detour to a state another branch reaches more cheaply) cannot lead to a better
episode than the other node, so it is marked dead (:data:`agents.tree.LOSS`, which selection
skips); the same happens to a node beaten later by a better path, and to a node whose
children are all dead (a dead end). The tree then grows like a graph search over states
instead of over paths. This assumes that an observation identifies the state (a time limit
aside): turn it off for envs where it does not.

In a deterministic env the best complete episode found by any simulation is a plan that
certainly achieves its return: the planner keeps it. :meth:`MCTSPlanner.search` reports it
and plays its first action (the most visited one when no simulation has finished an episode
yet). :meth:`MCTSPlanner.plan` searches until a simulation finishes an episode, then follows
the best episode found, searching again after each step (reusing the subtree) and switching to
any better one found, so the plan's return is at least that of every episode a simulation
finished.

The planner keeps its own walk rather than the compiled loop of :mod:`agents.loop`: every
edge of a simulation is a Gymnasium ``env.step`` in Python (its reward is discounted into the
return, its observation checked for revisits), not only the leaf, so the loop would stop and
hand back to Python at every tree level. It shares the tree, the UCT rule
(:func:`agents.rules.select_uct`) and the plain backup of the loop's UCT policy.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import tree as search_tree
from agents.envstate import EnvSimulator, observation_key
from agents.rules import SearchSettings, select_uct
from agents.search import check_seed, run_budget
from agents.treepool import tree_pair
from connectn_env.games.lib.rng import new_rng
from connectn_env.games.validation import require_bool, require_int, require_number

DEFAULT_SIMULATIONS = 200
DEFAULT_MAX_DEPTH = 200
DEFAULT_MAX_NODES = 200_000
DEFAULT_MAX_SEARCHES = 100
MAX_EVALUATION = 1e300  # beyond this, the return scale's arithmetic could overflow

Evaluate = Callable[[Any], float]


@dataclass(frozen=True)
class PlanSearchResult:
    """One search from an env's state.

    Attributes:
        action: The action chosen: the first of ``best_actions`` if a simulation finished an
            episode, else the most visited.
        visits: Visits per action (int64, the size of the Discrete action space).
        values: Mean simulated return per action (0 where unvisited), in return units.
        best_actions: The actions of the best complete episode found from here (() if no
            simulation reached the end of an episode).
        best_return: Its return from here (None if there is none).
        simulations: Simulations run by this search.
        elapsed: Seconds spent.
        tree_nodes: Nodes in the tree at the end.
    """

    action: int
    visits: np.ndarray
    values: np.ndarray
    best_actions: tuple[int, ...]
    best_return: float | None
    simulations: int
    elapsed: float
    tree_nodes: int


@dataclass(frozen=True)
class Plan:
    """A whole episode planned from an env's state (the env itself is not stepped).

    Attributes:
        actions: The actions, in order.
        total_return: Their discounted return (the env is deterministic: playing ``actions``
            on the env gives it).
        terminated: The episode ends with a terminal state (the goal reached, ...).
        truncated: The episode was cut by the env (a time limit).
        searches: Searches run (one per step taken).
        simulations: Simulations over all searches.
        elapsed: Seconds spent.
    """

    actions: tuple[int, ...]
    total_return: float
    terminated: bool
    truncated: bool
    searches: int
    simulations: int
    elapsed: float


class _ReturnScale:
    """Maps returns to [-1, 1]: a fixed range, or the range seen so far (rescaling the tree's
    value sums exactly when it widens)."""

    def __init__(self, value_range: tuple[float, float] | None) -> None:
        self.fixed = value_range is not None
        self.fixed_range = value_range
        self.low, self.high = value_range if value_range is not None else (math.nan, math.nan)

    def normalise(self, value: float, tree: tuple[np.ndarray, np.ndarray, np.ndarray]) -> float:
        if not self.fixed:
            if math.isnan(self.low):
                self.low = self.high = value
            elif value < self.low or value > self.high:
                self._rescale(tree, min(self.low, value), max(self.high, value))
        if self.high == self.low:
            return 0.0
        return min(1.0, max(-1.0, 2.0 * (value - self.low) / (self.high - self.low) - 1.0))

    def to_return(self, normalised: np.ndarray) -> np.ndarray:
        if math.isnan(self.low):
            return np.zeros_like(normalised)
        return self.low + (normalised + 1.0) * (self.high - self.low) / 2.0

    def advance(self, reward: float, discount: float, tree: tuple[np.ndarray, ...]) -> None:
        """The root moved one step (``reward`` received): the kept subtree's returns, counted
        from the old root, are ``reward + discount * G`` of the new root's ``G``. Moving the
        range keeps their normalised values exact; a fixed range is then restored by
        rescaling the tree."""
        if math.isnan(self.low):
            return
        self.low, self.high = (self.low - reward) / discount, (self.high - reward) / discount
        if self.fixed:
            low, high = self.fixed_range
            self._rescale(tree, low, high)

    def _rescale(self, tree: tuple[np.ndarray, ...], low: float, high: float) -> None:
        """Re-express every stored normalised value for the new range ``[low, high]``:
        ``v' = a v + b``, so a sum over ``n`` visits becomes ``a S + b n``."""
        ints, floats, meta = tree
        a = (self.high - self.low) / (high - low)
        b = a + 2.0 * (self.low - low) / (high - low) - 1.0
        used = int(meta[search_tree.M_NODES])
        visits = ints[:used, search_tree.I_VISITS].astype(np.float64)
        sign = np.ones(used)
        sign[0] = -1.0  # the root's sums are stored for its "opponent" (tree.mover_of)
        floats[:used, search_tree.F_VALUE] = (
            a * floats[:used, search_tree.F_VALUE] + sign * b * visits
        )
        visited = visits > 0
        floats[:used, search_tree.F_MEAN] = np.where(
            visited,
            a * floats[:used, search_tree.F_MEAN] + sign * b,
            floats[:used, search_tree.F_MEAN],
        )
        self.low, self.high = low, high


class MCTSPlanner:
    """Monte Carlo tree search that maximises the return of a deterministic single-agent env.

    The env needs a Discrete action space and a state that can be saved: the clone/restore
    interface ``env.unwrapped.clone_state()`` / ``restore_state(state)``, or else copies of the
    env (see :mod:`agents.envstate`). The env is never left changed.

    Args:
        simulations: Simulations per search (int >= 1).
        time_limit: Seconds per search (> 0). With both budgets the first one spent stops the
            search; with neither, ``simulations=200``.
        exploration: UCT constant on returns normalised to [-1, 1] (>= 0).
        max_depth: Steps a simulation may take from the root (tree and roll-out), int >= 1.
        rollout_depth: Random steps after the tree (int >= 0; None: until the episode ends
            or ``max_depth``).
        evaluate: Optional ``evaluate(env) -> float``: an estimate of the return still to come
            from the env's state, added at the end of a simulation that did not end the
            episode (a heuristic such as ``GridPathEnv.heuristic_value``). It gets the
            simulation's env (the unwrapped env with the clone interface, else a copy).
            It must return a real number within +-``MAX_EVALUATION`` (1e300).
        value_range: ``(low, high)`` returns that map to -1 and 1 (clipped beyond); None:
            the range seen so far.
        discount: Discount of later rewards, in (0, 1].
        max_nodes: Tree size bound (a leaf is no longer expanded once it is reached).
        prune_revisits: Mark nodes that reach an observation no better than another node of
            the search as dead (module docstring).
        seed: None, an int or a ``np.random.Generator`` (roll-outs, tie-breaking).
    """

    def __init__(
        self,
        *,
        simulations: int | None = None,
        time_limit: float | None = None,
        exploration: float = 1.0,
        max_depth: int = DEFAULT_MAX_DEPTH,
        rollout_depth: int | None = None,
        evaluate: Evaluate | None = None,
        value_range: tuple[float, float] | None = None,
        discount: float = 1.0,
        max_nodes: int = DEFAULT_MAX_NODES,
        prune_revisits: bool = True,
        seed: Any = None,
    ) -> None:
        if simulations is None and time_limit is None:
            simulations = DEFAULT_SIMULATIONS
        self.simulations = (
            None if simulations is None else require_int("simulations", simulations, 1)
        )
        self.time_limit = (
            None
            if time_limit is None
            else require_number("time_limit", time_limit, 0.0, strict_low=True)
        )
        self.exploration = require_number("exploration", exploration, 0.0)
        self.max_depth = require_int("max_depth", max_depth, 1)
        self.rollout_depth = (
            None if rollout_depth is None else require_int("rollout_depth", rollout_depth, 0)
        )
        if evaluate is not None and not callable(evaluate):
            raise TypeError(
                f"evaluate must be callable as evaluate(env) -> float, got {evaluate!r}"
            )
        self.evaluate = evaluate
        if value_range is not None:
            if not isinstance(value_range, tuple | list) or len(value_range) != 2:
                raise TypeError(f"value_range must be a (low, high) pair, got {value_range!r}")
            low = require_number("value_range low", value_range[0])
            high = require_number("value_range high", value_range[1])
            if not low < high:
                raise ValueError(f"value_range must have low < high, got {value_range!r}")
            value_range = (low, high)
        self.value_range = value_range
        self.discount = require_number("discount", discount, 0.0, strict_low=True)
        if self.discount > 1.0:
            raise ValueError(f"discount must be at most 1, got {discount}")
        self.max_nodes = require_int("max_nodes", max_nodes, 2)
        self.prune_revisits = require_bool("prune_revisits", prune_revisits)
        self._generator = check_seed(seed)
        self._trees: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    # --- public API --------------------------------------------------------------------

    def act(self, env: Any) -> int:
        """The action to take in the env's current state."""
        return self.search(env).action

    def search(self, env: Any) -> PlanSearchResult:
        """One search from the env's current state (the env is left as it was).

        Raises:
            TypeError: not a Gymnasium env with a Discrete action space, or its state cannot
                be saved; ``evaluate`` returned something other than a real number.
            ValueError: ``evaluate`` returned NaN, an infinity or a number beyond
                ``MAX_EVALUATION``.
        """
        with EnvSimulator(env) as simulator:
            run = _Run(self, simulator)
            run.search()
            return run.result()

    def plan(self, env: Any, max_searches: int = DEFAULT_MAX_SEARCHES) -> Plan:
        """Plan a whole episode from the env's current state, on a private simulation (the
        env is left as it was; play ``plan.actions`` on it to follow the plan).

        First the planner searches from the current state until a simulation finishes an
        episode (at most ``max_searches`` searches, the tree growing all along). Then it follows
        the best episode found, one step at a time, searching again after each step (reusing
        the subtree) and switching to any better episode found from there. The plan's return
        is at least that of every episode any simulation finished.

        Returns:
            The plan; ``actions`` is empty if no simulation finished an episode.

        Raises:
            TypeError: as :meth:`search`; ``max_searches`` is not an int.
            ValueError: as :meth:`search`; ``max_searches`` < 1.
        """
        max_searches = require_int("max_searches", max_searches, 1)
        start = time.perf_counter()
        with EnvSimulator(env) as simulator:
            run = _Run(self, simulator)
            searches = simulations = 0
            while run.best is None and searches < max_searches:
                simulations += run.search()
                searches += 1
            taken: list[int] = []
            total, factor = 0.0, 1.0
            terminated = truncated = False
            incumbent = run.best  # (return from the start, actions)
            while incumbent is not None and len(taken) < len(incumbent[1]):
                action = incumbent[1][len(taken)]
                reward, terminated, truncated = run.advance(action)
                taken.append(action)
                total += factor * reward
                factor *= self.discount
                if terminated or truncated:
                    break
                simulations += run.search()
                searches += 1
                if run.best is not None and total + factor * run.best[0] > incumbent[0]:
                    incumbent = (total + factor * run.best[0], (*taken, *run.best[1]))
            return Plan(
                actions=tuple(taken),
                total_return=total,
                terminated=terminated,
                truncated=truncated,
                searches=searches,
                simulations=simulations,
                elapsed=time.perf_counter() - start,
            )

    def __repr__(self) -> str:
        return (
            f"MCTSPlanner(simulations={self.simulations}, time_limit={self.time_limit}, "
            f"exploration={self.exploration}, max_depth={self.max_depth}, "
            f"rollout_depth={self.rollout_depth})"
        )

    def _tree_buffers(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        if not self._trees:
            self._trees = tree_pair(self, self.max_nodes)
        return self._trees


def _evaluation(value: Any) -> float:
    """``value`` (returned by ``evaluate``) as a float, if it is a real number within
    +-``MAX_EVALUATION``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"evaluate must return a real number, got {value!r} of type {type(value).__name__}"
        )
    value = float(value)
    if not abs(value) <= MAX_EVALUATION:  # NaN too
        raise ValueError(
            f"evaluate must return a finite number from -{MAX_EVALUATION:g} to "
            f"{MAX_EVALUATION:g}, got {value!r}"
        )
    return value


class _Run:
    """The state of one :meth:`MCTSPlanner.search` or :meth:`MCTSPlanner.plan` call: the tree,
    the root's saved state, the return scale and the best complete episode found."""

    def __init__(self, planner: MCTSPlanner, simulator: EnvSimulator) -> None:
        self.planner = planner
        self.simulator = simulator
        self.trees = planner._tree_buffers()
        self.scale = _ReturnScale(planner.value_range)
        self.rng = new_rng(planner._generator)
        self.root = simulator.save()
        self.best: tuple[float, tuple[int, ...]] | None = None
        # observation key -> (return from the root, steps, node) of its best node so far, and
        # node -> (observation key, return from the root, steps) of every node stepped into
        self.reached: dict[Any, tuple[float, int, int]] = {}
        self.node_info: dict[int, tuple[Any, float, int]] = {}
        self.simulations = 0
        self.elapsed = 0.0
        self.settings = SearchSettings(exploration=planner.exploration)  # select_uct's
        search_tree.tree_reset(*self.trees[0], 0)

    @property
    def tree(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.trees[0]

    def search(self) -> int:
        """Run the planner's budget of simulations from the root; returns how many ran."""
        planner = self.planner
        start = time.perf_counter()
        done, _ = run_budget(self._simulations, planner.simulations, planner.time_limit)
        self.simulations, self.elapsed = done, time.perf_counter() - start
        return done

    def _simulations(self, count: int) -> int:
        planner = self.planner
        ints, floats, meta = self.tree
        simulator = self.simulator
        for _ in range(count):
            simulator.load(self.root)
            node, total, factor, depth = 0, 0.0, 1.0, 0
            actions: list[int] = []
            ended = False
            while depth < planner.max_depth:
                if ints[node, search_tree.I_COUNT] == 0:
                    legal = simulator.legal_actions()
                    priors = np.full(len(legal), 1.0 / max(len(legal), 1))
                    search_tree.shuffle_together(legal, priors, len(legal), self.rng)
                    expanded = search_tree.expand(
                        ints, floats, meta, node, 0, legal, priors, len(legal)
                    )
                    if node != 0 or not expanded or len(legal) == 0:
                        break
                node = select_uct(ints, floats, node, self.settings)
                action = int(ints[node, search_tree.I_ACTION])
                observation, reward, terminated, truncated = simulator.step(action)
                actions.append(action)
                total += factor * reward
                factor *= planner.discount
                depth += 1
                if terminated or truncated:
                    ended = True
                    break
                if planner.prune_revisits and not self._best_reach(observation, total, depth, node):
                    break
            if not ended and ints[node, search_tree.I_SOLVED] != search_tree.LOSS:
                total, factor, ended = self._rollout(actions, total, factor, depth)
            if ended:
                if self.best is None or total > self.best[0]:
                    self.best = (total, tuple(actions))
            elif planner.evaluate is not None:
                total += factor * _evaluation(planner.evaluate(simulator.env))
            search_tree.backup(ints, floats, node, self.scale.normalise(total, self.tree))
        return count

    def _best_reach(self, observation: Any, total: float, depth: int, node: int) -> bool:
        """Record that ``node`` reaches ``observation`` with return ``total`` in ``depth``
        steps; False (and ``node`` marked dead) if another node reaches it at least as well."""
        key = observation_key(observation)
        self.node_info[node] = (key, total, depth)
        entry = self.reached.get(key)
        if entry is None or entry[2] == node:
            self.reached[key] = (total, depth, node)
            return True
        best_total, best_depth, best_node = entry
        tolerance = 1e-9 * max(1.0, abs(total))
        better = total > best_total + tolerance or (
            total >= best_total - tolerance and depth < best_depth
        )
        ints = self.tree[0]
        if not better:
            _mark_dead(ints, node)
            return False
        if best_node > 0 and not _is_ancestor(ints, best_node, node):
            _mark_dead(ints, best_node)
        self.reached[key] = (total, depth, node)
        return True

    def _rollout(
        self, actions: list[int], total: float, factor: float, depth: int
    ) -> tuple[float, float, bool]:
        """Random actions from the simulation's leaf; returns (total, factor, episode ended)."""
        planner = self.planner
        steps = planner.max_depth - depth
        if planner.rollout_depth is not None:
            steps = min(steps, planner.rollout_depth)
        generator = planner._generator
        for _ in range(steps):
            legal = self.simulator.legal_actions()
            if len(legal) == 0:
                break
            action = int(legal[int(generator.random() * len(legal))])
            _, reward, terminated, truncated = self.simulator.step(action)
            actions.append(action)
            total += factor * reward
            factor *= planner.discount
            if terminated or truncated:
                return total, factor, True
        return total, factor, False

    def most_visited(self) -> int:
        ints, floats, _ = self.tree
        return int(ints[search_tree.best_root_child(ints, floats), search_tree.I_ACTION])

    def advance(self, action: int) -> tuple[float, bool, bool]:
        """Take ``action`` from the root: it becomes the new root (its subtree is kept)."""
        self.simulator.load(self.root)
        observation, reward, terminated, truncated = self.simulator.step(action)
        self.root = self.simulator.save()
        self.best = None  # episodes found were counted from the old root
        ints, floats, _ = self.tree
        first, count = ints[0, search_tree.I_FIRST], ints[0, search_tree.I_COUNT]
        child = next(
            (c for c in range(first, first + count) if ints[c, search_tree.I_ACTION] == action), -1
        )
        discount = self.planner.discount
        if child < 0:
            search_tree.tree_reset(*self.tree, 0)
            kept: dict[int, tuple[Any, float, int]] = {}
        else:
            old_ids = _subtree_order(ints, child)
            kept = {
                new: (info[0], (info[1] - reward) / discount, info[2] - 1)
                for new, old in enumerate(old_ids)
                if (info := self.node_info.get(old)) is not None
            }
            spare = self.trees[1]
            search_tree.compact_subtree(ints, floats, child, *spare)
            self.trees.reverse()
            floats = self.tree[1]
            # now stored as a root's value (tree.mover_of)
            floats[0, search_tree.F_VALUE] = -floats[0, search_tree.F_VALUE]
            floats[0, search_tree.F_MEAN] = -floats[0, search_tree.F_MEAN]
            self.scale.advance(reward, discount, self.tree)
        if self.planner.prune_revisits:
            kept[0] = (observation_key(observation), 0.0, 0)
        self._rebuild_pruning(kept)
        return reward, terminated, truncated

    def _rebuild_pruning(self, node_info: dict[int, tuple[Any, float, int]]) -> None:
        """After the root moved: forget the dead marks (some were relative to branches that
        are gone) and mark again, best node per observation first."""
        ints, _, meta = self.tree
        ints[: int(meta[search_tree.M_NODES]), search_tree.I_SOLVED] = search_tree.UNSOLVED
        self.node_info = node_info
        self.reached = {}
        for node, (key, total, depth) in sorted(
            node_info.items(), key=lambda item: (-item[1][1], item[1][2], item[0])
        ):
            best = self.reached.get(key)
            if best is None:
                self.reached[key] = (total, depth, node)
            elif node > 0 and not _is_ancestor(ints, best[2], node):
                _mark_dead(ints, node)

    def result(self) -> PlanSearchResult:
        ints, floats, meta = self.tree
        n = len(self.simulator.actions)
        offset = int(self.simulator.actions[0])
        visits = np.zeros(n, dtype=np.int64)
        means = np.zeros(n)
        first, count = ints[0, search_tree.I_FIRST], ints[0, search_tree.I_COUNT]
        children = np.arange(first, first + count)
        indices = ints[children, search_tree.I_ACTION] - offset
        visits[indices] = ints[children, search_tree.I_VISITS]
        means[indices] = floats[children, search_tree.F_MEAN]
        values = np.where(visits > 0, self.scale.to_return(means), 0.0)
        best_actions = () if self.best is None else self.best[1]
        return PlanSearchResult(
            action=best_actions[0] if best_actions else self.most_visited(),
            visits=visits,
            values=values,
            best_actions=best_actions,
            best_return=None if self.best is None else self.best[0],
            simulations=self.simulations,
            elapsed=self.elapsed,
            tree_nodes=int(meta[search_tree.M_NODES]),
        )


def _subtree_order(ints: np.ndarray, root: int) -> list[int]:
    """The nodes under ``root`` in the order :func:`agents.tree.compact_subtree` copies them
    (breadth first, children contiguous): new index -> old node."""
    order = [root]
    head = 0
    while head < len(order):
        node = order[head]
        first, count = int(ints[node, search_tree.I_FIRST]), int(ints[node, search_tree.I_COUNT])
        order.extend(range(first, first + count))
        head += 1
    return order


def _is_ancestor(ints: np.ndarray, ancestor: int, node: int) -> bool:
    """True if ``ancestor`` is on the path from the root to ``node``."""
    while node > ancestor:
        node = int(ints[node, search_tree.I_PARENT])
    return node == ancestor


def _mark_dead(ints: np.ndarray, node: int) -> None:
    """Mark ``node`` dead, and its ancestors (not the root) whose children are all dead."""
    ints[node, search_tree.I_SOLVED] = search_tree.LOSS
    node = int(ints[node, search_tree.I_PARENT])
    while node > 0:
        first, count = ints[node, search_tree.I_FIRST], ints[node, search_tree.I_COUNT]
        if (ints[first : first + count, search_tree.I_SOLVED] != search_tree.LOSS).any():
            return
        ints[node, search_tree.I_SOLVED] = search_tree.LOSS
        node = int(ints[node, search_tree.I_PARENT])
