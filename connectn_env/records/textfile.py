"""Reading record files safely: regular files only, a size cap, UTF-8 errors named by line.

``connectn replay /dev/zero`` must not read forever and ``connectn replay fifo`` must not
hang: records are read through :mod:`connectn_env.safe_files` (regular files only, opened
without blocking and checked with ``fstat``), at most :data:`MAX_RECORD_BYTES` of each.
"""

from __future__ import annotations

from pathlib import Path

from connectn_env.safe_files import read_regular_text

MAX_RECORD_BYTES = 10 * 2**20  # 10 MiB: a 32 x 32 Gomoku game is about 10 kB


def read_record_file(path: str | Path, limit: int = MAX_RECORD_BYTES) -> str:
    """The text of the regular file ``path`` (UTF-8, at most ``limit`` bytes).

    Raises:
        ValueError: ``path`` is not a regular file (a directory, device, FIFO...), is larger
            than ``limit`` bytes, or is not UTF-8 (the message names the line).
        OSError: the file cannot be opened.
    """
    return read_regular_text(path, max_bytes=limit, what="a game record")
