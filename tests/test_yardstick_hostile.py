"""The yardstick against hostile input: the Elo model never overflows, a ladder file with
absurd ratings is refused when read and its labels are shown with control characters
escaped; the SPRT's bounds and error rates are numbers in a range where the test can
decide, written in ASCII digits (a minus sign included)."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from connectn_env.cli import build_parser
from connectn_env.elo import expected_score
from connectn_env.ladder import load_ladder, sprt
from connectn_env.ladder.ladderfile import DATA
from connectn_env.ladder.sprt import sprt_bounds
from connectn_env.pentanomial import Pentanomial

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]


@pytest.mark.parametrize("difference", [0.0, 400.0, 1e5, 1e300, 1e308, math.inf])
def test_the_expected_score_never_overflows(difference: float) -> None:
    stronger, weaker = expected_score(difference, 0.0), expected_score(0.0, difference)
    assert 0.5 <= stronger <= 1.0 and 0.0 <= weaker <= 0.5
    assert stronger + weaker == pytest.approx(1.0)
    assert expected_score(-1e308, 1e308) == 0.0 and expected_score(1e308, -1e308) == 1.0


def _connectn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    executable = shutil.which("connectn", path=os.path.dirname(sys.executable))
    return subprocess.run(
        [executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_ladder_show_escapes_control_characters_in_labels(tmp_path: Path) -> None:
    data = json.loads((DATA / "connect_n_6x6.json").read_text(encoding="utf-8"))
    old = data["rungs"][1]["label"]
    new = "\x1b[2J\x1b]0;pwned\x07" + old
    data["rungs"][1]["label"] = new
    for pairing in data["pairings"] + data["held_out"]:
        for side in ("a", "b"):
            if pairing[side] == old:
                pairing[side] = new
        pairing["errors"] = {(new if k == old else k): v for k, v in pairing["errors"].items()}
    data["fixed"] = [new if label == old else label for label in data.get("fixed", [])]
    path = tmp_path / "escapes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    shown = _connectn("ladder", "show", *SIX, "--file", str(path), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert "\\x1b[2J\\x1b]0;pwned\\x07" + old in shown.stdout


def _absurd_ladder(tmp_path: Path) -> Path:
    data = json.loads((DATA / "connect_n_6x6.json").read_text(encoding="utf-8"))
    data["rungs"][1].update(rating=1e300, ci95=[-1e300, 1e300])
    path = tmp_path / "absurd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_ladder_file_with_an_absurd_rating_is_refused_when_read(tmp_path: Path) -> None:
    path = _absurd_ladder(tmp_path)
    with pytest.raises(ValueError, match=r"rating 1e\+300 must be .* from -10000 to 10000"):
        load_ladder(path)
    for args in (
        ["ladder", "show", *SIX, "--file", str(path)],
        ["evaluate", *SIX, "random", "--ladder", str(path), "--games", "2", "--workers", "1"],
    ):
        done = _connectn(*args, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "from -10000 to 10000" in done.stderr


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"elo0": -1e6, "elo1": 0}, "elo0 must be from -1000 to 1000 Elo, got -1e"),
        ({"elo0": 0, "elo1": 1e300}, "elo1 must be from -1000 to 1000 Elo"),
        ({"elo0": 0, "elo1": 10**400}, "elo1 must be finite, got a number too large for a float"),
        ({"elo0": 0, "elo1": 50, "alpha": 1e-320}, "alpha must be at least 1e-06"),
        ({"elo0": 0, "elo1": 50, "beta": 5e-7}, "beta must be at least 1e-06"),
    ],
)
def test_sprt_bounds_and_error_rates_out_of_range_are_refused(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sprt("random", "random", game="tictactoe", **options)


def test_the_llr_is_finite_at_the_extremes_of_the_ranges() -> None:
    low, high = sprt_bounds(1e-6, 1e-6)
    assert math.isfinite(low) and math.isfinite(high)
    for counts in ((1, 0, 0, 0, 0), (0, 0, 0, 0, 1), (500, 10, 0, 0, 0), (0, 0, 9, 0, 0)):
        assert math.isfinite(Pentanomial(counts).llr(-1000.0, 1000.0))


def _evaluate(*options: str):
    return build_parser().parse_args(
        ["evaluate", "tictactoe", "random", "--vs", "random", *options]
    )


def test_a_negative_elo_bound_needs_no_equals_sign() -> None:
    assert _evaluate("--sprt", "-1.75,0.25").sprt == (-1.75, 0.25)
    assert _evaluate("--sprt", "-.5,0.25").sprt == (-0.5, 0.25)
    assert _evaluate("--sprt=-1.75,0.25").sprt == (-1.75, 0.25)
    assert _evaluate("--sprt", " -10, 5 ").sprt == (-10.0, 5.0)
    assert _evaluate("--sprt", "0,50", "--alpha", "1e-3", "--beta", "0.1").alpha == 0.001


def test_the_move_timeout_has_a_default_and_is_an_option() -> None:
    assert _evaluate("--sprt", "0,50").move_timeout == 300.0
    assert _evaluate("--sprt", "0,50", "--move-timeout", "2.5").move_timeout == 2.5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sprt", "0,50", "--move-timeout", "0"], "expected seconds > 0 and at most 86400"),
        (["--sprt", "0,50", "--move-timeout", "1e9"], "expected seconds > 0 and at most 86400"),
        (["--sprt", "0,50", "--move-timeout", "٥"], "expected seconds > 0"),
        (["--sprt", "٠,٥٠"], "expected ELO0,ELO1"),  # Arabic-Indic digits
        (["--sprt", "5_0,60"], "expected ELO0,ELO1"),
        (["--sprt", "０,５０"], "expected ELO0,ELO1"),  # full-width digits
        (["--sprt=-1e6,0"], "expected ELO0,ELO1 with -1000 <= ELO0 < ELO1 <= 1000"),
        (["--sprt", "0,inf"], "expected ELO0,ELO1"),
        (["--sprt", "0,50", "--alpha", "1e-320"], "expected a probability from 1e-06"),
        (["--sprt", "0,50", "--beta", "٠.١"], "expected a probability"),
        (["--sprt", "0,50", "--alpha", "nan"], "expected a probability"),
    ],
)
def test_sprt_options_out_of_range_or_in_other_digits_are_refused(
    options: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    with pytest.raises(SystemExit) as stop:
        _evaluate(*options)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_an_sb3_model_that_is_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    from connectn_env.ladder import evaluate

    os.mkfifo(tmp_path / "model.zip")
    with pytest.raises(ValueError, match=r"model\.zip is a FIFO \(named pipe\), not a regular"):
        evaluate(f"sb3:path={tmp_path / 'model.zip'}", game="connect_four", games=2, workers=1)
