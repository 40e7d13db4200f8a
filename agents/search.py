"""What the search agents share: the result type, budgets, the tree buffers, tree reuse, the
choice between the compiled loop (this suite's games) and the generic search (any other env: a
compiled tree walk with the moves and leaves played in Python)."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents import tree as search_tree
from agents.envapi import (
    clone_env,
    copy_unchecked,
    legal_mask,
    native_state,
    require_env,
    same_observation,
    transparent_core,
)
from agents.generic import EnvPosition, GenericWorkspace
from agents.loop import new_workspace
from agents.rules import Rules, SearchSettings, search_rules
from agents.treepool import touch, tree_pair
from agents.treeview import SNAPSHOT_DEPTH, SNAPSHOT_WIDTH, TreeNode, snapshot, tree_text
from connectn_env.games import BoardGame, ExactSolver, GameState
from connectn_env.games.compile_notice import compiling
from connectn_env.games.lib.rng import new_rng
from connectn_env.games.validation import require_int

DEFAULT_SIMULATIONS = 1000
DEFAULT_MAX_NODES = 1_000_000
BACKENDS = ("auto", "native", "generic")
_FIRST_CHUNK = 64  # simulations in the first chunk without a time limit (then doubled)
_CHUNK_SECONDS = 0.01  # longest chunk under a time limit (``progress`` about this often)
_CHUNK_SHARE = 0.5  # of the time left, the most one chunk is sized to take
_CHUNK_GROWTH = 4  # a chunk is at most this many times the last one under a time limit
EXACT_TIME_SHARE = 0.5  # of a time limit, at most, for the exact solver
EXACT_NODES_PER_SIMULATION = 8  # solver nodes per simulation of a simulation budget
EXACT_NODES_PER_GUIDED_SIMULATION = 10_000  # the same for a search calling a network per leaf
GAMES_WITH_SOLVERS = (  # for the messages refusing ``exact`` elsewhere
    "Connect Four and other four-in-a-row gravity boards of at most 64 bits, Gomoku, and "
    "Othello up to 8 x 8"
)
_EXACT_FIRST_NODES = 256  # first, measuring node budget under a time limit (then doubled)
_EXACT_SLICE_SECONDS = 0.05  # longest solver call when a progress callback may stop the search
_TOUCH_ROWS = 4096  # tree rows (about 340 KB) mapped between two clock readings
# A full tree's first prune, before one is measured: 76 ms for a million rows into a spare
# tree never used before (the kernel zeroing its pages), 8-18 ms for later ones (PUCT, Hex 11)
_PRUNE_SECONDS_PER_NODE = 1e-7
_PROOF_STATUS = {1: search_tree.WIN, 0: search_tree.DRAW, -1: search_tree.LOSS}
_PROVEN = {
    search_tree.WIN: "loss",
    search_tree.LOSS: "win",
    search_tree.DRAW: "draw",
}  # root mover's status -> to-move
_STATUS = {
    search_tree.WIN: "win",
    search_tree.LOSS: "loss",
    search_tree.DRAW: "draw",
}  # a root child's, for the player to move
_PROVEN_VALUE = {"win": 1.0, "loss": -1.0, "draw": 0.0}
WARM_SIMULATIONS = 64  # of each scratch search: enough to reach every kernel a search uses
_SCRATCH_MAX_NODES = 4096  # a scratch agent's trees (the types, not the size, are compiled)
# What :meth:`SearchAgent.prepare` has compiled (or loaded) in this process, and is compiling:
# ``(scratch agent class, its arguments, game)``. Compiled code is the process's, not an agent's.
_prepared: set[Any] = set()
_TREE_UPKEEP = "tree upkeep"  # (the same for every agent and game)
_preparing: set[Any] = set()
_prepare_lock = threading.RLock()  # one prepare at a time; the scratch search's own re-enters


@dataclass(frozen=True)
class SearchResult:
    """What a search found, for the player to move at the root.

    Attributes:
        action: The action chosen.
        visits: Visit count per action (int64, length ``num_actions``; 0 for illegal).
        values: Mean value per action for the player to move, in [-1, 1] (0 if unvisited).
        pi: The search's policy over the action space (a training target): the move
            choice's ``target`` (:data:`agents.rules.MOVE_CHOICES`); for UCT and PUCT the
            visit shares of the moves not proven lost (all of it on a proven win), for Gumbel
            the improved policy.
        root_value: Mean value of the root for the player to move, in [-1, 1].
        simulations: Simulations run by this search (reused subtrees not counted).
        elapsed: Seconds spent.
        node_limit_reached: True if the tree reached ``max_nodes`` during this search (it was
            then pruned and went on growing: see ``SearchAgent``).
        proven: ``"win"``, ``"loss"`` or ``"draw"`` if the solver proved the root's value for
            the player to move, else None.
        tree_nodes: Nodes in the tree at the end of the search.
        proven_moves: The moves whose result the solver proved, for the player to move:
            ``{action: "win" | "loss" | "draw"}``.
        principal_variation: The expected line: the most visited move at each level of the
            tree (a proven win first), up to 20 moves.
        tree: A snapshot of the top of the tree (:class:`agents.treeview.TreeNode`; two
            levels, five children per node), or None.
        action_name: How moves are written in :meth:`tree_text` (the game's notation on this
            suite's envs).
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
    proven_moves: dict[int, str] = field(default_factory=dict)
    principal_variation: tuple[int, ...] = ()
    tree: TreeNode | None = None
    action_name: Callable[[int], str] = str

    def tree_text(self, depth: int = 2, width: int = 3) -> str:
        """The principal variation and the top of the tree as text: for each of ``depth``
        levels (1 or 2) the ``width`` (1 to 5) most visited moves, with visits, their share of
        the parent's, the mean value for the player who made the move, and proven results.

        Raises:
            TypeError, ValueError: ``depth`` or ``width`` out of range.
            ValueError: the result holds no tree snapshot.
        """
        depth = require_int("depth", depth, 1, SNAPSHOT_DEPTH)
        width = require_int("width", width, 1, SNAPSHOT_WIDTH)
        if self.tree is None:
            raise ValueError("this SearchResult holds no tree snapshot")
        return tree_text(
            self.tree, self.principal_variation, depth=depth, width=width, name=self.action_name
        )


def check_seed(seed: Any) -> np.random.Generator:
    """A Generator from None, an int >= 0 or a Generator."""
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    return np.random.default_rng(require_int("seed", seed, 0))


def check_backend(backend: Any) -> str:
    """``"auto"``, ``"native"`` or ``"generic"``."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be 'auto', 'native' or 'generic', got {backend!r}")
    return backend


def run_budget(
    step: Callable[[int], int],
    simulations: int | None,
    time_limit: float | None,
    on_chunk: Callable[[int, float], Any] | None = None,
    *,
    start: float | None = None,
    prepare: Callable[[int, float], int] | None = None,
) -> tuple[int, float]:
    """Call ``step(n)`` (runs up to n simulations, returns how many) until the budget is spent,
    a step runs fewer than asked (root proven) or ``on_chunk(done, elapsed)`` returns True.

    Under a time limit the clock is read before every chunk, the first included. The first
    two chunks are one simulation each, and the first one's time sizes nothing: it carries
    one-off costs (numba loading the compiled search in a process's first search took 0.4 s,
    and sized from it the next chunk had no simulation: the search ended after one). Each
    later one grows at most ``_CHUNK_GROWTH``-fold and is sized from the last one's measured
    cost per simulation to take at most ``_CHUNK_SHARE`` of the time left (and at most
    ``_CHUNK_SECONDS``, unless one simulation takes longer: then a chunk is one simulation
    while it fits in that share; a network's on a busy CPU took 30 ms, and the search
    stopped after two); then ``prepare`` may take as long again to make ready (the tree's
    memory) what it can of the chunk, which is cut to that and sized again from the clock,
    so that it ends well within the budget. Without a time limit chunks start at
    ``_FIRST_CHUNK`` simulations and double.

    Args:
        step: Runs the simulations.
        simulations: The simulation budget, or None.
        time_limit: Seconds from ``start``, or None.
        on_chunk: Called after each chunk; True stops.
        start: ``time.perf_counter()`` when the budget began (default: now).
        prepare: ``prepare(n, deadline)`` makes ready up to ``n`` simulations of a timed
            chunk, stopping at ``deadline`` (a ``time.perf_counter()`` value), and returns
            how many it made ready.

    Returns:
        ``(simulations, seconds since start)``.
    """
    start = time.perf_counter() if start is None else start
    done = 0
    cost = 0.0  # seconds per simulation in the last chunk (0: not measured yet)
    chunk = _FIRST_CHUNK if time_limit is None else 1

    def fitted(ask: int) -> tuple[int, float]:
        """``ask`` cut to the time left (0: none), and when it must end."""
        now = time.perf_counter()
        share = (time_limit - (now - start)) * _CHUNK_SHARE
        seconds = min(share, _CHUNK_SECONDS)
        if seconds <= 0:
            return 0, 0.0
        if cost == 0:
            return ask, now + seconds
        seconds = max(seconds, min(cost, share))  # one slow simulation, while it fits
        return min(ask, int(seconds / cost)), now + seconds

    while simulations is None or done < simulations:
        ask = chunk if simulations is None else min(chunk, simulations - done)
        if time_limit is not None:
            ask, until = fitted(ask)
            if ask > 0 and prepare is not None:
                ask = min(fitted(prepare(ask, until))[0], ask)
            if ask == 0:
                break
        called = time.perf_counter()
        got = step(ask)
        done += got
        now = time.perf_counter()
        if got < ask or (simulations is not None and done >= simulations):
            break
        if on_chunk is not None and on_chunk(done, now - start) is True:
            break
        if time_limit is None:
            chunk = min(chunk * 2, 1 << 16)
        elif done > got:  # not the first chunk
            cost = max(now - called, 1e-9) / got
            chunk = ask * _CHUNK_GROWTH
    return done, time.perf_counter() - start


def require_simulations_for(
    needs_simulations: bool, selection: str | None, simulations: int | None, where: str
) -> None:
    """Refuse a search whose rules plan a simulation budget (``needs_simulations``: the
    selection rule ``selection``'s) without one (``simulations`` None: a time limit alone).

    Raises:
        ValueError: the rules need simulations and none are given.
    """
    if needs_simulations and simulations is None:
        raise ValueError(
            f"{where}: selection={selection!r} plans a simulation budget; give simulations "
            "(a time limit alone cannot be planned)"
        )


def _compiles_announced(search: Callable[..., SearchResult]) -> Callable[..., SearchResult]:
    """``search`` with the numba compiles of its first call announced as the game's search
    kernels (:mod:`connectn_env.games.compile_notice`)."""

    @functools.wraps(search)
    def announced(self: SearchAgent, env: Any, progress: Any = None) -> SearchResult:
        state = native_state(env)
        what = "search kernels" if state is None else f"{state.game.title} search kernels"
        with compiling(what):
            return search(self, env, progress)

    return announced


class SearchAgent:
    """Base of the search agents: budgets, the tree buffers, tree reuse, pruning, results.

    On a game of this suite (an env whose ``unwrapped.game_state`` has compiled kernels) the
    simulations run in the compiled loop of :mod:`agents.loop`; on any other AEC env in
    :mod:`agents.generic` (a compiled tree walk, the moves and leaves played in Python on the
    env's state adapter or a full env copy). When the tree reaches ``max_nodes``, the children of
    its least visited nodes are dropped (:func:`agents.tree.prune`: the tree shrinks to at most
    half the limit, those nodes keep their statistics and grow again if the search returns to
    them) and the search goes on.
    """

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
        """Budgets and tree bounds as checked by the subclass's declared options (its
        ``MCTSOptions``, ``PUCTOptions``: :mod:`agents.options`)."""
        if simulations is None and time_limit is None:
            raise ValueError(
                "simulations=None and time_limit=None: a search needs a budget; give "
                "simulations, time_limit or both"
            )
        self.simulations = simulations
        self.time_limit = time_limit
        self.max_nodes = max_nodes
        self.reuse_tree = reuse_tree
        self.backend = check_backend(backend)
        self._generator = check_seed(seed)
        self._trees: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._root_key: Any = None  # what the current tree's root is, for reuse
        self._workspace: tuple[Any, Any] | None = None  # (game, compiled workspace)
        self._generic_workspace = GenericWorkspace()
        self._rule: Rules = search_rules("ucb1")  # the search's rules (subclasses set theirs)
        self._settings: Any = SearchSettings(exploration=1.4)  # its settings, this search
        self._last_num_actions = 0
        self._limit_reached = False
        self._rows_per_simulation = 1  # tree rows a simulation may fill: see _reserve_rows
        self._mapped_rows: dict[int, int] = {}  # id of a tree's ints -> rows mapped
        self._prune_seconds = _PRUNE_SECONDS_PER_NODE * self.max_nodes  # the last prune's time
        self._deadline: float | None = None  # when a timed search's budget ends
        self._action_name: Callable[[int], str] = str
        self._exact_solvers: dict[BoardGame, ExactSolver | None] = {}
        self._known_child: int | None = None  # the root child to play without a search
        self._exact_nodes = EXACT_NODES_PER_SIMULATION  # the solver's nodes per simulation

    # --- subclass hooks -------------------------------------------------------------

    def _before_search(self, state: GameState | None) -> None:
        """Called at the start of each search, before anything changes, with the position
        (None on the generic path): a subclass refuses what it cannot search here."""

    def _native_simulations(self, state: GameState, rng: np.ndarray, count: int) -> int:
        """Run up to ``count`` simulations from ``state`` on ``self._trees[0]``."""
        raise NotImplementedError

    def _generic_simulations(self, root: EnvPosition, rng: np.ndarray, count: int) -> int:
        """Run up to ``count`` simulations on copies of ``root``."""
        raise NotImplementedError

    def _prepare_root(self, root: GameState | EnvPosition, rng: np.ndarray, key: Any) -> None:
        """Called once per search, before the first simulation (PUCT adds root noise)."""

    def _prove_root(
        self,
        root: GameState,
        step: Callable[[int], int],
        on_chunk: Callable[[int, float], Any] | None,
        start: float,
    ) -> tuple[int, bool]:
        """Called once per search of this suite's games, before the budgeted simulations.
        Returns the simulations run and whether the search is over (``on_chunk(done,
        elapsed)``, called now and then, asked to stop, or the move is known without one).

        With the exact solver this agent uses (:meth:`_solver_used`): a move its opening book
        knows is played without a search; else, in a position the solver ``reaches``, expand
        the root (one simulation), then let the solver prove its moves into the tree within
        the budget (MCTS's ``exact`` in its class docstring). Under a time limit or with a
        progress callback the solver runs in slices (a solver with a table keeps what each
        slice finished): the first of ``_EXACT_FIRST_NODES`` nodes, the next ones doubling but
        sized from the last one's measured speed to end by the solver's share of the time
        (counted from ``start``), or within ``_EXACT_SLICE_SECONDS`` so that a stop request
        is heard; the clock is read before each."""
        solver = self._solver_used(root.game)
        if solver is None:
            return 0, False
        book_move = getattr(solver, "book_move", None)
        known = book_move(root) if book_move is not None else None
        if known is not None:
            done = self._play_known(step, *known)
            if on_chunk is not None:
                on_chunk(done, time.perf_counter() - start)
            return done, True
        if not solver.reaches(root):
            return 0, False
        ints = self._trees[0][0]
        done = step(1) if ints[0, search_tree.I_COUNT] == 0 else 0
        if ints[0, search_tree.I_SOLVED] != search_tree.UNSOLVED:
            return done, False
        first = int(ints[0, search_tree.I_FIRST])
        pending = {
            int(ints[child, search_tree.I_ACTION]): child
            for child in range(first, first + int(ints[0, search_tree.I_COUNT]))
            if ints[child, search_tree.I_SOLVED] == search_tree.UNSOLVED
        }
        cap = None if self.simulations is None else self.simulations * self._exact_nodes
        share = None if self.time_limit is None else self.time_limit * EXACT_TIME_SHARE
        nodes = _EXACT_FIRST_NODES if share is not None or on_chunk is not None else cap
        used = 0
        while pending:
            ask = nodes if cap is None else min(nodes, cap - used)
            called = time.perf_counter()
            if share is not None and called - start >= share:
                break
            solved, spent = solver.solve_moves(root, list(pending), ask)
            used += spent
            for action, proof in solved.items():
                child = pending.pop(action)
                if proof is not None:
                    search_tree.mark_proven(ints, child, _PROOF_STATUS[proof[0]], proof[1])
            now = time.perf_counter()
            if on_chunk is not None and on_chunk(done, now - start) is True:
                return done, True
            if spent == 0 or (cap is not None and used >= cap):
                break
            rate = spent / max(now - called, 1e-6)
            nodes = 2 * nodes
            if share is not None:
                nodes = min(nodes, int(rate * (share - (now - start))))
            if on_chunk is not None:
                nodes = min(nodes, int(rate * _EXACT_SLICE_SECONDS))
            nodes = max(1, nodes)
        return done, False

    def _play_known(self, step: Callable[[int], int], action: int, result: int, plies: int) -> int:
        """Choose the root's move ``action`` without a search (an opening book's move) and
        mark the root proven: ``result`` for the player to move, with ``plies`` after the
        move to the end of the perfect line. (The child is left unmarked: a proven node is
        never expanded, and it may be the root of the next search.) Returns the simulations
        run (the root's expansion)."""
        ints = self._trees[0][0]
        done = step(1) if ints[0, search_tree.I_COUNT] == 0 else 0
        first = int(ints[0, search_tree.I_FIRST])
        for child in range(first, first + int(ints[0, search_tree.I_COUNT])):
            if int(ints[child, search_tree.I_ACTION]) == action:
                self._known_child = child
        ints[0, search_tree.I_SOLVED] = _PROOF_STATUS[-result]  # for the root's mover
        ints[0, search_tree.I_PROOF] = plies + 1
        return done

    def _choose(self) -> int:
        """The root child (tree index) to play: the book's move, else the rules' choice."""
        if self._known_child is not None:
            return self._known_child
        ints, floats, _ = self._trees[0]
        return int(self._rule.choice.choose(ints, floats, self._settings))

    def _prepare_rule(self, step: Callable[[int], int]) -> int:
        """Run the root rule's ``prepare`` once the root is expanded (by a simulation through
        ``step`` if need be); returns the simulations run."""
        prepare = self._rule.root.prepare
        if prepare is None:
            return 0
        tree = self._trees[0]
        done = step(1) if tree[0][0, search_tree.I_COUNT] == 0 else 0
        self._settings = prepare(tree, self._settings, self._generator, self.simulations)
        return done

    # --- search ---------------------------------------------------------------------

    def act(self, env: Any) -> int:
        """The action for ``env.agent_selection``."""
        return self.search(env).action

    def prepare(self, env: Any, *, later_moves: bool = False) -> None:
        """Compile (or load from numba's cache) what this agent's searches of ``env``'s game
        need, so that no search's time budget pays for it: a search calls it before its clock
        starts, and a program may call it earlier (from a background thread too) as soon as
        it knows the game and the agent.

        The compiled code is the process's: a scratch agent with the same compiled options
        (seed 0, small trees) searches a copy of ``env`` from the start. What only later
        searches run is compiled when they come, before their clock, so that a first move
        does not wait for it: the reuse of a tree and the pruning of a full one (with
        ``later_moves``, which a search asks for from its second one on), the exact
        solver's search (MCTS's ``exact``) at the first position it takes on (Connect Four
        from about the 10th stone). This agent, its random generator and ``env`` are not
        touched, and a later call for what is compiled already returns at once. Compiles are
        announced as the game's search kernels (:mod:`connectn_env.games.compile_notice`).
        Nothing is compiled on the generic path (an env that is not this suite's).

        Raises:
            TypeError: ``env`` is not a PettingZoo AEC env.
            ValueError: an option the game cannot honour (as :meth:`search` would).
        """
        state = native_state(require_env(env))
        recipe = self._scratch_arguments()
        if state is None or self.backend == "generic" or recipe is None:
            return
        scratch_class, arguments = recipe
        key = (scratch_class, tuple(sorted(arguments.items())), state.game)
        solver = self._solver_used(state.game)
        solving = solver is not None and not state.is_terminal() and solver.reaches(state)
        keys = [key] + [(*key, "exact")] * solving + [_TREE_UPKEEP] * bool(later_moves)
        if all(each in _prepared for each in keys):
            return
        with _prepare_lock:
            todo = [each for each in keys if each not in _prepared and each not in _preparing]
            if not todo:  # (prepared meanwhile, or the scratch search's own call)
                return
            _preparing.update(todo)
            try:
                scratch = scratch_class(
                    **arguments,
                    simulations=WARM_SIMULATIONS,
                    max_nodes=_SCRATCH_MAX_NODES,
                    seed=0,
                )
                with compiling(f"{state.game.title} search kernels"):
                    if key in todo:
                        start = copy_unchecked(env.unwrapped)
                        start.reset()
                        scratch.search(start, progress=_stop_at_once)
                    if (*key, "exact") in todo:  # at this position, with the solver
                        scratch.search(env, progress=_stop_at_once)
                    if _TREE_UPKEEP in todo:
                        _compile_tree_upkeep()
            finally:
                _preparing.difference_update(todo)
            _prepared.update(todo)

    def _scratch_arguments(self) -> tuple[type[SearchAgent], dict[str, Any]] | None:
        """The class and keyword arguments (hashable values; no budget, tree size or seed) of
        an agent whose searches run the compiled code this agent's do (:meth:`prepare`), or
        None (the default, for a subclass that does not say): nothing is prepared."""
        return None

    def _solver_used(self, game: BoardGame) -> ExactSolver | None:
        """The exact solver this agent's searches of ``game`` run (MCTS's ``exact``), or
        None: :meth:`prepare` also searches a position it takes on."""
        return None

    def _exact_solver(self, game: BoardGame) -> ExactSolver | None:
        """This agent's solver of ``game`` (made once; its tables last between searches)."""
        if game not in self._exact_solvers:
            self._exact_solvers[game] = game.exact_solver()
        return self._exact_solvers[game]

    @_compiles_announced
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
            TypeError: ``progress`` is not callable, or ``backend="native"`` on an env that
                is not this suite's.
            ValueError: the game is over, or the agent to move has no legal action.
        """
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable or None, got {progress!r}")
        mask = legal_mask(env)
        state = native_state(env)
        if self.backend == "native" and state is None:
            raise TypeError(f"backend='native' needs one of this suite's envs, got {env!r}")
        self._before_search(state if self.backend != "generic" else None)
        self._known_child = None
        self.prepare(env, later_moves=bool(self._trees))
        start = time.perf_counter()  # time_limit counts from here: after any compile
        if not self._trees:
            self._trees = tree_pair(self, self.max_nodes)
        key_before = self._root_key
        self._root_key = None  # a failed search leaves no tree to reuse
        if state is not None and self.backend != "generic":
            root: GameState | EnvPosition = state.clone()
            key = ("native", state.game, np.asarray(state.history(), dtype=np.int64))
            reused = self._reuse_native(key_before, key)
            player = state.current_player()

            def step(n: int) -> int:
                return self._native_simulations(root, rng, n)
        else:
            root = EnvPosition(clone_env(transparent_core(env)), verified=True)
            key = ("generic", copy_unchecked(root.env), env.agent_selection)
            reused = self._reuse_generic(key_before, env)
            player = root.player()

            def step(n: int) -> int:
                return self._generic_simulations(root, rng, n)

        ints, floats, meta = self._trees[0]
        if not reused:
            search_tree.tree_reset(ints, floats, meta, player)
        ints[0, search_tree.I_PLAYER] = player
        rng = new_rng(self._generator)
        self._limit_reached = False
        self._action_name = state.game.action_name if state is not None else str
        prepare = self._rule.root.prepare
        if prepare is not None:  # its settings' type from the first simulation on
            self._settings = prepare(
                self._trees[0], self._settings, self._generator, self.simulations
            )
        self._prepare_root(root, rng, key)

        self._rows_per_simulation = len(mask) + 1  # at most: a new node and its children

        def budget_step(n: int) -> int:
            meta = self._trees[0][2]
            before = int(meta[search_tree.M_NODES])
            done = step(n)
            grown = int(meta[search_tree.M_NODES]) - before
            if done > 0 and grown >= 0:
                self._rows_per_simulation = grown * 5 // (4 * done) + 1  # a margin of a quarter
            if meta[search_tree.M_FULL] and self._deadline is None:
                self._make_room()  # a timed search does it in _reserve_rows, if it has time
            return done

        on_chunk = None
        if progress is not None:

            def on_chunk(done: int, elapsed: float) -> Any:
                return progress(done, elapsed, self._root_value())

        simulations = self.simulations
        self._deadline = None if self.time_limit is None else start + self.time_limit
        proving, stopped = self._prepare_rule(budget_step), False
        if simulations is not None:
            simulations -= proving
        if isinstance(root, GameState):
            proved, stopped = self._prove_root(root, budget_step, on_chunk, start)
            proving += proved
            if simulations is not None:
                simulations -= proved
        done = 0
        if not stopped:
            done, _ = run_budget(
                budget_step,
                simulations,
                self.time_limit,
                on_chunk,
                start=start,
                prepare=self._reserve_rows,
            )
        result = self._result(mask, proving + done, time.perf_counter() - start)
        if self.reuse_tree:
            self._root_key = key
        return result

    def _reserve_rows(self, simulations: int, deadline: float) -> int:
        """Map the tree memory that up to ``simulations`` more simulations may fill, in slices,
        until ``deadline``; return how many simulations it covers. ``run_budget`` calls this
        before the clock reading that sizes a chunk: a search growing into pages never used
        before pays the kernel's zeroing of them (measured here: several times the cost of
        the simulations themselves for PUCT without a network in Gomoku), which the chunk's
        measured speed would not foresee.

        A full tree is pruned here first if that takes at most half the search's time left (by
        the last prune's time); otherwise the simulations to come run without growing it.
        Pruned after the chunk that filled it, it ran past the time limit: a 0.05 s search
        took 0.11 s (PUCT, Hex 11, a spare tree never used before)."""
        full = self._trees[0][2][search_tree.M_FULL] and self._deadline is not None
        if full and 2 * self._prune_seconds <= self._deadline - time.perf_counter():
            self._make_room()
        tree = self._trees[0]
        first = int(tree[2][search_tree.M_NODES])
        per = self._rows_per_simulation
        stop = min(len(tree[0]), first + simulations * per)
        mapped = max(first, self._mapped_rows.get(id(tree[0]), 0))
        while mapped < stop and time.perf_counter() < deadline:
            end = min(stop, mapped + _TOUCH_ROWS)
            touch(tree, mapped, end)
            mapped = end
        self._mapped_rows[id(tree[0])] = max(mapped, self._mapped_rows.get(id(tree[0]), 0))
        return simulations if mapped >= stop else (mapped - first) // per

    def _compiled_workspace(self, state: GameState) -> tuple[Any, ...]:
        """The compiled loop's work arrays for ``state``'s game (kept between searches)."""
        game = state.game
        if self._workspace is None or self._workspace[0] != game:
            workspace = new_workspace(
                game.kernels, game.params, state.data, game.num_actions, game.max_moves
            )
            self._workspace = (game, workspace)
        return self._workspace[1]

    def _make_room(self) -> None:
        """Prune the full tree to at most half of ``max_nodes`` (into the spare buffers)."""
        began = time.perf_counter()
        self._limit_reached = True
        ints = self._trees[0][0]
        min_visits = 2
        while (
            search_tree.kept_nodes(ints, min_visits) > self.max_nodes // 2 and min_visits < 1 << 30
        ):
            min_visits *= 2
        search_tree.prune(*self._trees[0], *self._trees[1], min_visits)
        self._trees.reverse()
        self._prune_seconds = time.perf_counter() - began

    def _result(self, mask: np.ndarray, done: int, elapsed: float) -> SearchResult:
        ints, floats, meta = self._trees[0]
        n = self._last_num_actions = len(mask)
        visits = self.root_visits(n)
        values = np.zeros(n, dtype=np.float64)
        children, actions = self._root_children()
        count = len(children)
        values[actions] = floats[children, search_tree.F_MEAN]
        total = visits.sum()
        if count > 0 and total > 0:
            policy = np.zeros(count, dtype=np.float64)
            self._rule.choice.target(ints, floats, self._settings, policy)
            pi = np.zeros(n, dtype=np.float64)
            pi[actions] = policy
        else:
            pi = mask / mask.sum()
        if count == 0:  # no expansion happened (tiny node limit): play any legal move
            action = int(np.flatnonzero(mask)[0])
        else:
            action = int(ints[self._choose(), search_tree.I_ACTION])
        status = ints[children, search_tree.I_SOLVED]
        proven_moves = {
            int(a): _STATUS[int(s)]
            for a, s in zip(actions, status, strict=True)
            if s != search_tree.UNSOLVED
        }
        root_value = self._root_value()
        proven = _PROVEN.get(int(ints[0, search_tree.I_SOLVED]))
        tree, line = snapshot(ints, floats, root_value, proven)
        if self._known_child is not None:  # a move known without a search (the book's): the
            pi = np.zeros(n, dtype=np.float64)  # root's expansion visited some other child
            pi[action] = 1.0
            line = (action,)
        return SearchResult(
            action=action,
            visits=visits,
            values=values,
            pi=pi,
            root_value=root_value,
            simulations=done,
            elapsed=elapsed,
            node_limit_reached=self._limit_reached or bool(meta[search_tree.M_FULL]),
            proven=proven,
            tree_nodes=int(meta[search_tree.M_NODES]),
            proven_moves=proven_moves,
            principal_variation=line,
            tree=tree,
            action_name=self._action_name,
        )

    def _root_children(self) -> tuple[np.ndarray, np.ndarray]:
        """The root's children (tree indices) and their actions."""
        ints = self._trees[0][0]
        first, count = ints[0, search_tree.I_FIRST], ints[0, search_tree.I_COUNT]
        children = np.arange(first, first + count)
        return children, ints[children, search_tree.I_ACTION]

    def root_visits(self, num_actions: int) -> np.ndarray:
        """Visit count per action at the root of the search under way (between searches: of
        the last one), a new int64 array of length ``num_actions``. For a ``progress``
        callback, which runs in the searching thread between chunks, to show the search as
        it goes (the play window's live analysis).

        Raises:
            TypeError, ValueError: ``num_actions`` is not a positive int.
        """
        visits = np.zeros(require_int("num_actions", num_actions, 1), dtype=np.int64)
        if self._trees:
            children, actions = self._root_children()
            visits[actions] = self._trees[0][0][children, search_tree.I_VISITS]
        return visits

    def _root_value(self) -> float:
        """The root's value for the player to move: proven, else the mean so far."""
        ints, floats, _ = self._trees[0]
        proven = _PROVEN.get(int(ints[0, search_tree.I_SOLVED]))
        root_visits = max(int(ints[0, search_tree.I_VISITS]), 1)
        return _PROVEN_VALUE.get(proven, float(-floats[0, search_tree.F_VALUE] / root_visits))

    # --- tree reuse -----------------------------------------------------------------

    def _reroot(self, node: int) -> None:
        """Make ``node`` the root, keeping its subtree (moved to the spare buffers)."""
        ints, floats, meta = self._trees[0]
        spare = self._trees[1]
        search_tree.compact_subtree(ints, floats, node, *spare)
        spare[2][search_tree.M_EPOCH] = meta[search_tree.M_EPOCH]  # RAVE stamps stay unambiguous
        self._trees.reverse()

    def _child(self, node: int, action: int) -> int:
        ints = self._trees[0][0]
        first = ints[node, search_tree.I_FIRST]
        for child in range(first, first + ints[node, search_tree.I_COUNT]):
            if ints[child, search_tree.I_ACTION] == action:
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
        first, count = ints[0, search_tree.I_FIRST], ints[0, search_tree.I_COUNT]
        for child in range(first, first + count):
            after = copy_unchecked(old_env)
            after.step(int(ints[child, search_tree.I_ACTION]))
            if _matches(after, agent, target):
                self._reroot(child)
                return True
            if ints[child, search_tree.I_VISITS] < 2:
                continue
            grand_first = ints[child, search_tree.I_FIRST]
            for grand in range(grand_first, grand_first + ints[child, search_tree.I_COUNT]):
                reply = copy_unchecked(after)
                reply.step(int(ints[grand, search_tree.I_ACTION]))
                if _matches(reply, agent, target):
                    self._reroot(grand)
                    return True
        return False


def _compile_tree_upkeep() -> None:
    """Compile what later searches do to their trees, on small trees of the same types: the
    reuse of a subtree (:func:`agents.tree.compact_subtree`) and the pruning of a full tree
    (:func:`agents.tree.prune`)."""
    full, spare = search_tree.new_tree(4), search_tree.new_tree(4)
    search_tree.tree_reset(*full, 0)
    search_tree.compact_subtree(full[0], full[1], 0, *spare)
    search_tree.kept_nodes(full[0], 2)
    search_tree.prune(*full, *spare, 2)


def _stop_at_once(simulations: int, seconds: float, value: float) -> bool:
    return True


def _matches(env: Any, agent: str, target: Any) -> bool:
    return env.agent_selection == agent and same_observation(env.observe(agent), target)
