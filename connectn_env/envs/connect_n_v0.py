"""Connect-N: Connect Four, tic-tac-toe and every m,n,k-game, with or without gravity.

| Import             | ``from connectn_env import connect_n_v0``                               |
|--------------------|-------------------------------------------------------------------------|
| Registry ids       | ``connectn_env/connect_n-v0``, ``connectn_env/connect_four-v0``,        |
|                    | ``connectn_env/tictactoe-v0``                                           |
| Actions            | Discrete                                                                |
| Parallel API       | No                                                                      |
| Agents             | ``agents = ["player_0", "player_1"]`` (``player_0`` moves first)       |
| Action shape       | ``(1,)``                                                                |
| Action values      | gravity: column ``0 .. cols-1``; otherwise cell ``r * cols + c``        |
| Observation shape  | ``{"observation": (rows, cols, 2), "action_mask": (num_actions,)}``     |
| Observation values | int8 0/1: plane 0 own stones, plane 1 opponent stones; mask 1 = legal   |
| Rewards            | +1 win, -1 loss, 0 draw, at the end of the game                         |

Parameters: ``rows`` and ``cols`` (1 to 32, default 6 x 7), ``n`` stones in a row to win
(1 to max(rows, cols), default 4; larger values are rejected since no game could be won),
``gravity`` (default True: stones drop down the chosen column), ``render_mode``
(``"human"``, ``"rgb_array"``, ``"ansi"`` or None). Row 0 is the top row. A full board
without a line is a draw.

``env()`` follows PettingZoo's classic convention for an illegal (masked-out) action: the
mover gets -1 and the game ends. ``raw_env()`` raises ``IllegalActionError`` instead and
leaves the env unchanged. Actions outside the action space raise ``ValueError`` (out of
range) or ``TypeError`` (not an integer) in both.

The position is ``env.unwrapped.game_state``: a ``GameState`` with OpenSpiel's planning
interface, which search agents clone.

Version history: v0, first release.
"""

from __future__ import annotations

from pettingzoo import AECEnv

from connectn_env.envs.base import BoardGameEnv, wrap_classic
from connectn_env.games import ConnectNGame


class ConnectNEnv(BoardGameEnv):
    """Connect-N AEC environment; see the module documentation."""

    metadata = {**BoardGameEnv.metadata, "name": "connect_n_v0"}

    def __init__(
        self,
        *,
        rows: int = 6,
        cols: int = 7,
        n: int = 4,
        gravity: bool = True,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__(
            ConnectNGame(rows=rows, cols=cols, n=n, gravity=gravity),
            render_mode=render_mode,
            illegal_action=illegal_action,
        )


raw_env = ConnectNEnv


def env(**kwargs) -> AECEnv:
    """A wrapped Connect-N env (illegal moves lose); kwargs as for ``raw_env``
    (except ``illegal_action``)."""
    return wrap_classic(ConnectNEnv(illegal_action="lose", **kwargs))
