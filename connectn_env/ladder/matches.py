"""Games of a candidate against other agents, through the arena's machinery: tasks built as
the arena builds them, played in worker processes, on Ray or here, and the arena's
resumable results file."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from connectn_env.arena.outputs import check_output_file
from connectn_env.arena.plan import GameTask
from connectn_env.arena.played import played_by
from connectn_env.arena.pool import play_games
from connectn_env.arena.results import GameResult, ResultsFile
from connectn_env.arena.tournament import MAX_MOVE_TIMEOUT, MAX_WORKERS
from connectn_env.arena.worker import play_game
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int, require_number
from connectn_env.ladder.openings import OpeningSuite

DEFAULT_MOVE_TIMEOUT = 300.0  # seconds: far above any rung's move, so only a hang reaches it


def play_tasks(
    tasks: Iterable[GameTask], *, workers: int, ray: str | None, local: bool
) -> Iterator[GameResult]:
    """Play ``tasks`` (read lazily, one per free worker) and yield each result as its game
    ends: on ``workers`` processes, as Ray tasks at ``ray``, or here one after another when
    ``local`` (an agent object that cannot be sent to another process)."""
    if local:
        return (GameResult.of_played_game(task, play_game(task, _ignore)) for task in tasks)
    if ray is not None:
        from connectn_env.arena.ray_pool import play_games_ray

        return play_games_ray(tasks, ray, workers)
    return play_games(tasks, require_int("workers", workers, 1, MAX_WORKERS))


def require_move_timeout(value: float | None) -> float | None:
    """``value`` checked as the arena checks its move timeout: None (no limit) or seconds
    greater than 0, at most a day.

    Raises:
        TypeError, ValueError: naming ``move_timeout`` and what is allowed.
    """
    if value is None:
        return None
    value = require_number("move_timeout", value, 0.0, strict_low=True)
    if value > MAX_MOVE_TIMEOUT:
        raise ValueError(f"move_timeout must be at most {MAX_MOVE_TIMEOUT:g} seconds, got {value}")
    return value


@contextmanager
def open_results(
    path: str | Path | None,
    game: GameConfig,
    seed: int,
    labels: Sequence[str],
    specs: Sequence[Any] = (),
    move_timeout: float | None = None,
    suite: OpeningSuite | None = None,
) -> Iterator[ResultsFile | None]:
    """The results file at ``path`` (None: none), created or checked as the arena does: a
    file of another game, seed, move timeout or opening suite, or with other seats, is
    refused (``ArenaError``), and so is a file whose games of these ``labels`` were played by
    other agents than ``specs`` (an ``AgentSpec``, spec text, or anything else: an agent no
    spec names). It is locked against another writer until the block ends."""
    if path is None:
        yield None
        return
    path = check_output_file(path, "--results", "a results file")
    header = {"game": game.name, "params": game.params, "seed": seed, "move_timeout": move_timeout}
    if suite is not None:
        header["openings"] = suite.digest
    with ResultsFile(path, header, option="--results") as store:
        store.check_plan(list(labels), 2**62, None if suite is None else suite.openings)
        store.name_agents(
            {label: played_by(spec, game) for label, spec in zip(labels, specs, strict=True)}
        )
        yield store


def require_candidate_at_fault(result: GameResult, candidate: str, role: str, why: str) -> None:
    """Refuse a game that another agent than ``candidate`` lost by an error (it raised,
    played an illegal move, ran out of time or its process died): such a game says nothing
    of the candidate, and counting it as a win would lift it.

    Args:
        result: A finished game of ``candidate``.
        candidate: The label of the agent judged.
        role: What the other agent is called (``"ladder rung"``, ``"B"``).
        why: What cannot go on (``"the ladder cannot rate a candidate"``).

    Raises:
        ValueError: the message names the agent, its error and ``why``.
    """
    error = result.error
    if error is not None and error["agent"] != candidate:
        raise ValueError(
            f"{role} {error['agent']!r} failed in a game: {error['type']}: {error['message']}; "
            f"{why}"
        )


def _ignore(message: tuple) -> None:
    """The worker's progress reports, not needed here."""
