"""The settings of an AlphaZero training run: :class:`TrainConfig` (no torch needed)."""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import options as declare
from agents.rules import PUCT_SELECTIONS
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import (
    require_bool,
    require_choice,
    require_int,
    require_number,
)

__all__ = [
    "DEFAULT_SIMULATIONS",
    "SESSION_FIELDS",
    "AlphaZeroOptions",
    "ConfigError",
    "TrainConfig",
]

DEVICES = ("cpu", "cuda")
MAX_CHANNELS = 1024
MAX_BLOCKS = 64
PRECISIONS = ("auto", "float32", "bfloat16")
INFERENCES = ("eager", "compile")
MAX_MINUTES = 1e6  # about 23 months: a larger budget is a typo (1e300 trained on for ever)
# Self-play simulations per move by root rule: Gumbel's halving learns more per CPU second with
# few (64 beat 32 and PUCT's 200 on 6 x 6 at 5 minutes: benchmarks/README.md)
DEFAULT_SIMULATIONS = {"gumbel": 64, "puct": 200}
# Settings a resumed run may change: how long, where and on what it runs.
SESSION_FIELDS = (
    "out",
    "minutes",
    "games",
    "device",
    "workers",
    "ray",
    "threads",
    "precision",
    "inference",
    "eval_minutes",
    "checkpoint_minutes",
    "resume",
)


@dataclass(frozen=True)
class AlphaZeroOptions:
    """The options of a network agent as declared once (spec ``az:path=FILE,...`` or
    ``az:pretrained,...``; see :class:`~agents.alphazero.AlphaZeroAgent`): made from a spec
    or from the constructor's arguments, it checks them (no torch needed)."""

    path: str | None = declare.option(
        None, str, key="path", help="a checkpoint file (RUN_DIR/best.pt)"
    )
    pretrained: bool = declare.option(
        False, bool, key="pretrained", help="the network shipped for the game"
    )
    network: str | None = declare.option(
        None, str, key="network",
        help="with pretrained: the shipped network must be the one whose SHA-256 starts so",
    )  # fmt: skip
    simulations: int | None = declare.simulations(200)
    time_limit: float | None = declare.time_limit()
    c_puct: float = declare.option(
        1.5, float, low=0.0, high=1e6, key="c", aliases=("c_puct",),
        help="exploration constant c of PUCT",
    )  # fmt: skip
    temperature: float = declare.option(
        0.0, float, low=0.0, high=1e6, key="temperature",
        help="0: the best move; > 0: sampled by visits ** (1 / temperature)",
    )  # fmt: skip
    device: str = declare.option(
        "cpu", str, choices=DEVICES, key="device", help="torch device of the network"
    )
    precision: str = declare.option("float32", str, choices=PRECISIONS, help="inference precision")
    threads: int | None = declare.option(
        1, int, low=1, high=1024, key="threads", optional=True,
        help="torch's threads during each search (None: torch's setting)",
    )  # fmt: skip
    seed: int | None = declare.seed()

    def __post_init__(self) -> None:
        declare.check_fields(self)


class ConfigError(ValueError):
    """A training setting has a bad value (the message names it and what is allowed)."""


@dataclass(frozen=True)
class TrainConfig:
    """What :func:`agents.alphazero.train` does: the game, the budget, the network, self-play,
    learning and evaluation. Every value is checked when the config is made (a bad one raises
    :class:`ConfigError` naming it); ``None`` where allowed means "derived from the game".

    Attributes:
        game: The game: a :class:`~connectn_env.games.config.GameConfig` or a registry name.
        out: The run directory (created; a resumed run reads it).
        minutes: Training time budget of the whole run (resumed sessions included), at most
            :data:`MAX_MINUTES`.
        games: Self-play games budget of the whole run. At least one budget is needed.
        resume: Continue the run in ``out`` (its game and training settings are kept).
        seed: Seed of the network's initial weights, self-play and sampling.
        init: Start a new run from a network's weights instead of random ones: a checkpoint
            file of this game whose network has ``channels`` and ``blocks``, or
            ``"pretrained"`` (the network shipped for the game). The optimizer, replay buffer
            and counters start afresh. None (the default): random weights.
        device: ``"cpu"`` or ``"cuda"`` (training and self-play inference).
        workers: Self-play worker processes (or Ray actors); 0 plays in the driver process.
        ray: Ray address (``"auto"``, ``"ray://host:10001"``, ...): workers are Ray actors.
        threads: torch threads of each process.
        precision: Inference precision of self-play and evaluation: ``"float32"``,
            ``"bfloat16"`` or ``"auto"`` (the faster on this machine, timed once per worker;
            give a fixed one for a reproducible run).
        inference: How self-play runs the network: ``"eager"`` (the default) or ``"compile"``
            (``torch.compile``: faster calls after a compile of seconds in each worker, which
            is announced).
        channels: Convolution channels of the network.
        blocks: Residual blocks of the network.
        simulations: Simulations per self-play move; None: the rule's default
            (:data:`DEFAULT_SIMULATIONS`: 64 for ``"gumbel"``, 200 for ``"puct"``).
        games_in_flight: Self-play games each worker plays at once (the inference batch).
        moves_per_task: Moves every game of a worker makes between weight updates.
        c_puct: PUCT exploration constant.
        selection: The self-play search's root rule: ``"gumbel"`` (the default: Gumbel
            AlphaZero, sequential halving at the root, the improved policy as the target,
            the move halving picked; no Dirichlet noise, no temperature: the Gumbel
            variables are the exploration) or ``"puct"`` (AlphaZero: Dirichlet noise, visit
            counts as the policy target, the first moves sampled by visits). Evaluation and
            play use PUCT either way. A stored config without it (a run started before the
            rule existed) is ``"puct"``.
        full_search_fraction: Playout cap randomization (KataGo): the share of moves searched
            with ``simulations``; the others get ``fast_simulations`` and train the value only.
            1 (the default): off.
        fast_simulations: The fast searches' simulations; None: ``simulations // 6``.
        opening_moves: Randomised openings: each self-play game starts after up to this many
            uniformly random moves (how many drawn uniformly from 0; not trained on). 0 (the
            default): off.
        dirichlet_alpha: Root noise concentration; None: ``min(1, 10 / num_actions)``.
        noise_fraction: Weight of the root noise.
        temperature_moves: Moves of each game drawn in proportion to the visit counts; None:
            about the square root of the number of cells.
        reuse_tree: Keep the subtree of the move played between searches.
        batch_size: Positions per training step.
        learning_rate: AdamW learning rate.
        weight_decay: AdamW weight decay.
        buffer_size: Positions the replay buffer holds (the newest are kept).
        train_ratio: Positions trained on (with repetition) per new self-play position.
        min_buffer: Positions collected before training starts; None: ``4 * batch_size``.
        eval_minutes: Minutes between evaluations (0: none).
        eval_games: Games against each opponent per evaluation (colours alternate).
        eval_simulations: Simulations per move of the network in evaluation games.
        eval_budgets: Simulation budgets of the pure UCT ``MCTSAgent`` opponents; once the
            network scores at least ``raise_budget_at`` against the largest, the next
            evaluations add twice that budget.
        raise_budget_at: Score that adds a stronger MCTS opponent.
        checkpoint_minutes: Minutes between checkpoints (``latest.pt`` and the buffer).
    """

    game: GameConfig | str
    out: Path | str
    minutes: float | None = None
    games: int | None = None
    resume: bool = False
    seed: int = 0
    init: str | None = None
    device: str = "cpu"
    workers: int = 1
    ray: str | None = None
    threads: int = 1
    precision: str = "auto"
    inference: str = "eager"
    channels: int = 32
    blocks: int = 3
    simulations: int | None = None
    games_in_flight: int = 128
    moves_per_task: int = 8
    c_puct: float = 1.5
    selection: str = "gumbel"
    full_search_fraction: float = 1.0
    fast_simulations: int | None = None
    opening_moves: int = 0
    dirichlet_alpha: float | None = None
    noise_fraction: float = 0.25
    temperature_moves: int | None = None
    reuse_tree: bool = True
    batch_size: int = 256
    learning_rate: float = 2e-3
    weight_decay: float = 1e-4
    buffer_size: int = 50_000
    train_ratio: float = 8.0
    min_buffer: int | None = None
    eval_minutes: float = 5.0
    eval_games: int = 10
    eval_simulations: int = 400
    eval_budgets: tuple[int, ...] = field(default=(1000, 2000, 4000))
    raise_budget_at: float = 0.95
    checkpoint_minutes: float = 2.0

    def __post_init__(self) -> None:
        try:
            self._validate()
        except ConfigError:
            raise
        except (TypeError, ValueError) as error:
            raise ConfigError(str(error)) from None

    def _validate(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        game = self.game
        if isinstance(game, str):
            game = GameConfig(game)
        if not isinstance(game, GameConfig):
            raise TypeError(f"game must be a GameConfig or a game name, got {game!r}")
        put("game", game)
        if not isinstance(self.out, str | Path) or not str(self.out):
            raise TypeError(f"out must be a path, got {self.out!r}")
        put("out", Path(self.out))
        if self.minutes is not None:
            put("minutes", require_number("minutes", self.minutes, 0.0, strict_low=True))
            if self.minutes > MAX_MINUTES:
                raise ValueError(
                    f"minutes must be at most {MAX_MINUTES:g} (about 23 months), got "
                    f"{self.minutes:g}"
                )
        if self.games is not None:
            put("games", require_int("games", self.games, 1))
        if self.minutes is None and self.games is None:
            raise ValueError("training needs a budget: give minutes, games or both")
        put("resume", require_bool("resume", self.resume))
        put("seed", require_int("seed", self.seed, 0))
        if self.init is not None:
            if not isinstance(self.init, str | Path) or not str(self.init):
                raise TypeError(
                    f"init must be a checkpoint path or 'pretrained', got {self.init!r}"
                )
            put("init", str(self.init))
        put("device", require_choice("device", self.device, DEVICES))
        put("workers", require_int("workers", self.workers, 0, 4096))
        if self.ray is not None and (not isinstance(self.ray, str) or not self.ray):
            raise TypeError(f"ray must be an address string or None, got {self.ray!r}")
        if self.ray is not None and self.workers == 0:
            raise ValueError("workers must be at least 1 with ray (Ray runs the workers)")
        put("threads", require_int("threads", self.threads, 1, 1024))
        put("precision", require_choice("precision", self.precision, PRECISIONS))
        put("inference", require_choice("inference", self.inference, INFERENCES))
        put("channels", require_int("channels", self.channels, 1, MAX_CHANNELS))
        put("blocks", require_int("blocks", self.blocks, 0, MAX_BLOCKS))
        put("selection", require_choice("selection", self.selection, PUCT_SELECTIONS))
        if self.simulations is None:
            put("simulations", DEFAULT_SIMULATIONS[self.selection])
        put("simulations", require_int("simulations", self.simulations, 1, 1_000_000))
        put("games_in_flight", require_int("games_in_flight", self.games_in_flight, 1, 65536))
        put("moves_per_task", require_int("moves_per_task", self.moves_per_task, 1, 100_000))
        put("c_puct", require_number("c_puct", self.c_puct, 0.0))
        put("full_search_fraction", _fraction("full_search_fraction", self.full_search_fraction))
        if self.fast_simulations is None:
            put("fast_simulations", max(1, self.simulations // 6))
        put(
            "fast_simulations",
            require_int("fast_simulations", self.fast_simulations, 1, self.simulations),
        )
        probe = game.make_game()
        cells = probe.rows * probe.cols
        put("opening_moves", require_int("opening_moves", self.opening_moves, 0, cells))
        if self.dirichlet_alpha is None:
            put("dirichlet_alpha", min(1.0, 10.0 / probe.num_actions))
        put(
            "dirichlet_alpha",
            require_number("dirichlet_alpha", self.dirichlet_alpha, 0.0, strict_low=True),
        )
        put("noise_fraction", _fraction("noise_fraction", self.noise_fraction))
        if self.temperature_moves is None:
            put("temperature_moves", max(1, round(math.sqrt(probe.rows * probe.cols))))
        put("temperature_moves", require_int("temperature_moves", self.temperature_moves, 0))
        put("reuse_tree", require_bool("reuse_tree", self.reuse_tree))
        put("batch_size", require_int("batch_size", self.batch_size, 1, 1 << 20))
        put(
            "learning_rate",
            require_number("learning_rate", self.learning_rate, 0.0, strict_low=True),
        )
        put("weight_decay", require_number("weight_decay", self.weight_decay, 0.0))
        put("buffer_size", require_int("buffer_size", self.buffer_size, self.batch_size))
        put("train_ratio", require_number("train_ratio", self.train_ratio, 0.0, strict_low=True))
        if self.min_buffer is None:
            put("min_buffer", min(4 * self.batch_size, self.buffer_size))
        put("min_buffer", require_int("min_buffer", self.min_buffer, 1, self.buffer_size))
        put("eval_minutes", require_number("eval_minutes", self.eval_minutes, 0.0))
        put("eval_games", require_int("eval_games", self.eval_games, 1, 100_000))
        put("eval_simulations", require_int("eval_simulations", self.eval_simulations, 1))
        budgets = self.eval_budgets
        if isinstance(budgets, list):
            budgets = tuple(budgets)
        if not isinstance(budgets, tuple) or not all(
            isinstance(b, numbers.Integral) and not isinstance(b, bool) and b >= 1 for b in budgets
        ):
            raise TypeError(f"eval_budgets must be a tuple of ints >= 1, got {budgets!r}")
        if len(set(budgets)) != len(budgets):
            raise ValueError(f"eval_budgets must not repeat a budget, got {budgets}")
        put("eval_budgets", tuple(sorted(int(b) for b in budgets)))
        put("raise_budget_at", _fraction("raise_budget_at", self.raise_budget_at))
        put(
            "checkpoint_minutes",
            require_number("checkpoint_minutes", self.checkpoint_minutes, 0.0, strict_low=True),
        )

    # --- persistence -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data (the game as ``{"name", "params"}``)."""
        data = dataclasses.asdict(self) | {
            "game": {"name": self.game.name, "params": dict(self.game.params)},
            "out": str(self.out),
            "eval_budgets": list(self.eval_budgets),
        }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], **changes: Any) -> TrainConfig:
        """The config :meth:`to_json` wrote, with ``changes`` applied.

        Raises:
            ConfigError: unknown or bad settings.
        """
        if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
            raise ConfigError(f"not a training config: {data!r:.200}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown training settings {unknown}")
        game = data["game"]
        try:
            values = {"selection": "puct"} | dict(data)  # written before the rule existed
            values |= {"game": GameConfig(game["name"], dict(game["params"]))}
        except (KeyError, TypeError, ValueError) as error:
            raise ConfigError(f"bad game in training config: {game!r} ({error})") from None
        return cls(**(values | changes))

    def training_differences(self, other: TrainConfig) -> list[str]:
        """The settings (outside :data:`SESSION_FIELDS`) in which ``other`` differs."""
        return [
            f.name
            for f in dataclasses.fields(self)
            if f.name not in SESSION_FIELDS and getattr(self, f.name) != getattr(other, f.name)
        ]


def _fraction(name: str, value: Any) -> float:
    value = require_number(name, value, 0.0)
    if value > 1:
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return value
