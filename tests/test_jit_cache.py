"""The suite's numba cache never stops a program: a damaged entry is compiled again (said once),
a cache that cannot be written leaves the compiled code in memory (said once). Each case runs
a small module of two cached functions in a fresh process on a cache of its own."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numba
import pytest

MODULE = """\
from connectn_env.games.lib.jit import njit

@njit(cache=True)
def twice(x):
    return 2 * x

@njit(cache=True)
def thrice(x):
    return 3 * x

print(twice(21) + thrice(1))
"""


def run(
    source: Path, cache: Path, preexec: Callable[[], None] | None = None, **environment: str
) -> tuple[str, list[str]]:
    """Import the module in ``source`` in a new process; its output and stderr lines."""
    done = subprocess.run(
        [sys.executable, "-c", "import cached_pair"],
        cwd=source,
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache), **environment},
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=preexec,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr.splitlines()


@pytest.fixture(scope="module")
def cached(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The module's folder and a cache holding both functions (compiled once here)."""
    root = tmp_path_factory.mktemp("cached")
    (root / "source").mkdir()
    (root / "source" / "cached_pair.py").write_text(MODULE)
    assert run(root / "source", root / "cache") == ("45", [])
    assert len(list((root / "cache").rglob("*.nbc"))) == 2
    return root / "source", root / "cache"


def empty(data: bytes) -> bytes:
    return b""


def truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def bad_text(data: bytes) -> bytes:
    """The version string at the start of an index with a byte that is not UTF-8 (numba
    raised UnicodeDecodeError: "'utf-8' codec can't decode byte 0xff")."""
    at = data.index(numba.__version__.encode())
    return data[:at] + b"\xff" + data[at + 1 :]


@pytest.mark.parametrize(
    ("suffix", "damage"),
    [(".nbc", empty), (".nbc", truncated), (".nbi", empty), (".nbi", bad_text)],
    ids=["empty-data", "truncated-data", "empty-index", "undecodable-index"],
)
def test_a_damaged_entry_is_compiled_again_said_once_and_rewritten(
    cached, tmp_path, suffix, damage
):
    source, template = cached
    cache = tmp_path / "cache"
    shutil.copytree(template, cache)
    files = sorted(cache.rglob(f"*{suffix}"))
    assert len(files) == 2
    for file in files:  # both functions' entries: still one line said
        file.write_bytes(damage(file.read_bytes()))
    output, said = run(source, cache)
    assert output == "45"
    assert len(said) == 1, said
    assert "numba's cache could not be read" in said[0] and "compiled again" in said[0]
    assert run(source, cache) == ("45", [])  # rewritten: loaded, nothing said


def test_a_full_disk_keeps_the_compiled_code_in_memory_said_once(cached, tmp_path):
    """Every write of a cache file fails (a file size limit of 0: EFBIG, as ENOSPC would)."""
    source, _ = cached

    def no_file_can_grow() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    output, said = run(source, tmp_path / "cache", preexec=no_file_can_grow)
    assert output == "45"
    assert len(said) == 1, said
    assert "numba's cache cannot be written" in said[0] and "in memory" in said[0]
    assert not list((tmp_path / "cache").rglob("*.nb*"))


def test_no_writable_cache_directory_compiles_in_memory_said_once(cached, tmp_path):
    """numba finds no directory to cache in (its own, the module's ``__pycache__``, the
    user's cache: each blocked by a file where a folder should be) and raised RuntimeError
    at import."""
    source, _ = cached
    module = tmp_path / "module"
    module.mkdir()
    shutil.copy(source / "cached_pair.py", module)
    (module / "__pycache__").write_text("a file, not a folder")
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    output, said = run(
        module, blocker / "cache", XDG_CACHE_HOME=str(blocker / "home"), PYTHONDONTWRITEBYTECODE="1"
    )
    assert output == "45"
    assert len(said) == 1, said
    assert "numba's cache cannot be written" in said[0] and "in memory" in said[0]
