"""The network as the batched search's evaluator: numpy batches in, priors and values out."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import torch

from agents.alphazero.network import PolicyValueNet, encode, masked_log_softmax

__all__ = ["NetworkEvaluator", "weights_of"]


def weights_of(model: torch.nn.Module) -> dict[str, np.ndarray]:
    """The model's state dict as numpy arrays (cheap to send to worker processes)."""
    return {name: value.detach().cpu().numpy().copy() for name, value in model.state_dict().items()}


class NetworkEvaluator:
    """``evaluate(observations, players, masks) -> (priors, values)`` with a network in
    inference mode (see :mod:`agents.batched` for the arrays).

    Attributes:
        model: The network (kept in eval mode).
        calls: Batches evaluated.
        positions: Positions evaluated.
        seconds: Time spent in the network (encoding, forward pass, softmax).
    """

    def __init__(self, model: PolicyValueNet, device: Any = "cpu") -> None:
        self.model = model.to(device).eval()
        self.device = torch.device(device)
        self.calls = 0
        self.positions = 0
        self.seconds = 0.0
        self._forward = self.model.folded()

    def load(self, weights: dict[str, Any]) -> None:
        """Load a state dict (tensors or numpy arrays)."""
        state = {name: torch.as_tensor(value) for name, value in weights.items()}
        self.model.load_state_dict(state)
        self.model.eval()
        self._forward = self.model.folded()

    def __call__(
        self, observations: np.ndarray, players: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        start = time.perf_counter()
        with torch.inference_mode():
            logits, values = self._forward(encode(observations, players, self.device))
            legal = torch.as_tensor(np.asarray(masks), device=self.device)
            priors = masked_log_softmax(logits, legal).exp()
            result = (
                priors.to(torch.float64).cpu().numpy(),
                values.to(torch.float64).cpu().numpy(),
            )
        self.calls += 1
        self.positions += len(masks)
        self.seconds += time.perf_counter() - start
        return result
