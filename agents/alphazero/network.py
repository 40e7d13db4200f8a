"""The policy-value network: fully convolutional over the board, for any game of the suite.

Input: three planes per cell, the stones of the player to move, the opponent's stones, and a
plane of ones when player_1 is to move (Hex's sides differ, so the network must know whose
turn it is). A residual tower of 3x3 convolutions feeds three heads:

- policy over the board's actions: one logit per cell (a 1x1 convolution), or for a gravity
  game one per column (features pooled down each column, max and mean);
- policy over the game's special actions (Hex's swap, a pass): from features pooled over the
  board;
- value in [-1, 1] for the player to move: from features pooled over the board.

Nothing depends on the board size but the output layout, so one architecture serves every
game; a trained network is tied to its game by its checkpoint (:mod:`.checkpoint`).
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

from connectn_env.games import BoardGame

INPUT_PLANES = 3
VALUE_HIDDEN = 64


@dataclass(frozen=True)
class NetworkSpec:
    """The shape of a network: board, action layout and size.

    Attributes:
        rows, cols: Board size.
        num_actions: Size of the action space.
        columns: True if the board's actions are columns (gravity games), else cells.
        specials: Actions after the board's (swap, pass).
        channels: Convolution channels.
        blocks: Residual blocks.
    """

    rows: int
    cols: int
    num_actions: int
    columns: bool
    specials: int
    channels: int
    blocks: int

    @classmethod
    def for_game(cls, game: BoardGame, *, channels: int, blocks: int) -> NetworkSpec:
        """The spec of a network for ``game``.

        Raises:
            ValueError: the game's actions are not one per cell (or per column with gravity)
                followed by its special actions.
        """
        board = game.cols if game.gravity else game.rows * game.cols
        specials = sorted(game.special_actions)
        if specials != list(range(board, game.num_actions)):
            raise ValueError(
                f"{game!r} has {game.num_actions} actions with special actions {specials}: the "
                f"network needs one action per {'column' if game.gravity else 'cell'} "
                f"({board}) followed by the special actions"
            )
        return cls(
            rows=game.rows,
            cols=game.cols,
            num_actions=game.num_actions,
            columns=bool(game.gravity),
            specials=len(specials),
            channels=channels,
            blocks=blocks,
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NetworkSpec:
        return cls(**data)


def encode(observations: Any, players: Any, device: Any = "cpu") -> torch.Tensor:
    """float32 network input ``(n, 3, rows, cols)`` from int8 observations ``(n, rows, cols, 2)``
    (for the player to move) and the players to move ``(n,)``."""
    planes = torch.as_tensor(np.asarray(observations), device=device)
    n, rows, cols, _ = planes.shape
    stones = planes.permute(0, 3, 1, 2).to(torch.float32)
    side = torch.as_tensor(np.asarray(players), device=device).to(torch.float32)
    side = side.view(n, 1, 1, 1).expand(n, 1, rows, cols)
    return torch.cat((stones, side), dim=1)


class _Block(nn.Module):
    """Two 3x3 convolutions with batch norm and a skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.norm1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.norm2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.norm1(self.conv1(x)))
        return torch.relu(x + self.norm2(self.conv2(y)))


def _head(channels: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(channels, channels, 1, bias=False), nn.BatchNorm2d(channels), nn.ReLU()
    )


def _pool(x: torch.Tensor) -> torch.Tensor:
    """Mean and max over the board: ``(n, c, rows, cols) -> (n, 2c)``."""
    return torch.cat((x.mean(dim=(2, 3)), x.amax(dim=(2, 3))), dim=1)


class PolicyValueNet(nn.Module):
    """The network of :class:`NetworkSpec` (see the module docstring).

    ``forward(x)`` takes :func:`encode`'s planes and returns ``(logits (n, num_actions),
    value (n,))``.
    """

    def __init__(self, spec: NetworkSpec) -> None:
        super().__init__()
        self.spec = spec
        c = spec.channels
        self.stem = nn.Sequential(
            nn.Conv2d(INPUT_PLANES, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU()
        )
        self.tower = nn.Sequential(*(_Block(c) for _ in range(spec.blocks)))
        self.policy_features = _head(c)
        self.policy_out = nn.Conv1d(2 * c, 1, 1) if spec.columns else nn.Conv2d(c, 1, 1)
        self.specials_out = nn.Linear(2 * c, spec.specials) if spec.specials else None
        self.value_features = _head(c)
        self.value_out = nn.Sequential(
            nn.Linear(2 * c, VALUE_HIDDEN), nn.ReLU(), nn.Linear(VALUE_HIDDEN, 1), nn.Tanh()
        )

    def folded(self) -> PolicyValueNet:
        """A copy for inference with every batch norm folded into the convolution before it
        (the same outputs in eval mode, about a fifth faster on a CPU)."""
        copy = deepcopy(self).eval()
        pairs = [(copy.stem, 0, 1), (copy.policy_features, 0, 1), (copy.value_features, 0, 1)]
        for sequence, conv, norm in pairs:
            sequence[conv] = fuse_conv_bn_eval(sequence[conv], sequence[norm])
            sequence[norm] = nn.Identity()
        for block in copy.tower:
            block.conv1 = fuse_conv_bn_eval(block.conv1, block.norm1)
            block.conv2 = fuse_conv_bn_eval(block.conv2, block.norm2)
            block.norm1 = nn.Identity()
            block.norm2 = nn.Identity()
        return copy

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.tower(self.stem(x))
        policy = self.policy_features(features)
        if self.spec.columns:
            down = torch.cat((policy.amax(dim=2), policy.mean(dim=2)), dim=1)  # (n, 2c, cols)
            logits = self.policy_out(down).flatten(1)
        else:
            logits = self.policy_out(policy).flatten(1)
        if self.specials_out is not None:
            logits = torch.cat((logits, self.specials_out(_pool(features))), dim=1)
        value = self.value_out(_pool(self.value_features(features))).flatten()
        return logits, value


def masked_log_softmax(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the legal actions (``masks`` nonzero); illegal ones get a very
    low log-probability (not -inf, so that a zero target times it stays 0)."""
    low = torch.finfo(logits.dtype).min / 2
    return torch.log_softmax(logits.masked_fill(masks == 0, low), dim=1)
