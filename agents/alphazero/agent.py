"""A trained network as an agent: PUCT search guided by it, one game at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.alphazero.checkpoint import Checkpoint, cached_checkpoint
from agents.alphazero.config import AlphaZeroOptions
from agents.alphazero.inference import NetworkEvaluator, torch_threads
from agents.alphazero.pretrained import pretrained_checkpoint, require_network_prefix
from agents.envapi import native_state
from agents.puct import PUCTAgent
from agents.search import DEFAULT_MAX_NODES, SearchResult
from connectn_env.games import BoardGame, GameState
from connectn_env.games.config import GameConfig


class AlphaZeroAgent(PUCTAgent):
    """AlphaZero's player: PUCT search whose priors and leaf values come from a trained network
    (the PUCT agent given the network as its ``evaluator``).

    It plays the game (and board size) of its checkpoint, in this suite's envs (the search is
    compiled; the network is called at each new leaf). Usable wherever an agent is: ``connectn
    play``/``arena`` (spec ``az:path=RUN_DIR/best.pt,simulations=200``), the Gymnasium envs'
    ``opponent=``, the play window's analysis overlay.

    Args:
        checkpoint: A :class:`~agents.alphazero.checkpoint.Checkpoint` (see
            :meth:`from_checkpoint` to read one from a file), or None: the network shipped
            with the package for the game of each env it plays (see :meth:`pretrained`).
        simulations: Simulations per move.
        time_limit: Seconds per move (with both budgets, the first one spent stops).
        c_puct: PUCT exploration constant.
        temperature: 0 plays the best move; > 0 samples by ``visits ** (1 / temperature)``.
        reuse_tree: Keep the subtree of the moves played since the last search.
        max_nodes: Tree size bound.
        device: torch device of the network, ``"cpu"`` or ``"cuda"`` (where torch sees a
            CUDA device).
        precision: Inference precision, ``"float32"`` (fastest for one position at a time on
            most CPUs), ``"bfloat16"`` or ``"auto"`` (timed once).
        threads: torch's intra-op threads during each search (spec key ``threads``), or
            None to leave torch's setting alone. One (the default) is the fastest for one
            position at a time: more threads wait on each other at every leaf (on a busy
            two-core machine a 200-simulation move took 17 s with two, 1 s with one).
            torch's setting is the process's, so the agent sets it when a search starts and
            restores it when the search ends.
        exact: The game's exact solver proves root moves first (see
            :class:`~agents.PUCTAgent`; Othello's endgame from 18 empty cells).
        seed: None, an int or a ``np.random.Generator``.

    Raises:
        ValueError: ``device`` or ``precision`` is not one of those, ``device`` is
            ``"cuda"`` on a machine without CUDA, or ``threads`` is below 1.
        TypeError: ``threads`` is not an int or None.
    """

    def __init__(
        self,
        checkpoint: Checkpoint | None,
        *,
        simulations: int | None = 200,
        time_limit: float | None = None,
        c_puct: float = 1.5,
        temperature: float = 0.0,
        reuse_tree: bool = True,
        max_nodes: int = DEFAULT_MAX_NODES,
        device: str = "cpu",
        precision: str = "float32",
        threads: int | None = 1,
        exact: bool = False,
        seed: Any = None,
    ) -> None:
        if checkpoint is not None and not isinstance(checkpoint, Checkpoint):
            raise TypeError(
                f"checkpoint must be a Checkpoint (see AlphaZeroAgent.from_checkpoint) or None "
                f"(the shipped networks), got {type(checkpoint).__name__}"
            )
        AlphaZeroOptions(device=device, precision=precision, threads=threads)  # checked
        if device == "cuda" and not torch.cuda.is_available():
            raise ValueError(
                "device 'cuda' is not available on this machine (torch sees no CUDA device): "
                "use device='cpu'"
            )
        super().__init__(
            evaluator=self._evaluate_leaf,
            simulations=simulations,
            time_limit=time_limit,
            c_puct=c_puct,
            temperature=temperature,
            reuse_tree=reuse_tree,
            max_nodes=max_nodes,
            exact=exact,
            seed=seed,
            backend="native",
        )
        self.device = device
        self.precision = precision
        self.threads = threads
        self.shipped = checkpoint is None
        self.network: str | None = None  # the shipped network's SHA-256 prefix it must have
        self.checkpoint: Checkpoint | None = None
        self.evaluator: NetworkEvaluator | None = None
        if checkpoint is not None:
            self._attach(checkpoint)

    def _attach(self, checkpoint: Checkpoint) -> None:
        """Search with ``checkpoint``'s network from now on."""
        evaluator = NetworkEvaluator(checkpoint.network(), self.device, precision=self.precision)
        self.checkpoint, self.evaluator = checkpoint, evaluator

    @classmethod
    def pretrained(
        cls,
        game: BoardGame | GameConfig | None = None,
        *,
        network: str | None = None,
        **kwargs: Any,
    ) -> AlphaZeroAgent:
        """The agent of the network shipped with the package for ``game`` (spec
        ``az:pretrained``); with None, for the game of each env it is asked to play (loaded
        when first needed). ``kwargs`` as for the constructor.

        Args:
            game: The game, or None for each env's.
            network: None, or the start of the network's SHA-256 (spec key ``network``): the
                shipped network must be that one (a ladder's rung pins the network it rated).
            **kwargs: As for the constructor.

        Raises:
            ValueError: no network ships for ``game`` (the message lists the games with one),
                or the shipped one is not ``network``.
            CheckpointError: the shipped file is missing or fails its checksum.
        """
        require_network_prefix(network)
        agent = cls(None if game is None else pretrained_checkpoint(game, network), **kwargs)
        agent.network = network
        return agent

    @classmethod
    def from_checkpoint(cls, path: str | Path, **kwargs: Any) -> AlphaZeroAgent:
        """The agent of the checkpoint file ``path`` (``RUN_DIR/best.pt``); ``kwargs`` as for
        the constructor.

        Raises:
            CheckpointError: the file is missing, unreadable or not a checkpoint.
        """
        return cls(cached_checkpoint(path), **kwargs)

    def search(self, env: Any, progress: Any = None) -> SearchResult:
        """Search from the env's position (see :meth:`SearchAgent.search`).

        Raises:
            CheckpointError: the env plays another game or board size than the network's (a
                shipped network's agent switches to the game's own, if one ships).
            ValueError: a shipped network's agent on a game that has none.
            TypeError: the env is not one of this suite's.
        """
        state = native_state(env)
        if state is None:
            raise TypeError(f"an AlphaZeroAgent plays this suite's envs only, got {env!r}")
        if self.shipped and (
            self.checkpoint is None or self.checkpoint.game != GameConfig.from_game(state.game)
        ):
            self._attach(pretrained_checkpoint(state.game, self.network))
        self.checkpoint.check_game(state.game)
        with torch_threads(self.threads):
            return super().search(env, progress)

    def _evaluate_leaf(self, leaf: GameState) -> tuple[np.ndarray, float]:
        """The network's (priors, value for the player to move) of a leaf: the search's
        evaluator (:class:`~agents.puct.PUCTAgent`'s ``evaluator``)."""
        player = leaf.current_player()
        priors, values = self.evaluator(
            leaf.observation(player)[None],
            np.array([player]),
            leaf.legal_action_mask()[None],
        )
        return priors[0], float(values[0])

    def __repr__(self) -> str:
        if self.checkpoint is None:
            budget = f"simulations={self.simulations}, c_puct={self.c_puct}"
            return f"AlphaZeroAgent(pretrained, {budget})"
        where = "pretrained" if self.shipped else (self.checkpoint.path or "<memory>")
        return (
            f"AlphaZeroAgent({where}, game={self.checkpoint.game}, "
            f"simulations={self.simulations}, c_puct={self.c_puct})"
        )
