"""``connectn gtp hex``: a Hex engine speaking the Go Text Protocol (GTP 2) as MoHex does,
so that HexGui (or any GTP controller) can use the suite's agents.

Commands: ``protocol_version name version known_command list_commands quit boardsize
clear_board play genmove undo showboard hexgui-analyze_commands all_legal_moves
final_score time_settings time_left kgs-time_settings``. Cells are named as in HexGui and
MoHex: column letter, row number, ``a1`` at the top left; black moves first and connects top
and bottom, white left and right. The swap move is ``swap-pieces`` (``swap`` is accepted
too), ``resign`` is accepted and ignored as MoHex does, and ``genmove`` answers ``resign``
once the game is over.

Swap. The suite's rules (OpenSpiel's) replace black's first stone at (r, c) by a white stone
at (c, r) and let black move. MoHex and HexGui up to 0.9 instead play ``swap-pieces`` as a
marker: the stone stays where it is and white moves next (the players exchanged colours),
which is the same position seen through the board's long diagonal with the colours
exchanged. After ``play w swap-pieces`` (or ``swap``, ``swap-sides``) or a ``genmove`` that
answers ``swap-pieces``, the engine keeps the suite's position and translates every cell and
colour through that symmetry. Newer HexGui versions (0.10 and later) never send the swap:
they send ``clear_board`` and the resulting position, a lone white stone, which the engine
reads as black's stone at the mirror cell followed by the swap, black to move, with no
translation. Other setup positions (stones out of turn) are refused: the rules alternate.

Time. ``time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`` (seconds; Canadian byo-yomi,
absolute time with a byo-yomi time of 0, no limit with a byo-yomi time but 0 stones, as GTP 2
says), ``kgs-time_settings`` (``none``, ``absolute``, ``canadian``, ``byoyomi``: Japanese)
and ``time_left COLOUR SECONDS STONES`` set the clocks; ``genmove`` thinks for the share that
:class:`~connectn_env.protocols.clock.TimeSystem` allocates (the remaining time over the
moves left to plan, as ``connectn pbrain`` does), less a safety margin, and counts its
thinking against its own clock until the next ``time_left``. That share bounds a built-in
search or alpha-beta agent whatever its own budget (a ``--level`` included); an agent of a
user's factory cannot be stopped, and a move of its that runs over is said on stderr.
``boardsize`` and ``clear_board`` start the clocks again.

Responses follow GTP 2: ``=[id] result`` or ``?[id] message`` and an empty line; a
malformed or impossible command gets a ``?`` answer (``syntax error``, ``illegal move``,
``unknown command``, ``unacceptable size``, ``cannot undo``) and changes nothing. Every
number is read by :func:`~connectn_env.protocols.numbers.parse_integer` (ASCII digits,
bounded length), and a command that fails in an unexpected way is answered ``? internal
error: ...``: the engine goes on.
"""

from __future__ import annotations

import re
import string
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from connectn_env.errors import ConnectnError
from connectn_env.games import MAX_SIDE, cell_name, column_label, parse_cell_name
from connectn_env.games.compile_notice import compile_notices
from connectn_env.protocols.clock import TimeSystem, thinking_budget
from connectn_env.protocols.match import ProtocolMatch
from connectn_env.protocols.numbers import parse_integer
from connectn_env.records import GameConfig
from connectn_env.safetext import printable
from connectn_env.warmup import warm_up_agent

ENGINE_NAME = "connectn"
SWAP_MOVE = "swap-pieces"
_SWAP_NAMES = (SWAP_MOVE, "swap", "swap-sides")
RESIGN = "resign"
_COLOURS = {"b": 0, "black": 0, "w": 1, "white": 1}
_COLOUR_NAMES = ("black", "white")
_STONES = ".BW"
_CELL = re.compile(r"([a-z]{1,3})([0-9]+)")  # MAX_SIDE columns need at most two letters
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
ANALYZE_COMMANDS = (
    "string/ShowBoard/showboard",
    "plist/All Legal Moves/all_legal_moves %c",
    "string/Final Score/final_score",
)
_KGS_USAGE = (
    "kgs-time_settings takes none, absolute MAIN, canadian MAIN BYO_YOMI_TIME STONES or "
    "byoyomi MAIN PERIOD_TIME PERIODS (times in seconds)"
)
_KGS_TIME_SYSTEMS: dict[str, tuple[int, Callable[..., TimeSystem]]] = {
    "none": (0, TimeSystem),
    "absolute": (1, lambda main: TimeSystem.canadian(main, 0, 0)),
    "canadian": (3, TimeSystem.canadian),
    "byoyomi": (3, TimeSystem.byoyomi),
}


class GtpError(ConnectnError):
    """A command that fails: the message goes after ``?``; the engine is unchanged."""


class GtpEngine:
    """The GTP engine state: the board, the agent, and the command table.

    Args:
        agent: The engine's player: anything with ``act(env)`` (see
            :func:`~connectn_env.protocols.match.choose_action` for how the clock bounds it).
        size: Side of the board until ``boardsize`` says otherwise.
        swap: Whether the swap (pie) rule is on: ``swap-pieces`` is then white's legal first
            move, and the agent may choose it.
        version: What ``version`` answers.
    """

    def __init__(
        self, agent: Any, *, size: int = 11, swap: bool = False, version: str = ""
    ) -> None:
        self.agent = agent
        self.swap = swap
        self.version = version
        self.finished = False
        self.match = ProtocolMatch(self._config(size, size))
        self._marker_swap = False  # the swap came as a move: cells and colours are translated
        self.time_system = TimeSystem()  # no time limit until time_settings
        self._clocks: dict[int, tuple[float, int]] = {}  # colour -> seconds, stones left
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "all_legal_moves": self._all_legal_moves,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "final_score": self._final_score,
            "genmove": self._genmove,
            "hexgui-analyze_commands": self._analyze_commands,
            "kgs-time_settings": self._kgs_time_settings,
            "known_command": self._known_command,
            "list_commands": self._list_commands,
            "name": self._name,
            "play": self._play,
            "protocol_version": self._protocol_version,
            "quit": self._quit,
            "showboard": self._showboard,
            "time_left": self._time_left,
            "time_settings": self._time_settings,
            "undo": self._undo,
            "version": self._version,
        }

    # --- the protocol ------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The full response to one input line (ending in an empty line), or None for a line
        that GTP ignores (empty, white space, a comment)."""
        words = _clean(line).split()
        if not words:
            return None
        ident = ""
        if words[0][0] in string.digits:  # an id (command names start with a letter)
            ident = words.pop(0)
            try:
                parse_integer(ident)
            except ValueError as error:
                return _response(False, "", f"syntax error: the id {error}")
        if not words:
            return _response(False, ident, "syntax error: a command must follow the id")
        command, args = words[0], words[1:]
        handler = self._commands.get(command)
        if handler is None:
            return _response(False, ident, f"unknown command: {printable(command[:40])}")
        try:
            return _response(True, ident, handler(args))
        except GtpError as error:
            return _response(False, ident, str(error))
        except Exception as error:  # a bug: answered, so that the controller's game goes on
            message = f"internal error: {type(error).__name__}: {error}"
            print(f"{ENGINE_NAME}: {command}: {message}", file=sys.stderr, flush=True)
            return _response(False, ident, message)

    def run(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answer commands from ``stdin`` until ``quit`` or end of input; returns 0. The
        agent's search is compiled (or loaded from numba's cache) first, as ``connectn
        pbrain`` does at ``START``, so that no ``genmove`` pays for it; compiles are told on
        stderr."""
        with compile_notices(_tell_stderr):
            self._warm_up()
            for line in stdin:
                response = self.handle(line)
                if response is not None:
                    stdout.write(response)
                    stdout.flush()
                if self.finished:
                    break
        return 0

    def _warm_up(self) -> None:
        """Compile the agent's search now (a failure is told on stderr and left to the first
        ``genmove`` to answer)."""
        try:
            warm_up_agent(self.agent, self.match.env.unwrapped.game)
        except Exception as error:  # the agent may be user code
            _tell_stderr(f"warm-up failed: {type(error).__name__}: {error}")

    # --- frames: HexGui's view of the board and the suite's ------------------------------

    def _swapped(self) -> bool:
        """Whether HexGui's view is the suite's position seen through the swap symmetry."""
        history = self.match.history()
        return self._marker_swap and len(history) >= 2 and history[1] == self._swap_action()

    def _swap_action(self) -> int | None:
        game = self.match.env.unwrapped.game
        return game.rows * game.cols if self.swap else None

    def _colour_to_move(self) -> int:
        return self.match.state.current_player() ^ int(self._swapped())

    def _action(self, move: str) -> int:
        """The suite's action for HexGui's move name ``move`` (lower case)."""
        game = self.match.env.unwrapped.game
        if move in _SWAP_NAMES:
            if not self.swap:
                raise GtpError("illegal move: the swap rule is off (connectn gtp hex --swap)")
            return game.rows * game.cols
        cell = _CELL.fullmatch(move)
        if not cell:
            raise GtpError(f"syntax error: {move[:20]!r} is not a cell like c3 or {SWAP_MOVE}")
        try:
            parse_integer(cell.group(2))  # a bounded row number before the rules read it
        except ValueError as error:
            raise GtpError(f"syntax error: the row number {error}") from None
        try:
            row, col = parse_cell_name(move, game.rows, game.cols)
        except ValueError as error:
            raise GtpError(f"illegal move: {error}") from None
        if self._swapped():
            row, col = col, row
        return row * game.cols + col

    def _move_name(self, action: int) -> str:
        """HexGui's name of the suite's ``action`` in the current position."""
        if action == self._swap_action():
            return SWAP_MOVE
        row, col = divmod(action, self.match.env.unwrapped.game.cols)
        if self._swapped():
            row, col = col, row
        return cell_name(row, col)

    def _winner_colour(self) -> int | None:
        winner = self.match.state.winner
        return None if winner is None else winner ^ int(self._swapped())

    def _config(self, rows: int, cols: int) -> GameConfig:
        return GameConfig("hex", {"rows": rows, "cols": cols, "swap": self.swap})

    # --- commands ----------------------------------------------------------------------

    def _protocol_version(self, args: list[str]) -> str:
        _arguments(args, 0, "protocol_version")
        return "2"

    def _name(self, args: list[str]) -> str:
        _arguments(args, 0, "name")
        return ENGINE_NAME

    def _version(self, args: list[str]) -> str:
        _arguments(args, 0, "version")
        return self.version

    def _known_command(self, args: list[str]) -> str:
        _arguments(args, 1, "known_command NAME")
        return "true" if args[0] in self._commands else "false"

    def _list_commands(self, args: list[str]) -> str:
        _arguments(args, 0, "list_commands")
        return "\n".join(sorted(self._commands))

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _analyze_commands(self, args: list[str]) -> str:
        _arguments(args, 0, "hexgui-analyze_commands")
        return "\n".join(ANALYZE_COMMANDS)

    def _boardsize(self, args: list[str]) -> str:
        usage = "boardsize takes one or two integers (width height)"
        if len(args) not in (1, 2):
            raise GtpError(f"syntax error: {usage}")
        sides = _integers(args, len(args), usage)
        cols, rows = sides[0], sides[-1]
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise GtpError(f"unacceptable size: sides are 1 to {MAX_SIDE}, got {cols} x {rows}")
        if self.swap and rows != cols:
            raise GtpError(
                f"unacceptable size: the swap rule needs a square board, got {cols} x {rows}"
            )
        self.match = ProtocolMatch(self._config(rows, cols))
        self._marker_swap = False
        self._clocks.clear()
        return ""

    def _clear_board(self, args: list[str]) -> str:
        _arguments(args, 0, "clear_board")
        self.match = ProtocolMatch(self.match.config)
        self._marker_swap = False
        self._clocks.clear()
        return ""

    def _time_settings(self, args: list[str]) -> str:
        usage = "time_settings takes MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES (integers, seconds)"
        self._set_time_system(TimeSystem.canadian(*_integers(args, 3, usage)))
        return ""

    def _kgs_time_settings(self, args: list[str]) -> str:
        count, system = _KGS_TIME_SYSTEMS.get(args[0].lower() if args else "", (-1, None))
        if system is None:
            raise GtpError(f"syntax error: {_KGS_USAGE}")
        self._set_time_system(system(*_integers(args[1:], count, _KGS_USAGE)))
        return ""

    def _set_time_system(self, system: TimeSystem) -> None:
        self.time_system = system
        self._clocks.clear()

    def _time_left(self, args: list[str]) -> str:
        usage = "time_left takes COLOUR SECONDS STONES, for example time_left b 300 0"
        if len(args) != 3:
            raise GtpError(f"syntax error: {usage}")
        colour = _colour(args[0])
        seconds, stones = _integers(args[1:], 2, usage)
        self._clocks[colour] = (seconds, stones)
        return ""

    def _clock(self, colour: int) -> tuple[float, int] | None:
        """The clock of ``colour``: the last time_left less the engine's thinking since."""
        return self._clocks.get(colour, self.time_system.start())

    def _play(self, args: list[str]) -> str:
        _arguments(args, 2, "play COLOUR MOVE, for example play b c3")
        colour = _colour(args[0])
        move = args[1].lower()
        if move == RESIGN:
            return ""
        state = self.match.state
        if state.is_terminal():
            raise GtpError(f"illegal move: the game is over ({self._score()})")
        to_move = self._colour_to_move()
        if colour != to_move:
            if colour == 1 and self.swap and not self.match.history():
                return self._play_swapped_stone(move)
            raise GtpError(f"illegal move: it is {_COLOUR_NAMES[to_move]}'s turn")
        action = self._action(move)
        if not state.legal_action_mask()[action]:
            if action == self._swap_action():
                raise GtpError(f"illegal move: {SWAP_MOVE} is only legal as white's first move")
            raise GtpError(f"illegal move: {move} is occupied")
        self.match.play(action)
        if action == self._swap_action():
            self._marker_swap = True
        return ""

    def _play_swapped_stone(self, move: str) -> str:
        """``play w CELL`` on the empty board: the position after black's stone at the mirror
        cell and the swap (how HexGui 0.10 and later send a swap)."""
        if move in _SWAP_NAMES:
            raise GtpError("illegal move: it is black's turn")
        row, col = divmod(self._action(move), self.match.env.unwrapped.game.cols)
        try:
            self.match.replay([col * self.match.env.unwrapped.game.cols + row, self._swap_action()])
        except ValueError as error:  # a first stone that ends the game (a 1 x 1 board)
            raise GtpError(
                f"illegal move: no swap can follow black's first stone ({error})"
            ) from None
        self._marker_swap = False
        return ""

    def _genmove(self, args: list[str]) -> str:
        _arguments(args, 1, "genmove COLOUR, for example genmove w")
        colour = _colour(args[0])
        if self.match.state.is_terminal():
            return RESIGN
        to_move = self._colour_to_move()
        if colour != to_move:
            raise GtpError(f"it is {_COLOUR_NAMES[to_move]}'s turn, not {_COLOUR_NAMES[colour]}'s")
        clock = self._clock(colour)
        start = time.perf_counter()
        try:
            action, note = self.match.think(
                self.agent, thinking_budget(self.time_system.share(clock))
            )
        except ValueError as error:
            raise GtpError(f"the agent failed: {error}") from None
        if clock is not None:
            self._clocks[colour] = self.time_system.spend(clock, time.perf_counter() - start)
        name = self._move_name(action)
        self.match.play(action)
        if action == self._swap_action():
            self._marker_swap = True
        if note:
            print(f"{ENGINE_NAME}: {name}: {note}", file=sys.stderr, flush=True)
        return name

    def _undo(self, args: list[str]) -> str:
        _arguments(args, 0, "undo")
        try:
            self.match.undo()
        except ValueError:
            raise GtpError("cannot undo: no move has been played") from None
        return ""

    def _showboard(self, args: list[str]) -> str:
        _arguments(args, 0, "showboard")
        game = self.match.env.unwrapped.game
        board = self.match.state.board
        swapped = self._swapped()
        view = [["."] * game.cols for _ in range(game.rows)]
        for row in range(game.rows):
            for col in range(game.cols):
                stone = int(board[row, col])
                if stone:
                    r, c = (col, row) if swapped else (row, col)
                    view[r][c] = _STONES[1 + ((stone - 1) ^ int(swapped))]
        width = len(column_label(game.cols - 1))  # 2 beyond 26 columns: aa, ab...
        letters = " ".join(column_label(col).rjust(width) for col in range(game.cols))
        lines = ["", f"    {letters}"]
        for row in range(game.rows):
            cells = " ".join(cell.rjust(width) for cell in view[row])
            lines.append(f"{' ' * row}{row + 1:>3} {cells}")
        lines.append("B (black) connects top and bottom, W (white) left and right")
        if self.match.state.is_terminal():
            lines.append(f"game over: {self._score()}")
        else:
            lines.append(f"{_COLOUR_NAMES[self._colour_to_move()]} to play")
        return "\n".join(lines)

    def _all_legal_moves(self, args: list[str]) -> str:
        if len(args) > 1:
            raise GtpError("syntax error: all_legal_moves takes at most a colour")
        if args:
            _colour(args[0])
        mask = self.match.state.legal_action_mask()
        return " ".join(self._move_name(int(action)) for action in mask.nonzero()[0])

    def _final_score(self, args: list[str]) -> str:
        _arguments(args, 0, "final_score")
        return self._score()

    def _score(self) -> str:
        winner = self._winner_colour()
        return "cannot score" if winner is None else "BW"[winner] + "+"


def _tell_stderr(message: str) -> None:
    print(f"{ENGINE_NAME}: {message}", file=sys.stderr, flush=True)


def _clean(line: str) -> str:
    """GTP 2's preprocessing: control characters dropped (HT kept), comments cut, HT to space."""
    line = _CONTROL.sub("", line.split("#", 1)[0])
    return line.replace("\t", " ")


def _response(success: bool, ident: str, body: str) -> str:
    """``=id body`` or ``?id body`` and the empty line; the body never has an empty line."""
    lines = body.split("\n")
    if not success:
        lines = [" ".join(body.split())]
    text = "\n".join([lines[0], *(line if line.strip() else " " for line in lines[1:])])
    return f"{'=' if success else '?'}{ident} {text}\n\n"


def _arguments(args: list[str], count: int, usage: str) -> None:
    if len(args) != count:
        raise GtpError(f"syntax error: usage is {usage}")


def _integers(args: list[str], count: int, usage: str) -> list[int]:
    """The ``count`` numbers of ``args``, each read by :func:`parse_integer`."""
    if len(args) != count:
        raise GtpError(f"syntax error: {usage}")
    try:
        return [parse_integer(arg) for arg in args]
    except ValueError as error:
        raise GtpError(f"syntax error: {usage}: {error}") from None


def _colour(text: str) -> int:
    colour = _COLOURS.get(text.lower())
    if colour is None:
        raise GtpError(f"syntax error: a colour is b, black, w or white, got {text[:20]!r}")
    return colour


def run_gtp(
    agent: Any,
    *,
    size: int = 11,
    swap: bool = False,
    version: str = "",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a :class:`GtpEngine` on text streams (default: standard input and output)."""
    engine = GtpEngine(agent, size=size, swap=swap, version=version)
    return engine.run(stdin or sys.stdin, stdout or sys.stdout)
