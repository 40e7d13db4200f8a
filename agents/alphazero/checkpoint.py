"""Checkpoint files: a network's weights with its game and shape, saved with ``torch.save`` of
plain data (state dicts, numbers, strings) and read with ``torch.load(weights_only=True)``:
no pickled objects, so loading a file runs no code from it.

Every file holds ``{"format", "version", "game": {"name", "params"}, "network": NetworkSpec
data, "model": state dict, "sha256"}``; a training checkpoint (``latest.pt``) also holds the
optimizer's state dict, the training config and the run's progress.

``sha256`` is the digest of every other entry as loaded (each tensor's dtype, shape and raw
bytes, every number and string, dict keys in a fixed order): torch's zip reader checks no
CRCs, so a flipped byte in the weight data would otherwise load as other weights. A digest of
what is loaded, rather than of the serialized bytes, covers everything the file gives its
reader, whatever torch's zip layout; damage to the rest (zip headers) either stops
``torch.load`` or changes nothing loaded. Version 1 files, written before the digest, have
none and still load unchecked; a version 2 file must have one, and a digest found in any file
is checked, so no single flip turns a checked file into an unchecked one.
"""

from __future__ import annotations

import hashlib
import io
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from agents.alphazero.config import MAX_BLOCKS, MAX_CHANNELS
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from connectn_env.atomic_write import write_bytes_atomically
from connectn_env.errors import ConnectnError
from connectn_env.games import BoardGame
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int
from connectn_env.safe_files import describe_file_error, read_regular_bytes

FORMAT = "connectn-alphazero"
VERSION = 2
UNCHECKED_VERSION = 1  # written before checkpoints carried a digest: read without one
DIGEST_KEY = "sha256"
ZIP_MAGIC = b"PK\x03\x04"  # torch.save's format: a zip archive
MAX_CHECKPOINT_BYTES = 2 * 2**30  # a 20-block, 256-channel network with its optimizer: 0.3 GiB
_CACHED_FILES = 8  # checkpoints kept by cached_checkpoint (a ladder's networks, a match's two)
_CACHE: dict[Any, Checkpoint] = {}  # (path, inode, size, mtime) -> the checkpoint read


class CheckpointError(ValueError, ConnectnError):
    """A file that is not a readable checkpoint, or a checkpoint of another game."""


@dataclass
class Checkpoint:
    """The content of a checkpoint file.

    Attributes:
        game: The game the network was trained on.
        spec: The network's shape.
        model: Its state dict.
        optimizer: The optimizer's state dict (training checkpoints), else None.
        config: The training config as JSON data, or None.
        progress: Counters of the run (step, games, positions, seconds...).
        path: Where it was read from (None if not read from a file).
    """

    game: GameConfig
    spec: NetworkSpec
    model: dict[str, torch.Tensor]
    optimizer: dict[str, Any] | None = None
    config: dict[str, Any] | None = None
    progress: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def network(self, device: Any = "cpu") -> PolicyValueNet:
        """A network with these weights, in eval mode."""
        model = PolicyValueNet(self.spec)
        model.load_state_dict(self.model)
        return model.to(device).eval()

    def check_game(self, game: BoardGame | GameConfig) -> None:
        """Refuse a game other than the checkpoint's.

        Raises:
            CheckpointError: the message names both games.
        """
        config = game if isinstance(game, GameConfig) else GameConfig.from_game(game)
        if config.make_game() != self.game.make_game():
            where = f"{self.path}: the checkpoint" if self.path is not None else "checkpoint"
            raise CheckpointError(
                f"{where} was trained on {self.game}, not on {config}: a network "
                "only plays the game and board size it was trained on"
            )


def save_checkpoint(path: str | Path, checkpoint: Checkpoint) -> None:
    """Write ``checkpoint`` to ``path`` atomically (a temporary file, then a rename)."""
    path = Path(path)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": {"name": checkpoint.game.name, "params": dict(checkpoint.game.params)},
        "network": checkpoint.spec.to_json(),
        "model": {name: value.detach().cpu() for name, value in checkpoint.model.items()},
        "progress": dict(checkpoint.progress),
    }
    if checkpoint.optimizer is not None:
        data["optimizer"] = checkpoint.optimizer
    if checkpoint.config is not None:
        data["config"] = checkpoint.config
    data[DIGEST_KEY] = content_digest(data)
    stream = io.BytesIO()
    torch.save(data, stream)
    write_bytes_atomically(path, stream.getbuffer())


def load_checkpoint(path: str | Path, game: BoardGame | GameConfig | None = None) -> Checkpoint:
    """Read a checkpoint file (``torch.load(weights_only=True)``), on the CPU, checking its
    digest before anything else is read from it (a version 1 file, saved before checkpoints
    carried one, is read unchecked).

    Args:
        path: The file.
        game: If given, the checkpoint must be for this game (and board size).

    Raises:
        CheckpointError: the file is missing, unreadable, not a checkpoint of this suite,
            damaged (its contents unlike its digest), or for another game than ``game``; the
            message names the file.
    """
    path = Path(path)
    checkpoint = checkpoint_from_bytes(path, read_checkpoint_bytes(path))
    if game is not None:
        checkpoint.check_game(game)
    return checkpoint


def cached_checkpoint(path: str | Path, game: BoardGame | GameConfig | None = None) -> Checkpoint:
    """:func:`load_checkpoint` read once per process: the same unchanged file (its inode,
    size and modification time) gives the checkpoint read the first time, shared, so a spec
    checked, then built, then searched with reads it once. For agents, which only read it
    (a trainer, which changes what it loads, reads with :func:`load_checkpoint`).

    Raises:
        CheckpointError: as :func:`load_checkpoint`.
    """
    path = Path(path)
    checkpoint = cached_read(path, lambda: checkpoint_from_bytes(path, read_checkpoint_bytes(path)))
    if game is not None:
        checkpoint.check_game(game)
    return checkpoint


def cached_read(path: Path, load: Callable[[], Checkpoint]) -> Checkpoint:
    """``load()``'s checkpoint of ``path``, or the one it gave before for the file unchanged
    (at most :data:`_CACHED_FILES` files are kept, the oldest dropped first)."""
    try:
        info = path.stat()
        key: Any = (str(path.resolve()), info.st_ino, info.st_size, info.st_mtime_ns)
    except (OSError, ValueError):
        return load()  # the read names what is wrong
    if key not in _CACHE:
        while len(_CACHE) >= _CACHED_FILES:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = load()
    return _CACHE[key]


def read_checkpoint_bytes(path: Path) -> bytes:
    """The bytes of the checkpoint file ``path`` (a regular file of at most
    :data:`MAX_CHECKPOINT_BYTES`).

    Raises:
        CheckpointError: the file is missing or unreadable (the message names it).
    """
    try:
        return read_regular_bytes(path, max_bytes=MAX_CHECKPOINT_BYTES, what="a checkpoint")
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no checkpoint file there") from None
    except (OSError, ValueError) as error:
        reason = describe_file_error(path, error).removeprefix(f"{path}: ")
        raise CheckpointError(f"{path}: cannot read checkpoint: {reason}") from None


def checkpoint_from_bytes(path: Path, raw: bytes) -> Checkpoint:
    """The checkpoint in ``raw``, the bytes of the file ``path`` (named in messages): its
    digest checked before anything else is read from it.

    Raises:
        CheckpointError: not a checkpoint of this suite, or damaged.
    """
    if not raw.startswith(ZIP_MAGIC):
        raise CheckpointError(
            f"{path}: cannot read checkpoint: not the zip archive that torch.save writes "
            f"(it begins {raw[:8]!r})"
        )
    try:
        data = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many kinds for a file it cannot read
        raise CheckpointError(f"{path}: cannot read checkpoint: {_torch_error(error)}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{path}: not a connectn AlphaZero checkpoint")
    _check_digest(path, data)
    try:
        info = data["game"]
        game_config = GameConfig(info["name"], dict(info["params"]))
        checkpoint = Checkpoint(
            game=game_config,
            spec=_network_spec(data["network"], game_config),
            model=dict(data["model"]),
            optimizer=_optional_dict(data, "optimizer"),
            config=_optional_dict(data, "config"),
            progress=dict(data.get("progress", {})),
            path=path,
        )
        PolicyValueNet(checkpoint.spec).load_state_dict(checkpoint.model)
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        raise CheckpointError(f"{path}: a damaged checkpoint: {error}") from None
    return checkpoint


def content_digest(data: dict[str, Any]) -> str:
    """The SHA-256 (hex) of a checkpoint's entries other than its digest, as
    :func:`save_checkpoint` stores it: each tensor's dtype, shape and raw bytes, every number,
    string and container, dict keys sorted, each value tagged with its type and length.

    Raises:
        TypeError: ``data`` holds a value other than tensors, numbers, strings, None, lists,
            tuples and dicts.
    """
    hasher = hashlib.sha256()
    _feed(hasher, {key: value for key, value in data.items() if key != DIGEST_KEY})
    return hasher.hexdigest()


def _feed(hasher: Any, value: Any) -> None:
    """Hash ``value`` unambiguously: a type tag, then a length or fixed-size encoding."""

    def chunk(tag: bytes, payload: bytes | memoryview) -> None:
        hasher.update(tag + struct.pack("<Q", len(payload)))
        hasher.update(payload)

    if value is None:
        chunk(b"N", b"")
    elif isinstance(value, bool):
        chunk(b"B", bytes([value]))
    elif isinstance(value, int):
        chunk(b"I", hex(value).encode())  # no int-string limit
    elif isinstance(value, float):
        chunk(b"F", struct.pack("<d", value))
    elif isinstance(value, str):
        chunk(b"S", value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, torch.Tensor):
        flat = value.detach().cpu().contiguous().reshape(-1)
        chunk(b"T", f"{value.dtype}{tuple(value.shape)}".encode())
        hasher.update(memoryview(flat.view(torch.uint8).numpy()))
    elif isinstance(value, list | tuple):
        chunk(b"L" if isinstance(value, list) else b"U", struct.pack("<Q", len(value)))
        for item in value:
            _feed(hasher, item)
    elif isinstance(value, dict):
        chunk(b"D", struct.pack("<Q", len(value)))
        for key in sorted(value, key=lambda k: (type(k).__name__, repr(k))):
            _feed(hasher, key)
            _feed(hasher, value[key])
    else:
        raise TypeError(f"a checkpoint holds no {type(value).__name__} values")


def _check_digest(path: Path, data: dict[str, Any]) -> None:
    """Refuse a file of another version, or whose entries do not hash to its digest."""
    version = data.get("version")
    if type(version) is not int or version not in (UNCHECKED_VERSION, VERSION):
        raise CheckpointError(
            f"{path}: checkpoint version {version!r:.40}; this version reads "
            f"{UNCHECKED_VERSION} and {VERSION}"
        )
    stored = data.get(DIGEST_KEY)
    if stored is None:
        if version == UNCHECKED_VERSION:
            return
        raise CheckpointError(f"{path}: damaged: it has no checksum, as version {VERSION} has")
    try:
        matches = isinstance(stored, str) and stored == content_digest(data)
    except (TypeError, RecursionError):  # a value no checkpoint is saved with
        matches = False
    if not matches:
        raise CheckpointError(
            f"{path}: damaged: its contents do not match the checksum it was saved with"
        )


def _network_spec(data: Any, game: GameConfig) -> NetworkSpec:
    """The network's spec in ``data``: sizes within the trainer's bounds (no huge allocation
    from a crafted file), board and actions those of ``game``."""
    if not isinstance(data, dict):
        raise TypeError(f"its network entry is a {type(data).__name__}, not a dict")
    channels = require_int("network channels", data.get("channels"), 1, MAX_CHANNELS)
    blocks = require_int("network blocks", data.get("blocks"), 0, MAX_BLOCKS)
    spec = NetworkSpec.for_game(game.make_game(), channels=channels, blocks=blocks)
    if spec.to_json() != data:
        raise ValueError(f"its network {data!r:.200} does not fit {game}")
    return spec


def _optional_dict(data: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise TypeError(f"its {key!r} entry is a {type(value).__name__}, not a dict")
    return value


def _torch_error(error: Exception) -> str:
    """The gist of an error of ``torch.load``: its first sentence (its weights-only refusal is
    a page of text that advises loading the file unsafely, and a damaged archive's error adds
    a paragraph of advice)."""
    text = str(error)
    if "WeightsUnpickler error:" in text:
        detail = text.split("WeightsUnpickler error:", 1)[1].strip().splitlines()[0]
        return f"it holds more than plain weights and is refused unread ({detail})"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0].split(". ", 1)[0] if lines else type(error).__name__
