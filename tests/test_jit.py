"""The suite's ``njit``: one compile per function where numba's makes one per literal value or
integer width of the arguments of a call from compiled code."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import types

from connectn_env.games.lib.jit import PlainArgsDispatcher, njit


def callee_and_caller(jit):
    @jit
    def step(x, flag):
        return x + 1 if flag else x

    @jit
    def caller(narrow, wide, flag):
        return step(narrow, True) + step(wide, False) + step(3, flag) + step(wide, flag)

    return step, caller


def test_calls_from_compiled_code_compile_once():
    step, caller = callee_and_caller(njit)
    assert isinstance(step, PlainArgsDispatcher)
    assert caller(np.int32(1), 2, True) == 2 + 2 + 4 + 3
    assert step.signatures == [(types.int64, types.boolean)]


def test_numbas_own_njit_compiles_a_variant_per_literal_and_width():
    step, caller = callee_and_caller(numba.njit)
    caller(np.int32(1), 2, True)
    assert len(step.signatures) > 1  # what the suite's njit saves


def test_options_pass_through_and_signatures_are_refused():
    @njit(cache=False, inline="always")
    def twice(x):
        return 2 * x

    @njit
    def outer(x):
        return twice(x) + 1

    assert outer(3) == 7
    with pytest.raises(TypeError, match="no signatures"):
        njit("int64(int64)")


def test_a_cache_index_naming_a_class_that_has_gone_is_stale_not_an_error(tmp_path):
    """An upgrade in place leaves old cache files behind; numba unpickles an index before it
    checks the source's stamp, and an index whose signatures name a removed class raised
    AttributeError. The suite's cache treats it as stale and compiles afresh."""
    import os
    import subprocess
    import sys

    module = tmp_path / "cached_module.py"
    template = (
        "import collections\n"
        "from connectn_env.games.lib.jit import njit\n"
        "{name} = collections.namedtuple({name!r}, 'a')\n"
        "@njit(cache=True)\n"
        "def first(config):\n"
        "    return config[0]\n"
        "print(first({name}({value})))\n"
    )
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    outputs = []
    for name, value in (("Config", 1), ("Renamed", 2)):
        module.write_text(template.format(name=name, value=value))
        run = subprocess.run(
            [sys.executable, "-c", "import cached_module"],
            cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout.strip())
    assert outputs == ["1", "2"]


def test_a_cache_index_entry_naming_a_collected_function_is_left_out_when_saved(tmp_path):
    """numba rebuilds a compiled function named in an index entry when it reads the index,
    holds it weakly; if it is collected before the index is written again, numba's writer
    raised ReferenceError. The suite's index leaves that entry out and keeps the others."""
    import gc

    from numba.core.caching import IndexDataCacheFile

    from connectn_env.games.lib.jit import _TolerantIndex

    def gone_function_type():
        @numba.njit
        def passed_in(x):
            return x

        return types.Dispatcher(passed_in)

    gone = gone_function_type()
    gc.collect()
    assert gone._wr() is None  # the function the type names has been collected
    stamp = (0.0, 0)
    (tmp_path / "numba").mkdir()
    (tmp_path / "suite").mkdir()
    numbas = IndexDataCacheFile(str(tmp_path / "numba"), "f", stamp)
    numbas.save(((types.int64,), "kept"), b"kept data")
    with pytest.raises(ReferenceError):
        numbas.save(((gone,), "gone"), b"gone data")
    suites = _TolerantIndex(str(tmp_path / "suite"), "f", stamp)
    suites.save(((types.int64,), "kept"), b"kept data")
    suites.save(((gone,), "gone"), b"gone data")
    again = _TolerantIndex(str(tmp_path / "suite"), "f", stamp)
    assert again.load(((types.int64,), "kept")) == b"kept data"
    assert list(again._load_index()) == [((types.int64,), "kept")]
