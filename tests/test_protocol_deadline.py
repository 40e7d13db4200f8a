"""The protocols' clock bounds every move, whatever the agent's own budget (issue 43, item 12):
a simulation- or depth-budgeted agent (every ``--level``) ran for seconds past a GTP or pbrain
budget. Checked on a fake clock that moves only when the search works, and once on the CPU
time of a real move."""

from __future__ import annotations

import time

import pytest

from agents import AlphaBetaAgent, MCTSAgent, RandomAgent, alphabeta, negamax
from agents.deadline import MIN_SECONDS, can_be_bounded, time_bounded
from connectn_env.protocols.gtp import GtpEngine
from connectn_env.protocols.match import choose_action
from connectn_env.protocols.pbrain import PbrainEngine
from connectn_env.records import GameConfig

SECONDS_PER_SIMULATION = 0.001  # on the fake clock


class FakeClock:
    """``time.perf_counter`` that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(time, "perf_counter", fake)
    return fake


def timed_search(
    agent: MCTSAgent,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    seconds: float = SECONDS_PER_SIMULATION,
) -> None:
    """Each simulation of ``agent`` takes ``seconds`` on ``clock``."""
    simulate = agent._native_simulations

    def simulations(state, rng, count):
        done = simulate(state, rng, count)
        clock.now += done * seconds
        return done

    monkeypatch.setattr(agent, "_native_simulations", simulations)


def hex_env(size: int = 7):
    env = GameConfig("hex", {"rows": size, "cols": size, "swap": False}).make_env()
    env.reset()
    return env


def test_time_bounded_lowers_the_time_limit_for_one_move_and_restores_it():
    agent = MCTSAgent(simulations=10**7)
    with time_bounded(agent, 0.5) as bounded:
        assert bounded and agent.time_limit == 0.5 and agent.simulations == 10**7
    assert agent.time_limit is None
    tight = AlphaBetaAgent(depth=3, time_limit=0.2)
    with time_bounded(tight, 0.5):
        assert tight.time_limit == 0.2  # its own limit is tighter
    with time_bounded(tight, 0.0):
        assert tight.time_limit == MIN_SECONDS  # the clock is out: a search still expands
    assert tight.time_limit == 0.2
    with pytest.raises(RuntimeError), time_bounded(agent, 0.5):
        raise RuntimeError("the search failed")
    assert agent.time_limit is None
    with time_bounded(RandomAgent(), 0.5) as bounded:
        assert not bounded
    assert not can_be_bounded(RandomAgent()) and can_be_bounded(tight)
    with time_bounded(agent, None) as bounded:
        assert not bounded and agent.time_limit is None
    for bad, error in ((float("nan"), ValueError), (-1, ValueError), ("1", TypeError)):
        with pytest.raises(error, match="seconds"), time_bounded(agent, bad):
            pass


@pytest.mark.parametrize("seconds", [SECONDS_PER_SIMULATION, 0.03], ids=["fast", "slow"])
def test_a_simulation_budget_stops_at_the_clock(clock, monkeypatch, seconds):
    """mcts:simulations=10000000 searched in chunks growing to 65,536 simulations and heard
    the budget only between them: 0.96 s of a 0.5 s budget here, 2.9 s of 1.75 s in the
    issue. A simulation slower than a timed chunk's 10 ms (a network's on a busy CPU: 30 ms)
    ended a timed search after two."""
    agent = MCTSAgent(simulations=10**7, seed=0)
    timed_search(agent, clock, monkeypatch, seconds)
    start = clock.now
    _, note = choose_action(agent, hex_env(), budget=0.5)
    spent = clock.now - start
    assert spent <= 0.5
    assert spent >= 0.4, note  # it used the clock, not stopped at once
    assert "simulations in" in note


@pytest.mark.parametrize(
    ("make_engine", "commands", "move"),
    [
        (lambda agent: GtpEngine(agent, size=7), ["time_settings 15 0 0"], "genmove b"),
        (
            lambda agent: PbrainEngine(agent),
            ["INFO timeout_turn 1000", "START 15"],
            "BEGIN",
        ),
    ],
    ids=["gtp", "pbrain"],
)
def test_each_protocol_bounds_a_simulation_budgeted_move(
    clock, monkeypatch, make_engine, commands, move
):
    """15 / 15 s of GTP main time and a 1 s pbrain turn: 0.85 s less the margin."""
    agent = MCTSAgent(simulations=10**7, seed=0)
    timed_search(agent, clock, monkeypatch)
    engine = make_engine(agent)
    for line in commands:
        engine.handle(line)
    start = clock.now
    engine.handle(move)
    assert 0.8 <= clock.now - start <= 0.85


def test_alpha_beta_is_given_the_clock_as_its_deadline(monkeypatch):
    """ab:depth=3 (Hex's level 10) had no deadline: 3 to 10 s against a 1.75 s budget. Its
    iterations past the first (which always finishes) must stop by the clock's end."""
    deadlines = []

    def search_depth(*arguments):  # records the deadline; plays the first move at once
        deadlines.append((arguments[5], arguments[10][1]))
        return 0.0, 0

    monkeypatch.setattr(negamax, "search_depth", search_depth)
    monkeypatch.setattr(negamax, "principal_line", lambda *arguments: 0)
    monkeypatch.setattr(alphabeta, "_prepare", lambda state: None)  # nothing to compile here
    agent = AlphaBetaAgent(depth=3)
    before = time.perf_counter()
    action, note = choose_action(agent, hex_env(5), budget=0.5)
    after = time.perf_counter()
    assert [depth for depth, _ in deadlines] == [1, 2, 3]
    assert deadlines[0][1] == float("inf")  # the first iteration always finishes
    assert all(before < deadline <= after + 0.5 for _, deadline in deadlines[1:])
    assert action == 0 and note.startswith("depth 3, ")
    assert agent.time_limit is None


def test_an_agent_that_cannot_be_stopped_is_waited_for_and_said_to_run_over(clock):
    class Slow:
        def act(self, env):
            clock.now += 2.0
            return 0

    action, note = choose_action(Slow(), hex_env(), budget=0.5)
    assert action == 0
    assert note == "took 2.00 s, over the clock's 0.50 s: this agent cannot be stopped by the clock"
    assert choose_action(Slow(), hex_env(), budget=3.0) == (0, "")


def test_a_deep_alpha_beta_keeps_to_a_small_gtp_budget():
    """The real thing, by CPU time (the machine may be loaded): ``ab:depth=6`` on Hex 11 took
    2.8 CPU s (10.5 s) at depth 5 of a 0.25 s budget (5 / 15 s of main time, less the
    margin)."""
    gtp = GtpEngine(AlphaBetaAgent(depth=6), size=11)
    gtp.handle("time_settings 0 0 0")
    assert gtp.handle("genmove b").startswith("= ")  # compiles (or loads) the search
    gtp.handle("time_settings 5 0 0")
    cpu_start = time.thread_time()
    assert gtp.handle("genmove w").startswith("= ")
    assert time.thread_time() - cpu_start < 1.5
