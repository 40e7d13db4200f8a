"""The child processes of the tests import the package the tests import (a child importing
another copy compiles every numba kernel it uses again, into that copy's cache)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pythonpath_helpers import CHECKOUT, child_environment

import connectn_env


@pytest.mark.skipif(sys.version_info < (3, 11), reason="PYTHONSAFEPATH is new in Python 3.11")
def test_a_child_started_in_the_checkout_imports_the_package_the_tests_import() -> None:
    """In CI's layout (package installed), ``python -m``/``-c`` in the checkout imported the
    checkout."""
    run = subprocess.run(
        [sys.executable, "-c", "import connectn_env; print(connectn_env.__file__)"],
        cwd=CHECKOUT, env=child_environment(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert run.stdout.strip() == connectn_env.__file__
