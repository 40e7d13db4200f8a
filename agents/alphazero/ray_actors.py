"""The trainer's workers as Ray actors (``pip install ".[distributed]"``).

``address`` is what ``ray.init`` takes: ``"auto"`` (the cluster this machine belongs to, started
with ``ray start``), ``"ray://head:10001"`` (Ray Client) or ``"local"`` (start a Ray instance
here). If Ray is already initialised in this process (``ray.init(num_cpus=2)`` in a script or a
test), that instance is used whatever the address.
"""

from __future__ import annotations

from typing import Any

from agents.alphazero.actors import WorkerError


def import_ray() -> Any:
    """The ``ray`` module, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(
            'Ray is not installed: pip install ".[distributed]" from a checkout '
            '(or pip install "ray[default]")'
        ) from error
    return ray


class RayActors:
    """Each actor is a Ray actor holding one CPU; the driver stays the learner."""

    def __init__(self, address: str | None) -> None:
        ray = import_ray()
        self._ray = ray
        self._owned = False
        if not ray.is_initialized():
            ray.init(address=None if address in (None, "local") else address)
            self._owned = True
        self._actors: list[Any] = []

    def start(self, cls: type, *args: Any) -> Any:
        actor = self._ray.remote(num_cpus=1)(cls).remote(*args)
        self._actors.append(actor)
        return actor

    def share(self, value: Any) -> Any:
        """Put ``value`` in the object store once for every actor that receives it."""
        return self._ray.put(value)

    def call(self, actor: Any, method: str, *args: Any) -> Any:
        return getattr(actor, method).remote(*args)

    def ready(self, calls: list[Any], timeout: float) -> list[Any]:
        if not calls:
            return []
        first, rest = self._ray.wait(list(calls), num_returns=1, timeout=timeout)
        if first and rest:
            more, _ = self._ray.wait(rest, num_returns=len(rest), timeout=0)
            first += more
        return first

    def result(self, call: Any) -> Any:
        try:
            return self._ray.get(call)
        except self._ray.exceptions.RayError as error:
            raise WorkerError(f"a Ray worker failed:\n{error}") from None

    def close(self) -> None:
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors = []
        if self._owned:
            self._ray.shutdown()
            self._owned = False
