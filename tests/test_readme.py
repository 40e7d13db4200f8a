"""The README's and the docs pages' ```python examples run as written: each block saved as a
script file on its own and run by a fresh interpreter, as a reader who copies one example
would run it (so a missing import, a dependence on an earlier block or a missing
``if __name__ == "__main__":`` guard fails). Their relative links lead to files that exist.

Only fences marked ``python`` are run; ``bash``, ``text`` and unmarked fences are not. A block
right after a ``<!-- slow -->`` line (invisible on GitHub and on the site) is a slow test.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from pythonpath_helpers import pythonpath

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
BLOCK_TIMEOUT = 600  # seconds; the slowest block trains a small model
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)\n", re.MULTILINE)
SLOW = "<!-- slow -->"
LINK = re.compile(r"(?<!!)\[[^\]]*\]\((?P<target>[^)\s]+)\)")  # the text may wrap


class Block(NamedTuple):
    """A ``python`` block: the line of its first code line, its code, whether it is slow."""

    line: int
    code: str
    slow: bool = False


def python_blocks(markdown: str) -> list[Block]:
    """Every fenced block whose info string is ``python``."""
    blocks = []
    position = 0
    while opening := FENCE.search(markdown, position):
        fence, indent = opening["fence"], opening["indent"]
        closing = re.compile(rf"^ {{0,{len(indent) + 3}}}{fence[0]}{{{len(fence)},}} *$", re.M)
        end = closing.search(markdown, opening.end())
        body_end = end.start() if end else len(markdown)
        if opening["info"].strip().split(" ")[0].lower() == "python":
            line = markdown.count("\n", 0, opening.end()) + 1
            lines = markdown[opening.end() : body_end].splitlines()
            code = "\n".join(text.removeprefix(indent) for text in lines)
            before = markdown[: opening.start()].rstrip().rsplit("\n", 1)[-1].strip()
            blocks.append(Block(line, code, before == SLOW))
        position = end.end() if end else len(markdown)
    return blocks


def test_python_blocks_are_found_and_other_fences_skipped() -> None:
    markdown = (
        "Text\n\n```bash\npip install x\n```\n\n```python\na = 1\n```\n\n"
        "```\nplain\n```\n\n````python\nb = a + 1\n```\nstill python\n````\n"
        "  ```python title=x\n  c = 3\n  ```\n~~~text\n```python\nnot code\n```\n~~~\n"
        "<!-- slow -->\n```python\nd = 4\n```\n"
    )
    assert python_blocks(markdown) == [
        (8, "a = 1", False),
        (16, "b = a + 1\n```\nstill python", False),
        (21, "c = 3", False),
        (30, "d = 4", True),
    ]


def _examples() -> list[pytest.param]:
    examples = []
    for page in PAGES:
        name = page.relative_to(ROOT).as_posix()
        for block in python_blocks(page.read_text(encoding="utf-8")):
            marks = [pytest.mark.slow] if block.slow else []
            examples.append(pytest.param(page, block, marks=marks, id=f"{name}:{block.line}"))
    return examples


def test_the_readme_and_the_pages_have_python_examples() -> None:
    counts = {page.name: len(python_blocks(page.read_text(encoding="utf-8"))) for page in PAGES}
    assert counts["README.md"] >= 2
    assert sum(counts.values()) >= 15


@pytest.mark.parametrize(("page", "block"), _examples())
def test_python_example_runs_as_a_script(page: Path, block: Block, tmp_path: Path) -> None:
    """Each block, saved as ``example.py`` in an empty directory (files it writes land
    there), runs with the package the tests import; padding keeps the page's line numbers."""
    script = tmp_path / "example.py"
    script.write_text("\n" * (block.line - 1) + block.code + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": pythonpath()}
    run = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT,
    )
    name = page.relative_to(ROOT)
    assert run.returncode == 0, f"{name} block at line {block.line} failed:\n{run.stderr[-3000:]}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_relative_links_lead_to_files_that_exist(page: Path) -> None:
    """Links of the README and the pages, read as files in the repository (pictures aside:
    the screenshots are made by a script)."""
    text = re.sub(r"(?ms)^```.*?^```", "", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    for match in LINK.finditer(text):
        target = match["target"].split("#")[0]
        if target and not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            assert (page.parent / target).exists(), f"{page.name}: {match[0]}"


def _bash_block_after(markdown: str, heading: str) -> str:
    start = markdown.index(heading)
    match = re.search(r"```bash\n(.*?)\n```", markdown[start:], re.S)
    assert match, f"no bash block after {heading!r}"
    return match.group(1).strip()


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run must run exactly the README's test command, so the two cannot drift."""
    command = _bash_block_after(README.read_text(encoding="utf-8"), "Tests (")
    ci_script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci_script.splitlines()


def test_ci_runs_the_main_job_and_the_quick_starts_before_torch_is_installed() -> None:
    """The base install is checked as a user gets it: .ci/run runs the README's main job, then
    .ci/quickstarts.py, both before the line that installs torch, in the same venv."""
    main_job = _bash_block_after(README.read_text(encoding="utf-8"), "Main job (")
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    torch = next(i for i, line in enumerate(lines) if "pip install torch" in line)
    assert lines.index(main_job) < lines.index("python .ci/quickstarts.py") < torch
    venvs = [line for line in lines[:torch] if line.startswith("python3 -m venv")]
    assert len(venvs) == 1  # the torch-less steps and the test command share one venv


def test_ci_runs_the_rllib_test_in_its_own_venv_and_waits_for_its_result() -> None:
    """.ci/run runs tests/test_rl_rllib.py (skipped in the main venv) in .venv-rllib, which
    .ci/rllib_venv installs, beside the docs build, and fails where that test fails."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".ci/rllib_venv" in script
    line = next(line for line in script.splitlines() if "tests/test_rl_rllib.py" in line)
    assert line.startswith("(. .venv-rllib/bin/activate && exec pytest") and line.endswith("&")
    assert 'wait "$rllib_test" || { cat "$rllib_test_log"; exit 1; }' in script


def test_the_quick_starts_run_without_an_extra_are_those_that_say_none() -> None:
    """.ci/quickstarts.py's rule: a block runs unless the text before it (since the block
    before) says what to install; bash lines run one by one, --games cut to 2."""
    spec = importlib.util.spec_from_file_location("quickstarts", ROOT / ".ci" / "quickstarts.py")
    quickstarts = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quickstarts)
    chosen, skipped = quickstarts.quick_starts(README.read_text(encoding="utf-8"))
    first = [start.code.splitlines()[0] for start in chosen]
    assert "connectn play connect_four" in first and "import pettingzoo" in chosen[2].code
    assert any(line.startswith("connectn evaluate connect_four") for line in first)
    assert any(line.startswith("connectn arena connect_four") for line in first)
    needs = " ".join(start.code for start in skipped)
    assert "sb3_contrib" in needs and "connectn train tictactoe" in needs
    assert not any("torch" in start.code or "az:" in start.code for start in chosen)
    assert quickstarts.command_line("connectn evaluate g x --games 40") == [
        "connectn", "evaluate", "g", "x", "--games", "2",
    ]  # fmt: skip
