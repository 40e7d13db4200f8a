"""What runs in the worker processes (or Ray actors): batched self-play, and evaluation matches.

Both classes are built from plain data (a game as ``{"name", "params"}``, a network spec as a
dict) and receive the network's weights as numpy arrays, so that they can live in another
process or on another machine.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass
from typing import Any

import torch

from agents.alphazero.bootstrap import (
    BootstrapGame,
    BootstrapTask,
    play_bootstrap_game,
    warm_up_agent,
)
from agents.alphazero.evaluation import (
    MatchResult,
    MCTSSide,
    NetworkSide,
    mcts_label,
    network_evaluator,
    play_match,
)
from agents.alphazero.inference import NetworkEvaluator
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.selfplay import BatchedSelfPlay, SelfPlayGame
from connectn_env.games.config import GameConfig


def peak_rss_mb() -> float:
    """Peak resident memory of this process, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    """Resident memory of this process now, in MiB (the peak where /proc is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return peak_rss_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def _game(game: dict[str, Any]) -> Any:
    return GameConfig(game["name"], dict(game["params"])).make_game()


@dataclass(frozen=True)
class SelfPlayOutput:
    """What a self-play task returns.

    Attributes:
        games: The games finished during the task.
        positions: Moves played (searches run) during the task.
        seconds: Time of the task.
        network_seconds: Time spent in the network.
        rss_mb: Resident memory of the worker at the end of the task.
        peak_rss_mb: Its peak resident memory so far.
    """

    games: list[SelfPlayGame]
    positions: int
    seconds: float
    network_seconds: float
    rss_mb: float
    peak_rss_mb: float


class SelfPlayWorker:
    """Plays ``settings["games_in_flight"]`` self-play games at once; :meth:`play` advances
    them with the given weights (games in progress continue across calls).

    Args:
        game: ``{"name", "params"}`` of the game.
        spec: :class:`NetworkSpec` data.
        settings: ``simulations``, ``games_in_flight``, ``c_puct``, ``dirichlet_alpha``,
            ``noise_fraction``, ``temperature_moves``, ``selection``,
            ``full_search_fraction``, ``fast_simulations``, ``opening_moves``, ``reuse_tree``,
            ``precision``, ``inference``.
        seed: Seed of this worker's games.
        threads: torch threads.
        device: torch device.
    """

    def __init__(
        self,
        game: dict[str, Any],
        spec: dict[str, Any],
        settings: dict[str, Any],
        seed: int,
        threads: int,
        device: str,
    ) -> None:
        torch.set_num_threads(threads)
        inference = settings.get("inference", "eager")  # (older benchmark settings lack it)
        if inference == "compile":
            # compile in this process: a pool of compile processes leaves semaphores behind
            # when the trainer kills a worker busy at the end of the budget
            import torch._inductor.config as inductor_config

            inductor_config.compile_threads = 1
        self.game_config = GameConfig(game["name"], dict(game["params"]))
        self.board_game = self.game_config.make_game()
        self.evaluator = NetworkEvaluator(
            PolicyValueNet(NetworkSpec.from_json(spec)),
            device,
            precision=settings["precision"],
            batch=settings["games_in_flight"],
            inference=inference,
        )
        self.settings = settings
        self.selfplay = self._selfplay(settings["games_in_flight"], seed)
        self.version: int | None = None

    def _selfplay(self, games: int, seed: int) -> BatchedSelfPlay:
        settings = self.settings
        return BatchedSelfPlay(
            self.board_game,
            games,
            simulations=settings["simulations"],
            c_puct=settings["c_puct"],
            dirichlet_alpha=settings["dirichlet_alpha"],
            noise_fraction=settings["noise_fraction"],
            temperature_moves=settings["temperature_moves"],
            selection=settings.get("selection", "puct"),
            full_search_fraction=settings.get("full_search_fraction", 1.0),
            fast_simulations=settings.get("fast_simulations"),
            opening_moves=settings.get("opening_moves", 0),
            reuse_tree=settings["reuse_tree"],
            seed=seed,
        )

    def warm_up(self, bootstrap: BootstrapTask | None = None) -> float:
        """Compile what self-play runs (numba's search kernels; the network's
        ``torch.compile`` with ``inference="compile"``) on a throwaway game, and what the
        agent of a ``bootstrap`` phase runs, leaving this worker's games and generators as
        they were; returns the seconds it took."""
        start = time.perf_counter()
        self._selfplay(1, 0).play(self.evaluator, 1)
        if bootstrap is not None:
            warm_up_agent(bootstrap, self.game_config)
        return time.perf_counter() - start

    def bootstrap(self, task: BootstrapTask) -> BootstrapGame:
        """Play a game of the bootstrap phase (:mod:`agents.alphazero.bootstrap`)."""
        return play_bootstrap_game(task, self.game_config)

    def play(self, weights: dict[str, Any], version: int, moves: int) -> SelfPlayOutput:
        """Make ``moves`` moves in every game with the network ``weights`` (loaded when
        ``version`` changes)."""
        start = time.perf_counter()
        if version != self.version:
            self.evaluator.load(weights)
            self.version = version
        network_before = self.evaluator.seconds
        moves_before = self.selfplay.moves_played
        games = self.selfplay.play(self.evaluator, moves)
        return SelfPlayOutput(
            games=games,
            positions=self.selfplay.moves_played - moves_before,
            seconds=time.perf_counter() - start,
            network_seconds=self.evaluator.seconds - network_before,
            rss_mb=rss_mb(),
            peak_rss_mb=peak_rss_mb(),
        )


@dataclass(frozen=True)
class EvaluationTask:
    """An evaluation of one checkpoint.

    Attributes:
        label: The checkpoint's label.
        weights: Its weights.
        previous: ``(label, weights)`` of the previous evaluated checkpoint, or None.
        budgets: Simulation budgets of the pure UCT opponents.
        games: Games per opponent.
        simulations: Simulations per move of the networks.
        c_puct: Their PUCT constant.
        opening_moves: Moves drawn by visit counts at the start of network-against-network
            games (two networks would otherwise play the same games over and over).
        seed: Seed of the match.
    """

    label: str
    weights: dict[str, Any]
    previous: tuple[str, dict[str, Any]] | None
    budgets: tuple[int, ...]
    games: int
    simulations: int
    c_puct: float
    opening_moves: int
    seed: int


class EvaluationWorker:
    """Plays evaluation matches for the trainer (see :class:`EvaluationTask`)."""

    def __init__(
        self, game: dict[str, Any], spec: dict[str, Any], threads: int, device: str, precision: str
    ):
        torch.set_num_threads(threads)
        self.game = _game(game)
        self.spec = NetworkSpec.from_json(spec)
        self.device = device
        self.precision = precision

    def warm_up(self) -> float:
        """Compile what an evaluation runs (the network's PUCT search and pure UCT's kernels)
        with one short game of each side's first move rule; returns the seconds it took."""
        start = time.perf_counter()
        with torch.random.fork_rng(devices=[]):  # the process's generator is left alone
            network = PolicyValueNet(self.spec)
        weights = {k: v.numpy() for k, v in network.state_dict().items()}
        evaluator = network_evaluator(self.spec, weights, self.device, self.precision, 2)
        side = NetworkSide(self.game, evaluator, simulations=2, c_puct=1.0, opening_moves=1)
        play_match(self.game, side, MCTSSide(self.game, 2), 2)
        return time.perf_counter() - start

    def evaluate(self, task: EvaluationTask) -> list[MatchResult]:
        """The checkpoint against each MCTS budget, then against the previous checkpoint."""
        evaluator = network_evaluator(
            self.spec, task.weights, self.device, self.precision, task.games
        )
        results = []
        for k, budget in enumerate(task.budgets):
            network = NetworkSide(
                self.game,
                evaluator,
                simulations=task.simulations,
                c_puct=task.c_puct,
                seed=(task.seed, k, 0),
            )
            mcts = MCTSSide(self.game, budget, seed=(task.seed, k, 1))
            labels = (task.label, mcts_label(budget))
            results.append(play_match(self.game, network, mcts, task.games, labels))
        if task.previous is not None:
            label, weights = task.previous
            sides = [
                NetworkSide(
                    self.game,
                    network_evaluator(self.spec, w, self.device, self.precision, task.games),
                    simulations=task.simulations,
                    c_puct=task.c_puct,
                    opening_moves=task.opening_moves,
                    seed=(task.seed, len(task.budgets), side),
                )
                for side, w in enumerate((task.weights, weights))
            ]
            results.append(play_match(self.game, *sides, task.games, (task.label, label)))
        return results
