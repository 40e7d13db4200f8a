"""Search machinery shared by the MCTS and PUCT agents: the result type, the Python
simulation loop (generic envs, and PUCT on every env), budgets, tree reuse and results."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import tree as t
from agents.envapi import (
    clone_env,
    copy_unchecked,
    legal_mask,
    native_state,
    same_observation,
    transparent_core,
)
from agents.positions import EnvPosition, NativePosition
from connectn_env.games.validation import require_bool, require_int, require_number

DEFAULT_SIMULATIONS = 1000
DEFAULT_MAX_NODES = 1_000_000
_CHUNK_SECONDS = 0.01
_PROVEN = {t.WIN: "loss", t.LOSS: "win", t.DRAW: "draw"}  # root mover's status -> to-move
_PROVEN_VALUE = {"win": 1.0, "loss": -1.0, "draw": 0.0}

Evaluator = Callable[[Any], tuple[np.ndarray | None, float]]


@dataclass(frozen=True)
class SearchResult:
    """What a search found, for the player to move at the root.

    Attributes:
        action: The action chosen.
        visits: Visit count per action (int64, length ``num_actions``; 0 for illegal).
        values: Mean value per action for the player to move, in [-1, 1] (0 if unvisited).
        pi: Visit distribution over the action space (``visits / visits.sum()``).
        root_value: Mean value of the root for the player to move, in [-1, 1].
        simulations: Simulations run by this search (reused subtrees not counted).
        elapsed: Seconds spent.
        node_limit_reached: True if the tree hit ``max_nodes`` and stopped growing.
        proven: ``"win"``, ``"loss"`` or ``"draw"`` if the solver proved the root's value for
            the player to move, else None.
        tree_nodes: Nodes in the tree at the end of the search.
    """

    action: int
    visits: np.ndarray
    values: np.ndarray
    pi: np.ndarray
    root_value: float
    simulations: int
    elapsed: float
    node_limit_reached: bool
    proven: str | None
    tree_nodes: int


def check_seed(seed: Any) -> np.random.Generator:
    """A Generator from None, an int or a Generator."""
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    return np.random.default_rng(require_int("seed", seed, 0))


def check_backend(backend: Any) -> str:
    """``"auto"``, ``"native"`` or ``"generic"``."""
    if backend not in ("auto", "native", "generic"):
        raise ValueError(f"backend must be 'auto', 'native' or 'generic', got {backend!r}")
    return backend


def run_budget(
    step: Callable[[int], int],
    simulations: int | None,
    time_limit: float | None,
    on_chunk: Callable[[int, float], Any] | None = None,
) -> tuple[int, float]:
    """Call ``step(n)`` (runs up to n simulations, returns how many) until the budget is spent,
    a step runs fewer than asked (root proven) or ``on_chunk(done, elapsed)`` returns True.
    Returns ``(simulations, seconds)``."""
    start = time.perf_counter()
    done = 0
    chunk = 64
    while True:
        ask = chunk if simulations is None else min(chunk, simulations - done)
        got = step(ask)
        done += got
        elapsed = time.perf_counter() - start
        if got < ask or (simulations is not None and done >= simulations):
            return done, elapsed
        if on_chunk is not None and on_chunk(done, elapsed) is True:
            return done, elapsed
        if time_limit is not None:
            left = time_limit - elapsed
            if left <= 0:
                return done, elapsed
            rate = done / max(elapsed, 1e-9)
            chunk = max(1, int(rate * min(left, _CHUNK_SECONDS)))
        else:
            chunk = min(chunk * 2, 1 << 16)


def python_simulations(
    tree: tuple[np.ndarray, np.ndarray, np.ndarray],
    root: NativePosition | EnvPosition,
    count: int,
    *,
    mode: int,
    exploration: float,
    rave_equivalence: float,
    rng: np.ndarray,
    generator: np.random.Generator,
    evaluate: Evaluator | None,
    stamp: np.ndarray,
) -> int:
    """Run up to ``count`` simulations on copies of ``root``; returns how many ran.

    Without ``evaluate`` (UCT, RAVE) a leaf is expanded on its second visit and valued by a
    random play-out. With ``evaluate(position) -> (priors over the legal actions, r0)``
    (PUCT) a leaf is expanded and valued at once.
    """
    ints, floats, meta = tree
    for sim in range(count):
        if ints[t.I_SOLVED, 0] != t.UNSOLVED:
            return sim
        position = root.copy()
        node = 0
        path = [0]
        while True:
            if ints[t.I_SOLVED, node] != t.UNSOLVED:
                r0 = t.solved_r0(ints, node)
                break
            r0 = position.terminal_r0()
            if r0 is not None:
                t.mark_terminal(ints, node, r0)
                break
            if ints[t.I_COUNT, node] == 0:
                if evaluate is None and node != 0 and ints[t.I_VISITS, node] == 0:
                    r0 = position.rollout(rng, generator)
                    break
                actions = position.legal()
                if evaluate is None:
                    priors = np.full(len(actions), 1.0 / len(actions))
                    r0 = None
                else:
                    priors, r0 = evaluate(position)
                t.shuffle_together(actions, priors, len(actions), rng)
                expanded = t.expand(
                    ints, floats, meta, node, position.player(), actions, priors, len(actions)
                )
                if r0 is not None:
                    break
                if not expanded:
                    r0 = position.rollout(rng, generator)
                    break
            node = t.select_child(ints, floats, node, mode, exploration, rave_equivalence)
            position.step(int(ints[t.I_ACTION, node]))
            path.append(node)
        t.backup(ints, floats, node, r0)
        if mode == t.MODE_RAVE:
            moves, players, start, end = position.moves_and_players()
            nodes = np.asarray(path, dtype=np.int64)
            t.rave_update(
                ints, floats, meta, stamp, nodes, len(path) - 1, moves, players, start, end, r0
            )
    return count


class SearchAgent:
    """Base of the search agents: budgets, the tree buffers, tree reuse and results."""

    def __init__(
        self,
        *,
        simulations: int | None,
        time_limit: float | None,
        max_nodes: int,
        reuse_tree: bool,
        backend: str,
        seed: Any,
    ) -> None:
        if simulations is not None:
            simulations = require_int("simulations", simulations, 1)
        if time_limit is not None:
            time_limit = require_number("time_limit", time_limit, 0.0, strict_low=True)
        self.simulations = simulations
        self.time_limit = time_limit
        self.max_nodes = require_int("max_nodes", max_nodes, 2)
        self.reuse_tree = require_bool("reuse_tree", reuse_tree)
        self.backend = check_backend(backend)
        self._generator = check_seed(seed)
        self._trees: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._root_key: Any = None  # what the current tree's root is, for reuse
        self._last_num_actions = 0

    # --- subclass hooks -------------------------------------------------------------

    def _search_tree(self, root: NativePosition | EnvPosition, rng: np.ndarray, count: int) -> int:
        """Run up to ``count`` simulations on ``self._trees[0]``; return how many ran."""
        raise NotImplementedError

    def _choose(self, visits: np.ndarray) -> int:
        """The root child (tree index) to play."""
        ints, floats, _ = self._trees[0]
        return int(t.best_root_child(ints, floats))

    # --- search ---------------------------------------------------------------------

    def act(self, env: Any) -> int:
        """The action for ``env.agent_selection``."""
        return self.search(env).action

    def search(
        self, env: Any, progress: Callable[[int, float, float], Any] | None = None
    ) -> SearchResult:
        """Search from the env's current position (the env is not modified).

        Args:
            env: A PettingZoo AEC env; the search is for ``env.agent_selection``.
            progress: Optional ``progress(simulations, elapsed_seconds, root_value)``, called
                from the searching thread between chunks of simulations (about every 10 ms
                with a time limit); ``root_value`` is the current estimate in [-1, 1] for the
                player to move. Returning True stops the search early (for a UI's stop
                button); the result is still a valid search result.

        Raises:
            TypeError: ``progress`` is not callable.
            ValueError: the game is over, or the agent to move has no legal action.
        """
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable or None, got {progress!r}")
        mask = legal_mask(env)
        state = native_state(env)
        if self.backend == "native" and state is None:
            raise TypeError(f"backend='native' needs one of this suite's envs, got {env!r}")
        if not self._trees:
            self._trees = [t.new_tree(self.max_nodes), t.new_tree(self.max_nodes)]
        start = time.perf_counter()
        key_before = self._root_key
        self._root_key = None  # a failed search leaves no tree to reuse
        if state is not None and self.backend != "generic":
            root: NativePosition | EnvPosition = NativePosition(state)
            key = ("native", state.game, np.asarray(state.history(), dtype=np.int64))
            reused = self._reuse_native(key_before, key)
        else:
            root = EnvPosition(clone_env(transparent_core(env)), verified=True)
            key = ("generic", copy_unchecked(root.env), env.agent_selection)
            reused = self._reuse_generic(key_before, env)
        ints, floats, meta = self._trees[0]
        if not reused:
            t.tree_reset(ints, floats, meta, root.player())
        ints[t.I_PLAYER, 0] = root.player()
        rng = np.array([self._generator.integers(1, 2**63)], dtype=np.uint64)
        on_chunk = None
        if progress is not None:

            def on_chunk(done: int, elapsed: float) -> Any:
                return progress(done, elapsed, self._root_value())

        done, _ = run_budget(
            lambda n: self._search_tree(root, rng, n), self.simulations, self.time_limit, on_chunk
        )
        result = self._result(mask, done, time.perf_counter() - start)
        if self.reuse_tree:
            self._root_key = key
        return result

    def _result(self, mask: np.ndarray, done: int, elapsed: float) -> SearchResult:
        ints, floats, meta = self._trees[0]
        n = self._last_num_actions = len(mask)
        visits = np.zeros(n, dtype=np.int64)
        values = np.zeros(n, dtype=np.float64)
        first, count = ints[t.I_FIRST, 0], ints[t.I_COUNT, 0]
        children = np.arange(first, first + count)
        actions = ints[t.I_ACTION, children]
        visits[actions] = ints[t.I_VISITS, children]
        sums = floats[t.F_VALUE, children]
        values[actions] = np.divide(sums, visits[actions], where=visits[actions] > 0, out=0 * sums)
        total = visits.sum()
        pi = visits / total if total > 0 else mask / mask.sum()
        if count == 0:  # no expansion happened (tiny node limit): play any legal move
            action = int(np.flatnonzero(mask)[0])
        else:
            action = int(ints[t.I_ACTION, self._choose(visits)])
        proven = _PROVEN.get(int(ints[t.I_SOLVED, 0]))
        return SearchResult(
            action=action,
            visits=visits,
            values=values,
            pi=pi,
            root_value=self._root_value(),
            simulations=done,
            elapsed=elapsed,
            node_limit_reached=bool(meta[t.M_FULL]),
            proven=proven,
            tree_nodes=int(meta[t.M_NODES]),
        )

    def _root_value(self) -> float:
        """The root's value for the player to move: proven, else the mean so far."""
        ints, floats, _ = self._trees[0]
        proven = _PROVEN.get(int(ints[t.I_SOLVED, 0]))
        root_visits = max(int(ints[t.I_VISITS, 0]), 1)
        return _PROVEN_VALUE.get(proven, float(-floats[t.F_VALUE, 0] / root_visits))

    # --- tree reuse -----------------------------------------------------------------

    def _reroot(self, node: int) -> None:
        """Make ``node`` the root, keeping its subtree (moved to the spare buffers)."""
        ints, floats, meta = self._trees[0]
        spare = self._trees[1]
        t.compact_subtree(ints, floats, node, *spare)
        spare[2][t.M_EPOCH] = meta[t.M_EPOCH]  # RAVE stamps stay unambiguous
        self._trees.reverse()

    def _child(self, node: int, action: int) -> int:
        ints = self._trees[0][0]
        first = ints[t.I_FIRST, node]
        for child in range(first, first + ints[t.I_COUNT, node]):
            if ints[t.I_ACTION, child] == action:
                return child
        return -1

    def _reuse_native(self, old: Any, new: Any) -> bool:
        if not self.reuse_tree or old is None or old[0] != "native" or old[1] != new[1]:
            return False
        old_hist, new_hist = old[2], new[2]
        if len(new_hist) < len(old_hist) or not np.array_equal(new_hist[: len(old_hist)], old_hist):
            return False
        node = 0
        for action in new_hist[len(old_hist) :]:
            node = self._child(node, int(action))
            if node < 0:
                return False
        self._reroot(node)
        return True

    def _reuse_generic(self, old: Any, env: Any) -> bool:
        """Find the node the env's position corresponds to, one or two moves below the old
        root, by replaying the tree's moves on copies and comparing observations."""
        if not self.reuse_tree or old is None or old[0] != "generic":
            return False
        old_env = old[1]
        agent = env.agent_selection
        target = env.observe(agent)
        ints = self._trees[0][0]
        first, count = ints[t.I_FIRST, 0], ints[t.I_COUNT, 0]
        for child in range(first, first + count):
            after = copy_unchecked(old_env)
            after.step(int(ints[t.I_ACTION, child]))
            if _matches(after, agent, target):
                self._reroot(child)
                return True
            if ints[t.I_VISITS, child] < 2:
                continue
            grand_first = ints[t.I_FIRST, child]
            for grand in range(grand_first, grand_first + ints[t.I_COUNT, child]):
                reply = copy_unchecked(after)
                reply.step(int(ints[t.I_ACTION, grand]))
                if _matches(reply, agent, target):
                    self._reroot(grand)
                    return True
        return False


def _matches(env: Any, agent: str, target: Any) -> bool:
    return env.agent_selection == agent and same_observation(env.observe(agent), target)
