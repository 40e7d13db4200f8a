"""AlphaZero self-play on the batched search: many games at once, Dirichlet noise at each root,
a temperature schedule, tree reuse between moves; finished games come back as training data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.batched import BatchedSearch, BatchEvaluator
from agents.rules import search_rules
from connectn_env.games import BoardGame, GameState
from connectn_env.games.compile_notice import compiling
from connectn_env.games.validation import require_fraction, require_int, require_number


@dataclass(frozen=True)
class SelfPlayGame:
    """One finished self-play game, as training data.

    Attributes:
        observations: int8 ``(T, rows, cols, 2)``: each position searched, for its player to move.
        players: int8 ``(T,)``: the player to move.
        masks: int8 ``(T, num_actions)``: legal actions.
        policies: float32 ``(T, num_actions)``: the search's visit shares (the policy target).
        moves: int64 ``(T,)``: the action played.
        result: The result for player 0 (1, -1 or 0).
    """

    observations: np.ndarray
    players: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    moves: np.ndarray
    result: float

    @property
    def values(self) -> np.ndarray:
        """float32 ``(T,)``: the result for the player to move at each position (the value
        target)."""
        return np.where(self.players == 0, self.result, -self.result).astype(np.float32)

    def __len__(self) -> int:
        return len(self.moves)


class BatchedSelfPlay:
    """AlphaZero self-play: ``games`` games played at once on a :class:`BatchedSearch`.

    Every call of :meth:`play` makes ``moves`` moves in every game: each move is a search with
    Dirichlet noise at the root; the first ``temperature_moves`` moves of a game are drawn in
    proportion to the visit counts, later ones are the best move; the subtree of the move is
    kept for the next search. A finished game is handed back and its slot starts a new one.

    Args:
        game: The game.
        games: Games played at once (the evaluator's batch size).
        simulations: Simulations per move.
        c_puct: PUCT's exploration constant.
        dirichlet_alpha: Concentration of the root noise.
        noise_fraction: Weight of the root noise in the priors.
        temperature_moves: Moves of each game played by sampling (temperature 1).
        selection: ``"puct"`` or ``"gumbel"`` (Gumbel AlphaZero: the improved policy as the
            target, the halving's move, no Dirichlet noise; see
            :class:`~agents.batched.BatchedSearch`).
        full_search_fraction: Playout cap randomization (KataGo): each move is a full search
            (``simulations``) with this probability, else a fast one (``fast_simulations``)
            whose position trains the value only (its policy target is all zero). 1: every
            move a full search.
        fast_simulations: The fast searches' simulations; None: ``simulations // 6``.
        opening_moves: Randomised openings: each game starts after ``k`` uniformly random
            legal moves, ``k`` drawn uniformly from 0 to ``opening_moves`` (those moves are not
            searched and not trained on; an opening that ends the game is drawn again). The
            network then also learns positions that self-play between strong players never
            reaches. 0: every game starts from the empty board.
        reuse_tree: Keep the subtree of the move played.
        seed: None, an int or a ``np.random.Generator``.
    """

    def __init__(
        self,
        game: BoardGame,
        games: int,
        *,
        simulations: int,
        c_puct: float = 1.5,
        dirichlet_alpha: float = 0.3,
        noise_fraction: float = 0.25,
        temperature_moves: int = 8,
        selection: str = "puct",
        full_search_fraction: float = 1.0,
        fast_simulations: int | None = None,
        opening_moves: int = 0,
        reuse_tree: bool = True,
        seed: Any = None,
    ) -> None:
        with compiling(f"{game.title} self-play kernels"):
            self.search = BatchedSearch(
                game,
                games,
                simulations=simulations,
                c_puct=c_puct,
                selection=selection,
                reuse_tree=reuse_tree,
                seed=seed,
            )
        self.game = game
        self.dirichlet_alpha = require_number(
            "dirichlet_alpha", dirichlet_alpha, 0.0, strict_low=True
        )
        self.noise_fraction = require_fraction("noise_fraction", noise_fraction)
        self.temperature_moves = require_int("temperature_moves", temperature_moves, 0)
        self.full_search_fraction = require_fraction("full_search_fraction", full_search_fraction)
        if fast_simulations is None:
            fast_simulations = max(1, simulations // 6)
        self.fast_simulations = require_int("fast_simulations", fast_simulations, 1, simulations)
        self.simulations = simulations
        self.opening_moves = require_int("opening_moves", opening_moves, 0, game.rows * game.cols)
        explores = search_rules(selection).root.explores_itself  # Gumbel: no Dirichlet noise
        self._noise = None if explores else (self.dirichlet_alpha, self.noise_fraction)
        self._traces: list[list[tuple[np.ndarray, int, np.ndarray, np.ndarray, int]]] = [
            [] for _ in range(games)
        ]
        self.moves_played = 0
        if self.opening_moves:
            for slot in range(games):
                self._start(slot)

    def play(self, evaluate: BatchEvaluator, moves: int = 1) -> list[SelfPlayGame]:
        """Make ``moves`` moves in every game; return the games that finished, in order (the
        first call's numba compiles are announced: :mod:`connectn_env.games.compile_notice`)."""
        moves = require_int("moves", moves, 1)
        with compiling(f"{self.game.title} self-play kernels"):
            return self._play(evaluate, moves)

    def _play(self, evaluate: BatchEvaluator, moves: int) -> list[SelfPlayGame]:
        search = self.search
        slots = np.arange(search.slots)
        finished = []
        for _ in range(moves):
            if self.full_search_fraction >= 1:
                full = np.ones(len(slots), dtype=bool)  # no draw: runs as before the option
            else:
                full = search.generator.random(len(slots)) < self.full_search_fraction
            budgets = np.where(full, self.simulations, self.fast_simulations)
            search.run(slots, evaluate, simulations=budgets, noise=self._noise)
            policies = search.policies(slots)
            policies[~full] = 0.0  # a fast search's policy is not a target (value only)
            lengths = np.array([len(trace) for trace in self._traces])
            temperatures = np.where(lengths < self.temperature_moves, 1.0, 0.0)
            actions = search.choose(slots, temperatures)
            for slot in slots:
                state = search.state(slot)
                player = state.current_player()
                self._traces[slot].append(
                    (
                        state.observation(player),
                        player,
                        state.legal_action_mask(),
                        policies[slot],
                        int(actions[slot]),
                    )
                )
                search.play(slot, int(actions[slot]))
                self.moves_played += 1
                if search.is_over(slot):
                    finished.append(self._finish(slot))
        return finished

    def _finish(self, slot: int) -> SelfPlayGame:
        trace = self._traces[slot]
        result = float(self.search.state(slot).returns()[0])
        self._traces[slot] = []
        self._start(slot)
        return SelfPlayGame(
            observations=np.stack([step[0] for step in trace]),
            players=np.array([step[1] for step in trace], dtype=np.int8),
            masks=np.stack([step[2] for step in trace]),
            policies=np.stack([step[3] for step in trace]),
            moves=np.array([step[4] for step in trace], dtype=np.int64),
            result=result,
        )

    def _start(self, slot: int) -> None:
        """Start a new game at ``slot``: the empty board, or a random opening."""
        if not self.opening_moves:
            self.search.reset(slot)
            return
        self.search.reset(
            slot, random_opening(self.game, self.opening_moves, self.search.generator)
        )


def random_opening(
    game: BoardGame, opening_moves: int, generator: np.random.Generator, fewest: int = 0
) -> GameState:
    """A position after ``k`` uniformly random legal moves from the start, ``k`` drawn
    uniformly from ``fewest`` to ``opening_moves``; an opening that ends the game is drawn
    again (the randomised openings of self-play and of the bootstrap phase).

    Returns:
        The position (not terminal).
    """
    while True:
        state = game.new_initial_state()
        for _ in range(int(generator.integers(fewest, opening_moves + 1))):
            state.apply_action(int(generator.choice(state.legal_actions())))
            if state.is_terminal():
                break
        if not state.is_terminal():
            return state
