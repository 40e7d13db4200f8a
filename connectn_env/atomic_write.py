"""Writing files atomically: a reader (or a run resumed after a kill or a full disk) sees the
old file or the new one whole, never a part.

The data goes into a temporary file in the same directory (so the rename stays on one file
system), is flushed to the disk with ``fsync``, and then replaces the target with
``os.replace``; the directory is synced too, so the rename survives a crash. If anything
fails (a full disk, a kill of the writing thread by an exception), the temporary file is
removed and the target is left as it was.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

__all__ = ["write_bytes_atomically", "write_text_atomically"]


def write_bytes_atomically(path: str | Path, data: bytes) -> Path:
    """Replace the file ``path`` with ``data`` in one step (see the module docstring).

    Args:
        path: The file; its directory must exist.
        data: The whole new content.

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        TypeError: ``data`` is not bytes.
        OSError: the file cannot be written (``path`` unchanged, no temporary file left).
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    path = Path(path)
    descriptor, temporary = _create_temporary(path)
    try:
        with open(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(path.parent)
    return path


def write_text_atomically(path: str | Path, text: str, encoding: str = "utf-8") -> Path:
    """:func:`write_bytes_atomically` of ``text`` encoded with ``encoding``.

    Raises:
        TypeError: ``text`` is not a str.
        OSError: the file cannot be written (``path`` unchanged).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return write_bytes_atomically(path, text.encode(encoding))


def _create_temporary(path: Path) -> tuple[int, Path]:
    """A new file beside ``path`` (``.<name>.<random>.tmp``, created with the usual
    permissions: 0o666 less the umask) and its descriptor."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temporary = path.with_name(f".{path.name[:200]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue


def _sync_directory(directory: Path) -> None:
    """Flush the directory entry of a rename to the disk (where the system allows it)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        descriptor = os.open(directory, flags)
    except OSError:  # Windows cannot open a directory
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
