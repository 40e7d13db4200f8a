"""Files are data: a ladder file whose rungs name code (``os:system:...``, a module that
runs code when imported) is refused by name before anything is imported, unless the user
allows factories; the command line says so too."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from connectn_env.elo import PairingStats
from connectn_env.ladder import Ladder, LadderRung, load_ladder, save_ladder
from connectn_env.specs import parse_agent_spec

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]
ALLOWED = "only the built-in agents are allowed here: random, mcts, puct, ab, az, perfect"
EVIL_MODULE = "evil_rung_module"  # writes MARKER in the current folder when imported


def _ladder(spec: str) -> Ladder:
    return Ladder(
        key="connect_n_6x6",
        rungs=(
            LadderRung("random", "random", 0.0, (0.0, 0.0), 20),
            LadderRung("uct-10", spec, 210.5, (150.0, 271.0), 20),
        ),
        pairings=(PairingStats("random", "uct-10", 3, 1, 16, 0, 0),),
        games_per_pair=20,
    )


@pytest.fixture
def evil(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder (the current one, on ``sys.path``) with a module whose import writes MARKER,
    and ladders whose rung ``uct-10`` is ``os:system:command=touch MARKER`` or that module."""
    (tmp_path / f"{EVIL_MODULE}.py").write_text(
        "from pathlib import Path\nPath('MARKER').touch()\ndef make(seed=None):\n    return None\n"
    )
    save_ladder(_ladder("os:system:command=touch MARKER"), tmp_path / "system.json")
    save_ladder(_ladder(f"{EVIL_MODULE}:make"), tmp_path / "module.json")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, EVIL_MODULE, raising=False)
    return tmp_path


@pytest.mark.parametrize("name", ["system.json", "module.json"])
def test_a_ladder_rung_naming_code_is_refused_before_any_import(evil: Path, name: str) -> None:
    with pytest.raises(ValueError, match=ALLOWED) as error:
        load_ladder(evil / name)
    message = str(error.value)
    assert f"{evil / name}: rung 'uct-10': bad spec" in message and "--allow-factories" in message
    data = json.loads((evil / name).read_text())
    with pytest.raises(ValueError, match=ALLOWED):
        Ladder.from_json(data, name)
    assert not (evil / "MARKER").exists() and EVIL_MODULE not in sys.modules


def test_allowing_factories_imports_them_as_a_command_line_would(evil: Path) -> None:
    ladder = load_ladder(evil / "module.json", allow_factories=True)
    assert ladder.rung("uct-10").spec == f"{EVIL_MODULE}:make"
    assert (evil / "MARKER").exists()  # what the option means: the module's code ran


def test_a_factory_that_cannot_be_imported_when_allowed_is_not_told_to_allow_it(
    evil: Path,
) -> None:
    save_ladder(_ladder("no_such_module_here:make"), evil / "missing.json")
    with pytest.raises(ValueError, match="cannot import module 'no_such_module_here'") as error:
        load_ladder(evil / "missing.json", allow_factories=True)
    assert "allow_factories" not in str(error.value)  # it was given: no advice to give it


def test_specs_parsed_as_built_ins_only_refuse_every_factory() -> None:
    for text in ("os:system:command=touch MARKER", "subprocess:getoutput:cmd=id", "a.b:c"):
        with pytest.raises(ValueError, match=ALLOWED):
            parse_agent_spec(text, allow_factories=False)
    assert parse_agent_spec("mcts:simulations=5", allow_factories=False).kind == "mcts"
    with pytest.raises(TypeError, match="allow_factories must be a bool"):
        parse_agent_spec("random", allow_factories=1)


def _connectn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    path = os.pathsep.join(filter(None, [str(cwd), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [executable, *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_commands_refuse_a_ladder_naming_code_and_allow_it_only_when_told(evil: Path) -> None:
    for name in ("system.json", "module.json"):
        shown = _connectn("ladder", "show", *SIX, "--file", name, cwd=evil)
        assert shown.returncode == 2 and "rung 'uct-10'" in shown.stderr and ALLOWED in shown.stderr
        rated = _connectn(
            "evaluate", *SIX, "random", "--games", "2", "--workers", "1", "--ladder", name, cwd=evil
        )
        assert rated.returncode == 2 and ALLOWED in rated.stderr
        assert not (evil / "MARKER").exists()
    alone = _connectn("ladder", "show", *SIX, "--allow-factories", cwd=evil)
    assert alone.returncode == 2 and "it goes with --file FILE" in alone.stderr
    allowed = _connectn(
        "ladder", "show", *SIX, "--file", "module.json", "--allow-factories", cwd=evil
    )
    assert allowed.returncode == 0, allowed.stderr
    assert f"{EVIL_MODULE}:make" in allowed.stdout and (evil / "MARKER").exists()


class _Payload:
    """Pickled, it runs ``touch PATH`` when unpickled."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple:
        return (os.system, (f"touch '{self.path}'",))


def _with_payload(model: Path, out: Path, marker: Path, where: str) -> Path:
    """A copy of the SB3 zip ``model`` whose setting ``where`` (or, for ``"policy.pth"``,
    its weights file) is a pickle that writes ``marker``."""
    import base64
    import io
    import pickle
    import zipfile

    import torch

    with zipfile.ZipFile(model) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "data" and where != "policy.pth":
                data = json.loads(content)
                blob = base64.b64encode(pickle.dumps(_Payload(marker))).decode()
                data[where] = {":type:": "<class 'object'>", **data.get(where, {})}
                data[where][":serialized:"] = blob
                content = json.dumps(data).encode()
            elif item.filename == where:
                buffer = io.BytesIO()
                torch.save({"weights": _Payload(marker)}, buffer)
                content = buffer.getvalue()
            target.writestr(item, content)
    return out


@pytest.fixture(scope="module")
def sb3_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from stable_baselines3 import PPO

    import connectn_env  # noqa: F401  (registers the envs)

    path = tmp_path_factory.mktemp("sb3") / "ttt.zip"
    PPO("MlpPolicy", gym.make("connectn_env/TicTacToe-v0"), n_steps=16, batch_size=16).save(path)
    return path


def _check_sb3(spec: str) -> None:
    from connectn_env.games.config import GameConfig
    from connectn_env.ladder.candidates import check_candidate, make_candidate

    check_candidate(make_candidate(spec), GameConfig("tictactoe"))


def test_an_sb3_zip_never_runs_a_pickle_it_holds(sb3_model: Path, tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    rebuilt = _with_payload(sb3_model, tmp_path / "class.zip", marker, "policy_class")
    _check_sb3(f"sb3:path={rebuilt}")  # the class is rebuilt from its name: the model plays
    unknown = _with_payload(sb3_model, tmp_path / "unknown.zip", marker, "surprise")
    risk = (
        r"its setting 'surprise' is a pickled object .* unpickling runs whatever code the "
        rf"file holds .*: sb3:path={re.escape(str(unknown))},unpickle=true"
    )
    with pytest.raises(ValueError, match=risk):
        _check_sb3(f"sb3:path={unknown}")
    weights = _with_payload(sb3_model, tmp_path / "weights.zip", marker, "policy.pth")
    with pytest.raises(ValueError, match=r"its 'policy\.pth' is not weights only"):
        _check_sb3(f"sb3:path={weights}")
    assert not marker.exists()
    _check_sb3(f"sb3:path={unknown},unpickle=true")  # what the option means: SB3 unpickles
    assert marker.exists()


def test_evaluate_refuses_an_sb3_zip_holding_a_pickle(sb3_model: Path, tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    _with_payload(sb3_model, tmp_path / "evil.zip", marker, "observation_space_extra")
    done = _connectn("evaluate", "connect_four", "sb3:path=evil.zip", cwd=tmp_path)
    assert done.returncode == 2 and "unpickling runs whatever code" in done.stderr
    assert not marker.exists()


def test_an_sb3_path_naming_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """The zip is read through the suite's reader of regular files (it was opened by SB3,
    which waited for a writer for ever)."""
    import threading

    pytest.importorskip("sb3_contrib")
    fifo = tmp_path / "model.zip"
    os.mkfifo(fifo)
    errors: list[Exception] = []

    def check() -> None:
        try:
            _check_sb3(f"sb3:path={fifo}")
        except ValueError as error:
            errors.append(error)

    thread = threading.Thread(target=check, daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the FIFO was waited on"
    assert len(errors) == 1 and "FIFO" in str(errors[0])
