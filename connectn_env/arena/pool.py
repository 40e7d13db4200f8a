"""Worker processes for the arena: hand out games, collect results, enforce move timeouts.

Each worker is a ``spawn``-ed process that plays whole games (``worker.worker_main``) and
reports every step. A worker still thinking past its deadline (a hung or very slow agent)
is killed and replaced; the game is lost by the agent that was thinking. A worker that dies
(a crash in native code, ``os._exit``) loses the game for the agent it was running.
Workers end with this process, however it ends (see :mod:`connectn_env.arena.lifeline`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from connectn_env.arena.plan import GameTask
from connectn_env.arena.results import ArenaError, GameResult
from connectn_env.arena.worker import worker_main

_POLL_SECONDS = 0.5  # longest wait between progress checks


@dataclass
class _Worker:
    process: Any
    connection: Connection
    task: GameTask | None = None
    seat: int | None = None  # the seat thinking now
    deadline: float | None = None
    moves: list[int] = field(default_factory=list)


def play_games(tasks: Iterable[GameTask], workers: int) -> Iterator[GameResult]:
    """Play ``tasks`` on ``workers`` processes; yield each result as its game ends.

    ``tasks`` is consumed lazily, one task per free worker. Closing the iterator early (or
    an exception in the caller, ``SystemExit`` from SIGTERM included) stops every worker;
    the workers also end by themselves if this process dies.
    """
    context = multiprocessing.get_context("spawn")
    lock = context.Lock()
    pending = iter(tasks)
    pool: list[_Worker] = []
    try:
        for _ in range(workers):
            task = next(pending, None)
            if task is None:
                break
            pool.append(_start(context, lock))
            _assign(pool[-1], task)
        while any(worker.task is not None for worker in pool):
            busy = [worker for worker in pool if worker.task is not None]
            ready = wait([w.connection for w in busy], timeout=_wait_seconds(busy))
            for worker in busy:
                result = None
                if worker.connection in ready:
                    result = _receive(worker)
                elif worker.deadline is not None and time.monotonic() > worker.deadline:
                    result = _lost(worker, "MoveTimeout", _timeout_message(worker), "timeout")
                    _stop(worker)
                if worker.process is None:  # died or killed: replace it if work is left
                    index = pool.index(worker)
                    task = next(pending, None)
                    if task is not None:
                        pool[index] = _start(context, lock)
                        _assign(pool[index], task)
                    else:
                        del pool[index]
                elif result is not None:
                    _assign(worker, next(pending, None))
                if result is not None:
                    yield result
    finally:
        for worker in pool:
            _shut_down(worker)


def _start(context: Any, lock: Any) -> _Worker:
    parent, child = context.Pipe()
    process = context.Process(target=worker_main, args=(child, lock, os.getpid()), daemon=True)
    process.start()
    child.close()
    return _Worker(process, parent)


def _assign(worker: _Worker, task: GameTask | None) -> None:
    worker.task = task
    worker.seat = worker.deadline = None
    worker.moves = []
    if task is not None:
        worker.connection.send(task)


def _wait_seconds(busy: list[_Worker]) -> float:
    deadlines = [w.deadline for w in busy if w.deadline is not None]
    if not deadlines:
        return _POLL_SECONDS
    return max(0.0, min(_POLL_SECONDS, min(deadlines) - time.monotonic()))


def _receive(worker: _Worker) -> GameResult | None:
    """Handle the worker's pending messages; a result when its game ended."""
    while worker.connection.poll():
        try:
            message = worker.connection.recv()
        except (EOFError, OSError):
            worker.process.join(1.0)
            code = worker.process.exitcode
            _stop(worker)
            if worker.seat is None:  # not in agent code: nobody to blame
                raise ArenaError(
                    f"a worker process died outside agent code (exit code {code})"
                ) from None
            message = f"the worker process died (exit code {code}) while this agent was thinking"
            return _lost(worker, "WorkerDied", message, "forfeit")
        kind = message[0]
        if kind == "think":
            worker.seat, worker.deadline = message[1], message[2]
        elif kind == "move":
            worker.moves.append(message[1])
        elif kind == "done":
            return GameResult.of_played_game(worker.task, message[1], worker.moves)
    return None


def _lost(worker: _Worker, kind: str, message: str, reason: str) -> GameResult:
    """The game of a worker that hung or died: the agent thinking loses."""
    task = worker.task
    seat = 0 if worker.seat is None else worker.seat
    error = {"player": seat, "agent": task.labels[seat], "type": kind, "message": message}
    data = {
        "result": f"player_{1 - seat}",
        "reason": reason,
        "error": error,
        "seconds": 0.0,
        "max_move_seconds": [0.0, 0.0],
    }
    return GameResult.of_played_game(task, data, worker.moves)


def _timeout_message(worker: _Worker) -> str:
    timeout = worker.task.move_timeout
    limit = f"the {timeout:g} s move timeout" if timeout is not None else "its deadline"
    return f"no answer within {limit}; its worker process was stopped"


def _stop(worker: _Worker) -> None:
    """Kill the worker's process (its replacement is started by the caller)."""
    process, worker.process = worker.process, None
    if process.is_alive():
        process.kill()
    process.join(5.0)
    worker.connection.close()


def _shut_down(worker: _Worker) -> None:
    if worker.process is None:
        return
    with contextlib.suppress(OSError):  # the worker may be gone already
        worker.connection.send(None)
    worker.process.join(2.0 if worker.task is None else 0.0)
    if worker.process.is_alive():
        worker.process.kill()
        worker.process.join(5.0)
    worker.connection.close()
