"""The network as the batched search's evaluator: numpy batches in, priors and values out.

Inference runs on a copy of the network with its batch norms folded into the convolutions, in
float32 or bfloat16. bfloat16 halves the cost of a large batch on CPUs with bfloat16 matrix
units (Intel AMX, for instance) and is slower elsewhere, so the default precision, ``"auto"``,
times both on a batch of the expected size once and keeps the faster one. Training always runs
in float32. With ``inference="compile"`` the copy runs through ``torch.compile`` (for any
batch size: one compile, announced, on the first call); new weights are copied into it in
place, so they need no new compile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch

from agents.alphazero.config import INFERENCES, PRECISIONS
from agents.alphazero.network import PolicyValueNet, encode, masked_log_softmax
from connectn_env.games.compile_notice import announce_compile
from connectn_env.games.validation import require_choice

_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}
_TIMING_SECONDS = 0.15
_MARGIN = 0.9  # bfloat16 must be at least 10% faster to be chosen


def weights_of(model: torch.nn.Module) -> dict[str, np.ndarray]:
    """The model's state dict as numpy arrays (cheap to send to worker processes)."""
    return {name: value.detach().cpu().numpy().copy() for name, value in model.state_dict().items()}


@contextmanager
def torch_threads(threads: int | None) -> Iterator[None]:
    """Run the block with torch's intra-op threads set to ``threads`` (None: as they are),
    then restore the number it had. The setting is the process's: torch ops of other
    threads meanwhile use it too."""
    if threads is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _seconds_per_call(model: torch.nn.Module, x: torch.Tensor) -> float:
    with torch.inference_mode():
        model(x)  # warm-up: oneDNN picks and caches its kernels
        start, calls = time.thread_time(), 0
        while time.thread_time() - start < _TIMING_SECONDS or calls < 3:
            model(x)
            calls += 1
        return (time.thread_time() - start) / calls


def fastest_precision(model: PolicyValueNet, batch: int, device: Any = "cpu") -> str:
    """``"bfloat16"`` if the folded ``model`` evaluates a batch of ``batch`` positions clearly
    faster in bfloat16 than in float32 on ``device``, else ``"float32"``."""
    spec = model.spec
    folded = model.folded().to(device)
    x = torch.zeros(batch, 3, spec.rows, spec.cols, device=device)
    single = _seconds_per_call(folded, x)
    try:
        half = _seconds_per_call(folded.to(torch.bfloat16), x.to(torch.bfloat16))
    except RuntimeError:  # no bfloat16 kernels here
        return "float32"
    return "bfloat16" if half < _MARGIN * single else "float32"


class NetworkEvaluator:
    """``evaluate(observations, players, masks) -> (priors, values)`` with a network in
    inference mode (see :mod:`agents.batched` for the arrays).

    Args:
        model: The network.
        device: torch device.
        clock: What :attr:`seconds` is measured with (``time.thread_time`` for CPU time).
        precision: ``"float32"``, ``"bfloat16"`` or ``"auto"`` (the faster of the two for a
            batch of ``batch`` positions, measured once).
        batch: The batch size ``"auto"`` times (the number of searches run together).
        inference: ``"eager"`` or ``"compile"`` (``torch.compile``, compiled on the first
            call).

    Attributes:
        model: The network (kept in eval mode).
        precision: The precision in use.
        inference: How the network runs.
        calls: Batches evaluated.
        positions: Positions evaluated.
        seconds: Time spent in the network (encoding, forward pass, softmax), by ``clock``.
    """

    def __init__(
        self,
        model: PolicyValueNet,
        device: Any = "cpu",
        clock: Callable[[], float] = time.perf_counter,
        precision: str = "float32",
        batch: int = 1,
        inference: str = "eager",
    ) -> None:
        require_choice("precision", precision, PRECISIONS)
        require_choice("inference", inference, INFERENCES)
        self.model = model.to(device).eval()
        self.clock = clock
        self.device = torch.device(device)
        if precision == "auto":
            precision = fastest_precision(self.model, batch, device)
        self.precision = precision
        self.calls = 0
        self.positions = 0
        self.seconds = 0.0
        self.inference = inference
        self._copy = self._inference_copy()
        self._forward: Callable[[torch.Tensor], Any] = self._copy
        if inference == "compile":
            self._forward = torch.compile(self._copy, dynamic=True)
        self._compiled = inference != "compile"  # (eager: nothing to compile)

    def _inference_copy(self) -> torch.nn.Module:
        return self.model.folded().to(_DTYPES[self.precision])

    def load(self, weights: dict[str, Any]) -> None:
        """Load a state dict (tensors or numpy arrays)."""
        state = {name: torch.as_tensor(value) for name, value in weights.items()}
        self.model.load_state_dict(state)
        self.model.eval()
        self._copy.load_state_dict(self._inference_copy().state_dict())  # in place

    def _run(self, x: torch.Tensor) -> Any:
        if self._compiled:
            return self._forward(x)
        try:
            with announce_compile("the network with torch.compile"):
                output = self._forward(x)
        except Exception as error:  # no C++ compiler, an unsupported platform, ...
            reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise RuntimeError(
                f"torch.compile could not compile the network ({type(error).__name__}: "
                f"{reason}); run it eager instead (inference='eager', connectn train "
                "--inference eager)"
            ) from error
        self._compiled = True
        return output

    def __call__(
        self, observations: np.ndarray, players: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        start = self.clock()
        with torch.inference_mode():
            x = encode(observations, players, self.device).to(_DTYPES[self.precision])
            logits, values = self._run(x)
            legal = torch.as_tensor(np.asarray(masks), device=self.device)
            priors = masked_log_softmax(logits.float(), legal).exp()
            result = (
                priors.to(torch.float64).cpu().numpy(),
                values.to(torch.float64).cpu().numpy(),
            )
        self.calls += 1
        self.positions += len(masks)
        self.seconds += self.clock() - start
        return result
