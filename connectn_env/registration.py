"""Registry entries: ``pettingzoo.make("aec", "connectn_env/<name>-v0")``.

Registering is cheap: it imports no pygame and compiles nothing.
"""

from __future__ import annotations

import pettingzoo

NAMESPACE = "connectn_env"

CONNECT_FOUR = {"rows": 6, "cols": 7, "n": 4, "gravity": True}
TICTACTOE = {"rows": 3, "cols": 3, "n": 3, "gravity": False}

PETTINGZOO_ENVS: dict[str, tuple[str, dict]] = {
    f"{NAMESPACE}/connect_four-v0": ("connectn_env.connect_n_v0:env", CONNECT_FOUR),
    f"{NAMESPACE}/tictactoe-v0": ("connectn_env.connect_n_v0:env", TICTACTOE),
    f"{NAMESPACE}/connect_n-v0": ("connectn_env.connect_n_v0:env", {}),
    f"{NAMESPACE}/gomoku-v0": ("connectn_env.gomoku_v0:env", {}),
    f"{NAMESPACE}/hex-v0": ("connectn_env.hex_v0:env", {}),
}


def register_pettingzoo_envs() -> None:
    """Add the suite's AEC envs to PettingZoo's registry (idempotent)."""
    for env_id, (entry_point, kwargs) in PETTINGZOO_ENVS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry_point, kwargs=dict(kwargs))
