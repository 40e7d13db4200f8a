"""Playing strength of the search options: matches at equal time per move, colours
alternating, with 95% Wilson intervals, played by ``connectn_env.arena`` (resumable: each
match appends its games to a JSON-lines file in ``--results``; a rerun plays only the games
missing). Each line also gives the median simulations per move of each side at that time,
measured in the same run on positions from the match's games.

Usage::

    python benchmarks/search_strength.py connect4 --seconds 0.1 --games 200
    python benchmarks/search_strength.py gomoku --seconds 1 --games 200
    python benchmarks/search_strength.py gomoku-locality --seconds 0.25 --games 200
    python benchmarks/search_strength.py hex --seconds 0.25 --games 200
    python benchmarks/search_strength.py hex-ablation --seconds 0.1 --games 200

- ``connect4``: ``MCTSAgent()`` (the game's defaults) against OpenSpiel's C++ ``MCTSBot``
  (UCT, c = 1.4, random roll-outs, solver on) with ``max_wall_clock_time`` = the same time.
- ``gomoku``: 15 x 15 freestyle, ``MCTSAgent()`` against plain UCT (``preset=uct``).
- ``gomoku-locality``: the defaults against the defaults without ``local``.
- ``hex``: 11 x 11, ``MCTSAgent()`` against plain UCT.
- ``hex-ablation``: each option alone, RAVE (as it comes and tuned), and each option added
  to the tuned RAVE, against plain UCT.
- ``gomoku-exact``: the defaults against the defaults without ``exact`` (the threat-space
  solver).
- ``othello-ablation``: 8 x 8; UCB1-tuned, RAVE (as it comes and with Hex's schedule) and a
  smaller exploration constant, each against plain UCT.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from opponents import OpenSpielMCTS

from connectn_env.arena import run_tournament
from connectn_env.records import GameConfig
from connectn_env.specs import parse_agent_spec

OPENSPIEL = "opponents:openspiel_mcts:seconds={t}"
UCT = "mcts:time={t},preset=uct"
RAVE = "mcts:time={t},preset=uct,rave=true,c=0,rave_k=10000"  # Hex's defaults
HEX_ABLATION = [
    "mcts:time={t},preset=uct,lgr=true",
    "mcts:time={t},preset=uct,selection=ucb1-tuned",
    "mcts:time={t},preset=uct,decisive=true",
    "mcts:time={t},preset=uct,rave=true",
    RAVE,
    RAVE + ",lgr=true",
    RAVE + ",pool_rave=8",
    RAVE + ",decisive=true",
    "mcts:time={t},preset=uct,rave=true,c=0.25,rave_k=10000,selection=ucb1-tuned",
]
OTHELLO_ABLATION = [
    "mcts:time={t},preset=uct,selection=ucb1-tuned",
    "mcts:time={t},preset=uct,rave=true",
    RAVE,
    "mcts:time={t},preset=uct,c=0.7",
]
MATCHES = {
    "connect4": ("connect_four", {}, [("mcts:time={t}", OPENSPIEL)]),
    "gomoku": ("gomoku", {"size": 15}, [("mcts:time={t}", UCT)]),
    "gomoku-locality": ("gomoku", {"size": 15}, [("mcts:time={t}", "mcts:time={t},local=false")]),
    "hex": ("hex", {"size": 11}, [("mcts:time={t}", UCT)]),
    "hex-ablation": ("hex", {"size": 11}, [(spec, UCT) for spec in HEX_ABLATION]),
    "gomoku-exact": ("gomoku", {"size": 15}, [("mcts:time={t}", "mcts:time={t},exact=false")]),
    "othello-ablation": ("othello", {}, [(spec, UCT) for spec in OTHELLO_ABLATION]),
}


def simulations_per_move(
    spec: str, game: GameConfig, positions: list[tuple[int, ...]], seconds: float
) -> float:
    """Median simulations of one move of ``spec`` over ``positions`` (OpenSpiel's bot:
    its rate at a fixed number of simulations, times ``seconds``)."""
    counts = []
    for moves in positions:
        env = game.make_env()
        env.reset()
        for action in moves:
            env.step(action)
        if spec.startswith("opponents:"):
            bot = OpenSpielMCTS("connect_four", simulations=5000, seed=0)
            start = time.perf_counter()
            bot.act(env)
            counts.append(5000 / (time.perf_counter() - start) * seconds)
        else:
            counts.append(parse_agent_spec(spec).build(0).search(env).simulations)
    return statistics.median(counts)


def sample_positions(results, count: int, seed: int) -> list[tuple[int, ...]]:
    """Positions from the games played: a random prefix of random games."""
    rng = np.random.default_rng(seed)
    games = [r.moves for r in results if len(r.moves) > 2]
    picks = rng.choice(len(games), size=min(count, len(games)), replace=False)
    return [games[i][: int(rng.integers(0, len(games[i]) - 1))] for i in picks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", choices=sorted(MATCHES))
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", default="benchmark-results", help="folder of JSONL files")
    args = parser.parse_args()
    name, parameters, pairings = MATCHES[args.match]
    game = GameConfig(name, parameters)
    folder = Path(args.results)
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{args.match}: {name} {parameters}, {args.seconds:g} s per move, {args.games} games")
    print("| agent | opponent | games | W | D | L | score | 95% CI | sims/move | opp. sims/move |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for first, second in pairings:
        a, b = first.format(t=args.seconds), second.format(t=args.seconds)
        out = folder / f"{args.match}-{args.seconds:g}s-{a}-vs-{b}.jsonl".replace(":", "_")
        start = time.perf_counter()
        result = run_tournament(
            game, [a, b], games=args.games, workers=args.workers, seed=args.seed, out=out
        )
        stats = result.pairings[0]
        positions = sample_positions(result.results, 10, args.seed)
        ours = simulations_per_move(a, game, positions, args.seconds)
        theirs = simulations_per_move(b, game, positions, args.seconds)
        low, high = stats.interval
        print(
            f"| `{a}` | `{b}` | {stats.games} | {stats.wins} | {stats.draws} | {stats.losses} "
            f"| {stats.score:.1%} | [{low:.1%}, {high:.1%}] | {ours:,.0f} | {theirs:,.0f} |",
            flush=True,
        )
        print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
