"""The registry ids: PettingZoo's and Gymnasium's, both read from the game registry, and the
Gymnasium ids of the planning envs (``connectn_env/GridPath-v0``), listed by hand.

This is the one place that connects :data:`connectn_env.games.REGISTRY` to the two
frameworks' own registries (``pettingzoo.make("aec", "connectn_env/hex-v0")``,
``gym.make("connectn_env/Hex-v0")``). Registering is cheap: it imports no pygame and compiles
nothing; the env modules are imported only when an env is made.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import pettingzoo

from connectn_env.games import REGISTRY

PETTINGZOO_ENVS: dict[str, tuple[str, dict[str, Any]]] = {
    entry.pettingzoo_id: (f"connectn_env.{entry.env_module}:env", dict(entry.fixed))
    for entry in REGISTRY.values()
}
GYM_ENVS: dict[str, dict[str, Any]] = {
    entry.gym_id: {"game": entry.family, **entry.fixed} for entry in REGISTRY.values()
}
# Single-agent envs that are not board games, registered by hand: id -> entry point.
PLANNING_ENVS: dict[str, str] = {
    "connectn_env/GridPath-v0": "connectn_env.gridpath:GridPathEnv",
}


def register_pettingzoo_envs() -> None:
    """Add the suite's AEC envs to PettingZoo's registry (idempotent)."""
    for env_id, (entry_point, kwargs) in PETTINGZOO_ENVS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry_point, kwargs=dict(kwargs))


def register_gym_envs() -> None:
    """Add the single-agent ids (board games and planning envs) to Gymnasium's registry
    (idempotent)."""
    for env_id, kwargs in GYM_ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="connectn_env.gym.factories:make_env",
                vector_entry_point="connectn_env.gym.factories:make_vector_env",
                kwargs=dict(kwargs),
            )
    for env_id, entry_point in PLANNING_ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=entry_point)
