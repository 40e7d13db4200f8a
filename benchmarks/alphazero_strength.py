"""Strength per training time: networks of a training run against pure UCT MCTS.

Train first (in the background; keep its log), for example the 6 x 6, four-in-a-row goal::

    nohup connectn train connect_n --rows 6 --cols 6 --n 4 --no-gravity \\
        --out runs/c6x6 --minutes 30 > runs/c6x6.log 2>&1 &

then score the networks the run evaluated at (about) the given minutes of training, with
``--simulations`` per move (PUCT, best move, tree reuse), against ``MCTSAgent`` at each budget
(UCT, c = 1.4, random roll-outs, MCTS-Solver)::

    python benchmarks/alphazero_strength.py runs/c6x6 --minutes 5 10 15 30 \\
        --budgets 1000 2000 4000 --simulations 400 --games 100

The network's games are played all at once (``agents.alphazero.evaluation.play_match``: the
network side searches every game on one batched search), colours alternating, the network in
float32 (``az:pretrained``'s default; ``"auto"`` would pick bfloat16 or float32 by timing, so
the same command could score differently under another load). A mark at or past the run's
end uses ``latest.pt`` (the network when the budget ran out). Prints a Markdown table: score
(win 1, draw 1/2), wins-draws-losses, Wilson 95% interval, and the network's score in the
games it moved first and second; ``--json`` also writes the results.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from agents.alphazero import load_checkpoint
from agents.alphazero.evaluation import MCTSSide, NetworkSide, play_match
from agents.alphazero.inference import NetworkEvaluator
from connectn_env.elo import wilson

SLACK = 5.0


def checkpoint_at(run: Path, minutes: float) -> tuple[Path, float]:
    """The newest network trained for at most ``minutes`` (5 s of slack: an evaluation starts
    when the learner is free): an evaluated checkpoint, or ``latest.pt`` if the run ended by
    then. Returns it with its training minutes."""
    records = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    trained = max((r["seconds"] for r in records if r["kind"] == "train"), default=0.0)
    if trained <= minutes * 60 + SLACK:
        return run / "latest.pt", load_checkpoint(run / "latest.pt").progress["seconds"] / 60
    evaluated = [r for r in records if r["kind"] == "eval" and r["seconds"] <= minutes * 60 + SLACK]
    if not evaluated:
        raise SystemExit(f"{run} has no network evaluated within {minutes} minutes")
    last = evaluated[-1]
    return run / "checkpoints" / f"{last['label']}.pt", last["seconds"] / 60


def _share(score: float | None) -> str:
    """A score to three places, or "-" where there were no such games."""
    return "-" if score is None else f"{score:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the run directory")
    parser.add_argument("--minutes", type=float, nargs="+", required=True)
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--simulations", type=int, default=400, help="network simulations")
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows = []
    header = None
    for minutes in args.minutes:
        path, trained = checkpoint_at(args.run, minutes)
        checkpoint = load_checkpoint(path)
        game = checkpoint.game.make_game()
        if header is None:
            header = (
                f"{checkpoint.game}: network with {args.simulations} simulations per move "
                f"against MCTSAgent, {args.games} games per pairing, colours alternating\n"
            )
            print(header)
            print(
                "| training | network | MCTS simulations | score | W-D-L | 95% CI "
                "| moving first / second | seconds |"
            )
            print("|---|---|---|---|---|---|---|---|")
        evaluator = NetworkEvaluator(checkpoint.network(), precision="float32", batch=args.games)
        for budget in args.budgets:
            start = time.perf_counter()
            network = NetworkSide(
                game, evaluator, simulations=args.simulations, c_puct=1.5, seed=args.seed
            )
            mcts = MCTSSide(game, budget, seed=args.seed + 1)
            result = play_match(game, network, mcts, args.games, (path.name, f"mcts{budget}"))
            low, high = wilson(result.score, result.games)
            seconds = time.perf_counter() - start
            print(
                f"| {trained:.2f} min | {path.name} | {budget} | {result.score:.3f} | "
                f"{result.wins}-{result.draws}-{result.losses} | [{low:.3f}, {high:.3f}] | "
                f"{_share(result.score_moving(first=True))} / "
                f"{_share(result.score_moving(first=False))} | "
                f"{seconds:.0f} |",
                flush=True,
            )
            rows.append(
                result.to_json()
                | {"minutes": trained, "network": str(path), "budget": budget, "ci95": [low, high]}
            )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
