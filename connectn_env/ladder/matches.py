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
from connectn_env.arena.tournament import MAX_WORKERS
from connectn_env.arena.worker import play_game
from connectn_env.games.config import GameConfig
from connectn_env.games.validation import require_int

__all__ = ["open_results", "play_tasks"]


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


@contextmanager
def open_results(
    path: str | Path | None,
    game: GameConfig,
    seed: int,
    labels: Sequence[str],
    specs: Sequence[Any] = (),
) -> Iterator[ResultsFile | None]:
    """The results file at ``path`` (None: none), created or checked as the arena does: a
    file of another game or seed, or with other seats, is refused (``ArenaError``), and so is
    a file whose games of these ``labels`` were played by other agents than ``specs`` (an
    ``AgentSpec``, spec text, or anything else: an agent no spec names). It is locked against
    another writer until the block ends."""
    if path is None:
        yield None
        return
    path = check_output_file(path, "--results", "a results file")
    header = {"game": game.name, "params": game.params, "seed": seed, "move_timeout": None}
    with ResultsFile(path, header, option="--results") as store:
        store.check_plan(list(labels), 2**62)
        store.name_agents(
            {label: played_by(spec, game) for label, spec in zip(labels, specs, strict=True)}
        )
        yield store


def _ignore(message: tuple) -> None:
    """The worker's progress reports, not needed here."""
