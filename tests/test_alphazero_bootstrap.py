"""The bootstrap phase of a training run (``--bootstrap SPEC --bootstrap-games N``): a search
agent's games fill the replay buffer with its search's targets, the network trains on them
before self-play, a stopped phase resumes where it stopped (on any number of workers, the same
games in the same order), a finished one is never played again, and bad input is refused
before anything is written."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip(
    "torch", reason='the train extra is not installed: pip install ".[train]"'
)

from agents import RandomAgent  # noqa: E402
from agents.alphazero import (  # noqa: E402
    AlphaZeroAgent,
    ConfigError,
    RunDirectoryError,
    TrainConfig,
    load_checkpoint,
    resume_config,
    train,
)
from agents.alphazero.bootstrap import BootstrapTask, play_bootstrap_game  # noqa: E402
from agents.alphazero.checkpoint import Checkpoint, save_checkpoint  # noqa: E402
from agents.alphazero.metrics import read_metrics  # noqa: E402
from agents.alphazero.network import NetworkSpec, PolicyValueNet  # noqa: E402
from agents.alphazero.replay import ReplayBuffer  # noqa: E402
from agents.alphazero.workers import SelfPlayWorker  # noqa: E402
from connectn_env.cli import main  # noqa: E402
from connectn_env.games.connect_n.solver import Connect4Solver  # noqa: E402
from connectn_env.records import GameConfig  # noqa: E402
from connectn_env.specs import resolve_agent  # noqa: E402

torch.set_num_threads(1)

SPEC = "mcts:simulations=50"
TICTACTOE = GameConfig("tictactoe")
TINY = {
    "channels": 8,
    "blocks": 1,
    "simulations": 8,
    "games_in_flight": 8,
    "batch_size": 8,
    "buffer_size": 2000,
    "min_buffer": 8,
    "eval_minutes": 0.0,
    "workers": 0,
    "precision": "float32",
    "seed": 3,
}


def bootstrap_config(out: Path, game: str = "tictactoe", **changes) -> TrainConfig:
    values = TINY | {"games": 8, "bootstrap": SPEC, "bootstrap_games": 4} | changes
    return TrainConfig(game=game, out=out, **values)


def stop_at_self_play(monkeypatch) -> None:
    """Self-play's first task stops the run as Ctrl-C does: latest.pt and buffer.npz hold the
    run as the bootstrap phase left it."""

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(SelfPlayWorker, "play", interrupt)


def count_bootstrap_games(monkeypatch, stop_at: int | None = None) -> list[int]:
    """The indices of the bootstrap games played from now on (the game ``stop_at`` stops the
    run as Ctrl-C does, before it is played)."""
    played: list[int] = []
    real = SelfPlayWorker.bootstrap

    def bootstrap(worker, task):
        if task.index == stop_at:
            raise KeyboardInterrupt
        played.append(task.index)
        return real(worker, task)

    monkeypatch.setattr(SelfPlayWorker, "bootstrap", bootstrap)
    return played


def run_state(out: Path) -> dict:
    return json.loads(load_checkpoint(out / "latest.pt").progress["state"])


def buffer_of(out: Path) -> ReplayBuffer:
    buffer = ReplayBuffer(2000, TICTACTOE.make_game())
    buffer.load(out / "buffer.npz")
    return buffer


def files_digest(directory: Path) -> dict[str, str]:
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.name != ".lock"
    }


@pytest.fixture(scope="module")
def bootstrapped(tmp_path_factory) -> Path:
    """A tiny tic-tac-toe run stopped when self-play starts, past its 4 bootstrap games."""
    out = tmp_path_factory.mktemp("bootstrap") / "run"
    with pytest.MonkeyPatch.context() as monkeypatch:
        stop_at_self_play(monkeypatch)
        with pytest.raises(KeyboardInterrupt):
            train(bootstrap_config(out), progress=False, resolve_agent=resolve_agent)
    return out


def expected_games(config: TrainConfig) -> list[list[tuple[np.ndarray, int, object]]]:
    """Each bootstrap game played here, position by position: (observation, player, the
    agent's search result), from the opening and with the agent's seed of the game."""
    games = []
    for index in range(config.bootstrap_games):
        task = BootstrapTask(config.bootstrap, resolve_agent, index, config.seed, 0)
        agent = resolve_agent(config.bootstrap, TICTACTOE, seed=task.agent_seed)
        env = TICTACTOE.make_env()
        env.reset()
        for action in task.opening(TICTACTOE.make_game()):
            env.step(action)
        positions = []
        while not env.game_state.is_terminal():
            player = env.game_state.current_player()
            observation = env.game_state.observation(player)
            result = agent.search(env)
            positions.append((observation, player, result))
            env.step(result.action)
        games.append((positions, env.game_state.returns()[0]))
    return games


# --- the phase ------------------------------------------------------------------------------


def test_the_buffer_holds_the_agents_positions_with_its_search_targets(bootstrapped) -> None:
    config = resume_config(bootstrapped)
    expected = expected_games(config)
    count = sum(len(positions) for positions, _ in expected)
    state = run_state(bootstrapped)
    assert state["bootstrap_games"] == 4 and state["bootstrap_positions"] == count
    assert state["games"] == 0 and state["step"] == count  # train_ratio 8, batch_size 8
    assert state["bootstrap_cpu_seconds"] > 0
    buffer = buffer_of(bootstrapped)
    assert buffer.size == count
    policies = buffer.policies[:count]
    assert np.allclose(policies.sum(axis=1), 1.0, atol=1e-6)
    row, unproven = 0, 0
    for positions, result in expected:
        for observation, player, search in positions:
            assert np.array_equal(buffer.observations[row], observation)
            assert buffer.players[row] == player
            assert np.array_equal(policies[row], search.pi.astype(np.float32))
            assert buffer.values[row] == (result if player == 0 else -result)
            if not search.proven_moves:  # UCT's target: the visit shares of the root's moves
                unproven += 1
                shares = search.visits / search.visits.sum()
                assert np.allclose(policies[row], shares, atol=1e-6)
            row += 1
    assert unproven > 0  # (the visit shares were checked on some position)


def test_the_phase_is_reported_in_the_metrics_and_the_progress(tmp_path, monkeypatch) -> None:
    import io

    stop_at_self_play(monkeypatch)
    stream = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        train(bootstrap_config(tmp_path / "run"), progress=stream, resolve_agent=resolve_agent)
    records = read_metrics(tmp_path / "run" / "metrics.jsonl")
    last = [r for r in records if r["kind"] == "bootstrap"][-1]
    state = run_state(tmp_path / "run")
    assert (last["games"], last["of"], last["positions"]) == (4, 4, state["bootstrap_positions"])
    assert last["cpu_seconds"] == round(state["bootstrap_cpu_seconds"], 2) > 0
    assert last["step"] == state["step"] and last["loss"] is not None
    text = stream.getvalue()
    assert f"bootstrap phase: {SPEC} plays games 1 to 4 against itself" in text
    assert "bootstrap phase done: 4 games" in text and "self-play starts" in text


def test_a_stopped_phase_resumes_without_playing_its_finished_games_again(
    bootstrapped, tmp_path, monkeypatch
) -> None:
    """Stopped before its third game, the phase resumes at that game; once it is over the run
    holds the buffer and the network of a run never stopped, and a later resume plays none."""
    out = tmp_path / "run"
    played = count_bootstrap_games(monkeypatch, stop_at=2)
    with pytest.raises(KeyboardInterrupt):
        train(bootstrap_config(out), progress=False, resolve_agent=resolve_agent)
    assert played == [0, 1] and run_state(out)["bootstrap_games"] == 2
    monkeypatch.undo()
    played = count_bootstrap_games(monkeypatch)
    stop_at_self_play(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        train(resume_config(out), progress=False, resolve_agent=resolve_agent)
    assert played == [2, 3]
    ours, theirs = load_checkpoint(out / "latest.pt"), load_checkpoint(bootstrapped / "latest.pt")
    assert all(torch.equal(ours.model[name], theirs.model[name]) for name in theirs.model)
    assert ours.progress["step"] == theirs.progress["step"]
    assert np.array_equal(buffer_of(out).policies, buffer_of(bootstrapped).policies)
    monkeypatch.undo()
    played = count_bootstrap_games(monkeypatch)
    result = train(resume_config(out), progress=False)  # no resolver needed: the phase is over
    assert played == [] and result.games >= 8 and result.bootstrap_games == 4


def test_a_budget_spent_during_the_phase_ends_the_run_there(tmp_path, monkeypatch) -> None:
    """The phase counts in the run's time: a budget spent during it ends the run there, and a
    larger budget resumes the phase at its first game not played, then self-play."""
    out = tmp_path / "run"
    played = count_bootstrap_games(monkeypatch)
    first = train(
        bootstrap_config(out, games=None, minutes=1e-6), progress=False, resolve_agent=resolve_agent
    )
    assert first.games == 0 and first.bootstrap_games == len(played) < 4
    assert played == list(range(len(played)))
    played.clear()
    second = train(resume_config(out, minutes=60, games=8), resolve_agent=resolve_agent)
    assert played == list(range(first.bootstrap_games, 4)) and second.bootstrap_games == 4
    assert second.games >= 8


def test_an_agent_without_a_search_gives_its_move_as_a_one_hot_target() -> None:
    """Alpha-beta has no visit counts: its move is the whole policy target."""
    task = BootstrapTask("ab:depth=2", resolve_agent, 0, 0, 0)
    played = play_bootstrap_game(task, TICTACTOE).game
    assert np.array_equal(played.policies, np.eye(9, dtype=np.float32)[played.moves])
    env = TICTACTOE.make_env()
    env.reset()
    for action in task.opening(TICTACTOE.make_game()) + played.moves.tolist():
        env.step(action)
    assert env.game_state.is_terminal() and env.game_state.returns()[0] == played.result


@pytest.mark.parametrize("fewest", [0, 2, 3])
def test_the_openings_have_at_least_the_fewest_moves_and_at_most_the_most(fewest) -> None:
    """Tic-tac-toe's most is 3 (about sqrt(9)); with ``fewest`` 0 the openings are the ones
    runs drew before the option existed (the same draws from the same seeds)."""
    game = TICTACTOE.make_game()
    lengths = [
        len(BootstrapTask(SPEC, resolve_agent, index, 0, 0, fewest).opening(game))
        for index in range(60)
    ]
    assert min(lengths) == fewest and max(lengths) == 3
    if fewest == 0:
        unchanged = [
            len(BootstrapTask(SPEC, resolve_agent, i, 0, 0).opening(game)) for i in range(60)
        ]
        assert lengths == unchanged


def test_the_perfect_player_bootstraps_from_deep_openings_with_exact_results() -> None:
    """Connect Four's perfect player from 10 to 12 random moves: each game's positions start
    there and its result is the solver's value of its first position."""
    config, solver = GameConfig("connect_four"), Connect4Solver()
    for index in range(3):
        task = BootstrapTask("perfect", resolve_agent, index, 0, 12, 10)
        opening = task.opening(config.make_game())
        played = play_bootstrap_game(task, config).game
        assert 10 <= len(opening) <= 12
        assert np.array_equal(played.policies, np.eye(7, dtype=np.float32)[played.moves])
        value = np.sign(solver.solve(opening))
        first_player_value = value if len(opening) % 2 == 0 else -value
        assert played.result == first_player_value


def test_a_resume_with_another_bootstrap_is_refused_and_changes_nothing(bootstrapped) -> None:
    before = files_digest(bootstrapped)
    for changes in (
        {"bootstrap": "mcts:simulations=60"},
        {"bootstrap_games": 5},
        {"bootstrap_min_opening": 1},
    ):
        with pytest.raises(RunDirectoryError, match="keeps its training settings; this one"):
            train(resume_config(bootstrapped, **changes), resolve_agent=resolve_agent)
    assert files_digest(bootstrapped) == before


def test_a_run_written_before_the_fewest_opening_moves_resumes_with_none(
    bootstrapped, tmp_path
) -> None:
    out = tmp_path / "run"
    shutil.copytree(bootstrapped, out)
    data = json.loads((out / "run.json").read_text())
    assert data["config"].pop("bootstrap_min_opening") == 0
    (out / "run.json").write_text(json.dumps(data))
    assert resume_config(out).bootstrap_min_opening == 0


@pytest.mark.slow
def test_the_games_run_on_the_workers_in_the_order_of_a_single_process(
    bootstrapped, tmp_path
) -> None:
    """Two worker processes play the phase's games: the buffer holds them in their order,
    and the network trained on them as it did in one process."""
    out = tmp_path / "run"
    train(bootstrap_config(out, workers=2, games=1), progress=False, resolve_agent=resolve_agent)
    count = run_state(bootstrapped)["bootstrap_positions"]
    ours, theirs = buffer_of(out), buffer_of(bootstrapped)
    for name in ("observations", "policies", "values"):
        assert np.array_equal(getattr(ours, name)[:count], getattr(theirs, name)[:count]), name
    phase = [r for r in read_metrics(out / "metrics.jsonl") if r["kind"] == "bootstrap"]
    alone = [r for r in read_metrics(bootstrapped / "metrics.jsonl") if r["kind"] == "bootstrap"]
    keys = ("games", "positions", "step", "loss", "policy_loss", "value_loss")
    assert [[r[k] for k in keys] for r in phase] == [[r[k] for k in keys] for r in alone]


# --- what it learns ----------------------------------------------------------------------------


def score_against_random(network: Path, games: int = 100) -> float:
    """The network's points per game against a uniformly random player (2 simulations per
    move: about its policy's first choice), colours alternating."""
    agent = AlphaZeroAgent.from_checkpoint(network, simulations=2, seed=0)
    points = 0.0
    for index in range(games):
        env = TICTACTOE.make_env()
        env.reset()
        seats = [agent, RandomAgent(seed=index)][:: 1 if index % 2 == 0 else -1]
        while not env.game_state.is_terminal():
            env.step(seats[env.game_state.current_player()].act(env))
        winner = env.game_state.winner
        points += 0.5 if winner is None else float(seats[winner] is agent)
    return points / games


@pytest.mark.slow
def test_a_bootstrapped_network_beats_random_more_than_an_untrained_one(
    tmp_path, monkeypatch
) -> None:
    """300 games of MCTS with 200 simulations, no self-play: the network scores 0.84 and 0.89
    against random (seeds 0 and 1), its untrained weights about 0.6."""
    stop_at_self_play(monkeypatch)
    out = tmp_path / "run"
    config = bootstrap_config(
        out, channels=16, batch_size=32, min_buffer=32, bootstrap="mcts:simulations=200",
        bootstrap_games=300, seed=0,
    )  # fmt: skip
    with pytest.raises(KeyboardInterrupt):
        train(config, progress=False, resolve_agent=resolve_agent)
    torch.manual_seed(0)  # the run's initial weights
    spec = NetworkSpec.for_game(TICTACTOE.make_game(), channels=16, blocks=1)
    untrained = Checkpoint(TICTACTOE, spec, PolicyValueNet(spec).state_dict(), None, {}, {})
    save_checkpoint(tmp_path / "untrained.pt", untrained)
    trained_score = score_against_random(out / "latest.pt")
    untrained_score = score_against_random(tmp_path / "untrained.pt")
    assert trained_score >= 0.8 and trained_score - untrained_score >= 0.1, (
        trained_score,
        untrained_score,
    )


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bootstrap", "nosuch"], "bootstrap: unknown agent spec 'nosuch'; valid specs"),
        (["--bootstrap", "mcts:simulations=0"], "simulations must be at least 1, got 0"),
        (["--bootstrap", "perfect"], "bootstrap: the perfect player plays Connect Four"),
        (["--bootstrap", "human"], "bootstrap: 'human' is a person, not an agent"),
        (["--bootstrap-games", "5"], "bootstrap_games 5 needs bootstrap, the agent that plays"),
        (["--bootstrap", SPEC, "--bootstrap-games", "0"], "bootstrap_games must be between 1"),
        (["--bootstrap", SPEC, "--bootstrap-games", "-3"], "bootstrap_games must be between 1"),
        (["--bootstrap", SPEC, "--bootstrap-games", "2.5"], "--bootstrap-games: invalid int"),
        (["--bootstrap", ""], "bootstrap must be an agent spec, got ''"),
        (["--bootstrap-min-opening", "2"], "bootstrap_min_opening 2 needs bootstrap, the agent"),
        (
            ["--bootstrap", SPEC, "--bootstrap-min-opening", "4"],
            "bootstrap_min_opening must be between 0 and 3, got 4",
        ),
        (
            ["--bootstrap", SPEC, "--opening-moves", "5", "--bootstrap-min-opening", "6"],
            "bootstrap_min_opening must be between 0 and 5, got 6",
        ),
        (["--bootstrap", SPEC, "--bootstrap-min-opening", "-1"], "bootstrap_min_opening must be"),
    ],
)
def test_connectn_train_refuses_a_bad_bootstrap_before_writing(
    tmp_path, capsys, arguments, message
) -> None:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main(["train", "tictactoe", "--out", str(out), "--games", "2", *arguments])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert message in error and error.strip().splitlines()[-1].startswith("connectn train")
    assert not out.exists()


def test_a_network_of_another_game_is_refused_as_the_bootstrap_agent(bootstrapped, tmp_path):
    spec = f"az:path={bootstrapped / 'latest.pt'},simulations=4"
    with pytest.raises(
        ConfigError,
        match=r"bootstrap: .*latest\.pt: the checkpoint was trained on tictactoe, not on conn",
    ):
        train(
            bootstrap_config(tmp_path / "run", "connect_four", bootstrap=spec),
            resolve_agent=resolve_agent,
        )
    assert not (tmp_path / "run").exists()


def test_train_without_a_resolver_refuses_a_bootstrap_it_cannot_build(tmp_path) -> None:
    with pytest.raises(ConfigError, match=r"train\(\) needs resolve_agent to build the agent"):
        train(bootstrap_config(tmp_path / "run"), progress=False)
    assert not (tmp_path / "run").exists()
