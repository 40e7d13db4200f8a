"""Agent specs: the short strings that name an agent on the command line.

Grammar::

    random[:seed=S]
    mcts[:key=value,...]       keys: simulations, time, c, selection, rave, rave_k, pool_rave,
                               decisive, lgr, local, exact, backup, preset, reuse, max_nodes,
                               seed
    puct[:key=value,...]       keys: simulations, time, c, selection, temperature, noise, alpha,
                               reuse, max_nodes, seed
    ab[:key=value,...]         alpha-beta; keys: depth, time, nodes, table_bits, seed
    az:path=FILE[,key=value,...]   a trained AlphaZero network (RUN_DIR/best.pt); keys: path,
                               simulations, time, c, temperature, device, threads (torch's
                               threads during a search; 1 by default), seed
    az:pretrained[,key=value,...]  the network shipped for the game (the same keys, and
                               network=SHA: it must be the network whose SHA-256 starts so)
    perfect                    Connect Four's perfect player (opening book, then solver)
    human                      a person (``connectn play`` only)
    module:callable[:key=value,...]   a user factory, e.g. ``mypkg.bots:make_bot:depth=3``

The keys, their types and ranges are the agents' declared options (``MCTSOptions``,
``PUCTOptions``, ``AlphaBetaOptions``, ``RandomOptions``, ``AlphaZeroOptions``:
:mod:`agents.options`); a key may also be written as the constructor's argument it sets
(``exploration`` for ``c``, ``rave_equivalence`` for ``rave_k``, ``time_limit`` for
``time``...), an alias read as the key.

Values are typed: ``true``/``false`` are bools, ``12`` an int, ``0.5`` a float (ASCII digits,
at most 100 characters, finite); anything else is a string (only for a factory's own keys).
The built-in agents' values are checked against their ranges here, so ``mcts:time=1e999``
or ``puct:noise=2`` is refused before any game. A spec is at most 1000 characters.

A factory is called with its keys as keyword arguments, plus ``seed=`` when its signature
accepts a ``seed`` parameter (or ``**kwargs``) and the spec does not set one; it must return
an object with ``act(env) -> int``. **A spec runs code**: parsing a ``module:callable`` spec
imports the module and building it calls the callable, whatever they are (``os:system``
too), so take specs only from people you would let run commands. Specs read from files (a
ladder's rungs) are parsed with ``allow_factories=False``: built-in agents only, a factory
refused before anything is imported.

A ``seed`` key fixes the agent's seed; without one, :func:`resolve_agent` uses the seed
it is given (the arena derives one per game, so games differ but are reproducible).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.alphabeta import AlphaBetaOptions
from agents.alphazero.config import AlphaZeroOptions
from agents.mcts import MCTSOptions
from agents.options import declared, spec_keys, unchecked
from agents.puct import PUCTOptions
from agents.simple import RandomOptions
from connectn_env.errors import ConnectnError
from connectn_env.games.validation import require_int

Value = bool | int | float | str
MAX_SPEC_LENGTH = 1000  # characters of a spec
MAX_NUMBER_LENGTH = 100  # characters of a number in a spec


class AgentUnavailableError(ValueError, ConnectnError):
    """A well-formed spec of an agent this installation cannot make: an optional dependency
    is missing (torch, for ``az``).

    Attributes:
        spec: The spec as written.
        reason: What is missing and how to install it, in one line.
    """

    def __init__(self, spec: str, reason: str) -> None:
        super().__init__(f"agent spec {spec!r}: {reason}")
        self.spec, self.reason = spec, reason

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return type(self), (self.spec, self.reason)


# Each built-in kind: what it is, and its declared options (None: no keys). Spec keys,
# aliases, types, ranges and help are those of the agent's options class (agents.options),
# written nowhere else.
_KINDS: dict[str, tuple[str, type | None]] = {
    "random": ("uniformly random legal moves", RandomOptions),
    "mcts": ("Monte Carlo tree search: UCT and its family", MCTSOptions),
    "puct": ("PUCT search, AlphaZero's, without a network (play-out values)", PUCTOptions),
    "ab": ("alpha-beta search on the game's heuristic", AlphaBetaOptions),
    "az": ("an AlphaZero network in PUCT search (needs torch)", AlphaZeroOptions),
    "perfect": ("Connect Four's perfect player: opening book, then solver", None),
    "human": ("a person at the board (connectn play only)", None),
}
_OPTIONS = {kind: cls for kind, (_, cls) in _KINDS.items()}
# kind -> spec key or alias -> (the spec key, the field's name)
_ALIASES: dict[str, dict[str, tuple[str, str]]] = {
    kind: {alias: (declared(cls)[name].key, name) for alias, name in spec_keys(cls).items()}
    if cls is not None
    else {}
    for kind, cls in _OPTIONS.items()
}
# kind -> its spec keys (aliases left out), in the order declared
_KEYS: dict[str, tuple[str, ...]] = {
    kind: tuple(dict.fromkeys(key for key, _ in aliases.values()))
    for kind, aliases in _ALIASES.items()
}
BUILTIN_KINDS = tuple(_KEYS)
BUILTIN_AGENTS = tuple(kind for kind in _KEYS if kind != "human")  # what plays unattended
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_INT = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: no full-width digits
_FLOAT = re.compile(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?")
_HELP = (
    "valid specs: random[:seed=S]; mcts[:key=value,...] with keys "
    + ", ".join(_KEYS["mcts"])
    + "; puct[:key=value,...] with keys "
    + ", ".join(_KEYS["puct"])
    + "; ab[:key=value,...] (alpha-beta) with keys "
    + ", ".join(_KEYS["ab"])
    + "; az:path=RUN_DIR/best.pt[,key=value,...] or az:pretrained[,key=value,...] with keys "
    + ", ".join(_KEYS["az"])
    + "; perfect (Connect Four only); human; module:callable[:key=value,...] (a factory "
    "returning an agent)"
)


@dataclass(frozen=True)
class AgentSpec:
    """A parsed, validated agent spec (hashable and picklable).

    Attributes:
        kind: ``"random"``, ``"mcts"``, ``"puct"``, ``"ab"``, ``"az"``, ``"perfect"``,
            ``"human"`` or
            ``"module:callable"``.
        options: ``(key, value)`` pairs as written (keys unique, values typed and, for the
            built-in agents, within their ranges).

    Raises:
        TypeError: a kind that is not a string, options that are not ``(str, value)`` pairs,
            or a value of the wrong type.
        ValueError: an unknown kind or key, a repeated key, or a value out of range.
    """

    kind: str
    options: tuple[tuple[str, Value], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not isinstance(self.options, tuple):
            raise TypeError(f"AgentSpec needs a str kind and a tuple of options, got {self!r}")
        for pair in self.options:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
                raise TypeError(f"each option must be a (str key, value) pair, got {pair!r}")
            if not _IDENTIFIER.fullmatch(pair[0]):
                raise ValueError(f"option key {pair[0]!r} must be an identifier")
        if self.kind in _KEYS:
            options = tuple(_check_option(self.kind, key, value) for key, value in self.options)
            object.__setattr__(self, "options", options)
        elif not re.fullmatch(rf"{_MODULE.pattern}:{_IDENTIFIER.pattern}", self.kind):
            raise ValueError(f"unknown agent kind {self.kind[:100]!r}; {_HELP}")
        else:
            for key, value in self.options:
                _check_literal(key, value)
        keys = [pair[0] for pair in self.options]
        if len(set(keys)) != len(keys):
            raise ValueError(f"repeated keys in {keys}")

    @classmethod
    def _checked(cls, kind: str, options: tuple[tuple[str, Value], ...]) -> AgentSpec:
        """The spec of options :func:`parse_agent_spec` has checked already (not again)."""
        spec = object.__new__(cls)
        object.__setattr__(spec, "kind", kind)
        object.__setattr__(spec, "options", options)
        return spec

    @property
    def is_human(self) -> bool:
        """True for the ``human`` spec."""
        return self.kind == "human"

    @property
    def is_factory(self) -> bool:
        """True for a ``module:callable`` spec."""
        return self.kind not in _KEYS

    def build(self, seed: int | None = None) -> Any:
        """A fresh agent (``None`` for ``human``) for any game: ``resolve_agent(self, None,
        seed=seed)`` (see :func:`resolve_agent`)."""
        return resolve_agent(self, None, seed=seed)

    def check_game(self, game: Any) -> None:
        """Refuse a game this agent cannot play (an ``az`` network trained on another game or
        board size, ``perfect`` on anything but Connect Four 6 x 7); other agents play every
        game. A network's file is read once per process (the agent built later shares it).

        Raises:
            ValueError: the message names both games.
        """
        if self.kind == "perfect":
            from agents.perfect import require_connect_four

            require_connect_four(game)
        if self.kind == "az":
            _checkpoint(dict(self.options), game)

    def __str__(self) -> str:
        """The spec as written: ``az:pretrained,simulations=200`` (``pretrained=true`` as
        the bare word it was typed as), parsed back to an equal spec."""
        if not self.options:
            return self.kind
        items = [f"{k}={_format(v)}" for k, v in self.options]
        if self.kind == "az" and self.options[0] == ("pretrained", True):
            items[0] = "pretrained"
        return self.kind + ":" + ",".join(items)


def resolve_agent(spec: Any, game: Any = None, *, seed: int | None = None) -> Any:
    """The agent of ``spec`` (``None`` for ``human``): how play, the arena, ``evaluate``, the
    ladder, GTP, pbrain and the Gymnasium opponents turn a spec into an agent.

    With a ``game`` (a ``BoardGame`` or ``GameConfig``) the spec must be able to play it
    (:meth:`AgentSpec.check_game`) and a network agent starts with that game's network; a
    network's file is read once per process, whether checked, built or searched with. A
    ``module:callable`` spec runs that callable: a spec is code, as trusted as the command
    line it comes from.

    Args:
        spec: An :class:`AgentSpec`, its text (parsed by :func:`parse_agent_spec`), or an
            object standing for an agent object, whose ``build(seed)`` gives it.
        game: The game it will play, or None (any: checked when it plays).
        seed: Seed for the agent's generator unless the spec sets ``seed``.

    Raises:
        ValueError: a bad spec, or a game it cannot play (the message names both).
        TypeError: a factory returned something without ``act(env)``.
    """
    if isinstance(spec, str):
        spec = parse_agent_spec(spec)
    if not isinstance(spec, AgentSpec):  # a stand-in for an agent object (evaluate's)
        return spec.build(seed)
    if seed is not None:
        seed = require_int("seed", seed, 0)
    if game is not None:
        spec.check_game(game)
    options = dict(spec.options)
    if spec.is_human:
        return None
    if spec.is_factory:
        return _build_factory(spec.kind, options, seed)
    import agents

    kwargs = {_ALIASES[spec.kind][key][1]: value for key, value in options.items()}
    kwargs.setdefault("seed", seed)
    if spec.kind == "az":
        from agents.alphazero import AlphaZeroAgent

        network, path = kwargs.pop("network", None), kwargs.pop("path", None)
        if kwargs.pop("pretrained", False):  # without a game: each env's, when first needed
            return AlphaZeroAgent.pretrained(game, network=network, **kwargs)
        return AlphaZeroAgent(_checkpoint({"path": path}, game), **kwargs)
    maker = {
        "random": agents.RandomAgent,
        "mcts": agents.MCTSAgent,
        "puct": agents.PUCTAgent,
        "ab": agents.AlphaBetaAgent,
        "perfect": agents.PerfectAgent,
    }[spec.kind]
    return maker(**kwargs)


def describe_agents(kind: str | None = None) -> str:
    """The built-in agent kinds, one a line, or one kind's spec keys as a table (key and its
    aliases, values allowed, default, help), read from the declarations: ``connectn agents``.

    Raises:
        ValueError: ``kind`` is not a built-in kind.
    """
    if kind is None:
        width = max(map(len, _KINDS))
        lines = [f"{name:<{width}}  {summary}" for name, (summary, _) in _KINDS.items()]
        return "\n".join([*lines, "connectn agents KIND lists a kind's keys"])
    if kind not in _KINDS:
        raise ValueError(f"unknown agent kind {kind!r}; built-in kinds: {', '.join(_KINDS)}")
    summary, cls = _KINDS[kind]
    if cls is None:
        return f"{kind}: {summary}; no keys"
    defaults = {field.name: field.default for field in dataclasses.fields(cls)}
    rows = [("key", "values", "default", "")]
    for field, option in declared(cls).items():
        if option.key is not None:
            name = " ".join([option.key, *(f"({alias})" for alias in option.aliases)])
            default = "unset" if defaults[field] is None else _format(defaults[field])
            rows.append((name, option.allowed(), default, option.help))
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    table = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, [*widths, 0], strict=True))
        for row in rows
    ]
    return "\n".join([f"{kind}: {summary}", *(line.rstrip() for line in table)])


def _checkpoint(options: dict[str, Value], game: Any) -> Any:
    """The checkpoint of an ``az`` spec's options (read once per process), checked against
    ``game`` where one is given (a shipped network: the one of ``game``)."""
    from agents.alphazero import require_torch

    require_torch()  # says how to install it
    if options.get("pretrained"):
        from agents.alphazero.pretrained import pretrained_checkpoint

        return pretrained_checkpoint(game, options.get("network"))
    from agents.alphazero.checkpoint import cached_checkpoint

    return cached_checkpoint(str(options["path"]), game)


def parse_agent_spec(
    text: str, *, allow_human: bool = True, allow_factories: bool = True
) -> AgentSpec:
    """Parse and validate an agent spec (see the module docstring for the grammar).

    A ``module:callable`` spec is imported here (which runs the module's code), so a missing
    module or callable is reported before any game starts. With ``allow_factories=False``
    (a spec read from a file) it is refused before any import: only built-in agents.

    A built-in search or random agent is built once here, so that options valid one by one
    but not together are refused too.

    Raises:
        TypeError: ``text`` is not a string, or ``allow_human`` or ``allow_factories`` not a
            bool.
        ValueError: the spec is malformed, or a factory where none is allowed; the message
            lists the valid kinds and keys.
        AgentUnavailableError: (a ValueError) a well-formed ``az`` spec without torch.
    """
    if not isinstance(text, str):
        raise TypeError(f"an agent spec must be a string, got {text!r}")
    for name, flag in (("allow_human", allow_human), ("allow_factories", allow_factories)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {flag!r}")
    if len(text) > MAX_SPEC_LENGTH:
        raise ValueError(
            f"agent spec {text[:40]!r}... has {len(text):,} characters; at most "
            f"{MAX_SPEC_LENGTH} are allowed"
        )
    spec = text.strip()
    head, _, rest = spec.partition(":")
    if head in _KEYS:
        if head == "human" and not allow_human:
            raise ValueError(f"agent spec {text!r}: 'human' is only allowed in connectn play")
        if head == "az" and rest.partition(",")[0].strip() == "pretrained":
            rest = "pretrained=true" + rest.strip()[len("pretrained") :]
        options = _parse_options(text, rest, head) if rest else ()
        if head == "az":
            _check_checkpoint(text, dict(options))
        _check_together(text, head, options)
        return AgentSpec._checked(head, options)
    name, _, kwargs = rest.partition(":")
    if not rest or not _MODULE.fullmatch(head) or not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"unknown agent spec {text!r}; {_HELP}")
    kind = f"{head}:{name}"
    if not allow_factories:
        raise ValueError(
            f"agent spec {text[:100]!r} names code to import and run ({kind[:100]}); only the "
            f"built-in agents are allowed here: {', '.join(BUILTIN_AGENTS)}"
        )
    _resolve(kind, text)
    return AgentSpec(kind, _parse_options(text, kwargs, None) if kwargs else ())


def _check_together(text: str, kind: str, options: tuple[tuple[str, Value], ...]) -> None:
    """Refuse options valid one by one but not together (``selection=gumbel`` with a time
    limit only), as the agent's options class declares, without building the agent."""
    cls = _OPTIONS[kind]
    check = getattr(cls, "check_together", None)
    if check is None:
        return
    values = {_ALIASES[kind][key][1]: value for key, value in options}
    try:
        check(unchecked(cls, values))
    except (TypeError, ValueError) as error:
        raise ValueError(f"agent spec {text!r}: {error}") from None


def _parse_options(text: str, body: str, kind: str | None) -> tuple[tuple[str, Value], ...]:
    """``key=value,...`` -> typed pairs, checked against the kind's keys (None: any key); an
    alias is read as its key."""
    pairs: list[tuple[str, Value]] = []
    for item in body.split(","):
        key, eq, raw = (part.strip() for part in item.partition("="))
        if not eq or not _IDENTIFIER.fullmatch(key) or not raw:
            raise ValueError(f"agent spec {text!r}: expected key=value, got {item!r}; {_HELP}")
        try:
            value = _literal(raw, key)
            if kind is not None:
                key, value = _check_option(kind, key, value, raw)
        except (TypeError, ValueError) as error:
            raise ValueError(f"agent spec {text!r}: {error}") from None
        if any(key == seen for seen, _ in pairs):
            raise ValueError(f"agent spec {text!r}: key {key!r} given twice")
        pairs.append((key, value))
    return tuple(pairs)


def _check_option(kind: str, key: str, value: Any, raw: str | None = None) -> tuple[str, Value]:
    """``(key, value)`` of a built-in agent: the key (an alias read as its key) and the value
    checked against its declaration (``raw``: the text it was parsed from, for messages)."""
    found = _ALIASES[kind].get(key)
    if found is None:
        valid = ", ".join(_KEYS[kind]) or "none"
        raise ValueError(f"unknown key {key!r} for {kind}; valid keys: {valid}")
    key, name = found
    options = _OPTIONS[kind]
    assert options is not None  # a kind with aliases has options
    return key, declared(options)[name].check(key, value, spec=True, raw=raw)


def _check_checkpoint(text: str, options: dict[str, Value]) -> None:
    """An ``az`` spec names a readable checkpoint or the shipped networks (reported before any
    game starts)."""
    network = options.get("network")
    if options.get("pretrained"):
        if "path" in options:
            raise ValueError(f"agent spec {text!r}: az takes path=FILE or pretrained, not both")
        options = {}
    elif "network" in options:
        raise ValueError(
            f"agent spec {text!r}: network= pins a shipped network: it goes with pretrained"
        )
    elif "path" not in options:
        raise ValueError(
            f"agent spec {text!r}: az needs path=FILE (a checkpoint, RUN_DIR/best.pt) or "
            "pretrained (the network shipped for the game)"
        )
    try:
        from agents.alphazero import require_torch

        require_torch()  # says how to install it
        from agents.alphazero.checkpoint import cached_checkpoint
        from agents.alphazero.pretrained import pretrained_networks, require_network_prefix

        if "path" in options:
            cached_checkpoint(str(options["path"]))  # read once: the agent shares it
        else:
            require_network_prefix(network)
            pretrained_networks()
    except ImportError as error:
        raise AgentUnavailableError(text, str(error)) from None
    except ValueError as error:  # CheckpointError
        raise ValueError(f"agent spec {text!r}: {error}") from None


def _check_literal(key: str, value: Any) -> None:
    """A factory's value must be a bool, int, finite float or str."""
    if not isinstance(value, bool | int | float | str):
        raise TypeError(f"value of {key} must be a bool, int, float or str, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"value of {key} must be a finite number, got {value!r}")


def _literal(raw: str, key: str) -> Value:
    """``true``/``false`` -> bool, integers -> int, decimals -> float, else the string.

    Raises:
        ValueError: a number of more than 100 characters, or one too large for a float
            (``1e999``).
    """
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if _FLOAT.fullmatch(raw):  # integers match too
        if len(raw) > MAX_NUMBER_LENGTH:
            raise ValueError(
                f"{key} is a number of {len(raw)} characters ({raw[:20]}...); at most "
                f"{MAX_NUMBER_LENGTH} are allowed"
            )
        if _INT.fullmatch(raw):
            return int(raw)
        value = float(raw)
        if not math.isfinite(value):
            raise ValueError(f"{key} must be a finite number, got {raw}")
        return value
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
