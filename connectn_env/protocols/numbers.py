"""The one parser for every number a protocol peer sends (GTP, pbrain).

Python's ``int()`` accepts far more than a protocol allows: any Unicode digit (``"²"`` passes
``str.isdigit`` and then fails in ``int``), underscores, white space, and numbers so long
that the conversion itself raises (the int-string limit of 4,300 digits). A peer's number is
therefore read here, and only here: ASCII digits, at most :data:`MAX_DIGITS` of them, a
leading ``-`` only where the caller says the protocol allows one.
"""

from __future__ import annotations

from connectn_env.safetext import printable

MAX_DIGITS = 18  # every value fits in a signed 64-bit integer
_DIGITS = frozenset("0123456789")
_SHOWN = 20  # characters of a refused text quoted in the message


def parse_integer(text: str, *, signed: bool = False) -> int:
    """The integer written in ``text``.

    Args:
        text: One field of a command, already cut from its neighbours.
        signed: Whether a leading ``-`` is allowed.

    Raises:
        TypeError: ``text`` is not a str.
        ValueError: ``text`` is not 1 to :data:`MAX_DIGITS` ASCII digits (after the ``-``
            when ``signed``); the message quotes the start of ``text``.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_integer reads a str, got {type(text).__name__}")
    digits = text[1:] if signed and text.startswith("-") else text
    if not (0 < len(digits) <= MAX_DIGITS and _DIGITS.issuperset(digits)):
        shown = printable(text[:_SHOWN]) + ("..." if len(text) > _SHOWN else "")
        sign = ", with an optional leading '-'" if signed else ""
        raise ValueError(f"'{shown}' is not a number of 1 to {MAX_DIGITS} ASCII digits{sign}")
    return int(text)
