"""The layers of docs/architecture.md, checked: every import between the packages' modules
points down (or stays in its layer), function-level imports included.

The table is read from the page itself, so the page and the check cannot drift apart; a
module the table does not place fails too.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("connectn_env", "agents")
ARCHITECTURE = ROOT / "docs" / "architecture.md"
EVERY_LAYER_BELOW = "every layer below"
# The games import numpy and numba (llvmlite is numba's compiler) and the standard library.
GAMES_THIRD_PARTY = {"numpy", "numba", "llvmlite"}


@dataclass(frozen=True)
class Layers:
    """The table: layers top to bottom, each layer's modules and the layers it may import."""

    order: tuple[str, ...]
    layer_of: dict[str, str]
    allowed: dict[str, frozenset[str]]


@dataclass(frozen=True)
class Import:
    """One import statement: where it is and the module it reaches."""

    path: str
    line: int
    target: str


def read_layers(text: str) -> Layers:
    """The layer table of ``text`` (the Markdown table whose header is
    ``| Layer | Modules | May import |``)."""
    lines = text.splitlines()
    header = "| Layer | Modules | May import |"
    if header not in lines:
        raise ValueError(f"no layer table ({header}) in the text")
    rows = []
    for line in lines[lines.index(header) + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(tuple(cell.strip() for cell in line.strip("|").split("|")))
    order = tuple(name for name, _, _ in rows)
    layer_of: dict[str, str] = {}
    allowed: dict[str, frozenset[str]] = {}
    for depth, (name, modules, imports) in enumerate(rows):
        for module in re.findall(r"`([\w.]+)`", re.sub(r"\([^)]*\)", "", modules)):
            if module in layer_of:
                raise ValueError(f"module {module} is in two layers")
            layer_of[module] = name
        if imports.strip() == EVERY_LAYER_BELOW:
            allowed[name] = frozenset(order[depth + 1 :])
        else:
            allowed[name] = frozenset(re.findall(r"\w+", imports)) & set(order)
    return Layers(order, layer_of, allowed)


def unit_of(module: str) -> str | None:
    """The table's name of a module of the packages (``connectn_env.arena.stats`` is
    ``arena``, the package's ``__init__`` is ``connectn_env``), or None for other modules."""
    parts = module.split(".")
    if parts[0] == "agents":
        return "agents"
    if parts[0] != "connectn_env":
        return None
    return parts[1] if len(parts) > 1 else "connectn_env"


def module_name(path: Path) -> str:
    """``connectn_env.arena.stats`` for ``connectn_env/arena/stats.py`` (relative path)."""
    parts = list(path.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    """True if the dotted ``name`` is a module or package of the checkout."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(source: str, path: Path) -> list[Import]:
    """Every import of a module's source (at any depth), relative ones resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            found += [Import(str(path), node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], base]).strip(".")
            for alias in node.names:  # `from connectn_env import elo` reaches connectn_env.elo
                name = f"{base}.{alias.name}"
                found.append(Import(str(path), node.lineno, name if is_module(name) else base))
    return found


def upward_imports(layers: Layers, imports: list[Import]) -> list[str]:
    """The imports that break the table, one line each (``path:line: what reaches what``)."""
    problems = []
    for item in imports:
        source = unit_of(module_name(Path(item.path)))
        target = unit_of(item.target)
        if target is None or source == target:
            continue
        mine, theirs = layers.layer_of.get(source), layers.layer_of.get(target)
        if mine is None or theirs is None:
            problems.append(f"{item.path}:{item.line}: {source} -> {target}: not in the table")
        elif theirs != mine and theirs not in layers.allowed[mine]:
            problems.append(
                f"{item.path}:{item.line}: {source} ({mine}) imports {item.target} ({theirs})"
            )
    return list(dict.fromkeys(problems))  # `from m import a, b` is one import


def package_files() -> list[Path]:
    return sorted(
        path.relative_to(ROOT) for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    )


@pytest.fixture(scope="module")
def layers() -> Layers:
    return read_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def test_table_points_down(layers):
    for depth, name in enumerate(layers.order):
        assert layers.allowed[name] <= set(layers.order[depth + 1 :]), name
    assert layers.order[-1] == "games" and not layers.allowed["games"]
    assert layers.allowed["agents"] == {"utilities", "games"}


def test_every_module_has_a_layer(layers):
    units = {unit_of(module_name(path)) for path in package_files()}
    assert units - set(layers.layer_of) == set()
    assert set(layers.layer_of) <= units, "the table names a module that is gone"


def test_no_upward_import(layers):
    imports = [
        item
        for path in package_files()
        for item in imports_of((ROOT / path).read_text(encoding="utf-8"), path)
    ]
    assert len(imports) > 500  # the walk saw the packages
    assert upward_imports(layers, imports) == []


def test_games_import_numpy_and_numba_only():
    outside = set()
    for path in package_files():
        if unit_of(module_name(path)) == "games":
            for item in imports_of((ROOT / path).read_text(encoding="utf-8"), path):
                top = item.target.split(".")[0]
                if top not in sys.stdlib_module_names and top not in PACKAGES:
                    outside.add(top)
    assert outside <= GAMES_THIRD_PARTY


SYNTHETIC = """
import numpy as np
from connectn_env.games import REGISTRY
from connectn_env.elo import elo_ratings
from . import tree


def evaluate():
    from connectn_env.envs.base import BoardGameEnv
    import connectn_env.arena.stats
    from connectn_env import records
    return BoardGameEnv
"""


def test_check_fails_on_upward_imports(layers):
    imports = imports_of(SYNTHETIC, Path("agents/alphazero/synthetic.py"))
    problems = upward_imports(layers, imports)
    assert [p.split(": ")[0] for p in problems] == [
        "agents/alphazero/synthetic.py:9",
        "agents/alphazero/synthetic.py:10",
        "agents/alphazero/synthetic.py:11",
    ]
    assert "agents (agents) imports connectn_env.envs.base (envs)" in problems[0]
    relative = imports_of("from ..envs import base\n", Path("connectn_env/games/synthetic.py"))
    assert upward_imports(layers, relative) == [
        "connectn_env/games/synthetic.py:1: games (games) imports connectn_env.envs.base (envs)"
    ]
    unknown = imports_of("import connectn_env.newthing\n", Path("agents/synthetic.py"))
    assert "not in the table" in upward_imports(layers, unknown)[0]
    top = imports_of("from connectn_env import __version__\n", Path("agents/synthetic.py"))
    assert "agents (agents) imports connectn_env (programs)" in upward_imports(layers, top)[0]


def test_moved_names_are_public_where_documented_and_the_shims_are_gone():
    """``GameConfig`` lives with the games and the statistics in ``elo``; the public packages
    re-export them, the old internal paths (``records.gameconfig``, ``arena.stats``) do not."""
    from connectn_env import arena, elo, records
    from connectn_env.arena import stats
    from connectn_env.games import config

    assert records.GameConfig is config.GameConfig and records.GAME_NAMES is config.GAME_NAMES
    for name in ("PairingStats", "anchor_of", "elo_intervals", "elo_ratings", "wilson"):
        assert getattr(arena, name) is getattr(elo, name), name
        assert name == "PairingStats" or not hasattr(stats, name), name  # the Tally's type
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("connectn_env.records.gameconfig")


@pytest.mark.parametrize("name", ["tictactoe", "hex", "othello", "gomoku"])  # no stacking
def test_game_config_makes_the_raw_env_of_its_game(name):
    from connectn_env.envs.base import BoardGameEnv
    from connectn_env.games import IllegalActionError
    from connectn_env.games.config import GameConfig

    config = GameConfig(name)
    env = config.make_env(render_mode="ansi")
    assert type(env) is BoardGameEnv and env.render_mode == "ansi"
    assert env.game == config.make_game()
    env.reset()
    action = int(env.game_state.legal_actions()[0])
    env.step(action)
    with pytest.raises(IllegalActionError):  # raw: an illegal move raises, nothing changes
        env.step(action)
    assert env.game_state.history() == [action]


def test_table_reader_refuses_a_page_without_table():
    with pytest.raises(ValueError, match="no layer table"):
        read_layers("# Architecture\n\nno table here\n")
    page = "| Layer | Modules | May import |\n|---|---|---|\n| a | `x` | b |\n| b | `x` | |\n"
    with pytest.raises(ValueError, match="module x is in two layers"):
        read_layers(page)
