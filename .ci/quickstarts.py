"""Run the README's quick starts that need no extra, on the base install (``pip install .``,
no torch), as a new user would; ``.ci/run`` runs this before it installs torch and the extras.

Which blocks: the ```` ```bash ```` and ```` ```python ```` blocks of the README's "Quick
starts" section, except those that need an extra. The rule: a block needs an extra when the
text between it and the block before it (or the section's start) says what to install
(``pip install ".[...]"``), as the README does before each such block.

How each runs, in an empty directory, with a time limit:

- a python block: saved as a script and run by this interpreter;
- a bash block: each line is a command, split as the shell would and run without one. Its
  standard input is ``quit``: ``connectn play`` (in the terminal: CI has no display) shows
  the board and the prompt, and the user quits; that is the quick start "as written" for an
  interactive command. A ``--games N`` above 2 runs as ``--games 2``: the same agents,
  ladder and tables, fewer games.

Each must exit with status 0. Exits 1 at the first that does not (with its output), and 2
where torch can be imported (then this would not test the base install).
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Quick starts"
NEEDS_EXTRA = re.compile(r'pip install "\.\[')
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
GAMES = 2  # the most games a --games option keeps
TIMEOUT = 300  # seconds per command
STDIN = "quit\n"


class QuickStart(NamedTuple):
    """A command line (``bash``) or a script (``python``) of the README, and its line."""

    kind: str
    code: str
    line: int


def quick_starts(readme: str) -> tuple[list[QuickStart], list[QuickStart]]:
    """The quick starts of ``readme``: ``(to run, skipped as needing an extra)``; a bash
    block gives one per command line."""
    start = readme.index(SECTION)
    end = readme.find("\n## ", start + len(SECTION))
    end = len(readme) if end < 0 else end
    chosen: list[QuickStart] = []
    skipped: list[QuickStart] = []
    previous = start
    for block in BLOCK.finditer(readme, start, end):
        line = readme.count("\n", 0, block.start(2)) + 1
        target = skipped if NEEDS_EXTRA.search(readme, previous, block.start()) else chosen
        previous = block.end()
        kind, code = block[1], block[2]
        if kind == "python":
            target.append(QuickStart(kind, code, line))
            continue
        for number, command in enumerate(code.splitlines()):
            if command.strip():
                target.append(QuickStart(kind, command.strip(), line + number))
    return chosen, skipped


def command_line(command: str) -> list[str]:
    """The arguments of a bash quick start, with ``--games N`` at most :data:`GAMES`."""
    args = shlex.split(command)
    for index, arg in enumerate(args[:-1]):
        if arg == "--games" and args[index + 1].isdigit():
            args[index + 1] = str(min(int(args[index + 1]), GAMES))
    return args


def run(start: QuickStart, directory: Path) -> subprocess.CompletedProcess:
    """Run one quick start in ``directory``."""
    if start.kind == "python":
        script = directory / "quickstart.py"
        script.write_text(start.code, encoding="utf-8")
        args = [sys.executable, str(script)]
    else:
        args = command_line(start.code)
    return subprocess.run(
        args,
        cwd=directory,
        input=STDIN,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def main() -> int:
    if importlib.util.find_spec("torch") is not None:
        print("quickstarts: torch is installed; this checks the base install without it")
        return 2
    chosen, skipped = quick_starts(README.read_text(encoding="utf-8"))
    for start in skipped:
        print(f"skipped (needs an extra): README.md:{start.line} {start.code.splitlines()[0]}")
    for start in chosen:
        shown = start.code.splitlines()[0] + (" ..." if "\n" in start.code else "")
        began = time.monotonic()
        with tempfile.TemporaryDirectory() as directory:
            done = run(start, Path(directory))
        seconds = time.monotonic() - began
        print(
            f"{'ok' if done.returncode == 0 else 'FAILED'} in {seconds:.0f} s: "
            f"README.md:{start.line} {shown}",
            flush=True,
        )
        if done.returncode != 0:
            print(f"exit status {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
