"""The ladder's statistics against known answers: ratings recovered from results drawn from
known ratings, held ratings that do not move, the calibration check, the adaptive choice of
rung and the SPRT's log-likelihood ratio."""

from __future__ import annotations

import math

import numpy as np
import pytest

from connectn_env.arena.plan import check_pairs
from connectn_env.elo import PairingStats, elo_intervals, elo_ratings_fixed, expected_score
from connectn_env.ladder.evaluation import choose_rung
from connectn_env.ladder.fit import calibration, fit_ratings, neighbour_pairs
from connectn_env.ladder.sprt import sprt_bounds

TRUE = {"random": 0.0, "a": 150.0, "b": 350.0, "c": 500.0, "d": 800.0}
LABELS = list(TRUE)


def _results(games: int, rng: np.random.Generator | None) -> list[PairingStats]:
    """Neighbour pairings (one and two apart) whose scores are drawn from ``TRUE`` (or are
    exactly the expected scores when ``rng`` is None), a tenth of the games drawn."""
    pairings = []
    for i, j in neighbour_pairs(len(LABELS)):
        a, b = LABELS[i], LABELS[j]
        p = expected_score(TRUE[a], TRUE[b])
        if rng is None:
            draws = games // 10
            wins = round(games * p - draws / 2)
        else:
            wins, draws, _ = rng.multinomial(games, [p - 0.05, 0.1, 0.95 - p]).tolist()
        pairings.append(PairingStats(a, b, wins, draws, games - wins - draws, 0, 0))
    return pairings


def test_neighbour_pairs_are_one_and_two_apart() -> None:
    assert neighbour_pairs(4) == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
    assert neighbour_pairs(1) == []


def test_exact_scores_give_back_the_ratings_anchored_at_random() -> None:
    fit = fit_ratings(LABELS, _results(4000, None))
    assert fit.ratings["random"] == 0.0 and fit.intervals["random"] == (0.0, 0.0)
    for label, rating in TRUE.items():
        assert fit.ratings[label] == pytest.approx(rating, abs=12), label


def test_drawn_results_give_ratings_within_their_intervals() -> None:
    inside = 0
    for seed in range(10):
        fit = fit_ratings(LABELS, _results(300, np.random.default_rng(seed)))
        for label in LABELS[1:]:
            low, high = fit.intervals[label]
            assert high - low < 200
            inside += low <= TRUE[label] <= high
    assert inside >= 0.85 * 40  # 95% intervals: about 38 of 40


def test_held_ratings_stay_fixed_and_a_new_rung_is_fitted_against_them() -> None:
    held = {label: TRUE[label] for label in ("random", "a", "b")}
    new = "n"
    labels = [*held, new]
    true_new = 250.0
    pairings = [
        PairingStats(new, "a", 700, 0, 300, 0, 0),  # wrong on purpose: ignored for "a"
        PairingStats("a", "b", 10, 0, 990, 0, 0),  # contradicts the held ratings
    ]
    ratings = elo_ratings_fixed(labels, pairings, held)
    assert {label: ratings[label] for label in held} == held
    pairings = [
        PairingStats(new, other, round(2000 * expected_score(true_new, TRUE[other])), 0, 0, 0, 0)
        for other in ("a", "b")
    ]
    pairings = [PairingStats(p.a, p.b, p.wins, 0, 2000 - p.wins, 0, 0) for p in pairings]
    fit = fit_ratings(labels, pairings, held)
    assert fit.ratings[new] == pytest.approx(true_new, abs=5)
    low, high = fit.intervals[new]
    assert low < true_new < high and high - low < 60
    assert all(fit.intervals[label] == (rating, rating) for label, rating in held.items())


def test_an_agent_without_games_against_a_held_one_has_no_rating() -> None:
    ratings = elo_ratings_fixed(
        ["random", "x", "y"], [PairingStats("x", "y", 3, 0, 1, 0, 0)], {"random": 0}
    )
    assert math.isnan(ratings["x"]) and math.isnan(ratings["y"])


@pytest.mark.parametrize(
    ("fixed", "message"),
    [({}, "at least one"), ({"zz": 0.0}, "'zz'"), ({"a": math.inf}, "finite")],
)
def test_bad_held_ratings_are_refused_by_name(fixed: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        elo_ratings_fixed(["random", "a"], [], fixed)
    if "zz" in fixed:
        with pytest.raises(ValueError, match=message):
            elo_intervals(["random", "a"], [], {"random": 0.0, "a": 0.0}, fixed=list(fixed))


def test_calibration_compares_observed_and_predicted_scores() -> None:
    fit = fit_ratings(LABELS, _results(4000, None))
    rows = calibration(_results(4000, None), fit.ratings)
    assert len(rows) == len(neighbour_pairs(len(LABELS)))
    assert all(row.consistent for row in rows)
    assert all(row.observed == pytest.approx(row.predicted, abs=0.02) for row in rows)
    skewed = [PairingStats("random", "a", 900, 0, 100, 0, 0)]
    assert not calibration(skewed, fit.ratings)[0].consistent


def test_the_first_rung_is_the_middle_one_then_the_one_nearest_fifty_percent() -> None:
    games = dict.fromkeys(TRUE, 0)
    assert choose_rung(TRUE, None, games) == "b"
    assert choose_rung(TRUE, 460.0, games) == "c"
    assert choose_rung(TRUE, -300.0, games) == "random"
    assert choose_rung(TRUE, 5000.0, games) == "d"
    assert choose_rung({"x": 0.0, "y": 100.0}, 50.0, {"x": 4, "y": 2}) == "y"  # a tie


def test_the_sprt_has_the_usual_bounds() -> None:
    low, high = sprt_bounds(0.05, 0.05)
    assert high == pytest.approx(math.log(19)) and low == pytest.approx(-math.log(19))


def test_a_plan_of_chosen_pairs_is_checked() -> None:
    assert check_pairs(None, 3) == [(0, 1), (0, 2), (1, 2)]
    assert check_pairs([(1, 2), (0, 1)], 3) == [(0, 1), (1, 2)]
    for bad in ([(1, 0)], [(0, 3)], [(0, 0)], [("0", 1)], [(0, 1, 2)]):
        with pytest.raises(ValueError, match="two agent indices"):
            check_pairs(bad, 3)
    with pytest.raises(ValueError, match="given twice"):
        check_pairs([(0, 1), (0, 1)], 3)
