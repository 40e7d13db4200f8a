"""AlphaZero for the suite's games: self-play training of a policy-value network (torch), and
the trained network as an agent.

``train(TrainConfig(game="connect_four", out="runs/c4", minutes=60))`` trains (the
``connectn train`` command does the same); ``AlphaZeroAgent.from_checkpoint("runs/c4/best.pt")``
plays. Self-play runs many games at once on :class:`agents.selfplay.BatchedSelfPlay` (one
network call serves a leaf of every game), in worker processes or Ray actors.

torch is an optional dependency (``pip install ".[train]"``): importing this package does not
import it; the names below that need it import it on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from agents.alphazero.config import ConfigError, TrainConfig

__all__ = [
    "AlphaZeroAgent",
    "Checkpoint",
    "CheckpointError",
    "ConfigError",
    "RunDirectoryError",
    "TrainConfig",
    "TrainResult",
    "load_checkpoint",
    "pretrained_networks",
    "resume_config",
    "train",
]

_LAZY = {
    "AlphaZeroAgent": "agents.alphazero.agent",
    "Checkpoint": "agents.alphazero.checkpoint",
    "CheckpointError": "agents.alphazero.checkpoint",
    "load_checkpoint": "agents.alphazero.checkpoint",
    "pretrained_networks": "agents.alphazero.pretrained",
    "RunDirectoryError": "agents.alphazero.rundir",
    "TrainResult": "agents.alphazero.trainer",
    "resume_config": "agents.alphazero.trainer",
    "train": "agents.alphazero.trainer",
}


def require_torch() -> None:
    """Import torch, or raise an ImportError that says how to install it."""
    try:
        import torch  # noqa: F401
    except ImportError as error:
        raise ImportError(
            'AlphaZero training and agents need torch: pip install ".[train]" from a checkout '
            "(CPU builds: pip install torch --index-url https://download.pytorch.org/whl/cpu)"
        ) from error


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agents.alphazero' has no attribute {name!r}")
    if name != "RunDirectoryError":
        require_torch()
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
