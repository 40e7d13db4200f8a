"""Are a suite's games decided by play or by colour? Read from a ladder build's own games (no
new games are played): among the games between the ladder's strongest rungs, the score of
the colour that moved first from the empty board (``player_0``), over all games and per
opening, and the share of game pairs that colour decided (the same colour won both games).

    python benchmarks/suite_balance.py runs/ladder/v2/connect_n_6x6.json \
        runs/ladder/v2/connect_n_6x6.games.jsonl --top 4

The goal of the yardstick issue: the strongest rungs score 35% to 65% with either colour
from each opening. A per-opening score rests on few games here (two per pairing of the top
rungs), so read the share of openings inside [0.35, 0.65] with that in mind; the overall
first-colour score and the share of colour-decided pairs are the firmer figures.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from connectn_env.ladder.ladderfile import load_ladder
from connectn_env.ladder.openings import shipped_suite

POINTS = {"player_0": 1.0, "draw": 0.5, "player_1": 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ladder", type=Path, help="the ladder file the games were built into")
    parser.add_argument("games", type=Path, help="its results file (JSON lines)")
    parser.add_argument("--top", type=int, default=4, help="the strongest rungs to look at (4)")
    args = parser.parse_args()
    ladder = load_ladder(args.ladder)
    top = {rung.spec for rung in ladder.by_rating()[-args.top :]}
    suite = shipped_suite(ladder.key)
    by_opening: dict[int, list[float]] = defaultdict(list)
    pairs: dict[tuple, dict[int, float]] = defaultdict(dict)
    for number, line in enumerate(args.games.read_text().splitlines()):
        game = json.loads(line)
        if number == 0 or game.get("type") != "game" or not set(game["specs"]) <= top:
            continue
        first = POINTS[game["result"]]
        by_opening[(game["index"] // 2) % len(suite.openings)].append(first)
        pairs[(*game["pairing"], game["index"] // 2)][game["index"] % 2] = first
    scores = [score for opening in by_opening.values() for score in opening]
    if not scores:
        raise SystemExit("no game between the top rungs in that file")
    balanced = [s for s in by_opening.values() if 0.35 <= sum(s) / len(s) <= 0.65]
    complete = [p for p in pairs.values() if len(p) == 2]
    by_colour = [p for p in complete if p[0] == p[1] and p[0] != 0.5]
    labels = [rung.label for rung in ladder.by_rating()[-args.top :]]
    print(f"{ladder.key}: games between {', '.join(labels)}")
    print(f"  games {len(scores)}, first colour's score {sum(scores) / len(scores):.3f}")
    print(
        f"  openings played {len(by_opening)} of {len(suite.openings)}, first colour's score "
        f"in [0.35, 0.65] in {len(balanced)} ({len(balanced) / len(by_opening):.0%}), "
        f"games per opening {len(scores) / len(by_opening):.1f}"
    )
    print(
        f"  game pairs {len(complete)}, decided by colour (one colour won both) "
        f"{len(by_colour)} ({len(by_colour) / max(1, len(complete)):.0%})"
    )


if __name__ == "__main__":
    main()
