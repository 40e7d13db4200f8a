"""The base install (``pip install .``, no torch): the ladders, ``evaluate`` and every level
that needs no network work; a network rung is skipped, and a network level refused, with one
line that says what to install.

Each command runs in a subprocess in which ``import torch`` fails (``sys.modules["torch"] =
None``), as it does in a venv without torch; CI also runs the README's quick starts in a real
one (``.ci/quickstarts.py``)."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

from pythonpath_helpers import pythonpath

from connectn_env.ladder.games import command_game
from connectn_env.ladder.ladderfile import (
    LadderRung,
    load_ladder,
    shipped_keys,
    shipped_ladder,
    shipped_path,
)
from connectn_env.ladder.levels import levels
from connectn_env.specs import AgentUnavailableError

WITHOUT_TORCH = (
    "import sys; sys.modules['torch'] = None; "  # import torch raises ImportError
    "from connectn_env.cli import main; sys.exit(main(sys.argv[1:]))"
)


def connectn_without_torch(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": pythonpath()}
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_TORCH, *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def network_level() -> tuple[list[str], int]:
    """A shipped ladder's game (command-line words) whose network rung is a level, and that
    level (1 = weakest)."""
    for key in shipped_keys():
        labels = [rung.label for rung in levels(key)]
        if "az-200" in labels:
            return command_game(key).split(), 1 + labels.index("az-200")
    raise AssertionError("no shipped ladder has its network rung as a level")


def test_ladder_show_lists_every_rung_and_says_in_one_line_what_the_network_needs(
    tmp_path: Path,
) -> None:
    shown = connectn_without_torch("ladder", "show", "connect_four", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    with_torch = shipped_ladder("connect_four")
    for rung in with_torch.rungs:  # every rung, its rating as in the file
        assert f"{rung.rating:+5.0f}" in shown.stdout and rung.label in shown.stdout
    notes = [line for line in shown.stdout.splitlines() if "need torch" in line]
    assert len(notes) == 1 and "az-200" in notes[0] and 'pip install ".[train]"' in notes[0]
    row = next(line for line in shown.stdout.splitlines() if "az-200" in line.split()[:2])
    assert row.endswith("(cannot play here)")


def test_levels_without_torch_play_and_the_network_level_says_what_to_install(
    tmp_path: Path,
) -> None:
    first = connectn_without_torch(
        "play", "connect_four", "--level", "1", "--ui", "terminal", cwd=tmp_path, stdin="quit\n"
    )
    assert first.returncode == 0, first.stderr
    assert "Playing level 1: random" in first.stdout
    game, level = network_level()
    refused = connectn_without_torch(
        "play", *game, "--level", str(level), "--ui", "terminal", cwd=tmp_path
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(f"connectn play: error: level {level} (az-200) cannot play")
    assert 'need torch: pip install ".[train]"' in refused.stderr


def test_evaluate_without_torch_skips_the_network_rung_and_names_it(tmp_path: Path) -> None:
    """On a three-rung cut of the shipped ladder (random, uct-10, the network), the
    candidate plays the two others; the network rung is named as skipped, in the table and
    in the JSON."""
    data = json.loads(shipped_path("connect_four").read_text(encoding="utf-8"))
    keep = {"random", "uct-10", "az-200"}
    data["rungs"] = [rung for rung in data["rungs"] if rung["label"] in keep]
    data["pairings"] = [p for p in data["pairings"] if {p["a"], p["b"]} <= keep]
    data["fixed"] = [label for label in data["fixed"] if label in keep]
    data["held_out"] = [p for p in data["held_out"] if {p["a"], p["b"]} <= keep]
    del data["checks"]  # they were the whole ladder's
    (tmp_path / "small.json").write_text(json.dumps(data), encoding="utf-8")
    done = connectn_without_torch(
        "evaluate", "connect_four", "random", "--ladder", "small.json", "--games", "4",
        "--workers", "1", "--no-progress", "--json", "result.json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    skipped = [line for line in done.stdout.splitlines() if "az-200" in line]
    assert len(skipped) == 1 and skipped[0].startswith("skipped, not playable here: az-200: ")
    result = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    assert result["games"] == 4
    assert [rung["label"] for rung in result["rungs"]] == ["random", "uct-10"]
    assert [rung["label"] for rung in result["skipped"]] == ["az-200"]
    assert "need torch" in result["skipped"][0]["reason"]


def test_a_ladder_without_its_missing_rungs_keeps_the_others_ratings(tmp_path: Path) -> None:
    ladder = load_ladder(shipped_path("connect_four"), "connect_four")
    assert ladder.missing == ()  # torch is installed here
    rungs = tuple(
        LadderRung(r.label, r.spec, r.rating, r.ci95, r.games, "needs x" * (r.label == "ab-4"))
        for r in ladder.rungs
    )
    cut = dataclasses.replace(ladder, rungs=rungs).playable()
    assert "ab-4" not in cut.labels and len(cut.labels) == len(ladder.labels) - 1
    assert cut.ratings == {k: v for k, v in ladder.ratings.items() if k != "ab-4"}
    assert all("ab-4" not in (p.a, p.b) for p in cut.pairings) and "ab-4" not in cut.fixed
    held_out = [p for p in ladder.held_out if "ab-4" not in (p.a, p.b)]
    assert len(held_out) < len(ladder.held_out)  # the shipped ladder holds out uct-10 vs ab-4
    assert cut.held_out == tuple(held_out) and cut.checks["held_out"]["of"] == len(held_out)


def test_the_unavailable_agent_error_survives_pickling() -> None:
    """It crosses process boundaries (the arena's workers) with its reason."""
    error = pickle.loads(pickle.dumps(AgentUnavailableError("az:pretrained", "need torch")))
    assert isinstance(error, ValueError) and error.reason == "need torch"
    assert str(error) == "agent spec 'az:pretrained': need torch"
