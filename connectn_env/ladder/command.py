"""The ``connectn ladder`` and ``connectn evaluate`` commands: their options and what they
run."""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from connectn_env.arena.lifeline import exit_on_termination
from connectn_env.arena.outputs import check_output_file, check_separate_files
from connectn_env.arena.tournament import MAX_MOVE_TIMEOUT, MAX_WORKERS
from connectn_env.atomic_write import write_text_atomically
from connectn_env.gameoptions import ascii_float, path_argument
from connectn_env.ladder.build import build_ladder
from connectn_env.ladder.evaluation import DEFAULT_GAMES, Evaluation, evaluate
from connectn_env.ladder.games import ladder_key
from connectn_env.ladder.ladderfile import (
    DEFAULT_HELD_OUT,
    MAX_HELD_OUT,
    load_ladder,
    shipped_ladder,
)
from connectn_env.ladder.matches import DEFAULT_MOVE_TIMEOUT
from connectn_env.ladder.movequality import MoveQuality, move_quality
from connectn_env.ladder.sprt import (
    DEFAULT_MAX_GAMES,
    MAX_ELO_BOUND,
    MIN_ELO_GAP,
    MIN_PROBABILITY,
    SPRTResult,
    sprt,
)
from connectn_env.safetext import printable
from connectn_env.same_file import check_outputs, spec_inputs

IntType = Callable[[str], int]
_NEGATIVE_VALUE = re.compile(r"^-\.?[0-9]")


def add_ladder_build_options(
    sub: argparse.ArgumentParser, count: IntType, workers: IntType, seed: IntType
) -> None:
    """``connectn ladder build GAME``'s options (``count``, ``workers``, ``seed``: the CLI's
    integer types)."""
    sub.add_argument(
        "--games-per-pair", type=count, default=100, metavar="N", help="games per pair (100)"
    )
    _run_options(sub, workers, seed)
    sub.add_argument(
        "--out",
        type=path_argument,
        metavar="FILE",
        help="the ladder file (default: KEY.ladder.json here)",
    )
    sub.add_argument(
        "--results",
        type=path_argument,
        metavar="FILE",
        help="the games, JSON lines; a rerun resumes (default: beside --out, .games.jsonl)",
    )
    sub.add_argument(
        "--hold",
        action="store_true",
        help="keep the ratings of the rungs already in --out; play only the new rungs' pairs",
    )
    sub.add_argument(
        "--held-out",
        type=seed,  # an integer >= 0; build_ladder caps it
        default=DEFAULT_HELD_OUT,
        metavar="N",
        help=f"pairings three apart played after the fit and never fitted, to check what the "
        f"ratings predict ({DEFAULT_HELD_OUT}; 0: none; at most {MAX_HELD_OUT})",
    )
    _openings_options(sub)
    _allow_factories_option(sub, "--out")


def add_ladder_show_options(sub: argparse.ArgumentParser) -> None:
    """``connectn ladder show GAME``'s options."""
    sub.add_argument(
        "--file", type=path_argument, metavar="FILE", help="a ladder file (default: shipped)"
    )
    _allow_factories_option(sub, "--file")


def add_evaluate_options(
    sub: argparse.ArgumentParser, count: IntType, workers: IntType, seed: IntType
) -> None:
    """``connectn evaluate GAME CANDIDATE``'s options."""
    # "--sprt -1.75,0.25": an argument that starts with a minus and a digit is a value, not an
    # option (argparse's own rule takes only plain negative numbers such as -1.75)
    sub._negative_number_matcher = _NEGATIVE_VALUE
    sub.add_argument(
        "candidate",
        metavar="CANDIDATE",
        help="an agent spec, module:callable, or sb3:path=MODEL.zip (MaskablePPO or PPO, loaded "
        "without unpickling; sb3:path=MODEL.zip,unpickle=true runs the code pickled in it)",
    )
    budget = sub.add_mutually_exclusive_group()
    budget.add_argument(
        "--games",
        type=count,
        metavar="N",
        help=f"games in all (default {DEFAULT_GAMES})",
    )
    budget.add_argument(
        "--minutes", type=_minutes, metavar="M", help="stop starting games after M minutes"
    )
    _run_options(sub, workers, seed)
    sub.add_argument(
        "--move-timeout",
        type=_seconds,
        default=DEFAULT_MOVE_TIMEOUT,
        metavar="S",
        help=f"seconds per move (default {DEFAULT_MOVE_TIMEOUT:g}, at most {MAX_MOVE_TIMEOUT:g}): "
        "the candidate loses a game, or fails a position, it takes longer in; a rung or B "
        "stops the run",
    )
    sub.add_argument("--json", type=path_argument, metavar="FILE", help="write the result as JSON")
    sub.add_argument(
        "--results",
        type=path_argument,
        metavar="FILE",
        help="the games, JSON lines; a rerun resumes",
    )
    sub.add_argument(
        "--ladder", type=path_argument, metavar="FILE", help="a ladder file (default: shipped)"
    )
    _allow_factories_option(sub, "--ladder")
    sub.add_argument(
        "--positions",
        action="store_true",
        help="Connect Four: the share of moves keeping the result, and of best moves, on "
        "200 critical positions judged by the solver",
    )
    sub.add_argument(
        "--vs",
        metavar="B",
        help="A/B mode: play CANDIDATE against B in game pairs, colours swapped, scored as "
        "pairs (pentanomial) by an SPRT",
    )
    sub.add_argument(
        "--sprt", type=_bounds, metavar="ELO0,ELO1", help="the SPRT's Elo bounds (with --vs)"
    )
    _openings_options(sub)
    sub.add_argument("--alpha", type=_probability, metavar="P", help="false H1 rate (0.05)")
    sub.add_argument("--beta", type=_probability, metavar="P", help="false H0 rate (0.05)")
    sub.add_argument(
        "--max-games",
        type=lambda text: _even(count(text), text),
        metavar="N",
        help=f"SPRT: then inconclusive ({DEFAULT_MAX_GAMES}; even: N / 2 pairs)",
    )


def _openings_options(sub: argparse.ArgumentParser) -> None:
    group = sub.add_mutually_exclusive_group()
    group.add_argument(
        "--openings",
        type=path_argument,
        metavar="FILE",
        help="the opening suite the game pairs start from (default: the game's shipped suite)",
    )
    group.add_argument(
        "--no-openings",
        action="store_const",
        const=True,
        help="every game from the empty board (deterministic agents then replay one game pair)",
    )


def _suite_choice(args: argparse.Namespace) -> Path | bool:
    """``openings=`` of ``--openings FILE`` / ``--no-openings`` (default: the shipped suite)."""
    if args.no_openings:
        return False
    return True if args.openings is None else args.openings


def _allow_factories_option(sub: argparse.ArgumentParser, option: str) -> None:
    sub.add_argument(
        "--allow-factories",
        action="store_true",
        help=f"let the rungs of the ladder file ({option}) name module:callable factories: "
        "importing and calling them runs their code (only for a file you trust as a program); "
        "without it a ladder file may name built-in agents only",
    )


def _run_options(sub: argparse.ArgumentParser, workers: IntType, seed: IntType) -> None:
    sub.add_argument(
        "--workers", type=workers, metavar="K", help=f"processes, 1 to {MAX_WORKERS} (all cores)"
    )
    sub.add_argument("--ray", metavar="ADDRESS", help="play the games as Ray tasks there")
    sub.add_argument("--seed", type=seed, default=0, metavar="N", help="base seed of the games (0)")
    sub.add_argument("--no-progress", action="store_true", help="no progress display on stderr")


def _even(value: int, text: str) -> int:
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"expected an even number of games (they come in pairs), got {text[:40]!r}"
        )
    return value


def _minutes(text: str) -> float:
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected minutes > 0, got {text[:40]!r}")
    return value


def _seconds(text: str) -> float:
    value = _number(text)
    if not 0 < value <= MAX_MOVE_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"expected seconds > 0 and at most {MAX_MOVE_TIMEOUT:g}, got {text[:40]!r}"
        )
    return value


def _probability(text: str) -> float:
    value = _number(text)
    if not MIN_PROBABILITY <= value < 0.5:
        raise argparse.ArgumentTypeError(
            f"expected a probability from {MIN_PROBABILITY:g} to less than 0.5, got {text[:40]!r}"
        )
    return value


def _bounds(text: str) -> tuple[float, float]:
    parts = text.split(",")
    low, high = (_number(part) for part in parts) if len(parts) == 2 else (math.nan, math.nan)
    if not (low >= -MAX_ELO_BOUND and high <= MAX_ELO_BOUND and high - low >= MIN_ELO_GAP):
        raise argparse.ArgumentTypeError(
            f"expected ELO0,ELO1 with {-MAX_ELO_BOUND:g} <= ELO0 < ELO1 <= {MAX_ELO_BOUND:g}, "
            f"at least {MIN_ELO_GAP:g} apart (such as 0,50), got {text[:40]!r}"
        )
    return low, high


def _number(text: str) -> float:
    """A number in ASCII digits (:func:`ascii_float`), or NaN: the callers say what they
    expected."""
    try:
        return ascii_float(text)
    except argparse.ArgumentTypeError:
        return math.nan


def _require_ladder_to_replace(out: Path, key: str, allow_factories: bool = False) -> None:
    """``ladder build`` replaces ``--out``: only a ladder file of ``key``, never another file.

    Raises:
        ValueError: ``out`` is not a ladder file of ``key`` (the message says why).
    """
    try:
        load_ladder(out, key, allow_factories=allow_factories)
    except ValueError as error:
        raise ValueError(
            f"--out {out} exists and is not a {key} ladder to rebuild ({error}); give another "
            "--out, or remove the file"
        ) from None


def _require_file_for_factories(allowed: bool, option: str, path: Path | None) -> None:
    """``--allow-factories`` is about a ladder file: refused without one (it did nothing)."""
    if allowed and path is None:
        raise ValueError(
            f"--allow-factories lets a ladder file's rungs name factories: it goes with "
            f"{option} FILE (the shipped ladders name built-in agents only)"
        )


def run_ladder_command(args: argparse.Namespace) -> int:
    """``connectn ladder build`` and ``connectn ladder show``."""
    key = ladder_key(args.game_config)
    if args.ladder_command == "show":
        _require_file_for_factories(args.allow_factories, "--file", args.file)
        if args.file is None:
            ladder = shipped_ladder(key)
        else:
            ladder = load_ladder(args.file, key, allow_factories=args.allow_factories)
        _show(ladder.table())
        return 0
    out = args.out or Path(f"{key}.ladder.json")
    results = args.results or out.with_name(out.name.removesuffix(".json") + ".games.jsonl")
    check_output_file(out, "--out", "a ladder file", replaced=True)
    check_separate_files(("--out", out), ("--results", results))
    if out.exists() and not args.hold:
        _require_ladder_to_replace(out, key, args.allow_factories)
    hold = load_ladder(out, key, allow_factories=args.allow_factories) if args.hold else None
    with exit_on_termination():
        ladder = build_ladder(
            key,
            games_per_pair=args.games_per_pair,
            hold=hold,
            workers=args.workers,
            ray=args.ray,
            seed=args.seed,
            results=results,
            out=out,
            progress=not args.no_progress,
            command=_command_line(),
            openings=_suite_choice(args),
            held_out=args.held_out,
        )
    _show(ladder.table())
    _show(f"\nwritten: {out} (games in {results})")
    return 0


def run_evaluate_command(args: argparse.Namespace) -> int:
    """``connectn evaluate``: a rating on the ladder, the A/B test with ``--vs``, or the
    move quality with ``--positions``."""
    _require_file_for_factories(args.allow_factories, "--ladder", args.ladder)
    if args.json is not None:
        check_output_file(args.json, "--json", "a file for the result", replaced=True)
    inputs = [("--ladder", args.ladder), *spec_inputs("the candidate", args.candidate)]
    check_outputs(
        [("--results", args.results), ("--json", args.json)], inputs + spec_inputs("B", args.vs)
    )
    result = _move_quality(args) if args.positions else _games(args)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(
            args.json, json.dumps(result.to_json(), indent=2, allow_nan=False) + "\n"
        )
    return 0


def _move_quality(args: argparse.Namespace) -> MoveQuality:
    """``--positions``: the candidate's move quality on the shipped positions."""
    games_only = ("games", "minutes", "ladder", "results", "workers", "ray", "openings")
    games_only += ("no_openings", *_AB_ONLY)
    given = _given(args, games_only)
    if given:
        raise ValueError(f"--positions judges one move per position: not with {', '.join(given)}")
    result = move_quality(
        args.candidate,
        game=args.game_config,
        seed=args.seed,
        progress=not args.no_progress,
        move_timeout=args.move_timeout,
    )
    _show(result.table())
    return result


def _games(args: argparse.Namespace) -> SPRTResult | Evaluation:
    """The rating on the ladder, or the A/B test with ``--vs``."""
    if (args.vs is None) != (args.sprt is None):
        raise ValueError("--vs B and --sprt ELO0,ELO1 go together (A/B mode)")
    if args.vs is not None:
        given = _given(args, ("games", "minutes", "ladder"))
        if given:
            raise ValueError(
                f"the A/B mode (--vs) takes no {', '.join(given)}: it plays A against B, "
                "no ladder, until the SPRT decides or --max-games"
            )
    else:
        given = _given(args, _AB_ONLY)
        if given:
            raise ValueError(
                f"{', '.join(given)}: only with --vs B --sprt ELO0,ELO1 (the A/B mode)"
            )
    with exit_on_termination():
        if args.vs is not None:
            result = sprt(
                args.candidate,
                args.vs,
                game=args.game_config,
                elo0=args.sprt[0],
                elo1=args.sprt[1],
                **{
                    name: getattr(args, name)
                    for name in _SPRT_OPTIONS
                    if getattr(args, name) is not None
                },
                workers=args.workers,
                ray=args.ray,
                results=args.results,
                seed=args.seed,
                report=None if args.no_progress else _Reporter(),
                move_timeout=args.move_timeout,
                openings=_suite_choice(args),
            )
            _show(f"SPRT {result.a} vs {result.b}, H0: {result.elo0:g} Elo, H1: {result.elo1:g}")
            print(result.line())
            print(result.verdict)
            if result.warning is not None:
                print(result.warning)
        else:
            result = evaluate(
                args.candidate,
                game=args.game_config,
                games=args.games,
                minutes=args.minutes,
                workers=args.workers,
                ray=args.ray,
                results=args.results,
                ladder=args.ladder,
                seed=args.seed,
                progress=not args.no_progress,
                allow_factories=args.allow_factories,
                move_timeout=args.move_timeout,
                openings=_suite_choice(args),
            )
            _show(result.table())
    return result


_SPRT_OPTIONS = ("alpha", "beta", "max_games")  # sprt()'s own defaults where not given
_AB_ONLY = ("vs", "sprt", *_SPRT_OPTIONS)  # options of the A/B mode alone


def _given(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    """The options among ``names`` given on the command line, as written there."""
    return ["--" + name.replace("_", "-") for name in names if getattr(args, name) is not None]


class _Reporter:
    """The SPRT's line on stderr, at most every 10 games (5 pairs) and at the decision."""

    def __init__(self) -> None:
        self.shown = 0
        self.decided = False

    def __call__(self, state: SPRTResult) -> None:
        decided = state.decision is not None
        if (decided and not self.decided) or (not decided and state.games - self.shown >= 10):
            self.shown, self.decided = state.games, decided
            print(state.line(), file=sys.stderr, flush=True)


def _show(text: str) -> None:
    """Print ``text`` with its control characters escaped: labels, specs and the build's
    command come from ladder files and command lines (an ANSI escape in a rung's label
    would otherwise reach the terminal)."""
    print(printable(text, newlines=True))


def _command_line() -> str:
    return shlex.join(["connectn", *sys.argv[1:]])
