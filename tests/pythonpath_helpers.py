"""The ``PYTHONPATH`` of a child ``python`` that a test starts: it imports the package the
tests import. Where that is the checkout, the checkout goes on the path; where it is an
installed copy (CI: ``pip install .``), the child finds that copy as the tests did. A child
given the checkout instead of the installed copy compiled every numba kernel it used a
second time, into the checkout's own cache (a doc example: 76 s instead of 13 s).

A child ``python -m`` or ``python -c`` also puts its working directory first on its path: started
in the checkout, it imported the checkout whatever ``PYTHONPATH`` said. :func:`child_environment`
gives it ``PYTHONSAFEPATH`` (Python 3.11+), which leaves the working directory off."""

from __future__ import annotations

import os
from pathlib import Path

import connectn_env

CHECKOUT = Path(__file__).resolve().parents[1]
IMPORTED_FROM = Path(connectn_env.__file__).resolve().parents[1]


def pythonpath(*first: Path | str) -> str:
    """``first``, then the checkout if the tests import the package from it, then the
    inherited ``PYTHONPATH``."""
    checkout = [CHECKOUT] if IMPORTED_FROM == CHECKOUT else []
    parts = [*first, *checkout, os.environ.get("PYTHONPATH", "")]
    return os.pathsep.join(str(part) for part in parts if str(part))


def child_environment(**variables: str) -> dict[str, str]:
    """The environment of a child ``python -m connectn_env.cli`` (or ``-c``) that imports the
    package the tests import, wherever it runs: :func:`pythonpath` and ``PYTHONSAFEPATH``, then
    ``variables``."""
    return {**os.environ, "PYTHONPATH": pythonpath(), "PYTHONSAFEPATH": "1", **variables}
