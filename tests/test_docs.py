"""The documentation: the guide pages of docs/ (in the table of contents, linked from the
README) and the site's generators (docs/_ext/sitegen.py, docs/_ext/publicapi.py: the pages
made from the game registry, benchmarks/README.md and the public modules), without running
Sphinx (the CI runs the real build, ``sphinx-build -W``, after the tests: see .ci/run)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

import connectn_env
from connectn_env.envs.modules import make_env_module
from connectn_env.games import REGISTRY, HexGame, build_registry

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import publicapi  # noqa: E402
import sitegen  # noqa: E402

TABLE_DELIMITER = re.compile(r"^\|(\s*:?-+:?\s*\|)+$")


# --- the guide pages and the copied benchmark page ----------------------------------------


def test_links_are_made_relative_to_the_page_and_copies_followed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    (repo / "notebooks" / "a.ipynb").write_text("{}", encoding="utf-8")
    page_dir = repo / "docs" / "guide"
    markdown = (
        "See [a](notebooks/a.ipynb#top), [the folder](notebooks/), [web](https://x.org/a),\n"
        "[anchor](#set-up) and ![img](pic.png), `x[0](notebooks/a.ipynb)`.\n\n"
        "```text\n[a](notebooks/a.ipynb)\n```\n"
    )
    assert sitegen.rewrite_links(markdown, repo, page_dir) == (
        "See [a](../../notebooks/a.ipynb#top), the folder, [web](https://x.org/a),\n"
        "[anchor](#set-up) and ![img](pic.png), `x[0](notebooks/a.ipynb)`.\n\n"
        "```text\n[a](notebooks/a.ipynb)\n```\n"
    )
    docs = repo / "docs"
    copies = {repo / "notebooks" / "a.ipynb": docs / "copies" / "a.md"}
    assert sitegen.rewrite_links("[a\nb](../notebooks/a.ipynb#x)", docs, docs, copies) == (
        "[a\nb](copies/a.md#x)"  # the link's text wraps
    )


def test_a_file_outside_the_site_is_copied_with_its_links_fixed(tmp_path: Path) -> None:
    (tmp_path / "bench" / "results").mkdir(parents=True)
    source = tmp_path / "bench" / "README.md"
    source.write_text("# Bench\n\n[log](results/log.md), [top](#bench)\n", encoding="utf-8")
    page = sitegen.copied_page(source, tmp_path / "docs" / "bench", tmp_path)
    assert page.splitlines()[0] == sitegen.GENERATED.format(source="bench/README.md")
    assert page.endswith("# Bench\n\n[log](../../bench/results/log.md), [top](#bench)\n")


def test_every_guide_page_is_in_the_table_of_contents_and_linked_from_the_readme() -> None:
    """A page left out of the toctree is a Sphinx warning; one the README does not link is
    lost to a reader of the repository."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    toctree = re.search(r"```\{toctree\}\n(.*?)```", index, re.S)[1].split()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = sorted(path.stem for path in (ROOT / "docs").glob("*.md") if path.stem != "index")
    assert len(pages) >= 9
    for page in pages:
        assert page in toctree, page
        assert f"](docs/{page}.md)" in readme, page
        assert f"]({page}.md)" in index, page


def test_model_cards_sit_under_one_page_not_at_the_top_of_the_sidebar() -> None:
    """The sidebar lists topics; the model cards hang under "Pretrained networks"."""
    top = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    top_toctree = re.search(r"```\{toctree\}\n(.*?)```", top, re.S)[1].split()
    assert [entry for entry in top_toctree if entry.startswith("models/")] == ["models/index"]
    models = (ROOT / "docs" / "models" / "index.md").read_text(encoding="utf-8")
    entries = re.search(r"```\{toctree\}\n(.*?)```", models, re.S)[1].split()
    toctree = [entry for entry in entries if not entry.startswith(":")]
    cards = sorted(p.stem for p in (ROOT / "docs" / "models").glob("*.md") if p.stem != "index")
    assert sorted(toctree) == cards
    for card in cards:
        assert f"]({card}.md)" in models, card


def test_the_openspiel_table_lists_every_registered_name() -> None:
    from connectn_env.openspiel_games import spiel_games

    page = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(connectn_\w+)` \|", page, re.M)
    assert listed == list(spiel_games())


def test_write_pages_rewrites_only_changes_and_removes_stale_pages(tmp_path: Path) -> None:
    assert sitegen.write_pages(tmp_path, {"a.md": "A", "b.inc": "B"}) == ["a.md", "b.inc"]
    (tmp_path / "old.md").write_text("gone", encoding="utf-8")
    (tmp_path / "keep.txt").write_text("not a page", encoding="utf-8")
    assert sitegen.write_pages(tmp_path, {"a.md": "A", "b.inc": "B2"}) == ["b.inc"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.inc", "keep.txt"]
    assert (tmp_path / "b.inc").read_text(encoding="utf-8") == "B2"


# --- the environment pages, from the game registry -----------------------------------------


def test_every_env_module_gets_a_page_made_from_its_docstring() -> None:
    pages = sitegen.env_pages(connectn_env.ENV_MODULES, REGISTRY)
    assert set(pages) == {"index.md", *(f"{name}.md" for name in connectn_env.ENV_MODULES)}
    for name, module in connectn_env.ENV_MODULES.items():
        page = pages[f"{name}.md"]
        assert page.splitlines()[2] == f"# {name}"
        assert module.__doc__.strip() in page
        assert f".. autofunction:: connectn_env.{name}.env\n" in page
        assert f".. autofunction:: connectn_env.{name}.raw_env\n" in page
    for entry in REGISTRY.values():
        row = f"| `{entry.name}` | {entry.summary} | [`connectn_env.{entry.env_module}`]"
        assert row in pages["index.md"]
        assert f"`{entry.pettingzoo_id}` | `{entry.gym_id}` |" in pages[f"{entry.env_module}.md"]


def test_env_docstrings_hold_a_markdown_spec_table() -> None:
    """PettingZoo's layout: a table whose second line is the delimiter row (without it
    Markdown shows the rows as one paragraph)."""
    for module in connectn_env.ENV_MODULES.values():
        rows = [line for line in module.__doc__.splitlines() if line.startswith("|")]
        assert len(rows) >= 3 and rows[0].startswith("| Import")
        assert TABLE_DELIMITER.match(rows[1]), rows[1]
        assert all(not TABLE_DELIMITER.match(row) for row in rows[2:])


def test_a_newly_registered_family_gets_its_page_with_no_docs_edit() -> None:
    class CornerHexGame(HexGame):
        """Hex renamed, standing in for a new plugin."""

        name = "corner_hex"
        gym_name = "CornerHex"
        summary = "a game the docs have never heard of"

    plugin = SimpleNamespace(GAME=CornerHexGame, PRESETS=())
    registry = build_registry([*connectn_env.games.PLUGINS, plugin])
    modules = {**connectn_env.ENV_MODULES, "corner_hex_v0": make_env_module(CornerHexGame)}
    pages = sitegen.env_pages(modules, registry)
    assert "corner_hex_v0.md" in pages
    assert "A game the docs have never heard of." in pages["corner_hex_v0.md"]
    assert "`connectn_env/corner_hex-v0`" in pages["index.md"]
    assert "\ncorner_hex_v0\n" in pages["index.md"]  # in the table of contents


def test_rst_roles_of_docstrings_become_myst_roles() -> None:
    doc = "Uses :class:`~connectn_env.GameState` and :py:func:`f`."
    module = ModuleType("connectn_env.fake_v0", doc)
    entry = SimpleNamespace(
        name="fake", summary="s", env_module="fake_v0", pettingzoo_id="p", gym_id="g"
    )
    page = sitegen.env_pages({"fake_v0": module}, {"fake": entry})["fake_v0.md"]
    assert "Uses {class}`~connectn_env.GameState` and {py:func}`f`." in page


# --- the API reference: the public modules' __all__, each object documented once ----------


@pytest.fixture(scope="module")
def api() -> publicapi.PublicApi:
    return publicapi.PublicApi()


def test_each_exported_object_is_documented_once_where_first_exported(
    api: publicapi.PublicApi,
) -> None:
    top, games = api.modules["connectn_env"], api.modules["connectn_env.games"]
    assert api.home(top.BoardGame, "BoardGame") == "connectn_env.BoardGame"
    assert api.home(games.OthelloGame, "OthelloGame") == "connectn_env.games.OthelloGame"
    assert api.home(top.REGISTRY, "REGISTRY") == "connectn_env.REGISTRY"
    assert api.home(api.modules["agents"].MCTSAgent, "MCTSAgent") == "agents.MCTSAgent"
    for module_name, module in api.modules.items():
        for name, value in api.exported(module):
            home = api.home(value, name)
            exporters = [m for m in api.modules if name in api.modules[m].__all__]
            assert home == f"{exporters[0]}.{name}", (module_name, name)


def test_a_page_documents_its_own_names_and_links_the_others(api: publicapi.PublicApi) -> None:
    page = api.page("connectn_env.games")
    directive, excluded = page.splitlines()[3:5]
    assert directive == ".. automodule:: connectn_env.games"
    excluded = excluded.removeprefix("   :exclude-members: ").split(", ")
    assert {"BoardGame", "REGISTRY", "GOMOKU_RULES"} <= set(excluded)  # elsewhere; data
    assert "OthelloGame" not in excluded and "UnknownGameError" not in excluded
    assert "* :py:obj:`BoardGame <connectn_env.BoardGame>`" in page
    assert ".. autodata:: connectn_env.games.GOMOKU_RULES\n\n" in page  # its value shown
    assert ".. autodata:: connectn_env.games.PLUGINS\n   :no-value:" in page
    top = api.page("connectn_env")
    assert "* :doc:`connectn_env.hex_v0 </environments/hex_v0>`" in top


def test_locate_tells_documented_internal_external_and_missing_apart(
    api: publicapi.PublicApi,
) -> None:
    assert api.locate("connectn_env.games.game.BoardGame.new_initial_state") == (
        publicapi.Located("connectn_env.BoardGame.new_initial_state", True)
    )
    assert api.locate("connectn_env.games.hex.HexGame.new_initial_state") == (
        publicapi.Located("connectn_env.BoardGame.new_initial_state", True)  # the base's
    )
    assert api.locate("connectn_env.games.state.np.ndarray") == publicapi.Located(None, False)
    assert api.locate("collections.abc.Callable") == publicapi.Located(None, False)
    assert api.locate("connectn_env.games") == publicapi.Located("connectn_env.games", True)
    internal = publicapi.Located(None, True)
    assert api.locate("connectn_env.games.lib.placement") == internal
    assert api.locate("connectn_env.render.theme.mix") == internal
    palette = api.locate("connectn_env.render.theme.Palette")  # internal path, public name
    assert palette == publicapi.Located("connectn_env.render.Palette", True)
    assert api.locate("connectn_env.games.NoSuchName") is None
    assert api.locate("NoSuchModule.x") is None


def test_names_out_of_scope_are_found_where_the_packages_define_them(
    api: publicapi.PublicApi,
) -> None:
    """A name imported for type checking only (``OpeningSuite`` in the arena)."""
    assert api.locate_anywhere("HexGame.rows") == publicapi.Located("connectn_env.HexGame", True)
    assert api.locate_anywhere("OpeningSuite") == publicapi.Located(None, True)
    assert api.locate_anywhere("NoSuchName") is None


def test_roles_are_pointed_at_their_documented_names_from_a_context(
    api: publicapi.PublicApi,
) -> None:
    """How a game class's docstring keeps its references on its environment page: the shown
    text stays as written."""
    hex_game = ["connectn_env.games.hex.HexGame", "connectn_env.games.hex"]
    text = (
        ":meth:`~new_initial_state`, :class:`BoardGame`, :class:`the state <GameState>`, "
        ":class:`!GameState`, :class:`NoSuch`, :class:`numpy.ndarray`, :data:`SWAP`"
    )
    assert api.qualify_roles(text, hex_game) == (
        ":meth:`~connectn_env.BoardGame.new_initial_state`, "
        ":class:`BoardGame <connectn_env.BoardGame>`, "
        ":class:`the state <connectn_env.GameState>`, "
        ":class:`!GameState`, :class:`NoSuch`, :class:`numpy.ndarray`, :data:`SWAP`"
    )


def test_instance_attributes_of_an_attributes_section_point_to_their_class(
    api: publicapi.PublicApi,
) -> None:
    class Timer:
        """A timer.

        Attributes:
            seconds: Time so far.
            laps (list[float]): Lap times,
                newest last.
        """

    assert publicapi.ivar_names(Timer) == {"seconds", "laps"}
    assert publicapi.ivar_names(HexGame) >= {"rows", "cols", "kernels"}  # BoardGame's section
    assert api.locate("connectn_env.games.hex.HexGame.rows") == publicapi.Located(
        "connectn_env.HexGame", True
    )


def test_only_the_public_modules_keep_an_all() -> None:
    """Internal modules do not advertise a public surface."""
    keeping = set()
    for package in publicapi.PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if re.search(r"^__all__\b", path.read_text(encoding="utf-8"), re.MULTILINE):
                parts = path.relative_to(ROOT).with_suffix("").parts
                keeping.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert keeping == set(publicapi.PUBLIC_MODULES)


# --- the build command: in the docs and in CI ----------------------------------------------


def test_ci_builds_the_docs_with_the_documented_command() -> None:
    """The docs command of docs/index.md (the first line of the bash block of "Building this
    site") is a line of .ci/run, so the two cannot drift; it treats warnings as errors."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    section = index[index.index("## Building this site") :]
    command = re.search(r"```bash\n(.*?)\n", section)[1]
    assert "sphinx-build -W --keep-going -b html docs docs/_build/html" in command
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
