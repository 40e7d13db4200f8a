"""Print the requirements of the package and of the extras named on the command line (one per
line, from pyproject.toml), for ``pip install -r``.

``.ci/run`` installs them before the README's test command, while ``connectn warmup`` (started
on the base install) compiles beside them; the test command's own ``pip install ".[...]"`` then
finds them installed and only reinstalls the package, which leaves the warm-up's compiled code
valid (numba's cache stamps each source file by its content, not by when it was written).
"""

from __future__ import annotations

import sys
from pathlib import Path

import tomllib

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def requirements(extras: list[str]) -> list[str]:
    """The package's requirements, then each extra's, in pyproject.toml's order.

    Raises:
        ValueError: an extra pyproject.toml does not declare, named with those it does.
    """
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    optional = project["optional-dependencies"]
    unknown = [extra for extra in extras if extra not in optional]
    if unknown:
        raise ValueError(f"unknown extras {unknown}; pyproject.toml declares {sorted(optional)}")
    return [*project["dependencies"], *(line for extra in extras for line in optional[extra])]


if __name__ == "__main__":
    try:
        print("\n".join(requirements(sys.argv[1:])))
    except ValueError as error:
        sys.exit(str(error))
