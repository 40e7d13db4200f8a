"""A game between a person and an agent, independent of any user interface.

The session owns the env and the move list. Agents never touch that env: they get a copy
(:meth:`GameSession.position_copy`), and the user interface applies the move they return
with :meth:`GameSession.play`.
"""

from __future__ import annotations

import contextlib
import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from connectn_env.envs.base import BoardGameEnv
from connectn_env.games import BoardGame, GameState
from connectn_env.games.validation import require_choice, require_int
from connectn_env.play.notation import move_name

MOVE, HINT = "move", "hint"  # why an agent searched: to play, or to advise the person


@dataclass(frozen=True)
class Analysis:
    """A finished search and the position it was run on.

    Attributes:
        kind: ``"move"`` (the agent chose its move) or ``"hint"`` (advice for the person).
        moves: The position searched, as the moves that lead to it.
        player: The player to move in that position (0 or 1).
        result: The agent's ``SearchResult`` (visits, pi, root_value, simulations...).
    """

    kind: str
    moves: tuple[int, ...]
    player: int
    result: Any


class GameSession:
    """One person (or two, taking turns) against an agent, move by move.

    Args:
        env: A raw env of this suite (its current game is replaced by a new one).
        agent: The opponent, an object with ``act(env)`` (search agents also have
            ``search(env)``), or None for two people at one board.
        human_player: The side the person plays, 0 (moves first) or 1.
        on_game_over: Called with the session each time a game ends (not twice for the same
            sequence of moves, so undoing and replaying the last move records nothing new).

    Attributes:
        env: The env holding the current position (do not step it yourself).
        agent: The opponent, or None.
        human_player: The person's side; the agent plays ``1 - human_player``.
        analysis: The latest finished search (:class:`Analysis`), or None.
    """

    def __init__(
        self,
        env: BoardGameEnv,
        agent: Any = None,
        *,
        human_player: int = 0,
        on_game_over: Callable[[GameSession], None] | None = None,
    ) -> None:
        if not isinstance(env, BoardGameEnv):
            raise TypeError(f"env must be a BoardGameEnv (a raw env), got {type(env).__name__}")
        if agent is not None and not callable(getattr(agent, "act", None)):
            raise TypeError(f"agent must have an act(env) method or be None, got {agent!r}")
        if on_game_over is not None and not callable(on_game_over):
            raise TypeError(f"on_game_over must be callable or None, got {on_game_over!r}")
        self.human_player = require_choice(
            "human_player", require_int("human_player", human_player), (0, 1)
        )
        self.env = env
        self.agent = agent
        self.on_game_over = on_game_over
        self.analysis: Analysis | None = None
        self._hint: tuple[tuple[int, ...], int] | None = None
        self._reported: set[tuple[int, ...]] = set()
        self.env.reset()

    # --- the position ----------------------------------------------------------------

    @property
    def game(self) -> BoardGame:
        """The game's rules and parameters."""
        return self.env.game

    @property
    def state(self) -> GameState:
        """The current position (read it; change it only through this session)."""
        return self.env.game_state

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves played so far."""
        return tuple(self.state.history())

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_terminal()

    @property
    def ai_player(self) -> int | None:
        """The agent's side, or None without an agent."""
        return None if self.agent is None else 1 - self.human_player

    @property
    def ai_turn(self) -> bool:
        """True if the agent is to move."""
        return not self.over and self.state.current_player() == self.ai_player

    @property
    def human_turn(self) -> bool:
        """True if a person is to move."""
        return not self.over and not self.ai_turn

    def position_copy(self) -> BoardGameEnv:
        """An independent copy of the env, for an agent to search on."""
        return copy.deepcopy(self.env)

    def is_legal(self, action: int) -> bool:
        """True if ``action`` (an int in the action space) may be played now."""
        action = require_int("action", action, 0, self.game.num_actions - 1)
        return not self.over and bool(self.state.legal_action_mask()[action])

    # --- changes -----------------------------------------------------------------------

    def play(self, action: int) -> None:
        """Play ``action`` for the side to move (the person's click or the agent's answer).

        Raises:
            TypeError: ``action`` is not an int.
            ValueError: ``action`` is outside the action space or illegal now (the game
                is over, a full column, a taken cell); the session is unchanged.
        """
        action = require_int("action", action, 0, self.game.num_actions - 1)
        if not self.is_legal(action):
            where = "the game is over" if self.over else "it is not legal in this position"
            raise ValueError(
                f"cannot play {move_name(self.game, action)} (action {action}): {where}"
            )
        self.env.step(action)
        if self.over and self.on_game_over is not None and self.moves not in self._reported:
            self._reported.add(self.moves)
            self.on_game_over(self)

    def undo(self) -> int:
        """Take back the person's last move and the agent's reply to it.

        Without an agent, takes back the last move. Returns how many moves were taken
        back (0 if the person has not moved yet).
        """
        moves = list(self.moves)
        if self.agent is None:
            keep = len(moves) - 1
        else:  # move i was played by player i % 2
            people = [i for i in range(len(moves)) if i % 2 == self.human_player]
            keep = people[-1] if people else len(moves)
        if keep < 0 or keep == len(moves):
            return 0
        self._replay(moves[:keep])
        return len(moves) - keep

    def new_game(self) -> None:
        """Start again from the empty board; the person keeps their side."""
        self._replay([])

    def replace_agent(self, agent: Any) -> None:
        """Play on against ``agent`` (with ``act(env)``), a new level say; the position and
        the person's side stay.

        Raises:
            TypeError: ``agent`` has no ``act(env)`` method.
        """
        if not callable(getattr(agent, "act", None)):
            raise TypeError(f"agent must have an act(env) method, got {agent!r}")
        self.agent = agent

    def prepare_agent(self) -> threading.Thread | None:
        """Start compiling (or loading from numba's cache) the agent's search of this game
        in a daemon thread (:meth:`agents.search.SearchAgent.prepare`), for a user interface
        to call once it has shown the game: the compile then runs while the person reads or
        moves, and the agent's first search waits for what is left of it, before its clock.
        Returns the thread, or None for an agent without ``prepare``. A failure is left to
        the agent's first move to report."""
        prepare = getattr(self.agent, "prepare", None)
        if not callable(prepare):
            return None
        position = self.position_copy()

        def run() -> None:
            with contextlib.suppress(Exception):  # the agent's first move reports it
                prepare(position)

        thread = threading.Thread(target=run, name="connectn-prepare", daemon=True)
        thread.start()
        return thread

    def switch_sides(self) -> None:
        """The person takes over the other side; the game goes on from this position."""
        self.human_player = 1 - self.human_player

    # --- search results ------------------------------------------------------------------

    def note_answer(self, kind: str, moves: tuple[int, ...], action: int, result: Any) -> None:
        """Record an agent's answer for the position ``moves``: its search ``result`` (None
        for agents without search) becomes the latest analysis, and a hint for the current
        position is remembered (see :attr:`hint`).

        Raises:
            ValueError: ``kind`` is not ``"move"`` or ``"hint"``.
        """
        require_choice("kind", kind, (MOVE, HINT))
        moves = tuple(moves)
        if result is not None:
            self.analysis = Analysis(kind, moves, len(moves) % 2, result)
        if kind == HINT and moves == self.moves:
            self._hint = (moves, require_int("action", action, 0, self.game.num_actions - 1))

    def proven(self) -> str | None:
        """What the latest search proved for the player to move now: ``"win"``, ``"loss"``
        or ``"draw"``, from a search of this position or of the one before it (a move proven
        to win is a loss for the player who answers it), else None."""
        if self.analysis is None:
            return None
        searched, result, moves = self.analysis.moves, self.analysis.result, self.moves
        if searched == moves:
            return getattr(result, "proven", None)
        if moves and searched == moves[:-1]:
            proof = (getattr(result, "proven_moves", None) or {}).get(moves[-1])
            return {"win": "loss", "loss": "win", "draw": "draw"}.get(proof)
        return None

    @property
    def hint(self) -> int | None:
        """The hint for the current position, or None (hints expire when a move is made)."""
        if self._hint is None or self._hint[0] != self.moves:
            return None
        return self._hint[1]

    # --- text ----------------------------------------------------------------------------

    def result_text(self, names: tuple[str, str]) -> str | None:
        """``"You win!"``, ``"The AI wins."``, ``"Draw."`` (``"<name> wins."`` without an
        agent), or None while the game goes on."""
        if not self.over:
            return None
        winner = self.state.winner
        if winner is None:
            return "Draw."
        if self.agent is None:
            return f"{names[winner]} wins."
        return "You win!" if winner == self.human_player else "The AI wins."

    def score_text(self, names: tuple[str, str]) -> str | None:
        """``"Black 12, White 10"``: the disc count of a game that counts discs (Othello:
        its ``discs(state)``), else None."""
        discs = getattr(self.game, "discs", None)
        if not callable(discs):
            return None
        first, second = discs(self.state)
        return f"{names[0]} {first}, {names[1]} {second}"

    def _replay(self, moves: list[int]) -> None:
        self.env.reset()
        for action in moves:
            self.env.step(action)
