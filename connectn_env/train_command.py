"""``connectn train GAME [game options] --out RUN_DIR``: AlphaZero self-play training.

The options map to :class:`agents.alphazero.TrainConfig`; options not given keep the
config's defaults (a new run) or the run's settings (``--resume``).
"""

from __future__ import annotations

import argparse
import signal
from collections.abc import Callable
from typing import Any

from agents.alphazero.config import DEVICES, INFERENCES, PRECISIONS
from agents.rules import PUCT_SELECTIONS
from connectn_env.arena.ray_pool import connect_ray
from connectn_env.gameoptions import path_argument


def _budgets(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected simulation budgets separated by commas (1000,2000,4000), got {text!r}"
        ) from None


_budgets.__name__ = "budget list"


def _one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    """An argparse type that accepts one of ``choices`` ("expected a, b or c" otherwise)."""
    listed = f"{', '.join(choices[:-1])} or {choices[-1]}"

    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"expected {listed}, got {text!r}")
        return text

    return parse


_precision = _one_of(PRECISIONS)
_inference = _one_of(INFERENCES)
_device = _one_of(DEVICES)
_selection = _one_of(PUCT_SELECTIONS)

_METAVARS = {
    _budgets: "N,N,...",
    _device: "DEVICE",
    _precision: "P",
    _inference: "MODE",
    _selection: "RULE",
    str: "NETWORK",
}

# option -> (TrainConfig field, type, help); all default to None (= not given)
_TRAINING: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "--simulations": (
        "simulations",
        int,
        "simulations per self-play move (64 with --selection gumbel, 200 with puct)",
    ),
    "--games-in-flight": (
        "games_in_flight",
        int,
        "self-play games each worker plays at once, the inference batch (128)",
    ),
    "--moves-per-task": ("moves_per_task", int, "moves per game between weight updates (8)"),
    "--c-puct": ("c_puct", float, "PUCT exploration constant (1.5)"),
    "--selection": (
        "selection",
        _selection,
        "self-play root rule: gumbel (Gumbel AlphaZero: sequential halving, improved-policy "
        "targets, no Dirichlet noise) or puct (AlphaZero) (gumbel)",
    ),
    "--full-search-fraction": (
        "full_search_fraction",
        float,
        "playout cap randomization: the share of moves searched with --simulations; the others "
        "get --fast-simulations and train the value only (1: off)",
    ),
    "--fast-simulations": (
        "fast_simulations",
        int,
        "simulations of the fast searches (simulations // 6); only with "
        "--full-search-fraction below 1",
    ),
    "--opening-moves": (
        "opening_moves",
        int,
        "randomised openings: each self-play game starts after 0 to this many uniformly random "
        "moves, not trained on (0: off)",
    ),
    "--dirichlet-alpha": ("dirichlet_alpha", float, "root noise (min(1, 10 / actions))"),
    "--noise-fraction": ("noise_fraction", float, "weight of the root noise (0.25)"),
    "--temperature-moves": (
        "temperature_moves",
        int,
        "moves per game drawn by visit counts (about sqrt(cells))",
    ),
    "--init": (
        "init",
        str,
        "start from this network's weights: a checkpoint of the game with the run's "
        "--channels and --blocks, or pretrained (the shipped network); default: random",
    ),
    "--channels": ("channels", int, "network channels (32)"),
    "--blocks": ("blocks", int, "residual blocks (3)"),
    "--batch-size": ("batch_size", int, "positions per training step (256)"),
    "--learning-rate": ("learning_rate", float, "AdamW learning rate (0.002)"),
    "--weight-decay": ("weight_decay", float, "AdamW weight decay (0.0001)"),
    "--buffer-size": ("buffer_size", int, "positions in the replay buffer (50000)"),
    "--train-ratio": ("train_ratio", float, "positions trained per self-play position (8)"),
    "--eval-games": (
        "eval_games",
        int,
        "games per opponent per evaluation (10); the first evaluation plays a fifth, at least 2",
    ),
    "--eval-simulations": ("eval_simulations", int, "network simulations in evaluation (400)"),
    "--eval-budgets": (
        "eval_budgets",
        _budgets,
        "MCTS opponents' simulations, comma-separated (1000,2000,4000)",
    ),
}
_SESSION: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "--minutes": (
        "minutes",
        float,
        "training time budget of the whole run; it starts once the workers have compiled "
        "their code (announced)",
    ),
    "--games": ("games", int, "self-play games budget of the whole run"),
    "--seed": ("seed", int, "seed of a new run (0)"),
    "--device": ("device", _device, "cpu (default) or cuda"),
    "--workers": (
        "workers",
        int,
        "self-play worker processes or Ray actors; 0: in this process (1)",
    ),
    "--threads": ("threads", int, "torch threads per process (1)"),
    "--precision": (
        "precision",
        _precision,
        "inference precision: auto (the faster here, timed once), float32 or bfloat16",
    ),
    "--inference": (
        "inference",
        _inference,
        "how self-play runs the network: eager (default) or compile (torch.compile: faster "
        "calls after a compile of seconds in each worker, announced)",
    ),
    "--eval-minutes": (
        "eval_minutes",
        float,
        "minutes between evaluations, 0 for none (5). The first, short, comes once the network "
        "has trained; once the budget is spent, a final one evaluates the last network (after "
        "the budget: the time it takes is printed) unless the last evaluated one is from the "
        "last tenth of the run, so best.pt is always an evaluated network",
    ),
    "--checkpoint-minutes": ("checkpoint_minutes", float, "minutes between checkpoints (2)"),
}


def add_train_options(sub: argparse.ArgumentParser) -> None:
    """The options of ``connectn train GAME``."""
    sub.add_argument(
        "--out", type=path_argument, required=True, metavar="RUN_DIR", help="run directory"
    )
    sub.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in RUN_DIR from its latest.pt (its game and training settings "
        "stay); every file of the run is checked first, and a missing or damaged one stops "
        "the resume with nothing changed. To start afresh, train into a new --out directory",
    )
    sub.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run the workers as Ray actors: auto (this machine's cluster), ray://HOST:10001, "
        "or local (start Ray here)",
    )
    sub.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    for options, title in ((_SESSION, "budget and resources"), (_TRAINING, "training")):
        group = sub.add_argument_group(title)
        for flag, (_, kind, text) in options.items():
            metavar = _METAVARS.get(kind, "N")
            group.add_argument(flag, type=kind, default=None, metavar=metavar, help=text)


def _given(args: argparse.Namespace) -> dict[str, Any]:
    values = {}
    for flag, (name, _, _) in {**_SESSION, **_TRAINING}.items():
        value = getattr(args, flag.lstrip("-").replace("-", "_"))
        if value is not None:
            values[name] = value
    if args.ray is not None:
        values["ray"] = args.ray
    return values


def run_train_command(args: argparse.Namespace) -> int:
    """Run ``connectn train``.

    Raises:
        ImportError: torch is not installed.
        ConnectnError: a bad setting, run directory or checkpoint (``ConfigError``,
            ``RunDirectoryError``, ``CheckpointError``), a failed worker or Ray.
    """
    from agents.alphazero import ConfigError, TrainConfig, resume_config, train

    given = _given(args)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # `kill`: as Ctrl-C, workers stopped
    try:
        if args.resume:
            config = resume_config(args.out, game=args.game_config, **given)
        else:
            config = TrainConfig(game=args.game_config, out=args.out, **given)
        if args.fast_simulations is not None and config.full_search_fraction == 1:
            raise ConfigError(
                f"--fast-simulations {args.fast_simulations} does nothing: the fast searches "
                "are those of playout cap randomization, off with --full-search-fraction 1; "
                "give --full-search-fraction below 1 (the share of moves searched with "
                "--simulations)"
            )
        if config.ray is not None:
            connect_ray(config.ray)  # a bad --ray is named here, before the trainer starts
        result = train(config, progress=not args.no_progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted: a checkpoint is saved; continue with --resume --out {args.out}")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    minutes = result.seconds / 60
    print(
        f"trained {result.games} games ({result.positions} positions, {result.steps} steps) "
        f"in {minutes:.1f} minutes; network: {result.best}"
    )
    final = [e for e in result.evaluations if e.get("after_budget")]
    if final:
        print(f"final evaluation, after the training budget: {final[-1]['eval_seconds']:.0f} s")
    print(_elo_line(result.evaluations))
    print(f"play it: connectn play {_game_arguments(config)} --opponent az:path={result.best}")
    return 0


def _elo_line(evaluations: list[dict[str, Any]]) -> str:
    """The Elo of the last evaluated network with the games it rests on, or why there is
    none: a rating is printed only where games measured it (the MCTS opponents never play
    one another, so theirs are not printed)."""
    if not evaluations:
        return "Elo: not measured (no evaluation: evaluations are off with --eval-minutes 0)"
    from agents.alphazero.evaluation import mcts_budget

    last = evaluations[-1]
    label, rating = last["label"], last["elo"].get(last["label"])
    results = [r for e in evaluations for r in e["results"] if r["a"] == label]
    won, drawn, lost = (sum(r[key] for r in results) for key in ("wins", "draws", "losses"))
    if rating is None or not results:
        return f"Elo of {label}: not measured (no game finished)"
    budgets = [b for e in evaluations for r in e["results"] if (b := mcts_budget(r["b"]))]
    return (
        f"Elo of {label}, the last evaluated network: {rating:+.0f} (plain UCT at "
        f"{min(budgets)} simulations = 0), from {won + drawn + lost} games: {won} won, {drawn} "
        f"drawn, {lost} lost"
    )


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM handler: stop the training as Ctrl-C does (a checkpoint, the workers closed);
    a background job ignores SIGINT, and a killed trainer used to leave its workers running."""
    raise KeyboardInterrupt


def _game_arguments(config: Any) -> str:
    """GAME and its options as typed on the command line."""
    from connectn_env.games import REGISTRY

    game = config.game
    words = [game.name]
    if not REGISTRY[game.name].is_preset:
        for name, value in game.params.items():
            if isinstance(value, bool):
                words.append(f"--{name}" if value else f"--no-{name}")
            elif value is not None:
                words.append(f"--{name} {value}")
    return " ".join(words)
