"""Steps per second of the native vector env against Gymnasium's SyncVectorEnv.

Both run the same id and opponent (random by default, or ``--opponent mcts``) with a
learner that plays uniformly random legal moves (chosen from ``info["action_mask"]``; only
``step`` is timed). Each round measures both sides in the same process after a warm-up; the
medians and their ratio are printed. Usage:
``python benchmarks/gym_vector_speed.py [--num-envs 64] [--rounds 5] [--opponent mcts]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

import connectn_env  # noqa: F401  (registers the ids)

GAMES = {
    "ConnectFour": ("connectn_env/ConnectFour-v0", {}),
    "Gomoku15": ("connectn_env/Gomoku-v0", {"size": 15}),
    "Hex11": ("connectn_env/Hex-v0", {"size": 11}),
}


def steps_per_second(env: gym.vector.VectorEnv, steps: int, seed: int) -> float:
    """Environment steps (boards x calls) per second of ``env.step`` over ``steps`` calls."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    elapsed = 0.0
    for _ in range(steps):
        scores = rng.random(info["action_mask"].shape) * info["action_mask"]
        actions = scores.argmax(axis=1)
        start = time.perf_counter()
        _, _, _, _, info = env.step(actions)
        elapsed += time.perf_counter() - start
    return steps * env.num_envs / elapsed


def compare(env_id: str, kwargs: dict, num_envs: int, steps: int, rounds: int) -> dict:
    """Median steps/s of the sync and native vector envs over ``rounds`` alternating rounds."""
    sync = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    native = gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )
    sync_steps = max(steps // 20, 20)
    steps_per_second(sync, sync_steps // 4, seed=0)  # warm-up (numba cache, allocations)
    steps_per_second(native, steps // 4, seed=0)
    results: dict[str, list[float]] = {"sync": [], "native": []}
    for r in range(rounds):
        results["sync"].append(steps_per_second(sync, sync_steps, seed=r))
        results["native"].append(steps_per_second(native, steps, seed=r))
    sync.close()
    native.close()
    medians = {name: statistics.median(values) for name, values in results.items()}
    return {**medians, "ratio": medians["native"] / medians["sync"]}


def main() -> None:
    """Print the steps/s table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2000, help="native step calls per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--opponent", default="random", choices=["random", "mcts"])
    parser.add_argument("--simulations", type=int, default=50, help="for --opponent mcts")
    args = parser.parse_args()
    opponent = {"opponent": args.opponent}
    if args.opponent == "mcts":
        opponent["opponent_kwargs"] = {"simulations": args.simulations}
    print(f"{args.num_envs} envs, {opponent}, median of {args.rounds} rounds")
    print(f"{'game':<12} {'sync steps/s':>14} {'native steps/s':>16} {'ratio':>8}")
    for name in args.games:
        env_id, kwargs = GAMES[name]
        result = compare(env_id, {**kwargs, **opponent}, args.num_envs, args.steps, args.rounds)
        print(
            f"{name:<12} {result['sync']:>14,.0f} {result['native']:>16,.0f} "
            f"{result['ratio']:>7.1f}x"
        )


if __name__ == "__main__":
    main()
