"""Checkpoint files: a network's weights with its game and shape, saved with ``torch.save`` of
plain data (state dicts, numbers, strings) and read with ``torch.load(weights_only=True)``:
no pickled objects, so loading a file runs no code from it.

Every file holds ``{"format", "version", "game": {"name", "params"}, "network": NetworkSpec
data, "model": state dict}``; a training checkpoint (``latest.pt``) also holds the optimizer's
state dict, the training config and the run's progress.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from agents.alphazero.config import MAX_BLOCKS, MAX_CHANNELS
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from connectn_env.atomic_write import write_bytes_atomically
from connectn_env.games import BoardGame
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int
from connectn_env.safe_files import describe_file_error, read_regular_bytes

__all__ = [
    "FORMAT",
    "MAX_CHECKPOINT_BYTES",
    "Checkpoint",
    "CheckpointError",
    "load_checkpoint",
    "save_checkpoint",
]

FORMAT = "connectn-alphazero"
VERSION = 1
MAX_CHECKPOINT_BYTES = 2 * 2**30  # a 20-block, 256-channel network with its optimizer: 0.3 GiB


class CheckpointError(ValueError):
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
    stream = io.BytesIO()
    torch.save(data, stream)
    write_bytes_atomically(path, stream.getbuffer())


def load_checkpoint(path: str | Path, game: BoardGame | GameConfig | None = None) -> Checkpoint:
    """Read a checkpoint file (``torch.load(weights_only=True)``), on the CPU.

    Args:
        path: The file.
        game: If given, the checkpoint must be for this game (and board size).

    Raises:
        CheckpointError: the file is missing, unreadable, not a checkpoint of this suite, or
            for another game than ``game``; the message names the file.
    """
    path = Path(path)
    try:
        raw = read_regular_bytes(path, max_bytes=MAX_CHECKPOINT_BYTES, what="a checkpoint")
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no checkpoint file there") from None
    except (OSError, ValueError) as error:
        reason = describe_file_error(path, error).removeprefix(f"{path}: ")
        raise CheckpointError(f"{path}: cannot read checkpoint: {reason}") from None
    try:
        data = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many kinds for a file it cannot read
        raise CheckpointError(f"{path}: cannot read checkpoint: {_torch_error(error)}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{path}: not a connectn AlphaZero checkpoint")
    if data.get("version") != VERSION:
        raise CheckpointError(
            f"{path}: checkpoint version {data.get('version')!r}; this version reads {VERSION}"
        )
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
    if game is not None:
        checkpoint.check_game(game)
    return checkpoint


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
    """The gist of an error of ``torch.load``, on one line (its weights-only refusal is a page
    of text that advises loading the file unsafely)."""
    text = str(error)
    if "WeightsUnpickler error:" in text:
        detail = text.split("WeightsUnpickler error:", 1)[1].strip().splitlines()[0]
        return f"it holds more than plain weights and is refused unread ({detail})"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__
