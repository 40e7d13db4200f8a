"""Alpha-beta search: iterative-deepening negamax with a transposition table, compiled over the
suite's game kernels (see :mod:`agents.negamax` for the search itself)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import negamax
from agents import options as declare
from agents.envapi import legal_mask, native_state
from connectn_env.games import BoardGame, GameState
from connectn_env.games.compile_notice import compiling
from connectn_env.games.heuristics import heuristics_of
from connectn_env.games.validation import require_int

DEFAULT_NODES = 200_000
DEFAULT_TABLE_BITS = 20
MIN_TABLE_BITS = 10
MAX_TABLE_BITS = 28
_FIRST_CAPACITY = 32  # plies of work arrays allocated first (a deep search doubles them)
_JITTER = 1e-3  # seeded ordering noise, below the gap between two cells' centre bias


@dataclass(frozen=True)
class AlphaBetaResult:
    """What an alpha-beta search found, for the player to move.

    Attributes:
        action: The move chosen (the best move of the deepest finished iteration).
        value: The position's value for the player to move: 1, -1 or 0 once proven, else the
            game's static evaluation at the end of the principal variation, in [-1, 1] (0 for
            a game without an evaluation).
        proven: ``"win"``, ``"loss"`` or ``"draw"`` if the search proved the result (a forced
            win or loss within its depth, or a search to the end of every line), else None.
        depth: Plies of the deepest finished iteration.
        principal_variation: The expected line from here, starting with ``action``.
        nodes: Positions visited (all iterations).
        elapsed: Seconds spent.
        evaluation: ``"game"`` if the game has its own evaluation (``game.heuristics``),
            ``"none"`` if unfinished positions at the horizon all counted 0.
    """

    action: int
    value: float
    proven: str | None
    depth: int
    principal_variation: tuple[int, ...]
    nodes: int
    elapsed: float
    evaluation: str


@dataclass(frozen=True)
class AlphaBetaOptions:
    """:class:`AlphaBetaAgent`'s options as declared once (spec ``ab:key=value,...``): made
    from a spec or from the constructor's arguments, it checks them. The seed is the
    constructor's own (it also takes a Generator)."""

    depth: int | None = declare.option(
        None, int, low=1, high=10**6, key="depth", help="search depth in plies"
    )
    time_limit: float | None = declare.time_limit()
    nodes: int | None = declare.option(
        None, int, low=1, high=declare.MAX_SIMULATIONS, key="nodes", help="nodes per move"
    )
    table_bits: int = declare.option(
        DEFAULT_TABLE_BITS, int, low=MIN_TABLE_BITS, high=MAX_TABLE_BITS, key="table_bits",
        help="the transposition table holds 2 ** table_bits entries",
    )  # fmt: skip
    seed: int | None = declare.seed()

    def __post_init__(self) -> None:
        declare.check_fields(self)


class AlphaBetaAgent:
    """Negamax with alpha-beta pruning, iterative deepening and a transposition table.

    It searches this suite's games (an env whose ``unwrapped.game_state`` has compiled
    kernels) with the game's optional heuristics (``game.heuristics``: a position key and a
    static evaluation; Connect-N, Gomoku and Hex count open lines or connection distances);
    a game without them is searched with an observation-based key and an evaluation of 0, so
    only forced results within the horizon are seen. Moves are ordered by the table's move,
    killer moves, the history heuristic and the distance to the board's centre.

    Iterative deepening searches to depth 1, 2, ... until a budget is spent; the move of the
    deepest finished iteration is played (an iteration cut short by the time or node budget
    is dropped, but the first one always finishes). It stops early once the result is proven.

    Args:
        depth: Deepest iteration, in plies (int >= 1).
        time_limit: Seconds per move (> 0); the clock is read every 1,024 nodes.
        nodes: Positions visited per move (int >= 1). With several budgets the first one
            spent stops the search; with none, ``nodes=200_000``. The first iteration (one
            position per legal move) always finishes, whatever the budget.
        table_bits: The transposition table has ``2 ** table_bits`` slots (29 bytes each;
            10 to 28); it is kept from one move to the next.
        seed: None (ties between equally good moves go to the centre-most, always the same)
            or an int >= 0 / ``np.random.Generator`` that shuffles the order of equally placed
            moves, so equally good moves vary from seed to seed.
    """

    def __init__(
        self,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        nodes: int | None = None,
        table_bits: int = DEFAULT_TABLE_BITS,
        seed: Any = None,
    ) -> None:
        declared = AlphaBetaOptions(
            depth=depth, time_limit=time_limit, nodes=nodes, table_bits=table_bits
        )
        self.depth, self.time_limit = declared.depth, declared.time_limit
        self.nodes = declared.nodes
        if self.depth is None and self.time_limit is None and self.nodes is None:
            self.nodes = DEFAULT_NODES
        self.table_bits = declared.table_bits
        if seed is None:
            self._jitter_generator = None
        elif isinstance(seed, np.random.Generator):
            self._jitter_generator = seed
        else:
            self._jitter_generator = np.random.default_rng(require_int("seed", seed, 0))
        self._table: tuple[np.ndarray, ...] | None = None
        self._generation = 0
        self._bias: tuple[BoardGame, np.ndarray] | None = None

    def act(self, env: Any) -> int:
        """The move for ``env.agent_selection`` (the env is not modified)."""
        return self.analyse(env).action

    def prepare(self, env: Any, *, later_moves: bool = False) -> None:
        """Compile (or load from numba's cache) the search of ``env``'s game, so that no
        move's time budget pays for it: a search calls it before its clock starts, and a
        program may call it earlier. A depth-1 search of a scratch agent compiles it once per
        game and process, announced as the game's alpha-beta kernels; this agent (its table,
        its counters, its seed) and ``env`` are not touched. ``later_moves`` is accepted for
        the search agents' signature (every move runs the same kernels). Nothing is compiled
        for an env that is not this suite's.
        """
        state = native_state(env)
        if state is not None and not state.is_terminal():
            _prepare(state)

    def analyse(self, env: Any) -> AlphaBetaResult:
        """Search from the env's position (the env is not modified).

        Raises:
            TypeError: ``env`` is not one of this suite's envs (a third-party env has no
                compiled kernels to search).
            ValueError: the game is over.
        """
        state = native_state(env)
        if state is None:
            raise TypeError(
                f"AlphaBetaAgent searches this suite's envs (env.unwrapped.game_state with "
                f"compiled kernels), got {env!r}; for any other AEC env use MCTSAgent"
            )
        legal_mask(env)
        return self.analyse_state(state)

    def analyse_state(self, state: GameState) -> AlphaBetaResult:
        """Search from a :class:`~connectn_env.games.GameState` (not modified).

        Raises:
            TypeError: ``state`` is not a GameState.
            ValueError: the game is over.
        """
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a GameState, got {type(state).__name__}")
        if state.is_terminal():
            raise ValueError("the game is over: there is no move to search")
        _prepare(state)  # the compile, before the clock
        start = time.perf_counter()
        game = state.game
        heuristics = heuristics_of(game)
        key_fn = None if heuristics is None else heuristics.key
        eval_fn = None if heuristics is None else heuristics.evaluate
        root = state.data.copy()
        remaining = game.max_moves - state.move_number
        deepest = remaining if self.depth is None else min(self.depth, remaining)
        if self._table is None:
            self._table = negamax.new_table(self.table_bits)
        self._generation += 1
        capacity = min(deepest, _FIRST_CAPACITY)  # plies the work arrays hold; grows
        work = negamax.new_work(root, game.num_actions, capacity, game.rows * game.cols)
        bias = self._ordering_bias(game)
        deadline = np.inf if self.time_limit is None else start + self.time_limit
        limits = np.array([-1.0 if self.nodes is None else self.nodes, deadline])
        first_limits = np.array([-1.0, np.inf])
        counters = np.zeros(negamax.NUM_COUNTERS, dtype=np.int64)
        best: tuple[float, int, tuple[int, ...]] = (0.0, -1, ())
        completed = 0
        for depth in range(1, deepest + 1):
            if depth > capacity:
                capacity = min(deepest, 2 * capacity)
                work = negamax.new_work(root, game.num_actions, capacity, game.rows * game.cols)
            score, move = negamax.search_depth(
                game.kernels,
                key_fn,
                eval_fn,
                game.params,
                root,
                depth,
                self._table,
                work,
                bias,
                self._generation,
                first_limits if depth == 1 else limits,
                counters,
            )
            if counters[negamax.C_ABORTED]:
                break
            line = np.empty(depth, dtype=np.int64)
            length = negamax.principal_line(
                game.kernels, key_fn, game.params, root, self._table, work, line
            )
            best, completed = (float(score), int(move), tuple(line[:length].tolist())), depth
            if abs(score) > negamax.PROVEN:
                break
        score, action, line = best
        proven = None
        if score > negamax.PROVEN:
            proven, value = "win", 1.0
        elif score < -negamax.PROVEN:
            proven, value = "loss", -1.0
        else:
            value = score
            if completed >= remaining:
                proven = "draw"
        return AlphaBetaResult(
            action=action,
            value=value,
            proven=proven,
            depth=completed,
            principal_variation=line,
            nodes=int(counters[negamax.C_NODES]),
            elapsed=time.perf_counter() - start,
            evaluation="none" if eval_fn is None else "game",
        )

    def _ordering_bias(self, game: BoardGame) -> np.ndarray:
        """Static ordering score per action in [0, 1): cells (columns, with gravity) near the
        centre first, special actions last, plus the seeded jitter."""
        if self._bias is None or self._bias[0] != game:
            bias = np.zeros(game.num_actions)
            centre_row, centre_col = (game.rows - 1) / 2, (game.cols - 1) / 2
            farthest = centre_row + centre_col + 1
            for action in range(game.num_actions):
                cell = game.action_to_cell(action)
                if cell is not None:
                    row_distance = 0.0 if game.gravity else abs(cell[0] - centre_row)
                    distance = row_distance + abs(cell[1] - centre_col)
                    bias[action] = 0.5 * (1.0 - distance / farthest)
            self._bias = (game, bias)
        bias = self._bias[1]
        if self._jitter_generator is None:
            return bias
        return bias + _JITTER * self._jitter_generator.random(len(bias))

    def __repr__(self) -> str:
        return (
            f"AlphaBetaAgent(depth={self.depth}, time_limit={self.time_limit}, "
            f"nodes={self.nodes}, table_bits={self.table_bits})"
        )


_prepared: set[BoardGame] = set()  # the games whose search this process has compiled
_prepare_lock = threading.Lock()


def _prepare(state: GameState) -> None:
    """Compile the alpha-beta search of ``state``'s game once per process (see
    :meth:`AlphaBetaAgent.prepare`); the scratch search's own call returns at once."""
    game = state.game
    if game in _prepared:
        return
    with _prepare_lock:
        if game in _prepared:
            return
        _prepared.add(game)  # before the scratch search, which asks again
        try:
            with compiling(f"{game.title} alpha-beta kernels"):
                AlphaBetaAgent(depth=1, table_bits=MIN_TABLE_BITS, seed=0).analyse_state(state)
        except BaseException:
            _prepared.discard(game)
            raise
