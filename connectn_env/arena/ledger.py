"""What the arena's parent does with each finished game, and all it keeps of it.

A game played by this run is recorded first (``--record``, each file atomic), then gets its
results line (``--out``), then goes to the :class:`~connectn_env.arena.spool.StoredResults`
file and is counted in the :class:`~connectn_env.arena.stats.Tally`. In that order a kill or
a full disk at any point leaves every game that has a results line with its record whole;
a game without one is played again on resume. A game read back from the results file on
resume is counted and stored the same way, and its record is written again if it is
missing or damaged (its moves are in the results line).

The parent's memory does not grow with the games: the tally holds a few counts per pairing
(``tests/test_arena_memory.py`` measures the growth per game).
"""

from __future__ import annotations

from collections.abc import Sequence

from connectn_env.arena.recorder import GameRecorder
from connectn_env.arena.results import GameResult, ResultsFile
from connectn_env.arena.spool import StoredResults
from connectn_env.arena.stats import Tally


class Ledger:
    """The finished games of one tournament run.

    Args:
        labels: The agents in command-line order.
        store: The results file (``--out``), or None.
        recorder: Writes the records (``--record``), or None.

    Attributes:
        tally: The counts of every game added.
        results: Every game added, on disk.
        played: Games added by :meth:`add` (played by this run).
        rerecorded: Records written again by :meth:`resume`.
    """

    def __init__(
        self,
        labels: Sequence[str],
        *,
        store: ResultsFile | None = None,
        recorder: GameRecorder | None = None,
    ) -> None:
        self.tally = Tally(labels)
        self.results = StoredResults(labels)
        self.store = store
        self.recorder = recorder
        self.played = 0
        self.rerecorded = 0

    def add(self, result: GameResult) -> None:
        """A game this run played: record, results line, then counted and stored."""
        if self.recorder is not None:
            self.recorder.save(result)
        if self.store is not None:
            self.store.add(result)
        self._keep(result)
        self.played += 1

    def resume(self, result: GameResult) -> None:
        """A game of the results file: its record written again unless intact, then
        counted and stored."""
        if self.recorder is not None and self.recorder.repair(result):
            self.rerecorded += 1
        self._keep(result)

    def _keep(self, result: GameResult) -> None:
        self.tally.add(result)
        self.results.append(result)
