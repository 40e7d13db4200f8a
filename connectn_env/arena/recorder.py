"""``--record DIR``: one record per game of the tournament, written so that none is lost.

Game ``index`` of pairing ``a`` vs ``b`` is ``<game>-<a>-vs-<b>-<index>.json`` (and
``.sgf`` for Gomoku and Hex). Each file is written atomically (a temporary file, then a
rename), and before the game's results line: a run killed at any point, or stopped by a
full disk, leaves every game that has its results line with both files whole. Games
without a results line are played again on resume, and their records replaced. When a run
resumes, the record of every finished game is read back and written again from the
results file's moves if it is missing, damaged or not that game's
(:meth:`GameRecorder.repair`).

The files are not flushed to the disk one by one (``fsync``: 5 to 10 ms each on a slow
disk, which would cap the arena at a few dozen games a second): a kill cannot lose them,
and a record that a power cut lost or emptied is found and written again on resume like
any damaged one. A temporary file that a kill left is deleted when its record is written.
"""

from __future__ import annotations

from pathlib import Path

from connectn_env.arena.results import ArenaError, GameResult
from connectn_env.atomic_write import leftover_temporaries
from connectn_env.games.config import GameConfig
from connectn_env.records.filenames import stem_part
from connectn_env.records.files import load_record, write_record
from connectn_env.records.record import GameRecord
from connectn_env.records.sgf import SGF_GAMES

_LABEL_IN_FILE_NAME = 60  # characters of an agent label in a record's file name


def record_stem(game: GameConfig, result: GameResult) -> str:
    """``<game>-<agent>-vs-<agent>-<index>``: labels made safe for file names and cut
    (with a hash, so they stay distinct) when long."""
    a, b = (stem_part(label, _LABEL_IN_FILE_NAME) for label in result.pairing)
    return f"{game.name}-{a}-vs-{b}-{result.index:04d}"


class GameRecorder:
    """Writes and checks the records of one tournament's games in ``directory``.

    Args:
        directory: Where the records go (created at the first record).
        game: The tournament's game.
        seed: The tournament's base seed (kept in each record's ``meta``, with the pairing
            and the game number: what tells this tournament's records from others').
    """

    def __init__(self, directory: str | Path, game: GameConfig, seed: int) -> None:
        self.directory = Path(directory)
        self.game = game
        self.seed = seed
        self._suffixes = (".sgf", ".json") if game.name in SGF_GAMES else (".json",)

    def paths(self, result: GameResult) -> list[Path]:
        """The files of ``result``'s record (the SGF first, where the game has one)."""
        stem = record_stem(self.game, result)
        return [self.directory / f"{stem}{suffix}" for suffix in self._suffixes]

    def save(self, result: GameResult) -> None:
        """Write the record of ``result``, each file atomically, replacing an earlier
        record of this tournament's pairing (the same game played again after a kill, or
        a record in the wrong file) or a damaged file.

        Raises:
            ArenaError: the JSON file's name holds a valid record of another tournament's
                game (another seed or game): it is left alone.
            OSError: a file cannot be written (a full disk...); the files are as they were.
        """
        record = result.to_record(self.game, self.seed)
        *_, json_path = self.paths(result)
        try:
            existing = load_record(json_path)
        except (OSError, ValueError):  # none, or damaged: replaced
            existing = None
        if existing is not None and not self._same_tournament(existing, result):
            raise ArenaError(
                f"{json_path} holds the record of another tournament's game "
                f"({_described(existing)}), not of game {result.index} of "
                f"{' vs '.join(result.pairing)} with seed {self.seed}; use another --record "
                "directory"
            )
        self.directory.mkdir(parents=True, exist_ok=True)
        for path in self.paths(result):
            for leftover in leftover_temporaries(path):  # of a run killed while writing it
                leftover.unlink(missing_ok=True)
            write_record(record, path, durable=False)

    def is_intact(self, result: GameResult) -> bool:
        """Whether every file of the record of ``result`` is there, reads back (the moves
        replayed through the rules) and holds that game: the JSON file all of it, the SGF
        file its game, players, moves and result."""
        expected = result.to_record(self.game, self.seed)
        for path in self.paths(result):
            try:
                record = load_record(path)
            except (OSError, ValueError):
                return False
            if path.suffix == ".json" and record != expected:  # meta included
                return False
            if _essentials(record) != _essentials(expected):
                return False
        return True

    def repair(self, result: GameResult) -> bool:
        """Write the record of ``result`` again unless it is intact.

        Returns:
            True if it was written.
        """
        if self.is_intact(result):
            return False
        self.save(result)
        return True

    def _same_tournament(self, record: GameRecord, result: GameResult) -> bool:
        """Whether ``record`` is of a game of ``result``'s pairing in this tournament."""
        meta = record.meta
        return (
            record.game == self.game
            and meta.get("pairing") == list(result.pairing)
            and meta.get("seed") == self.seed
        )


def _essentials(record: GameRecord) -> tuple:
    """What both formats keep of a game."""
    return record.game, record.players, record.moves, record.result, record.reason


def _described(record: GameRecord) -> str:
    meta = record.meta
    where = f"pairing {meta.get('pairing')}, game {meta.get('index')}, seed {meta.get('seed')}"
    return f"{record.game.name}, {where}"
