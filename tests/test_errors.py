"""One base error class for the suite: every exception class the packages define derives from
``connectn_env.ConnectnError`` (found by walking the packages, so a new one that forgets
fails here), keeping its standard base; ``except ConnectnError`` catches real failures."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest

import connectn_env
from connectn_env import ConnectnError
from connectn_env.arena import ArenaError, run_tournament
from connectn_env.specs import AgentUnavailableError, parse_agent_spec

PACKAGES = ("connectn_env", "agents")


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of the packages, by its full name."""
    found = {}
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == info.name
                ):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_error_class_of_the_suite_derives_from_the_base() -> None:
    classes = exception_classes()
    assert len(classes) >= 18  # the walk found them (18 when the base was introduced)
    strays = [name for name, cls in classes.items() if not issubclass(cls, ConnectnError)]
    assert strays == []
    assert connectn_env.ConnectnError is ConnectnError and "ConnectnError" in connectn_env.__all__


def test_the_errors_keep_their_standard_bases() -> None:
    from agents.alphazero import CheckpointError, ConfigError, RunDirectoryError
    from agents.alphazero.actors import WorkerError
    from connectn_env.games import IllegalActionError, UnknownGameError
    from connectn_env.stdout_guard import StdoutError

    for cls in (ArenaError, AgentUnavailableError, IllegalActionError, CheckpointError):
        assert issubclass(cls, ValueError), cls
    assert issubclass(ConfigError, ValueError) and issubclass(RunDirectoryError, ValueError)
    assert issubclass(UnknownGameError, KeyError) and issubclass(WorkerError, RuntimeError)
    assert issubclass(StdoutError, OSError)
    assert issubclass(connectn_env.CallOrderError, ValueError)


def test_the_base_catches_what_real_calls_raise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("", encoding="utf-8")
    with pytest.raises(ConnectnError) as caught:
        run_tournament(
            "tictactoe", ["random", "random"], out=tmp_path / "games.jsonl", record_dir=not_a_folder
        )
    assert type(caught.value) is ArenaError
    monkeypatch.setitem(sys.modules, "agents.alphazero", None)  # as without torch
    with pytest.raises(ConnectnError) as caught:
        parse_agent_spec("az:pretrained")
    assert type(caught.value) is AgentUnavailableError
    with pytest.raises(ConnectnError) as caught:
        connectn_env.connect_n_v0.env().step(3)  # before reset()
    assert isinstance(caught.value, connectn_env.CallOrderError)
