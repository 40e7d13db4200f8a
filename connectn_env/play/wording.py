"""Words shared by the window and the terminal."""

from __future__ import annotations


def counted(number: int, noun: str) -> str:
    """``"1 simulation"``, ``"1,234 simulations"``: ``number`` and ``noun``, plural unless
    ``number`` is 1."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def forced(proven: str, mover: str) -> str:
    """``"a forced win for you"``, ``"a forced draw"``: a result a search proved
    (``"win"``, ``"loss"`` or ``"draw"``) for ``mover``."""
    return "a forced draw" if proven == "draw" else f"a forced {proven} for {mover}"
