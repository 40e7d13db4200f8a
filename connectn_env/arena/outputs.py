"""The arena's output paths, checked before the first game is played.

A ``--json`` that names a directory or a ``--record`` that names a file would otherwise be
found out only when the games are over, with their results lost. Each path must be what
its option writes (a regular file, or a directory) if it exists, and otherwise its nearest
existing folder must be a directory that takes a new file: one is created there and removed
at once (``os.access`` says yes to root everywhere, and ``/proc`` takes no file). Nothing is
left here.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from connectn_env.arena.results import ArenaError
from connectn_env.safe_files import file_kind
from connectn_env.same_file import check_outputs


def check_output_file(
    path: str | Path, option: str, what: str = "a file", *, replaced: bool = False
) -> Path:
    """``path`` as a Path if ``option`` can write a file there.

    Args:
        path: The file.
        option: The option that names it, for the message (``"--json"``).
        what: The file it writes, for the message (``"a results file"``).
        replaced: The file is written atomically (a temporary file beside it, renamed over
            it), so its folder must take a new file even if the file exists.

    Raises:
        ArenaError: ``path`` exists and is not a regular file (a directory, FIFO, device),
            is not writable, or its folder cannot hold a new file; the message names the
            option, the path and what is wrong.
    """
    path = Path(path)
    mode = _mode(path, option)
    if mode is not None and not stat.S_ISREG(mode):
        raise ArenaError(f"{path} is {file_kind(mode)}, not a regular file; {option} needs {what}")
    if mode is not None and not os.access(path, os.W_OK):
        raise ArenaError(f"{option} {path} is not writable")
    if mode is None or replaced:
        _check_folder(path.parent, path, option)
    return path


def check_output_directory(path: str | Path, option: str) -> Path:
    """``path`` as a Path if ``option`` can write files into a directory there (existing,
    or created with its parents at the first write).

    Raises:
        ArenaError: ``path`` exists and is not a directory, or cannot be written in or
            created; the message names the option, the path and what is wrong.
    """
    path = Path(path)
    mode = _mode(path, option)
    if mode is None:
        _check_folder(path.parent, path, option)
    elif not stat.S_ISDIR(mode):
        raise ArenaError(
            f"{path} is {file_kind(mode)}, not a directory; {option} needs a directory"
        )
    else:
        _check_new_file(path, path, option)
    return path


def check_separate_files(first: tuple[str, Path | None], second: tuple[str, Path | None]) -> None:
    """Two file options (``("--out", path)``, ``("--json", path)``) must not name one file.

    Raises:
        ArenaError: they do (links, hard links and ``..`` followed: :func:`same_file`).
    """
    try:
        check_outputs([first, second])
    except ValueError as error:
        raise ArenaError(str(error)) from None


def _check_folder(folder: Path, path: Path, option: str) -> None:
    """The nearest existing folder of ``path`` must be a directory that takes a new file."""
    while True:
        mode = _mode(folder, option)
        if mode is not None:
            break
        if folder.parent == folder:
            raise ArenaError(f"{option} {path}: no folder of it exists")
        folder = folder.parent
    if not stat.S_ISDIR(mode):
        raise ArenaError(f"{option} {path}: {folder} is {file_kind(mode)}, not a directory")
    _check_new_file(folder, path, option)


def _check_new_file(folder: Path, path: Path, option: str) -> None:
    """``folder`` must take a new file: one is created there and removed."""
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".connectn-probe-", dir=folder)
    except OSError as error:
        reason = error.strerror or str(error)
        raise ArenaError(f"{option} {path}: cannot create a file in {folder} ({reason})") from None
    os.close(descriptor)
    os.unlink(probe)


def _mode(path: Path, option: str) -> int | None:
    """``st_mode`` of ``path`` (links followed), None if nothing is there."""
    try:
        return os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):  # nothing there, or a file on the way
        return None
    except OSError as error:  # a name too long, a loop of links, no permission...
        raise ArenaError(f"{option} {path}: {error.strerror or error}") from None
