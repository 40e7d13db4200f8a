"""Gymnasium ids ``connectn_env/<Name>-v0`` and their entry points.

Registering is cheap: the env modules are imported only when an env is made.
``gym.make("connectn_env:connectn_env/ConnectFour-v0")`` imports the package (which
registers the ids) without a prior ``import connectn_env``.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from connectn_env.games import GAME_CLASSES, BoardGame
from connectn_env.registration import CONNECT_FOUR, NAMESPACE, TICTACTOE

# Keyword arguments of make_env that build the game; the others configure the env.
GAME_PARAMETERS: dict[str, tuple[str, ...]] = {
    "connect_n": ("rows", "cols", "n", "gravity"),
    "gomoku": ("size", "rows", "cols", "rule"),
    "hex": ("size", "rows", "cols", "swap"),
}

GYM_ENVS: dict[str, dict[str, Any]] = {
    f"{NAMESPACE}/ConnectFour-v0": {"game": "connect_n", **CONNECT_FOUR},
    f"{NAMESPACE}/TicTacToe-v0": {"game": "connect_n", **TICTACTOE},
    f"{NAMESPACE}/ConnectN-v0": {"game": "connect_n"},
    f"{NAMESPACE}/Gomoku-v0": {"game": "gomoku"},
    f"{NAMESPACE}/Hex-v0": {"game": "hex"},
}


def build_game(game: str | BoardGame, kwargs: dict[str, Any]) -> BoardGame:
    """Build the game named ``game`` from the game parameters in ``kwargs`` (removed from it).

    Args:
        game: ``"connect_n"``, ``"gomoku"``, ``"hex"``, or a ready
            :class:`~connectn_env.games.BoardGame` (then ``kwargs`` must hold no game
            parameters of any game).
        kwargs: Keyword arguments of an env factory; the game's parameters are popped.
    """
    if isinstance(game, BoardGame):
        given = sorted({p for names in GAME_PARAMETERS.values() for p in names} & kwargs.keys())
        if given:
            raise ValueError(f"game parameters {given} cannot be combined with a game object")
        return game
    if not isinstance(game, str) or game not in GAME_CLASSES:
        allowed = ", ".join(repr(name) for name in GAME_CLASSES)
        raise ValueError(f"game must be one of {allowed} or a BoardGame, got {game!r}")
    params = {k: kwargs.pop(k) for k in GAME_PARAMETERS[game] if k in kwargs}
    return GAME_CLASSES[game](**params)


def make_env(game: str | BoardGame = "connect_n", **kwargs: Any) -> gymnasium.Env:
    """Entry point of the single-agent ids: game parameters plus
    :class:`~connectn_env.gym.single_agent.BoardGameGymEnv` options."""
    from connectn_env.gym.single_agent import BoardGameGymEnv

    board_game = build_game(game, kwargs)
    return BoardGameGymEnv(board_game, **kwargs)


def make_vector_env(
    game: str | BoardGame = "connect_n", num_envs: int = 1, **kwargs: Any
) -> gymnasium.vector.VectorEnv:
    """Vector entry point of the ids: game parameters plus
    :class:`~connectn_env.gym.vector.BoardGameVectorEnv` options."""
    from connectn_env.gym.vector import BoardGameVectorEnv

    board_game = build_game(game, kwargs)
    return BoardGameVectorEnv(board_game, num_envs=num_envs, **kwargs)


def register_gym_envs() -> None:
    """Add the single-agent ids to Gymnasium's registry (idempotent)."""
    for env_id, kwargs in GYM_ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point=f"{__name__}:make_env",
                vector_entry_point=f"{__name__}:make_vector_env",
                kwargs=dict(kwargs),
            )


__all__ = [
    "GAME_PARAMETERS",
    "GYM_ENVS",
    "build_game",
    "make_env",
    "make_vector_env",
    "register_gym_envs",
]
