"""The settings of an AlphaZero training run: :class:`TrainConfig` (no torch needed)."""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents import options as declare
from agents.alphazero.bootstrap import opening_moves_of
from agents.rules import PUCT_SELECTIONS
from connectn_env.errors import ConnectnError
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int

DEVICES = ("cpu", "cuda")
MAX_CHANNELS = 1024
MAX_BLOCKS = 64
PRECISIONS = ("auto", "float32", "bfloat16")
INFERENCES = ("eager", "compile")
MAX_MINUTES = 1e6  # about 23 months: a larger budget is a typo (1e300 trained on for ever)
# Self-play simulations per move by root rule: Gumbel's halving learns more per CPU second with
# few (64 beat 32 and PUCT's 200 on 6 x 6 at 5 minutes: benchmarks/README.md)
DEFAULT_SIMULATIONS = {"gumbel": 64, "puct": 200}
DEFAULT_BOOTSTRAP_GAMES = 100
MAX_BOOTSTRAP_GAMES = 10_000_000
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
    c_puct: float = declare.c_puct(1.5)
    temperature: float = declare.temperature()
    device: str = declare.option(
        "cpu", str, choices=DEVICES, key="device", help="torch device of the network"
    )
    precision: str = declare.option("float32", str, choices=PRECISIONS, help="inference precision")
    threads: int | None = declare.option(
        1, int, low=1, high=1024, key="threads", optional=True,
        help="torch's threads during each search (None: torch's setting)",
    )  # fmt: skip
    exact: bool = declare.exact(False)
    seed: int | None = declare.seed()

    def __post_init__(self) -> None:
        declare.check_fields(self)


class ConfigError(ValueError, ConnectnError):
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
            file of this game (any board size, whose actions are laid out as this run's)
            whose network has ``channels`` and ``blocks``, or ``"pretrained"`` (the network
            shipped for the game). The optimizer, replay buffer and counters start afresh.
            None (the default): random weights.
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
        bootstrap: The agent spec of the bootstrap phase (:mod:`agents.alphazero.bootstrap`):
            before self-play it plays ``bootstrap_games`` games against itself and the network
            trains on their positions. None (the default): no bootstrap phase.
        bootstrap_games: Games of the bootstrap phase; None: :data:`DEFAULT_BOOTSTRAP_GAMES`
            with ``bootstrap``, none without.
        bootstrap_min_opening: The fewest random opening moves of a bootstrap game (at most
            its most: ``opening_moves``, or about the square root of the number of cells
            where that is 0), so that an agent that solves (Connect Four's ``perfect``)
            starts where it solves fast. 0 (the default): from the empty board up.
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
    minutes: float | None = declare.option(
        None, float, low=0.0, strict=True, flag="--minutes", metavar="N",
        help="training time budget of the whole run; it starts once the workers have compiled "
        "their code (announced)",
    )  # fmt: skip
    games: int | None = declare.option(
        None, int, low=1, flag="--games", help="self-play games budget of the whole run"
    )
    resume: bool = declare.option(False, bool)
    seed: int = declare.option(0, int, low=0, flag="--seed", help="seed of a new run")
    init: str | None = declare.option(
        None, Path, flag="--init", metavar="NETWORK",
        help="start from this network's weights: a checkpoint of the game (any board size) "
        "with the run's --channels and --blocks, or pretrained (the shipped network); "
        "default: random",
    )  # fmt: skip
    device: str = declare.option(
        "cpu", str, choices=DEVICES, flag="--device", metavar="DEVICE", help="cpu or cuda"
    )
    workers: int = declare.option(
        1, int, low=0, high=4096, flag="--workers",
        help="self-play worker processes or Ray actors; 0: in this process",
    )  # fmt: skip
    ray: str | None = None
    threads: int = declare.option(
        1, int, low=1, high=1024, flag="--threads", help="torch threads per process"
    )
    precision: str = declare.option(
        "auto", str, choices=PRECISIONS, flag="--precision", metavar="P",
        help="inference precision: auto (the faster here, timed once), float32 or bfloat16",
    )  # fmt: skip
    inference: str = declare.option(
        "eager", str, choices=INFERENCES, flag="--inference", metavar="MODE",
        help="how self-play runs the network: eager or compile (torch.compile: faster calls "
        "after a compile of seconds in each worker, announced)",
    )  # fmt: skip
    channels: int = declare.option(
        32, int, low=1, high=MAX_CHANNELS, flag="--channels", help="network channels"
    )
    blocks: int = declare.option(
        3, int, low=0, high=MAX_BLOCKS, flag="--blocks", help="residual blocks"
    )
    simulations: int | None = declare.option(
        None, int, low=1, high=1_000_000, flag="--simulations",
        help="simulations per self-play move (64 with --selection gumbel, 200 with puct)",
    )  # fmt: skip
    games_in_flight: int = declare.option(
        128, int, low=1, high=65536, flag="--games-in-flight",
        help="self-play games each worker plays at once, the inference batch",
    )  # fmt: skip
    moves_per_task: int = declare.option(
        8, int, low=1, high=100_000, flag="--moves-per-task",
        help="moves per game between weight updates",
    )  # fmt: skip
    c_puct: float = declare.option(
        1.5, float, low=0.0, flag="--c-puct", help="PUCT exploration constant"
    )
    selection: str = declare.option(
        "gumbel", str, choices=PUCT_SELECTIONS, flag="--selection", metavar="RULE",
        help="self-play root rule: gumbel (Gumbel AlphaZero: sequential halving, "
        "improved-policy targets, no Dirichlet noise) or puct (AlphaZero)",
    )  # fmt: skip
    full_search_fraction: float = declare.option(
        1.0, float, low=0.0, high=1.0, flag="--full-search-fraction",
        help="playout cap randomization: the share of moves searched with --simulations; the "
        "others get --fast-simulations and train the value only; 1 turns it off",
    )  # fmt: skip
    fast_simulations: int | None = declare.option(
        None, int, low=1, flag="--fast-simulations",
        help="simulations of the fast searches (simulations // 6); only with "
        "--full-search-fraction below 1",
    )  # fmt: skip
    opening_moves: int = declare.option(
        0, int, low=0, flag="--opening-moves",
        help="randomised openings: each self-play game starts after 0 to this many uniformly "
        "random moves, not trained on; 0 turns it off",
    )  # fmt: skip
    bootstrap: str | None = declare.option(
        None, str, flag="--bootstrap", metavar="SPEC",
        help="bootstrap phase: before self-play, this agent (an agent spec: "
        "mcts:simulations=2000, ab:depth=6...) plays --bootstrap-games games against itself "
        "from random openings, and the network trains on them (its search's policy, or its "
        "move, and the results as targets)",
    )  # fmt: skip
    bootstrap_games: int | None = declare.option(
        None, int, low=1, high=MAX_BOOTSTRAP_GAMES, flag="--bootstrap-games",
        help=f"games of the bootstrap phase ({DEFAULT_BOOTSTRAP_GAMES}; needs --bootstrap)",
    )  # fmt: skip
    bootstrap_min_opening: int = declare.option(
        0, int, low=0, flag="--bootstrap-min-opening",
        help="the fewest random opening moves of a bootstrap game (at most --opening-moves, "
        "or about sqrt(cells) where that is 0), so that a solver (perfect) starts where it "
        "solves fast; needs --bootstrap",
    )  # fmt: skip
    dirichlet_alpha: float | None = declare.option(
        None, float, low=0.0, strict=True, flag="--dirichlet-alpha",
        help="root noise (min(1, 10 / actions))",
    )  # fmt: skip
    noise_fraction: float = declare.option(
        0.25, float, low=0.0, high=1.0, flag="--noise-fraction", help="weight of the root noise"
    )
    temperature_moves: int | None = declare.option(
        None, int, low=0, flag="--temperature-moves",
        help="moves per game drawn by visit counts (about sqrt(cells))",
    )  # fmt: skip
    reuse_tree: bool = declare.option(True, bool)
    batch_size: int = declare.option(
        256, int, low=1, high=1 << 20, flag="--batch-size", help="positions per training step"
    )
    learning_rate: float = declare.option(
        2e-3, float, low=0.0, strict=True, flag="--learning-rate", help="AdamW learning rate"
    )
    weight_decay: float = declare.option(
        1e-4, float, low=0.0, flag="--weight-decay", help="AdamW weight decay"
    )
    buffer_size: int = declare.option(
        50_000, int, low=1, flag="--buffer-size", help="positions in the replay buffer"
    )
    train_ratio: float = declare.option(
        8.0, float, low=0.0, strict=True, flag="--train-ratio",
        help="positions trained per self-play position",
    )  # fmt: skip
    min_buffer: int | None = declare.option(None, int, low=1)
    eval_minutes: float = declare.option(
        5.0, float, low=0.0, flag="--eval-minutes",
        help="minutes between evaluations, 0 for none. The first, short, comes once the "
        "network has trained; once the budget is spent, a final one evaluates the last network "
        "(after the budget: the time it takes is printed) unless the last evaluated one is "
        "from the last tenth of the run, so best.pt is always an evaluated network",
    )  # fmt: skip
    eval_games: int = declare.option(
        10, int, low=1, high=100_000, flag="--eval-games",
        help="games per opponent per evaluation; the first evaluation plays a fifth, at least 2",
    )  # fmt: skip
    eval_simulations: int = declare.option(
        400, int, low=1, flag="--eval-simulations", help="network simulations in evaluation"
    )
    eval_budgets: tuple[int, ...] = declare.option(
        (1000, 2000, 4000), tuple, flag="--eval-budgets", metavar="N,N,...",
        help="MCTS opponents' simulations, comma-separated",
    )  # fmt: skip
    raise_budget_at: float = declare.option(0.95, float, low=0.0, high=1.0)
    checkpoint_minutes: float = declare.option(
        2.0, float, low=0.0, strict=True, flag="--checkpoint-minutes",
        help="minutes between checkpoints",
    )  # fmt: skip

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
        if self.init is not None:
            if not isinstance(self.init, str | Path) or not str(self.init):
                raise TypeError(
                    f"init must be a checkpoint path or 'pretrained', got {self.init!r}"
                )
            put("init", str(self.init))
        if self.ray is not None and (not isinstance(self.ray, str) or not self.ray):
            raise TypeError(f"ray must be an address string or None, got {self.ray!r}")
        declare.check_fields(self)  # each declared value in its range
        if self.minutes is not None and self.minutes > MAX_MINUTES:
            raise ValueError(
                f"minutes must be at most {MAX_MINUTES:g} (about 23 months), got {self.minutes:g}"
            )
        if self.minutes is None and self.games is None:
            raise ValueError("training needs a budget: give minutes, games or both")
        if self.ray is not None and self.workers == 0:
            raise ValueError("workers must be at least 1 with ray (Ray runs the workers)")
        if self.simulations is None:
            put("simulations", DEFAULT_SIMULATIONS[self.selection])
        if self.fast_simulations is None:
            put("fast_simulations", max(1, self.simulations // 6))
        put(
            "fast_simulations",
            require_int("fast_simulations", self.fast_simulations, 1, self.simulations),
        )
        probe = game.make_game()
        cells = probe.rows * probe.cols
        put("opening_moves", require_int("opening_moves", self.opening_moves, 0, cells))
        if self.bootstrap is not None and not self.bootstrap.strip():
            raise ValueError(f"bootstrap must be an agent spec, got {self.bootstrap!r}")
        if self.bootstrap is None and self.bootstrap_games is not None:
            raise ValueError(
                f"bootstrap_games {self.bootstrap_games} needs bootstrap, the agent that plays "
                "them (an agent spec: mcts:simulations=2000, ab:depth=6...)"
            )
        if self.bootstrap is not None and self.bootstrap_games is None:
            put("bootstrap_games", DEFAULT_BOOTSTRAP_GAMES)
        if self.bootstrap_min_opening:
            if self.bootstrap is None:
                raise ValueError(
                    f"bootstrap_min_opening {self.bootstrap_min_opening} needs bootstrap, the "
                    "agent that plays from those openings"
                )
            most = opening_moves_of(probe, self.opening_moves)
            require_int("bootstrap_min_opening", self.bootstrap_min_opening, 0, most)
        if self.dirichlet_alpha is None:
            put("dirichlet_alpha", min(1.0, 10.0 / probe.num_actions))
        if self.temperature_moves is None:
            put("temperature_moves", max(1, round(math.sqrt(cells))))
        put("buffer_size", require_int("buffer_size", self.buffer_size, self.batch_size))
        if self.min_buffer is None:
            put("min_buffer", min(4 * self.batch_size, self.buffer_size))
        put("min_buffer", require_int("min_buffer", self.min_buffer, 1, self.buffer_size))
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
