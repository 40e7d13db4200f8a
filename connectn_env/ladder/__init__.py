"""The yardstick: a calibrated Elo ladder of reference agents per game, ``evaluate`` to put
any agent or policy on it, an SPRT A/B mode, and difficulty levels.

- :mod:`~connectn_env.ladder.games`, :mod:`~connectn_env.ladder.rungs`: which games have a
  ladder and their rungs.
- :mod:`~connectn_env.ladder.ladderfile`: the ladder as shipped data (checked on load).
- :mod:`~connectn_env.ladder.fit`: the ratings, held ratings, the calibration check.
- :mod:`~connectn_env.ladder.build`: ``connectn ladder build``.
- :mod:`~connectn_env.ladder.evaluation`: ``evaluate`` (``connectn evaluate``).
- :mod:`~connectn_env.ladder.sprt`: the A/B test (``connectn evaluate --vs --sprt``).
- :mod:`~connectn_env.ladder.levels`: levels for players.
- :mod:`~connectn_env.ladder.positions`, :mod:`~connectn_env.ladder.movequality`: Connect
  Four move quality on critical positions judged by the solver (``--positions``).
- :mod:`~connectn_env.ladder.openings`, :mod:`~connectn_env.ladder.openings_make`: opening
  suites (``connectn openings``), played in game pairs by the arena (``--openings``).

Games run through the arena's machinery (:mod:`connectn_env.arena`): its worker processes,
Ray pool and resumable results file.
"""

from connectn_env.ladder.build import build_ladder
from connectn_env.ladder.evaluation import Evaluation, RungScore, evaluate
from connectn_env.ladder.fit import CalibrationRow, Fit, calibration, fit_ratings
from connectn_env.ladder.games import LADDER_GAMES, ladder_key
from connectn_env.ladder.ladderfile import (
    Ladder,
    LadderRung,
    load_ladder,
    save_ladder,
    shipped_ladder,
)
from connectn_env.ladder.levels import level_rung, level_spec, levels, levels_key
from connectn_env.ladder.movequality import MoveQuality, move_quality
from connectn_env.ladder.rungs import Rung, ladder_rungs
from connectn_env.ladder.sprt import SPRTResult, sprt

__all__ = [
    "LADDER_GAMES",
    "CalibrationRow",
    "Evaluation",
    "Fit",
    "Ladder",
    "LadderRung",
    "MoveQuality",
    "Rung",
    "RungScore",
    "SPRTResult",
    "build_ladder",
    "calibration",
    "evaluate",
    "fit_ratings",
    "ladder_key",
    "ladder_rungs",
    "level_rung",
    "level_spec",
    "levels",
    "levels_key",
    "load_ladder",
    "move_quality",
    "save_ladder",
    "shipped_ladder",
    "sprt",
]
