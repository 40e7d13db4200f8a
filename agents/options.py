"""Options declared once: a dataclass field whose metadata gives the option's type, range,
spec key (and the other keys read as it), command-line flag and help. The agents' option
classes and :class:`~agents.alphazero.TrainConfig` declare their options so; the spec parser
(:mod:`connectn_env.specs`), the constructors' checks and ``connectn train``'s flags read the
declarations (and a test checks the docs' option table against them), so no range, key or
help text is written twice.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from connectn_env.games.validation import require_bool, require_choice, require_int
from connectn_env.games.validation import require_number as _require_number

MAX_SIMULATIONS = 10**12
MAX_SECONDS = 10**6
_KINDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


@dataclass(frozen=True)
class Option:
    """One option's declaration (the metadata of its dataclass field, key ``"option"``).

    Attributes:
        kind: ``bool``, ``int``, ``float`` or ``str`` (checked here), or another type that
            its class checks (a path, a tuple of budgets).
        low: The lowest value (None: no bound).
        strict: ``low`` itself is excluded.
        high: The highest value (None: no bound).
        choices: A ``str`` option's values (none: any string).
        key: Its key in agent specs (None: not in specs).
        aliases: Other spec keys read as ``key`` (the field's name where it differs, old keys).
        flag: Its command-line flag (``connectn train``), or None.
        help: What it does, one phrase (the flag's help and the docs' tables).
        optional: None is a value (unset, or derived from the game).
        extra: A further check, ``extra(value) -> value`` (the machine's node bound).
        metavar: The flag's placeholder in ``--help``.
    """

    kind: type
    low: float | None = None
    strict: bool = False
    high: float | None = None
    choices: tuple[str, ...] = ()
    key: str | None = None
    aliases: tuple[str, ...] = ()
    flag: str | None = None
    help: str = ""
    optional: bool = False
    extra: Callable[[Any], Any] | None = None
    metavar: str | None = None

    def check(self, name: str, value: Any, *, spec: bool = False, raw: str | None = None) -> Any:
        """``value`` checked (and converted: an int is a fine float) as the option ``name``.

        Args:
            name: The name in messages (the spec key or the argument's name).
            value: The value.
            spec: Word messages as the spec parser does (every refusal a ValueError, ``must
                be an integer``); else as the constructors do (a wrong type is a TypeError).
            raw: The text the value was parsed from, shown in messages.

        Raises:
            TypeError: a wrong type, unless ``spec``.
            ValueError: a value out of range (or of a wrong type, with ``spec``).
        """
        if value is None and self.optional:
            return None
        value = _check_spec(self, name, value, raw) if spec else _check_argument(self, name, value)
        return value if self.extra is None else self.extra(value)

    def allowed(self) -> str:
        """The values allowed, in words: ``integer in [1, 1e+12]``, ``ucb1 | gumbel``."""
        if self.choices:
            return " | ".join(self.choices)
        if self.kind is bool:
            return "true | false"
        if self.kind not in (int, float):
            return _KINDS.get(self.kind, self.kind.__name__)
        noun = "integer" if self.kind is int else "number"
        if self.low is None and self.high is None:
            return noun
        if self.high is None:
            return f"{noun} {'>' if self.strict else '>='} {self.low:g}"
        low = "-inf" if self.low is None else f"{self.low:g}"
        return f"{noun} in {'(' if self.strict else '['}{low}, {self.high:g}]"


def option(default: Any = None, kind: type = int, **declaration: Any) -> Any:
    """A dataclass field declaring an option (see :class:`Option` for ``declaration``); an
    option whose default is None may be None."""
    declaration.setdefault("optional", default is None)
    return dataclasses.field(default=default, metadata={"option": Option(kind, **declaration)})


def declared(cls: Any) -> dict[str, Option]:
    """The declared options of a dataclass (or of its instance) by field name, in order."""
    return {f.name: f.metadata["option"] for f in dataclasses.fields(cls) if "option" in f.metadata}


def spec_keys(cls: Any) -> dict[str, str]:
    """Every spec key of ``cls``'s options, aliases included, -> the field's name."""
    keys = {}
    for name, declaration in declared(cls).items():
        if declaration.key is not None:
            for key in (declaration.key, *declaration.aliases):
                keys[key] = name
    return keys


def check_fields(instance: Any) -> None:
    """Check and convert every declared field of a frozen dataclass instance in place (those
    of a kind other than bool, int, float and str are the class's own to check)."""
    for name, declaration in declared(instance).items():
        if declaration.kind in _KINDS:
            object.__setattr__(instance, name, declaration.check(name, getattr(instance, name)))


def c_puct(default: float) -> Any:
    """PUCT's exploration constant (spec key ``c``)."""
    return option(
        default, float, low=0.0, high=1e6, key="c", aliases=("c_puct",),
        help="exploration constant c of PUCT",
    )  # fmt: skip


def temperature() -> Any:
    """A PUCT agent's move choice (spec key ``temperature``)."""
    return option(
        0.0, float, low=0.0, high=1e6, key="temperature",
        help="0: the best move; > 0: sampled by visits ** (1 / temperature)",
    )  # fmt: skip


def exact(default: bool | None) -> Any:
    """A search agent's use of the game's exact solver (spec key ``exact``; None: the game's
    recommended setting)."""
    return option(
        default, bool, key="exact", help="the game's exact solver proves root moves first"
    )


def unchecked(cls: Any, values: dict[str, Any]) -> Any:
    """An instance of the options class ``cls`` from ``values`` already checked one by one
    (the spec parser's, by spec key), the others its defaults, without checking them again:
    the caller then asks its ``check_together()``, where it has one."""
    instance = object.__new__(cls)
    for f in dataclasses.fields(cls):
        object.__setattr__(instance, f.name, values.get(f.name, f.default))
    return instance


def simulations(default: int | None = None, help: str = "simulations per move") -> Any:
    """The simulation budget of a search agent (spec key ``simulations``; None: a time
    limit alone)."""
    return option(
        default, int, low=1, high=MAX_SIMULATIONS, key="simulations", optional=True, help=help
    )


def time_limit() -> Any:
    """The time budget of a search agent (spec key ``time``)."""
    return option(
        None, float, low=0.0, strict=True, high=MAX_SECONDS, key="time",
        aliases=("time_limit",), help="seconds per move",
    )  # fmt: skip


def reuse_tree() -> Any:
    """Tree reuse (spec key ``reuse``)."""
    return option(
        True, bool, key="reuse", aliases=("reuse_tree",),
        help="keep the subtree of the moves played since the last search",
    )  # fmt: skip


def max_nodes(default: int) -> Any:
    """The tree's size bound: at least 2, and what half the machine's memory holds."""
    from connectn_env.memory_limits import check_max_nodes

    return option(
        default, int, low=2, key="max_nodes", extra=check_max_nodes, help="tree size bound"
    )


def seed() -> Any:
    """An agent's seed (spec key ``seed``; a ``np.random.Generator`` from Python)."""
    return option(None, int, low=0, key="seed", help="seed of the agent's generator")


def _check_argument(declaration: Option, name: str, value: Any) -> Any:
    """A constructor's check: the shared ``require_*`` messages (a wrong type: TypeError)."""
    kind, low, high = declaration.kind, declaration.low, declaration.high
    if kind is bool:
        return require_bool(name, value)
    if kind is int or kind is float:
        value = require_int(name, value) if kind is int else _require_number(name, value)
        below = low is not None and (value < low or (declaration.strict and value == low))
        if high is not None and (below or value > high):
            bounds = f"at most {high:g}" if low is None else f"between {low:g} and {high:g}"
            raise ValueError(f"{name} must be {bounds}, got {value}")
        if below:
            relation = "greater than" if declaration.strict else "at least"
            raise ValueError(f"{name} must be {relation} {low:g}, got {value}")
        return value
    if declaration.choices:
        return require_choice(name, value, declaration.choices)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r}")
    return value


def _check_spec(declaration: Option, name: str, value: Any, raw: str | None) -> Any:
    """A spec's check: every refusal a ValueError, the value shown as written."""
    kind = declaration.kind
    shown = repr(value) if raw is None else raw
    if kind is str:
        value = raw if raw is not None else value  # a file name "12" stays a string
        if not isinstance(value, str):
            raise ValueError(f"{name} must be a string, got {shown}")
        if declaration.choices and value not in declaration.choices:
            raise ValueError(f"{name} must be one of {', '.join(declaration.choices)}, got {shown}")
        return value
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not ok:
        shown = shown if raw is None else repr(raw)
        raise ValueError(f"{name} must be {_KINDS[kind]}, got {shown}")
    if kind is float:
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {shown}")
    low, high = declaration.low, declaration.high
    if low is not None and (value < low or (declaration.strict and value == low)):
        relation = "greater than" if declaration.strict else "at least"
        raise ValueError(f"{name} must be {relation} {low:g}, got {shown}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high:g}, got {shown}")
    return value
