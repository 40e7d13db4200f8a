"""The notebooks in ``notebooks/`` run top to bottom in quick mode, are committed without
outputs, and use only the public API of ``connectn_env`` and ``agents``."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = [
    "01_quickstart",
    "02_mcts_baselines",
    "03_rl_against_mcts",
    "04_puct_with_a_policy",
    "05_alphazero",
    "06_planning",
    "07_yardstick",
]
OUR_PACKAGES = ("connectn_env", "agents")
CELL_TIMEOUT = 600  # seconds; a quick-mode notebook takes well under a minute
PREFIX_MARK = "kernel prefix: "
SLOW = pytest.mark.slow


def code_cells(path: Path) -> list[str]:
    notebook = nbformat.read(path, as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def parse(path: Path) -> list[ast.Module]:
    """The code cells as syntax trees (notebook magics, if any, are not Python: dropped)."""
    trees = []
    for source in code_cells(path):
        lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
        trees.append(ast.parse("\n".join(lines), filename=path.name))
    return trees


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def public_names(module: object) -> tuple[str, ...]:
    return tuple(getattr(module, "__all__", ()))


def private_uses(tree: ast.Module) -> list[str]:
    """Imports of non-public parts of our packages and accesses to ``_private`` attributes.

    A module of ours is public if it is a package or listed in its parent's ``__all__``
    (``connectn_env.connect_n_v0``); a name imported from it must be in its ``__all__``.
    """
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            problems.append(f"line {node.lineno}: attribute {node.attr}")
        if isinstance(node, ast.Import):
            modules = [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [(node.module, [alias.name for alias in node.names])]
        else:
            continue
        for module_name, names in modules:
            if module_name.split(".")[0] not in OUR_PACKAGES:
                continue
            parts = module_name.split(".")
            for depth in range(1, len(parts)):
                parent = importlib.import_module(".".join(parts[:depth]))
                child = importlib.import_module(".".join(parts[: depth + 1]))
                if not hasattr(child, "__path__") and parts[depth] not in public_names(parent):
                    problems.append(f"line {node.lineno}: module {module_name}")
            module = importlib.import_module(module_name)
            problems += [
                f"line {node.lineno}: {module_name}.{name}"
                for name in names
                if name not in public_names(module)
            ]
    return problems


def test_the_expected_notebooks_are_there():
    assert [path.stem for path in NOTEBOOKS] == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_is_committed_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: a code cell has outputs"
            assert cell.execution_count is None, f"{path.name}: a code cell has a count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_uses_only_the_public_api(path):
    problems = [problem for tree in parse(path) for problem in private_uses(tree)]
    assert problems == [], f"{path.name} uses non-public API: {problems}"


def test_the_public_api_check_catches_private_imports():
    tree = ast.parse(
        "from connectn_env.games.lib.placement import playout\n"
        "import connectn_env.games.lib.header\n"
        "from agents import MCTSAgent, _private\n"
        "from connectn_env.render import BoardGeometry\n"
        "env.unwrapped._renderer\n"
    )
    flagged = {problem.split(":")[0] for problem in private_uses(tree)}
    assert flagged == {"line 1", "line 2", "line 3", "line 5"}


def test_notebooks_read_the_quick_mode_switch():
    for path in NOTEBOOKS:
        first = code_cells(path)[0]
        assert 'os.environ.get("CONNECTN_QUICK"' in first, f"{path.name}: no quick-mode switch"


def notebooks_marked_by_cost() -> list[Any]:
    """Every notebook, each but the quick start (about 5 s) marked slow (13 to 33 s each)."""
    return [
        pytest.param(path, id=path.stem, marks=() if path.stem == "01_quickstart" else SLOW)
        for path in NOTEBOOKS
    ]


@pytest.mark.parametrize("path", notebooks_marked_by_cost())
def test_notebook_runs_in_quick_mode(path, tmp_path, monkeypatch):
    """Execute every cell in a fresh kernel of this Python (a failing cell raises)."""
    monkeypatch.setenv("CONNECTN_QUICK", "1")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel then draws inline
    notebook = nbformat.read(path, as_version=4)
    probe = nbformat.v4.new_code_cell(f"import sys\nprint({PREFIX_MARK!r} + sys.prefix)")
    notebook.cells.insert(0, probe)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    printed = "".join(output.get("text", "") for output in notebook.cells[0].outputs)
    assert printed.strip() == PREFIX_MARK + sys.prefix, "the kernel runs another Python"
    figures = sum(
        "image/png" in output.get("data", {})
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )
    assert figures >= 3, f"{path.name} drew {figures} figures"
