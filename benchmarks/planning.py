"""MCTSPlanner against A* on GridPath maps, and on Gymnasium's FrozenLake and CliffWalking.

1. GridPath 20x20 with 30% obstacles, one random map per seed: A*'s shortest path against
   ``MCTSPlanner.plan`` with 200 simulations per search, with A*'s Manhattan heuristic as the
   leaf value (``evaluate=env.heuristic_value``) and with no knowledge at all (the leaf value
   is the return so far); no roll-outs. Path lengths (the share of maps where the plan is a
   shortest path, the mean number of extra steps) and thread time per map (median; the ratio
   to A*'s in the same run).
2. Gymnasium's FrozenLake8x8-v1 (``is_slippery=False``) and CliffWalking-v1 (random
   roll-outs, 200 simulations per search): steps, return and simulations per second, which
   shows what copying an env costs against GridPath's clone/restore interface.

Times are ``time.thread_time()`` (the machine may be shared).

    python benchmarks/planning.py            # 20 maps
    python benchmarks/planning.py --quick    # a smoke test: 3 maps
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym

import connectn_env  # noqa: F401  (registers GridPath-v0)
from agents import MCTSPlanner
from connectn_env.gridpath import astar

PLANNERS = {
    "MCTSPlanner, A* heuristic as leaf value": lambda: MCTSPlanner(
        simulations=200, rollout_depth=0, evaluate=lambda env: env.heuristic_value(), seed=0
    ),
    "MCTSPlanner, no heuristic": lambda: MCTSPlanner(simulations=200, rollout_depth=0, seed=0),
}
GYMNASIUM = [
    ("FrozenLake8x8-v1 (not slippery)", "FrozenLake8x8-v1", {"is_slippery": False}),
    ("CliffWalking-v1", "CliffWalking-v1", {}),
]


def timed(function, *args):
    """(result, thread seconds) of ``function(*args)``."""
    start = time.thread_time()
    result = function(*args)
    return result, time.thread_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="3 maps")
    args = parser.parse_args()
    if args.maps < 1:
        parser.error(f"--maps must be at least 1, got {args.maps}")
    maps = 3 if args.quick else args.maps
    env = gym.make("connectn_env/GridPath-v0", size=20, obstacle_density=0.3)
    shortest: list[int] = []
    astar_times: list[float] = []
    rows: dict[str, tuple[list[int], list[float]]] = {name: ([], []) for name in PLANNERS}
    env.reset(seed=0)
    PLANNERS["MCTSPlanner, no heuristic"]().plan(env)  # warm-up: loads numba's cache
    for seed in range(maps):
        env.reset(seed=seed)
        path, seconds = timed(astar, env.unwrapped.grid_map)
        shortest.append(len(path) - 1)
        astar_times.append(seconds)
        for name, make in PLANNERS.items():
            plan, seconds = timed(make().plan, env)
            if not plan.terminated:
                raise SystemExit(f"{name} did not reach the goal of map {seed}")
            rows[name][0].append(len(plan.actions) - shortest[-1])
            rows[name][1].append(seconds)
    reference = statistics.median(astar_times)
    print(f"GridPath 20x20, 30% obstacles, {maps} maps (seeds 0 to {maps - 1}), thread time.\n")
    print("| method | shortest path found | mean extra steps | time per map (median) | ratio |")
    print("|---|---:|---:|---:|---:|")
    print(f"| A* | {maps}/{maps} | 0.00 | {reference * 1000:.2f} ms | 1x |")
    for name, (extra, seconds) in rows.items():
        median = statistics.median(seconds)
        print(
            f"| {name} | {extra.count(0)}/{maps} | {statistics.mean(extra):.2f} "
            f"| {median * 1000:,.0f} ms | {median / reference:,.0f}x |"
        )
    print("\n| env | state saved by | steps | return | simulations/s |")
    print("|---|---|---:|---:|---:|")
    env.reset(seed=0)
    plan, seconds = timed(PLANNERS["MCTSPlanner, no heuristic"]().plan, env)
    print(
        f"| GridPath 20x20 | clone_state/restore_state | {len(plan.actions)} "
        f"| {plan.total_return:+.2f} | {plan.simulations / seconds:,.0f} |"
    )
    for label, env_id, kwargs in GYMNASIUM:
        other = gym.make(env_id, **kwargs)
        other.reset(seed=0)
        planner = MCTSPlanner(simulations=200, max_depth=100, seed=0)
        plan, seconds = timed(planner.plan, other)
        print(
            f"| {label} | copies | {len(plan.actions)} | {plan.total_return:+.0f} "
            f"| {plan.simulations / seconds:,.0f} |"
        )


if __name__ == "__main__":
    main()
