"""The README's ```python examples run as written: each block saved as a script file on its own
and run by a fresh interpreter, as a reader who copies one example would run it (so a missing
import, a dependence on an earlier block or a missing ``if __name__ == "__main__":`` guard
fails).

Only fences marked ``python`` are run; ``bash``, ``text`` and unmarked fences are not.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).parents[1] / "README.md"
BLOCK_TIMEOUT = 600  # seconds; the slowest block trains a small model
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)\n", re.MULTILINE)


def python_blocks(markdown: str) -> list[tuple[int, str]]:
    """(first line number, code) of every fenced block whose info string is ``python``."""
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
            blocks.append((line, code))
        position = end.end() if end else len(markdown)
    return blocks


def test_python_blocks_are_found_and_other_fences_skipped() -> None:
    markdown = (
        "Text\n\n```bash\npip install x\n```\n\n```python\na = 1\n```\n\n"
        "```\nplain\n```\n\n````python\nb = a + 1\n```\nstill python\n````\n"
        "  ```python title=x\n  c = 3\n  ```\n~~~text\n```python\nnot code\n```\n~~~\n"
    )
    assert python_blocks(markdown) == [
        (8, "a = 1"),
        (16, "b = a + 1\n```\nstill python"),
        (21, "c = 3"),
    ]


def _readme_blocks() -> list[tuple[int, str]]:
    return python_blocks(README.read_text(encoding="utf-8"))


def test_readme_has_python_examples() -> None:
    assert len(_readme_blocks()) >= 5


@pytest.mark.parametrize(("line", "code"), _readme_blocks(), ids=lambda value: str(value)[:12])
def test_readme_python_example_runs_as_a_script(line: int, code: str, tmp_path: Path) -> None:
    """Each block, saved as ``example.py`` in an empty directory (files it writes land
    there), runs with this checkout importable; padding keeps README line numbers."""
    script = tmp_path / "example.py"
    script.write_text("\n" * (line - 1) + code + "\n", encoding="utf-8")
    root = str(README.parent)
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": root if not path else os.pathsep.join([root, path])}
    run = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT,
    )
    assert run.returncode == 0, f"README.md block at line {line} failed:\n{run.stderr[-3000:]}"


def _bash_block_after(markdown: str, heading: str) -> str:
    start = markdown.index(heading)
    match = re.search(r"```bash\n(.*?)\n```", markdown[start:], re.S)
    assert match, f"no bash block after {heading!r}"
    return match.group(1).strip()


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run must run exactly the README's test command, so the two cannot drift."""
    command = _bash_block_after(README.read_text(encoding="utf-8"), "Tests (")
    ci_script = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci_script.splitlines()
