"""Time budgets hold: with ``time_limit=0.05`` every move on crowded positions of each game
family takes at most 0.06 s of the thread's CPU time (the compiling first moves excluded), with
the games' default options (tactics, the exact solvers) as with plain UCT and PUCT."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from gomoku_helpers import windows

from agents import MCTSAgent, PUCTAgent
from agents import search as search_module
from agents.search import run_budget
from connectn_env import connect_n_v0, gomoku_v0, hex_v0, othello_v0

TIME_LIMIT = 0.05
MOST_CPU_SECONDS = 0.06
POSITIONS_PER_GAME = 4  # the first is the measured agent's own first move


def random_positions(module: Any, plies: int, count: int) -> list[Any]:
    """``count`` raw envs after ``plies`` uniformly random moves (seeded; games that end
    sooner are skipped)."""
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        rng = np.random.default_rng(seed)
        seed += 1
        env = module.raw_env()
        env.reset()
        state = env.unwrapped.game_state
        for _ in range(plies):
            env.step(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                break
        else:
            found.append(env)
    return found


def quiet_gomoku_positions(plies: int, count: int) -> list[Any]:
    """15 x 15 Gomoku envs after ``plies`` random moves of which none puts three stones of a
    player in a line of five free of the other's: no threes, no fours, so the threat-space
    solver proves nothing and spends all the time it is given."""
    lines = windows(15, 15)
    lines_of = [np.flatnonzero((lines == cell).any(axis=1)) for cell in range(15 * 15)]
    found = []
    for seed in range(count):
        rng = np.random.default_rng(seed)
        env = gomoku_v0.raw_env()
        env.reset()
        board = np.zeros(15 * 15, dtype=np.int64)
        for ply in range(plies):
            own, other = ply % 2 + 1, 2 - ply % 2
            for cell in rng.permutation(board.size):
                if board[cell]:
                    continue
                board[cell] = own
                stones = board[lines[lines_of[cell]]]
                if not ((stones == own).sum(axis=1)[~(stones == other).any(axis=1)] >= 3).any():
                    break
                board[cell] = 0
            else:
                raise AssertionError(f"seed {seed}: no quiet move at ply {ply}")
            env.step(int(cell))
        found.append(env)
    return found


POSITIONS: dict[str, Callable[[], list[Any]]] = {
    "connect_four": lambda: random_positions(connect_n_v0, 12, POSITIONS_PER_GAME),
    "gomoku_ply_120": lambda: quiet_gomoku_positions(120, POSITIONS_PER_GAME),
    "hex_11x11": lambda: random_positions(hex_v0, 70, POSITIONS_PER_GAME),
    "othello_midgame": lambda: random_positions(othello_v0, 30, POSITIONS_PER_GAME),
}
AGENTS: dict[str, Callable[[int], Any]] = {
    "mcts_game_defaults": lambda seed: MCTSAgent(time_limit=TIME_LIMIT, seed=seed),
    "mcts_uct": lambda seed: MCTSAgent(time_limit=TIME_LIMIT, preset="uct", seed=seed),
    "puct": lambda seed: PUCTAgent(simulations=None, time_limit=TIME_LIMIT, seed=seed),
}


@pytest.fixture
def quiet_collector() -> Iterator[None]:
    """The test process's objects out of the collector's way: a full collection of a large
    pytest process during a move would be measured as the search's time."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.mark.parametrize("agent_name", list(AGENTS))
@pytest.mark.parametrize("positions", list(POSITIONS))
def test_a_time_limit_holds_on_crowded_positions(
    positions: str, agent_name: str, quiet_collector: None
) -> None:
    envs = POSITIONS[positions]()
    make = AGENTS[agent_name]
    warm = make(1)
    for env in envs:  # compiles (or loads) whatever these positions' searches call
        warm.act(env)
    agent = make(2)
    agent.act(envs[0])  # its own first move: solver tables, tree buffers, entry points
    spent, elapsed = [], []
    for env in envs[1:]:
        before = time.thread_time()
        result = agent.search(env)
        spent.append(time.thread_time() - before)
        elapsed.append(result.elapsed)
    assert max(spent) <= MOST_CPU_SECONDS, [round(s, 4) for s in spent]
    assert max(elapsed) >= 0.9 * TIME_LIMIT, f"no search ran until the clock stopped it: {elapsed}"


# --- run_budget on a simulated clock ---------------------------------------------------------


class SimulatedSearch:
    """A clock and a ``step`` whose simulations cost ``cost(done)`` simulated seconds each."""

    def __init__(self, cost: Callable[[int], float]) -> None:
        self.now = 0.0
        self.cost = cost
        self.asks: list[int] = []
        self.done = 0

    def step(self, n: int) -> int:
        self.asks.append(n)
        for _ in range(n):
            self.now += self.cost(self.done)
            self.done += 1
        return n


@pytest.fixture
def simulated(monkeypatch: pytest.MonkeyPatch) -> Callable[..., SimulatedSearch]:
    def make(cost: Callable[[int], float]) -> SimulatedSearch:
        search = SimulatedSearch(cost)
        monkeypatch.setattr(search_module, "time", SimpleNamespace(perf_counter=lambda: search.now))
        return search

    return make


@pytest.mark.parametrize(
    "cost",
    [lambda done: 1e-3, lambda done: 1e-5, lambda done: 1e-3 if done < 30 else 1.9e-3],
    ids=["1 ms", "10 us", "1 ms then 1.9 ms"],
)
def test_chunks_start_at_one_simulation_and_end_within_the_budget(simulated, cost) -> None:
    search = simulated(cost)
    done, seconds = run_budget(search.step, None, 0.05, start=0.0)
    assert search.asks[0] == 1
    assert all(b <= 4 * a for a, b in zip(search.asks, search.asks[1:], strict=False))
    assert seconds == search.now <= 0.05
    assert seconds >= 0.05 - 2 * cost(done)  # and the budget is used


def test_a_slow_first_simulation_does_not_end_the_search(simulated) -> None:
    """The first simulation of a process's first search carries numba loading the compiled
    search (0.4 s): sized from it, the next chunk had no simulation and the search ended
    after one. Its time sizes nothing: the second chunk is one simulation too, measured."""
    search = simulated(lambda done: 0.4 if done == 0 else 1e-4)
    done, seconds = run_budget(search.step, None, 1.0, start=0.0)
    assert search.asks[:3] == [1, 1, 4]
    assert done > 1000 and 0.9 <= seconds <= 1.0


def test_the_clock_is_read_before_the_first_chunk(simulated) -> None:
    search = simulated(lambda done: 1e-3)
    search.now = 0.06  # the budget was spent before the simulations (the exact solver, say)
    assert run_budget(search.step, None, 0.05, start=0.0) == (0, 0.06)
    assert search.asks == []


def test_prepare_may_cut_a_chunk_and_its_time_counts(simulated) -> None:
    search = simulated(lambda done: 1e-4)
    deadlines = []

    def prepare(n: int, deadline: float) -> int:
        """Map memory in slices (0.2 ms for 10 simulations each) until ``deadline``."""
        deadlines.append(deadline)
        covered = 0
        while covered < n and search.now < deadline:
            search.now += 2e-4
            covered += 10
        return min(n, covered)

    done, seconds = run_budget(search.step, None, 0.05, start=0.0, prepare=prepare)
    assert all(deadline <= 0.05 for deadline in deadlines)
    assert seconds <= 0.05 + 2e-4  # at most one slice late
    assert done >= 100
