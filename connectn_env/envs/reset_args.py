"""Checks of ``reset(seed=..., options=...)`` shared by the AEC, single-agent and vector envs.

A seed is None or a non-negative integer (numpy integers accepted; bools, floats, strings
and lists refused); options are None or a dict. The envs check them before changing
anything, so a refused call leaves the env as it was.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["require_reset_options", "require_reset_seed"]


def require_reset_seed(seed: Any, name: str = "seed") -> int | None:
    """``seed`` as an int (or None).

    Raises:
        TypeError: not None and not an integer (a bool, float, string, list...).
        ValueError: a negative integer.
    """
    if seed is None:
        return None
    if isinstance(seed, np.ndarray) and seed.shape == () and seed.dtype.kind in "iu":
        seed = seed.item()
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be None or an int >= 0, got {seed!r} of type {type(seed).__name__}"
        )
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"{name} must be None or an int >= 0, got {seed}")
    return seed


def require_reset_options(options: Any) -> dict[str, Any]:
    """``options`` as a dict (None: an empty one).

    Raises:
        TypeError: neither None nor a dict.
    """
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(
            f"options must be None or a dict, got {options!r} of type {type(options).__name__}"
        )
    return options
