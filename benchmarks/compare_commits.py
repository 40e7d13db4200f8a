"""MCTS speed of this working tree against another commit, in interleaved runs.

Each run is a fresh process on one source tree (``PYTHONPATH``), alternating between the two,
so that a change of the machine's load falls on both sides alike. A run measures simulations
per CPU second (``time.process_time``; the median of three searches, after a warm-up
search) of plain UCT (``MCTSAgent(preset="uct")``, c = 1.4, a new agent per search, so the
later searches reuse memory the first one faulted in) from the empty board of every
registered game family
(``benchmarks/mcts_vs_openspiel.py``'s table, native path) after a warm-up search, and of the
generic path on third-party envs (shimmy's OpenSpiel ``tic_tac_toe``, ``connect_four`` and
``nim``, PettingZoo's ``tictactoe_v3`` and ``connect_four_v3``). The other commit is checked
out into a temporary git worktree; each tree compiles into its own numba cache first.

Usage: ``python benchmarks/compare_commits.py --against REF [--repeats 5]
[--simulations 20000] [--generic-simulations 2000]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

RUN = """
import json, sys, time
from agents import MCTSAgent
from connectn_env.bench import mcts_games
from connectn_env.envs.base import BoardGameEnv
import pettingzoo
from shimmy import OpenSpielCompatibilityV0

def rate(env, simulations):
    MCTSAgent(simulations=64, reuse_tree=False, seed=0, preset="uct").search(env)
    rates = []
    for _ in range(3):
        agent = MCTSAgent(simulations=simulations, exploration=1.4, reuse_tree=False, seed=0,
                          preset="uct")
        start = time.process_time()
        done = agent.search(env).simulations
        rates.append(done / (time.process_time() - start))
    return sorted(rates)[1]

native, generic = int(sys.argv[1]), int(sys.argv[2])
rates = {}
for name, game in mcts_games():
    env = BoardGameEnv(game)
    env.reset()
    rates[name] = rate(env, native)
third_party = {
    "shimmy " + name: (lambda name=name: OpenSpielCompatibilityV0(game_name=name))
    for name in ("tic_tac_toe", "connect_four", "nim")
}
for name in ("tictactoe_v3", "connect_four_v3"):
    env_id = "classic/" + name.replace("_v", "-v")
    third_party[name] = lambda env_id=env_id: pettingzoo.make("aec", env_id)
for name, make in third_party.items():
    env = make()
    env.reset()
    rates[name] = rate(env, generic)
print(json.dumps(rates))
"""


def run_in_tree(tree: Path, code: str, *args: str) -> Any:
    """Run ``code`` in a fresh process on the source ``tree`` (one torch/OpenMP thread); the
    JSON its last output line holds."""
    environment = {**os.environ, "PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=environment,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def commit_tree(ref: str) -> Iterator[Path]:
    """``ref`` checked out into a temporary git worktree (removed afterwards)."""
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "other"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), ref],
            check=True,
            capture_output=True,
        )
        try:
            yield other
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=True
            )


def run(tree: Path, native: int, generic: int) -> dict[str, float]:
    return run_in_tree(tree, RUN, str(native), str(generic))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the other commit (any git ref)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=20_000)
    parser.add_argument("--generic-simulations", type=int, default=2_000)
    args = parser.parse_args()
    with commit_tree(args.against) as other:
        trees = {"this tree": ROOT, args.against: other}
        for tree in trees.values():
            run(tree, 100, 20)  # compile into the tree's own numba cache
        results: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        for _ in range(args.repeats):
            for label, tree in trees.items():
                results[label].append(run(tree, args.simulations, args.generic_simulations))
    print(f"load average at the end: {os.getloadavg()}")
    print(f"| game | this tree | {args.against} | ratio |")
    print("|---|---:|---:|---:|")
    ours, theirs = results["this tree"], results[args.against]
    for name in ours[0]:
        mine = [r[name] for r in ours]
        other_rates = [r[name] for r in theirs]
        a, b = statistics.median(mine), statistics.median(other_rates)
        print(
            f"| {name} | {a:,.0f} ({min(mine):,.0f}-{max(mine):,.0f}) | {b:,.0f} "
            f"({min(other_rates):,.0f}-{max(other_rates):,.0f}) | {a / b:.3f} |"
        )


if __name__ == "__main__":
    main()
