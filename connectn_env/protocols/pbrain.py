"""``connectn pbrain``: a Gomoku brain speaking the Gomocup (Piskvork) protocol, so that the
suite's agents can play in the Gomocup manager, Piskvork or liskvork.

Commands: ``START``, ``RECTSTART``, ``RESTART``, ``BEGIN``, ``TURN``, ``BOARD`` ... ``DONE``,
``INFO``, ``TAKEBACK``, ``ABOUT``, ``END``; ``SWAP2BOARD`` ... ``DONE`` is answered with
``ERROR`` (no swap2 openings), ``PLAY`` (only meaningful after ``SUGGEST``, which this brain
never sends) and anything else with ``UNKNOWN``. Coordinates are ``X,Y``: column then row,
from 0, the origin at the top left.

Time: the agent's thinking per move is capped at ``INFO timeout_turn`` and at a share of
``INFO time_left`` (``time_left / MOVES_TO_PLAN``, :mod:`connectn_env.protocols.clock`),
minus a safety margin; ``timeout_turn 0`` means as fast as possible (about 10 ms). A
built-in search agent (``mcts``, ``puct``, ``az``) or alpha-beta (``ab``) stops at that budget
or at its own (simulations, depth, nodes, time), whichever comes first: every ``--level``
included (:func:`~connectn_env.protocols.match.choose_action`); any other agent is asked
``act(env)`` and cannot be stopped (a ``DEBUG`` line says when it ran over). ``INFO
rule``: 0 freestyle, 1 exactly five; renju (4) and caro (8) are refused with ``ERROR`` at the
next command, as the protocol asks. The compiled search is warmed up at ``START``
(initialisation is not part of the time for a turn). Every number is read by
:func:`~connectn_env.protocols.numbers.parse_integer` (ASCII digits, bounded length); a
command that fails for any reason is answered with ``ERROR`` and the brain goes on.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from connectn_env.errors import ConnectnError
from connectn_env.games import MAX_SIDE, IllegalActionError
from connectn_env.games.compile_notice import compile_notices
from connectn_env.protocols.clock import clock_share, thinking_budget
from connectn_env.protocols.match import ProtocolMatch
from connectn_env.protocols.numbers import parse_integer
from connectn_env.records import GameConfig
from connectn_env.warmup import warm_up_agent

BRAIN_NAME = "connectn"
UNLIMITED_MS = 2147483647  # time_left when the match has no time limit
RULE_EXACT_FIVE = 1
RULE_CONTINUOUS = 2
RULE_RENJU = 4
RULE_CARO = 8
RULES_DEFINED = RULE_EXACT_FIVE | RULE_CONTINUOUS | RULE_RENJU | RULE_CARO
_MIN_SIDE = 5


class PbrainError(ConnectnError):
    """A known command the brain cannot carry out; answered with ``ERROR message``."""


def turn_budget(
    timeout_turn_ms: int | None, time_left_ms: int | None, timeout_match_ms: int | None = None
) -> float | None:
    """Seconds the agent may think for the next move, or None without any limit.

    ``timeout_turn`` caps each move (0: as fast as possible); ``time_left`` (or, before the
    first ``time_left``, ``timeout_match``; 0 or 2147483647: unlimited) gives each move
    ``1 / MOVES_TO_PLAN`` of what remains (:func:`~connectn_env.protocols.clock.clock_share`).
    A safety margin (10 % and 50 ms) is kept back.
    """
    turn = None if timeout_turn_ms is None else max(timeout_turn_ms, 0) / 1000
    match_ms = time_left_ms if time_left_ms is not None else timeout_match_ms or None
    limited = match_ms is not None and match_ms < UNLIMITED_MS
    return thinking_budget(turn, clock_share(match_ms / 1000) if limited else None)


class PbrainEngine:
    """The brain's state between commands: board, rule, clocks, and a BOARD block being read.

    Args:
        agent: The brain's player: anything with ``act(env)``.
        version: What ``ABOUT`` reports as the version.
        agent_name: What ``ABOUT`` reports as the agent (its spec).
    """

    def __init__(self, agent: Any, *, version: str = "", agent_name: str = "") -> None:
        self.agent = agent
        self.version = version
        self.agent_name = agent_name
        self.finished = False
        self.match: ProtocolMatch | None = None
        self.rows = self.cols = 0
        self.rule = 0
        self.timeout_turn: int | None = None
        self.timeout_match: int | None = None
        self.time_left: int | None = None
        self._pending_error: str | None = None  # an INFO problem, told at the next command
        self._block: tuple[str, list[str]] | None = None  # BOARD / SWAP2BOARD lines so far
        self._commands = {
            "ABOUT": self._about,
            "BEGIN": self._begin,
            "BOARD": self._board,
            "END": self._end,
            "INFO": self._info,
            "PLAY": self._play,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "START": self._start,
            "SWAP2BOARD": self._swap2board,
            "TAKEBACK": self._takeback,
            "TURN": self._turn,
        }

    # --- the protocol ------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """The lines to answer to one input line (none for INFO, END and inside BOARD)."""
        text = line.strip()
        if not text:
            return []
        try:
            if self._block is not None:
                return self._block_line(text)
            word, _, argument = text.partition(" ")
            handler = self._commands.get(word.upper())
            if handler is None:
                known = ", ".join(sorted(self._commands))
                return [f"UNKNOWN command {word[:20]!r}; this brain knows {known}"]
            return handler(argument.strip())
        except PbrainError as error:
            return [_error_line(str(error))]
        except Exception as error:  # a bug: answered, so that the manager's game goes on
            message = f"internal error: {type(error).__name__}: {error}"
            print(f"{BRAIN_NAME}: {message}", file=sys.stderr, flush=True)
            return [_error_line(message)]

    def run(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answer commands from ``stdin`` until ``END`` or end of input; returns 0. A numba
        compile (the search's first use, at ``START``) is told with ``MESSAGE`` lines as it
        starts and ends."""

        def tell(message: str) -> None:
            stdout.write(f"MESSAGE {' '.join(message.split())}\n")
            stdout.flush()

        with compile_notices(tell):
            for line in stdin:
                for reply in self.handle(line):
                    stdout.write(reply + "\n")
                stdout.flush()
                if self.finished:
                    break
        return 0

    # --- commands ----------------------------------------------------------------------

    def _start(self, argument: str) -> list[str]:
        (size,) = _integers(argument, 1, "START takes the board size, for example START 20")
        return self._new_board(size, size)

    def _rectstart(self, argument: str) -> list[str]:
        usage = "RECTSTART takes width,height, for example RECTSTART 30,20"
        width, height = _integers(argument, 2, usage)
        return self._new_board(height, width)

    def _restart(self, argument: str) -> list[str]:
        self._require_board()
        self.match = ProtocolMatch(self._config())
        return ["OK"]

    def _begin(self, argument: str) -> list[str]:
        self._raise_pending()
        if self._require_board().history():
            raise PbrainError("BEGIN needs an empty board (send RESTART first)")
        self._apply_rule()
        return self._reply()

    def _turn(self, argument: str) -> list[str]:
        self._require_board()
        self._raise_pending()
        self._apply_rule()
        match = self._require_board()
        action = self._action(argument, "TURN")
        try:
            match.play(action)
        except ValueError as error:
            raise PbrainError(f"TURN {argument}: {_reason(error)}") from None
        return self._reply()

    def _board(self, argument: str) -> list[str]:
        self._require_board()
        self._block = ("BOARD", [])
        return []

    def _swap2board(self, argument: str) -> list[str]:
        self._block = ("SWAP2BOARD", [])
        return []

    def _block_line(self, text: str) -> list[str]:
        command, lines = self._block
        if text.upper() == "END":
            self._block = None
            return self._end("")
        if text.upper() != "DONE":
            if len(lines) <= self.rows * self.cols:  # one more tells that there are too many
                lines.append(text)
            return []
        self._block = None
        self._raise_pending()
        if command == "SWAP2BOARD":
            raise PbrainError("swap2 openings are not supported")
        self._set_position(lines)
        return self._reply()

    def _info(self, argument: str) -> list[str]:
        key, _, value = argument.partition(" ")
        key, value = key.lower(), value.strip()
        if key in ("timeout_turn", "timeout_match", "time_left", "rule"):
            try:  # the match clock may run below zero; the other values may not
                number = parse_integer(value, signed=key == "time_left")
            except ValueError as error:
                self._pending_error = f"INFO {key} needs an integer: {error}"
                return []
            if key == "rule" and number & ~RULES_DEFINED:
                self._pending_error = (
                    f"INFO rule {number}: the protocol defines the bits 1 (exactly five), "
                    "2 (continuous game), 4 (renju) and 8 (caro) only"
                )
            elif key == "rule":
                self.rule = number
            else:
                setattr(self, key, number)
        return []  # other keys (max_memory, game_type, folder, evaluate, ...) are not needed

    def _takeback(self, argument: str) -> list[str]:
        match = self._require_board()
        action = self._action(argument, "TAKEBACK")
        history = match.history()
        if not history or history[-1] != action:
            raise PbrainError(f"TAKEBACK {argument}: that is not the last move")
        match.undo()
        return ["OK"]

    def _play(self, argument: str) -> list[str]:
        return ["UNKNOWN PLAY answers SUGGEST, which this brain never sends"]

    def _about(self, argument: str) -> list[str]:
        fields = {"name": BRAIN_NAME, "version": self.version, "author": "connectn-env"}
        if self.agent_name:
            fields["agent"] = self.agent_name
        return [", ".join(f'{key}="{value}"' for key, value in fields.items())]

    def _end(self, argument: str) -> list[str]:
        self.finished = True
        return []

    # --- helpers -----------------------------------------------------------------------

    def _new_board(self, rows: int, cols: int) -> list[str]:
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE) or max(rows, cols) < _MIN_SIDE:
            raise PbrainError(
                f"unsupported board {cols} x {rows}: sides up to {MAX_SIDE}, "
                f"the longer one at least {_MIN_SIDE}"
            )
        self.rows, self.cols = rows, cols
        self.match = ProtocolMatch(self._config())
        self._warm_up()
        return ["OK"]

    def _warm_up(self) -> None:
        """Compile (or load from numba's cache) a search agent's search now, not in a timed
        turn (:func:`~connectn_env.warmup.warm_up_agent`; other agents are not asked anything
        before the game)."""
        try:
            warm_up_agent(self.agent, self.match.env.unwrapped.game)
        except Exception as error:  # the agent may be user code
            raise PbrainError(
                f"the agent failed: the agent raised {type(error).__name__}: {error}"
            ) from None

    def _config(self) -> GameConfig:
        rule = "standard" if self.rule & RULE_EXACT_FIVE else "freestyle"
        return GameConfig("gomoku", {"rows": self.rows, "cols": self.cols, "rule": rule})

    def _apply_rule(self) -> None:
        """Rebuild the game if INFO rule changed it since the board was made (same moves)."""
        match = self._require_board()
        config = self._config()
        if config != match.config:
            moves = match.history()
            self.match = ProtocolMatch(config)
            try:
                self.match.replay(moves)
            except ValueError as error:
                self.match = match
                raise PbrainError(f"the position does not fit the new rule: {error}") from None

    def _raise_pending(self) -> None:
        """Tell an INFO problem now (the protocol asks to wait for BEGIN, TURN or BOARD)."""
        error, self._pending_error = self._pending_error, None
        if error is None and self.rule & (RULE_RENJU | RULE_CARO):
            error = f"rule {self.rule} is not supported: only freestyle (0) and exactly five (1)"
        if error is not None:
            raise PbrainError(error)

    def _require_board(self) -> ProtocolMatch:
        if self.match is None:
            raise PbrainError("no board yet: send START first")
        return self.match

    def _action(self, argument: str, command: str) -> int:
        x, y = _integers(argument, 2, f"{command} takes X,Y, for example {command} 10,10")
        return self._square(x, y, command)

    def _square(self, x: int, y: int, command: str) -> int:
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise PbrainError(f"{command} {x},{y} is off the {self.cols} x {self.rows} board")
        return y * self.cols + x

    def _set_position(self, lines: list[str]) -> None:
        """BOARD: the stones as alternate moves (the side with more stones, or the opponent
        when equal, having moved first), each side's in the order given as far as
        :func:`_stone_order` can keep the game from ending before the last."""
        if len(lines) > self.rows * self.cols:
            raise PbrainError(f"BOARD has more lines than the {self.cols} x {self.rows} board")
        own: list[int] = []
        theirs: list[int] = []
        for line in lines:
            x, y, field = _integers(line, 3, f"BOARD line {line[:30]!r} is not X,Y,FIELD")
            if field not in (1, 2):
                raise PbrainError(f"BOARD field {field} is not supported (1 own, 2 opponent)")
            (own if field == 1 else theirs).append(self._square(x, y, "BOARD"))
        if len(own) == len(theirs):  # our move with equal counts: we moved first
            first, second = own, theirs
        elif len(theirs) == len(own) + 1:
            first, second = theirs, own
        else:
            raise PbrainError(
                f"BOARD with {len(own)} own and {len(theirs)} opponent stones cannot be "
                "reached by alternate moves with this brain to move"
            )
        config = self._config()
        moves = _stone_order(config, first, second)
        match = ProtocolMatch(config)
        try:
            match.replay(moves)
        except ValueError as error:
            raise PbrainError(f"BOARD: {_reason(error)}") from None
        if match.state.is_terminal():
            raise PbrainError("BOARD: the game is already over")
        self.match = match

    def _reply(self) -> list[str]:
        match = self._require_board()
        if match.state.is_terminal():
            raise PbrainError("the game is over")
        budget = turn_budget(self.timeout_turn, self.time_left, self.timeout_match)
        try:
            action, note = match.think(self.agent, budget)
        except ValueError as error:
            raise PbrainError(f"the agent failed: {error}") from None
        match.play(action)
        y, x = divmod(action, self.cols)
        lines = [f"DEBUG {note}"] if note else []
        return [*lines, f"{x},{y}"]


def _stone_order(config: GameConfig, first: list[int], second: list[int]) -> list[int]:
    """``first``'s and ``second``'s stones as alternate moves, ``first``'s side first.

    Each side plays its stones in the order given, except that a stone that would end the
    game waits while another of that side's does not: only the final position counts (with
    exactly five, a line of six passes through a five). Where every stone left to a side
    would end the game or is illegal, the rest follow in the order given, for the replay to
    refuse.
    """
    state = config.make_game().new_initial_state()
    sides = (list(first), list(second))
    moves: list[int] = []
    for turn in range(len(first) + len(second)):
        mover, other = sides[turn % 2], sides[1 - turn % 2]
        stone = next((stone for stone in mover if _keeps_going(state, stone)), None)
        if stone is None:
            alternate = [stone for pair in zip(mover, other, strict=False) for stone in pair]
            return moves + alternate + mover[len(other) :]
        mover.remove(stone)
        state.apply_action(stone)
        moves.append(stone)
    return moves


def _keeps_going(state: Any, stone: int) -> bool:
    """Whether ``stone`` is legal in ``state`` and leaves the game going."""
    if not state.legal_action_mask()[stone]:
        return False
    after = state.clone()
    after.apply_action(stone)
    return not after.is_terminal()


def _integers(text: str, count: int, usage: str) -> list[int]:
    """The ``count`` comma-separated numbers of ``text`` (a size, X,Y or X,Y,FIELD)."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != count:
        raise PbrainError(usage)
    try:
        return [parse_integer(part) for part in parts]
    except ValueError as error:
        raise PbrainError(f"{usage}: {error}") from None


def _error_line(message: str) -> str:
    """``ERROR message`` on one line."""
    return f"ERROR {' '.join(message.split())}"


def _reason(error: Exception) -> str:
    if isinstance(error, IllegalActionError):
        return "that square is taken"
    return str(error)


def run_pbrain(
    agent: Any,
    *,
    version: str = "",
    agent_name: str = "",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a :class:`PbrainEngine` on text streams (default: standard input and output)."""
    engine = PbrainEngine(agent, version=version, agent_name=agent_name)
    return engine.run(stdin or sys.stdin, stdout or sys.stdout)
