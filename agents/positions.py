"""Positions of third-party envs for the generic search: the cheapest faithful copy per env.

A search copies its root position once per simulation and plays moves and random play-outs on
the copies. A *state adapter* turns an env (its outer transparent wrappers removed) into such a
position, a :class:`SimState`; adapters are looked up by the env's type in a small registry:

- shimmy's ``OpenSpielCompatibilityV0`` on a deterministic, sequential two-player game: the
  ``pyspiel.State`` itself, copied with ``clone()`` (C++) and stepped with ``apply_action``;
- PettingZoo's ``tictactoe_v3`` and ``connect_four_v3``: the board (a list) and the player to
  move, with the env's own win rules;
- anything else: :class:`EnvCopyState`, a full copy of the env per simulation (the fallback).

Each adapter must be move-by-move equal to the full copy (legal actions, end of game, rewards
since the root): ``tests/test_generic_fast_clone.py`` plays random games to check it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from agents.envapi import copy_unchecked, is_over, observation_and_mask


class SimState:
    """A position to simulate on, with the simulation's trace (moves and movers) since the
    root. Subclasses give ``player``, ``legal``, ``terminal_r0``, ``copy`` and ``_apply``."""

    __slots__ = ("moves", "players")

    def _trace_from(self, other: SimState) -> None:
        self.moves = list(other.moves)
        self.players = list(other.players)

    def copy(self) -> SimState:
        """An independent copy in the same position."""
        raise NotImplementedError

    def player(self) -> int:
        """Index in ``possible_agents`` of the agent to move."""
        raise NotImplementedError

    def legal(self) -> np.ndarray:
        """Legal actions of the agent to move (int64)."""
        raise NotImplementedError

    def terminal_r0(self) -> float | None:
        """Sign of player 0's minus player 1's reward since the root once the game is over,
        else None."""
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def step(self, action: int) -> None:
        """Play ``action`` (a legal action of the agent to move), recording it in the trace."""
        self.players.append(self.player())
        self.moves.append(action)
        self._apply(action)

    def rollout(self, generator: np.random.Generator) -> float:
        """Uniformly random moves to the end; the result for player 0."""
        while (r0 := self.terminal_r0()) is None:
            legal = self.legal()
            self.step(int(legal[int(generator.random() * len(legal))]))
        return r0


class EnvCopyState(SimState):
    """The fallback: the whole env, copied attribute by attribute, stepped through its API."""

    __slots__ = ("agents", "env", "totals")

    def __init__(self, env: Any) -> None:
        self.env = env
        self.agents = list(env.possible_agents)
        self.totals = [0.0, 0.0]
        self.moves, self.players = [], []

    def copy(self) -> EnvCopyState:
        other = object.__new__(EnvCopyState)
        other.env = copy_unchecked(self.env)
        other.agents = self.agents
        other.totals = list(self.totals)
        other._trace_from(self)
        return other

    def player(self) -> int:
        return self.agents.index(self.env.agent_selection)

    def legal(self) -> np.ndarray:
        mask = observation_and_mask(self.env, self.env.agent_selection)[1]
        return np.flatnonzero(mask).astype(np.int64)

    def terminal_r0(self) -> float | None:
        if not is_over(self.env):
            return None
        return float(np.sign(self.totals[0] - self.totals[1]))

    def num_actions(self) -> int:
        """Size of the action space of the agent to move."""
        return int(self.env.action_space(self.env.agent_selection).n)

    def observation(self) -> Any:
        """The env's observation of the agent to move."""
        return self.env.observe(self.env.agent_selection)

    def _apply(self, action: int) -> None:
        self.env.step(action)
        for i, agent in enumerate(self.agents):
            self.totals[i] += float(self.env.rewards.get(agent, 0.0))


class SpielState(SimState):
    """A ``pyspiel.State`` under shimmy's ``OpenSpielCompatibilityV0``: cloned in C++ and
    stepped with ``apply_action``. shimmy ends the game when the state is terminal or after
    the game's ``max_game_length`` actions (truncation); the rewards since the root are the
    state's returns minus those at the root."""

    __slots__ = ("base", "left", "state")

    def __init__(self, state: Any, left: int) -> None:
        self.state = state
        self.base = list(state.returns())
        self.left = left  # actions before shimmy truncates
        self.moves, self.players = [], []

    def copy(self) -> SpielState:
        other = object.__new__(SpielState)
        other.state = self.state.clone()
        other.base = self.base
        other.left = self.left
        other._trace_from(self)
        return other

    def player(self) -> int:
        return self.state.current_player()

    def legal(self) -> np.ndarray:
        return np.asarray(self.state.legal_actions(), dtype=np.int64)

    def terminal_r0(self) -> float | None:
        state = self.state
        if not state.is_terminal() and self.left > 0:
            return None
        returns, base = state.returns(), self.base
        return float(np.sign((returns[0] - base[0]) - (returns[1] - base[1])))

    def _apply(self, action: int) -> None:
        self.state.apply_action(action)
        self.left -= 1

    def rollout(self, generator: np.random.Generator) -> float:
        state, moves, players = self.state, self.moves, self.players
        while not state.is_terminal() and self.left > 0:
            legal = state.legal_actions()
            action = legal[int(generator.random() * len(legal))]
            players.append(state.current_player())
            moves.append(action)
            state.apply_action(action)
            self.left -= 1
        return self.terminal_r0()


class BoardState(SimState):
    """A PettingZoo classic board game as a list of cells (0 empty, 1 and 2 the players'
    marks) and the player to move; ``rules`` gives the legal moves, plays a move and tells the
    winner, as the env's ``step`` does."""

    __slots__ = ("cells", "result", "rules", "to_move")

    def __init__(self, cells: list[int], to_move: int, rules: BoardRules) -> None:
        self.cells = cells
        self.to_move = to_move
        self.result: float | None = None
        self.rules = rules
        self.moves, self.players = [], []

    def copy(self) -> BoardState:
        other = object.__new__(BoardState)
        other.cells = self.cells.copy()
        other.to_move = self.to_move
        other.result = self.result
        other.rules = self.rules
        other._trace_from(self)
        return other

    def player(self) -> int:
        return self.to_move

    def legal(self) -> np.ndarray:
        return np.asarray(self.rules.legal(self.cells), dtype=np.int64)

    def terminal_r0(self) -> float | None:
        return self.result

    def _apply(self, action: int) -> None:
        self.result = self.rules.play(self.cells, self.to_move, action)
        self.to_move ^= 1

    def rollout(self, generator: np.random.Generator) -> float:
        cells, rules, moves, players = self.cells, self.rules, self.moves, self.players
        legal_of, play = rules.legal, rules.play
        result, player = self.result, self.to_move
        while result is None:
            legal = legal_of(cells)
            action = legal[int(generator.random() * len(legal))]
            players.append(player)
            moves.append(action)
            result = play(cells, player, action)
            player ^= 1
        self.result, self.to_move = result, player
        return result


class BoardRules:
    """A board game's rules on a cell list: ``legal(cells)`` and ``play(cells, player, action)
    -> result for player 0 once the game is over, else None``."""

    __slots__ = ("legal", "play")

    def __init__(self, legal: Callable[[list[int]], list[int]], play: Callable[..., Any]):
        self.legal = legal
        self.play = play


_TTT_COMBINATIONS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
                     (2, 4, 6))  # fmt: skip
_TTT_LINES = [[line for line in _TTT_COMBINATIONS if cell in line] for cell in range(9)]


def _ttt_legal(cells: list[int]) -> list[int]:
    return [i for i in range(9) if cells[i] == 0]


def _ttt_play(cells: list[int], player: int, action: int) -> float | None:
    """PettingZoo ``tictactoe_v3``: the game ends when a line is full of one mark (a win needs
    the mark just played, since the game stops at the first line) or the board is full."""
    mark = player + 1
    cells[action] = mark
    for a, b, c in _TTT_LINES[action]:
        if cells[a] == mark and cells[b] == mark and cells[c] == mark:
            return 1.0 if player == 0 else -1.0
    return 0.0 if 0 not in cells else None


def _c4_rays() -> list[list[tuple[list[int], list[int]]]]:
    """For each of Connect Four's 42 cells (row-major from the top, 7 columns) and each of the
    four directions, the cells up to 3 steps away on either side."""
    rays = []
    for r in range(6):
        for c in range(7):
            per_cell = []
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                sides = []
                for sign in (1, -1):
                    side = []
                    for k in range(1, 4):
                        rr, cc = r + sign * k * dr, c + sign * k * dc
                        if 0 <= rr < 6 and 0 <= cc < 7:
                            side.append(rr * 7 + cc)
                    sides.append(side)
                per_cell.append((sides[0], sides[1]))
            rays.append(per_cell)
    return rays


_C4_RAYS = _c4_rays()


def _c4_legal(cells: list[int]) -> list[int]:
    return [i for i in range(7) if cells[i] == 0]


def _c4_play(cells: list[int], player: int, action: int) -> float | None:
    """PettingZoo ``connect_four_v3``: the piece drops to the lowest empty cell of the column;
    four of the mover's pieces in a row win (a line through the new piece, as the game stops at
    the first four), a full board (its top row filled by this move) draws."""
    mark = player + 1
    cell = action + 35
    while cells[cell] != 0:
        cell -= 7
    cells[cell] = mark
    for forward, backward in _C4_RAYS[cell]:
        run = 1
        for i in forward:
            if cells[i] != mark:
                break
            run += 1
        for i in backward:
            if cells[i] != mark:
                break
            run += 1
        if run >= 4:
            return 1.0 if player == 0 else -1.0
    return 0.0 if cell < 7 and 0 not in cells[:7] else None


_TTT_RULES = BoardRules(_ttt_legal, _ttt_play)
_C4_RULES = BoardRules(_c4_legal, _c4_play)


def _board_state(env: Any, cells: list[int], rules: BoardRules) -> SimState | None:
    """The board adapter, if the env is at a standard point: the two agents in their original
    order, nobody done (else the full copy is used)."""
    agents = list(env.possible_agents)
    if (
        list(env.agents) != agents
        or any(env.terminations.values())
        or any(env.truncations.values())
        or env.agent_selection not in agents
    ):
        return None
    return BoardState(list(cells), agents.index(env.agent_selection), rules)


def tictactoe_state(env: Any) -> SimState | None:
    """State adapter of PettingZoo's ``tictactoe_v3`` raw env."""
    return _board_state(env, env.board.squares, _TTT_RULES)


def connect_four_state(env: Any) -> SimState | None:
    """State adapter of PettingZoo's ``connect_four_v3`` raw env."""
    return _board_state(env, env.board, _C4_RULES)


def openspiel_state(env: Any) -> SimState | None:
    """State adapter of shimmy's ``OpenSpielCompatibilityV0`` on a deterministic, sequential,
    two-player game at a decision node (else None: the full copy is used)."""
    import pyspiel

    game_type = env.game_type
    state = getattr(env, "game_state", None)
    if (
        state is None
        or env._env.num_players() != 2
        or game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL
        or game_type.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        or state.is_terminal()
        or state.current_player() < 0
        or env.agent_selection != env.possible_agents[state.current_player()]
    ):
        return None
    left = env._env.max_game_length() - (env.game_length - 1)
    return SpielState(state.clone(), left)


StateAdapter = Callable[[Any], "SimState | None"]

# "module.ClassName" of an env's exact type -> its adapter
_ADAPTERS: dict[str, StateAdapter] = {
    "shimmy.openspiel_compatibility.OpenSpielCompatibilityV0": openspiel_state,
    "pettingzoo.classic.tictactoe.tictactoe.raw_env": tictactoe_state,
    "pettingzoo.classic.connect_four.connect_four.raw_env": connect_four_state,
}


def register_state_adapter(env_type: type, adapter: StateAdapter) -> None:
    """Use ``adapter(env) -> SimState | None`` for envs of exactly ``env_type`` (a subclass
    may change the rules: it needs its own) in the generic search; None from the adapter means
    "use the full copy".

    Raises:
        TypeError: ``env_type`` is not a class or ``adapter`` is not callable.
    """
    if not isinstance(env_type, type):
        raise TypeError(f"env_type must be a class, got {env_type!r}")
    if not callable(adapter):
        raise TypeError(f"adapter must be callable, got {adapter!r}")
    _ADAPTERS[f"{env_type.__module__}.{env_type.__qualname__}"] = adapter


@contextlib.contextmanager
def full_copies_only() -> Iterator[None]:
    """Within the block, every env is simulated on full copies (the fallback): for comparing
    an adapter with it (tests, benchmarks)."""
    saved = dict(_ADAPTERS)
    _ADAPTERS.clear()
    try:
        yield
    finally:
        _ADAPTERS.update(saved)


def sim_state(env: Any) -> SimState:
    """The cheapest faithful position of ``env`` (already a private copy; outer transparent
    wrappers removed): its registered adapter's, else the full copy."""
    cls = type(env)
    adapter = _ADAPTERS.get(f"{cls.__module__}.{cls.__qualname__}")
    state = adapter(env) if adapter is not None else None
    return EnvCopyState(env) if state is None else state
