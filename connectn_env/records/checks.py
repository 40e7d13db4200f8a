"""Checks of a record's fields and of JSON structure, with messages that name the value.

Records are files that people exchange: every field is checked for its type and range,
nesting is bounded (:data:`MAX_NESTING` levels, checked without recursion), and moves are
integers inside the action space before any of them reaches the compiled rules.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable
from typing import Any

import numpy as np

MAX_NESTING = 32  # levels of JSON arrays/objects in a record file (and in meta)
MAX_DATE_LENGTH = 64
REASONS = ("", "resign", "forfeit", "timeout")
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def check_json_nesting(text: str, where: str, limit: int = MAX_NESTING) -> None:
    """Refuse JSON text nested deeper than ``limit`` arrays/objects (before parsing it,
    since Python's parser recurses).

    Raises:
        ValueError: too deep; the message names ``where`` and the line.
    """
    skeleton = _JSON_STRING.sub("", text).encode("utf-8", "surrogatepass")
    codes = np.frombuffer(skeleton, dtype=np.uint8)
    steps = np.zeros(len(codes), dtype=np.int8)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    depth = np.cumsum(steps, dtype=np.int32)
    if depth.size and int(depth.max()) > limit:
        at = int(np.argmax(depth > limit))
        line = 1 + skeleton.count(b"\n", 0, at)
        raise ValueError(f"{where} line {line}: JSON nested deeper than {limit} levels")


def check_json_value(value: Any, name: str, limit: int = MAX_NESTING) -> None:
    """``value`` must be JSON data (dicts with str keys, lists, str, int, finite float, bool,
    None) nested at most ``limit`` levels; checked without recursion.

    Raises:
        ValueError: too deep, or a non-finite float.
        TypeError: a value JSON cannot hold.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth > limit:
                raise ValueError(f"{name} is nested deeper than {limit} levels")
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise TypeError(f"{name} keys must be strings, got {key!r}")
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ValueError(f"{name} holds {item!r}; only finite numbers are allowed")
        elif not (item is None or isinstance(item, str | int)):  # bool is an int
            raise TypeError(
                f"{name} holds {type(item).__name__} value {short_repr(item)}; JSON data only "
                "(dicts, lists, strings, numbers, true/false, null)"
            )


def check_moves(moves: Any, num_actions: int) -> tuple[int, ...]:
    """``moves`` as a tuple of ints, each in ``[0, num_actions)`` (numpy integers accepted).

    Raises:
        TypeError: ``moves`` is not a sequence of integers (a float such as 1.7 is refused,
            not cut).
        ValueError: a move outside the action space (named with its number).
    """
    if (
        isinstance(moves, str | bytes | dict)
        or not isinstance(moves, Iterable)
        or (isinstance(moves, np.ndarray) and moves.ndim != 1)
    ):
        raise TypeError(f"moves must be a list of integer actions, got {short_repr(moves)}")
    checked = []
    for number, action in enumerate(moves, start=1):
        if type(action) is int and 0 <= action < num_actions:  # the common case, fast
            checked.append(action)
            continue
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise TypeError(
                f"move {number}: an action must be an int, got {short_repr(action)} of type "
                f"{type(action).__name__}"
            )
        action = int(action)
        if not 0 <= action < num_actions:
            raise ValueError(
                f"move {number}: action {short_repr(action)} is outside the action space: actions "
                f"are 0 to {num_actions - 1}"
            )
        checked.append(action)
    return tuple(checked)


def check_reason(reason: Any) -> str:
    """``reason`` if it is one of :data:`REASONS`."""
    if not isinstance(reason, str) or reason not in REASONS:
        allowed = ", ".join(repr(r) for r in REASONS)
        raise ValueError(f"reason must be one of {allowed}, got {short_repr(reason)}")
    return reason


def check_date(date: Any) -> str:
    """``date`` if it is a string of at most :data:`MAX_DATE_LENGTH` characters."""
    if not isinstance(date, str):
        kind = type(date).__name__
        raise TypeError(f"date must be a string, got {short_repr(date)} of type {kind}")
    if len(date) > MAX_DATE_LENGTH:
        raise ValueError(
            f"date must be at most {MAX_DATE_LENGTH} characters, got {len(date)}: "
            f"{short_repr(date)}"
        )
    return date


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (huge integers are described, not
    written out), for error messages."""
    if isinstance(value, int) and value.bit_length() > 256:  # also beyond int-to-str limits
        return f"an integer of about {round(value.bit_length() * math.log10(2))} digits"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
