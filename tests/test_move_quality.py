"""Connect Four move quality (``move_quality``, ``connectn evaluate connect_four CANDIDATE
--positions``): the shipped positions re-solved, a perfect candidate, random play, bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from connectn_env.games.connect_n.solver import Connect4Solver
from connectn_env.ladder import MoveQuality, move_quality
from connectn_env.ladder.positions import SHIPPED_POSITIONS, Position, load_positions

POSITIONS = load_positions()


class Perfect:
    """Plays a best move of each shipped position, read from its solver scores."""

    def __init__(self) -> None:
        self.best = {p.moves: max(p.scores, key=p.scores.get) for p in POSITIONS}

    def act(self, env) -> int:
        return self.best[tuple(env.game_state.history())]


def test_the_shipped_set_is_200_critical_positions_10_to_22_plies_in():
    assert len(POSITIONS) == 200
    assert all(10 <= len(p.moves) <= 22 for p in POSITIONS)
    assert all(any(not p.keeps(column) for column in p.scores) for p in POSITIONS)
    assert SHIPPED_POSITIONS.stat().st_size < 20_000


def test_a_sample_of_the_shipped_scores_is_what_the_solver_finds_again():
    solver = Connect4Solver(table_size=1 << 20)
    for position in POSITIONS[::20]:
        assert solver.move_scores(list(position.moves)) == dict(position.scores)


def test_a_perfect_candidate_scores_100_percent():
    result = move_quality(Perfect(), name="perfect")
    assert (result.kept, result.best, result.errors, result.positions) == (200, 200, 0, 200)
    assert result.kept_share == result.best_share == 1.0
    assert result.kept_ci95[0] > 0.98 and result.kept_ci95[1] == 1.0
    assert "result kept   200  100.0%  95% CI [98.1%, 100.0%]" in result.table()


def test_random_play_scores_low_with_intervals():
    result = move_quality("random:seed=3")
    assert result.candidate == "random:seed=3" and result.errors == 0
    assert 0.15 < result.kept_share < 0.5 and result.best_share < result.kept_share
    low, high = result.best_ci95
    assert low < result.best_share < high and high - low < 0.15
    data = result.to_json()
    assert data["positions"] == 200 and data["kept"] == result.kept


def test_a_policy_is_judged_on_given_positions_and_an_illegal_move_is_counted():
    full = [p for p in POSITIONS if 0 not in p.scores]  # column 1 is full there
    some = [*full, *POSITIONS[:3]]
    result = move_quality(lambda observation, action_mask: 0, some, name="column 1")
    assert isinstance(result, MoveQuality) and result.positions == len(some)
    assert result.errors == len(full) + sum(0 not in p.scores for p in POSITIONS[:3]) > 0
    assert f"{result.errors} positions failed by the candidate" in result.table()


class _Meddler:
    """Plays a legal move on the env itself (``step``) or starts it again (``reset``), then
    answers a legal move of the position it was given."""

    def __init__(self, call: str) -> None:
        self.call = call

    def act(self, env) -> int:
        legal = [int(a) for a in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]
        if self.call == "step":
            env.step(legal[0])
        else:
            env.reset()
        return legal[-1]


@pytest.mark.parametrize("call", ["step", "reset"])
def test_a_candidate_that_steps_or_resets_the_env_fails_every_position(call: str) -> None:
    result = move_quality(_Meddler(call), POSITIONS[:5], name="meddler")
    assert (result.errors, result.kept, result.best) == (5, 0, 0)
    assert result.first_error.startswith("position 1: PositionTampered: the candidate changed ")
    assert "called env.step or env.reset" in result.table()
    assert result.to_json()["first_error"] == result.first_error


def test_a_move_over_the_time_limit_fails_its_position_and_a_hang_is_interrupted() -> None:
    def sleepy(observation, action_mask) -> int:
        time.sleep(30)
        return int(np.flatnonzero(action_mask)[0])

    start = time.perf_counter()
    result = move_quality(sleepy, POSITIONS[:3], name="sleepy", move_timeout=0.2)
    assert time.perf_counter() - start < 10
    assert result.errors == 3
    assert result.first_error == "position 1: MoveTimeout: no answer within the 0.2 s move timeout"
    with pytest.raises(ValueError, match="move_timeout must be greater than 0"):
        move_quality("random", POSITIONS[:3], move_timeout=0)


def test_other_games_and_bad_candidates_are_refused():
    with pytest.raises(ValueError, match=r"Connect Four only .* not 'connect_n_6x6'"):
        move_quality("random", game="connect_n_6x6")
    with pytest.raises(ValueError, match=r"Connect Four only .* not 'tictactoe'"):
        move_quality("random", game="tictactoe")
    with pytest.raises(ValueError, match="candidate 'nonsense:'"):
        move_quality("nonsense:")
    with pytest.raises(TypeError, match="candidate 42 of type int"):
        move_quality(42)
    with pytest.raises(TypeError, match="non-empty sequence of Position"):
        move_quality("random", [])
    with pytest.raises(TypeError, match="non-empty sequence of Position"):
        move_quality("random", [(3, 3)])


def test_damaged_positions_files_are_refused_with_the_entry(tmp_path: Path):
    data = json.loads(SHIPPED_POSITIONS.read_text())
    data["positions"][5][1][0] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"bad.json: position 6 .*integers from -21 to 21"):
        load_positions(bad)
    data["positions"][5] = ["4444444", [0] * 7]
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"position 6 .*column 4 cannot be played"):
        move_quality("random", bad)
    bad.write_text('{"format": "connectn-ladder"}')
    with pytest.raises(ValueError, match="not a positions file"):
        load_positions(bad)
    assert Position((3,), {0: 1}).keeps(0) and not Position((3,), {0: 1}).keeps(1)


def _connectn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    return subprocess.run(
        [executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_command_prints_both_shares_and_writes_json(tmp_path: Path):
    done = _connectn(
        "evaluate", "connect_four", "random", "--positions", "--json", "q.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "random: Connect Four move quality on 200 positions" in done.stdout
    assert "result kept" in done.stdout and "best move" in done.stdout and "95% CI" in done.stdout
    data = json.loads((tmp_path / "q.json").read_text())
    assert data["positions"] == 200 and data["kept_ci95"][0] < data["kept_share"]


def test_the_command_refuses_other_games_and_game_options(tmp_path: Path):
    six = _connectn(
        "evaluate", "connect_n", "--cols", "6", "--no-gravity", "random", "--positions",
        cwd=tmp_path,
    )  # fmt: skip
    assert six.returncode == 2 and "move quality is judged on Connect Four only" in six.stderr
    games = _connectn(
        "evaluate", "connect_four", "random", "--positions", "--games", "9", "--workers", "1",
        cwd=tmp_path,
    )  # fmt: skip
    assert games.returncode == 2
    assert "--positions judges one move per position: not with --games, --workers" in games.stderr
    assert list(tmp_path.iterdir()) == []
