"""Outputs never replace inputs: the paths a command writes are checked, before anything
runs, against the files it reads and against each other.

Two paths name one file when they lead to the same inode (``os.path.samefile``: a symbolic
link, a hard link, a relative path or ``..`` all count), or, while a path does not exist
yet, when they resolve to the same place. The files an agent spec reads are the values of
its ``key=value`` options (``az:path=net.pt``, ``sb3:path=model.zip``, a factory's own
keys): any value that names an existing file counts as an input.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

Named = tuple[str, "str | Path | None"]  # (what names the path: "--json", the path)
_VALUE = re.compile(r"=([^,]*)")  # a spec option's value runs to the next comma


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether ``a`` and ``b`` name one file (see the module docstring)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them is missing (or cannot be looked at)
        return os.path.realpath(a) == os.path.realpath(b)


def spec_inputs(role: str, spec: Any) -> list[Named]:
    """``(role and spec, value)`` for each option value of an agent spec (a text or an
    ``AgentSpec``; None: none) that names an existing file."""
    if spec is None:
        return []
    if isinstance(spec, str):
        values = [value.strip() for value in _VALUE.findall(spec)]
    else:
        values = [value for _, value in getattr(spec, "options", ()) if isinstance(value, str)]
    return [(f"{role} {spec}", value) for value in values if value and os.path.isfile(value)]


def check_outputs(outputs: Sequence[Named], inputs: Iterable[Named] = ()) -> None:
    """Refuse outputs that name an input's file or one another's.

    Args:
        outputs: ``(option, path)`` of each file the command writes (None: not given).
        inputs: ``(what reads it, path)`` of each file it reads.

    Raises:
        ValueError: two of them name one file; the message names both and what to do.
    """
    given = [(option, path) for option, path in outputs if path is not None]
    for option, path in given:
        for reader, source in inputs:
            if source is not None and os.path.exists(path) and same_file(path, source):
                raise ValueError(
                    f"{option} {path} is the file {reader} reads ({source}); an output never "
                    f"replaces an input: give {option} another file"
                )
    for index, (option_a, a) in enumerate(given):
        for option_b, b in given[index + 1 :]:
            if same_file(a, b):
                raise ValueError(f"{option_a} and {option_b} both name {a}; give each its own file")
