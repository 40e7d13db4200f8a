"""Making opening suites: random openings of a few plies, kept when a cheap judge calls
them balanced (``connectn openings make``).

An opening is drawn by playing uniformly random legal moves (its length uniform in
``[min_plies, max_plies]``) and refused when the game ends on the way, when the side to move
can win at once (a forced win inside the opening's horizon), when it repeats a kept opening up
to the board's symmetries, or when the judge says no. Judges are functions of the position:

- :func:`solver_judge` (Connect Four): the exact solver's scores of every move, within a node
  budget; kept if the position is a draw with best play, or the side to move wins but only
  by one move (it must still find it). A position the budget does not prove is refused.
- :func:`search_judge` (the other games): the root value of an MCTS search of a few thousand
  simulations, kept if within ``band`` of 0. This is a proxy, and a cheap one, for what the
  suite is for (the strongest rung scoring 35-65% with either colour from the opening): it
  says the search sees no clear edge, not that strong play would find none.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from connectn_env.games import GameState
from connectn_env.ladder.games import LADDER_GAMES, ladder_key
from connectn_env.ladder.openings import OpeningSuite, position_key, suite_symmetries

Judge = Callable[[GameState], bool]


def wins_at_once(state: GameState) -> bool:
    """Whether the side to move has a move that wins the game."""
    mover = state.current_player()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal() and child.winner == mover:
            return True
    return False


def solver_judge(nodes: int = 2_000_000) -> Judge:
    """A judge of Connect Four 6 x 7 positions by the exact solver (see the module docstring):
    at most ``nodes`` search nodes per position."""
    from connectn_env.games.connect_n.book import position_bits
    from connectn_env.games.connect_n.solver import Connect4Solver

    solver = Connect4Solver()

    def judge(state: GameState) -> bool:
        moves = state.history()
        current, mask = position_bits(moves)
        legal = state.legal_actions()
        scores, _ = solver.scores_within(current, mask, len(moves), legal, nodes)
        if len(scores) < len(legal):
            return False  # not proven within the budget
        best = max(scores.values())
        return best == 0 or (best > 0 and sum(s > 0 for s in scores.values()) == 1)

    judge.__doc__ = (
        f"Connect Four solver, {nodes:,} nodes: a draw, or a win for the side to move by one "
        "move only"
    )
    return judge


def search_judge(simulations: int = 2000, band: float = 0.15, seed: int = 0) -> Judge:
    """A judge by the root value of a plain MCTS search of ``simulations`` simulations: kept
    if within ``band`` of 0 (a proxy for balance, see the module docstring)."""
    from connectn_env.specs import AgentSpec

    agent = AgentSpec("mcts", (("simulations", simulations),)).build(seed)

    def judge(state: GameState) -> bool:
        return abs(agent.search(_env(state)).root_value) <= band

    judge.__doc__ = f"MCTS root value within {band:g} of 0 after {simulations:,} simulations"
    return judge


def _env(state: GameState) -> Any:
    """A raw env of ``state``'s game at ``state`` (its moves replayed)."""
    from connectn_env.games.config import GameConfig

    env = GameConfig.from_game(state.game).make_env()
    env.reset()
    for action in state.history():
        env.step(action)
    return env


def default_judge(key: str) -> Judge:
    """The judge a suite of ladder game ``key`` is made with: the solver on Connect Four,
    the search elsewhere."""
    return solver_judge() if ladder_key(key) == "connect_four" else search_judge()


def make_suite(
    game: str,
    *,
    count: int,
    min_plies: int,
    max_plies: int,
    judge: Judge,
    seed: int = 0,
    command: str = "",
    max_tries: int | None = None,
    max_cpu_seconds: float | None = None,
) -> tuple[OpeningSuite, int]:
    """Draw random openings of ladder game ``game`` and keep ``count`` that ``judge`` calls
    balanced (see the module docstring).

    Args:
        game: A ladder key or anything :func:`ladder_key` takes.
        count: Openings wanted.
        min_plies: The fewest moves of an opening (at least 1).
        max_plies: The most (at least ``min_plies``).
        judge: ``judge(state) -> bool`` for the position after an opening; its docstring
            is recorded in the file as the judge's description.
        seed: Seeds the random openings.
        command: The command line, recorded in the file.
        max_tries: Openings drawn at most (default ``100 * count``).
        max_cpu_seconds: Stop drawing after this much CPU time (None: no limit).

    Returns:
        ``(suite, tries)``: the suite (fewer than ``count`` openings if a limit stopped it)
        and how many openings were drawn.

    Raises:
        ValueError: bad counts or plies, or no opening kept.
    """
    key = ladder_key(game)
    for name, value in (("count", count), ("min_plies", min_plies), ("max_plies", max_plies)):
        if type(value) is not int or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    if max_plies < min_plies:
        raise ValueError(f"max_plies ({max_plies}) must be at least min_plies ({min_plies})")
    tries_allowed = 100 * count if max_tries is None else max_tries
    config = LADDER_GAMES[key]
    board_game = config.make_game()
    symmetries = suite_symmetries(config)
    rng = random.Random(seed)
    start = time.process_time()
    kept: list[tuple[int, ...]] = []
    seen: set[bytes] = set()
    tries = 0
    while len(kept) < count and tries < tries_allowed:
        if max_cpu_seconds is not None and time.process_time() - start > max_cpu_seconds:
            break
        tries += 1
        state = board_game.new_initial_state()
        for _ in range(rng.randint(min_plies, max_plies)):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if state.is_terminal() or wins_at_once(state):
            continue
        position = position_key(state, symmetries)
        if position in seen or not judge(state):
            continue
        seen.add(position)
        kept.append(tuple(state.history()))
    if not kept:
        raise ValueError(f"no opening of {key} kept in {tries} tries: loosen the judge")
    suite = OpeningSuite(
        key=key,
        openings=tuple(kept),
        min_plies=min_plies,
        max_plies=max_plies,
        command=command,
        judge=(judge.__doc__ or getattr(judge, "__name__", "")).strip(),
        cpu_seconds=time.process_time() - start,
    )
    return suite, tries
