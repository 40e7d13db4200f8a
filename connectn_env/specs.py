"""Agent specs: the short strings that name an agent on the command line.

Grammar::

    random[:seed=S]
    mcts[:key=value,...]       keys: simulations, time, c, rave, rave_k, reuse, max_nodes, seed
    puct[:key=value,...]       keys: simulations, c, temperature, noise, alpha, max_nodes, seed
    az:path=FILE[,key=value,...]   a trained AlphaZero network (RUN_DIR/best.pt); keys: path,
                               simulations, time, c, temperature, device, seed
    human                      a person (``connectn play`` only)
    module:callable[:key=value,...]   a user factory, e.g. ``mypkg.bots:make_bot:depth=3``

Values are typed: ``true``/``false`` are bools, ``12`` an int, ``0.5`` a float; anything else
is a string (only for a factory's own keys). A factory is called with its keys as keyword
arguments, plus ``seed=`` when its signature accepts a ``seed`` parameter (or ``**kwargs``)
and the spec does not set one; it must return an object with ``act(env) -> int``.

A ``seed`` key fixes the agent's seed; without one, :meth:`AgentSpec.build` uses the seed
it is given (the arena derives one per game, so games differ but are reproducible).
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from connectn_env.games.validation import require_int

__all__ = ["BUILTIN_KINDS", "AgentSpec", "parse_agent_spec"]

Value = bool | int | float | str

# key -> (constructor keyword, type, lower bound, strict lower bound)
_Key = tuple[str, type, float | None, bool]
_KEYS: dict[str, dict[str, _Key]] = {
    "random": {"seed": ("seed", int, 0, False)},
    "mcts": {
        "simulations": ("simulations", int, 1, False),
        "time": ("time_limit", float, 0.0, True),
        "c": ("exploration", float, 0.0, False),
        "rave": ("rave", bool, None, False),
        "rave_k": ("rave_equivalence", float, 0.0, True),
        "reuse": ("reuse_tree", bool, None, False),
        "max_nodes": ("max_nodes", int, 2, False),
        "seed": ("seed", int, 0, False),
    },
    "puct": {
        "simulations": ("simulations", int, 1, False),
        "c": ("c_puct", float, 0.0, False),
        "temperature": ("temperature", float, 0.0, False),
        "noise": ("noise_fraction", float, 0.0, False),
        "alpha": ("dirichlet_alpha", float, 0.0, True),
        "max_nodes": ("max_nodes", int, 2, False),
        "seed": ("seed", int, 0, False),
    },
    "az": {
        "path": ("path", str, None, False),
        "simulations": ("simulations", int, 1, False),
        "time": ("time_limit", float, 0.0, True),
        "c": ("c_puct", float, 0.0, False),
        "temperature": ("temperature", float, 0.0, False),
        "device": ("device", str, None, False),
        "seed": ("seed", int, 0, False),
    },
    "human": {},
}
BUILTIN_KINDS = tuple(_KEYS)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_HELP = (
    "valid specs: random[:seed=S]; mcts[:key=value,...] with keys "
    + ", ".join(_KEYS["mcts"])
    + "; puct[:key=value,...] with keys "
    + ", ".join(_KEYS["puct"])
    + "; az:path=RUN_DIR/best.pt[,key=value,...] with keys "
    + ", ".join(_KEYS["az"])
    + "; human; module:callable[:key=value,...] (a factory returning an agent)"
)


@dataclass(frozen=True)
class AgentSpec:
    """A parsed, validated agent spec (hashable and picklable).

    Attributes:
        kind: ``"random"``, ``"mcts"``, ``"puct"``, ``"human"`` or ``"module:callable"``.
        options: ``(key, value)`` pairs as written (keys unique, values typed).
    """

    kind: str
    options: tuple[tuple[str, Value], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not isinstance(self.options, tuple):
            raise TypeError(f"AgentSpec needs a str kind and a tuple of options, got {self!r}")
        keys = [pair[0] for pair in self.options]
        if self.kind in _KEYS:
            unknown = [key for key in keys if key not in _KEYS[self.kind]]
            if unknown:
                valid = ", ".join(_KEYS[self.kind]) or "none"
                raise ValueError(f"unknown key {unknown[0]!r} for {self.kind}; valid keys: {valid}")
        elif not re.fullmatch(rf"{_MODULE.pattern}:{_IDENTIFIER.pattern}", self.kind):
            raise ValueError(f"unknown agent kind {self.kind!r}; {_HELP}")
        if len(set(keys)) != len(keys):
            raise ValueError(f"repeated keys in {keys}")

    @property
    def is_human(self) -> bool:
        """True for the ``human`` spec."""
        return self.kind == "human"

    @property
    def is_factory(self) -> bool:
        """True for a ``module:callable`` spec."""
        return self.kind not in _KEYS

    def build(self, seed: int | None = None) -> Any:
        """A fresh agent (``None`` for ``human``).

        Args:
            seed: Seed for the agent's generator unless the spec sets ``seed``.

        Raises:
            TypeError: a factory returned something without ``act(env)``.
        """
        if seed is not None:
            seed = require_int("seed", seed, 0)
        options = dict(self.options)
        if self.is_human:
            return None
        if self.is_factory:
            return _build_factory(self.kind, options, seed)
        import agents

        kwargs = {_KEYS[self.kind][key][0]: value for key, value in options.items()}
        kwargs.setdefault("seed", seed)
        if self.kind == "random":
            return agents.RandomAgent(**kwargs)
        if self.kind == "mcts":
            return agents.MCTSAgent(**kwargs)
        if self.kind == "az":
            from agents.alphazero import AlphaZeroAgent

            return AlphaZeroAgent.from_checkpoint(**kwargs)
        return agents.PUCTAgent(**kwargs)

    def check_game(self, game: Any) -> None:
        """Refuse a game this agent cannot play (an ``az`` network trained on another game or
        board size); other agents play every game.

        Raises:
            ValueError: the message names both games.
        """
        if self.kind == "az":
            from agents.alphazero import load_checkpoint

            load_checkpoint(dict(self.options)["path"], game)

    def __str__(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={_format(v)}" for k, v in self.options)


def parse_agent_spec(text: str, *, allow_human: bool = True) -> AgentSpec:
    """Parse and validate an agent spec (see the module docstring for the grammar).

    A ``module:callable`` spec is imported here, so a missing module or callable is reported
    before any game starts.

    Raises:
        TypeError: ``text`` is not a string.
        ValueError: the spec is malformed; the message lists the valid kinds and keys.
    """
    if not isinstance(text, str):
        raise TypeError(f"an agent spec must be a string, got {text!r}")
    spec = text.strip()
    head, _, rest = spec.partition(":")
    if head in _KEYS:
        if head == "human" and not allow_human:
            raise ValueError(f"agent spec {text!r}: 'human' is only allowed in connectn play")
        options = _parse_options(text, rest, head) if rest else ()
        if head == "az":
            _check_checkpoint(text, dict(options))
        return AgentSpec(head, options)
    name, _, kwargs = rest.partition(":")
    if not rest or not _MODULE.fullmatch(head) or not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"unknown agent spec {text!r}; {_HELP}")
    kind = f"{head}:{name}"
    _resolve(kind, text)
    return AgentSpec(kind, _parse_options(text, kwargs, None) if kwargs else ())


def _parse_options(text: str, body: str, kind: str | None) -> tuple[tuple[str, Value], ...]:
    """``key=value,...`` -> typed pairs, checked against the kind's keys (None: any key)."""
    pairs: list[tuple[str, Value]] = []
    for item in body.split(","):
        key, eq, raw = (part.strip() for part in item.partition("="))
        if not eq or not _IDENTIFIER.fullmatch(key) or not raw:
            raise ValueError(f"agent spec {text!r}: expected key=value, got {item!r}; {_HELP}")
        if any(key == seen for seen, _ in pairs):
            raise ValueError(f"agent spec {text!r}: key {key!r} given twice")
        if kind is None:
            pairs.append((key, _literal(raw)))
            continue
        if key not in _KEYS[kind]:
            valid = ", ".join(_KEYS[kind]) or "none"
            raise ValueError(
                f"agent spec {text!r}: unknown key {key!r} for {kind}; valid keys: {valid}"
            )
        pairs.append((key, _typed(text, kind, key, raw)))
    return tuple(pairs)


def _typed(text: str, kind: str, key: str, raw: str) -> Value:
    """``raw`` converted to the key's type and checked against its bound."""
    _, kind_type, low, strict = _KEYS[kind][key]
    value = _literal(raw)
    if kind_type is str:
        return raw
    if kind_type is bool:
        ok = isinstance(value, bool)
    elif kind_type is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    if not ok:
        expected = {bool: "true or false", int: "an integer", float: "a number"}[kind_type]
        raise ValueError(f"agent spec {text!r}: {key} must be {expected}, got {raw!r}")
    if low is not None and (value < low or (strict and value == low)):
        relation = "greater than" if strict else "at least"
        raise ValueError(f"agent spec {text!r}: {key} must be {relation} {low:g}, got {raw}")
    return value


def _check_checkpoint(text: str, options: dict[str, Value]) -> None:
    """An ``az`` spec names a readable checkpoint (reported before any game starts)."""
    if "path" not in options:
        raise ValueError(f"agent spec {text!r}: az needs path=FILE (a checkpoint, RUN_DIR/best.pt)")
    try:
        from agents.alphazero import load_checkpoint

        load_checkpoint(options["path"])
    except ImportError as error:
        raise ValueError(f"agent spec {text!r}: {error}") from None
    except ValueError as error:  # CheckpointError
        raise ValueError(f"agent spec {text!r}: {error}") from None


def _literal(raw: str) -> Value:
    """``true``/``false`` -> bool, integers -> int, decimals -> float, else the string."""
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if _INT.fullmatch(raw):
        return int(raw)
    if _FLOAT.fullmatch(raw):
        return float(raw)
    return raw


def _format(value: Value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _resolve(kind: str, text: str | None = None) -> Callable[..., Any]:
    """Import ``module:callable``; a missing one -> ValueError naming the spec."""
    module_name, name = kind.split(":")
    where = repr(text if text is not None else kind)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(
            f"agent spec {where}: cannot import module {module_name!r}: {error}"
        ) from error
    factory = getattr(module, name, None)
    if not callable(factory):
        raise ValueError(f"agent spec {where}: module {module_name!r} has no callable {name!r}")
    return factory


def _accepts_seed(factory: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _build_factory(kind: str, options: dict[str, Value], seed: int | None) -> Any:
    factory = _resolve(kind)
    if "seed" not in options and _accepts_seed(factory):
        options["seed"] = seed
    agent = factory(**options)
    if not callable(getattr(agent, "act", None)):
        raise TypeError(f"agent factory {kind} returned {agent!r}, which has no act(env) method")
    return agent
