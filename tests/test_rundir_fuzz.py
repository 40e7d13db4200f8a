"""The run-directory fuzz test: every file of a small real training run replaced by a
truncated, empty, garbage, wrong-type, directory or FIFO version; ``connectn train --resume``
(in this process) must answer ``connectn train: error: FILE: what is wrong`` naming the file,
with exit status 2 and the directory byte-for-byte unchanged, or, where the damage is
harmless (the content of the lock file or of the plots the run redraws, a metrics log cut by
a kill), resume.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip(
    "torch", reason='the train extra is not installed: pip install ".[train]"'
)

from agents.alphazero import TrainConfig, load_checkpoint, train  # noqa: E402
from agents.alphazero.checkpoint import (  # noqa: E402
    DIGEST_KEY,
    Checkpoint,
    content_digest,
    save_checkpoint,
)
from agents.alphazero.network import NetworkSpec, PolicyValueNet  # noqa: E402
from agents.alphazero.rundir import RunDirectory  # noqa: E402
from connectn_env.cli import main  # noqa: E402
from connectn_env.records import GameConfig  # noqa: E402
from connectn_env.safe_files import file_kind  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
torch.set_num_threads(1)

SMALL = {
    "channels": 4,
    "blocks": 1,
    "simulations": 4,
    "games_in_flight": 4,
    "moves_per_task": 3,
    "batch_size": 16,
    "buffer_size": 200,
    "min_buffer": 16,
    "workers": 0,
    "precision": "float32",
    "games": 12,
    "eval_minutes": 1e-4,  # an evaluation at each chance: networks in checkpoints/
    "eval_games": 2,
    "eval_budgets": (4,),
    "eval_simulations": 4,
}
FIRST_STEP = "checkpoints/FIRST"  # the first evaluated network's file, found in the run
FILES = [
    "run.json",
    "latest.pt",
    "best.pt",
    "buffer.npz",
    "metrics.jsonl",
    "plots.png",
    ".lock",
    FIRST_STEP,
]
DAMAGES = ["truncated", "empty", "garbage", "wrong-type", "directory", "fifo"]


# --- wrong-type versions: valid files of their format, with the wrong content --------------


def _network(game: str, channels: int) -> Checkpoint:
    config = GameConfig(game)
    spec = NetworkSpec.for_game(config.make_game(), channels=channels, blocks=1)
    return Checkpoint(game=config, spec=spec, model=PolicyValueNet(spec).state_dict())


def _edit_run_file(path: Path, change: Callable[[dict], object]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _edit_checkpoint(path: Path, change: Callable[[dict], object]) -> None:
    """Change a checkpoint's entries and store the digest of the new ones (a crafted file,
    which the checks behind the digest must refuse)."""
    data = torch.load(path, weights_only=True)
    change(data)
    data[DIGEST_KEY] = content_digest(data)
    torch.save(data, path)


def _flip_weight_byte(path: Path) -> None:
    """Flip a byte in the middle of the checkpoint's largest tensor (torch checks no CRCs)."""
    raw = bytearray(path.read_bytes())
    weights = torch.load(path, weights_only=True)["model"]
    largest = max(weights.values(), key=torch.Tensor.numel).numpy().tobytes()
    middle = raw.index(largest) + len(largest) // 2
    raw[middle] ^= 0x01
    path.write_bytes(raw)


def _edit_state(path: Path, key: str, value: object) -> None:
    def change(data: dict) -> None:
        state = json.loads(data["progress"]["state"])
        state[key] = value
        data["progress"]["state"] = json.dumps(state)

    _edit_checkpoint(path, change)


def _other_optimizer(data: dict) -> None:
    model = PolicyValueNet(_network("tictactoe", 8).spec)
    optimizer = torch.optim.AdamW(model.parameters())
    for parameter in model.parameters():
        parameter.grad = torch.zeros_like(parameter)
    optimizer.step()
    data["optimizer"] = optimizer.state_dict()


def _edit_buffer(path: Path, change: Callable[[dict], object]) -> None:
    with np.load(path) as stored:
        arrays = dict(stored)
    change(arrays)
    with open(path, "wb") as stream:
        np.savez(stream, **arrays)


def _object_array(arrays: dict) -> None:
    arrays["observations"] = np.array([object()] * len(arrays["values"]), dtype=object)


def _other_game_arrays(arrays: dict) -> None:
    arrays["observations"] = np.zeros((len(arrays["values"]), 6, 7, 2), dtype=np.int8)


WRONG_TYPES: dict[str, dict[str, Callable[[Path], object]]] = {
    "run.json": {
        "a list": lambda p: p.write_text('["connectn-alphazero-run"]'),
        "channels unlike the checkpoint": lambda p: _edit_run_file(
            p, lambda d: d["config"].update(channels=8)
        ),
        "the game as text": lambda p: _edit_run_file(p, lambda d: d["config"].update(game="x")),
    },
    "latest.pt": {
        "a copy of best.pt": lambda p: shutil.copyfile(p.with_name("best.pt"), p),
        "a tensor": lambda p: torch.save(torch.zeros(3), p),
        "a state with a text count": lambda p: _edit_state(p, "games", "many"),
        "a state without budgets": lambda p: _edit_state(p, "budgets", []),
        "an evaluated network outside checkpoints/": lambda p: _edit_state(
            p, "evaluated", [{"label": "x", "seconds": 1, "step": 1, "games": 1, "path": "../x"}]
        ),
        "a pairing of an unknown network": lambda p: _edit_state(
            p, "pairings", [{"a": "x", "b": "y", "wins": 1, "draws": 0, "losses": 0}]
        ),
        "an empty sampler state": lambda p: _edit_checkpoint(
            p, lambda d: d["progress"].update(sampler="{}")
        ),
        "another network's optimizer": lambda p: _edit_checkpoint(p, _other_optimizer),
        "a text optimizer": lambda p: _edit_checkpoint(p, lambda d: d.update(optimizer="adam")),
        "a flipped byte in its weights": _flip_weight_byte,
    },
    "best.pt": {
        "a Connect Four network": lambda p: save_checkpoint(p, _network("connect_four", 4)),
        "a wider network": lambda p: save_checkpoint(p, _network("tictactoe", 8)),
        "a network of a million channels (no allocation)": lambda p: _edit_checkpoint(
            p, lambda d: d["network"].update(channels=10**6)
        ),
        "a flipped byte in its weights": _flip_weight_byte,
    },
    "buffer.npz": {
        "object arrays": lambda p: _edit_buffer(p, _object_array),
        "a missing array": lambda p: _edit_buffer(p, lambda a: a.pop("values")),
        "arrays of different lengths": lambda p: _edit_buffer(
            p, lambda a: a.update(values=a["values"][1:])
        ),
        "Connect Four positions": lambda p: _edit_buffer(p, _other_game_arrays),
        "float64 policies": lambda p: _edit_buffer(
            p, lambda a: a.update(policies=a["policies"].astype(np.float64))
        ),
        "NaN values": lambda p: _edit_buffer(
            p, lambda a: a.update(values=np.full_like(a["values"], np.nan))
        ),
        "added below the positions": lambda p: _edit_buffer(
            p, lambda a: a.update(added=np.int64(1))
        ),
    },
    "metrics.jsonl": {
        "invalid UTF-8": lambda p: p.write_bytes(b'{"kind": "train", "seconds": 1\xff}\n'),
        "a text time": lambda p: p.write_text('{"kind": "train", "seconds": "late"}\n'),
        "a list": lambda p: p.write_text("[1, 2]\n"),
        "an eval with text scores": lambda p: p.write_text(
            p.read_text().replace('"score": ', '"score": "x", "_": ', 1)
        ),
    },
    "plots.png": {"JSON": lambda p: p.write_text("{}")},
    ".lock": {"JSON": lambda p: p.write_text("{}")},
    FIRST_STEP: {
        "a Connect Four network": lambda p: save_checkpoint(p, _network("connect_four", 4)),
        "a wider network": lambda p: save_checkpoint(p, _network("tictactoe", 8)),
        "a flipped byte in its weights": _flip_weight_byte,
    },
}
# damage after which the run can and does resume: the lock's and the plots' content is
# never read, and a metrics log cut short or empty is what a killed run leaves
HARMLESS = {(name, d) for name in (".lock", "plots.png") for d in DAMAGES[:4]}
HARMLESS |= {("metrics.jsonl", "truncated"), ("metrics.jsonl", "empty")}


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for name in FILES:
        for damage in DAMAGES:
            if damage == "wrong-type":
                cases += [(name, damage, variant) for variant in WRONG_TYPES[name]]
            else:
                cases.append((name, damage, ""))
    cases += [("checkpoints", kind, "") for kind in ("empty file", "garbage file", "fifo")]
    return cases


CASES = [case for case in _cases() if case[:2] not in HARMLESS]
# the harmless damages of one kind are made together and resumed from once (a resume that
# runs writes and plots: it costs ten times a refused one)
HARMLESS_GROUPS = {
    damage: [case for case in _cases() if case[:2] in HARMLESS and case[1] == damage]
    for damage in DAMAGES[:4]
}


def _damage(path: Path, damage: str, variant: str, name: str) -> None:
    if damage == "wrong-type":
        WRONG_TYPES[name][variant](path)
        return
    if path.is_dir():
        shutil.rmtree(path)
    else:
        data = path.read_bytes()
        path.unlink()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage in ("empty", "empty file"):
        path.write_bytes(b"")
    elif damage in ("garbage", "garbage file"):
        path.write_bytes(np.random.default_rng(7).bytes(300))
    elif damage == "directory":
        path.mkdir()
    else:
        os.mkfifo(path)


def _snapshot(root: Path) -> dict[str, str]:
    """Every path under ``root``: a regular file's SHA-256, else its kind (FIFOs not opened)."""
    seen = {}
    for directory, subdirectories, files in os.walk(root):
        for name in subdirectories + files:
            path = Path(directory, name)
            mode = path.lstat().st_mode
            key = str(path.relative_to(root))
            if stat.S_ISREG(mode):
                seen[key] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                seen[key] = file_kind(mode)
    return seen


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    """A small real run: tic-tac-toe, 12 games, three evaluated networks."""
    out = tmp_path_factory.mktemp("fuzz") / "run"
    train(TrainConfig(game="tictactoe", out=out, **SMALL), progress=False)
    return out


def _resume(out: Path, capsys) -> tuple[int, str]:
    """``connectn train tictactoe --out OUT --resume`` in this process: status and stderr."""

    def waited(*_: object) -> None:
        raise AssertionError("the resume waited for a minute (on a FIFO?)")

    capsys.readouterr()
    previous = signal.signal(signal.SIGALRM, waited)
    signal.alarm(60)
    try:
        code = main(["train", "tictactoe", "--out", str(out), "--resume", "--no-progress"])
    except SystemExit as stop:
        code = stop.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, capsys.readouterr().err


def test_the_cases_cover_every_file_of_a_run(small_run: Path) -> None:
    state = json.loads(load_checkpoint(small_run / "latest.pt").progress["state"])
    steps = [entry["path"] for entry in state["evaluated"]]
    assert len(steps) >= 2, "the small run should evaluate networks"
    listed = {name for name in FILES if name != FIRST_STEP} | {"checkpoints", *steps}
    assert set(_snapshot(small_run)) == listed
    assert len(CASES) + sum(map(len, HARMLESS_GROUPS.values())) == len(_cases())


@pytest.mark.parametrize(
    ("name", "damage", "variant"), CASES, ids=[" ".join(filter(None, c)) for c in CASES]
)
def test_a_damaged_run_file_stops_the_resume_and_changes_nothing(
    small_run: Path, tmp_path: Path, capsys, name: str, damage: str, variant: str
) -> None:
    out = tmp_path / "run"
    shutil.copytree(small_run, out)
    if name == FIRST_STEP:
        state = json.loads(load_checkpoint(out / "latest.pt").progress["state"])
        name = state["evaluated"][0]["path"]
    path = out / name
    _damage(path, damage, variant, name if name in WRONG_TYPES else FIRST_STEP)
    before = _snapshot(out)
    code, err = _resume(out, capsys)
    prefix = "connectn train: error: "
    assert code == 2, err
    assert err.startswith(prefix) and err.count("\n") == 1, err
    assert err[len(prefix) :].startswith(str(out)), err  # "FILE: what is wrong"
    assert str(path) in err, err
    # a flipped byte is found by the digest; a crafted file (digest stored) by the checks
    assert ("do not match the checksum" in err) == ("flipped" in variant), err
    assert _snapshot(out) == before
    if (out / ".lock").is_file():  # the lock was given back
        run = RunDirectory(out)
        run.lock()
        run.unlock()


@pytest.mark.parametrize("damage", HARMLESS_GROUPS)
def test_a_harmless_damage_resumes(small_run, tmp_path, capsys, damage: str) -> None:
    out = tmp_path / "run"
    shutil.copytree(small_run, out)
    for name, _, variant in HARMLESS_GROUPS[damage]:
        _damage(out / name, damage, variant, name)
    (out / ".latest.pt.0123abcd.tmp").write_bytes(b"a write a kill cut short")
    code, err = _resume(out, capsys)
    assert code == 0, err
    assert (out / "plots.png").read_bytes().startswith(b"\x89PNG")  # redrawn
    records = (out / "metrics.jsonl").read_text().splitlines()
    original = (small_run / "metrics.jsonl").read_text().splitlines()
    if damage == "truncated":  # the records before the cut are kept, the torn one dropped
        assert records == original[: len(records)] and len(records) < len(original)
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_run_saved_before_checkpoints_had_a_digest_resumes(small_run, tmp_path, capsys):
    """Version 1 checkpoints (no digest) are read unchecked; the resumed run writes version 2."""
    out = tmp_path / "run"
    shutil.copytree(small_run, out)
    for path in [out / "latest.pt", out / "best.pt", *(out / "checkpoints").iterdir()]:
        data = torch.load(path, weights_only=True)
        del data[DIGEST_KEY]
        torch.save({**data, "version": 1}, path)
    code, err = _resume(out, capsys)
    assert code == 0, err
    data = torch.load(out / "latest.pt", weights_only=True)
    assert data["version"] == 2 and data[DIGEST_KEY] == content_digest(data)


def test_loading_an_object_array_runs_no_pickle(small_run, tmp_path, monkeypatch) -> None:
    """The buffer is read with allow_pickle=False: an object array is refused unread."""
    import pickle

    out = tmp_path / "run"
    shutil.copytree(small_run, out)
    _edit_buffer(out / "buffer.npz", _object_array)

    def refuse(*args, **kwargs):
        raise AssertionError("the buffer was unpickled")

    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    with pytest.raises(ValueError, match=r"buffer\.npz: .*array 'observations' is object"):
        train(
            TrainConfig(game="tictactoe", out=out, resume=True, **SMALL),
            progress=False,
        )
