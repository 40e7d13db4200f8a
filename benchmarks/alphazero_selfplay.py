"""Self-play throughput: the batched search against the same network driven one game at a time.

Both sides play AlphaZero self-play (PUCT, the same simulations per move, Dirichlet noise at
the root, moves drawn by visit counts) with the same randomly initialised network of the
default size, in this process, one torch thread:

- batched: :class:`agents.selfplay.BatchedSelfPlay`, ``--games`` games at once, one network
  call per step for a leaf of every game; in float32, and in the precision ``"auto"`` picks
  on this machine (bfloat16 where the CPU has bfloat16 matrix units);
- one game at a time: :class:`agents.alphazero.AlphaZeroAgent` (the compiled tree walk, a
  network call per leaf), the way AlphaZero_Gomoku and alpha-zero-general play.

Runs alternate between the two; each runs ``--seconds`` of CPU time (``time.thread_time``:
the machine is shared, wall time would measure the neighbours). Reported: positions (moves
searched) per CPU second, medians over ``--runs``, their ratio, and the share of the batched
side's time spent in the network (encoding, forward pass, softmax); the rest is search.

    python benchmarks/alphazero_selfplay.py            # 6x6 four in a row and Connect Four
    python benchmarks/alphazero_selfplay.py --quick    # smoke test
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch

from agents.alphazero import AlphaZeroAgent
from agents.alphazero.checkpoint import Checkpoint
from agents.alphazero.inference import NetworkEvaluator
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.selfplay import BatchedSelfPlay
from connectn_env.envs.base import BoardGameEnv
from connectn_env.records import GameConfig

GAMES = {
    "connect_n 6x6 k=4": GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False}),
    "connect_four": GameConfig("connect_four"),
}


def batched_run(game, model, games, simulations, seconds, seed, precision):
    evaluator = NetworkEvaluator(model, clock=time.thread_time, precision=precision, batch=games)
    selfplay = BatchedSelfPlay(game, games, simulations=simulations, seed=seed)
    selfplay.play(evaluator, 1)  # warm-up: compiled code loaded, trees allocated
    evaluator.seconds = 0.0
    start, moves = time.thread_time(), selfplay.moves_played
    while time.thread_time() - start < seconds:
        selfplay.play(evaluator, 1)
    spent = time.thread_time() - start
    return (selfplay.moves_played - moves) / spent, evaluator.seconds / spent, evaluator.precision


def sequential_run(config, model, simulations: int, seconds: float, seed: int):
    checkpoint = Checkpoint(config, model.spec, model.state_dict())
    agent = AlphaZeroAgent(
        checkpoint, simulations=simulations, temperature=1.0, seed=seed, max_nodes=200_000
    )
    agent.noise_fraction = 0.25
    agent.dirichlet_alpha = min(1.0, 10 / model.spec.num_actions)
    env = BoardGameEnv(config.make_game())
    env.reset()
    agent.act(env)  # warm-up
    agent.evaluator.clock = time.thread_time
    agent.evaluator.seconds = 0.0
    start, moves = time.thread_time(), 0
    while time.thread_time() - start < seconds:
        if env.game_state.is_terminal():
            env.reset()
        env.step(agent.act(env))
        moves += 1
    spent = time.thread_time() - start
    return moves / spent, agent.evaluator.seconds / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=128, help="batched games at once (128)")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="one short run per game")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.seconds, args.simulations = 1, 1.0, 32
    torch.set_num_threads(1)
    print(
        f"self-play positions (moves) per CPU second, {args.simulations} simulations per move, "
        f"network 32 channels x 3 blocks, 1 torch thread; medians of {args.runs} runs of "
        f"{args.seconds:g} s\n"
    )
    print(
        "| game | one game at a time (float32) | batched, float32 | ratio | batched, "
        "auto precision | ratio | network share: one at a time, batched float32, batched auto |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, config in GAMES.items():
        game = config.make_game()
        torch.manual_seed(0)
        model = PolicyValueNet(NetworkSpec.for_game(game, channels=32, blocks=3))
        batched, fast, sequential = [], [], []
        precision = ""
        for run in range(args.runs):
            batched.append(
                batched_run(game, model, args.games, args.simulations, args.seconds, run, "float32")
            )
            fast.append(
                batched_run(game, model, args.games, args.simulations, args.seconds, run, "auto")
            )
            precision = fast[-1][2]
            sequential.append(sequential_run(config, model, args.simulations, args.seconds, run))
        s = statistics.median(r[0] for r in sequential)
        b = statistics.median(r[0] for r in batched)
        f = statistics.median(r[0] for r in fast)
        shares = [statistics.median(r[1] for r in runs) for runs in (sequential, batched, fast)]
        print(
            f"| {name} | {s:.1f} | {b:.1f} | {b / s:.1f}x | {f:.1f} ({precision}) | {f / s:.1f}x "
            f"| {shares[0]:.0%}, {shares[1]:.0%}, {shares[2]:.0%} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
