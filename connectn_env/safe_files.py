"""Opening the files the suite reads (records, results, run directories, checkpoints, maps):
regular files only, of bounded size, never a wait.

A path given by a user can name a FIFO (``open`` would wait for a writer for ever), a device
(``/dev/zero`` never ends), a directory or a file of gigabytes. Every reader opens through
:func:`open_regular_file`: the file is opened without blocking, checked with ``fstat`` (so
a FIFO is refused rather than waited on, and the check is of the file actually opened), and
refused if larger than the caller's limit; the returned stream reads normally.

Writes go the other way, through :mod:`connectn_env.atomic_write`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import BinaryIO

_GROWTH_CHUNK = 2**20  # bytes read at a time past the size the file had when opened
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link",
}


def file_kind(mode: int) -> str:
    """What a ``stat`` mode describes, in words (``"a directory"``, ``"a regular file"``...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def require_regular_file(path: str | Path, mode: int) -> None:
    """Raise ValueError unless ``mode`` (from ``stat``) is a regular file's."""
    if not stat.S_ISREG(mode):
        raise ValueError(f"{path} is {file_kind(mode)}, not a regular file")


def open_regular_file(
    path: str | Path, *, max_bytes: int | None, what: str = "this file"
) -> BinaryIO:
    """Open the regular file ``path`` for reading in binary mode, refusing anything else.

    Args:
        path: The file.
        max_bytes: The largest size accepted; None for any (the caller bounds what it reads,
            as a reader of lines of bounded length does).
        what: What the file should be, for the size message (``"a game record"``).

    Returns:
        A binary stream positioned at the start (blocking reads, as a plain ``open``).

    Raises:
        ValueError: ``path`` is a directory, FIFO, device or socket, or is larger than
            ``max_bytes``; the message names the path.
        OSError: the file cannot be opened (missing, no permission...).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except IsADirectoryError:  # a system that will not open a directory: say what it is
        raise ValueError(f"{path} is a directory, not a regular file") from None
    try:
        info = os.fstat(descriptor)
        require_regular_file(path, info.st_mode)
        if max_bytes is not None and info.st_size > max_bytes:
            raise ValueError(_too_large(path, info.st_size, max_bytes, what))
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        return open(descriptor, "rb")  # the caller closes it
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(descriptor)
        raise


def read_regular_bytes(path: str | Path, *, max_bytes: int, what: str = "this file") -> bytes:
    """The content of the regular file ``path``: at most ``max_bytes`` bytes.

    Raises:
        ValueError: as :func:`open_regular_file`, or the file grew past ``max_bytes`` while
            it was read.
        OSError: the file cannot be opened or read.
    """
    with open_regular_file(path, max_bytes=max_bytes, what=what) as stream:
        # the size it has now, and one byte more to notice a file that grew: no buffer of
        # max_bytes is allocated for a small file
        wanted = os.fstat(stream.fileno()).st_size + 1
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = stream.read(min(wanted, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            wanted = _GROWTH_CHUNK
    if size > max_bytes:
        raise ValueError(_too_large(path, size, max_bytes, what))
    return b"".join(chunks)


def read_regular_text(path: str | Path, *, max_bytes: int, what: str = "this file") -> str:
    """The UTF-8 text of the regular file ``path`` (at most ``max_bytes`` bytes).

    Raises:
        ValueError: as :func:`read_regular_bytes`, or a byte that is not UTF-8 (the message
            names the line).
        OSError: the file cannot be opened or read.
    """
    return decode_utf8(read_regular_bytes(path, max_bytes=max_bytes, what=what), str(path))


def describe_file_error(path: str | Path, error: Exception) -> str:
    """``"PATH: what is wrong"`` for an error that reading ``path`` raised (an ``OSError`` or
    a ``ValueError`` of this module, whose message starts with the path)."""
    if isinstance(error, OSError) and error.strerror:
        return f"{path}: {error.strerror}"
    text = str(error)
    for start in (f"{path}: ", f"{path} "):
        text = text.removeprefix(start)
    return f"{path}: {text}"


def _too_large(path: str | Path, size: int, limit: int, what: str) -> str:
    return f"{path} has more than {limit:,} bytes ({size:,}): too large for {what}"


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
