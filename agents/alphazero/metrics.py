"""The metrics log of a run (JSON lines) and its plots.

Records (every one has ``kind`` and ``seconds``, the run's training time so far):

- ``"train"``: ``step, games, positions, loss, policy_loss, value_loss, games_per_s,
  positions_per_s, network_share`` (share of self-play time in the network), ``buffer``
  (positions held), ``rss_mb, peak_rss_mb`` (the learner's resident memory now and at its
  peak, MiB), ``worker_rss_mb, worker_peak_rss_mb`` (the same for the last self-play worker);
- ``"eval"``: ``label, step, games, results`` (one ``{a, b, wins, draws, losses, score}`` per
  opponent), ``elo`` (every label's rating, anchored at the smallest MCTS budget = 0),
  ``checkpoints`` (each evaluated label with its training seconds), ``eval_seconds`` (the
  evaluation's wall-clock seconds) and ``after_budget`` (true for the final evaluation, played
  once the training budget was spent);
- ``"bootstrap"``: the bootstrap phase so far (:mod:`agents.alphazero.bootstrap`; a record
  every 30 s of it and one at its end): ``step, games`` (its games played and trained on),
  ``of`` (its games in all), ``positions, cpu_seconds`` (the CPU time of the processes that
  played its games), ``loss, policy_loss, value_loss`` (the means since the last record),
  ``buffer``.

The plots draw every series as a line with markers (one point is a visible dot) and write
"no data yet" or "no evaluation yet" on a panel that has nothing to draw.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

from agents.alphazero.evaluation import mcts_budget
from connectn_env.atomic_write import write_bytes_atomically, write_text_atomically
from connectn_env.safe_files import decode_utf8, read_regular_bytes

MAX_METRICS_BYTES = 2**28  # 256 MiB: a record every 30 s for years
_NUMBER = (int, float)
_INT = (int,)
_TEXT = (str,)
_OPTIONAL_NUMBER = (int, float, type(None))
# the fields each kind of record must have, and their types (bool is never a number here)
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "train": {
        "seconds": _NUMBER,
        "step": _INT,
        "games": _INT,
        "positions": _INT,
        "loss": _OPTIONAL_NUMBER,
        "policy_loss": _OPTIONAL_NUMBER,
        "value_loss": _OPTIONAL_NUMBER,
        "games_per_s": _NUMBER,
    },
    "bootstrap": {
        "seconds": _NUMBER,
        "step": _INT,
        "games": _INT,
        "of": _INT,
        "positions": _INT,
        "cpu_seconds": _NUMBER,
        "loss": _OPTIONAL_NUMBER,
    },
    "eval": {
        "seconds": _NUMBER,
        "label": _TEXT,
        "step": _INT,
        "games": _INT,
        "results": (list,),
        "elo": (dict,),
        "checkpoints": (dict,),
    },
}
_RESULT_FIELDS = {"a": _TEXT, "b": _TEXT, "wins": _INT, "draws": _INT, "losses": _INT}
_RESULT_FIELDS |= {"score": _NUMBER}
_RECORD_START = b'{"kind": "'
NO_DATA = "no data yet"
NO_EVALUATION = "no evaluation yet"
_MARKER = {"marker": "o", "markersize": 4}


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """The records of a metrics file (none if it is missing; a torn last line, the write of
    a killed run, is skipped).

    Raises:
        ValueError: the file is not a regular file, is too large, or a line is not UTF-8, not
            JSON or not a record of the kinds above with fields of the right types; the
            message starts with the path and names the line.
        OSError: the file cannot be read.
    """
    try:
        data = read_regular_bytes(path, max_bytes=MAX_METRICS_BYTES, what="a metrics log")
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")
    records = []
    for number, line in enumerate(lines, 1):
        # no newline after it, and the start of a record: the append of a killed run
        torn = number == len(lines) and line.startswith(_RECORD_START)
        if not line.strip():
            continue
        try:
            records.append(_record(json.loads(decode_utf8(line, str(path), number))))
        except (ValueError, TypeError, RecursionError) as error:
            if torn:
                continue
            text = str(error).removeprefix(f"{path} line {number}: ")
            raise ValueError(f"{path}: line {number}: {text}") from None
    return records


def _record(data: Any) -> dict[str, Any]:
    """``data`` if it is a metrics record with fields of the right types."""
    if not isinstance(data, dict):
        raise TypeError(f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("kind")
    if kind not in _FIELDS:
        raise TypeError(f"kind must be one of {', '.join(_FIELDS)}, got {kind!r:.40}")
    _check_fields(data, _FIELDS[kind], kind)
    if kind == "eval":
        for result in data["results"]:
            if not isinstance(result, dict):
                raise TypeError("results must hold JSON objects")
            _check_fields(result, _RESULT_FIELDS, "result")
        for name in ("elo", "checkpoints"):
            for value in data[name].values():
                if not isinstance(value, _OPTIONAL_NUMBER) or isinstance(value, bool):
                    raise TypeError(f"{name} must map labels to numbers, got {value!r:.40}")
    return data


def _check_fields(data: dict[str, Any], fields: dict[str, tuple[type, ...]], what: str) -> None:
    for name, types in fields.items():
        if name not in data:
            raise TypeError(f"a {what} record has no {name!r}")
        value = data[name]
        if not isinstance(value, types) or isinstance(value, bool):
            raise TypeError(f"{what} field {name!r} is {value!r:.40}, of the wrong type")


class MetricsLog:
    """Appends records to ``path``; :meth:`keep` rewrites it (a resumed run drops the
    records after its checkpoint)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def keep(self, records: list[dict[str, Any]]) -> None:
        """Replace the file with ``records``, atomically."""
        write_text_atomically(self.path, "".join(json.dumps(r) + "\n" for r in records))

    def write(self, record: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(record, allow_nan=True) + "\n")


def plot_metrics(metrics: str | Path, png: str | Path, title: str = "") -> None:
    """Draw loss (the bootstrap phase's too), Elo, score against each MCTS budget and
    games/s over training time into ``png`` (atomically), from the metrics file
    ``metrics``."""
    figure = metrics_figure(read_metrics(metrics), title)
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=90)
    write_bytes_atomically(png, image.getbuffer())


def metrics_figure(records: list[dict[str, Any]], title: str = "") -> Any:
    """The matplotlib ``Figure`` of :func:`plot_metrics` for these records (as read by
    :func:`read_metrics`): four panels, loss, Elo, score and games/s."""
    from matplotlib.figure import Figure  # no pyplot: the caller's backend is left alone

    train = [r for r in records if r.get("kind") == "train"]
    trained = [r for r in records if r.get("kind") in ("bootstrap", "train")]  # with losses
    evals = [r for r in records if r.get("kind") == "eval"]
    figure = Figure(figsize=(11, 7.5), layout="constrained")
    axes = figure.subplots(2, 2)
    loss, elo, score, speed = axes.flat
    minutes = [r["seconds"] / 60 for r in train]
    for key, name in (("policy_loss", "policy"), ("value_loss", "value"), ("loss", "total")):
        points = [(r["seconds"] / 60, r[key]) for r in trained if r.get(key) is not None]
        if points:
            loss.plot(*zip(*points, strict=True), label=name, **_MARKER)
    loss.set(title="training loss", xlabel="minutes", ylabel="loss")
    if loss.get_lines():
        loss.legend()
    else:
        _say_empty(loss, NO_DATA)
    points = []
    if evals:
        last = evals[-1]
        checkpoints = last.get("checkpoints", {})
        points = sorted(
            (seconds / 60, last["elo"][label])
            for label, seconds in checkpoints.items()
            if last["elo"].get(label) is not None and math.isfinite(last["elo"][label])
        )
        if points:
            elo.plot(*zip(*points, strict=True), **_MARKER)
        for label, value in last["elo"].items():
            budget = mcts_budget(label)
            if budget is not None and value is not None and math.isfinite(value):
                elo.axhline(value, linestyle=":", linewidth=1, color="grey")
                elo.annotate(str(budget), (0, value), fontsize=7, color="grey")
    elo.set(title="Elo (MCTS with the smallest budget = 0)", xlabel="minutes", ylabel="Elo")
    if not points:  # the MCTS anchors alone are no curve
        _say_empty(elo, "no finite rating yet" if evals else NO_EVALUATION)
    by_opponent: dict[str, list[tuple[float, float]]] = {}
    for record in evals:
        for result in record["results"]:
            if mcts_budget(result["b"]) is not None:
                by_opponent.setdefault(result["b"], []).append(
                    (record["seconds"] / 60, result["score"])
                )
    for opponent, points in sorted(by_opponent.items(), key=lambda kv: mcts_budget(kv[0])):
        score.plot(*zip(*points, strict=True), label=opponent, **_MARKER)
    score.set(title="score against pure UCT MCTS", xlabel="minutes", ylabel="score")
    score.set_ylim(-0.04, 1.04)  # whole markers at a score of 0 or 1
    if by_opponent:
        score.legend(fontsize=8)
    else:
        _say_empty(score, NO_EVALUATION)
    points = [(m, r["games_per_s"]) for m, r in zip(minutes, train, strict=True)]
    if points:
        speed.plot(*zip(*points, strict=True), **_MARKER)
    else:
        _say_empty(speed, NO_DATA)
    speed.set(title="self-play games per second", xlabel="minutes", ylabel="games/s")
    for panel in axes.flat:
        panel.set_xlim(left=0)  # training time from the start: one point is not the whole axis
    if title:
        figure.suptitle(title)
    return figure


def _say_empty(axes: Any, text: str) -> None:
    """Write ``text`` in the middle of a panel that has nothing to draw."""
    axes.text(0.5, 0.5, text, transform=axes.transAxes, ha="center", va="center", color="grey")
