"""The arena's games as Ray tasks (``connectn arena --ray ADDRESS``; ``pip install
".[distributed]"``).

Each game is one task that plays it with :func:`connectn_env.arena.worker.play_game` on a
Ray worker (one CPU each); results come back as games end, so the resumable results file is
written exactly as with local worker processes. A move timeout is checked after each move (an
agent that took longer loses the game); a hung agent is not interrupted, unlike in local
processes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from connectn_env.arena.plan import GameTask
from connectn_env.arena.results import ArenaError, GameResult

_WARMED: set[Any] = set()


def _play_task(task: GameTask) -> dict[str, Any]:
    """Run on a Ray worker: warm up the compiled code once per process, then play."""
    from connectn_env.arena.worker import _warm_up, play_game

    _warm_up(task, _WARMED)
    return play_game(task, lambda message: None)


def connect_ray(address: str) -> Any:
    """The ``ray`` module, initialised at ``address`` (``"auto"``, ``"ray://host:10001"``,
    ``"local"``) unless it already is.

    Raises:
        ArenaError: Ray is missing, or ``address`` is malformed or unreachable (the message
            names ``--ray`` and the address).
    """
    try:
        import ray
    except ImportError as error:
        raise ArenaError('--ray needs Ray: pip install ".[distributed]" from a checkout') from error
    if not ray.is_initialized():
        try:
            ray.init(address=None if address == "local" else address)
        except (ValueError, ConnectionError) as error:
            raise ArenaError(f"--ray {address}: {error}") from None
    return ray


def play_games_ray(
    tasks: Iterable[GameTask], address: str, max_in_flight: int | None = None
) -> Iterator[GameResult]:
    """Play ``tasks`` as Ray tasks on the cluster at ``address`` (``"auto"``,
    ``"ray://host:10001"``, ``"local"``); yield each result as its game ends.

    Args:
        tasks: The games (read lazily, as tasks are submitted).
        address: Where Ray runs (an already initialised Ray is used as it is).
        max_in_flight: Most games submitted at once (default: twice the cluster's CPUs).

    Raises:
        ArenaError: Ray is missing, ``address`` is malformed or unreachable, or a task
            failed outside agent code.
    """
    ray = connect_ray(address)
    remote = ray.remote(num_cpus=1)(_play_task)
    pending = iter(tasks)
    if max_in_flight is None:
        max_in_flight = 2 * int(ray.cluster_resources().get("CPU", 1))
    limit = max(1, max_in_flight)
    running: dict[Any, GameTask] = {}
    exhausted = False
    try:
        while not exhausted or running:
            while not exhausted and len(running) < limit:
                task = next(pending, None)
                if task is None:
                    exhausted = True
                    break
                running[remote.remote(task)] = task
            if not running:
                break
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                task = running.pop(ref)
                try:
                    data = ray.get(ref)
                except ray.exceptions.RayError as error:
                    raise ArenaError(f"a Ray task of game {task.key} failed: {error}") from None
                yield GameResult.of_played_game(task, data)
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
