"""Does a rating predict games it was not fitted on? An agent outside the ladder is placed by
``evaluate``, then plays its two neighbouring rungs (the rungs just below and above its
rating) in new game pairs from openings the evaluation did not use; each observed score is
compared with what its rating predicts, the uncertainty of its rating and of the rung's
included (consistent: within 1.96 standard errors of the difference).

    python benchmarks/yardstick_predicts.py connect_four mcts:simulations=300,preset=uct \
        --games 200 --neighbour-games 200 --workers 2

Prints the placement, one line per neighbour (observed score [95%], predicted [95%], the
verdict) and the CPU time of the neighbour games (each game's worker clock, ``cpu_seconds``).
``tests/test_yardstick_predicts.py`` runs the same check on a small 6 x 6 ladder.
"""

from __future__ import annotations

import argparse

from connectn_env.arena.plan import pairing_task
from connectn_env.arena.stats import Tally
from connectn_env.elo import Z95
from connectn_env.ladder import evaluate
from connectn_env.ladder.candidates import make_candidate
from connectn_env.ladder.fit import HeldOutRow
from connectn_env.ladder.ladderfile import load_ladder, shipped_ladder
from connectn_env.ladder.matches import play_tasks
from connectn_env.ladder.openings import shipped_suite
from connectn_env.specs import parse_agent_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a ladder key or game name (connect_four, connect_n_6x6...)")
    parser.add_argument("candidate", help="an agent spec outside the ladder")
    parser.add_argument("--games", type=int, default=200, help="evaluate's games (200)")
    parser.add_argument("--neighbour-games", type=int, default=200, help="games per neighbour")
    parser.add_argument("--ladder", help="a ladder file (default: the shipped one)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ladder = load_ladder(args.ladder, args.game) if args.ladder else shipped_ladder(args.game)
    placed = evaluate(args.candidate, ladder=ladder, games=args.games, workers=args.workers)
    print(placed.table(), "\n")
    order = ladder.by_rating()
    above = next((k for k, r in enumerate(order) if r.rating > placed.rating), len(order))
    entry = make_candidate(args.candidate)
    suite = shipped_suite(ladder.key)
    hits = 0
    cpu = 0.0
    neighbours = [order[k].label for k in (above - 1, above) if 0 <= k < len(order)]
    for rung in neighbours:
        pairing = (entry.label, rung)
        specs = (entry.spec, parse_agent_spec(ladder.rung(rung).spec))
        count = len(suite.openings)
        tasks = [  # from the end of the suite: openings evaluate used least
            pairing_task(
                ladder.game,
                pairing,
                specs,
                i,
                args.seed + 1000,
                300.0,
                suite.openings[(count - 1 - i // 2) % count],
            )
            for i in range(args.neighbour_games)
        ]
        tally = Tally(pairing)
        for result in play_tasks(tasks, workers=args.workers, ray=None, local=False):
            tally.add(result)
            cpu += result.cpu_seconds or 0.0
        (games,) = tally.pairings()
        predicted, (low, high) = placed.predict(rung)
        row = HeldOutRow(
            *pairing, games.games, games.score, games.interval, predicted, (high - low) / (2 * Z95)
        )
        hits += row.consistent
        print(
            f"vs {rung:10s} {games.games:4d} games  observed {games.score:.3f} "
            f"[{games.interval[0]:.3f}, {games.interval[1]:.3f}]  predicted {predicted:.3f} "
            f"[{low:.3f}, {high:.3f}]  {'consistent' if row.consistent else 'INCONSISTENT'}"
        )
    print(f"\n{hits} of {len(neighbours)} neighbours consistent; neighbour games' CPU {cpu:.0f} s")


if __name__ == "__main__":
    main()
