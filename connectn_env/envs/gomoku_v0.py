"""Gomoku: five in a row on a 15 x 15 board, freestyle or standard (exactly five).

| Import             | ``from connectn_env import gomoku_v0``                                  |
|--------------------|-------------------------------------------------------------------------|
| Registry id        | ``connectn_env/gomoku-v0``                                              |
| Actions            | Discrete                                                                |
| Parallel API       | No                                                                      |
| Agents             | ``agents = ["player_0", "player_1"]`` (``player_0`` is black, first)   |
| Action shape       | ``(1,)``                                                                |
| Action values      | cell ``r * cols + c``, row 0 at the top: ``0 .. rows*cols-1``           |
| Observation shape  | ``{"observation": (rows, cols, 2), "action_mask": (rows*cols,)}``       |
| Observation values | int8 0/1: plane 0 own stones, plane 1 opponent stones; mask 1 = legal   |
| Rewards            | +1 win, -1 loss, 0 draw (full board), at the end of the game            |

Parameters: ``size`` (5 to 32, default 15) or ``rows``/``cols`` for a rectangular board
(1 to 32, the longer side at least 5), ``rule``: ``"freestyle"`` (five or more in a row
wins, default) or ``"standard"`` (exactly five wins, an overline of six or more does not,
as in Gomocup's standard rule), ``render_mode``.

``env()`` makes an illegal action lose (-1, game over); ``raw_env()`` raises
``IllegalActionError`` and leaves the env unchanged (``raw_env(illegal_action="lose")``
gives the classic convention without the order-enforcing wrapper). The position is
``env.unwrapped.game_state`` (planning interface).

Version history: v0, first release.
"""

from __future__ import annotations

from pettingzoo import AECEnv

from connectn_env.envs.base import BoardGameEnv, wrap_classic
from connectn_env.games import GomokuGame


class GomokuEnv(BoardGameEnv):
    """Gomoku AEC environment; see the module documentation."""

    metadata = {**BoardGameEnv.metadata, "name": "gomoku_v0"}

    def __init__(
        self,
        *,
        size: int = 15,
        rows: int | None = None,
        cols: int | None = None,
        rule: str = "freestyle",
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__(
            GomokuGame(size=size, rows=rows, cols=cols, rule=rule),
            render_mode=render_mode,
            illegal_action=illegal_action,
        )


raw_env = GomokuEnv


def env(**kwargs) -> AECEnv:
    """A wrapped Gomoku env (illegal moves lose); kwargs as for ``raw_env``
    (except ``illegal_action``)."""
    return wrap_classic(GomokuEnv(illegal_action="lose", **kwargs))
