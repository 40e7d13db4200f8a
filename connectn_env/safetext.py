"""Text from files and agents made safe to print: control characters are escaped.

Player names, comments and error messages come from record files that people exchange and
from agents' code. Printed raw, ``"\\x1b[2J"`` would clear the terminal and ``"\\x1b]0;..."``
retitle it; bidirectional overrides (U+202E) would reorder what is shown. :func:`printable`
writes every such character as a visible escape (``\\x1b``, ``\\u202e``).
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, and the Unicode bidirectional controls.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_KEEP_NEWLINES = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{_BIDI}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with control characters written as escapes (``"\\x1b"`` -> ``"\\\\x1b"``).

    Args:
        text: Any string (anything else is converted with ``str``).
        newlines: Keep ``"\\n"`` as a line break (for messages of several lines); by
            default it is escaped too, for one-line fields such as names.
    """
    if not isinstance(text, str):
        text = str(text)
    pattern = _UNSAFE_KEEP_NEWLINES if newlines else _UNSAFE
    return pattern.sub(_escape, text)
