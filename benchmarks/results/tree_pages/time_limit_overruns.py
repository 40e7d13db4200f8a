"""Overruns of a 0.05 s time limit with numpy's huge-page advice on or off (argument ``on`` or
``off``): the Hex 11 x 11 PUCT case of tests/test_time_budget.py, 40 fresh agents x 3
positions in one process; prints the worst CPU time of a search, how many took more than
0.052 s and the median simulations per search. Run from the repository root:
``python benchmarks/results/tree_pages/time_limit_overruns.py on``. Since the tree arrays are
mapped in small pages (agents/tree.py), the setting no longer reaches them."""

from __future__ import annotations

import gc
import statistics
import sys
import time

import numpy as np


def main() -> None:
    mode = sys.argv[1]
    core = getattr(np, "_core", None) or np.core
    core.multiarray._set_madvise_hugepage(mode == "on")
    sys.path.insert(0, "tests")
    from test_time_budget import AGENTS, POSITIONS

    envs = POSITIONS["hex_11x11"]()
    make = AGENTS["puct"]
    warm = make(1)
    for env in envs:
        warm.act(env)
    spent, simulations = [], []
    for seed in range(2, 42):
        agent = make(seed)
        agent.act(envs[0])
        for env in envs[1:]:
            before = time.thread_time()
            result = agent.search(env)
            spent.append(time.thread_time() - before)
            simulations.append(result.simulations)
        del agent
        gc.collect()
    over = sum(seconds > 0.052 for seconds in spent)
    print(
        f"{mode} max {max(spent):.4f} over 0.052: {over}/{len(spent)} "
        f"median sims {statistics.median(simulations):.0f}"
    )


if __name__ == "__main__":
    main()
