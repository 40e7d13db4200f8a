"""Standard output that cannot be written (``> /dev/full``) gives a one-line error naming it
and exit status 2, not a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args", [("warmup", "tictactoe"), ("ladder", "show", "connect_four")], ids=lambda a: a[0]
)
def test_a_full_stdout_is_a_one_line_error(args: tuple[str, ...], tmp_path: Path) -> None:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [executable, *args],
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            check=False,
        )
    message = f"connectn {args[0]}: error: cannot write to standard output: No space left"
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(message) and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
