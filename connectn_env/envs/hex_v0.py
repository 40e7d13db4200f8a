"""Hex on an 11 x 11 rhombus (any size), with an optional swap (pie) rule.

| Import             | ``from connectn_env import hex_v0``                                     |
|--------------------|-------------------------------------------------------------------------|
| Registry id        | ``connectn_env/hex-v0``                                                 |
| Actions            | Discrete                                                                |
| Parallel API       | No                                                                      |
| Agents             | ``agents = ["player_0", "player_1"]`` (``player_0`` first, top-bottom) |
| Action shape       | ``(1,)``                                                                |
| Action values      | cell ``r * cols + c`` (row 0 at the top); with swap also ``rows*cols`` |
| Observation shape  | ``{"observation": (rows, cols, 2), "action_mask": (num_actions,)}``     |
| Observation values | int8 0/1: plane 0 own stones, plane 1 opponent stones; mask 1 = legal   |
| Rewards            | +1 win, -1 loss, at the end of the game (Hex has no draws)              |

The grid is OpenSpiel's: cell (r, c) touches (r, c+-1), (r+-1, c), (r-1, c+1) and
(r+1, c-1). ``player_0`` connects the top and bottom rows, ``player_1`` the left and
right columns.

Parameters: ``size`` (1 to 32, default 11) or ``rows``/``cols`` for a rectangular board,
``swap`` (square boards only): action ``rows * cols`` is legal as player_1's first move
and replaces player_0's stone at (r, c) by a player_1 stone at (c, r), then player_0
moves (OpenSpiel's semantics), ``render_mode``.

``env()`` makes an illegal action lose (-1, game over); ``raw_env()`` raises
``IllegalActionError`` and leaves the env unchanged (``raw_env(illegal_action="lose")``
gives the classic convention without the order-enforcing wrapper). The position is
``env.unwrapped.game_state`` (planning interface).

Version history: v0, first release.
"""

from __future__ import annotations

from pettingzoo import AECEnv

from connectn_env.envs.base import BoardGameEnv, wrap_classic
from connectn_env.games import HexGame


class HexEnv(BoardGameEnv):
    """Hex AEC environment; see the module documentation."""

    metadata = {**BoardGameEnv.metadata, "name": "hex_v0"}

    def __init__(
        self,
        *,
        size: int = 11,
        rows: int | None = None,
        cols: int | None = None,
        swap: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__(
            HexGame(size=size, rows=rows, cols=cols, swap=swap),
            render_mode=render_mode,
            illegal_action=illegal_action,
        )


raw_env = HexEnv


def env(**kwargs) -> AECEnv:
    """A wrapped Hex env (illegal moves lose); kwargs as for ``raw_env``
    (except ``illegal_action``)."""
    return wrap_classic(HexEnv(illegal_action="lose", **kwargs))
