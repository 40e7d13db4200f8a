"""``connectn train GAME [game options] --out RUN_DIR``: AlphaZero self-play training.

The options are :class:`agents.alphazero.TrainConfig`'s fields that declare a flag (their
type, range, help and default come from its field metadata); options not given keep the
config's defaults (a new run) or the run's settings (``--resume``).
"""

from __future__ import annotations

import argparse
import signal
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from agents.options import Option, declared
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


def _flags() -> dict[str, tuple[str, Option]]:
    """``connectn train``'s TrainConfig flags -> (field, declaration), as TrainConfig
    declares them (its fields' metadata: flag, type, range and help)."""
    from agents.alphazero.config import TrainConfig

    return {
        declaration.flag: (name, declaration)
        for name, declaration in declared(TrainConfig).items()
        if declaration.flag is not None
    }


def _argument_type(declaration: Option) -> Callable[[str], Any]:
    if declaration.choices:
        return _one_of(declaration.choices)
    return {int: int, float: float, tuple: _budgets}.get(declaration.kind, str)


def _help(name: str, declaration: Option) -> str:
    """The flag's help: the declared text and the default, where there is one."""
    from agents.alphazero.config import TrainConfig

    default = next(f.default for f in fields(TrainConfig) if f.name == name)
    if default is None:
        return declaration.help
    if isinstance(default, tuple):
        shown = ",".join(map(str, default))
    else:
        shown = default if isinstance(default, str) else f"{default:g}"
    return f"{declaration.help} ({shown})"


def add_train_options(sub: argparse.ArgumentParser) -> None:
    """The options of ``connectn train GAME``: ``--out``, ``--resume``, ``--ray``,
    ``--no-progress`` and one flag per TrainConfig field that declares one."""
    from agents.alphazero.config import SESSION_FIELDS

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
    session = sub.add_argument_group("budget and resources")
    training = sub.add_argument_group("training")
    for flag, (name, declaration) in _flags().items():
        group = session if name in SESSION_FIELDS else training
        group.add_argument(
            flag,
            type=_argument_type(declaration),
            default=None,
            metavar=declaration.metavar or "N",
            help=_help(name, declaration),
        )


def _given(args: argparse.Namespace) -> dict[str, Any]:
    values = {}
    for flag, (name, _) in _flags().items():
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
    from connectn_env.specs import resolve_agent

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
        result = train(config, progress=not args.no_progress, resolve_agent=resolve_agent)
    except KeyboardInterrupt:
        print(f"\ninterrupted: a checkpoint is saved; continue with --resume --out {args.out}")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    minutes = result.seconds / 60
    bootstrap = ""
    if result.bootstrap_games:
        bootstrap = (
            f" after {result.bootstrap_games} bootstrap games ({result.bootstrap_positions} "
            f"positions, {result.bootstrap_cpu_seconds:.1f} CPU seconds)"
        )
    print(
        f"trained {result.games} games ({result.positions} positions, {result.steps} steps)"
        f"{bootstrap} in {minutes:.1f} minutes; network: {result.best}"
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
