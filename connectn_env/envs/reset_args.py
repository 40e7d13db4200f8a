"""Checks of ``reset(seed=..., options=...)`` shared by the AEC, single-agent and vector envs.

A seed is None or an integer in ``[0, 2**128)`` (numpy integers accepted; bools, floats,
strings and lists refused); options are None or a dict. The envs check them before changing
anything, so a refused call leaves the env as it was.

Seeds are used whole, never cut to 64 bits: numpy's ``SeedSequence`` (behind every generator
of the envs) takes all of a seed's bits, so ``2**64`` and ``0`` give different streams. Its
pool holds 128 bits, the bound: a larger seed is refused rather than hashed down (a
1,000,000-bit seed took 45 s to hash).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

SEED_LIMIT = 2**128  # seeds are below this: the 128 bits of numpy's SeedSequence pool
_SHOWN_BITS = 256  # larger ints are described, not written out (Python refuses to print huge ones)


def require_reset_seed(seed: Any, name: str = "seed") -> int | None:
    """``seed`` as an int in ``[0, SEED_LIMIT)`` (or None), used whole by the envs.

    Raises:
        TypeError: not None and not an integer (a bool, float, string, list...).
        ValueError: a negative integer, or one of 2**128 or more.
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
        raise ValueError(f"{name} must be None or an int >= 0, got {_shown(seed)}")
    if seed >= SEED_LIMIT:
        raise ValueError(
            f"{name} must be None or an int from 0 to 2**128 - 1 (the 128 bits a seed "
            f"generator takes whole), got {_shown(seed)}"
        )
    return seed


def _shown(value: int) -> str:
    """``value`` written out, or described by its size if it is too long to print."""
    if value.bit_length() <= _SHOWN_BITS:
        return str(value)
    sign = "-" if value < 0 else ""
    return f"{sign}an int of {value.bit_length()} bits"


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
