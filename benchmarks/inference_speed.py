"""Self-play inference by runtime: the network's forward pass on one batch, eager as
:class:`agents.alphazero.inference.NetworkEvaluator` runs it, against a frozen TorchScript copy
and ``torch.compile`` (``dynamic=True``, as ``inference="compile"`` runs it), each in float32
and bfloat16.

Every runtime gets the same folded copy of one randomly initialised network of the given size
(batch norms folded into the convolutions, as self-play uses it) and the same batch of
``--batch`` random positions of the game, in this process, one torch thread. Each runtime is
made once (its set-up time is reported: tracing and freezing, or compiling on the first call),
warmed up, then rounds alternate between the runtimes, each ``--calls`` calls timed by
``time.thread_time`` (the machine is shared: wall time would measure the neighbours).
``torch.compile`` compiles in worker processes, whose CPU time a thread clock does not see:
its set-up is wall time. Reported: CPU milliseconds per batch, medians over ``--rounds``, the
speed-up against eager float32, and the largest difference of any output from eager float32's.

    python benchmarks/inference_speed.py                   # 6 x 6 and Connect Four
    python benchmarks/inference_speed.py --quick           # smoke test (no torch.compile)
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
import torch

from agents.alphazero.network import NetworkSpec, PolicyValueNet, encode
from connectn_env.games import BoardGame
from connectn_env.records import GameConfig

GAMES = {
    "connect_n 6x6 k=4": GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False}),
    "connect_four": GameConfig("connect_four"),
}
Forward = Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]]


def random_input(game: BoardGame, size: int, generator: np.random.Generator) -> torch.Tensor:
    """The network's input planes for ``size`` positions of random stones."""
    stones = (generator.random((size, game.rows, game.cols, 2)) < 0.3).astype(np.int8)
    players = generator.integers(0, 2, size).astype(np.int8)
    return encode(stones, players, "cpu")


def eager(model: torch.nn.Module, x: torch.Tensor) -> Forward:
    return model


def frozen(model: torch.nn.Module, x: torch.Tensor) -> Forward:
    with torch.inference_mode(False), torch.no_grad():
        return torch.jit.freeze(torch.jit.trace(model.eval(), x))


def compiled(model: torch.nn.Module, x: torch.Tensor) -> Forward:
    return torch.compile(model, dynamic=True)  # as ``NetworkEvaluator(inference="compile")``


RUNTIMES: dict[str, Callable[[torch.nn.Module, torch.Tensor], Forward]] = {
    "eager": eager,
    "torch.jit.freeze": frozen,
    "torch.compile": compiled,
}


def seconds_per_call(forward: Forward, x: torch.Tensor, calls: int) -> float:
    """CPU seconds per forward pass over ``calls`` calls."""
    with torch.inference_mode():
        start = time.thread_time()
        for _ in range(calls):
            forward(x)
        return (time.thread_time() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke test: 6 x 6, no compile")
    args = parser.parse_args()
    runtimes = dict(RUNTIMES)
    games = GAMES
    if args.quick:
        args.calls, args.rounds, args.batch = 2, 1, 8
        runtimes.pop("torch.compile")
        games = dict(list(GAMES.items())[:1])
    for name in ("channels", "blocks", "batch", "calls", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    print(
        f"network {args.channels} x {args.blocks}, batch {args.batch}, one thread; "
        f"medians of {args.rounds} rounds of {args.calls} calls (CPU ms per batch)"
    )
    print(
        "| game | runtime | precision | set-up s | ms per batch | speed-up | largest difference |"
    )
    print("|---|---|---|---:|---:|---:|---:|")
    for label, config in games.items():
        game = config.make_game()
        model = PolicyValueNet(
            NetworkSpec.for_game(game, channels=args.channels, blocks=args.blocks)
        ).eval()
        x = random_input(game, args.batch, np.random.default_rng(0))
        with torch.inference_mode():
            reference = model.folded()(x)
        forwards, setups, differences = {}, {}, {}
        for precision, dtype in (("float32", torch.float32), ("bfloat16", torch.bfloat16)):
            xd = x.to(dtype)
            for name, make in runtimes.items():
                start, clock = time.perf_counter(), time.thread_time()
                forward = make(model.folded().to(dtype), xd)
                with torch.inference_mode():
                    outputs = forward(xd)  # torch.compile compiles here
                wall, cpu = time.perf_counter() - start, time.thread_time() - clock
                setups[name, precision] = wall if name == "torch.compile" else cpu
                differences[name, precision] = max(
                    float((out.float() - ref).abs().max())
                    for out, ref in zip(outputs, reference, strict=True)
                )
                seconds_per_call(forward, xd, 2)  # warm-up: kernels picked and cached
                forwards[name, precision] = (forward, xd)
        times: dict[tuple[str, str], list[float]] = {key: [] for key in forwards}
        for _ in range(args.rounds):
            for key, (forward, xd) in forwards.items():
                times[key].append(seconds_per_call(forward, xd, args.calls))
        base = statistics.median(times["eager", "float32"])
        for (name, precision), values in times.items():
            median = statistics.median(values)
            print(
                f"| {label} | {name} | {precision} | {setups[name, precision]:.2f} | "
                f"{1000 * median:.2f} | {base / median:.2f}x | "
                f"{differences[name, precision]:.1e} |"
            )


if __name__ == "__main__":
    main()
