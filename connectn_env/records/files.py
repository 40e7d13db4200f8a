"""Record files: write one (``.json`` or ``.sgf``), save a finished game, load one back.

The one module that knows both formats (:mod:`~connectn_env.records.record` for JSON,
:mod:`~connectn_env.records.sgf` for SGF), so neither imports the other.
"""

from __future__ import annotations

import json
from pathlib import Path

from connectn_env.atomic_write import write_text_atomically
from connectn_env.records.checks import check_json_nesting
from connectn_env.records.filenames import MAX_STEM_LENGTH, check_stem, stem_part
from connectn_env.records.record import GameRecord, json_text, record_from_json, record_to_json
from connectn_env.records.sgf import SGF_GAMES, record_from_sgf, record_to_sgf
from connectn_env.records.textfile import read_record_file


def write_record(record: GameRecord, path: str | Path, *, durable: bool = True) -> Path:
    """Write one file atomically (a temporary file, then a rename: a kill or a full disk
    leaves the old file or none, never a part); the format follows the suffix: ``.json``
    or ``.sgf`` (Gomoku, Hex). ``durable=False``: no ``fsync`` (see
    :mod:`connectn_env.atomic_write`).

    Raises:
        ValueError: an unknown suffix, or SGF for a game SGF does not cover.
        OSError: the file cannot be written.
    """
    path = Path(path)
    if path.suffix == ".json":
        text = json_text(record_to_json(record))
    elif path.suffix == ".sgf":
        text = record_to_sgf(record)
    else:
        raise ValueError(f"unknown record format {path.suffix!r} for {path}; use .json or .sgf")
    return write_text_atomically(path, text, durable=durable)


def save_record(
    record: GameRecord, directory: str | Path, *, stem: str | None = None
) -> list[Path]:
    """Save a finished game into ``directory``: JSON always, SGF too for Gomoku and Hex.

    Args:
        record: The game.
        directory: Created if missing.
        stem: File name without suffix (no path; at most 200 characters); default
            ``<game>-<date>``; a number is appended rather than overwrite an existing file.

    Returns:
        The paths written.

    Raises:
        TypeError, ValueError: not a record, or a stem that is not a plain file name.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"record must be a GameRecord, got {record!r}")
    if stem is None:
        date = record.date.replace(":", "").replace("+0000", "Z")
        stem = stem_part(f"{record.game.name}-{date}", MAX_STEM_LENGTH)
    base = check_stem(stem)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    suffixes = [".json", ".sgf"] if record.game.name in SGF_GAMES else [".json"]
    number = 1
    while any((directory / f"{stem}{s}").exists() for s in suffixes):
        number += 1
        stem = f"{base}-{number}"
    return [write_record(record, directory / f"{stem}{s}") for s in suffixes]


def load_record(path: str | Path) -> GameRecord:
    """Read a ``.json`` or ``.sgf`` record (other suffixes: sniffed from the first character).

    Only regular files of at most 10 MiB are read (not devices or FIFOs); JSON nested deeper
    than 32 levels is refused; the moves are replayed through the rules.

    Raises:
        ValueError: the file is malformed; the message names the file and the line,
            key or property at fault.
        OSError: the file cannot be read.
    """
    path = Path(path)
    text = read_record_file(path)
    kind = path.suffix if path.suffix in (".json", ".sgf") else None
    if kind is None:
        kind = ".sgf" if text.lstrip("\ufeff \t\r\n").startswith("(") else ".json"
    if kind == ".sgf":
        return record_from_sgf(text, where=str(path))
    check_json_nesting(text, str(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} line {error.lineno}: invalid JSON: {error.msg}") from None
    except (ValueError, RecursionError) as error:  # e.g. an integer of 5,000 digits
        raise ValueError(f"{path}: invalid JSON: {error}") from None
    return record_from_json(data, where=str(path))
