"""Scale-out on Ray: a tiny AlphaZero training with its self-play and evaluation workers as Ray
actors, and arena games as Ray tasks, on a local Ray instance of two CPUs."""

from __future__ import annotations

import json

import pytest

ray = pytest.importorskip(
    "ray", reason='the distributed extra is not installed: pip install ".[distributed]"'
)
pytest.importorskip("torch", reason='the train extra is not installed: pip install ".[train]"')

from pythonpath_helpers import pythonpath  # noqa: E402

import connectn_env  # noqa: E402
from agents.alphazero import TrainConfig, load_checkpoint, train  # noqa: E402
from connectn_env.arena import run_tournament  # noqa: E402
from connectn_env.cli import main  # noqa: E402
from connectn_env.records import GameConfig  # noqa: E402
from connectn_env.specs import resolve_agent  # noqa: E402


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    """Ray puts the working directory of ``ray.init`` first on its workers' path: started from
    the checkout, the workers imported the checkout, not the package the tests import (CI
    installs it), and compiled every numba kernel again into the checkout's own cache. Ray's
    workers run at niceness 15 unless told otherwise: beside the other pytest-xdist worker
    (niceness 0) they got a twentieth of a core, and importing torch took them a minute."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("ray"))
        patch.setenv("PYTHONPATH", pythonpath())
        patch.setenv("RAY_worker_niceness", "0")
        ray.init(num_cpus=2, include_dashboard=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_workers_import_the_package_the_tests_import(local_ray) -> None:
    """Else every worker compiles the numba kernels again, into another cache."""

    @ray.remote
    def imported_from() -> str:
        import connectn_env

        return connectn_env.__file__

    assert ray.get(imported_from.remote()) == connectn_env.__file__


@pytest.mark.slow  # about 15 s: a short run whose self-play games are Ray actors
def test_training_with_ray_actors(local_ray, tmp_path) -> None:
    out = tmp_path / "run"
    config = TrainConfig(
        game="tictactoe",
        out=out,
        games=30,
        ray="auto",
        workers=1,
        channels=8,
        blocks=1,
        simulations=8,
        games_in_flight=8,
        moves_per_task=3,
        batch_size=32,
        buffer_size=2000,
        min_buffer=32,
        eval_minutes=1e-3,
        eval_games=2,
        eval_budgets=(20,),
        eval_simulations=8,
        bootstrap="mcts:simulations=20",  # its games are played by the actors too
        bootstrap_games=4,
    )
    result = train(config, progress=False, resolve_agent=resolve_agent)
    assert result.games >= 30 and result.steps > 0 and result.bootstrap_games == 4
    assert result.evaluations and result.elo["mcts:simulations=20,preset=uct"] == 0.0
    load_checkpoint(out / "best.pt", GameConfig("tictactoe"))
    assert ray.is_initialized()  # the trainer leaves a Ray it did not start running


def test_arena_games_as_ray_tasks_resume_from_the_results_file(local_ray, tmp_path) -> None:
    results = tmp_path / "games.jsonl"
    first = run_tournament(
        "tictactoe", ["random", "mcts:simulations=30"], games=4, out=results, ray="auto"
    )
    assert first.played == 4 and len(first.results) == 4
    lines = results.read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["game"] == "tictactoe"
    again = run_tournament(
        "tictactoe", ["random", "mcts:simulations=30"], games=6, out=results, ray="auto"
    )
    assert again.played == 2 and len(again.results) == 6
    assert [r.key for r in again.results[:4]] == [r.key for r in first.results]


def test_connectn_arena_ray_option(local_ray, tmp_path, capsys) -> None:
    code = main(
        [
            *("arena", "tictactoe", "random", "mcts:simulations=20", "--games", "2"),
            *("--ray", "auto", "--no-progress", "--out", str(tmp_path / "games.jsonl")),
        ]
    )
    assert code == 0
    assert "mcts:simulations=20" in capsys.readouterr().out
