"""``connectn gtp hex``: a Hex engine speaking the Go Text Protocol (GTP 2) as MoHex does,
so that HexGui (or any GTP controller) can use the suite's agents.

Commands: ``protocol_version name version known_command list_commands quit boardsize
clear_board play genmove undo showboard hexgui-analyze_commands all_legal_moves
final_score``. Cells are named as in HexGui and MoHex: column letter, row number, ``a1`` at
the top left; black moves first and connects top and bottom, white left and right. The swap
move is ``swap-pieces`` (``swap`` is accepted too), ``resign`` is accepted and ignored as
MoHex does, and ``genmove`` answers ``resign`` once the game is over.

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

Responses follow GTP 2: ``=[id] result`` or ``?[id] message`` and an empty line; a
malformed or impossible command gets a ``?`` answer (``syntax error``, ``illegal move``,
``unknown command``, ``unacceptable size``, ``cannot undo``) and changes nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from connectn_env.games import MAX_SIDE, cell_name, column_label, parse_cell_name
from connectn_env.protocols.match import ProtocolMatch
from connectn_env.records import GameConfig

__all__ = ["GtpEngine", "GtpError", "run_gtp"]

ENGINE_NAME = "connectn"
SWAP_MOVE = "swap-pieces"
_SWAP_NAMES = (SWAP_MOVE, "swap", "swap-sides")
RESIGN = "resign"
_COLOURS = {"b": 0, "black": 0, "w": 1, "white": 1}
_COLOUR_NAMES = ("black", "white")
_STONES = ".BW"
_CELL = re.compile(r"[a-z]+[0-9]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
ANALYZE_COMMANDS = (
    "string/ShowBoard/showboard",
    "plist/All Legal Moves/all_legal_moves %c",
    "string/Final Score/final_score",
)


class GtpError(Exception):
    """A command that fails: the message goes after ``?``; the engine is unchanged."""


class GtpEngine:
    """The GTP engine state: the board, the agent, and the command table.

    Args:
        agent: The engine's player: anything with ``act(env)`` (a search agent thinks for its
            own time or simulation limit).
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
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "all_legal_moves": self._all_legal_moves,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "final_score": self._final_score,
            "genmove": self._genmove,
            "hexgui-analyze_commands": self._analyze_commands,
            "known_command": self._known_command,
            "list_commands": self._list_commands,
            "name": self._name,
            "play": self._play,
            "protocol_version": self._protocol_version,
            "quit": self._quit,
            "showboard": self._showboard,
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
        ident = words.pop(0) if words[0].isdigit() and words[0].isascii() else ""
        if not words:
            return _response(False, ident, "syntax error: a command must follow the id")
        command, args = words[0], words[1:]
        handler = self._commands.get(command)
        if handler is None:
            return _response(False, ident, f"unknown command: {command[:40]}")
        try:
            return _response(True, ident, handler(args))
        except GtpError as error:
            return _response(False, ident, str(error))

    def run(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answer commands from ``stdin`` until ``quit`` or end of input; returns 0."""
        for line in stdin:
            response = self.handle(line)
            if response is not None:
                stdout.write(response)
                stdout.flush()
            if self.finished:
                break
        return 0

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
        if not _CELL.fullmatch(move):
            raise GtpError(f"syntax error: {move[:20]!r} is not a cell like c3 or {SWAP_MOVE}")
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
        if len(args) not in (1, 2) or not all(arg.isdigit() and arg.isascii() for arg in args):
            raise GtpError("syntax error: boardsize takes one or two integers (width height)")
        cols = int(args[0])
        rows = int(args[-1])
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise GtpError(f"unacceptable size: sides are 1 to {MAX_SIDE}, got {cols} x {rows}")
        if self.swap and rows != cols:
            raise GtpError(
                f"unacceptable size: the swap rule needs a square board, got {cols} x {rows}"
            )
        self.match = ProtocolMatch(self._config(rows, cols))
        self._marker_swap = False
        return ""

    def _clear_board(self, args: list[str]) -> str:
        _arguments(args, 0, "clear_board")
        self.match = ProtocolMatch(self.match.config)
        self._marker_swap = False
        return ""

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
        self.match.replay([col * self.match.env.unwrapped.game.cols + row, self._swap_action()])
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
        try:
            action, note = self.match.think(self.agent)
        except ValueError as error:
            raise GtpError(f"the agent failed: {error}") from None
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
        letters = " ".join(column_label(col) for col in range(game.cols))
        lines = ["", f"    {letters}"]
        for row in range(game.rows):
            lines.append(f"{' ' * row}{row + 1:>3} {' '.join(view[row])}")
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
