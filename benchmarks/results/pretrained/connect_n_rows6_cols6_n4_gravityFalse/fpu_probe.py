"""Does the value PUCT gives an unvisited child (first-play urgency) help the 6 x 6 network
defend?

The search treats an unvisited child as worth 0. In a lost position, where every visited child
is worth about -1, that spreads 200 simulations over every reply instead of reading the
forcing lines deeper. The shipped network (200 simulations per move) against plain UCT 10,000,
200 games, colours alternating, as in ``benchmarks/alphazero_strength.py``, with an unvisited
child worth (a) 0 (PUCT, the package's rule), (b) the parent's value for the player choosing
(as Leela Zero and mctx's parent-based transform), (c) a loss, -1, and (d) Gumbel's root
search with its completed values at play time. The rules (b) and (c) are injected into the
batched search's registry here (a probe, not options of the package); the UCT side is
untouched.

Run: ``python benchmarks/results/pretrained/connect_n_rows6_cols6_n4_gravityFalse/fpu_probe.py``
(about 2 minutes on this project's 2-core machine).
"""

from __future__ import annotations

import math
import time

import torch
from numba import njit

import agents.batched as batched
from agents.alphazero.evaluation import MCTSSide, NetworkSide, play_match
from agents.alphazero.inference import NetworkEvaluator
from agents.alphazero.pretrained import pretrained_checkpoint
from agents.batched import BatchedSearch
from agents.rules import SELECTS, VALUE, Select, compiled_rule
from agents.tree import F_MEAN, F_PRIOR, I_COUNT, I_FIRST, I_SOLVED, I_VISITS, LOSS, WIN
from connectn_env.arena.stats import wilson
from connectn_env.records import GameConfig

GAMES = 200
SIMULATIONS = 200
BUDGET = 10_000


@njit(cache=True, inline="always")
def _puct_choice(ints, floats, node, exploration, unvisited):
    """PUCT's selection (``agents.rules.select_puct``) with ``unvisited`` as the value of an
    unvisited child instead of 0."""
    first = ints[node, I_FIRST]
    sqrt_n = math.sqrt(max(ints[node, I_VISITS], 1))
    best, best_score = -1, -math.inf
    for child in range(first, first + ints[node, I_COUNT]):
        status = ints[child, I_SOLVED]
        if status == WIN:
            return child
        if status == LOSS:
            continue
        visits = ints[child, I_VISITS]
        q = floats[child, F_MEAN] if visits > 0 else unvisited
        score = q + exploration * floats[child, F_PRIOR] * sqrt_n / (1.0 + visits)
        if score > best_score:
            best_score, best = score, child
    return first if best == -1 else best


@compiled_rule
def select_puct_parent(ints, floats, node, settings):
    """An unvisited child is worth the parent's value for the player choosing (the node's
    value is its mover's, hence the minus)."""
    return _puct_choice(ints, floats, node, settings.exploration, -floats[node, F_MEAN])


@compiled_rule
def select_puct_loss(ints, floats, node, settings):
    """An unvisited child is worth a loss."""
    return _puct_choice(ints, floats, node, settings.exploration, -1.0)


SELECTS["puct-parent"] = Select(select_puct_parent, frozenset({VALUE}), "mean", "most-visited")
SELECTS["puct-loss"] = Select(select_puct_loss, frozenset({VALUE}), "mean", "most-visited")
batched.PUCT_SELECTIONS = (*batched.PUCT_SELECTIONS, "puct-parent", "puct-loss")


class RuleSide(NetworkSide):
    """The network's side with another selection rule."""

    def __init__(self, *args, selection: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.selection = selection

    def reset(self, games: int) -> None:
        self.search = BatchedSearch(
            self.game,
            games,
            simulations=self.simulations,
            c_puct=self.c_puct,
            selection=self.selection,
            seed=self.seed,
        )


def main() -> None:
    torch.set_num_threads(1)
    config = GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False})
    game = config.make_game()
    checkpoint = pretrained_checkpoint(game)
    evaluator = NetworkEvaluator(checkpoint.network(), precision="auto", batch=GAMES)
    print(f"{config}: the shipped network ({SIMULATIONS} simulations) against plain UCT")
    print(f"{BUDGET:,}, {GAMES} games, colours alternating\n")
    print("| unvisited child | score | W-D-L | 95% CI | moving first / second | seconds |")
    print("|---|---|---|---|---|---|")
    rules = {
        "0 (PUCT)": "puct",
        "parent's value": "puct-parent",
        "loss (-1)": "puct-loss",
        "Gumbel at play": "gumbel",
    }
    for label, rule in rules.items():
        start = time.perf_counter()
        side = RuleSide(
            game, evaluator, simulations=SIMULATIONS, c_puct=1.5, seed=0, selection=rule
        )
        result = play_match(game, side, MCTSSide(game, BUDGET, seed=1), GAMES, ("net", "uct"))
        low, high = wilson(result.score, result.games)
        print(
            f"| {label} | {result.score:.3f} | {result.wins}-{result.draws}-{result.losses} | "
            f"[{low:.3f}, {high:.3f}] | {result.score_moving(first=True):.3f} / "
            f"{result.score_moving(first=False):.3f} | {time.perf_counter() - start:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
