"""Evaluation matches: a network against pure UCT MCTS or against another network, many games
at once (the network side searches all its games together on a
:class:`~agents.batched.BatchedSearch`), colours alternating.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from agents.alphazero.inference import NetworkEvaluator
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.batched import BatchedSearch
from agents.mcts import MCTSAgent
from connectn_env.elo import Scored
from connectn_env.games import BoardGame
from connectn_env.games.config import GameConfig

_MCTS_LABEL = re.compile(r"mcts:simulations=(\d+),preset=uct")


def mcts_label(budget: int) -> str:
    """The label of a pure UCT opponent in results and Elo tables (an agent spec)."""
    return f"mcts:simulations={budget},preset=uct"


def mcts_budget(label: str) -> int | None:
    """The simulations of a :func:`mcts_label`, or None for another label."""
    match = _MCTS_LABEL.fullmatch(label)
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class MatchResult(Scored):
    """A match from the first side's point of view (``games`` and ``score``: :class:`Scored`).

    Attributes:
        a, b: Labels of the two sides.
        wins, draws, losses: Games won, drawn and lost by ``a``.
        moves: The moves of each game (game ``i``: ``a`` is player_0 when ``i`` is even).
        points: ``a``'s points in each game (win 1, draw 1/2, loss 0), in the same order.
    """

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    moves: tuple[tuple[int, ...], ...] = ()
    points: tuple[float, ...] = ()

    def score_moving(self, first: bool) -> float | None:
        """Points of ``a`` per game in the games it moved first (``first``) or second; None
        without such games (or without :attr:`points`)."""
        own = self.points[0 if first else 1 :: 2]
        return sum(own) / len(own) if own else None

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "score_first": self.score_moving(first=True),
            "score_second": self.score_moving(first=False),
        }


class Side(Protocol):
    """One side of a match, moving in many games."""

    def reset(self, games: int) -> None:
        """Start ``games`` new games."""

    def moves(self, games: list[int], envs: list[Any]) -> list[int]:
        """The actions of this side in ``games`` (it is to move in each)."""

    def observe(self, game: int, action: int) -> None:
        """``action`` was played in ``game`` (by either side)."""


class NetworkSide:
    """A network with a PUCT search of ``simulations`` per move; its games are searched
    together. The first ``opening_moves`` moves of each game are drawn in proportion to the
    visit counts (so that two deterministic networks play varied games), later ones are the
    best move."""

    def __init__(
        self,
        game: BoardGame,
        evaluator: NetworkEvaluator,
        *,
        simulations: int,
        c_puct: float,
        opening_moves: int = 0,
        seed: Any = None,
    ) -> None:
        self.game = game
        self.evaluator = evaluator
        self.simulations = simulations
        self.c_puct = c_puct
        self.opening_moves = opening_moves
        self.seed = np.random.default_rng(seed)
        self.search: BatchedSearch | None = None

    def reset(self, games: int) -> None:
        self.search = BatchedSearch(
            self.game,
            games,
            simulations=self.simulations,
            c_puct=self.c_puct,
            seed=self.seed,
        )

    def moves(self, games: list[int], envs: list[Any]) -> list[int]:
        search = self.search
        search.run(games, self.evaluator)
        played = np.array([envs[g].game_state.move_number for g in games])
        temperatures = np.where(played < self.opening_moves, 1.0, 0.0)
        return search.choose(games, temperatures).tolist()

    def observe(self, game: int, action: int) -> None:
        self.search.play(game, action)


class MCTSSide:
    """Pure UCT :class:`~agents.MCTSAgent` with ``simulations`` per move, one agent per game."""

    def __init__(self, game: BoardGame, simulations: int, seed: Any = None) -> None:
        self.game = game
        self.simulations = simulations
        self.seed = np.random.default_rng(seed)
        self.agents: list[MCTSAgent] = []

    def reset(self, games: int) -> None:
        bound = 4 * self.simulations * self.game.num_actions + 1  # a search and a reused subtree
        self.agents = [
            MCTSAgent(
                simulations=self.simulations,
                preset="uct",  # pure UCT, as AlphaZero_Gomoku's yardstick
                max_nodes=min(bound, 1_000_000),
                seed=int(self.seed.integers(2**63)),
            )
            for _ in range(games)
        ]

    def moves(self, games: list[int], envs: list[Any]) -> list[int]:
        return [int(self.agents[g].act(envs[g])) for g in games]

    def observe(self, game: int, action: int) -> None:
        """The agent finds its subtree itself (tree reuse from the env's history)."""


def play_match(
    game: BoardGame, a: Side, b: Side, games: int, labels: Sequence[str] = ("a", "b")
) -> MatchResult:
    """Play ``games`` games between ``a`` and ``b``, all at once; ``a`` is player_0 in the
    even-numbered games."""
    config = GameConfig.from_game(game)  # raw AEC envs: an illegal move raises
    envs = [config.make_env() for _ in range(games)]
    for env in envs:
        env.reset()
    a.reset(games)
    b.reset(games)
    moves: list[list[int]] = [[] for _ in range(games)]
    while True:
        open_games = [g for g in range(games) if not envs[g].game_state.is_terminal()]
        if not open_games:
            break
        for side, seat in ((a, 0), (b, 1)):
            mine = [
                g
                for g in open_games
                if not envs[g].game_state.is_terminal()
                and envs[g].game_state.current_player() == (seat if g % 2 == 0 else 1 - seat)
            ]
            if not mine:
                continue
            for g, action in zip(mine, side.moves(mine, envs), strict=True):
                envs[g].step(action)
                moves[g].append(action)
                a.observe(g, action)
                b.observe(g, action)
    points = []
    for g, env in enumerate(envs):
        winner = env.game_state.winner
        points.append(0.5 if winner is None else float(winner == g % 2))
    return MatchResult(
        labels[0],
        labels[1],
        wins=points.count(1.0),
        draws=points.count(0.5),
        losses=points.count(0.0),
        moves=tuple(tuple(m) for m in moves),
        points=tuple(points),
    )


def network_evaluator(
    spec: NetworkSpec,
    weights: dict[str, Any],
    device: Any = "cpu",
    precision: str = "float32",
    batch: int = 1,
) -> NetworkEvaluator:
    """An evaluator of a network with these weights (see :class:`NetworkEvaluator`)."""
    evaluator = NetworkEvaluator(PolicyValueNet(spec), device, precision=precision, batch=batch)
    evaluator.load(weights)
    return evaluator
