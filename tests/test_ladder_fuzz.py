"""Hostile ladder files (issue 43): Hypothesis damages the shipped 6 x 6 ladder (fields set
to wrong types, huge or non-finite numbers, long text, nested structures, specs that name
code, keys removed or added, the bytes truncated, flipped or spliced with nesting thousands
deep) and reads it with :func:`load_ladder`. Every case either loads (and then shows its
table) or raises ValueError naming the file and the problem in at most a few lines; no case
imports code a spec names (``os:system``, a module that writes a marker when imported) or
raises anything else. The counts are printed at the end of the module (``pytest -s``).
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import connectn_env.specs as specs_module
from connectn_env.ladder import load_ladder
from connectn_env.ladder.ladderfile import DATA
from connectn_env.specs import BUILTIN_KINDS

BASE = json.loads((DATA / "connect_n_6x6.json").read_text(encoding="utf-8"))
EVIL_MODULE = "ladder_fuzz_evil"  # writes MARKER when imported
EVIL_SPECS = [
    "os:system:command=touch MARKER",
    "subprocess:getoutput:cmd=touch MARKER",
    f"{EVIL_MODULE}:make",
    f" {EVIL_MODULE}:make:x=1 ",
    "builtins:exec:source=print(1)",
    "connectn_env.ladder.sb3:sb3_agent:path=model.zip",
    "human",
    "az:path=/dev/zero",
    "az:path=MARKER",
    "az:pretrained,network=00000000",
    "mcts:simulations=1e400",
    "mcts:simulations=" + "9" * 5000,
    "random:seed=-1",
    "\x1b[31mrandom",
    "mcts:" + "c=1," * 400,
    "perfect",
    "ab:depth=6",
    "random",
]
MAX_MESSAGE = 3000  # characters: a message names the problem, it does not dump the file
COUNTS: Counter[str] = Counter()


class Raw(str):
    """JSON text spliced into the file as it is (nesting too deep for ``json.dumps``)."""


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in the document a value can be put."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


PATHS = _paths(BASE)[1:]
SPEC_PATHS = [("rungs", index, "spec") for index in range(len(BASE["rungs"]))]


def hostile_values() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([2**63, -(2**63), 10**400, -1, 0, 1]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([1e300, -1e300, 5e-324, 1e308]),
        st.text(max_size=30),
        st.sampled_from(EVIL_SPECS),
        st.sampled_from(["x" * 100_000, "\x00", "\ud800x"[1:], "é" * 10]),
    )
    nested = st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=12,
    )
    deep = st.sampled_from([100, 5_000, 200_000]).flatmap(
        lambda depth: st.sampled_from(
            [Raw("[" * depth + "]" * depth), Raw('{"a":' * depth + "1" + "}" * depth)]
        )
    )
    return st.one_of(leaves, nested, deep)


specs = st.one_of(
    st.sampled_from(EVIL_SPECS),
    st.tuples(st.sampled_from(["os", "pathlib", EVIL_MODULE, "a.b", "mcts", "az"]), st.text()).map(
        lambda parts: ":".join(parts)
    ),
)
edits = st.one_of(
    st.tuples(st.just("spec"), st.sampled_from(SPEC_PATHS), specs),
    st.tuples(st.just("set"), st.sampled_from(PATHS), hostile_values()),
    st.tuples(st.just("delete"), st.sampled_from(PATHS), st.none()),
    st.tuples(st.just("add"), st.sampled_from(PATHS), hostile_values()),
)
damage = st.one_of(
    st.none(),
    st.tuples(st.just("truncate"), st.floats(0, 1)),
    st.tuples(st.just("flip"), st.floats(0, 1)),
    st.tuples(st.just("splice"), st.floats(0, 1), st.binary(min_size=1, max_size=20)),
)


def _edit(document: Any, edit: tuple) -> Any:
    kind, path, value = edit
    if not path:
        return value
    *parents, last = path
    node = document
    for key in parents:
        if not isinstance(node, dict | list):
            return document
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return document
    if isinstance(node, dict):
        if kind == "delete":
            node.pop(last, None)
        elif kind == "add":
            node[f"extra_{last}"] = value
        else:  # set, spec
            node[last] = value
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        if kind == "delete":
            del node[last]
        elif kind == "add":
            node.append(value)
        else:
            node[last] = value
    return document


def _encode(document: Any) -> bytes:
    raws: list[str] = []

    def default(value: Any) -> Any:
        raise TypeError(value)

    def mark(value: Any) -> Any:
        if isinstance(value, Raw):
            raws.append(str(value))
            return f"@@RAW{len(raws) - 1}@@"
        if isinstance(value, dict):
            return {key: mark(item) for key, item in value.items()}
        if isinstance(value, list):
            return [mark(item) for item in value]
        return value

    text = json.dumps(mark(document), default=default)  # NaN and Infinity as Python writes
    for number, raw in enumerate(raws):
        text = text.replace(f'"@@RAW{number}@@"', raw)
    return text.encode("utf-8", "surrogatepass")


def _damage(data: bytes, how: tuple | None) -> bytes:
    if how is None or not data:
        return data
    at = min(len(data) - 1, int(how[1] * len(data)))
    if how[0] == "truncate":
        return data[:at]
    if how[0] == "flip":
        return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]
    return data[:at] + how[2] + data[at:]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A current folder on ``sys.path`` with a module whose import writes MARKER."""
    folder = tmp_path_factory.mktemp("ladder-fuzz")
    (folder / f"{EVIL_MODULE}.py").write_text(
        "from pathlib import Path\nPath(__file__).with_name('MARKER').touch()\n"
        "def make(seed=None, x=None):\n    return None\n"
    )
    return folder


@pytest.fixture
def guarded(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No spec may be imported: ``_resolve`` (the import of ``module:callable``) fails."""

    def never(kind: str, text: str | None = None) -> None:
        raise AssertionError(f"a ladder file's spec was imported: {kind}")

    monkeypatch.setattr(specs_module, "_resolve", never)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.chdir(folder)
    return folder


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(edits, min_size=1, max_size=4), damage)
def test_a_damaged_ladder_file_loads_or_is_refused_by_name(
    guarded: Path, changes: list[tuple], how: tuple | None
) -> None:
    document = json.loads(json.dumps(BASE))
    for change in changes:
        document = _edit(document, change)
    path = guarded / "ladder.json"
    path.write_bytes(_damage(_encode(document), how))
    COUNTS["cases"] += 1
    COUNTS["with a rung spec naming code"] += any(
        kind == "spec" and ":" in value and value.strip().partition(":")[0] not in BUILTIN_KINDS
        for kind, _, value in changes
    )
    try:
        ladder = load_ladder(path)
    except ValueError as error:
        message = str(error)
        assert message.startswith(f"{path}: "), message[:300]
        assert len(message) <= MAX_MESSAGE, f"{len(message)} characters: {message[:300]}"
        COUNTS["refused by name"] += 1
    else:
        assert all(math.isfinite(rung.rating) for rung in ladder.rungs)
        ladder.table()
        COUNTS["loaded"] += 1
    assert not (guarded / "MARKER").exists() and EVIL_MODULE not in sys.modules
    COUNTS["answered well"] += 1


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    yield
    print("\nladder file fuzz: " + ", ".join(f"{k}: {v}" for k, v in sorted(COUNTS.items())))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("set", ("pairings", 0, "wins"), 10**400), r"integers from 0 to 1,000,000,000,000"),
        (("set", ("rungs", 1, "rating"), 10**400), r"rating an integer of about 400 digits"),
        (("set", ("rungs", 1, "ci95"), [-1e300, 1e300]), r"each from -10000 to 10000"),
        (("set", ("key",), []), r"unknown ladder key \[\]"),
        (("set", ("version",), "x" * 10**5), r"ladder format version 'xxx.*\.\.\.; this reads 1"),
        (("set", ("seed",), Raw("9" * 5000)), r"not a readable ladder file: Exceeds the limit"),
        (("set", ("rungs",), Raw("[" * 200_000 + "]" * 200_000)), r"not a readable ladder file"),
    ],
)
def test_the_cases_the_fuzz_found_are_refused_by_name(
    tmp_path: Path, change: tuple, message: str
) -> None:
    """Each overflowed (OverflowError from a 400-digit count or rating, TypeError from a list
    as the key) or wrote a message of 100,000 characters."""
    path = tmp_path / "ladder.json"
    path.write_bytes(_encode(_edit(json.loads(json.dumps(BASE)), change)))
    with pytest.raises(ValueError, match=message) as error:
        load_ladder(path)
    assert str(error.value).startswith(f"{path}: ") and len(str(error.value)) < 1000
