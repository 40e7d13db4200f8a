"""The arena's parent does not grow with the games: each finished game goes to disk (the
results file, the temporary file behind ``TournamentResult.results``) and only counts stay
in memory (:class:`~connectn_env.arena.stats.Tally`).

Measured with ``tracemalloc`` around 10,000 synthetic games fed through the parent's own
code (:class:`~connectn_env.arena.ledger.Ledger`, with a results file), no real game played.
Measured when this test was written: 0.25 to 0.6 bytes per game (the parent kept every
game before: about 0.9 kB per game in the issue's arena; the control below, which keeps
them in a list as the parent did, measures several hundred bytes per game of 30 moves).
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from connectn_env.arena import GameResult, ResultsFile, TournamentResult
from connectn_env.arena.ledger import Ledger
from connectn_env.arena.plan import planned_players
from connectn_env.records import GameConfig

LABELS = ("mcts:simulations=200", "mcts:simulations=800", "random")
GAMES = 10_000
MAX_BYTES_PER_GAME = 50


def synthetic_results(count: int, start: int = 0) -> Iterator[GameResult]:
    """Games of 30 moves spread over the three pairings, some lost by a timeout."""
    pairings = [(a, b) for i, a in enumerate(LABELS) for b in LABELS[i + 1 :]]
    for number in range(start, start + count):
        pairing = pairings[number % 3]
        index = number // 3
        timeout = number % 50 == 0
        yield GameResult(
            pairing=pairing,
            index=index,
            players=planned_players(pairing, index),
            result=("player_0", "player_1", "draw")[number % 3 if not timeout else 1],
            reason="timeout" if timeout else "",
            error={"player": 0, "agent": planned_players(pairing, index)[0], "type": "T",
                   "message": f"move took {number / 1000:.3f} s"} if timeout else None,
            moves=tuple((number + k) % 225 for k in range(30)),
            seconds=1.25,
            max_move_seconds=(0.5, 0.25),
            date="2026-11-25T20:00:00+00:00",
        )  # fmt: skip


def growth_per_game(keep: Callable[[GameResult], None]) -> float:
    """Bytes that tracemalloc sees the process keep per game, over GAMES games handed to
    ``keep`` (after 300 games to let buffers and dictionaries reach their size)."""
    for result in synthetic_results(300):
        keep(result)
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    for result in synthetic_results(GAMES, start=300):
        keep(result)
    gc.collect()
    return (tracemalloc.get_traced_memory()[0] - before) / GAMES


@pytest.mark.slow
def test_the_parent_keeps_under_50_bytes_per_game(tmp_path: Path) -> None:
    game = GameConfig("gomoku")
    header = {"game": game.name, "params": game.params, "seed": 0, "move_timeout": 1.0}
    store = ResultsFile(tmp_path / "games.jsonl", header)
    ledger = Ledger(LABELS, store=store)
    kept: list[GameResult] = []
    tracemalloc.start()
    try:
        per_game = growth_per_game(ledger.add)
        control = growth_per_game(kept.append)  # what keeping every game costs
    finally:
        tracemalloc.stop()
    assert per_game < MAX_BYTES_PER_GAME, f"{per_game:.1f} bytes per game"
    assert control > 10 * MAX_BYTES_PER_GAME, f"the control measured {control:.1f}"
    assert ledger.played == ledger.tally.games == len(ledger.results) == GAMES + 300
    # Nothing was lost on the way: the tables and the games read back agree.
    (first,) = [p for p in ledger.tally.pairings() if p.b == "random" and p.a == LABELS[0]]
    mine = [r for r in ledger.results.unordered() if r.pairing == (first.a, first.b)]
    assert first.games == len(mine)
    assert first.wins == sum(r.score_of(first.a) == 1.0 for r in mine)
    assert first.errors_a + first.errors_b == sum(r.error is not None for r in mine)
    assert len(store.path.read_text().splitlines()) == 1 + GAMES + 300


def test_the_tables_from_the_counts_are_the_tables_from_the_games() -> None:
    """The parent's tables (counted as games come, errors read back from the disk) are the
    ones computed from every game held in memory, errors and their order included."""
    ledger = Ledger(LABELS)
    games = list(synthetic_results(600))
    for result in reversed(games):  # games end in any order
        ledger.add(result)
    in_plan_order = tuple(
        sorted(games, key=lambda r: (LABELS.index(r.pairing[0]), r.pairing[1], r.index))
    )
    setting = (GameConfig("gomoku"), LABELS)
    counted = TournamentResult(*setting, ledger.results, 200, 0, 1.0, 600, tally=ledger.tally)
    held = TournamentResult(*setting, in_plan_order, 200, 0, 1.0, 600)
    assert counted.table() == held.table() and "games lost by error or timeout" in held.table()
    assert counted.to_json() == held.to_json() and len(held.to_json()["errors"]) == 12
    assert counted.results == held.results and counted.results[3] == held.results[3]
