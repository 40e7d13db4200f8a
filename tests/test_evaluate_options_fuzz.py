"""Hostile options for the A/B mode (``--sprt``, ``--alpha``, ``--beta``, ``--max-games``,
``--move-timeout``, and ``sprt()``'s own arguments) and for ``--positions`` (issue 43).

Hypothesis writes the values: plain and negative numbers, exponents past a float's range,
``inf`` and ``nan``, non-ASCII digits (``٥``, ``５``, ``²``), underscores, spaces, commas in
the wrong number, random text; both ``--sprt X`` and ``--sprt=X``. Each case must give either
a valid run setup (numbers in range, finite SPRT bounds that a run can reach, for
``--positions`` a finished judgement) or a clean refusal (argparse's or the command's one
``error:`` line with exit status 2; from Python a ``ValueError``/``TypeError`` naming the
argument), never a traceback. The counts of cases and of answers are printed at the end of
the module (``pytest -s``).
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import connectn_env.cli as cli
import connectn_env.ladder.command as command
from connectn_env.cli import build_parser, main
from connectn_env.ladder import sprt
from connectn_env.ladder.movequality import move_quality
from connectn_env.ladder.positions import load_positions
from connectn_env.ladder.sprt import MAX_ELO_BOUND, MIN_PROBABILITY, sprt_bounds
from connectn_env.pentanomial import Pentanomial

COUNTS: Counter[str] = Counter()
PARSER = build_parser()  # one for every example: parsing leaves a parser as it was
ODD_DIGITS = "\u0660\u0665\u06f3\u0967\uff10\uff15\u00b2\U0001d7d7"

_number_text = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(-2000, 2000).map(lambda x: f"{x:g}"),
    st.floats(1e-330, 1).map(lambda x: f"{x:.3g}"),
    st.sampled_from(["inf", "-inf", "nan", "1e400", "-1e400", "1e-400", "5_0", "0x10", ""]),
    st.sampled_from([" 5", "5 ", "+5", "-.5", ".5", "5.", "1e3", "1E-3", "--5", "5e", "e5"]),
    st.text(alphabet=ODD_DIGITS + "0123456789.-+e_ ", max_size=8),
    st.text(max_size=6),
)


_plausible = st.one_of(  # what a user means to type, at and past the ranges' ends
    st.floats(-1200, 1200).map(lambda x: f"{x:g}"),
    st.integers(-1200, 1200).map(str),
    st.floats(1e-7, 0.6).map(lambda x: f"{x:.2g}"),
    st.integers(1, 100_000).map(str),
)
_text = st.one_of(_plausible, _number_text)


# What a user means to type, by option (in range, and a little past its ends), three times
# in four; hostile text the fourth.
_ELO = st.floats(-1100, 1100)
_IN_RANGE = {
    "--alpha": st.floats(1e-7, 0.5),
    "--beta": st.floats(1e-7, 0.5),
    "--max-games": st.integers(0, 10**6),
    "--move-timeout": st.floats(0, 90_000),
}


def _typed(values: st.SearchStrategy) -> st.SearchStrategy[str]:
    written = values.map(lambda x: f"{x:g}" if isinstance(x, float) else str(x))
    return st.integers(0, 3).flatmap(lambda k: written if k else _number_text)


@st.composite
def _bounds_text(draw: st.DrawFn) -> str:
    """ELO0,ELO1: in range three times in five (swapped once in five of those), around the
    ends of the range once, hostile text once."""
    mode = draw(st.integers(0, 4))
    if mode == 0:
        return ",".join(draw(st.lists(_number_text, min_size=1, max_size=3)))
    if mode == 1:
        return f"{draw(_ELO)!r},{draw(_ELO)!r}"
    low = draw(st.floats(-MAX_ELO_BOUND, MAX_ELO_BOUND - 0.2))
    high = draw(st.floats(low + 0.2, MAX_ELO_BOUND))
    return f"{low!r},{high!r}" if draw(st.integers(0, 4)) else f"{high!r},{low!r}"


def _option(name: str, value: str, equals: bool) -> list[str]:
    return [f"{name}={value}"] if equals else [name, value]


@st.composite
def _ab_command_line(draw: st.DrawFn) -> list[str]:
    argv = ["evaluate", "tictactoe", "random", "--vs", "random"]
    argv += _option("--sprt", draw(_bounds_text()), draw(st.booleans()))
    for name, values in _IN_RANGE.items():
        if draw(st.booleans()):
            argv += _option(name, draw(_typed(values)), draw(st.booleans()))
    return argv


def _clean_refusal(stop: SystemExit, err: str) -> bool:
    lines = [line for line in err.splitlines() if line.strip()]
    return stop.code == 2 and "error:" in lines[-1] and "Traceback" not in err


FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@settings(FUZZ, max_examples=300)
@given(argv=_ab_command_line())
def test_ab_options_give_a_valid_setup_or_a_clean_error(argv: list[str], capsys) -> None:
    COUNTS["A/B command lines"] += 1
    try:
        args = PARSER.parse_args(argv)
    except SystemExit as stop:
        assert _clean_refusal(stop, capsys.readouterr().err), (argv, stop.code)
        COUNTS["A/B command lines refused cleanly"] += 1
        return
    low, high = args.sprt
    assert -MAX_ELO_BOUND <= low < high <= MAX_ELO_BOUND
    for probability in (args.alpha, args.beta):
        assert probability is None or MIN_PROBABILITY <= probability < 0.5
    assert 0 < args.move_timeout <= 86_400
    assert args.max_games is None or args.max_games >= 1
    alpha, beta = args.alpha or 0.05, args.beta or 0.05
    lower, upper = sprt_bounds(alpha, beta)
    assert math.isfinite(lower) and math.isfinite(upper) and lower < 0 < upper
    for kind in range(5):
        for pairs in (1, 1000):
            counts = tuple(pairs if i == kind else 0 for i in range(5))
            assert math.isfinite(Pentanomial(counts).llr(low, high))
    won, lost = Pentanomial((0, 0, 0, 0, 1000)), Pentanomial((1000, 0, 0, 0, 0))
    assert won.llr(low, high) > 0 > lost.llr(low, high)
    COUNTS["A/B command lines accepted"] += 1


_hostile = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**400), 10**400),
    st.booleans(),
    st.none(),
    _number_text,
)


def _mostly(values: st.SearchStrategy) -> st.SearchStrategy:
    """``values`` nine times in ten, else a hostile value (``one_of`` would flatten the
    hostile strategies into as many branches)."""
    return st.integers(0, 9).flatmap(lambda k: values if k else _hostile)


@settings(FUZZ, max_examples=300)
@given(
    elo0=_mostly(st.floats(-1100, 100)),
    elo1=_mostly(st.floats(-100, 1100)),
    alpha=_mostly(st.floats(1e-7, 0.5)),
    beta=_mostly(st.floats(1e-7, 0.5)),
    timeout=_mostly(st.floats(0, 90_000)),
)
def test_sprt_arguments_are_accepted_or_refused_by_name(elo0, elo1, alpha, beta, timeout) -> None:
    """A candidate that is not an agent is checked after the numbers: its error means the
    numbers passed."""
    COUNTS["sprt() calls"] += 1
    options = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "move_timeout": timeout}
    with pytest.raises((TypeError, ValueError)) as error:
        sprt("no-such-agent", "random", game="tictactoe", **options)
    message = str(error.value)
    if message.startswith("candidate 'no-such-agent'"):
        assert -MAX_ELO_BOUND <= elo0 < elo1 <= MAX_ELO_BOUND
        assert MIN_PROBABILITY <= alpha < 0.5 and MIN_PROBABILITY <= beta < 0.5
        assert timeout is None or 0 < timeout <= 86_400  # None: no limit
        COUNTS["sprt() calls accepted"] += 1
    else:
        assert any(name in message for name in ("elo0", "elo1", "alpha", "beta", "move_timeout"))
        COUNTS["sprt() calls refused by name"] += 1


POSITIONS = load_positions()[:3]
_CANDIDATES = (
    "random", "random:seed=5", "arena_helpers:first_legal", "random", "random:seed=7",
    "nonsense", "", "sb3:model.zip", "random:seed=-1", "random:seed=\u0665", "human",
    "mcts:simulations=x",
)  # fmt: skip
_GAME_OPTIONS = ("--games", "--minutes", "--ladder", "--results", "--workers", "--vs")
_GAMES = ([["connect_four"]] * 3) + [["connect_n"], ["tictactoe"], ["hex", "--size", "7"]]


@st.composite
def _positions_command_line(draw: st.DrawFn) -> list[str]:
    argv = ["evaluate", *draw(st.sampled_from(_GAMES)), draw(st.sampled_from(_CANDIDATES))]
    argv.append("--positions")
    for name, values in (
        ("--seed", st.integers(-5, 2**64)),
        ("--move-timeout", _IN_RANGE["--move-timeout"]),
    ):
        if draw(st.booleans()):
            argv += _option(name, draw(_typed(values)), draw(st.booleans()))
    for name in (*_GAME_OPTIONS, "--sprt", "--alpha"):
        if draw(st.integers(0, 19)) == 0:
            argv += _option(name, draw(_typed(st.integers(1, 9))), draw(st.booleans()))
    return argv


@settings(FUZZ, max_examples=150)
@given(argv=_positions_command_line())
def test_positions_options_give_a_judgement_or_a_clean_error(
    argv: list[str], capsys, monkeypatch
) -> None:
    COUNTS["--positions command lines"] += 1
    monkeypatch.setattr(cli, "build_parser", lambda: PARSER)
    monkeypatch.setattr(  # three positions, not 200: the options are what is tried
        command,
        "move_quality",
        lambda candidate, **options: move_quality(candidate, POSITIONS, **options),
    )
    try:
        status = main(argv)
    except SystemExit as stop:
        assert _clean_refusal(stop, capsys.readouterr().err), (argv, stop.code)
        COUNTS["--positions command lines refused cleanly"] += 1
        return
    out = capsys.readouterr().out
    assert status == 0 and "Connect Four move quality on 3 positions" in out, (argv, out)
    COUNTS["--positions command lines judged"] += 1


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    yield
    print("\noptions fuzz: " + ", ".join(f"{key}: {value}" for key, value in COUNTS.items()))
