"""Argument checks shared by every public constructor: clear TypeError/ValueError messages."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np


def require_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int if it is an integer (not a bool) within [low, high].

    Raises:
        TypeError: ``value`` is not an integer (floats, strings, None and bools are refused).
        ValueError: ``value`` is outside [low, high].
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r} of type {type(value).__name__}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bounds}, got {value}")
    return value


def require_action(action: Any, num_actions: int, who: str = "") -> int:
    """Return ``action`` as an int if it is an integer in ``[0, num_actions)``.

    numpy integers and 0-d integer arrays are accepted; ``who`` names the mover in messages.

    Raises:
        TypeError: ``action`` is not an integer (None, float, str, bool...).
        ValueError: ``action`` is outside ``[0, num_actions)``.
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, numbers.Integral):
        mover = f" for {who}" if who else ""
        raise TypeError(
            f"action must be an int in [0, {num_actions}){mover}, got {action!r} "
            f"of type {type(action).__name__}"
        )
    action = int(action)
    if not 0 <= action < num_actions:
        raise ValueError(
            f"action {action} is outside the action space: actions are 0 to {num_actions - 1}"
        )
    return action


def require_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a bool (numpy bools accepted), else raise TypeError."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r} of type {type(value).__name__}")


def require_choice(name: str, value: Any, choices: tuple[Any, ...]) -> Any:
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing them."""
    if not isinstance(value, str | int) or value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def require_number(
    name: str, value: Any, low: float | None = None, *, strict_low: bool = False
) -> float:
    """Return ``value`` as a float if it is a finite real number >= low (> low if strict_low)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r} of type {type(value).__name__}")
    try:
        value = float(value)
    except OverflowError:  # an int past a float's range (its digits may be too many to show)
        raise ValueError(f"{name} must be finite, got a number too large for a float") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be finite, got {value}")
    if low is not None and (value < low or (strict_low and value == low)):
        relation = "greater than" if strict_low else "at least"
        raise ValueError(f"{name} must be {relation} {low}, got {value}")
    return value


def require_fraction(name: str, value: Any) -> float:
    """Return ``value`` as a float if it is a number from 0 to 1."""
    value = require_number(name, value, 0.0)
    if value > 1:
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return value
