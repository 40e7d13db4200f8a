"""``connectn bench``: our environments and MCTS against PettingZoo and OpenSpiel.

Two measurements, each side measured in this process, interleaved, median of several runs:

- AEC steps per second of random masked play (``agent_iter`` + ``last`` + ``step``; a
  pre-drawn uniform number indexes ``np.flatnonzero(mask)``) through ``env()``, against
  PettingZoo's ``classic`` Connect Four and tic-tac-toe.
- MCTS simulations per second from the empty board (UCT, c = 1.4, one random play-out per
  simulation, one thread): :class:`agents.MCTSAgent` against OpenSpiel's C++ ``MCTSBot``.

A reference that is not installed is skipped with a message. The warm-up (numba cache
loading or compiling) is not timed.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np


@dataclass(frozen=True)
class BenchRow:
    """One line of the table: our figure, the reference's (or why it is missing)."""

    name: str
    unit: str
    ours: float
    reference: str
    theirs: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return None if self.theirs is None else self.ours / self.theirs


def random_play_rate(env: Any, steps: int, seed: int) -> float:
    """``env.step`` calls per second of random masked play (games restart at the end)."""
    uniforms = np.random.default_rng(seed).random(steps).tolist()
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[int(uniforms[done] * len(legal))])
            env.step(action)
            done += 1
            if done == steps:
                break
        else:
            env.reset()
    return steps / (time.perf_counter() - start)


# PettingZoo's own versions of the suite's games, by registry name.
PETTINGZOO_REFERENCES = {"connect_four": "connect_four_v3", "tictactoe": "tictactoe_v3"}


def _env_cases() -> list[tuple[str, Callable[[], Any], str, Callable[[], Any] | None]]:
    """(label, our env factory, reference name, reference factory or None): every registered
    family with its default parameters, and the presets PettingZoo also has."""
    from connectn_env.envs.base import BoardGameEnv, wrap_classic
    from connectn_env.games import REGISTRY

    def ours(game: Any) -> Callable[[], Any]:
        return lambda: wrap_classic(BoardGameEnv(game, illegal_action="lose"))

    def pettingzoo_env(name: str) -> Callable[[], Any]:
        def make() -> Any:
            import pettingzoo

            return pettingzoo.make("aec", f"classic/{name.replace('_v', '-v')}")

        return make

    games = [
        entry.make()
        for entry in REGISTRY.values()
        if not entry.is_preset or entry.name in PETTINGZOO_REFERENCES
    ]
    cases = []
    for game in dict.fromkeys(games):  # Connect-N's default is Connect Four: once
        name = REGISTRY.entry_of(game).name
        reference = PETTINGZOO_REFERENCES.get(name)
        label = f"{name} {game.rows}x{game.cols}"
        if reference is None:
            cases.append((label, ours(game), "-", None))
        else:
            cases.append((label, ours(game), f"PettingZoo {reference}", pettingzoo_env(reference)))
    return cases


def env_rows(runs: int, steps: int) -> list[BenchRow]:
    """AEC steps/s of our envs and PettingZoo's (median of ``runs`` interleaved runs)."""
    rows = []
    for name, ours, reference, make_theirs in _env_cases():
        sides: dict[str, Any] = {"ours": ours()}
        note = ""
        if make_theirs is not None:
            try:
                sides["theirs"] = make_theirs()
            except Exception as error:  # an optional dependency of PettingZoo is missing
                note = f"{reference} skipped: {type(error).__name__}: {error}"
        rates: dict[str, list[float]] = {side: [] for side in sides}
        for env in sides.values():
            random_play_rate(env, min(steps, 500), seed=0)  # warm-up
        for run in range(runs):
            for side, env in sides.items():
                rates[side].append(random_play_rate(env, steps, seed=run + 1))
        theirs = statistics.median(rates["theirs"]) if "theirs" in rates else None
        shown = reference if theirs is not None or make_theirs is None else "-"
        rows.append(
            BenchRow(
                f"{name} env", "steps/s", statistics.median(rates["ours"]), shown, theirs, note
            )
        )
    return rows


def mcts_games() -> list[tuple[str, Any]]:
    """``(label, game)`` for every registered game family with its default parameters (the
    MCTS table's rows: Connect Four, Gomoku 15x15, Hex 11x11, ...)."""
    from connectn_env.games import REGISTRY

    games = []
    for game_class in REGISTRY.families():
        game = game_class()
        games.append((f"{REGISTRY.entry_of(game).name} {game.rows}x{game.cols}", game))
    return games


def our_mcts_rate(game: Any, simulations: int) -> float:
    """Simulations/s of one plain ``MCTSAgent`` search (UCT, c = 1.4) from ``game``'s start."""
    from agents import MCTSAgent
    from connectn_env.envs.base import BoardGameEnv

    env = BoardGameEnv(game)
    env.reset()
    agent = MCTSAgent(
        simulations=simulations, exploration=1.4, reuse_tree=False, seed=0, preset="uct"
    )
    result = agent.search(env)
    return result.simulations / result.elapsed


def openspiel_mcts_rate(pyspiel: Any, game: Any, simulations: int) -> float:
    """Simulations/s of one search of OpenSpiel's C++ ``MCTSBot`` (UCT, c = 1.4, one random
    roll-out per simulation) from the start of the same game in OpenSpiel
    (``game.openspiel_reference()``)."""
    name, parameters = game.openspiel_reference()
    spiel_game = pyspiel.load_game(name, parameters)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(spiel_game, evaluator, 1.4, simulations, 1000, False, 0, False)
    state = spiel_game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def mcts_rows(repeats: int, simulations: int) -> list[BenchRow]:
    """MCTS simulations/s from the empty board, ours and OpenSpiel's C++ MCTSBot."""
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    rows = []
    for name, game in mcts_games():
        our_mcts_rate(game, 64)  # warm-up: load or compile the numba code
        ours, theirs = [], []
        for _ in range(repeats):
            ours.append(our_mcts_rate(game, simulations))
            if pyspiel is not None:
                theirs.append(openspiel_mcts_rate(pyspiel, game, simulations))
        reference = "OpenSpiel C++ MCTSBot" if pyspiel is not None else "-"
        note = "" if pyspiel is not None else "OpenSpiel skipped: pip install open_spiel"
        median = statistics.median(theirs) if theirs else None
        rows.append(
            BenchRow(f"{name} MCTS", "sims/s", statistics.median(ours), reference, median, note)
        )
    return rows


def format_table(rows: list[BenchRow]) -> str:
    """A Markdown table of the rows, then the notes of skipped references."""
    lines = [
        "| benchmark | unit | connectn-env | reference | reference value | ratio |",
        "|---|---|---:|---|---:|---:|",
    ]
    for row in rows:
        theirs = "-" if row.theirs is None else f"{row.theirs:,.0f}"
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}x"
        lines.append(
            f"| {row.name} | {row.unit} | {row.ours:,.0f} | {row.reference} | {theirs} | {ratio} |"
        )
    notes = sorted({row.note for row in rows if row.note})
    return "\n".join(lines + [f"note: {note}" for note in notes])


def run_bench(*, full: bool = False, stream: TextIO | None = None) -> int:
    """Run both benchmarks and print one table (``full``: more runs, longer searches)."""
    stream = stream if stream is not None else sys.stdout
    runs, steps = (7, 20_000) if full else (3, 3_000)
    repeats, simulations = (5, 20_000) if full else (3, 5_000)
    print(
        f"connectn bench ({'full' if full else 'quick; --full for more runs'}): medians of "
        f"{runs} runs of {steps} env steps, {repeats} searches of {simulations} simulations",
        file=stream,
        flush=True,
    )
    rows = env_rows(runs, steps) + mcts_rows(repeats, simulations)
    print(format_table(rows), file=stream)
    return 0
