"""Cold compile: CPU seconds to a game's first move in a fresh install with an empty cache.

Each measurement runs in a fresh Python subprocess whose ``NUMBA_CACHE_DIR`` is a new empty
directory (so every numba function is compiled, as on a first use after ``pip install``); the
figure is the child's CPU time (user + system, ``resource.getrusage(RUSAGE_SELF)``) when its
first move is found: start-up, imports, compiling, and one search of 200 simulations from the
empty board; not the process's exit afterwards (about 0.6 s with numba's compiled code loaded;
counted until 2026-11-28). Two agents per game: plain UCT (``MCTSAgent(preset="uct")``) and
the game's defaults (``MCTSAgent()``: Connect Four's exact solver and tactics, Gomoku's
threat-space solver, Hex's RAVE); ``--specs`` measures any agent specs instead (each
combination of search rules is its own compile: ``mcts:preset=uct,rave=true``,
``puct:selection=gumbel``...). Medians of ``--repeats`` runs; the load average is printed with
the table (on a shared machine, CPU time is what to compare; wall time is not).

``--profile`` adds, for one more cold run per game and agent, the compile CPU seconds of each
numba function (from numba's ``numba:compile`` events; a function's own time, without the
functions it made numba compile on the way, so the rows add up to the compile total) and how
many functions (times signatures) were compiled.

Usage: ``python benchmarks/cold_compile.py [--repeats 3] [--games gomoku hex] [--specs SPEC ...]
[--profile]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

GAMES = ("connect_four", "tictactoe", "gomoku", "hex", "othello")
SIMULATIONS = 200
# the two agents of the goals: plain UCT and the game's defaults
PRESETS = {
    f"mcts:preset=uct,simulations={SIMULATIONS}": "plain UCT",
    f"mcts:simulations={SIMULATIONS}": "defaults",
}

CHILD = """
import json, resource, sys, time
profile = {profile}
if profile:
    from numba.core import event

    class Listener(event.Listener):
        def __init__(self):
            self.stack, self.seconds, self.compiles = [], {{}}, 0

        def on_start(self, ev):
            self.stack.append([time.process_time(), 0.0])

        def on_end(self, ev):
            start, nested = self.stack.pop()
            spent = time.process_time() - start
            if self.stack:
                self.stack[-1][1] += spent
            name = ev.data["dispatcher"].py_func.__qualname__
            self.seconds[name] = self.seconds.get(name, 0.0) + spent - nested
            self.compiles += 1

    listener = Listener()
    event.register("numba:compile", listener)
from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import REGISTRY
from connectn_env.specs import parse_agent_spec

env = BoardGameEnv(REGISTRY.make({game!r}))
env.reset()
parse_agent_spec({spec!r}).build(0).act(env)
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu = usage.ru_utime + usage.ru_stime
json.dump([cpu, listener.seconds, listener.compiles] if profile else [cpu, {{}}, 0], sys.stdout)
"""


def cold_run(
    game: str, spec: str, profile: bool = False
) -> tuple[float, tuple[dict[str, float], int]]:
    """(CPU seconds of a fresh child's first move of the agent ``spec`` with an empty numba
    cache, and when ``profile`` the compile seconds per function and the number of compiles:
    functions times signatures)."""
    script = CHILD.format(game=game, spec=spec, profile=profile)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "OMP_NUM_THREADS": "1"}
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True
        )
    if out.returncode != 0:
        raise RuntimeError(f"{game}, {spec}: the child failed:\n{out.stderr}")
    cpu, seconds, compiles = json.loads(out.stdout)
    return cpu, (seconds, compiles)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument(
        "--specs", nargs="+", default=list(PRESETS), help="agent specs (default: the goals' two)"
    )
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print("| game | agent | CPU s (median) | runs |\n|---|---|---:|---|", flush=True)
    profiles = []
    for game in args.games:
        for spec in args.specs:
            runs = [cold_run(game, spec)[0] for _ in range(args.repeats)]
            label = PRESETS.get(spec, f"`{spec}`")
            shown = ", ".join(f"{run:.2f}" for run in runs)
            print(f"| {game} | {label} | {statistics.median(runs):.2f} | {shown} |", flush=True)
            if args.profile:
                profiles.append((game, label, cold_run(game, spec, profile=True)[1]))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game, label, (seconds, compiles) in profiles:
        print(f"\n{game}, {label}: compile CPU seconds per function (own time)")
        print(f"  {sum(seconds.values()):6.2f}  (total, {compiles} compiled functions)")
        for name, spent in sorted(seconds.items(), key=lambda item: -item[1]):
            if spent >= 0.05:
                print(f"  {spent:6.2f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
