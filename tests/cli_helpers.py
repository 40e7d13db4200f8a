"""Running ``connectn`` commands in the test's own process."""

from __future__ import annotations

import pytest

from connectn_env.cli import main


def run_main(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    """``connectn ARGV`` in this process: its exit status, stdout and stderr."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err
