"""Short training runs show something: a run evaluates at least once before it ends (a short
first evaluation, a final one once the budget is spent), and its plots read well with no
point, one point or many."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason='the train extra is not installed: pip install ".[train]"')

from agents.alphazero.metrics import (
    NO_DATA,
    NO_EVALUATION,
    metrics_figure,
    plot_metrics,
    read_metrics,
)

MCTS_20 = "mcts:simulations=20,preset=uct"


def train_record(seconds: float, loss: float | None = 1.5) -> dict:
    return {
        "kind": "train",
        "seconds": seconds,
        "step": int(seconds),
        "games": int(seconds) * 2,
        "positions": int(seconds) * 10,
        "loss": loss,
        "policy_loss": None if loss is None else loss - 0.5,
        "value_loss": None if loss is None else 0.5,
        "games_per_s": 2.0,
    }


def eval_record(seconds: float, previous: list[float]) -> dict:
    label = f"step-{int(seconds):07d}"
    checkpoints = {f"step-{int(s):07d}": s for s in [*previous, seconds]}
    return {
        "kind": "eval",
        "seconds": seconds,
        "label": label,
        "step": int(seconds),
        "games": int(seconds) * 2,
        "results": [{"a": label, "b": MCTS_20, "wins": 1, "draws": 0, "losses": 1, "score": 0.5}],
        "elo": {MCTS_20: 0.0} | {name: 10.0 * s for name, s in checkpoints.items()},
        "checkpoints": checkpoints,
        "eval_seconds": 3.0,
        "after_budget": False,
    }


def records(points: int) -> list[dict]:
    train = [train_record(30.0 * (i + 1)) for i in range(points)]
    evals = [eval_record(30.0 * (i + 1), [30.0 * (j + 1) for j in range(i)]) for i in range(points)]
    return [r for pair in zip(train, evals, strict=True) for r in pair]


def panels(figure) -> dict:
    loss, elo, score, speed = figure.axes
    return {"loss": loss, "elo": elo, "score": score, "speed": speed}


def texts(axes) -> list[str]:
    return [text.get_text() for text in axes.texts]


def curves(axes) -> list:
    """The data lines of a panel (the Elo panel's MCTS anchors are horizontal rules)."""
    return [line for line in axes.get_lines() if line.get_linestyle() != ":"]


def test_panels_without_data_say_so() -> None:
    figure = metrics_figure([], "empty")
    for name, axes in panels(figure).items():
        assert not curves(axes), name
        expected = NO_EVALUATION if name in ("elo", "score") else NO_DATA
        assert expected in texts(axes), name


def test_a_run_with_training_but_no_evaluation_says_no_evaluation_yet() -> None:
    figure = metrics_figure([train_record(30.0)])
    axes = panels(figure)
    assert NO_EVALUATION in texts(axes["elo"]) and NO_EVALUATION in texts(axes["score"])
    assert curves(axes["loss"]) and curves(axes["speed"])
    assert not texts(axes["loss"]) and not texts(axes["speed"])


@pytest.mark.parametrize("points", [1, 4])
def test_every_curve_has_visible_markers(points: int) -> None:
    figure = metrics_figure(records(points))
    for name, axes in panels(figure).items():
        lines = curves(axes)
        assert lines, name
        assert NO_DATA not in texts(axes) and NO_EVALUATION not in texts(axes), name
        for line in lines:
            assert len(line.get_xdata()) == points, name
            assert line.get_marker() not in (None, "", "None", " "), name
            assert line.get_markersize() > 0, name
    low, high = panels(figure)["score"].get_ylim()
    assert low < 0 and high > 1, "markers at a score of 0 or 1 are cut in half"


def test_an_evaluation_without_a_finite_rating_says_so() -> None:
    evaluation = eval_record(30.0, [])
    evaluation["elo"][evaluation["label"]] = None  # every game lost: no finite rating
    axes = panels(metrics_figure([train_record(30.0), evaluation]))
    assert not curves(axes["elo"])
    assert "no finite rating yet" in texts(axes["elo"])
    assert curves(axes["score"])


@pytest.mark.parametrize("points", [0, 1, 4])
def test_plot_metrics_writes_a_png(tmp_path: Path, points: int) -> None:
    metrics = tmp_path / "metrics.jsonl"
    metrics.write_text("".join(json.dumps(r) + "\n" for r in records(points)))
    assert len(read_metrics(metrics)) == 2 * points
    png = tmp_path / "plots.png"
    plot_metrics(metrics, png, f"{points} points")
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert not [p for p in tmp_path.iterdir() if p.name not in ("metrics.jsonl", "plots.png")]


# --- a short run evaluates before it ends -----------------------------------------------------


def tiny_run(out: Path, **changes):
    """A tic-tac-toe run of a few seconds whose evaluation interval is far longer than it."""
    from test_alphazero import TINY  # the suite's smallest run (needs torch, as the callers)

    from agents.alphazero import TrainConfig

    settings = TINY | {
        "games": 24,
        "eval_minutes": 5.0,
        "eval_games": 10,
        "eval_budgets": (20,),
        "eval_simulations": 8,
    }
    return TrainConfig(game="tictactoe", out=out, **(settings | changes))


@pytest.mark.parametrize(
    "workers", [0, pytest.param(1, marks=pytest.mark.slow)]
)  # a worker process: about 11 s
def test_a_short_run_ends_with_an_evaluated_best_network(tmp_path: Path, workers: int) -> None:
    pytest.importorskip("torch")
    from agents.alphazero import load_checkpoint, train
    from agents.alphazero.trainer import FRESH_SHARE, short_eval_games

    out = tmp_path / "run"
    result = train(tiny_run(out, workers=workers), progress=False)
    evaluations = [r for r in read_metrics(out / "metrics.jsonl") if r["kind"] == "eval"]
    assert evaluations, "a run shorter than --eval-minutes ended without an evaluation"
    assert result.evaluations == evaluations
    first, last = evaluations[0], evaluations[-1]
    assert short_eval_games(10) == 2
    assert {r["wins"] + r["draws"] + r["losses"] for r in first["results"]} == {2}
    assert not first["after_budget"] and first["step"] > 0
    # the final network is evaluated after the budget, with the full number of games, unless
    # the last evaluated one is fresh
    if workers == 0:  # the first evaluation comes after the first training, a third in
        assert len(evaluations) == 2
    if len(evaluations) == 2:
        assert last["step"] == result.steps and last["after_budget"]
        assert {r["wins"] + r["draws"] + r["losses"] for r in last["results"]} == {10}
    else:
        assert last["seconds"] >= FRESH_SHARE * result.seconds
    assert all(r["eval_seconds"] >= 0 for r in evaluations)
    # best.pt is one of the evaluated networks, byte for byte
    best = (out / "best.pt").read_bytes()
    evaluated = {(out / "checkpoints" / f"{r['label']}.pt").read_bytes() for r in evaluations}
    assert best in evaluated
    assert load_checkpoint(out / "best.pt").progress["step"] in {r["step"] for r in evaluations}
    assert set(result.elo) >= {MCTS_20, last["label"]}


def test_a_run_without_training_steps_still_evaluates_its_network(tmp_path: Path) -> None:
    """A budget spent before the buffer could fill: the untrained network is evaluated."""
    pytest.importorskip("torch")
    from agents.alphazero import train

    out = tmp_path / "run"
    result = train(tiny_run(out, games=8, min_buffer=2000), progress=False)
    assert result.steps == 0
    (evaluation,) = result.evaluations
    assert evaluation["step"] == 0 and evaluation["after_budget"]
    assert {r["wins"] + r["draws"] + r["losses"] for r in evaluation["results"]} == {2}
    assert (out / "best.pt").read_bytes() == (
        out / "checkpoints" / f"{evaluation['label']}.pt"
    ).read_bytes()


def test_no_evaluation_when_evaluations_are_off(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from agents.alphazero import train

    out = tmp_path / "run"
    result = train(tiny_run(out, eval_minutes=0.0), progress=False)
    assert result.evaluations == [] and (out / "best.pt").exists()
    assert not list((out / "checkpoints").iterdir())


def test_connectn_train_tells_the_final_evaluation_and_its_rule(tmp_path: Path, capsys) -> None:
    pytest.importorskip("torch")
    from connectn_env.cli import main

    out = tmp_path / "run"
    args = ["train", "tictactoe", "--out", str(out), "--games", "16", "--workers", "0"]
    args += ["--simulations", "8", "--games-in-flight", "8", "--channels", "8", "--blocks", "1"]
    args += ["--batch-size", "32", "--buffer-size", "1000", "--eval-budgets", "20"]
    args += ["--eval-simulations", "8", "--no-progress"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "final evaluation, after the training budget: " in printed
    assert "(plain UCT at 20 simulations = 0), from " in printed
    with pytest.raises(SystemExit):
        main(["train", "tictactoe", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "The first, short, comes once the network has trained" in text
    assert "best.pt is always an evaluated network" in text
