"""Where the trainer's workers run: in the driver, in local processes, or as Ray actors.

The three back ends share one small interface: :meth:`~InlineActors.start` an actor from a
class and its arguments, :meth:`~InlineActors.call` one of its methods (at most one call per
actor at a time), :meth:`~InlineActors.ready` to wait for calls to finish,
:meth:`~InlineActors.result` to read one (a failure in the worker raises
:class:`WorkerError` with the worker's traceback), :meth:`~InlineActors.close`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from connectn_env.errors import ConnectnError


class WorkerError(RuntimeError, ConnectnError):
    """A worker failed (the message holds its traceback) or died."""


# --- in the driver --------------------------------------------------------------------------


@dataclass(eq=False)
class _InlineCall:
    value: Any = None
    error: BaseException | None = None


class InlineActors:
    """Actors are plain objects of the driver process; a call runs at once."""

    def start(self, cls: type, *args: Any) -> Any:
        return cls(*args)

    def share(self, value: Any) -> Any:
        return value

    def call(self, actor: Any, method: str, *args: Any) -> _InlineCall:
        try:
            return _InlineCall(getattr(actor, method)(*args))
        except Exception as error:
            return _InlineCall(error=error)

    def ready(self, calls: list[Any], timeout: float) -> list[Any]:
        return list(calls)

    def result(self, call: _InlineCall) -> Any:
        if call.error is not None:
            raise call.error
        return call.value

    def close(self) -> None:
        pass


# --- local processes ------------------------------------------------------------------------


def _serve(connection: Any, cls: type, args: tuple[Any, ...]) -> None:
    """A worker process: build the actor, then answer calls until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver handles Ctrl-C and stops us
    try:
        actor = cls(*args)
    except Exception:
        connection.send(("error", traceback.format_exc()))
        return
    connection.send(("ok", None))
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        method, call_args = message
        try:
            connection.send(("ok", getattr(actor, method)(*call_args)))
        except Exception:
            connection.send(("error", traceback.format_exc()))


@dataclass(eq=False)
class _Process:
    process: Any
    connection: Any
    name: str
    busy: bool = False


@dataclass(eq=False)
class _ProcessCall:
    actor: _Process
    done: bool = False
    reply: Any = field(default=None)


class ProcessActors:
    """Each actor is a ``spawn``-ed process of this machine."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._actors: list[_Process] = []

    def start(self, cls: type, *args: Any) -> _Process:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_serve, args=(child, cls, args), daemon=True, name=cls.__name__
        )
        process.start()
        child.close()
        actor = _Process(process, parent, cls.__name__)
        self._actors.append(actor)
        status, detail = self._receive(actor)
        if status != "ok":
            raise WorkerError(f"{actor.name} failed to start:\n{detail}")
        return actor

    def share(self, value: Any) -> Any:
        return value

    def call(self, actor: _Process, method: str, *args: Any) -> _ProcessCall:
        if actor.busy:
            raise RuntimeError(f"{actor.name} is still busy with a call")
        actor.connection.send((method, args))
        actor.busy = True
        return _ProcessCall(actor)

    def ready(self, calls: list[_ProcessCall], timeout: float) -> list[_ProcessCall]:
        waiting = {call.actor.connection: call for call in calls if not call.done}
        if waiting and not any(call.done for call in calls):
            for connection in wait(list(waiting), timeout=timeout):
                call = waiting[connection]
                call.reply = self._receive(call.actor)
                call.done = True
                call.actor.busy = False
        return [call for call in calls if call.done]

    def result(self, call: _ProcessCall) -> Any:
        if not call.done:
            call.reply = self._receive(call.actor)
            call.done = True
            call.actor.busy = False
        status, value = call.reply
        if status != "ok":
            raise WorkerError(f"{call.actor.name} failed:\n{value}")
        return value

    def _receive(self, actor: _Process) -> tuple[str, Any]:
        try:
            return actor.connection.recv()
        except (EOFError, OSError):
            actor.process.join(1.0)
            return ("error", f"the worker process died (exit code {actor.process.exitcode})")

    def close(self) -> None:
        for actor in self._actors:
            with contextlib.suppress(OSError):
                actor.connection.send(None)
        for actor in self._actors:
            actor.process.join(0.0 if actor.busy else 5.0)
            if actor.process.is_alive():
                actor.process.kill()
                actor.process.join(5.0)
            actor.connection.close()
        self._actors = []


def make_actors(kind: str, address: str | None = None) -> Any:
    """``"inline"``, ``"process"`` or ``"ray"`` actors (Ray at ``address``)."""
    if kind == "inline":
        return InlineActors()
    if kind == "process":
        return ProcessActors()
    from agents.alphazero.ray_actors import RayActors

    return RayActors(address)
