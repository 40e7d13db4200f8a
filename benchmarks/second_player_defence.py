"""Second players against plain UCT moving first on 6 x 6 four in a row: how much of the game
a defender saves where the first player wins with perfect play.

    python benchmarks/second_player_defence.py \\
        "ab:depth=6" "az:pretrained,simulations=200" --games 100 --seed 1000
    python benchmarks/second_player_defence.py \\
        "ab:depth=6" "az:pretrained,simulations=400" --first "mcts:simulations=4000,preset=uct"

Game ``g`` builds both agents afresh, UCT with seed ``seed + 2g`` and the defender with
``seed + 2g + 1``, and plays it on the suite's env; prints wins-draws-losses of the defender
and its score (win 1, draw 1/2) with the process's CPU seconds. The 6 x 6 model card's figures
(docs/models/connect_n_rows6_cols6_n4_gravityFalse.md) come from it, output in
``benchmarks/results/pretrained/connect_n_rows6_cols6_n4_gravityFalse/second_players.out``.
"""

from __future__ import annotations

import argparse
import time

from connectn_env.games.config import GameConfig
from connectn_env.specs import parse_agent_spec

FIRST = "mcts:simulations=10000,preset=uct"
GAME = GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False})


def defend(spec: str, games: int, seed: int, first_spec: str = FIRST) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``spec`` moving second against ``first_spec``."""
    results = [0, 0, 0]
    for g in range(games):
        first = parse_agent_spec(first_spec).build(seed=seed + 2 * g)
        second = parse_agent_spec(spec).build(seed=seed + 2 * g + 1)
        env = GAME.make_env()
        env.reset()
        while not env.game_state.is_terminal():
            agent = first if env.game_state.current_player() == 0 else second
            env.step(agent.act(env))
        winner = env.game_state.winner
        results[1 if winner is None else (0 if winner == 1 else 2)] += 1
    return results[0], results[1], results[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("specs", nargs="+", help="agent specs of the second players")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--first", default=FIRST, help=f"the first player's spec ({FIRST})")
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    for spec in args.specs:
        start = time.process_time()
        wins, draws, losses = defend(spec, args.games, args.seed, args.first)
        print(
            f"{spec} moving second against {args.first}: {wins}-{draws}-{losses}, score "
            f"{(wins + draws / 2) / args.games:.3f} ({time.process_time() - start:.0f} CPU s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
