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

import numpy as np

from connectn_env.arena.lifeline import die_with_parent
from connectn_env.arena.plan import GameTask
from connectn_env.envs.base import AGENTS
from connectn_env.games import GameState
from connectn_env.games.validation import require_action
from connectn_env.specs import AgentSpec, resolve_agent

BUILD_TIMEOUT = 60.0  # seconds an agent may take to be built
KILL_GRACE = 0.5  # seconds past the move timeout before the parent kills the worker
MAX_MESSAGE_LENGTH = 1000  # characters of an agent's error message kept in the results
# A tiny search per compiled agent kind: loads (or compiles) its numba code.
_WARM_UP_OPTIONS = {
    "mcts": (("simulations", 8),),
    "puct": (("simulations", 8),),
    "ab": (("depth", 1),),
}


def worker_main(connection: Any, warm_up_lock: Any, parent_pid: int) -> None:
    """Serve tasks from ``connection`` until it sends None or the parent is gone (the
    process's target).

    Workers warm up one at a time (``warm_up_lock``): on a fresh install the first one
    compiles the numba code into the cache and the others load it, instead of every
    worker compiling at once. Ctrl-C is left to the parent, which stops its workers; if
    the parent dies (even by SIGKILL), the worker ends too.
    """
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warmed: set[Any] = set()
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):  # the parent is gone
            return
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
    """Play ``task`` to the end from its opening (the first of the game's ``moves``); an
    agent that raises, runs out of time, plays an illegal move or changes the env loses the
    game.

    The worker keeps its own copy of the position, out of the agents' reach: each action
    is checked and played on it, and after every move the env's whole state (the game,
    the position array, whose turn it is) must equal it. An agent that wrote into the env
    during its move (a stone put on the board, say) forfeits with ``PositionTampered``.

    Returns:
        ``{"result", "reason", "error", "moves", "seconds", "max_move_seconds",
        "cpu_seconds"}`` where ``error`` is None or ``{"player", "agent", "type", "message"}``
        (``cpu_seconds``: this process's CPU time over the game, both agents' moves).
    """
    start = time.perf_counter()
    start_cpu = time.process_time()
    env = task.game.make_env()
    env.reset()
    reference = task.game.make_game().new_initial_state()
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
            "cpu_seconds": round(time.process_time() - start_cpu, 4),
        }

    def forfeit(seat: int, kind: str, message: str, reason: str = "forfeit") -> dict:
        error = {"player": seat, "agent": task.labels[seat], "type": kind, "message": message}
        return finish(f"player_{1 - seat}", reason, error)

    agents = []
    for seat in (0, 1):
        report(("think", seat, time.monotonic() + BUILD_TIMEOUT))
        try:
            agents.append(resolve_agent(task.specs[seat], task.game, seed=task.seeds[seat]))
        except Exception as error:
            return forfeit(seat, *describe_error(error))
    for action in task.opening:  # checked legal, game not over, when the suite was read
        reference.apply_action(action)
        env.step(action)
        moves.append(action)
        report(("move", action))
    timeout = task.move_timeout
    while not reference.is_terminal():
        seat = reference.current_player()
        deadline = None if timeout is None else time.monotonic() + timeout + KILL_GRACE
        report(("think", seat, deadline))
        begin = time.perf_counter()
        try:
            action = agents[seat].act(env)
        except Exception as error:
            return forfeit(seat, *describe_error(error))
        elapsed = time.perf_counter() - begin
        report(("think", None, None))
        slowest[seat] = max(slowest[seat], elapsed)
        changed = tampering(env, reference)
        if changed is not None:
            return forfeit(seat, "PositionTampered", f"the agent changed {changed} during its move")
        if timeout is not None and elapsed > timeout:
            message = f"move took {elapsed:.3f} s, more than the {timeout:g} s move timeout"
            return forfeit(seat, "MoveTimeout", message, reason="timeout")
        try:
            action = require_action(action, reference.game.num_actions)
            reference.apply_action(action)
            env.step(action)
        except Exception as error:
            return forfeit(seat, *describe_error(error))
        changed = tampering(env, reference)
        if changed is not None:  # the agent replaced env.step, say
            return forfeit(seat, "PositionTampered", f"the agent changed {changed} during its move")
        moves.append(action)
        report(("move", action))
    winner = reference.winner
    return finish("draw" if winner is None else f"player_{winner}")


def tampering(env: Any, reference: GameState) -> str | None:
    """What of the env differs from the arena's own copy of the position, or None.

    The whole position array is compared, not only the move count: a stone written
    into the board is found.
    """
    state = getattr(env, "game_state", None)
    if not isinstance(state, GameState) or getattr(env, "game", None) != reference.game:
        return "the game"
    if state.game != reference.game:
        return "the game"
    if not np.array_equal(state.data, reference.data):
        return "the position"
    if not reference.is_terminal() and env.agent_selection != AGENTS[reference.current_player()]:
        return "whose turn it is"
    return None


def describe_error(error: BaseException) -> tuple[str, str]:
    """``(type name, message)`` of an agent's exception, each cut to
    :data:`MAX_MESSAGE_LENGTH` characters (an exception whose ``str`` fails is named so)."""
    kind = type(error).__name__
    try:
        message = str(error)
    except Exception:
        message = f"(the {kind}'s message cannot be shown)"
    return _cut(kind), _cut(message)


def _cut(text: str) -> str:
    if len(text) <= MAX_MESSAGE_LENGTH:
        return text
    return text[: MAX_MESSAGE_LENGTH - 3] + "..."
