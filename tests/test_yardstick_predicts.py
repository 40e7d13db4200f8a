"""The yardstick predicts games it was not fitted on: an agent outside a small ladder is
placed by ``evaluate``, then plays its two neighbouring rungs in new game pairs, and each
observed score is consistent with what its rating predicts (the uncertainty of its rating
and of the rung's included); the ladder's own held-out pairings pass the same check.

A small 6 x 6 ladder of cheap rungs keeps it fast; ``benchmarks/yardstick_predicts.py`` runs
the same check on Connect Four's shipped ladder."""

from __future__ import annotations

import numpy as np
import pytest

from connectn_env.arena.plan import pairing_task
from connectn_env.arena.stats import Tally
from connectn_env.elo import Z95
from connectn_env.ladder import Ladder, Rung, build_ladder, evaluate
from connectn_env.ladder.candidates import make_candidate
from connectn_env.ladder.fit import HeldOutRow
from connectn_env.ladder.matches import play_tasks
from connectn_env.ladder.openings import shipped_suite
from connectn_env.specs import parse_agent_spec

GAME = "connect_n_6x6"
RUNGS = [
    Rung("random", "random"),
    Rung("uct-10", "mcts:simulations=10,preset=uct"),
    Rung("uct-30", "mcts:simulations=30,preset=uct"),
    Rung("uct-100", "mcts:simulations=100,preset=uct"),
    Rung("uct-300", "mcts:simulations=300,preset=uct"),
]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Ladder:
    folder = tmp_path_factory.mktemp("yardstick")
    return build_ladder(
        GAME, games_per_pair=40, rungs=RUNGS, workers=2, results=folder / "games.jsonl"
    )


def sometimes_first(observation: np.ndarray, mask: np.ndarray) -> int:
    """A seeded stochastic policy: the first legal move half the time, else a random one."""
    legal = np.flatnonzero(mask)
    rng = np.random.default_rng(int(observation.sum() * 7919) + len(legal))
    return int(legal[0] if rng.random() < 0.5 else rng.choice(legal))


def _neighbours(ladder: Ladder, rating: float) -> list[str]:
    """The rungs just below and just above ``rating``."""
    order = ladder.by_rating()
    above = next((k for k, rung in enumerate(order) if rung.rating > rating), len(order))
    return [order[k].label for k in (above - 1, above) if 0 <= k < len(order)]


@pytest.mark.parametrize(
    ("candidate", "name"),
    [("mcts:simulations=60,preset=uct", None), (sometimes_first, "sometimes-first")],
)
def test_an_outside_agent_scores_as_its_rating_predicts_against_its_neighbours(
    small: Ladder, candidate: object, name: str | None
) -> None:
    placed = evaluate(candidate, ladder=small, games=60, workers=2, name=name, seed=1)
    neighbours = _neighbours(small, placed.rating)
    assert len(neighbours) == 2
    entry = make_candidate(candidate, name)
    suite = shipped_suite(GAME)
    for rung in neighbours:
        pairing = (entry.label, rung)
        specs = (entry.spec, parse_agent_spec(small.rung(rung).spec))
        tasks = [  # 20 new game pairs: another seed, openings the evaluation did not use
            pairing_task(
                small.game, pairing, specs, index, 7, None, suite.openings[-1 - index // 2]
            )
            for index in range(40)
        ]
        tally = Tally(pairing)
        for result in play_tasks(tasks, workers=2, ray=None, local=entry.local):
            tally.add(result)
        (games,) = tally.pairings()
        predicted, interval = placed.predict(rung)
        error = (interval[1] - interval[0]) / (2 * Z95)
        row = HeldOutRow(*pairing, games.games, games.score, games.interval, predicted, error)
        assert row.consistent, (row, placed.table())


def test_the_small_ladders_held_out_pairings_score_as_predicted(small: Ladder) -> None:
    checks = small.checks["held_out"]
    assert checks["of"] >= 1
    assert checks["passed"], small.table()
