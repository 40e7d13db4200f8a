"""A learner step's CPU time with the network's weights in the default (NCHW) layout and in
channels-last, the layout :class:`agents.alphazero.learner.Learner` trains in.

Both layouts train a copy of the same randomly initialised network of the given size with
:class:`~agents.alphazero.learner.Learner` (the reference's weights put back in NCHW) on the
same batch of ``--batch`` random positions, in this process, one torch thread; rounds
alternate between them, each ``--steps`` steps timed by ``time.thread_time`` (the machine is
shared: wall time would measure the neighbours).
Reported: milliseconds of CPU per step, medians over ``--rounds``, and the speed-up.

    python benchmarks/learner_speed.py                  # Connect Four, 6 x 6, Hex 11 x 11
    python benchmarks/learner_speed.py --quick          # smoke test
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import statistics
import time

import numpy as np
import torch

from agents.alphazero.config import TrainConfig
from agents.alphazero.learner import Learner
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.alphazero.replay import Batch
from connectn_env.games import BoardGame
from connectn_env.records import GameConfig

GAMES = {
    "connect_four": GameConfig("connect_four"),
    "connect_n 6x6 k=4": GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False}),
    "hex 11x11": GameConfig("hex", {"rows": 11, "cols": 11}),
}


def random_batch(game: BoardGame, size: int, generator: np.random.Generator) -> Batch:
    """``size`` positions of random stones with random policy and value targets."""
    shape = (size, game.rows, game.cols, 2)
    policies = generator.random((size, game.num_actions)).astype(np.float32)
    return Batch(
        (generator.random(shape) < 0.3).astype(np.int8),
        generator.integers(0, 2, size).astype(np.int8),
        np.ones((size, game.num_actions), np.int8),
        policies / policies.sum(axis=1, keepdims=True),
        generator.uniform(-1, 1, size).astype(np.float32),
    )


def learner_in(model: PolicyValueNet, layout: torch.memory_format) -> Learner:
    """A learner of ``model`` with the training defaults, its weights in ``layout``."""
    defaults = {field.name: field.default for field in dataclasses.fields(TrainConfig)}
    learner = Learner(
        model,
        learning_rate=defaults["learning_rate"],
        weight_decay=defaults["weight_decay"],
        device="cpu",
    )
    learner.model.to(memory_format=layout)  # in place: the optimizer keeps the same parameters
    return learner


def step_seconds(learner: Learner, batch: Batch, steps: int) -> float:
    """CPU seconds per training step over ``steps`` steps."""
    start = time.thread_time()
    for _ in range(steps):
        learner.step(batch)
    return (time.thread_time() - start) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one round of 2 steps per layout")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.rounds = 2, 1
    for name in ("channels", "blocks", "batch", "steps", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    generator = np.random.default_rng(0)
    print(f"{args.channels} x {args.blocks} network, batch {args.batch}, one thread")
    print("| game | NCHW ms/step | channels-last ms/step | speed-up |")
    print("|---|---:|---:|---:|")
    for name, config in GAMES.items():
        game = config.make_game()
        spec = NetworkSpec.for_game(game, channels=args.channels, blocks=args.blocks)
        batch = random_batch(game, args.batch, generator)
        base = PolicyValueNet(spec)
        learners = {
            "nchw": learner_in(base, torch.contiguous_format),
            "channels_last": learner_in(copy.deepcopy(base), torch.channels_last),
        }
        times: dict[str, list[float]] = {key: [] for key in learners}
        for learner in learners.values():
            step_seconds(learner, batch, 2)  # warm-up: oneDNN's kernels
        for _ in range(args.rounds):
            for key, learner in learners.items():
                times[key].append(step_seconds(learner, batch, args.steps))
        nchw, last = (statistics.median(times[key]) * 1000 for key in learners)
        print(f"| {name} | {nchw:.1f} | {last:.1f} | {nchw / last:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
