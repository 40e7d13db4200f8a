"""Pentanomial statistics: a hand-worked example, the degenerate cases, and a simulation of
whole sequential tests on pairs drawn from known distributions (their error rates and the
interval's coverage)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from connectn_env.elo import expected_score
from connectn_env.pentanomial import Pentanomial, elo_of_score, pair_kind

H0_BOUND, H1_BOUND = -math.log(19), math.log(19)  # alpha = beta = 0.05


def test_a_hand_worked_example() -> None:
    # 10 pairs: 0 of 0 points, 1 of 1/2, 2 of 1, 4 of 3/2, 3 of 2 = 14.5 points in 20 games
    counts = Pentanomial((0, 1, 2, 4, 3))
    assert counts.pairs == 10 and counts.score == pytest.approx(0.725)
    # half a virtual pair of each: weights .5 1.5 2.5 4.5 3.5 (12.5) on 0 1/4 1/2 3/4 1,
    # mean 8.5 / 12.5 = .68, variance (.5 .68^2 + 1.5 .43^2 + 2.5 .18^2 + 4.5 .07^2
    # + 3.5 .32^2) / 12.5 = .97 / 12.5
    assert counts.variance == pytest.approx(0.97 / 12.5)
    s1 = 1 / (1 + 10**-0.125)  # 50 Elo
    assert counts.llr(0, 50) == pytest.approx(10 * (s1 - 0.5) * (1.45 - 0.5 - s1) / (0.97 / 6.25))
    assert counts.llr(0, 50) == pytest.approx(1.7430, abs=1e-4)
    half = 1.959963984540054 * math.sqrt(0.0776 / 10)
    assert counts.score_interval() == pytest.approx((0.725 - half, 0.725 + half))
    assert counts.elo == pytest.approx(400 * math.log10(0.725 / 0.275))
    low, high = counts.elo_interval()
    assert low == pytest.approx(elo_of_score(0.725 - half))
    assert high == pytest.approx(elo_of_score(0.725 + half))


def test_pairs_are_counted_by_their_points() -> None:
    assert [pair_kind(a, b) for a, b in [(0, 0), (0.5, 0), (1, 0), (0.5, 0.5), (1, 0.5)]] == [
        0, 1, 2, 2, 3,
    ]  # fmt: skip
    pairs = [(1, 1), (1, 0), (0, 1), (0.5, 1), (0, 0)]
    assert Pentanomial.of_pairs(pairs).counts == (1, 0, 2, 1, 1)
    assert Pentanomial().add(1, 1).add(0.5, 0).counts == (0, 1, 0, 0, 1)


def test_the_llr_grows_with_evidence_and_changes_sign_at_the_middle_score() -> None:
    assert Pentanomial().llr(0, 50) == 0.0
    strong = [Pentanomial((1 * k, 2 * k, 3 * k, 6 * k, 4 * k)).llr(0, 50) for k in (1, 2, 4)]
    assert 0 < strong[0] < strong[1] < strong[2]
    # the middle of 0 and 50 Elo is a score of about .5357: above it the LLR favours H1
    middle = (expected_score(0, 0) + expected_score(50, 0)) / 2
    for counts in [(0, 10, 80, 10, 0), (5, 20, 50, 20, 5), (3, 17, 40, 30, 10)]:
        pentanomial = Pentanomial(counts)
        assert np.sign(pentanomial.llr(0, 50)) == np.sign(pentanomial.score - middle)


def test_every_pair_scoring_the_same_gives_finite_numbers_and_a_slow_decision() -> None:
    # deterministic agents replaying one pair: the observed variance is 0
    for kind in range(5):
        for pairs in (1, 2, 50):
            counts = [0] * 5
            counts[kind] = pairs
            pentanomial = Pentanomial(tuple(counts))
            assert pentanomial.variance > 0
            assert math.isfinite(pentanomial.llr(0, 50))
            assert math.isfinite(pentanomial.llr(-1000, 1000))
    llrs = [Pentanomial((0, 0, n, 0, 0)).llr(0, 50) for n in range(1, 30)]
    assert next(n for n, llr in enumerate(llrs, 1) if llr <= H0_BOUND) == 18
    llrs = [Pentanomial((0, 0, 0, 0, n)).llr(0, 50) for n in range(1, 30)]
    assert next(n for n, llr in enumerate(llrs, 1) if llr >= H1_BOUND) == 8


def test_scores_of_0_and_1_have_unbounded_elo_ends() -> None:
    won = Pentanomial((0, 0, 0, 0, 6))
    assert won.score == 1 and won.elo is None
    low, high = won.elo_interval()
    assert low is not None and low > 0 and high is None
    lost = Pentanomial((6, 0, 0, 0, 0))
    assert lost.elo is None and lost.elo_interval()[0] is None
    assert Pentanomial().score is None and Pentanomial().elo_interval() is None
    assert elo_of_score(0.5) == 0 and elo_of_score(0) is None and elo_of_score(1) is None


@pytest.mark.parametrize("bad", [(1, 2), [0, 0, 0, 0, 0], (0, 0, -1, 0, 0), (0, 0, 1.0, 0, 0)])
def test_bad_counts_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="counts must be a tuple of 5 integers"):
        Pentanomial(bad)  # type: ignore[arg-type]


def test_a_game_score_other_than_0_half_or_1_is_refused() -> None:
    with pytest.raises(ValueError, match=r"0, 0.5 or 1, got 0.25"):
        pair_kind(0.25, 1)


def _pair_probabilities(elo: float, draws: float = 0.3) -> np.ndarray:
    """Pair kinds of two independent games that A scores ``expected_score(elo)`` in on
    average, a share ``draws`` of them drawn."""
    score = expected_score(elo, 0.0)
    game = np.array([1 - score - draws / 2, draws, score - draws / 2])  # loss, draw, win
    return np.convolve(game, game)


def _run_sprt(rng: np.random.Generator, elo: float, max_pairs: int = 3000) -> str:
    probabilities = _pair_probabilities(elo)
    counts = [0] * 5
    for kind in rng.choice(5, size=max_pairs, p=probabilities):
        counts[kind] += 1
        llr = Pentanomial(tuple(counts)).llr(0, 50)
        if llr >= H1_BOUND:
            return "H1"
        if llr <= H0_BOUND:
            return "H0"
    return "inconclusive"


def test_simulated_tests_keep_their_error_rates() -> None:
    rng = np.random.default_rng(41)
    # 200 tests at 0,50 where H0 (0 Elo) holds, 200 where H1 (50 Elo) does: about 5% of
    # either should be wrong (the normal approximation, deciding after 20 to 300 pairs,
    # measured 5% to 8%); 22 or more of 200 would be 3 standard deviations above 6%
    under_h0 = [_run_sprt(rng, 0.0) for _ in range(200)]
    under_h1 = [_run_sprt(rng, 50.0) for _ in range(200)]
    assert under_h0.count("H1") < 22 and under_h0.count("H0") > 170
    assert under_h1.count("H0") < 22 and under_h1.count("H1") > 170


def test_the_interval_covers_the_true_score_95_times_in_100() -> None:
    rng = np.random.default_rng(7)
    elo = 120.0
    probabilities = _pair_probabilities(elo)
    covered = 0
    for _ in range(1000):
        counts = np.bincount(rng.choice(5, size=200, p=probabilities), minlength=5)
        low, high = Pentanomial(tuple(int(n) for n in counts)).score_interval()
        covered += low <= expected_score(elo, 0.0) <= high
    assert 930 <= covered <= 970  # 950 expected, standard deviation 7
