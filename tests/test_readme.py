"""The README's ```python examples run: each block in order, in one fresh namespace.

Only fences marked ``python`` are run; ``bash``, ``text`` and unmarked fences are not.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).parents[1] / "README.md"
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


def test_readme_python_examples_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "README.md has no ```python example"
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    namespace: dict = {"__name__": "__readme__"}
    for line, code in blocks:
        # Padding keeps README line numbers in tracebacks.
        exec(compile("\n" * (line - 1) + code, str(README), "exec"), namespace)


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
