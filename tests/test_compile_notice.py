"""The compile announcements: records on the ``connectn_env.compile`` logger only for real
compiles, the start record before the compile, named by the innermost ``compiling`` block."""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import subprocess
import sys

import pytest
from numba import njit
from numba.core.errors import TypingError

from connectn_env.games import COMPILE_LOGGER, compile_notice
from connectn_env.games.compile_notice import (
    NOTICES_ENV,
    announce_compile,
    compile_notices,
    compiling,
    worker_notices_on_stderr,
)

DONE = re.compile(r"compiled (.+) in \d+\.\d s")


def fresh_function():
    """A numba function not compiled yet (not cached: a new one each call)."""

    @njit
    def add_one(x):
        return x + 1

    return add_one


def test_block_names_the_compile_and_the_start_comes_before_it():
    function = fresh_function()
    seen = []

    def show(message):
        seen.append((message, len(function.signatures)))  # compiled signatures so far

    with compile_notices(show), compiling("test kernels"):
        assert function(1) == 2
        assert function(2) == 3  # already compiled: nothing more
    assert seen[0] == ("compiling test kernels (first use; cached afterwards)", 0)
    assert len(seen) == 2 and DONE.fullmatch(seen[1][0]).group(1) == "test kernels"
    assert seen[1][1] == 1


def test_nothing_is_logged_without_a_compile():
    function = fresh_function()
    function(1)
    seen = []
    with compile_notices(seen.append), compiling("test kernels"):
        function(5)
    assert seen == []


def test_a_compile_outside_any_block_is_named_by_its_function():
    function = fresh_function()
    seen = []
    with compile_notices(seen.append):
        function(1)
    name = f"{__name__}.fresh_function.<locals>.add_one"
    assert seen[0] == f"compiling {name} (first use; cached afterwards)"
    assert DONE.fullmatch(seen[1]).group(1) == name


def test_inner_block_names_and_one_pair_of_records_per_block():
    first, second = fresh_function(), fresh_function()
    seen = []
    with compile_notices(seen.append), compiling("outer"), compiling("inner"):
        first(1)
        second(1.5)
    assert seen[0] == "compiling inner (first use; cached afterwards)"
    assert [DONE.fullmatch(m).group(1) for m in seen[1:]] == ["inner"]


def test_a_cache_load_is_not_announced(tmp_path, monkeypatch):
    source = tmp_path / "cached_kernel.py"
    source.write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    def load():
        spec = importlib.util.spec_from_file_location("cached_kernel", source)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.twice

    seen = []
    with compile_notices(seen.append):
        assert load()(3) == 6  # compiled and saved
        compiled = len(seen)
        assert load()(4) == 8  # a new dispatcher: loads from the cache
    sys.modules.pop("cached_kernel", None)
    assert compiled == 2 and len(seen) == 2


def test_the_library_shows_nothing_by_itself(capsys):
    logger = logging.getLogger(COMPILE_LOGGER)
    assert any(isinstance(h, logging.NullHandler) for h in logger.handlers)
    assert logger.level == logging.NOTSET
    with compiling("quiet kernels"):
        fresh_function()(1)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_notices_restore_the_logger_level():
    logger = logging.getLogger(COMPILE_LOGGER)
    with compile_notices(lambda message: None):
        assert logger.getEffectiveLevel() <= logging.INFO
    assert logger.level == logging.NOTSET


def test_bad_arguments():
    with pytest.raises(TypeError, match="show must be callable"), compile_notices("stderr"):
        pass
    with pytest.raises(TypeError, match="what must be a str"), compiling(3):
        pass


CHILD = """
from numba import njit
import connectn_env.games


@njit
def triple(x):
    return 3 * x


triple(2)
"""


def test_a_worker_process_asked_by_the_environment_tells_stderr():
    with worker_notices_on_stderr():
        child = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300
        )
    assert NOTICES_ENV not in os.environ  # put back
    lines = child.stderr.splitlines()
    assert re.fullmatch(
        r"connectn \(process \d+\): compiling __main__\.triple \(first use; cached afterwards\)",
        lines[0],
    )
    assert re.fullmatch(
        r"connectn \(process \d+\): compiled __main__\.triple in \d+\.\d s", lines[1]
    )
    quiet = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
    assert quiet.stderr == ""


def test_a_failed_block_logs_no_done_record():
    @njit
    def broken(x):
        return x.no_such_attribute

    seen = []
    with compile_notices(seen.append), pytest.raises(TypingError), compiling("broken kernels"):
        broken(1)
    assert seen == ["compiling broken kernels (first use; cached afterwards)"]
    with compile_notices(seen.append), compiling("after"):
        fresh_function()(1)
    assert seen[1] == "compiling after (first use; cached afterwards)"  # state intact


def test_a_compile_numba_does_not_signal_is_announced_around_it():
    """announce_compile: the start record before the block's work, the done record with its
    seconds after it; none when the block fails; bad arguments refused by name."""
    seen = []
    with compile_notices(seen.append), announce_compile("the network with torch.compile"):
        seen.append("work")
    assert seen[:2] == [
        "compiling the network with torch.compile (first call in this process)",
        "work",
    ]
    assert DONE.fullmatch(seen[2]).group(1) == "the network with torch.compile"
    seen.clear()
    with (
        compile_notices(seen.append),
        pytest.raises(RuntimeError),
        announce_compile("a net", first_use="first call"),
    ):
        raise RuntimeError("no compiler")
    assert seen == ["compiling a net (first call)"]
    with pytest.raises(TypeError, match="what and first_use must be str"), announce_compile(3):
        pass


def test_a_name_is_announced_once_per_process(monkeypatch, caplog):
    monkeypatch.setattr(compile_notice, "_announced", set())
    seen = []
    with compile_notices(seen.append), caplog.at_level(logging.DEBUG, COMPILE_LOGGER):
        for _ in range(3):  # three searches, each compiling something new
            with compiling("repeated kernels"):
                fresh_function()(1)
        with compiling("other kernels"):
            fresh_function()(1)
    assert [message.split(" in ")[0] for message in seen] == [
        "compiling repeated kernels (first use; cached afterwards)",
        "compiled repeated kernels",
        "compiling other kernels (first use; cached afterwards)",
        "compiled other kernels",
    ]
    quiet = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(quiet) == 4  # the later blocks' records, for whoever asks for DEBUG
