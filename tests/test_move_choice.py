"""The move a search plays from its root's statistics: UCT's rule and PUCT's resisting rule."""

from __future__ import annotations

import numpy as np
import pytest

from agents import tree as search_tree
from agents.batched import _choose_actions
from agents.rules import most_visited_child, resisting_child, same_settings, search_rules
from agents.tree import DRAW, LOSS, UNSOLVED, WIN, best_root_child, resisting_root_child

STATUS = {"open": UNSOLVED, "win": WIN, "loss": LOSS, "draw": DRAW}


def root_with(
    children: list[tuple[str, int, int]], means: list[float] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A root whose children (actions 0, 1, ...) have ``(status, visits, proof plies)`` and
    mean values ``means`` (default: falling with the action, so ties in visits go to the
    lower action and a proven loss is valued above the open moves after it)."""
    ints, floats, meta = search_tree.new_tree(len(children) + 1)
    search_tree.tree_reset(ints, floats, meta, 0)
    count = len(children)
    search_tree.expand(
        ints, floats, meta, 0, 0, np.arange(count), np.full(count, 1.0 / count), count
    )
    for action, (status, visits, plies) in enumerate(children):
        child = 1 + action
        ints[child, search_tree.I_SOLVED] = STATUS[status]
        ints[child, search_tree.I_VISITS] = visits
        ints[child, search_tree.I_PROOF] = plies
        floats[child, search_tree.F_MEAN] = -0.01 * action if means is None else means[action]
    ints[0, search_tree.I_VISITS] = sum(visits for _, visits, _ in children)
    return ints, floats


def action_of(ints: np.ndarray, child: int) -> int:
    return int(ints[child, search_tree.I_ACTION])


@pytest.mark.parametrize(
    ("children", "uct", "puct"),
    [
        # the search proved its most searched move lost: PUCT resists longest, UCT plays open
        ([("loss", 140, 5), ("loss", 60, 9), ("open", 40, 0), ("open", 10, 0)], 2, 1),
        # an open move searched more than every proven loss is played by both
        ([("loss", 40, 9), ("open", 90, 0), ("open", 50, 0)], 1, 1),
        # a proven draw is kept, rather than a proven loss or an open move searched more
        ([("loss", 140, 9), ("open", 30, 0), ("draw", 20, 4)], 2, 2),
        # the most searched proven draw, however much more an open move was searched
        ([("open", 300, 0), ("draw", 20, 9), ("draw", 40, 9)], 2, 2),
        # a proven win first, the fastest
        ([("loss", 140, 9), ("win", 3, 7), ("win", 2, 3), ("open", 30, 0)], 2, 2),
        # every move lost: the slowest loss, more visits breaking a tie
        ([("loss", 10, 3), ("loss", 20, 7), ("loss", 30, 7)], 2, 2),
        # equal proofs among the losses: the more searched one
        ([("loss", 100, 7), ("loss", 120, 7), ("open", 5, 0)], 2, 1),
    ],
)
def test_puct_plays_the_slowest_proven_loss_rather_than_a_move_searched_less(
    children, uct, puct
) -> None:
    ints, floats = root_with(children)
    assert action_of(ints, best_root_child(ints, floats)) == uct
    assert action_of(ints, resisting_root_child(ints, floats)) == puct


def test_an_open_move_valued_above_the_proven_losses_searched_more_is_played() -> None:
    children = [("loss", 140, 9), ("open", 40, 0)]
    ints, floats = root_with(children, means=[-0.9, -0.5])  # the open move looked better
    assert action_of(ints, resisting_root_child(ints, floats)) == 1
    ints, floats = root_with(children, means=[-0.9, -0.95])  # valued as lost as the loss
    assert action_of(ints, resisting_root_child(ints, floats)) == 0


def reference_choice(children: list[tuple[str, int, int]], means: list[float]) -> int:
    """The resisting rule written out plainly (the action to play)."""
    indexed = list(enumerate(children))
    wins = [(plies, a) for a, (status, _, plies) in indexed if status == "win"]
    if wins:
        return min(wins)[1]
    draws = [(a, visits) for a, (status, visits, _) in indexed if status == "draw"]
    if draws:
        return max(draws, key=lambda x: (x[1], means[x[0]]))[0]
    losses = [(a, visits, plies) for a, (status, visits, plies) in indexed if status == "loss"]
    others = [(a, visits) for a, (status, visits, _) in indexed if status != "loss"]
    slowest = max(losses, key=lambda x: (x[2], x[1], -x[0]))[0] if losses else None
    if not others:
        return slowest
    best, best_visits = max(others, key=lambda x: (x[1], means[x[0]]))
    heavier = [a for a, visits, _ in losses if visits > best_visits]
    if heavier and max(means[a] for a in heavier) >= means[best]:
        return slowest
    return best


def test_the_resisting_rule_agrees_with_its_plain_statement_on_random_roots() -> None:
    rng = np.random.default_rng(0)
    for _ in range(5000):
        count = int(rng.integers(1, 8))
        children = [
            (
                str(rng.choice(["open", "open", "loss", "loss", "draw", "win"])),
                int(rng.integers(0, 50)),
                int(rng.integers(1, 12)),
            )
            for _ in range(count)
        ]
        means = [float(m) for m in rng.choice([-1.0, -0.9, -0.5, 0.0, 0.5], size=count)]
        ints, floats = root_with(children, means)
        assert action_of(ints, resisting_root_child(ints, floats)) == reference_choice(
            children, means
        )


def test_puct_agents_and_batched_searches_choose_by_the_resisting_rule_and_uct_does_not() -> None:
    assert search_rules("puct").choice.choose is resisting_child
    assert search_rules("ucb1").choice.choose is most_visited_child
    children = [("loss", 140, 5), ("loss", 60, 9), ("open", 40, 0)]
    ints, floats = root_with(children)
    out = np.zeros(1, dtype=np.int64)
    rngs = np.ones((1, 1), dtype=np.uint64)
    slots = np.zeros(1, dtype=np.int64)

    def choose(temperature: float) -> int:
        _choose_actions(
            ints[None], floats[None], slots, 0, same_settings, resisting_child, True,
            np.full(1, temperature), rngs, out,
        )  # fmt: skip
        return int(out[0])

    assert search_rules("puct").choice.samples
    assert choose(0.0) == 1  # temperature 0: the slowest proven loss
    assert choose(1.0) == 2  # sampled among the moves not proven lost
