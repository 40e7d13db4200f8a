"""Reading record files safely: regular files only, a size cap, UTF-8 errors named by line.

``connectn replay /dev/zero`` must not read forever and ``connectn replay fifo`` must not
hang: only regular files are read (the file is opened without blocking and checked with
``fstat``, so a FIFO is refused rather than waited on), and at most
:data:`MAX_RECORD_BYTES` of it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MAX_RECORD_BYTES", "decode_utf8", "read_record_file", "require_regular_file"]

MAX_RECORD_BYTES = 10 * 2**20  # 10 MiB: a 32 x 32 Gomoku game is about 10 kB
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
}


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def require_regular_file(path: str | Path, mode: int) -> None:
    """Raise ValueError unless ``mode`` (from ``stat``) is a regular file's."""
    if not stat.S_ISREG(mode):
        raise ValueError(f"{path} is {_kind(mode)}, not a regular file")


def read_record_file(path: str | Path, limit: int = MAX_RECORD_BYTES) -> str:
    """The text of the regular file ``path`` (UTF-8, at most ``limit`` bytes).

    Raises:
        ValueError: ``path`` is not a regular file (a directory, device, FIFO...), is larger
            than ``limit`` bytes, or is not UTF-8 (the message names the line).
        OSError: the file cannot be opened.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        require_regular_file(path, info.st_mode)
        if info.st_size > limit:
            raise ValueError(_too_large(path, info.st_size, limit))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(2**20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # the file grew while it was read
            raise ValueError(_too_large(path, size, limit))
    finally:
        os.close(fd)
    return decode_utf8(b"".join(chunks), str(path))


def _too_large(path: str | Path, size: int, limit: int) -> str:
    return f"{path} has more than {limit:,} bytes ({size:,}): too large for a game record"


def decode_utf8(data: bytes, where: str, first_line: int = 1) -> str:
    """``data`` decoded as UTF-8.

    Raises:
        ValueError: a byte that is not UTF-8; the message names ``where``, the line (counted
            from ``first_line``) and the byte.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        byte = data[error.start]
        raise ValueError(
            f"{where} line {line}: not UTF-8 text (byte 0x{byte:02x} at column {column})"
        ) from None
