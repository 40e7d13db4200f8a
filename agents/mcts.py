"""UCT Monte Carlo tree search with random play-outs, MCTS-Solver and optional RAVE."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents import tree as t
from agents.generic import EnvPosition, generic_simulations
from agents.loop import SearchConfig, run_simulations
from agents.search import DEFAULT_MAX_NODES, DEFAULT_SIMULATIONS, SearchAgent
from connectn_env.games import GameState
from connectn_env.games.validation import require_bool, require_number

DEFAULT_RAVE_EQUIVALENCE = 1000.0
_NO_DATA = np.zeros(0, dtype=np.int64)


class MCTSAgent(SearchAgent):
    """UCT search with one random play-out per simulation.

    On this suite's envs the whole search runs compiled (numba); on any other PettingZoo AEC
    env it walks the same tree in Python and simulates on copies of the env. Proven wins and
    losses propagate (MCTS-Solver): a position won in one move is played out, and a loss in one
    is avoided once the search has visited the threatening replies (with enough simulations to
    try each reply: on a wide board such as Gomoku that takes more than the default budget).

    Args:
        simulations: Simulations per move (int >= 1).
        time_limit: Seconds per move (> 0). With both budgets, the first one spent stops the
            search; with neither, ``simulations=1000``.
        exploration: UCT constant ``c`` in ``Q + c sqrt(ln N / n)`` (values in [-1, 1]).
        rave: Blend in all-moves-as-first values (MC-RAVE, Gelly and Silver 2011).
        rave_equivalence: RAVE schedule ``k`` in ``beta = sqrt(k / (3 N + k))`` (``N``: visits
            of the parent): the AMAF weight halves at about ``N = k``; larger trusts AMAF longer.
        reuse_tree: Keep the subtree of the moves played since the last search.
        max_nodes: Tree size bound (2 to what half the machine's memory holds); when it is
            reached the least visited nodes lose their children and the search goes on (see
            :class:`~agents.search.SearchAgent`). Two buffers of this size are allocated (about
            72 bytes per node each, touched only when used).
        seed: None, an int or a ``np.random.Generator``.
        backend: ``"auto"`` (compiled for this suite's envs), ``"native"`` or ``"generic"``
            (force the env-copying path, for any env).
    """

    def __init__(
        self,
        *,
        simulations: int | None = None,
        time_limit: float | None = None,
        exploration: float = 1.4,
        rave: bool = False,
        rave_equivalence: float = DEFAULT_RAVE_EQUIVALENCE,
        reuse_tree: bool = True,
        max_nodes: int = DEFAULT_MAX_NODES,
        seed: Any = None,
        backend: str = "auto",
    ) -> None:
        if simulations is None and time_limit is None:
            simulations = DEFAULT_SIMULATIONS
        super().__init__(
            simulations=simulations,
            time_limit=time_limit,
            max_nodes=max_nodes,
            reuse_tree=reuse_tree,
            backend=backend,
            seed=seed,
        )
        self.exploration = require_number("exploration", exploration, 0.0)
        self.rave = require_bool("rave", rave)
        self.rave_equivalence = require_number(
            "rave_equivalence", rave_equivalence, 0.0, strict_low=True
        )
        self._mode = t.MODE_RAVE if self.rave else t.MODE_UCT

    def _config(self) -> SearchConfig:
        return SearchConfig(self._mode, self.exploration, self.rave_equivalence, 1, False)

    def _native_simulations(self, state: GameState, rng: np.ndarray, count: int) -> int:
        game = state.game
        workspace = self._compiled_workspace(state)
        return int(
            run_simulations(
                game.kernels,
                None,
                game.params,
                state.data,
                tuple(self._trees[0]),
                self._config(),
                rng,
                workspace,
                _NO_DATA,
                count,
                False,
            )
        )

    def _generic_simulations(self, root: EnvPosition, rng: np.ndarray, count: int) -> int:
        return generic_simulations(
            self._trees[0],
            root,
            count,
            mode=self._mode,
            exploration=self.exploration,
            rave_k=self.rave_equivalence,
            rng=rng,
            generator=self._generator,
            evaluate=None,
            stamp=self._stamp_for(root.num_actions()),
        )

    def __repr__(self) -> str:
        return (
            f"MCTSAgent(simulations={self.simulations}, time_limit={self.time_limit}, "
            f"exploration={self.exploration}, rave={self.rave})"
        )
