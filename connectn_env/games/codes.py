"""The contract's outcome and status codes as plain ints, the form compiled kernels compare
with (:class:`~connectn_env.games.contract.Outcome` and
:class:`~connectn_env.games.contract.Status` are their named, typed form)."""

from __future__ import annotations

from connectn_env.games.contract import Outcome, Status

ONGOING = int(Outcome.ONGOING)
PLAYER_0_WINS = int(Outcome.PLAYER_0_WINS)
PLAYER_1_WINS = int(Outcome.PLAYER_1_WINS)
DRAW = int(Outcome.DRAW)

OK = int(Status.OK)
GAME_OVER = int(Status.GAME_OVER)
OUT_OF_RANGE = int(Status.OUT_OF_RANGE)
OCCUPIED = int(Status.OCCUPIED)
COLUMN_FULL = int(Status.COLUMN_FULL)
SWAP_NOT_ALLOWED = int(Status.SWAP_NOT_ALLOWED)
PASS_NOT_ALLOWED = int(Status.PASS_NOT_ALLOWED)
NO_FLIP = int(Status.NO_FLIP)
