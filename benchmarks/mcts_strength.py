"""Playing strength of plain UCT (``MCTSAgent(preset="uct")``): against OpenSpiel's C++
MCTSBot on Connect Four (equal simulations, then equal time per move), and RAVE against plain
UCT on Hex 11x11. (The search options: ``benchmarks/search_strength.py``.)

Colours alternate; a win scores 1, a draw 0.5. Usage:
``python benchmarks/mcts_strength.py [--games 100] [--hex-games 100] [--simulations 1000]
[--seconds 0.1]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

from agents import MCTSAgent
from connectn_env import connect_n_v0, hex_v0


class OpenSpielPlayer:
    """pyspiel.MCTSBot driving a pyspiel state mirrored from our env's history."""

    def __init__(self, simulations: int, seconds: float, seed: int) -> None:
        self.game = pyspiel.load_game("connect_four")
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        sims = simulations if seconds <= 0 else 10**9
        self.bot = pyspiel.MCTSBot(
            self.game, evaluator, 1.4, sims, 1000, True, seed, False,
            pyspiel.ChildSelectionPolicy.UCT, seconds if seconds > 0 else -1.0,
        )  # fmt: skip

    def act(self, env) -> int:
        state = self.game.new_initial_state()
        for action in env.unwrapped.game_state.history():
            state.apply_action(action)
        return int(self.bot.step(state))


def match(make_env, first, second, games: int) -> float:
    """Score of ``first`` (a win 1, a draw 0.5) over ``games`` with alternating colours."""
    score = 0.0
    for game in range(games):
        env = make_env()
        env.reset()
        seats = (first, second) if game % 2 == 0 else (second, first)
        players = dict(zip(env.possible_agents, seats, strict=True))
        while not env.terminations[env.agent_selection]:
            env.step(players[env.agent_selection].act(env))
        me = env.possible_agents[game % 2]
        score += {1: 1.0, 0: 0.5, -1: 0.0}[int(np.sign(env.rewards[me]))]
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--hex-games", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=0.1)
    args = parser.parse_args()
    start = time.perf_counter()
    ours = MCTSAgent(simulations=args.simulations, seed=0, preset="uct")
    theirs = OpenSpielPlayer(args.simulations, 0.0, seed=1)
    score = match(connect_n_v0.env, ours, theirs, args.games)
    print(f"Connect Four, {args.simulations} simulations each, {args.games} games: {score:.1%}")
    ours = MCTSAgent(time_limit=args.seconds, seed=0, preset="uct")
    theirs = OpenSpielPlayer(0, args.seconds, seed=1)
    score = match(connect_n_v0.env, ours, theirs, args.games)
    print(f"Connect Four, {args.seconds} s per move each, {args.games} games: {score:.1%}")
    rave = MCTSAgent(simulations=args.simulations, rave=True, seed=0, preset="uct")
    plain = MCTSAgent(simulations=args.simulations, seed=1, preset="uct")
    score = match(lambda: hex_v0.env(size=11), rave, plain, args.hex_games)
    print(f"Hex 11x11, rave=True vs UCT, {args.simulations} simulations, {args.hex_games} games: ")
    print(f"  RAVE scores {score:.1%}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
