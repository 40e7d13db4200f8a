"""What ``evaluate`` accepts as a candidate, made into something the arena's games can build.

A candidate is an agent spec (``"mcts:simulations=400"``, ``"az:path=..."``,
``"module:callable"``), ``"sb3:path=model.zip"``, an agent object (anything with
``act(env) -> action``, as the arena's agents) or a plain callable
``policy(observation, action_mask) -> action`` (wrapped in :class:`agents.PolicyAgent`).

A spec is built afresh in each game, in the arena's worker processes; an object or a
callable plays all its games in this process, one after another (a worker process could not
always rebuild it: a function of a script's ``__main__``, a lambda). For games in parallel,
give a ``module:callable`` spec that makes the agent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents import PolicyAgent
from connectn_env.arena.worker import describe_error
from connectn_env.games.config import GameConfig
from connectn_env.ladder.sb3 import SB3_FACTORY, SB3_PREFIX
from connectn_env.specs import AgentSpec, parse_agent_spec, resolve_agent

_UNPICKLE = ",unpickle=true"  # the end of an sb3: spec that lets SB3 unpickle the file
ALLOWED = (
    "an agent spec (random, mcts:..., puct:..., ab:..., az:path=FILE or az:pretrained, "
    "module:callable), sb3:path=MODEL.zip, an object with act(env), or a callable "
    "policy(observation, action_mask) -> action"
)


@dataclass(frozen=True, eq=False)
class ObjectSpec:
    """An agent object in place of an :class:`~connectn_env.specs.AgentSpec`: every game
    gets the object itself."""

    agent: Any
    label: str
    kind: str = "object"
    is_human: bool = False

    def build(self, seed: int | None = None) -> Any:
        """The agent (``seed`` is not used: the object keeps its own generator)."""
        return self.agent

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Candidate:
    """A candidate ready to play.

    Attributes:
        label: Its name in tables and results files.
        spec: What builds it in each game (an ``AgentSpec`` or an :class:`ObjectSpec`).
        local: Whether its games run in this process (an object), not in workers.
    """

    label: str
    spec: Any
    local: bool


def make_candidate(candidate: Any, name: str | None = None, role: str = "candidate") -> Candidate:
    """The :class:`Candidate` of a spec string, an ``AgentSpec``, an agent object or a policy.

    Args:
        candidate: What to evaluate (see the module docstring).
        name: Its label (default: the spec, or the object's class or function name).
        role: What errors call it (``"candidate"``; an A/B test's second agent ``"B"``).

    Raises:
        ValueError: a malformed or unknown spec (the message lists what is allowed).
        TypeError: something that is neither a spec, an agent nor a callable.
    """
    if isinstance(candidate, str):
        text = candidate.strip()
        if text.startswith(SB3_PREFIX):
            spec = AgentSpec(SB3_FACTORY, _sb3_options(text, role))
        else:
            try:
                spec = parse_agent_spec(text, allow_human=False)
            except ValueError as error:
                raise ValueError(f"{role} {text[:100]!r}: {error}; or sb3:path=MODEL.zip") from None
        return Candidate(name or text, spec, False)
    if isinstance(candidate, AgentSpec):
        return Candidate(name or str(candidate), candidate, False)
    if callable(getattr(candidate, "act", None)):
        label = name or type(candidate).__name__
    elif callable(candidate):
        label = name or getattr(candidate, "__qualname__", type(candidate).__name__)
        candidate = PolicyAgent(candidate)
    else:
        raise TypeError(f"{role} {candidate!r} of type {type(candidate).__name__} is not {ALLOWED}")
    return Candidate(label, ObjectSpec(candidate, label), True)


def check_candidate(candidate: Candidate, game: GameConfig, role: str = "candidate") -> None:
    """Build ``candidate`` once and refuse a game it cannot play (an ``az`` network or an
    SB3 model of another game or shape: an agent's own ``check_game(game)`` is asked).

    Raises:
        ValueError: the message names the candidate and what is wrong.
    """
    try:
        agent = resolve_agent(candidate.spec, game, seed=0)
        check = getattr(agent, "check_game", None)
        if callable(check):
            check(game.make_game())
    except Exception as error:
        kind, message = describe_error(error)
        raise ValueError(
            f"{role} {candidate.label!r} cannot play {game}: {kind}: {message}"
        ) from None


def _sb3_options(text: str, role: str) -> tuple[tuple[str, str | bool], ...]:
    """``sb3:path=FILE[,unpickle=true]`` -> the factory's options (the path is the rest of
    the spec, commas included)."""
    unpickle = text.endswith(_UNPICKLE)
    key, equals, path = text[len(SB3_PREFIX) : len(text) - len(_UNPICKLE) * unpickle].partition("=")
    if key.strip() != "path" or not equals or not path.strip():
        raise ValueError(
            f"{role} {text[:100]!r}: an SB3 model is sb3:path=MODEL.zip (or "
            f"sb3:path=MODEL.zip{_UNPICKLE}, which runs the code pickled in the file)"
        )
    return (("path", path.strip()),) + ((("unpickle", True),) if unpickle else ())
