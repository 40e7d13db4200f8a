"""Game records: JSON for every game, SGF for Gomoku (GM[4]) and Hex (GM[11], HexGui's style).

``save_record(record, directory)`` writes a finished game; ``load_record(path)`` reads a
``.json`` or ``.sgf`` file back (HexGui's files included) as a :class:`GameRecord`, whose
``replay_states()`` gives every position for a viewer.
"""

from connectn_env.games.config import GAME_NAMES, GameConfig
from connectn_env.records.files import load_record, save_record, write_record
from connectn_env.records.record import RESULTS, GameRecord, record_from_json, record_to_json
from connectn_env.records.sgf import record_from_sgf, record_to_sgf

__all__ = [
    "GAME_NAMES",
    "RESULTS",
    "GameConfig",
    "GameRecord",
    "load_record",
    "record_from_json",
    "record_from_sgf",
    "record_to_json",
    "record_to_sgf",
    "save_record",
    "write_record",
]
