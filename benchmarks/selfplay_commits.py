"""The learner's self-play throughput in this tree against another commit, in interleaved runs.

What `connectn train` plays with its defaults: one self-play worker
(:class:`agents.alphazero.workers.SelfPlayWorker`) built from a default
:class:`~agents.alphazero.config.TrainConfig` of the game, so each tree plays with its own
defaults (selection rule, simulations per move, games in flight, network size), from the same
randomly initialised network (``torch.manual_seed(0)``), one torch thread. A run measures
self-play positions (moves searched) per CPU second (``time.thread_time``) over ``--seconds``,
after a warm-up task; runs alternate between the two trees in fresh processes, in float32 and
in the precision ``"auto"`` picks. ``--set NAME=VALUE`` overrides a default on both sides (a
setting both trees know: ``--set simulations=100``).

Usage: ``python benchmarks/selfplay_commits.py --against REF [--repeats 5] [--seconds 10]
[--set NAME=VALUE ...]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from compare_commits import ROOT, commit_tree, run_in_tree

GAMES = {
    "6 x 6, four in a row": {
        "name": "connect_n",
        "params": {"rows": 6, "cols": 6, "n": 4, "gravity": False},
    },
    "Connect Four": {"name": "connect_four", "params": {}},
}

RUN = """
import json, sys, tempfile, time
import torch
from agents.alphazero.config import TrainConfig
from agents.alphazero.inference import weights_of
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.alphazero.workers import SelfPlayWorker
from connectn_env.records import GameConfig

game, precision, seconds, overrides = json.loads(sys.argv[1])
torch.set_num_threads(1)
config = TrainConfig(game=GameConfig(game["name"], game["params"]), out=tempfile.mkdtemp(), games=1,
                     **overrides)
names = ("simulations", "games_in_flight", "c_puct", "dirichlet_alpha", "noise_fraction",
         "temperature_moves", "selection", "full_search_fraction", "fast_simulations",
         "reuse_tree")
settings = {name: getattr(config, name) for name in names if hasattr(config, name)}
settings["precision"] = precision
board = config.game.make_game()
spec = NetworkSpec.for_game(board, channels=config.channels, blocks=config.blocks)
torch.manual_seed(0)
weights = weights_of(PolicyValueNet(spec))
worker = SelfPlayWorker(game, spec.to_json(), settings, 0, 1, "cpu")
worker.play(weights, 0, config.moves_per_task)  # warm-up: compiled, trees allocated
start, positions, network = time.thread_time(), 0, 0.0
while time.thread_time() - start < seconds:
    output = worker.play(weights, 0, config.moves_per_task)
    positions += output.positions
spent = time.thread_time() - start
print(json.dumps({"rate": positions / spent, "precision": worker.evaluator.precision,
                  "setting": f"{settings.get('selection', 'puct')} {config.simulations}"}))
"""


def _override(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    if not name or not value:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the other commit (any git ref)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--set", type=_override, action="append", default=[], metavar="NAME=V")
    args = parser.parse_args()
    overrides = dict(args.set)
    cells = [(game, precision) for game in GAMES for precision in ("float32", "auto")]
    rates: dict[tuple[str, str, str], list[float]] = {}
    settings: dict[tuple[str, str, str], str] = {}
    with commit_tree(args.against) as other:
        trees = {"this tree": ROOT, args.against: other}
        for repeat in range(args.repeats + 1):  # the first round compiles into each tree's cache
            for game, precision in cells:
                for label, tree in trees.items():
                    task = [GAMES[game], precision, args.seconds if repeat else 0.5, overrides]
                    out = run_in_tree(tree, RUN, json.dumps(task))
                    if repeat:
                        key = (game, precision, label)
                        rates.setdefault(key, []).append(out["rate"])
                        settings[key] = f"{out['setting']}, {out['precision']}"
    print(f"load average at the end: {os.getloadavg()}")
    print(f"| game | precision | this tree | {args.against} | ratio |")
    print("|---|---|---:|---:|---:|")
    for game, precision in cells:
        mine, theirs = rates[(game, precision, "this tree")], rates[(game, precision, args.against)]
        a, b = statistics.median(mine), statistics.median(theirs)
        print(
            f"| {game} | {precision} | {a:.1f} ({settings[(game, precision, 'this tree')]}) | "
            f"{b:.1f} ({settings[(game, precision, args.against)]}) | {a / b:.2f}x |"
        )


if __name__ == "__main__":
    main()
