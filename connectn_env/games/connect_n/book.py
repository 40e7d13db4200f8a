"""Connect Four's opening book: the perfect move of early positions, made by the solver.

The book holds, for each position it covers, the best move by the solver's scores (the
fastest win, the slowest loss, else a draw-keeping move: :meth:`Connect4Solver.best_move`,
ties to the column nearest the centre, the left one first) and its score (Pons' convention,
for the player to move). A position and its mirror image share one entry, stored for the
smaller of their two keys (``current + mask``, Pons' position key).

File format (little-endian): the 8-byte magic ``b"C4BOOK1\\n"``; the SHA-256 (32 bytes) of
everything after it; a 4-byte length and that many bytes of UTF-8 JSON (rows, cols, entry
count, coverage, how it was built); then the entries, sorted by key, 10 bytes each: the key
(uint64), the move (uint8, a 0-based column of the canonical orientation) and the score
(int8). :func:`load_book` checks all of it and refuses a damaged file by name.

This module only reads books (through :mod:`connectn_env.safe_files`, like every file the
suite reads); :mod:`connectn_env.ladder.book_build` builds and writes them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import struct
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from connectn_env.games.connect_n.solver import _mirror
from connectn_env.safe_files import describe_file_error, read_regular_bytes

BOOK_ROWS, BOOK_COLS = 6, 7
MAGIC = b"C4BOOK1\n"
ENTRY = np.dtype([("key", "<u8"), ("move", "u1"), ("score", "i1")])
MAX_BOOK_BYTES = 1 << 26  # 64 MiB: millions of entries, far beyond any book built


def position_bits(moves: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """``(current, mask)`` bitboards of Connect Four 6 x 7 after ``moves`` (0-based columns;
    not checked: the book's own positions)."""
    height = BOOK_ROWS + 1
    heights = [0] * BOOK_COLS
    current = mask = 0
    for column in moves:
        current ^= mask  # the stones of the player to move after this one
        mask |= 1 << (column * height + heights[column])
        heights[column] += 1
    return current, mask


def canonical_key(current: int, mask: int) -> tuple[int, bool]:
    """``(key, mirrored)``: the smaller of the position's key and its mirror image's, and
    whether that is the mirror image's."""
    key = current + mask
    mirrored = _mirror(current, BOOK_ROWS, BOOK_COLS) + _mirror(mask, BOOK_ROWS, BOOK_COLS)
    return (mirrored, True) if mirrored < key else (key, False)


def key_position(key: int) -> tuple[int, int]:
    """``(current, mask)`` of a position key (``current + mask``: each column's key bits plus
    one have their top bit just above the column's stones)."""
    height = BOOK_ROWS + 1
    current = mask = 0
    for column in range(BOOK_COLS):
        bits = ((key >> (column * height)) & ((1 << height) - 1)) + 1
        top = bits.bit_length() - 1  # stones in the column
        mask |= ((1 << top) - 1) << (column * height)
        current |= (bits - (1 << top)) << (column * height)
    return current, mask


class OpeningBook:
    """A checked, loaded opening book (see the module docstring).

    Args:
        entries: The entries (:data:`ENTRY`), sorted by key, keys unique.
        info: The file's JSON block (coverage and provenance).
    """

    def __init__(self, entries: np.ndarray, info: dict[str, Any]) -> None:
        self.entries = entries
        self.info = info

    def __len__(self) -> int:
        return len(self.entries)

    def best(self, current: int, mask: int) -> tuple[int, int] | None:
        """``(column, score)`` of the position (bitboards of the player to move and of every
        stone), or None if the book does not hold it."""
        key, mirrored = canonical_key(current, mask)
        index = int(np.searchsorted(self.entries["key"], np.uint64(key)))
        if index == len(self.entries) or int(self.entries["key"][index]) != key:
            return None
        column = int(self.entries["move"][index])
        return (BOOK_COLS - 1 - column if mirrored else column), int(self.entries["score"][index])

    def best_after(self, moves: list[int] | tuple[int, ...]) -> tuple[int, int] | None:
        """:meth:`best` of the position after ``moves`` (0-based columns)."""
        return self.best(*position_bits(moves))

    def to_bytes(self) -> bytes:
        """The file's bytes (the JSON block's ``entries`` is the number of entries)."""
        info = json.dumps({**self.info, "entries": len(self.entries)}, sort_keys=True).encode()
        body = struct.pack("<I", len(info)) + info + self.entries.tobytes()
        return MAGIC + hashlib.sha256(body).digest() + body

    @classmethod
    def from_bytes(cls, data: bytes, name: str) -> OpeningBook:
        """The book in ``data`` (read from ``name``, for messages), checked.

        Raises:
            ValueError: a damaged file, or a book of another board, naming ``name``.
        """
        if data[: len(MAGIC)] != MAGIC:
            raise ValueError(f"{name} is not a Connect Four opening book (bad magic bytes)")
        digest, body = data[len(MAGIC) : len(MAGIC) + 32], data[len(MAGIC) + 32 :]
        if hashlib.sha256(body).digest() != digest or len(body) < 4:
            raise ValueError(f"{name} is damaged: its SHA-256 checksum does not match")
        (length,) = struct.unpack("<I", body[:4])
        try:
            info = json.loads(body[4 : 4 + length])
            rows, cols = info["rows"], info["cols"]
        except (ValueError, KeyError, TypeError, RecursionError):  # deep nesting too
            raise ValueError(f"{name} is damaged: its JSON block cannot be read") from None
        if (rows, cols) != (BOOK_ROWS, BOOK_COLS):
            raise ValueError(f"{name} is a book of {rows} x {cols}, not Connect Four 6 x 7")
        raw = body[4 + length :]
        if len(raw) % ENTRY.itemsize or len(raw) // ENTRY.itemsize != info.get("entries"):
            raise ValueError(f"{name} is damaged: its entries do not match the count it states")
        entries = np.frombuffer(raw, dtype=ENTRY)
        keys = entries["key"]
        if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise ValueError(f"{name} is damaged: its keys are not sorted and unique")
        if bool(np.any(entries["move"] >= BOOK_COLS)):
            raise ValueError(f"{name} is damaged: a move is not a column")
        return cls(entries, info)


def shipped_book_path() -> Path:
    """The path of the book shipped with the package."""
    return Path(str(resources.files("connectn_env.games.connect_n") / "data" / "connect4_book.bin"))


def read_book(path: str | Path) -> OpeningBook:
    """The opening book at ``path``, read now (a regular file of at most 64 MiB) and checked.

    Raises:
        ValueError: a damaged file, a book of another board, not a regular file (a FIFO, a
            directory...), or a file that cannot be read (missing, no permission...), naming
            the file.
    """
    try:
        data = read_regular_bytes(path, max_bytes=MAX_BOOK_BYTES, what="an opening book")
    except OSError as error:
        raise ValueError(
            f"cannot read the opening book {describe_file_error(path, error)}: the book must "
            "be an existing opening book file"
        ) from None
    return OpeningBook.from_bytes(data, str(path))


@functools.lru_cache(maxsize=4)
def load_book(path: str | Path | None = None) -> OpeningBook:
    """The opening book at ``path`` (None: the shipped one), checked; cached per path
    (:func:`read_book` reads it anew).

    Raises:
        ValueError: as :func:`read_book`.
    """
    return read_book(Path(path) if path is not None else shipped_book_path())
