"""Writing files atomically: a reader (or a run resumed after a kill or a full disk) sees the
old file or the new one whole, never a part.

The data goes into a temporary file in the same directory (so the rename stays on one file
system), is flushed to the disk with ``fsync``, and then replaces the target with
``os.replace``; the directory is synced too, so the rename survives a crash. If anything
fails (a full disk, an exception), the temporary file is removed and the target is left as
it was. A process killed (SIGKILL) between the two steps cannot remove it:
:func:`leftover_temporaries` finds such files, for the caller that writes that path again.

``durable=False`` skips the two ``fsync`` calls (each costs from a fraction of a
millisecond to 10 ms, by disk): a kill still leaves the old file or the new one whole, but
a power cut may lose the write or leave an empty file, so only a caller that checks its
files when it starts again (the arena's records) should use it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
from pathlib import Path

_NAME_KEPT = 200  # characters of the target's name in a temporary file's name


def write_bytes_atomically(path: str | Path, data: bytes, *, durable: bool = True) -> Path:
    """Replace the file ``path`` with ``data`` in one step (see the module docstring).

    Args:
        path: The file; its directory must exist.
        data: The whole new content.
        durable: Flush the file and the directory to the disk (``fsync``).

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
            if durable:
                os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if durable:
        _sync_directory(path.parent)
    return path


def write_text_atomically(
    path: str | Path, text: str, encoding: str = "utf-8", *, durable: bool = True
) -> Path:
    """:func:`write_bytes_atomically` of ``text`` encoded with ``encoding``.

    Raises:
        TypeError: ``text`` is not a str.
        OSError: the file cannot be written (``path`` unchanged).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return write_bytes_atomically(path, text.encode(encoding), durable=durable)


def leftover_temporaries(path: str | Path) -> list[Path]:
    """The temporary files that writes of ``path`` killed before their rename left beside
    it (safe to delete when no other process is writing ``path``)."""
    path = Path(path)
    pattern = f".{glob.escape(path.name[:_NAME_KEPT])}.{'[0-9a-f]' * 8}.tmp"
    return sorted(path.parent.glob(pattern))


def _create_temporary(path: Path) -> tuple[int, Path]:
    """A new file beside ``path`` (``.<name>.<random>.tmp``, created with the usual
    permissions: 0o666 less the umask) and its descriptor."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temporary = path.with_name(f".{path.name[:_NAME_KEPT]}.{secrets.token_hex(4)}.tmp")
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
