"""Strength per training time: checkpoints of a training run against pure UCT MCTS.

Train first (in the background; keep its log), for example the 6 x 6, four-in-a-row goal::

    nohup connectn train connect_n --rows 6 --cols 6 --n 4 --no-gravity \\
        --out runs/c6x6 --minutes 30 > runs/c6x6.log 2>&1 &

then score the networks the run evaluated at (about) the given minutes of training, with
``--simulations`` per move, against ``MCTSAgent`` at each budget, in ``connectn arena``
matches (colours alternating; resumable: the games are kept in RUN_DIR/strength/)::

    python benchmarks/alphazero_strength.py runs/c6x6 --minutes 5 10 15 30 \\
        --budgets 1000 2000 4000 --simulations 400 --games 50

A mark at or past the run's end uses ``latest.pt`` (the network when the budget ran out).
Prints a Markdown table: score (win 1, draw 1/2), wins/draws/losses, Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from connectn_env.arena import run_tournament
from connectn_env.records import GameConfig


def checkpoint_at(run: Path, minutes: float) -> tuple[Path, float]:
    """The newest network trained for at most ``minutes`` (1 s of slack for the scheduler):
    an evaluated checkpoint, or ``latest.pt`` if the run ended by then."""
    records = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    trained = max((r["seconds"] for r in records if r["kind"] == "train"), default=0.0)
    if trained <= minutes * 60 + 1:
        return run / "latest.pt", trained / 60
    evaluated = [r for r in records if r["kind"] == "eval" and r["seconds"] <= minutes * 60 + 1]
    if not evaluated:
        raise SystemExit(f"{run} has no network evaluated within {minutes} minutes")
    last = evaluated[-1]
    return run / "checkpoints" / f"{last['label']}.pt", last["seconds"] / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the run directory")
    parser.add_argument("--minutes", type=float, nargs="+", required=True)
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--simulations", type=int, default=400, help="network simulations")
    parser.add_argument("--games", type=int, default=50, help="games per pairing")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    config = json.loads((args.run / "run.json").read_text())["config"]["game"]
    game = GameConfig(config["name"], config["params"])
    out = args.run / "strength"
    out.mkdir(exist_ok=True)
    print(
        f"{game}: network with {args.simulations} simulations per move against MCTSAgent, "
        f"{args.games} games per pairing, colours alternating\n"
    )
    print("| training | network | MCTS simulations | score | W-D-L | 95% CI |")
    print("|---|---|---|---|---|---|")
    for minutes in args.minutes:
        path, trained = checkpoint_at(args.run, minutes)
        spec = f"az:path={path},simulations={args.simulations}"
        for budget in args.budgets:
            result = run_tournament(
                game,
                [spec, f"mcts:simulations={budget}"],
                games=args.games,
                workers=args.workers,
                out=out / f"{path.stem}-{args.simulations}-vs-mcts{budget}.jsonl",
            )
            pairing = result.pairings[0]
            low, high = pairing.interval
            print(
                f"| {trained:.1f} min | {path.name} | {budget} | {pairing.score:.3f} | "
                f"{pairing.wins}-{pairing.draws}-{pairing.losses} | [{low:.3f}, {high:.3f}] |",
                flush=True,
            )


if __name__ == "__main__":
    main()
