"""GAME and its options on the command line, read from the game registry.

Each command that takes a game (``connectn play``, ``arena``, ``demo``) gets one sub-parser per
registry name, with that game's parameters as options, so ``connectn play hex --help`` lists
Hex's parameters and their defaults, and an option another game has is refused.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from pathlib import Path

from connectn_env.games import REGISTRY, Parameter
from connectn_env.games.config import GameConfig

_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?")


def ascii_int(text: str) -> int:
    """An int written in ASCII digits (``int()`` would also take other scripts' digits)."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")
    return int(text)


def ascii_float(text: str) -> float:
    """A finite number written in ASCII digits, as ``1.5``, ``-20``, ``1e-3``, spaces around
    it ignored (``float()`` would also take other scripts' digits, underscores, ``inf`` and
    ``nan``).

    Raises:
        argparse.ArgumentTypeError: anything else, quoted (cut to 40 characters).
    """
    body = text.strip()
    value = float(body) if len(body) <= 100 and _DECIMAL.fullmatch(body) else math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}")
    return value


def path_argument(text: str) -> Path:
    """A file or directory path; an empty one is refused (``Path("")`` is the current
    directory, which nobody means by ``--record ''``)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a path, got {text!r}")
    return Path(text)


def _flags(parameter: Parameter) -> list[str]:
    """The option flags of a parameter (``--gravity`` and ``--no-gravity`` for a bool)."""
    flags = [f"--{parameter.name}"]
    if parameter.kind is bool:
        flags.append(f"--no-{parameter.name}")
    return flags


def _add_parameter(group: argparse._ArgumentGroup, parameter: Parameter) -> None:
    option = f"--{parameter.name}"
    notes = []
    if parameter.kind is int and parameter.low is not None:
        notes.append(f"{parameter.low} to {parameter.high}")
    if parameter.default is not None:
        notes.append(f"default: {parameter.help_default()}")
    help_text = f"{parameter.help} ({', '.join(notes)})" if notes else parameter.help
    if parameter.kind is bool:
        group.add_argument(option, action=argparse.BooleanOptionalAction, help=help_text)
    elif parameter.kind is int:
        group.add_argument(option, type=ascii_int, metavar="N", help=help_text)
    else:
        group.add_argument(option, choices=parameter.choices, help=help_text)


def add_game_parsers(
    parser: argparse.ArgumentParser,
    add_command_options: Callable[[argparse.ArgumentParser], None],
    formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
) -> None:
    """Add GAME to ``parser``: a sub-parser per registry name with the game's options, then the
    command's own options (``add_command_options(sub_parser)``).

    Another game's option is refused with a message that names the games that take it."""
    games = parser.add_subparsers(
        dest="game",
        metavar="GAME",
        required=True,
        title="games",
        description=f"one of: {', '.join(REGISTRY)} (GAME --help lists its options)",
    )
    owners: dict[str, list[str]] = {}  # option flag -> the games that take it
    for name, entry in REGISTRY.items():
        for parameter in entry.parameters:
            for flag in _flags(parameter):
                owners.setdefault(flag, []).append(name)
    for name, entry in REGISTRY.items():
        sub = games.add_parser(
            name,
            help=entry.summary,
            description=f"{name}: {entry.summary}",
            formatter_class=formatter_class,
            allow_abbrev=False,
        )
        own = {flag for parameter in entry.parameters for flag in _flags(parameter)}
        if entry.parameters:
            group = sub.add_argument_group(f"{name} options")
            for parameter in entry.parameters:
                _add_parameter(group, parameter)
        for flag, games_taking_it in owners.items():
            if flag not in own:
                message = f"{flag} does not apply to {name} (only {', '.join(games_taking_it)})"
                sub.add_argument(
                    flag, action=_Refuse, nargs="?", const=message, help=argparse.SUPPRESS
                )
        add_command_options(sub)


class _Refuse(argparse.Action):
    """An option of another game: an error that says which games take it."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        parser.error(self.const)


def game_config_from_args(args: argparse.Namespace) -> GameConfig:
    """The game that GAME and the game options in ``args`` describe.

    Raises:
        ValueError: an unknown game or a bad value (the message names it).
    """
    entry = REGISTRY[args.game]
    given = {
        p.name: getattr(args, p.name)
        for p in entry.parameters
        if getattr(args, p.name, None) is not None
    }
    return GameConfig(entry.name, given)
