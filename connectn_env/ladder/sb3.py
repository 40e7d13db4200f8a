"""Stable-Baselines3 models as candidates: ``sb3:path=model.zip`` (MaskablePPO or PPO,
trained on this suite's single-agent envs; ``pip install ".[rl]"``).

The model is loaded without unpickling anything the file holds
(:mod:`~connectn_env.ladder.sb3_load`); a file whose settings cannot be read so is refused,
unless the spec ends with ``,unpickle=true`` (SB3 then unpickles it, running its code).
The model is loaded lazily, on the first move, once per process and file version. Its
observation must be the suite's int8 ``(rows, cols, 2)`` planes [own, opponent] and its
action space ``Discrete(num_actions)``; a model of another shape is refused by name. A
MaskablePPO model is given the legal-action mask; a PPO model is not, and an illegal action
loses the game.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from agents import PolicyAgent
from connectn_env.games import BoardGame
from connectn_env.ladder.sb3_load import load_sb3_model
from connectn_env.safe_files import require_regular_file

SB3_PREFIX = "sb3:"
SB3_FACTORY = "connectn_env.ladder.sb3:sb3_agent"  # the factory an sb3: spec names


class SB3Agent:
    """An SB3 model file playing through :class:`agents.PolicyAgent`.

    Args:
        path: The ``.zip`` file ``model.save`` wrote.
        unpickle: Let SB3 unpickle the objects pickled in the file (runs their code: only
            for a file trusted as a program).
    """

    def __init__(self, path: str, unpickle: bool = False) -> None:
        if not isinstance(path, str) or not path:
            raise TypeError(f"path must be a model file name, got {path!r}")
        if not isinstance(unpickle, bool):
            raise TypeError(f"unpickle must be a bool, got {unpickle!r}")
        self.path = path
        self.unpickle = unpickle

    @property
    def model(self) -> Any:
        """The loaded model (loaded on first use)."""
        try:
            status = os.stat(self.path)
            require_regular_file(self.path, status.st_mode)  # a FIFO would block the load
        except (OSError, ValueError) as error:
            raise ValueError(f"sb3 model {self.path!r} cannot be read: {error}") from None
        return _load(self.path, status.st_mtime_ns, self.unpickle)

    def check_game(self, game: BoardGame) -> None:
        """Refuse a model whose observation or action shape is not ``game``'s.

        Raises:
            ValueError: the message names both shapes.
        """
        model = self.model
        expected = (game.rows, game.cols, 2)
        shape = tuple(model.observation_space.shape or ())
        actions = getattr(model.action_space, "n", None)
        if shape != expected or actions != game.num_actions:
            raise ValueError(
                f"sb3 model {self.path!r} has observations of shape {shape} and {actions} "
                f"actions; {game.title} needs observations of shape {expected} and "
                f"{game.num_actions} actions"
            )

    def act(self, env: Any) -> int:
        """The model's deterministic action for ``env.agent_selection``.

        Raises:
            ValueError: a model of the wrong shape, or an illegal action (the game is lost).
        """
        self.check_game(env.game)
        model = self.model
        masked = type(model).__name__ == "MaskablePPO"

        def policy(observation: np.ndarray, mask: np.ndarray) -> Any:
            if masked:
                return model.predict(
                    observation, action_masks=mask.astype(bool), deterministic=True
                )[0]
            return model.predict(observation, deterministic=True)[0]

        return PolicyAgent(policy).act(env)

    def __repr__(self) -> str:
        return f"SB3Agent({self.path!r})"


def sb3_agent(path: str, unpickle: bool = False) -> SB3Agent:
    """The factory of ``sb3:path=FILE[,unpickle=true]`` specs."""
    return SB3Agent(path, unpickle)


@functools.lru_cache(maxsize=4)
def _load(path: str, stamp: int, unpickle: bool) -> Any:
    """MaskablePPO's or PPO's model in ``path`` (``stamp``: the file's version)."""
    return load_sb3_model(path, unpickle=unpickle)
