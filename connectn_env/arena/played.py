"""What played under a label in a results file: the agent's spec and, for an agent built from
a file (a network: ``az:path=``, ``az:pretrained``, an SB3 model), that file's SHA-256.

Each game line of a results file names them (``"specs"`` and ``"networks"``, in the
pairing's order), so that a rerun resuming the file can tell whether its agents are still
the ones that played: a ladder rung whose label now has another spec (``uct-10`` now
``ab:depth=6``), or a network trained again under the same path, cannot reuse the old games.
The games of an agent no spec names (a Python object given to ``evaluate``) name none.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from connectn_env.games.config import GameConfig
from connectn_env.records.checks import short_repr
from connectn_env.safe_files import open_regular_file
from connectn_env.specs import MAX_SPEC_LENGTH, AgentSpec, parse_agent_spec

_SHA256 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 2**20
_MAX_DIGESTED = 2**30  # bytes of a file an agent is built from


@dataclass(frozen=True)
class PlayedBy:
    """An agent as a results file names it.

    Attributes:
        spec: Its agent spec (as ``str(AgentSpec)`` writes it).
        network: The SHA-256 (hex) of the file it is built from, or None.
    """

    spec: str
    network: str | None = None

    def __str__(self) -> str:
        return self.spec if self.network is None else f"{self.spec} (network {self.network[:12]})"


def played_by(spec: Any, game: GameConfig) -> PlayedBy | None:
    """What a results file names for ``spec`` (an ``AgentSpec`` or spec text) playing
    ``game``; None for anything else (an agent object: no spec names it).

    Raises:
        ValueError: a spec that does not parse, or a file it names that cannot be read.
    """
    if isinstance(spec, str):
        spec = parse_agent_spec(spec, allow_human=False)
    if not isinstance(spec, AgentSpec):
        return None
    options = dict(spec.options)
    network = None
    if spec.kind == "az" and options.get("pretrained"):
        from agents.alphazero.pretrained import pretrained_networks

        shipped = pretrained_networks().get(game)
        network = None if shipped is None else shipped.sha256
    elif isinstance(options.get("path"), str):  # az:path=, an SB3 model, a factory's file
        network = _file_digest(options["path"])
    return PlayedBy(str(spec), network)


def _file_digest(path: str) -> str | None:
    """The SHA-256 of the regular file ``path`` (None if it is not one, or is over 1 GiB: a
    factory's path may name anything)."""
    hasher = hashlib.sha256()
    try:
        with open_regular_file(path, max_bytes=_MAX_DIGESTED) as stream:
            while chunk := stream.read(_CHUNK):
                hasher.update(chunk)
    except (OSError, ValueError):
        return None
    return hasher.hexdigest()


def played_fields(pairing: tuple[str, str], agents: dict[str, PlayedBy | None]) -> dict:
    """The ``"specs"`` and ``"networks"`` of a game line of ``pairing``."""
    named = [agents.get(label) for label in pairing]
    return {
        "specs": [None if agent is None else agent.spec for agent in named],
        "networks": [None if agent is None else agent.network for agent in named],
    }


def read_played(data: dict[str, Any]) -> tuple[PlayedBy | None, PlayedBy | None] | None:
    """The agents a game line names, in its pairing's order (None for a line written before
    results files named them).

    Raises:
        ValueError: ``specs`` or ``networks`` malformed (named).
    """
    if "specs" not in data and "networks" not in data:
        return None
    specs, networks = data.get("specs"), data.get("networks")
    if not (
        isinstance(specs, list)
        and len(specs) == 2
        and all(s is None or (isinstance(s, str) and 0 < len(s) <= MAX_SPEC_LENGTH) for s in specs)
    ):
        raise ValueError(f"key 'specs' must hold two agent specs or nulls, got {short_repr(specs)}")
    if not (
        isinstance(networks, list)
        and len(networks) == 2
        and all(n is None or (isinstance(n, str) and _SHA256.fullmatch(n)) for n in networks)
        and all(
            spec is not None or network is None
            for spec, network in zip(specs, networks, strict=True)
        )
    ):
        raise ValueError(
            "key 'networks' must hold two SHA-256 digests (hex) or nulls, null where the spec "
            f"is, got {short_repr(networks)}"
        )
    first, second = (
        None if spec is None else PlayedBy(spec, network)
        for spec, network in zip(specs, networks, strict=True)
    )
    return first, second
