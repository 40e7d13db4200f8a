"""The networks shipped with the package, one per game that has one (``az:pretrained``).

They live in ``agents/alphazero/networks/``: a checkpoint per game (trained by ``connectn
train``, its optimizer state left out) and ``manifest.json``, which names each file's game, its
SHA-256 and its model card (``docs/models/``: the command, the minutes, the games, the
network's size and its evaluation). A file whose bytes do not match the manifest is refused by
name, before torch reads it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from agents.alphazero.checkpoint import (
    Checkpoint,
    CheckpointError,
    cached_read,
    checkpoint_from_bytes,
)
from connectn_env.games import BoardGame
from connectn_env.games.config import GameConfig
from connectn_env.safe_files import read_regular_bytes

NETWORKS = Path(__file__).resolve().parent / "networks"
MANIFEST = NETWORKS / "manifest.json"
_MAX_MANIFEST_BYTES = 1 << 20
MIN_NETWORK_PREFIX = 8  # hex digits of a SHA-256 that name a network (as git's short hashes)
_HEX = re.compile(r"[0-9a-fA-F]+")


@dataclass(frozen=True)
class PretrainedNetwork:
    """One shipped network.

    Attributes:
        game: The game (and board size) it plays.
        path: Its checkpoint file.
        sha256: The SHA-256 (hex) of the file's bytes.
        card: Its model card, a page under ``docs/models/``.
    """

    game: GameConfig
    path: Path
    sha256: str
    card: str


def pretrained_networks() -> dict[GameConfig, PretrainedNetwork]:
    """Every shipped network by its game, as ``manifest.json`` lists them.

    Raises:
        CheckpointError: the manifest is missing or damaged (the message names it).
    """
    try:
        entries = json.loads(
            read_regular_bytes(MANIFEST, max_bytes=_MAX_MANIFEST_BYTES, what="a manifest")
        )
        networks = {}
        for entry in entries["networks"]:
            game = GameConfig(entry["game"]["name"], dict(entry["game"]["params"]))
            path = NETWORKS / Path(entry["file"]).name
            networks[game] = PretrainedNetwork(game, path, str(entry["sha256"]), entry["card"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as error:
        message = f"{MANIFEST}: a damaged manifest of the shipped networks: {error}"
        raise CheckpointError(message) from None
    return networks


def pretrained_checkpoint(game: BoardGame | GameConfig, network: str | None = None) -> Checkpoint:
    """The checkpoint of the network shipped for ``game`` (its board size included).

    Args:
        game: The game.
        network: None, or the network it must be: the start of its SHA-256 (hex, at least
            :data:`MIN_NETWORK_PREFIX` digits), as a ladder's rung pins the network it rated.

    Raises:
        TypeError: ``game`` is neither a ``BoardGame`` nor a ``GameConfig``.
        ValueError: no network ships for that game (the message lists the games with one),
            a bad ``network``, or the shipped network is another one (both named).
        CheckpointError: the file is missing or fails its checksum (named in the message).
    """
    if isinstance(game, BoardGame):
        game = GameConfig.from_game(game)
    if not isinstance(game, GameConfig):
        raise TypeError(f"game must be a BoardGame or a GameConfig, got {type(game).__name__}")
    require_network_prefix(network)
    networks = pretrained_networks()
    shipped_network = networks.get(game)
    if shipped_network is None:
        shipped = ", ".join(sorted(str(config) for config in networks)) or "none"
        raise ValueError(f"no pretrained network ships for {game}; the games with one: {shipped}")
    if network is not None and not shipped_network.sha256.startswith(network.lower()):
        raise ValueError(
            f"the network shipped for {game} is {shipped_network.sha256[:12]} (SHA-256), not "
            f"{network}: this package ships another network than the one asked for"
        )
    checkpoint = cached_read(shipped_network.path, lambda: _read_shipped(shipped_network))
    checkpoint.check_game(game)
    return checkpoint


def _read_shipped(shipped_network: PretrainedNetwork) -> Checkpoint:
    """The shipped network's checkpoint: its file read once, its bytes checked against the
    manifest's SHA-256 before torch reads them."""
    path = shipped_network.path
    try:
        data = read_regular_bytes(path, max_bytes=64 << 20, what="a network")
    except OSError as error:
        raise CheckpointError(f"{path}: cannot read the shipped network: {error}") from None
    if hashlib.sha256(data).hexdigest() != shipped_network.sha256:
        raise CheckpointError(
            f"{path}: fails its checksum (its SHA-256 is not the manifest's): the "
            "shipped file is damaged; reinstall the package"
        )
    return checkpoint_from_bytes(path, data)


def require_network_prefix(network: str | None) -> None:
    """Refuse a ``network`` that is not None or the start of a SHA-256 in hex.

    Raises:
        TypeError: not a string or None.
        ValueError: fewer than :data:`MIN_NETWORK_PREFIX` or more than 64 digits, or not hex.
    """
    if network is None:
        return
    if not isinstance(network, str):
        raise TypeError(f"network must be a string (hex SHA-256 prefix), got {network!r}")
    if not MIN_NETWORK_PREFIX <= len(network) <= 64 or not _HEX.fullmatch(network):
        raise ValueError(
            f"network must be {MIN_NETWORK_PREFIX} to 64 hex digits (the start of the "
            f"network's SHA-256), got {network!r}"
        )
