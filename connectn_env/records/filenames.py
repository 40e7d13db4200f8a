"""Safe file names for records: only portable characters, bounded length, unique when cut."""

from __future__ import annotations

import hashlib
import re
from typing import Any

MAX_STEM_LENGTH = 200  # leaves room for "-<number>" and ".json" in a 255-byte file name
_UNSAFE = re.compile(r"[^A-Za-z0-9_.=+-]+")
_HASH_LENGTH = 10


def stem_part(text: str, limit: int = 60) -> str:
    """``text`` as part of a file name: runs of other characters than letters, digits and
    ``_.=+-`` become ``_``; longer than ``limit``, it is cut and a hash of the whole text
    appended (``mcts_simulations=...~3f2a9c01be``), so different long texts stay different.
    """
    safe = _UNSAFE.sub("_", text).strip(".") or "_"
    if len(safe) <= limit:
        return safe
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_LENGTH]
    return f"{safe[: limit - _HASH_LENGTH - 1]}~{digest}"


def check_stem(stem: Any) -> str:
    """``stem`` if it can name a file in a directory: a non-empty string of at most
    :data:`MAX_STEM_LENGTH` characters, no path separator or NUL, not ``.`` or ``..``.

    Raises:
        TypeError: not a string.
        ValueError: otherwise (the message says why).
    """
    if not isinstance(stem, str):
        raise TypeError(f"stem must be a str, got {type(stem).__name__}")
    if not stem or stem in (".", "..") or any(c in stem for c in "/\\\x00"):
        raise ValueError(f"stem must be a file name without a path or NUL, got {stem[:80]!r}")
    if len(stem) > MAX_STEM_LENGTH:
        raise ValueError(
            f"stem must be at most {MAX_STEM_LENGTH} characters, got {len(stem)}: {stem[:40]!r}..."
        )
    return stem
