"""connectn_env.safe_files: what the suite reads is a regular file of bounded size, opened
without ever waiting (FIFOs, devices and directories are refused by name)."""

from __future__ import annotations

import ast
import os
import threading
from pathlib import Path

import pytest

from connectn_env.gridpath import load_map
from connectn_env.safe_files import (
    describe_file_error,
    open_regular_file,
    read_regular_bytes,
    read_regular_text,
)

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes("é\nb".encode())
    assert read_regular_bytes(path, max_bytes=4) == "é\nb".encode()
    assert read_regular_text(path, max_bytes=4) == "é\nb"
    with open_regular_file(path, max_bytes=None) as stream:
        assert stream.readline() == "é\n".encode()


@needs_fifo
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_regular_bytes(fifo, max_bytes=10)
        except BaseException as error:  # the test inspects it
            outcome.append(error)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "reading a FIFO waited for a writer"
    assert isinstance(outcome[0], ValueError)
    assert str(outcome[0]) == f"{fifo} is a FIFO (named pipe), not a regular file"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "is a directory, not a regular file"),
        (lambda p: p.write_bytes(b"x" * 11), r"has more than 10 bytes \(11\): too large for"),
        (lambda p: p.write_bytes(b"ok\n\xff"), r"line 2: not UTF-8 text \(byte 0xff at column 1\)"),
    ],
)
def test_other_files_are_refused_naming_the_path(tmp_path: Path, make, message) -> None:
    path = tmp_path / "f"
    make(path)
    with pytest.raises(ValueError, match=message) as error:
        read_regular_text(path, max_bytes=10)
    assert str(error.value).startswith(str(path))
    assert describe_file_error(path, error.value).startswith(f"{path}: ")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused() -> None:
    with pytest.raises(ValueError, match="/dev/zero is a character device, not a regular file"):
        read_regular_bytes("/dev/zero", max_bytes=10)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc")
def test_a_file_larger_than_its_stat_size_is_read_whole_and_capped() -> None:
    """/proc files say 0 bytes and hold more: what is read counts, not what fstat said (as
    for a file that grows while it is read)."""
    assert b"Name:" in read_regular_bytes("/proc/self/status", max_bytes=2**20)
    with pytest.raises(ValueError, match=r"has more than 10 bytes \(11\)"):
        read_regular_bytes("/proc/self/status", max_bytes=10)


def test_a_missing_file_is_an_os_error_described_with_its_path(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as error:
        read_regular_bytes(tmp_path / "none", max_bytes=10)
    assert describe_file_error(tmp_path / "none", error.value) == (
        f"{tmp_path / 'none'}: No such file or directory"
    )


@needs_fifo
def test_a_gridpath_map_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "map.txt")
    with pytest.raises(ValueError, match="is a FIFO"):
        load_map(tmp_path / "map.txt")


# --- every reader goes through safe_files ------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
_HELPERS = {"connectn_env/safe_files.py"}
_LOADERS = {("np", "load"), ("numpy", "load"), ("torch", "load"), ("json", "load")}
_LOADERS |= {("pickle", "load")}


def _read_mode(call: ast.Call, mode_index: int) -> bool:
    """Whether an ``open`` call's mode (default "r") only reads."""
    mode = next((k.value for k in call.keywords if k.arg == "mode"), None)
    if mode is None and len(call.args) > mode_index:
        mode = call.args[mode_index]
    if mode is None:
        return True
    return isinstance(mode, ast.Constant) and not set(str(mode.value)) & set("wax+")


def _direct_reads(tree: ast.AST) -> list[str]:
    """Calls that open a file for reading without the helpers: ``open(path)``,
    ``path.open("rb")``, ``path.read_text()``, ``np.load(path)``, ``torch.load(path)``..."""
    found = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        function = call.func
        if isinstance(function, ast.Name) and function.id == "open":
            first = call.args[0] if call.args else None
            system = isinstance(first, ast.Constant) and str(first.value).startswith("/proc/")
            if _read_mode(call, 1) and not system:
                found.append(ast.unparse(call))
        elif isinstance(function, ast.Attribute):
            owner = function.value.id if isinstance(function.value, ast.Name) else None
            from_memory = bool(call.args) and "BytesIO" in ast.unparse(call.args[0])
            if function.attr in ("read_text", "read_bytes"):
                found.append(ast.unparse(call))
            elif function.attr == "open" and call.args and isinstance(call.args[0], ast.Constant):
                if _read_mode(call, 0):  # path.open("rb")
                    found.append(ast.unparse(call))
            elif (owner, function.attr) in _LOADERS and not from_memory:
                found.append(ast.unparse(call))
    return found


def test_every_file_the_suite_reads_is_opened_through_safe_files() -> None:
    """The class of bug, not only its instances: no module of the suite reads a file but
    through connectn_env.safe_files (a FIFO would hang it, a device feed it for ever)."""
    offenders = {}
    for package in ("agents", "connectn_env"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in _HELPERS:
                calls = _direct_reads(ast.parse(path.read_text(encoding="utf-8")))
                if calls:
                    offenders[name] = calls
    assert offenders == {}


def test_the_reader_check_finds_direct_reads() -> None:
    source = """
open(name)
open(name, "rb")
path.open("r")
path.read_text()
np.load(path)
torch.load(path, weights_only=True)
open(name, "w")
path.open("a")
torch.load(io.BytesIO(data))
open("/proc/self/statm")
archive.open(info)
"""
    assert _direct_reads(ast.parse(source)) == [
        "open(name)",
        "open(name, 'rb')",
        "path.open('r')",
        "path.read_text()",
        "np.load(path)",
        "torch.load(path, weights_only=True)",
    ]
