"""The tournament's finished games on disk, read back only when asked for.

The arena's parent does not keep its games in memory (about 1 kB each with their moves):
each one is appended to an unnamed temporary file as a JSON line, and
:class:`StoredResults` reads them back, in plan order, when ``TournamentResult.results`` is
used. The printed tables come from a :class:`~connectn_env.arena.stats.Tally` instead.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any, overload

from connectn_env.arena.results import GameResult


class StoredResults(Sequence[GameResult]):
    """A sequence of finished games kept in a temporary file (deleted when this object is).

    Iterating, indexing or comparing reads the whole file back and sorts it in plan order
    (pairings in command-line order, then game number); :meth:`unordered` streams it in
    the order the games were added, one at a time.

    Args:
        labels: The agents in command-line order (for the plan order).
    """

    def __init__(self, labels: Sequence[str]) -> None:
        self._position = {label: i for i, label in enumerate(labels)}
        # Open as long as this object lives: the file has no name and goes with it.
        self._file = tempfile.TemporaryFile(mode="w+b", prefix="connectn-arena-")  # noqa: SIM115
        self._count = 0

    def append(self, result: GameResult) -> None:
        """Add one finished game (written at once; nothing of it is kept in memory)."""
        self._file.seek(0, 2)
        self._file.write(json.dumps(result.to_json()).encode("utf-8") + b"\n")
        self._count += 1

    def unordered(self) -> Iterator[GameResult]:
        """The games in the order they were added, read one at a time."""
        self._file.flush()
        self._file.seek(0)
        for _ in range(self._count):
            yield GameResult.from_json(json.loads(self._file.readline()))

    def _ordered(self) -> list[GameResult]:
        def plan_order(result: GameResult) -> tuple[int, int, int]:
            a, b = result.pairing
            return self._position[a], self._position[b], result.index

        return sorted(self.unordered(), key=plan_order)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[GameResult]:
        return iter(self._ordered())

    @overload
    def __getitem__(self, index: int) -> GameResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[GameResult, ...]: ...

    def __getitem__(self, index: int | slice) -> GameResult | tuple[GameResult, ...]:
        if isinstance(index, slice):
            return tuple(self._ordered()[index])
        return self._ordered()[index]

    def __eq__(self, other: Any) -> bool:
        """Equal to any sequence of the same games in the same order (a tuple, say)."""
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<StoredResults: {self._count} games in a temporary file>"

    def close(self) -> None:
        """Delete the file now (the games cannot be read after this)."""
        self._file.close()
