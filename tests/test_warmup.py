"""``connectn warmup``: compiles ahead what a first move needs, for the games named or all."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from agents import MCTSAgent, RandomAgent
from agents import search as search_module
from connectn_env import warmup
from connectn_env.cli import main
from connectn_env.games import REGISTRY, connect_four
from connectn_env.games.connect_n.exact import REACH_EMPTY_CELLS

FIRST_MOVES = """
import logging, sys
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
from agents import MCTSAgent
from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import REGISTRY
env = BoardGameEnv(REGISTRY.make("tictactoe"))
env.reset()
for agent in (MCTSAgent(time_limit=0.05, preset="uct"), MCTSAgent(time_limit=0.05)):
    agent.act(env)
    agent.act(env)  # reusing the tree
print("moved")
"""


@pytest.mark.slow
def test_warmup_compiles_what_the_first_moves_need(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "OMP_NUM_THREADS": "1"}
    command = [sys.executable, "-m", "connectn_env.cli", "warmup", "tictactoe"]
    warm = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr
    lines = warm.stdout.splitlines()
    assert lines[0] == "[1/1] Tic-tac-toe"
    for kernels in ("rules", "search"):  # each announced once (the search's were 5 times)
        announce = f"  compiling Tic-tac-toe {kernels} kernels (first use; cached afterwards)"
        assert lines.count(announce) == 1, lines
        done = f"  compiled Tic-tac-toe {kernels} kernels in "
        assert sum(line.startswith(done) for line in lines) == 1, lines
    later = subprocess.run(
        [sys.executable, "-c", FIRST_MOVES], env=env, capture_output=True, text=True, timeout=600
    )
    assert later.returncode == 0, later.stderr
    assert later.stdout.splitlines() == ["moved"]  # nothing compiled, nothing announced


def test_no_name_warms_every_registered_game_once(monkeypatch):
    warmed = []
    monkeypatch.setattr(warmup, "warm_up_game", warmed.append)
    out = io.StringIO()
    assert warmup.run_warmup(stream=out) == 0
    names = {REGISTRY.entry_of(game).name for game in warmed}
    assert names == set(REGISTRY.keys()) - {"connect_n"}  # its defaults are Connect Four
    assert len(warmed) == len(names)
    assert out.getvalue().splitlines()[-1].startswith(f"warm: {len(warmed)} games in ")


def test_a_cache_that_could_not_be_written_is_not_promised_to_later_runs(monkeypatch):
    """A full cache disk: warmup said "later first moves load from numba's cache" after the
    warning that nothing could be written there."""
    from connectn_env.games.lib import jit

    def full_disk(game):
        jit._tell_unwritable(OSError(28, "No space left on device"))

    monkeypatch.setattr(jit, "_told", set())
    monkeypatch.setattr(warmup, "warm_up_game", full_disk)
    out = io.StringIO()
    assert warmup.run_warmup(["tictactoe"], stream=out) == 0
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("warm: 1 game in ") and "load from numba's cache" not in last
    assert last.endswith("numba's cache could not be written: later processes compile again")


def test_unknown_game_is_refused_before_anything_compiles(monkeypatch, capsys):
    warmed = []
    monkeypatch.setattr(warmup, "warm_up_game", warmed.append)
    with pytest.raises(SystemExit) as stop:
        main(["warmup", "hex", "chess"])
    assert stop.value.code == 2
    assert "connectn warmup: error: unknown game 'chess'" in capsys.readouterr().err
    assert warmed == []


def test_warm_up_agent_searches_where_the_exact_solver_starts(monkeypatch):
    searched = []
    search = MCTSAgent.search

    def spy(self, env, progress=None):
        searched.append(len(env.unwrapped.game_state.history()))
        return search(self, env, progress)

    monkeypatch.setattr(MCTSAgent, "search", spy)
    monkeypatch.setattr(search_module, "_prepared", set())  # nothing prepared in this process
    game = connect_four()
    agent = MCTSAgent(simulations=16, seed=0)
    warmup.warm_up_agent(agent, game)
    assert searched[0] == 0 and len(searched) == 2  # the start, then a position it takes on
    assert game.rows * game.cols - searched[1] <= REACH_EMPTY_CELLS
    assert agent._trees == []  # a scratch agent searched, not this one


def test_warm_up_leaves_other_agents_alone_and_checks_the_game():
    warmup.warm_up_agent(RandomAgent(seed=0), connect_four())  # not asked anything
    with pytest.raises(TypeError, match="game must be a BoardGame"):
        warmup.warm_up_agent(MCTSAgent(simulations=4), "connect_four")
    with pytest.raises(TypeError, match="game must be a BoardGame"):
        warmup.warm_up_game("hex")


def test_warm_up_agent_compiles_an_alpha_beta_search_without_touching_the_agent(monkeypatch):
    """GTP and pbrain warm their agent up before the clock runs: an alpha-beta agent's first
    genmove compiled its search inside a 1.75 s budget (17 s on a cold cache)."""
    from agents import alphabeta
    from agents.alphabeta import AlphaBetaAgent

    searched = []
    real = AlphaBetaAgent.analyse_state

    def spy(self, state):
        searched.append((self, self.depth, len(state.history())))
        return real(self, state)

    monkeypatch.setattr(AlphaBetaAgent, "analyse_state", spy)
    monkeypatch.setattr(alphabeta, "_prepared", set())  # as in a process that compiled nothing
    agent = AlphaBetaAgent(depth=6, seed=3)
    warmup.warm_up_agent(agent, REGISTRY.make("tictactoe"))
    assert [(depth, plies) for _, depth, plies in searched] == [(1, 0)]  # a depth-1 search
    assert searched[0][0] is not agent and agent._table is None  # of another agent
