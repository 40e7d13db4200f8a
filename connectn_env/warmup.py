"""``connectn warmup``: compile ahead what the first moves on a game need, so that no program
waits for numba later (the compiled code goes to numba's cache on disk; every later process
loads it in well under a second).

For each game: the rules kernels the environments use (reset, step, observation, mask), a
plain-UCT search (``MCTSAgent(preset="uct")``) and a search with the game's recommended
options (``MCTSAgent()``: RAVE, the roll-out policies, the exact solver where the game has
one, searched at a position the solver takes on when it does not take on the start).
AlphaZero's network search and the vector environment's compiled loop are not included (they
need torch or a vector env: their first use compiles them).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from connectn_env.games import REGISTRY, BoardGame
from connectn_env.games.compile_notice import compile_notices, compiling
from connectn_env.games.lib.jit import cache_unwritable
from connectn_env.specs import resolve_agent

_POSITION_TRIES = 20  # random games tried to reach a position the exact solver takes on


def warm_up_agent(agent: Any, game: BoardGame) -> None:
    """Compile (or load from the cache) what ``agent``'s searches on ``game`` need
    (:meth:`agents.search.SearchAgent.prepare` with what later moves need, at the start
    and, if the game has an exact solver, at a position it takes on: a scratch agent with
    the same compiled options searches; ``agent`` itself is not changed; for an alpha-beta
    agent :meth:`agents.AlphaBetaAgent.prepare`). Agents that are neither search agents
    (``MCTSAgent``, ``PUCTAgent``...) nor alpha-beta agents are left alone: they are not
    asked anything.

    Raises:
        TypeError: ``game`` is not a ``BoardGame``.
    """
    from agents.alphabeta import AlphaBetaAgent
    from agents.search import SearchAgent
    from connectn_env.envs.base import BoardGameEnv

    if not isinstance(game, BoardGame):
        raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
    if not isinstance(agent, SearchAgent | AlphaBetaAgent):
        return
    env = BoardGameEnv(game)
    env.reset()
    agent.prepare(env, later_moves=True)
    if isinstance(agent, AlphaBetaAgent):
        return
    solver = game.exact_solver()
    if solver is not None and not solver.reaches(env.game_state):
        for seed in range(_POSITION_TRIES):
            if _play_until_solvable(env, solver, np.random.default_rng(seed)):
                agent.prepare(env)  # (nothing more for an agent that does not use it)
                return


def warm_up_specs(game: BoardGame, specs: Sequence[Any]) -> None:
    """:func:`warm_up_agent` for an agent built (seed 0) from each agent spec: run before
    programs that play in other processes (the arena's workers), which then load the compiled
    code from the cache instead of each compiling it. A spec whose agent fails to build or
    to search is skipped: the games it plays report the failure."""
    for spec in specs:
        try:
            warm_up_agent(resolve_agent(spec, game, seed=0), game)
        except Exception:  # the agent may be user code; its games tell what went wrong
            continue


def warm_up_game(game: BoardGame) -> None:
    """Compile (or load) the rules kernels of ``game`` and what a plain-UCT search and a
    search with the game's recommended options need (see the module docstring).

    Raises:
        TypeError: ``game`` is not a ``BoardGame``.
    """
    from agents import MCTSAgent
    from connectn_env.envs.base import BoardGameEnv

    if not isinstance(game, BoardGame):
        raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
    with compiling(f"{game.title} rules kernels"):
        env = BoardGameEnv(game)
        env.reset()
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        env.last()
    for preset in ("uct", "default"):
        warm_up_agent(MCTSAgent(preset=preset), game)


def run_warmup(names: Sequence[str] = (), stream: TextIO | None = None) -> int:
    """``connectn warmup [GAME ...]``: warm up each named game with its default parameters
    (no name: every registered game), telling ``stream`` (default stdout) what is compiled as
    it goes; returns 0.

    Raises:
        ValueError: an unknown game name (nothing is compiled).
    """
    stream = stream if stream is not None else sys.stdout
    games = [REGISTRY.make(name) for name in (names or list(REGISTRY.keys()))]
    games = list(dict.fromkeys(games))  # Connect-N's defaults are Connect Four: once

    def show(message: str) -> None:
        print(f"  {message}", file=stream, flush=True)

    total = time.perf_counter()
    for number, game in enumerate(games, 1):
        print(f"[{number}/{len(games)}] {game.title}", file=stream, flush=True)
        start = time.perf_counter()
        with compile_notices(show):
            warm_up_game(game)
        print(f"  ready ({time.perf_counter() - start:.1f} s)", file=stream, flush=True)
    kept = (
        "numba's cache could not be written: later processes compile again"
        if cache_unwritable()
        else "later first moves load from numba's cache"
    )
    print(
        f"warm: {len(games)} game{'s' if len(games) != 1 else ''} in "
        f"{time.perf_counter() - total:.1f} s; {kept}",
        file=stream,
        flush=True,
    )
    return 0


def _play_until_solvable(env: Any, solver: Any, rng: np.random.Generator) -> bool:
    """Play random moves on ``env`` (from the start) until ``solver`` takes the position on;
    False if the game ended first."""
    env.reset()
    state = env.game_state
    while not state.is_terminal():
        if solver.reaches(state):
            return True
        env.step(int(rng.choice(state.legal_actions())))
    return False
