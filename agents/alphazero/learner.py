"""The learner: AdamW steps on the AlphaZero loss (policy cross-entropy plus value squared
error; the weight decay is the L2 term)."""

from __future__ import annotations

from typing import Any

import torch

from agents.alphazero.network import PolicyValueNet, encode, masked_log_softmax
from agents.alphazero.replay import Batch


def losses(model: PolicyValueNet, batch: Batch, device: Any = "cpu") -> dict[str, torch.Tensor]:
    """``{"policy", "value", "loss"}`` of ``model`` on ``batch`` (means over positions):
    cross-entropy of the policy targets against the network's policy over the legal actions,
    over the positions that have a target (a fast search of playout cap randomization leaves
    its target all zero: value only), and squared error of the value."""
    logits, values = model(encode(batch.observations, batch.players, device))
    masks = torch.as_tensor(batch.masks, device=device)
    targets = torch.as_tensor(batch.policies, device=device)
    per_position = -(targets * masked_log_softmax(logits, masks)).sum(dim=1)
    targeted = int((targets.sum(dim=1) > 0).sum())  # a target sums to 1, or to 0 (none)
    policy = per_position.mean() * (len(per_position) / max(targeted, 1))  # x1.0 when all have one
    value = torch.mean((values - torch.as_tensor(batch.values, device=device)) ** 2)
    return {"policy": policy, "value": value, "loss": policy + value}


class Learner:
    """Trains ``model`` in place, its convolution weights in channels-last layout (a CPU step of
    the default network 1.2 to 1.4 times as fast as in NCHW: ``benchmarks/learner_speed.py``).

    Args:
        model: The network.
        learning_rate: AdamW learning rate.
        weight_decay: AdamW weight decay.
        device: Where the model lives.
    """

    def __init__(
        self, model: PolicyValueNet, *, learning_rate: float, weight_decay: float, device: Any
    ) -> None:
        self.model = model.to(device, memory_format=torch.channels_last)
        self.device = torch.device(device)
        self.optimizer = torch.optim.AdamW(
            model.parameters(), lr=learning_rate, weight_decay=weight_decay
        )
        self.steps = 0

    def step(self, batch: Batch) -> dict[str, float]:
        """One gradient step on ``batch``; returns the losses before the step."""
        self.model.train()
        parts = losses(self.model, batch, self.device)
        self.optimizer.zero_grad(set_to_none=True)
        parts["loss"].backward()
        self.optimizer.step()
        self.steps += 1
        return {name: float(value.detach()) for name, value in parts.items()}
