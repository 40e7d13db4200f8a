"""AlphaZero: the network, the learner, augmentation against the rules, checkpoints, the agent,
training runs (resume, reproducibility, worker processes, bad input), the command line."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import logging
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from pythonpath_helpers import child_environment

torch = pytest.importorskip(
    "torch", reason='the train extra is not installed: pip install ".[train]"'
)

from agents.alphazero import (  # noqa: E402
    AlphaZeroAgent,
    CheckpointError,
    ConfigError,
    RunDirectoryError,
    TrainConfig,
    load_checkpoint,
    resume_config,
    train,
)
from agents.alphazero.checkpoint import (  # noqa: E402
    DIGEST_KEY,
    Checkpoint,
    content_digest,
    save_checkpoint,
)
from agents.alphazero.inference import weights_of  # noqa: E402
from agents.alphazero.learner import Learner, losses  # noqa: E402
from agents.alphazero.network import NetworkSpec, PolicyValueNet, encode  # noqa: E402
from agents.alphazero.pretrained import NETWORKS, pretrained_checkpoint  # noqa: E402
from agents.alphazero.replay import Batch, ReplayBuffer, SymmetryTable  # noqa: E402
from agents.batched import uniform_evaluator  # noqa: E402
from agents.selfplay import BatchedSelfPlay  # noqa: E402
from connectn_env.cli import main  # noqa: E402
from connectn_env.envs.base import BoardGameEnv  # noqa: E402
from connectn_env.games import REGISTRY, ConnectNGame  # noqa: E402
from connectn_env.records import GameConfig  # noqa: E402

torch.set_num_threads(1)

TINY = {
    "channels": 8,
    "blocks": 1,
    "simulations": 8,
    "games_in_flight": 8,
    "moves_per_task": 3,
    "batch_size": 32,
    "buffer_size": 2000,
    "min_buffer": 32,
    "eval_minutes": 0.0,
    "workers": 0,
    "precision": "float32",  # "auto" chooses by timing: runs would not be reproducible
}
GAMES = {
    "tictactoe": GameConfig("tictactoe"),
    "connect_four": GameConfig("connect_four"),
    "connect_n 5x5 free": GameConfig("connect_n", {"rows": 5, "cols": 5, "n": 4, "gravity": False}),
    "hex 4x4": GameConfig("hex", {"rows": 4, "cols": 4}),
    "hex 3x3 swap": GameConfig("hex", {"rows": 3, "cols": 3, "swap": True}),
    "gomoku 7x7": GameConfig("gomoku", {"rows": 7, "cols": 7}),
}


def tiny_config(out: Path, game: str | GameConfig = "tictactoe", **changes) -> TrainConfig:
    return TrainConfig(game=game, out=out, **(TINY | {"games": 24} | changes))


def files_digest(directory: Path) -> dict[str, str]:
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def self_play_batch(game, positions: int, seed: int = 0) -> Batch:
    selfplay = BatchedSelfPlay(game, 8, simulations=8, seed=seed)
    buffer = ReplayBuffer(10_000, game)
    while buffer.size < positions:
        for record in selfplay.play(uniform_evaluator, 2):
            buffer.add(record)
    return buffer.sample(positions, np.random.default_rng(seed))


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    """A tiny tic-tac-toe run (in the driver process, no evaluation)."""
    out = tmp_path_factory.mktemp("az") / "run"
    train(tiny_config(out), progress=False)
    return out


# --- the network --------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_network_covers_every_action_layout(name: str) -> None:
    game = GAMES[name].make_game()
    spec = NetworkSpec.for_game(game, channels=8, blocks=1)
    assert spec.columns == game.gravity
    assert spec.specials == len(game.special_actions)
    model = PolicyValueNet(spec).eval()
    state = game.new_initial_state()
    x = encode(state.observation(0)[None].repeat(3, 0), np.array([0, 1, 0]))
    assert x.shape == (3, 3, game.rows, game.cols)
    logits, values = model(x)
    assert logits.shape == (3, game.num_actions)
    assert values.shape == (3,) and torch.all(values.abs() <= 1)


def test_the_network_is_fully_convolutional() -> None:
    small = NetworkSpec.for_game(
        ConnectNGame(rows=5, cols=5, n=4, gravity=False), channels=8, blocks=2
    )
    large = NetworkSpec.for_game(
        ConnectNGame(rows=9, cols=7, n=4, gravity=False), channels=8, blocks=2
    )
    weights = PolicyValueNet(small).state_dict()
    PolicyValueNet(large).load_state_dict(weights)  # the same weights fit any board


def test_an_action_layout_the_network_cannot_serve_is_refused() -> None:
    class Odd:
        rows, cols, num_actions, gravity = 3, 3, 11, False
        special_actions = {9: "pass"}

        def __repr__(self) -> str:
            return "Odd()"

    with pytest.raises(ValueError, match=r"Odd\(\) has 11 actions"):
        NetworkSpec.for_game(Odd(), channels=8, blocks=1)


def test_a_training_step_lowers_the_loss_on_a_fixed_batch() -> None:
    game = REGISTRY.make("tictactoe")
    batch = self_play_batch(game, 64)
    torch.manual_seed(0)
    model = PolicyValueNet(NetworkSpec.for_game(game, channels=16, blocks=1))
    learner = Learner(model, learning_rate=3e-3, weight_decay=0.0, device="cpu")
    model.eval()
    with torch.no_grad():
        before = float(losses(model, batch)["loss"])
    for _ in range(40):
        learner.step(batch)
    model.eval()
    with torch.no_grad():
        after = losses(model, batch)
    assert float(after["loss"]) < 0.8 * before
    assert learner.steps == 40


def test_the_learner_trains_in_channels_last_layout_with_the_same_outputs() -> None:
    game = REGISTRY.make("connect_four")
    batch = self_play_batch(game, 32)
    torch.manual_seed(0)
    model = PolicyValueNet(NetworkSpec.for_game(game, channels=16, blocks=2))
    reference = copy.deepcopy(model).eval()
    Learner(model, learning_rate=3e-3, weight_decay=0.0, device="cpu")
    weight = model.tower[0].conv1.weight
    assert weight.is_contiguous(memory_format=torch.channels_last)
    assert not weight.is_contiguous()
    model.eval()
    with torch.no_grad():
        x = encode(batch.observations, batch.players)
        for got, want in zip(model(x), reference(x), strict=True):
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    sent = weights_of(model)["tower.0.conv1.weight"]  # what workers and checkpoints get
    assert sent.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(sent, weight.detach().numpy())


# --- augmentation against the rules ----------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_symmetries_map_positions_to_positions_of_the_rules(name: str) -> None:
    """A symmetry applied to a training position is the position reached by the symmetric
    moves: same planes as the transformed ones, transformed legal moves, same outcome."""
    game = GAMES[name].make_game()
    table = SymmetryTable(game)
    assert table.names[0] == "identity"
    rng = np.random.default_rng(7)
    for _ in range(4):
        state = game.new_initial_state()
        moves = []
        length = int(rng.integers(1, game.max_moves + 1))
        while not state.is_terminal() and len(moves) < length:
            move = int(rng.choice(state.legal_actions()))
            moves.append(move)
            state.apply_action(move)
        player = 0 if state.is_terminal() else state.current_player()
        policy = np.zeros(game.num_actions, dtype=np.float32)
        policy[state.legal_actions()[:1]] = 1.0
        batch = Batch(
            state.observation(player)[None],
            np.array([player], np.int8),
            state.legal_action_mask()[None],
            policy[None],
            np.array([state.returns()[0]], np.float32),
        )
        for index, symmetry in enumerate(game.symmetries()):
            image = table.apply(index, batch)
            mirrored = game.new_initial_state()
            for move in moves:
                mirrored.apply_action(int(symmetry.actions[move]))
            np.testing.assert_array_equal(image.observations[0], mirrored.observation(player))
            np.testing.assert_array_equal(image.masks[0], mirrored.legal_action_mask())
            assert mirrored.returns() == state.returns()
            np.testing.assert_array_equal(image.policies[0], symmetry.policy(policy))
            np.testing.assert_array_equal(
                image.observations[0], symmetry.planes(state.observation(player))
            )


def test_augment_draws_every_symmetry_and_keeps_targets_aligned() -> None:
    game = REGISTRY.make("tictactoe")
    batch = self_play_batch(game, 200)
    table = SymmetryTable(game)
    out = table.augment(batch, np.random.default_rng(0))
    drawn = np.random.default_rng(0).integers(len(table), size=len(batch))  # augment's draws
    assert set(drawn.tolist()) == set(range(8))
    for k in range(len(table)):
        rows = np.flatnonzero(drawn == k)
        expected = table.apply(k, Batch(*(a[rows] for a in vars(batch).values())))
        for name, value in vars(expected).items():
            np.testing.assert_array_equal(getattr(out, name)[rows], value)


def test_the_replay_buffer_keeps_the_newest_positions_and_saves_them(tmp_path) -> None:
    game = REGISTRY.make("tictactoe")
    selfplay = BatchedSelfPlay(game, 4, simulations=4, seed=2)
    buffer = ReplayBuffer(50, game)
    records = []
    while buffer.added < 130:
        for record in selfplay.play(uniform_evaluator, 2):
            buffer.add(record)
            records.append(record)
    newest = np.concatenate([r.policies for r in records])[-50:]
    assert buffer.size == 50
    order = (buffer.added - 50 + np.arange(50)) % 50
    np.testing.assert_array_equal(buffer.policies[order], newest)
    buffer.save(tmp_path / "b.npz")
    copy = ReplayBuffer(50, game)
    copy.load(tmp_path / "b.npz")
    assert (copy.size, copy.added) == (50, buffer.added)
    for name in ("observations", "players", "masks", "policies", "values"):
        np.testing.assert_array_equal(getattr(copy, name), getattr(buffer, name))
    with pytest.raises(ValueError, match="shapes"):
        ReplayBuffer(50, REGISTRY.make("connect_four")).load(tmp_path / "b.npz")


# --- checkpoints and the agent --------------------------------------------------------------


def test_checkpoints_round_trip_and_refuse_bad_files(trained, tmp_path) -> None:
    checkpoint = load_checkpoint(trained / "best.pt", GameConfig("tictactoe"))
    assert checkpoint.game == GameConfig("tictactoe")
    copy = tmp_path / "copy.pt"
    save_checkpoint(copy, checkpoint)
    again = load_checkpoint(copy)
    for name, value in checkpoint.model.items():
        assert torch.equal(value, again.model[name])
    (tmp_path / "text.pt").write_text("not a checkpoint")
    (tmp_path / "truncated.pt").write_bytes(b"PK\x03\x04" + b"\0" * 20)
    torch.save({"weights": torch.zeros(3)}, tmp_path / "foreign.pt")
    torch.save({"format": "connectn-alphazero", "version": 1, "game": {}}, tmp_path / "bad.pt")
    torch.save(Checkpoint, tmp_path / "pickled.pt")  # a class: weights_only refuses it
    cases = {
        tmp_path / "missing.pt": "no checkpoint file",
        tmp_path: "is a directory",
        tmp_path / "text.pt": "cannot read checkpoint: not the zip archive .* b'not a ch'",
        tmp_path / "truncated.pt": r"cannot read checkpoint: [^.]*zip archive[^.]*$",
        tmp_path / "foreign.pt": "not a connectn AlphaZero checkpoint",
        tmp_path / "bad.pt": "damaged checkpoint",
        tmp_path / "pickled.pt": "cannot read checkpoint",
    }
    for path, message in cases.items():
        with pytest.raises(CheckpointError, match=message):
            load_checkpoint(path)
    with pytest.raises(CheckpointError, match=r"trained on tictactoe, not on connect_four"):
        load_checkpoint(trained / "best.pt", GameConfig("connect_four"))
    assert issubclass(CheckpointError, ValueError)


def _weight_data_offsets(raw: bytes) -> np.ndarray:
    """The offsets of every byte of the tensors' data in a ``torch.save`` zip (stored, not
    compressed: each record's bytes follow its 30-byte local header, name and extra field)."""
    spans = []
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        for info in archive.infolist():
            if "/data/" in info.filename:
                assert info.compress_type == zipfile.ZIP_STORED
                header = raw[info.header_offset : info.header_offset + 30]
                name, extra = (int.from_bytes(header[i : i + 2], "little") for i in (26, 28))
                start = info.header_offset + 30 + name + extra
                spans.append(np.arange(start, start + info.file_size))
    return np.concatenate(spans)


def _same(a: object, b: object) -> bool:
    """Equal values of equal types, tensors bit for bit with their dtype and shape."""
    if isinstance(a, torch.Tensor):
        return (
            isinstance(b, torch.Tensor)
            and (a.dtype, a.shape) == (b.dtype, b.shape)
            and torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8))
        )
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def test_a_flipped_byte_in_a_checkpoint_never_loads_silently(trained, tmp_path) -> None:
    """torch's zip reader checks no CRCs: every flip in the weight (and optimizer) data is
    refused by the digest; a flip anywhere else is refused too, or changes nothing loaded."""
    raw = (trained / "latest.pt").read_bytes()
    original = torch.load(io.BytesIO(raw), weights_only=True)
    path = tmp_path / "latest.pt"
    where = re.escape(str(path))
    data = _weight_data_offsets(raw)
    assert len(data) > len(raw) // 2
    flips = data[np.linspace(0, len(data) - 1, 60).astype(int)]
    for offset in flips:
        damaged = bytearray(raw)
        damaged[offset] ^= 0x01
        path.write_bytes(damaged)
        with pytest.raises(CheckpointError, match=rf"^{where}: damaged: its contents do not m"):
            load_checkpoint(path)
    for offset in np.linspace(0, len(raw) - 1, 120).astype(int):
        damaged = bytearray(raw)
        damaged[offset] ^= 0x10
        path.write_bytes(damaged)
        try:
            load_checkpoint(path)
        except CheckpointError as error:
            assert str(error).startswith(f"{path}: "), error
            continue
        # a zip header field, padding or location tag that torch does not use
        assert offset not in data, offset
        assert _same(torch.load(path, "cpu", weights_only=True), original), offset


def test_checkpoints_without_a_digest_load_and_edited_ones_do_not(trained, tmp_path) -> None:
    data = torch.load(trained / "latest.pt", weights_only=True)
    assert data["version"] == 2 and data[DIGEST_KEY] == content_digest(data)
    path = tmp_path / "edited.pt"
    cases = {
        "an edited count": {**data, "progress": {**data["progress"], "step": 10**6}},
        "version 2 without its digest": {k: v for k, v in data.items() if k != DIGEST_KEY},
        "a digest claimed by version 1": {**data, "version": 1},
        "a digest that is not text": {**data, DIGEST_KEY: torch.zeros(3)},
    }
    for edited in cases.values():
        torch.save(edited, path)
        with pytest.raises(CheckpointError, match=rf"^{re.escape(str(path))}: damaged: "):
            load_checkpoint(path)
    torch.save({**data, "version": True}, path)
    with pytest.raises(CheckpointError, match=r"checkpoint version True; this version reads 1"):
        load_checkpoint(path)
    old = {k: v for k, v in data.items() if k != DIGEST_KEY} | {"version": 1}
    torch.save(old, path)  # as checkpoints were written before they carried a digest
    assert _same(load_checkpoint(path).model, load_checkpoint(trained / "latest.pt").model)
    with pytest.raises(TypeError, match="a checkpoint holds no set values"):
        content_digest({"model": {1, 2}})


def test_the_agent_plays_legal_moves_and_refuses_another_game(trained) -> None:
    agent = AlphaZeroAgent.from_checkpoint(trained / "best.pt", simulations=20, seed=0)
    env = BoardGameEnv(REGISTRY.make("tictactoe"))
    env.reset()
    while not env.game_state.is_terminal():
        result = agent.search(env)
        assert result.pi.shape == (9,) and result.pi.sum() == pytest.approx(1.0)
        assert result.action in env.game_state.legal_actions()
        env.step(result.action)
    other = BoardGameEnv(REGISTRY.make("connect_n", rows=3, cols=3, n=3, gravity=True))
    other.reset()
    with pytest.raises(CheckpointError, match="trained on tictactoe, not on connect_n"):
        agent.act(other)
    with pytest.raises(ValueError, match="device"):
        AlphaZeroAgent.from_checkpoint(trained / "best.pt", device="tpu")


def test_the_agent_is_a_gymnasium_opponent(trained) -> None:
    import gymnasium as gym

    import connectn_env  # noqa: F401 (registers the ids)

    agent = AlphaZeroAgent.from_checkpoint(trained / "best.pt", simulations=10, seed=0)
    env = gym.make("connectn_env/TicTacToe-v0", opponent=agent)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, done, _, info = env.step(action)
    assert reward in (-1.0, 0.0, 1.0)


def test_a_search_result_feeds_the_analysis_overlay(trained) -> None:
    from connectn_env.play.session import MOVE, GameSession
    from connectn_env.play.thinking import think

    agent = AlphaZeroAgent.from_checkpoint(trained / "best.pt", simulations=12, seed=0)
    session = GameSession(BoardGameEnv(REGISTRY.make("tictactoe")), agent, human_player=1)
    reports = []
    action, result = think(agent, session.position_copy(), progress=lambda *a: reports.append(a))
    session.note_answer(MOVE, session.moves, action, result)
    session.play(action)
    assert session.analysis is not None and session.analysis.result.pi.shape == (9,)
    assert session.analysis.result.pi.sum() == pytest.approx(1.0)


# --- training runs --------------------------------------------------------------------------


def test_a_run_writes_its_files(trained) -> None:
    names = {path.name for path in trained.iterdir()}
    assert {"run.json", "latest.pt", "best.pt", "buffer.npz", "metrics.jsonl", "plots.png"} <= names
    records = [json.loads(line) for line in (trained / "metrics.jsonl").read_text().splitlines()]
    assert all(record["kind"] in ("train", "eval") for record in records)
    progress = load_checkpoint(trained / "latest.pt").progress
    assert progress["games"] >= 24 and progress["step"] > 0
    assert load_checkpoint(trained / "latest.pt").optimizer is not None


def test_a_resumed_run_continues_where_it_stopped(tmp_path) -> None:
    out = tmp_path / "run"
    first = train(tiny_config(out, games=24), progress=False)
    latest = load_checkpoint(out / "latest.pt")
    second = train(resume_config(out, games=48), progress=False)
    assert second.games >= 48 and second.games > first.games
    assert second.steps > first.steps
    assert second.positions > first.positions
    assert second.seconds > first.seconds
    resumed = load_checkpoint(out / "latest.pt")
    assert resumed.progress["games"] == second.games
    assert resumed.config == latest.config | {"games": 48, "resume": True}
    # a run whose budget is spent stops at once and changes nothing but the timestamps
    third = train(resume_config(out, games=48), progress=False)
    assert (third.games, third.steps) == (second.games, second.steps)


@pytest.mark.slow  # about 9 s: two runs
def test_a_run_is_reproducible_from_its_seed(tmp_path) -> None:
    """The same seed and game budget give the same network, in this process or with one
    worker process (the schedule does not depend on timing)."""
    weights = []
    for name, workers in (("a", 0), ("b", 0), ("c", 1)):
        train(tiny_config(tmp_path / name, seed=5, workers=workers), progress=False)
        weights.append(load_checkpoint(tmp_path / name / "latest.pt").model)
    for other in weights[1:]:
        for name, value in weights[0].items():
            assert torch.equal(value, other[name]), name
    train(tiny_config(tmp_path / "d", seed=6), progress=False)
    different = load_checkpoint(tmp_path / "d" / "latest.pt").model
    assert any(not torch.equal(value, different[name]) for name, value in weights[0].items())


def _weights_equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[name], b[name]) for name in a)


def test_a_run_starts_from_the_network_init_names(trained, tmp_path) -> None:
    """``init`` loads a checkpoint's (or the shipped network's) weights before self-play; a
    budget spent before the buffer fills leaves them untouched in ``latest.pt``."""
    untrained = {"games": 2, "min_buffer": 2000}
    source = load_checkpoint(trained / "latest.pt")
    train(tiny_config(tmp_path / "a", init=str(trained / "latest.pt"), **untrained), progress=False)
    started = load_checkpoint(tmp_path / "a" / "latest.pt")
    assert started.progress["step"] == 0 and _weights_equal(started.model, source.model)
    train(tiny_config(tmp_path / "b", **untrained), progress=False)
    assert not _weights_equal(load_checkpoint(tmp_path / "b" / "latest.pt").model, source.model)
    shipped = pretrained_checkpoint(GameConfig("tictactoe"))
    config = tiny_config(tmp_path / "c", init="pretrained", channels=32, blocks=3, **untrained)
    train(config, progress=False)
    assert _weights_equal(load_checkpoint(tmp_path / "c" / "latest.pt").model, shipped.model)
    assert json.loads((tmp_path / "c" / "run.json").read_text())["config"]["init"] == "pretrained"


def test_a_network_of_another_board_size_starts_a_run_of_the_same_game(trained, tmp_path):
    """A curriculum: the tic-tac-toe network (3 x 3, three in a row) starts a run on a 5 x 5
    board with four in a row, weights unchanged (the network is fully convolutional), and that
    run's network plays its own board."""
    source = load_checkpoint(trained / "latest.pt")
    bigger = GAMES["connect_n 5x5 free"]
    out = tmp_path / "bigger"
    config = tiny_config(out, bigger, init=str(trained / "latest.pt"), games=2, min_buffer=2000)
    train(config, progress=False)
    started = load_checkpoint(out / "latest.pt", bigger)
    assert started.spec.rows == 5 and _weights_equal(started.model, source.model)
    agent = AlphaZeroAgent.from_checkpoint(out / "latest.pt", simulations=4, seed=0)
    env = bigger.make_env()
    env.reset()
    assert agent.act(env) in env.game_state.legal_actions()


@pytest.mark.parametrize(
    ("init", "changes", "message"),
    [
        ("MISSING", {}, r"init: .*none\.pt: no checkpoint file there"),
        ("LATEST", {"channels": 16}, "8 channels and 1 blocks, this run's has 16 and 1: give "),
        (
            "LATEST",
            {"game": "connect_four"},
            "init: .*tictactoe, not on connect_four, and its actions are laid out otherwise "
            "\\(one action per cell, this run's one action per column",
        ),
        ("LATEST", {"game": GAMES["hex 4x4"]}, "init: .*tictactoe, not on hex.*its own game only"),
        (
            "HEX7",
            {"game": GAMES["hex 3x3 swap"], "channels": 64, "blocks": 4},
            r"swap=false\), not on hex\(.*swap=true\), .*this run's one action per cell and 1 sp",
        ),
        ("pretrained", {"game": GAMES["hex 4x4"]}, "init: no pretrained network ships for hex"),
        (5, {}, "init must be a checkpoint path or 'pretrained', got 5"),
    ],
)
def test_a_bad_init_is_refused_before_anything_is_written(
    trained, tmp_path, init, changes, message
) -> None:
    files = {
        "LATEST": str(trained / "latest.pt"),
        "MISSING": str(tmp_path / "none.pt"),
        "HEX7": str(NETWORKS / "hex_rows7_cols7_swapFalse.pt"),
    }
    init = files.get(init, init)
    with pytest.raises(ConfigError, match=message):
        train(tiny_config(tmp_path / "run", init=init, **changes), progress=False)
    assert not (tmp_path / "run").exists()


@pytest.mark.slow  # about 13 s
def test_a_run_with_a_worker_process_and_evaluation(tmp_path) -> None:
    out = tmp_path / "run"
    result = train(
        tiny_config(
            out,
            workers=1,
            games=40,
            eval_minutes=1e-3,
            eval_games=2,
            eval_budgets=(20,),
            eval_simulations=8,
        ),
        progress=False,
    )
    assert result.games >= 40
    assert result.evaluations, "no evaluation finished"
    evaluation = result.evaluations[-1]
    assert {r["b"] for r in evaluation["results"]} >= {"mcts:simulations=20,preset=uct"}
    assert result.elo["mcts:simulations=20,preset=uct"] == 0.0
    assert (out / "checkpoints" / f"{evaluation['label']}.pt").exists()
    load_checkpoint(out / "best.pt", GameConfig("tictactoe"))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "nogame"}, "unknown game 'nogame'"),
        ({"games": None}, "needs a budget"),
        ({"minutes": -1}, "minutes must be greater than 0"),
        ({"device": "tpu"}, "device must be one of 'cpu', 'cuda', got 'tpu'"),
        ({"precision": "half"}, "precision must be one of 'auto', 'float32', 'bfloat16'"),
        ({"inference": "jit"}, "inference must be one of 'eager', 'compile', got 'jit'"),
        ({"simulations": 0}, "simulations must be between 1"),
        ({"eval_budgets": (100, 100)}, "must not repeat"),
        ({"eval_budgets": "1000"}, "eval_budgets must be a tuple"),
        ({"noise_fraction": 2.0}, "noise_fraction must be between 0 and 1"),
        ({"workers": 0, "ray": "auto"}, "workers must be at least 1 with ray"),
        ({"buffer_size": 10}, "buffer_size must be at least 32"),
    ],
)
def test_a_bad_config_is_refused_naming_the_setting(tmp_path, changes, message) -> None:
    with pytest.raises(ConfigError, match=message):
        tiny_config(tmp_path / "run", **changes)
    assert not (tmp_path / "run").exists()


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA device")
def test_cuda_without_a_gpu_is_refused_before_anything_is_written(tmp_path) -> None:
    with pytest.raises(ConfigError, match="no CUDA device"):
        train(tiny_config(tmp_path / "run", device="cuda"), progress=False)
    assert not (tmp_path / "run").exists()


def test_connectn_train_names_a_bad_ray_address_before_anything_is_written(
    tmp_path, capsys
) -> None:
    """It was a ValueError traceback from ray.init, deep in the trainer."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray is already running in this process: any address uses it")
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main(["train", "tictactoe", "--out", str(out), "--ray", "bogus", "--games", "1"])
    assert stop.value.code == 2
    message = "connectn train: error: --ray bogus: Invalid address format: bogus\n"
    assert capsys.readouterr().err == message
    assert not out.exists()


def test_a_run_directory_of_another_game_is_refused_and_left_alone(trained, tmp_path) -> None:
    before = files_digest(trained)
    with pytest.raises(RunDirectoryError, match="holds a training run of tictactoe already"):
        train(tiny_config(trained), progress=False)
    with pytest.raises(RunDirectoryError, match="run of tictactoe, not of connect_four"):
        train(tiny_config(trained, game="connect_four", resume=True), progress=False)
    with pytest.raises(RunDirectoryError, match=r"differs in channels=16 \(the run has 8\)"):
        train(tiny_config(trained, channels=16, resume=True), progress=False)
    assert files_digest(trained) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(RunDirectoryError, match="not empty and holds no training run"):
        train(tiny_config(other), progress=False)
    with pytest.raises(RunDirectoryError, match="holds no training run"):
        train(tiny_config(other, resume=True), progress=False)
    assert files_digest(other) == {"notes.txt": hashlib.sha256(b"mine").hexdigest()}


def test_an_unreadable_checkpoint_stops_a_resume_and_changes_nothing(trained, tmp_path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(trained, copy)
    (copy / "latest.pt").write_bytes(b"garbage")
    before = files_digest(copy)
    with pytest.raises(CheckpointError, match="cannot read checkpoint"):
        train(resume_config(copy, games=100), progress=False)
    assert files_digest(copy) == before


def test_a_second_training_on_a_locked_new_directory_changes_nothing(tmp_path) -> None:
    """The lock is taken before the directory is looked at: a training that finds another
    holding it is refused as such, and writes no run.json of its own game."""
    from agents.alphazero.rundir import RunDirectory

    out = tmp_path / "run"
    out.mkdir()
    first = RunDirectory(out)
    first.lock()  # the first training, between taking the lock and writing run.json
    try:
        with pytest.raises(RunDirectoryError, match=r"\.lock: another training is running"):
            train(tiny_config(out, game="connect_four"), progress=False)
        assert sorted(p.name for p in out.iterdir()) == [".lock"]
    finally:
        first.unlock()


@pytest.mark.parametrize(
    ("part", "error"),
    [("ReplayBuffer", MemoryError("no room")), ("make_actors", ConnectionError("no Ray"))],
)
def test_a_new_run_that_fails_to_start_leaves_no_directory(
    tmp_path, monkeypatch, part, error
) -> None:
    """Nothing is written before everything is set up: a failed start leaves no run.json
    (which would be neither resumable nor replaceable)."""
    import agents.alphazero.trainer as trainer

    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(trainer, part, fail)
    with pytest.raises(type(error)):
        train(tiny_config(tmp_path / "run"), progress=False)
    assert list(tmp_path.iterdir()) == []


def test_two_trainings_started_together_leave_one_resumable_run(tmp_path) -> None:
    import threading

    out = tmp_path / "run"
    games = {"tictactoe": GameConfig("tictactoe"), "connect_four": GameConfig("connect_four")}
    start = threading.Barrier(len(games))
    outcomes: dict[str, object] = {}

    def run(name: str) -> None:
        start.wait()
        try:
            outcomes[name] = train(tiny_config(out, game=games[name], games=8), progress=False)
        except RunDirectoryError as error:
            outcomes[name] = error

    threads = [threading.Thread(target=run, args=(name,)) for name in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    winners = [name for name, outcome in outcomes.items() if not isinstance(outcome, Exception)]
    assert len(winners) == 1, outcomes
    loser = next(outcome for outcome in outcomes.values() if isinstance(outcome, Exception))
    assert "another training is running" in str(loser) or "holds a training run" in str(loser)
    config = resume_config(out)
    assert config.game == games[winners[0]]
    assert load_checkpoint(out / "latest.pt").game == games[winners[0]]
    train(config, progress=False)  # resumes as the winner's game


def test_a_resume_without_latest_pt_is_refused_not_restarted(trained, tmp_path, capsys) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(trained, copy)
    (copy / "latest.pt").unlink()
    before = files_digest(copy)
    with pytest.raises(SystemExit) as stop:
        main(["train", "tictactoe", "--out", str(copy), "--resume", "--no-progress"])
    assert stop.value.code == 2
    message = capsys.readouterr().err
    assert message.startswith(f"connectn train: error: {copy / 'latest.pt'}: missing")
    assert "best.pt, buffer.npz" in message and "new --out directory" in message
    assert files_digest(copy) == before
    with pytest.raises(SystemExit):
        main(["train", "tictactoe", "--help"])
    assert "To start afresh, train into a new --out directory" in " ".join(
        capsys.readouterr().out.split()
    )


# --- command line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("--precision", "half", "auto, float32 or bfloat16"),
        ("--device", "tpu", "cpu or cuda"),
        ("--inference", "jit", "eager or compile"),
        ("--selection", "uct", "puct or gumbel"),
    ],
)
def test_a_choice_option_outside_its_choices_is_refused_naming_them(
    tmp_path, capsys, option, value, allowed
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["train", "tictactoe", "--out", str(tmp_path / "run"), option, value])
    assert stop.value.code == 2
    assert f"argument {option}: expected {allowed}, got '{value}'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_connectn_train_then_arena_with_the_checkpoint(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    args = ["train", "tictactoe", "--out", str(out), "--games", "16", "--workers", "0"]
    args += ["--simulations", "8", "--games-in-flight", "8", "--channels", "8", "--blocks", "1"]
    args += ["--batch-size", "32", "--buffer-size", "1000", "--eval-minutes", "0", "--no-progress"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "trained" in printed and f"az:path={out / 'best.pt'}" in printed
    spec = f"az:path={out / 'best.pt'},simulations=8"
    code = main(
        [
            "arena",
            "tictactoe",
            spec,
            "random",
            "--games",
            "2",
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(tmp_path / "arena.jsonl"),
        ]
    )
    assert code == 0
    table = capsys.readouterr().out
    assert spec in table and "errors" in table
    lines = (tmp_path / "arena.jsonl").read_text().splitlines()
    games = [json.loads(line) for line in lines[1:]]
    assert len(games) == 2 and all(game["error"] is None for game in games)
    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "connect_four", spec, "random", "--games", "2", "--no-progress"])
    assert exit_info.value.code == 2
    assert "trained on tictactoe, not on connect_four" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args[:2], "--out", str(out), "--games", "16", "--no-progress"])
    assert "holds a training run of tictactoe already" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "hex", "--out", str(out), "--resume", "--games", "30", "--no-progress"])
    assert "run of tictactoe, not of hex" in capsys.readouterr().err


def test_bad_az_specs_are_reported_before_any_game(tmp_path, capsys) -> None:
    from connectn_env.specs import parse_agent_spec

    with pytest.raises(ValueError, match="az needs path=FILE"):
        parse_agent_spec("az:simulations=5")
    with pytest.raises(ValueError, match="no checkpoint file"):
        parse_agent_spec(f"az:path={tmp_path / 'none.pt'}")
    with pytest.raises(ValueError, match="unknown key 'noise' for az"):
        parse_agent_spec(f"az:path={tmp_path / 'none.pt'},noise=0.2")


def test_importing_the_packages_does_not_import_torch() -> None:
    code = (
        "import sys, agents, agents.alphazero, agents.batched, agents.selfplay, connectn_env.cli;"
        "from agents.alphazero import TrainConfig;"
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=child_environment())


# --- a network that learned something ---------------------------------------------------------


@pytest.mark.slow
def test_a_trained_tictactoe_network_never_loses_to_random(tmp_path) -> None:
    """Train tic-tac-toe for a few hundred games, then: 50 games against a uniformly random
    player with 50 simulations per move, colours alternating, not one lost."""
    from agents import RandomAgent

    out = tmp_path / "run"
    train(
        TrainConfig(
            game="tictactoe",
            out=out,
            games=800,
            workers=0,
            channels=32,
            blocks=2,
            simulations=32,
            games_in_flight=32,
            moves_per_task=4,
            batch_size=128,
            buffer_size=20_000,
            train_ratio=4.0,
            eval_minutes=0.0,
            precision="float32",  # "auto" picks by a timing: the run would depend on the load
            seed=1,
        ),
        progress=False,
    )
    agent = AlphaZeroAgent.from_checkpoint(out / "best.pt", simulations=50, seed=0)
    losses_count = 0
    for game_index in range(50):
        env = BoardGameEnv(REGISTRY.make("tictactoe"))
        env.reset()
        seats = {0: agent, 1: RandomAgent(seed=game_index)}
        if game_index % 2:
            seats = {0: seats[1], 1: seats[0]}
        while not env.game_state.is_terminal():
            env.step(seats[env.game_state.current_player()].act(env))
        winner = env.game_state.winner
        losses_count += winner is not None and seats[winner] is not agent
    assert losses_count == 0


def _process_fields(pid: int) -> list[str] | None:
    """``/proc/PID/stat``'s fields after the name (state, parent, ...), None if it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> set[int]:
    """Live (not zombie) child processes of ``pid``."""
    found = set()
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _process_fields(int(entry.name))
        if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads child processes from /proc")
def test_sigterm_saves_a_checkpoint_and_stops_the_workers(tmp_path) -> None:
    """`kill` (SIGTERM; a background job ignores SIGINT) stops `connectn train` as Ctrl-C does:
    a checkpoint to resume from, exit 130, and no worker process left running."""
    import signal
    import threading
    import time

    out = tmp_path / "run"
    command = [
        sys.executable, "-m", "connectn_env.cli", "train", "tictactoe", "--out", str(out),
        "--workers", "1", "--channels", "8", "--blocks", "1", "--simulations", "8",
        "--games-in-flight", "8", "--eval-minutes", "0", "--checkpoint-minutes", "100",
        "--precision", "float32", "--minutes", "30",
    ]  # fmt: skip
    with open(tmp_path / "stdout", "w+") as stdout:
        process = subprocess.Popen(
            command, stdout=stdout, stderr=subprocess.PIPE, text=True, env=child_environment()
        )
        lines: list[str] = []  # stderr: the progress lines count the self-play games
        playing = threading.Event()

        def read() -> None:
            for line in process.stderr:
                lines.append(line)
                if re.search(r" games [1-9]", line):
                    playing.set()  # a worker is playing

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            deadline = time.monotonic() + 240
            while not playing.wait(0.5):
                assert process.poll() is None and time.monotonic() < deadline, "".join(lines)
            workers = _children(process.pid)
            assert workers, "no worker process"
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=120) == 130, "".join(lines)
        finally:  # a failed check leaves no 30-minute training behind
            if process.poll() is None:
                for pid in (process.pid, *_children(process.pid)):
                    with contextlib.suppress(ProcessLookupError):  # one that ended meanwhile
                        os.kill(pid, signal.SIGKILL)
                process.wait()
        stdout.seek(0)
        assert "continue with --resume" in stdout.read()
    reader.join(timeout=10)
    assert (out / "latest.pt").exists()
    time.sleep(1)
    alive = [pid for pid in workers if (_process_fields(pid) or ["Z"])[0] != "Z"]
    assert not alive, f"worker processes left running: {alive}"


def test_gumbel_self_play_trains(tmp_path) -> None:
    """selection="gumbel": Gumbel AlphaZero's self-play (improved-policy targets, no
    Dirichlet noise) runs through the whole learner; a bad name is a config error."""
    result = train(tiny_config(tmp_path / "run", selection="gumbel"), progress=False)
    assert result.games >= 24
    assert load_checkpoint(tmp_path / "run" / "latest.pt").config["selection"] == "gumbel"
    with pytest.raises(ConfigError, match="selection"):
        tiny_config(tmp_path / "other", selection="ucb1")


def test_playout_cap_randomization_trains_the_policy_on_full_searches_only(tmp_path) -> None:
    """full_search_fraction: a share of the moves get the full budget and a policy target; the
    others a fast search and no policy target (all zero), which the policy loss leaves out."""
    from agents.alphazero.learner import losses
    from agents.alphazero.network import NetworkSpec, PolicyValueNet
    from agents.alphazero.replay import Batch
    from agents.batched import uniform_evaluator
    from agents.selfplay import BatchedSelfPlay

    game = REGISTRY.make("tictactoe")
    selfplay = BatchedSelfPlay(
        game, 8, simulations=24, full_search_fraction=0.5, fast_simulations=4, seed=3
    )
    played = []
    while len(played) < 8:
        played += selfplay.play(uniform_evaluator, moves=1)
    sums = np.concatenate([g.policies.sum(axis=1) for g in played])
    assert set(np.round(sums, 4)) <= {0.0, 1.0}
    assert 0.2 < (sums > 0.5).mean() < 0.8
    # searches of each budget: a fast root has 4 + 1 visits (its evaluation), a full one 25
    search = selfplay.search
    search.reset(0)
    search.reset(1)
    search.run([0, 1], uniform_evaluator, simulations=[24, 4])
    assert search.trees[0][[0, 1], 0, 6].tolist() == [25, 5]
    with pytest.raises(ValueError, match="2 budgets for 1 slots"):
        search.run([0], uniform_evaluator, simulations=[4, 4])
    # the loss: rows without a target add nothing to the policy term
    spec = NetworkSpec.for_game(game, channels=4, blocks=1)
    model = PolicyValueNet(spec)
    state = game.new_initial_state()
    observations = np.stack([state.observation(0)] * 2)
    policies = np.array([np.full(9, 1 / 9), np.zeros(9)], dtype=np.float32)
    batch = Batch(observations, np.zeros(2, np.int8), np.ones((2, 9), np.int8), policies,
                  np.zeros(2, np.float32))  # fmt: skip
    one = Batch(observations[:1], np.zeros(1, np.int8), np.ones((1, 9), np.int8), policies[:1],
                np.zeros(1, np.float32))  # fmt: skip
    with torch.no_grad():
        both, first = losses(model, batch)["policy"], losses(model, one)["policy"]
    assert float(both) == pytest.approx(float(first))
    with pytest.raises(ConfigError, match="fast_simulations"):
        tiny_config(tmp_path / "run", fast_simulations=9)
    with pytest.raises(ConfigError, match="full_search_fraction"):
        tiny_config(tmp_path / "run", full_search_fraction=1.5)
    result = train(tiny_config(tmp_path / "run", full_search_fraction=0.5), progress=False)
    assert result.games >= 24


def test_a_compiled_network_answers_as_the_eager_one_across_weights_and_batch_sizes(
    tmp_path, caplog
):
    """inference="compile": one torch.compile (announced) serves every batch size, and weights
    loaded later are used without a new compile; answers equal the eager evaluator's; a bad
    inference mode is refused by name, by the evaluator and by the config."""
    from agents.alphazero.inference import NetworkEvaluator
    from connectn_env.games import COMPILE_LOGGER

    game = REGISTRY.make("tictactoe")
    spec = NetworkSpec.for_game(game, channels=8, blocks=1)
    torch.manual_seed(0)
    eager = NetworkEvaluator(PolicyValueNet(spec))
    compiled = NetworkEvaluator(PolicyValueNet(spec), inference="compile")
    assert compiled.inference == "compile"
    generator = np.random.default_rng(0)
    observations = (generator.random((6, 3, 3, 2)) < 0.3).astype(np.int8)
    players = np.array([0, 1] * 3, dtype=np.int8)
    masks = (generator.random((6, 9)) < 0.7).astype(np.int8)
    masks[:, 0] = 1
    with caplog.at_level(logging.INFO, logger=COMPILE_LOGGER):
        for seed in (1, 2):
            torch.manual_seed(seed)
            weights = weights_of(PolicyValueNet(spec))
            eager.load(weights)
            compiled.load(weights)
            for n in (6, 2, 5):
                want = eager(observations[:n], players[:n], masks[:n])
                got = compiled(observations[:n], players[:n], masks[:n])
                for a, b in zip(got, want, strict=True):
                    assert a.shape == b.shape and np.allclose(a, b, atol=1e-5)
    starts = [r.getMessage() for r in caplog.records if r.getMessage().startswith("compiling")]
    assert starts == ["compiling the network with torch.compile (first call in this process)"]
    with pytest.raises(ValueError, match="inference must be one of 'eager', 'compile', got 'jit'"):
        NetworkEvaluator(PolicyValueNet(spec), inference="jit")
    failing = NetworkEvaluator(PolicyValueNet(spec), inference="compile")

    def no_compiler(x):
        raise OSError("no C++ compiler found\nmore detail")

    failing._forward = no_compiler
    with pytest.raises(RuntimeError, match=r"could not compile the network \(OSError: no C\+\+"):
        failing(observations, players, masks)
    with pytest.raises(ConfigError, match="inference"):
        tiny_config(tmp_path / "run", inference="jit")
    chosen = tiny_config(tmp_path / "run", inference="compile")
    assert chosen.inference == "compile"
    assert tiny_config(tmp_path / "run").training_differences(chosen) == []  # a session setting


def test_random_openings_start_games_after_random_moves_that_are_not_trained_on(tmp_path):
    """opening_moves: each game starts after 0 to opening_moves random moves (redrawn when
    they end the game); the first recorded position has that many stones; 0 keeps the empty
    board; a bad value is refused by name."""
    from agents.batched import uniform_evaluator
    from agents.selfplay import BatchedSelfPlay

    game = REGISTRY.make("tictactoe")

    def first_stones(opening_moves: int) -> list[int]:
        selfplay = BatchedSelfPlay(game, 8, simulations=8, opening_moves=opening_moves, seed=5)
        played = []
        while len(played) < 40:
            played += selfplay.play(uniform_evaluator, moves=1)
        for record in played:  # each position has one stone more than the one before
            stones = record.observations.reshape(len(record), -1).sum(axis=1)
            assert np.array_equal(np.diff(stones), np.ones(len(record) - 1))
        return [int(record.observations[0].sum()) for record in played]

    assert set(first_stones(0)) == {0}
    assert set(first_stones(4)) == {0, 1, 2, 3, 4}
    assert max(first_stones(9)) <= 8  # a full board or a won game is drawn again
    for bad in (-1, 10):
        with pytest.raises(ValueError, match="opening_moves"):
            BatchedSelfPlay(game, 2, simulations=8, opening_moves=bad)
    with pytest.raises(ConfigError, match="opening_moves"):
        tiny_config(tmp_path / "run", opening_moves=10)
    result = train(tiny_config(tmp_path / "run", opening_moves=3), progress=False)
    assert load_checkpoint(tmp_path / "run" / "latest.pt").config["opening_moves"] == 3
    assert result.games >= 24


@pytest.mark.parametrize(("selection", "noise_matters"), [("puct", True), ("gumbel", False)])
def test_self_play_adds_root_noise_unless_the_rule_explores_itself(selection, noise_matters):
    """Dirichlet noise at the root for PUCT; none for a rule that draws its own (Gumbel): its
    games do not depend on the noise settings."""
    from agents.batched import uniform_evaluator
    from agents.rules import search_rules
    from agents.selfplay import BatchedSelfPlay

    game = REGISTRY.make("tictactoe")
    games = []
    for alpha in (0.03, 3.0):
        selfplay = BatchedSelfPlay(
            game, 4, simulations=16, selection=selection, dirichlet_alpha=alpha,
            noise_fraction=0.5, temperature_moves=0, seed=5,
        )  # fmt: skip
        played = []
        while len(played) < 4:
            played += selfplay.play(uniform_evaluator, moves=1)
        games.append([g.policies.tolist() for g in played])
    assert search_rules(selection).root.explores_itself is not noise_matters
    assert (games[0] != games[1]) is noise_matters


def test_a_match_scores_each_colour_from_its_games() -> None:
    """``play_match``'s points per game agree with replaying its moves, and the scores moving
    first and second are those points split by colour (Connect Four: the strong side wins
    the games it starts against a 2-simulation UCT)."""
    from agents.alphazero.evaluation import MCTSSide, play_match
    from connectn_env.games.config import GameConfig

    config = GameConfig("connect_four")
    game = config.make_game()
    result = play_match(game, MCTSSide(game, 400, seed=0), MCTSSide(game, 2, seed=1), 6)
    assert len(result.points) == len(result.moves) == result.games == 6
    for index, (moves, points) in enumerate(zip(result.moves, result.points, strict=True)):
        env = config.make_env()
        env.reset()
        for move in moves:
            env.step(move)
        winner = env.game_state.winner
        assert points == (0.5 if winner is None else float(winner == index % 2))
    assert (result.wins, result.draws) == (result.points.count(1.0), result.points.count(0.5))
    first, second = result.points[0::2], result.points[1::2]
    assert result.score_moving(first=True) == sum(first) / 3 == 1.0
    assert result.score_moving(first=False) == sum(second) / 3
    assert result.to_json()["score_first"] == 1.0
