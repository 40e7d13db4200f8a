"""What runs in a worker process: play one game after another, reporting each step.

Messages to the parent (over a ``multiprocessing`` pipe): ``("think", seat, deadline)``
before an agent is built or asked for a move (``deadline``: ``time.monotonic()`` seconds,
or None), ``("move", action)`` after each move, ``("done", result)`` at the end of a game.
The parent kills a worker that is still thinking past its deadline.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from typing import Any

from connectn_env.arena.plan import GameTask
from connectn_env.specs import AgentSpec

__all__ = ["BUILD_TIMEOUT", "play_game", "worker_main"]

BUILD_TIMEOUT = 60.0  # seconds an agent may take to be built
KILL_GRACE = 0.5  # seconds past the move timeout before the parent kills the worker
# A tiny search per compiled agent kind: loads (or compiles) its numba code.
_WARM_UP_OPTIONS = {
    "mcts": (("simulations", 8),),
    "puct": (("simulations", 8),),
    "ab": (("depth", 1),),
}


def worker_main(connection: Any, warm_up_lock: Any) -> None:
    """Serve tasks from ``connection`` until it sends None (the process's target).

    Workers warm up one at a time (``warm_up_lock``): on a fresh install the first one
    compiles the numba code into the cache and the others load it, instead of every
    worker compiling at once. Ctrl-C is left to the parent, which stops its workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warmed: set[Any] = set()
    while True:
        task = connection.recv()
        if task is None:
            return
        with warm_up_lock:
            _warm_up(task, warmed)
        result = play_game(task, connection.send)
        connection.send(("done", result))


def _warm_up(task: GameTask, warmed: set[Any]) -> None:
    """Load (or compile) the numba code of the env and of the built-in search agents once
    per process, outside any timing: a random game, and a tiny search."""
    if task.game not in warmed:
        warmed.add(task.game)
        env = task.game.make_env()
        env.reset()
        random = AgentSpec("random").build(0)
        while not env.game_state.is_terminal():
            env.step(random.act(env))
    for spec in task.specs:
        if spec.kind in _WARM_UP_OPTIONS and spec.kind not in warmed:
            warmed.add(spec.kind)
            env = task.game.make_env()
            env.reset()
            AgentSpec(spec.kind, _WARM_UP_OPTIONS[spec.kind]).build(0).act(env)


def play_game(task: GameTask, report: Callable[[tuple], None]) -> dict[str, Any]:
    """Play ``task`` to the end; an agent that raises, runs out of time, plays an illegal
    move or changes the env loses the game.

    Returns:
        ``{"result", "reason", "error", "moves", "seconds", "max_move_seconds"}`` where
        ``error`` is None or ``{"player", "agent", "type", "message"}``.
    """
    start = time.perf_counter()
    env = task.game.make_env()
    env.reset()
    moves: list[int] = []
    slowest = [0.0, 0.0]

    def finish(result: str, reason: str = "", error: dict[str, Any] | None = None) -> dict:
        return {
            "result": result,
            "reason": reason,
            "error": error,
            "moves": moves,
            "seconds": round(time.perf_counter() - start, 4),
            "max_move_seconds": [round(s, 4) for s in slowest],
        }

    def forfeit(seat: int, kind: str, message: str, reason: str = "forfeit") -> dict:
        error = {"player": seat, "agent": task.labels[seat], "type": kind, "message": message}
        return finish(f"player_{1 - seat}", reason, error)

    agents = []
    for seat in (0, 1):
        report(("think", seat, time.monotonic() + BUILD_TIMEOUT))
        try:
            agents.append(task.specs[seat].build(task.seeds[seat]))
        except Exception as error:
            return forfeit(seat, type(error).__name__, str(error))
    timeout = task.move_timeout
    while not env.game_state.is_terminal():
        state = env.game_state
        seat, before = state.current_player(), state.move_number
        deadline = None if timeout is None else time.monotonic() + timeout + KILL_GRACE
        report(("think", seat, deadline))
        begin = time.perf_counter()
        try:
            action = agents[seat].act(env)
        except Exception as error:
            return forfeit(seat, type(error).__name__, str(error))
        elapsed = time.perf_counter() - begin
        report(("think", None, None))
        slowest[seat] = max(slowest[seat], elapsed)
        if env.game_state is not state or state.move_number != before:
            return forfeit(seat, "EnvChanged", "the agent changed the env during its move")
        if timeout is not None and elapsed > timeout:
            message = f"move took {elapsed:.3f} s, more than the {timeout:g} s move timeout"
            return forfeit(seat, "MoveTimeout", message, reason="timeout")
        try:
            env.step(action)
        except Exception as error:
            return forfeit(seat, type(error).__name__, str(error))
        moves.append(int(action))
        report(("move", int(action)))
    winner = env.game_state.winner
    return finish("draw" if winner is None else f"player_{winner}")
