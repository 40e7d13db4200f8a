"""The metrics log of a run (JSON lines) and its plots.

Records (every one has ``kind`` and ``seconds``, the run's training time so far):

- ``"train"``: ``step, games, positions, loss, policy_loss, value_loss, games_per_s,
  positions_per_s, network_share`` (share of self-play time in the network), ``buffer``
  (positions held), ``rss_mb, peak_rss_mb`` (the learner's resident memory now and at its
  peak, MiB), ``worker_rss_mb, worker_peak_rss_mb`` (the same for the last self-play worker);
- ``"eval"``: ``label, step, games, results`` (one ``{a, b, wins, draws, losses, score}`` per
  opponent), ``elo`` (every label's rating, anchored at the smallest MCTS budget = 0) and
  ``checkpoints`` (each evaluated label with its training seconds).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from agents.alphazero.evaluation import mcts_budget

__all__ = ["MetricsLog", "plot_metrics", "read_metrics"]


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """The records of a metrics file (a torn last line is skipped)."""
    records = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    for line in lines:
        try:
            records.append(json.loads(line))
        except ValueError:
            continue
    return records


class MetricsLog:
    """Appends records to ``path``; :meth:`truncate` drops those after a resumed checkpoint."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def truncate(self, seconds: float) -> None:
        """Keep only the records of at most ``seconds`` of training time."""
        records = [r for r in read_metrics(self.path) if r.get("seconds", 0.0) <= seconds]
        text = "".join(json.dumps(r) + "\n" for r in records)
        self.path.write_text(text, encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(record, allow_nan=True) + "\n")


def plot_metrics(metrics: str | Path, png: str | Path, title: str = "") -> None:
    """Draw loss, Elo, score against each MCTS budget and games/s over training time."""
    from matplotlib.figure import Figure  # no pyplot: the caller's backend is left alone

    records = read_metrics(metrics)
    train = [r for r in records if r.get("kind") == "train"]
    evals = [r for r in records if r.get("kind") == "eval"]
    figure = Figure(figsize=(11, 7.5), layout="constrained")
    axes = figure.subplots(2, 2)
    loss, elo, score, speed = axes.flat
    minutes = [r["seconds"] / 60 for r in train]
    for key, name in (("policy_loss", "policy"), ("value_loss", "value"), ("loss", "total")):
        points = [
            (m, r[key]) for m, r in zip(minutes, train, strict=True) if r.get(key) is not None
        ]
        if points:
            loss.plot(*zip(*points, strict=True), label=name)
    loss.set(title="training loss", xlabel="minutes", ylabel="loss")
    if loss.get_lines():
        loss.legend()
    if evals:
        last = evals[-1]
        checkpoints = last.get("checkpoints", {})
        points = sorted(
            (seconds / 60, last["elo"][label])
            for label, seconds in checkpoints.items()
            if last["elo"].get(label) is not None and math.isfinite(last["elo"][label])
        )
        if points:
            elo.plot(*zip(*points, strict=True), marker="o")
        for label, value in last["elo"].items():
            budget = mcts_budget(label)
            if budget is not None and value is not None and math.isfinite(value):
                elo.axhline(value, linestyle=":", linewidth=1, color="grey")
                elo.annotate(str(budget), (0, value), fontsize=7, color="grey")
    elo.set(title="Elo (MCTS with the smallest budget = 0)", xlabel="minutes", ylabel="Elo")
    by_opponent: dict[str, list[tuple[float, float]]] = {}
    for record in evals:
        for result in record["results"]:
            if mcts_budget(result["b"]) is not None:
                by_opponent.setdefault(result["b"], []).append(
                    (record["seconds"] / 60, result["score"])
                )
    for opponent, points in sorted(by_opponent.items(), key=lambda kv: mcts_budget(kv[0])):
        score.plot(*zip(*points, strict=True), marker="o", label=opponent)
    score.set(title="score against pure UCT MCTS", xlabel="minutes", ylabel="score", ylim=(0, 1))
    if by_opponent:
        score.legend(fontsize=8)
    points = [(m, r["games_per_s"]) for m, r in zip(minutes, train, strict=True)]
    if points:
        speed.plot(*zip(*points, strict=True))
    speed.set(title="self-play games per second", xlabel="minutes", ylabel="games/s")
    if title:
        figure.suptitle(title)
    temporary = Path(png).with_name(Path(png).name + ".tmp.png")
    figure.savefig(temporary, dpi=90)
    temporary.replace(png)
