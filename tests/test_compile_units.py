"""A cold first move compiles few functions: numba charges each compiled function a fixed
cost (typing, LLVM's passes, machine code; about 50-80 ms however small), so the helpers that
only compiled code calls are inlined into their callers rather than compiled on their own."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

COUNT_COMPILES = """
from numba.core import event


class Count(event.Listener):
    def __init__(self):
        self.names = []

    def on_start(self, ev):
        pass

    def on_end(self, ev):
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)


count = Count()
event.register("numba:compile", count)

from agents.mcts import MCTSAgent
from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import REGISTRY

env = BoardGameEnv(REGISTRY.make("connect_four"))
env.reset()
MCTSAgent(simulations=200, preset="uct", seed=0).act(env)
print(" ".join(count.names))
"""

# called only from compiled code: typed and emitted inside their callers
INLINED = (
    "_word",  # Connect Four's bitboard
    "_top_free",
    "_drop_bit",
    "record_move",  # every game's move history
    "xorshift_next",  # the play-outs' random numbers
    "random_below",
    "outcome_r0",  # the search loop
    "best_root_child",  # UCT's move choice
)


@pytest.mark.slow
def test_a_cold_plain_uct_move_compiles_no_helper_on_its_own(tmp_path):
    """Connect Four's first plain-UCT move with an empty cache compiled 29 functions, 8 of
    them helpers of a few lines each; now 21."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "OMP_NUM_THREADS": "1"}
    child = subprocess.run(
        [sys.executable, "-c", COUNT_COMPILES], env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr
    compiled = child.stdout.split()
    assert "run_simulations" in compiled  # (the cache was cold)
    assert not set(INLINED) & set(compiled), compiled
    assert len(compiled) <= 21, compiled
