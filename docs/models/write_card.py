"""Write a shipped network's model card from its run:
``python docs/models/write_card.py RUN_DIR --strength FILE.json --command "..." --trained "..."``.

Reads the network the package ships for the run's game (``agents/alphazero/networks/``, put
there by ``benchmarks/ship_network.py``), the run's ``metrics.jsonl`` and the JSON that
``benchmarks/alphazero_strength.py --json`` wrote for that network, and writes
``docs/models/<file stem>.md``: the command, how and where it was trained, the network's size,
the checkpoint's progress and the strength table. ``--note`` adds a closing paragraph.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.alphazero.checkpoint import load_checkpoint
from agents.alphazero.pretrained import NETWORKS, pretrained_checkpoint
from connectn_env.atomic_write import write_bytes_atomically

CARDS = Path(__file__).resolve().parent


def strength_table(results: list[dict]) -> list[str]:
    """A Markdown table of ``alphazero_strength.py``'s results, with the scores moving first
    and second where every result has them."""
    colours = all(r.get("score_first") is not None for r in results)
    header = "| opponent | games | W-D-L | score | 95% interval |"
    rule = "|---|---:|---|---:|---|"
    if colours:
        header += " moving first | moving second |"
        rule += "---:|---:|"
    rows = [header, rule]
    for r in results:
        low, high = r["ci95"]
        games = r["wins"] + r["draws"] + r["losses"]
        row = (
            f"| plain UCT, {r['budget']:,} simulations | {games} | {r['wins']}-{r['draws']}-"
            f"{r['losses']} | {r['score']:.3f} | [{low:.3f}, {high:.3f}] |"
        )
        if colours:
            row += f" {r['score_first']:.3f} | {r['score_second']:.3f} |"
        rows.append(row)
    return rows


def card(
    run: Path, strength: list[dict], simulations: int, command: str, trained: str, note: str
) -> tuple[str, str]:
    """The card's file stem and text."""
    game = load_checkpoint(run / "best.pt").game
    shipped = pretrained_checkpoint(game)
    path = Path(shipped.path)
    spec = shipped.spec
    parameters = sum(int(v.numel()) for v in shipped.network().state_dict().values())
    progress = shipped.progress
    budgets = " ".join(str(r["budget"]) for r in strength)
    lines = [
        f"# Model card: {game.make_game().title}",
        "",
        "The network `az:pretrained` plays in this game "
        f"(`agents/alphazero/networks/{path.name}`).",
        "",
        "| | |",
        "|---|---|",
        f"| game | {game} |",
        f"| command | `{command}` |",
        f"| trained | {trained} |",
        f"| network | {spec.channels} channels x {spec.blocks} residual blocks, "
        f"{parameters:,} parameters, {path.stat().st_size:,} bytes |",
        f"| shipped checkpoint | the run's network at step {progress['step']:,}, after "
        f"{progress['seconds'] / 60:.1f} minutes of training, {progress['games']:,} self-play "
        f"games ({progress['positions']:,} positions) |",
        f"| run's metrics | `benchmarks/results/pretrained/{path.stem}/` (`metrics.jsonl`, "
        "`run.json`) |",
        "",
        f"Strength with {simulations} simulations per move (PUCT, best move) against plain UCT "
        '(`MCTSAgent(preset="uct")`, random roll-outs, MCTS-Solver), colours alternating, '
        "Wilson 95% intervals (`python benchmarks/alphazero_strength.py RUN_DIR --minutes 9999 "
        f"--budgets {budgets} --simulations {simulations} --games N`):",
        "",
        *strength_table(strength),
    ]
    if note:
        lines += ["", note]
    return path.stem, "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--strength", type=Path, required=True, action="append")
    parser.add_argument("--command", required=True, help="the training command(s)")
    parser.add_argument("--trained", required=True, help="when, where, on what machine")
    parser.add_argument("--simulations", type=int, default=200, help="the network's, in --strength")
    parser.add_argument("--note", default="")
    args = parser.parse_args()
    results = [row for path in args.strength for row in json.loads(path.read_text())]
    stem, text = card(
        args.run_dir, results, args.simulations, args.command, args.trained, args.note
    )
    target = CARDS / f"{stem}.md"
    write_bytes_atomically(target, text.encode())
    print(f"{target} (network {NETWORKS / (stem + '.pt')})")


if __name__ == "__main__":
    main()
