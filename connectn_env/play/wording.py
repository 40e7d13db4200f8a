"""Words shared by the window and the terminal."""

from __future__ import annotations

__all__ = ["counted"]


def counted(number: int, noun: str) -> str:
    """``"1 simulation"``, ``"1,234 simulations"``: ``number`` and ``noun``, plural unless
    ``number`` is 1."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
