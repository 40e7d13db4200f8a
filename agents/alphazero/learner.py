"""The learner: AdamW steps on the AlphaZero loss (policy cross-entropy plus value squared
error; the weight decay is the L2 term), and optionally an exponential moving average of the
weights (``torch.optim.swa_utils.AveragedModel``) as the network to play."""

from __future__ import annotations

from typing import Any

import torch
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from agents.alphazero.network import PolicyValueNet, encode, masked_log_softmax
from agents.alphazero.replay import Batch

__all__ = ["Learner", "losses"]


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
    """Trains ``model`` in place.

    Args:
        model: The network.
        learning_rate: AdamW learning rate.
        weight_decay: AdamW weight decay.
        device: Where the model lives.
        weight_average: Decay per step of the moving average of the weights and batch-norm
            statistics (0: none).
    """

    def __init__(
        self,
        model: PolicyValueNet,
        *,
        learning_rate: float,
        weight_decay: float,
        device: Any,
        weight_average: float = 0.0,
    ) -> None:
        self.model = model.to(device)
        self.device = torch.device(device)
        self.optimizer = torch.optim.AdamW(
            model.parameters(), lr=learning_rate, weight_decay=weight_decay
        )
        self.steps = 0
        self.average = None
        if weight_average > 0:
            self.average = AveragedModel(
                model, multi_avg_fn=get_ema_multi_avg_fn(weight_average), use_buffers=True
            )

    @property
    def played(self) -> PolicyValueNet:
        """The network to evaluate and play: the weight average once it has averaged a step,
        else the trained network."""
        if self.average is None or int(self.average.n_averaged) == 0:
            return self.model
        return self.average.module

    def restore_average(self, weights: dict[str, torch.Tensor]) -> None:
        """Continue the average from ``weights`` (a resumed run's, saved by a checkpoint)."""
        if self.average is None:
            raise ValueError("this learner keeps no weight average")
        self.average.module.load_state_dict(weights)
        self.average.n_averaged.fill_(1 if self.steps > 0 else 0)

    def step(self, batch: Batch) -> dict[str, float]:
        """One gradient step on ``batch``; returns the losses before the step."""
        self.model.train()
        parts = losses(self.model, batch, self.device)
        self.optimizer.zero_grad(set_to_none=True)
        parts["loss"].backward()
        self.optimizer.step()
        self.steps += 1
        if self.average is not None:
            self.average.update_parameters(self.model)
        return {name: float(value.detach()) for name, value in parts.items()}
