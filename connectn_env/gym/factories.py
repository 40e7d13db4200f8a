"""Entry points of the Gymnasium ids: a game by name and parameters, plus env options.

``gym.make("connectn_env/Hex-v0", size=7)`` calls :func:`make_env` with ``game="hex"`` and
``size=7``; the game's parameters are told apart from the env's options by the game's schema.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from connectn_env.games import REGISTRY, BoardGame


def build_game(game: str | BoardGame, kwargs: dict[str, Any]) -> BoardGame:
    """Build the game named ``game`` from the game parameters in ``kwargs`` (removed from it).

    Args:
        game: A registry name (``"connect_n"``, ``"hex"``...), or a ready
            :class:`~connectn_env.games.BoardGame` (then ``kwargs`` must hold no game
            parameters of any game).
        kwargs: Keyword arguments of an env factory; the game's parameters are popped.

    Raises:
        ValueError: an unknown game name (the message lists the known ones), a bad value, or
            game parameters next to a game object.
    """
    all_parameters = {p.name for cls in REGISTRY.families() for p in cls.PARAMETERS}
    if isinstance(game, BoardGame):
        given = sorted(all_parameters & kwargs.keys())
        if given:
            raise ValueError(f"game parameters {given} cannot be combined with a game object")
        return game
    if not isinstance(game, str) or game not in REGISTRY:
        known = ", ".join(repr(name) for name in REGISTRY)
        raise ValueError(f"game must be one of {known} or a BoardGame, got {game!r}")
    game_class = REGISTRY[game].game_class
    own = {p.name for p in game_class.PARAMETERS}
    params = {k: kwargs.pop(k) for k in list(kwargs) if k in own}
    return game_class(**{**REGISTRY[game].fixed, **params})


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
