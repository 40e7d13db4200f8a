"""SGF (FF[4]) for Gomoku (GM[4]) and Hex (GM[11]), compatible with HexGui.

Hex follows the SGF Hex page and HexGui: a cell is its column letter and row number,
``a1`` at the top left (``aa`` after ``z``); ``SZ[11]`` or ``SZ[columns:rows]``; Black
(player_0) connects top and bottom. Swap moves:

- ``swap-pieces`` (what HexGui writes when the second player clicks the first stone, and
  what we write): Black's stone becomes a White stone reflected in the long diagonal, then
  Black moves. This is exactly our swap action.
- ``swap-sides`` (also ``swap``): the players exchange colours and the stone stays; White
  moves next. It is read as our swap action with every later move reflected and the
  colours exchanged, which is the same game up to symmetry.
- HexGui 0.9 and earlier (``AP[HexGui:0.9...]``) wrote ``swap-pieces`` meaning
  ``swap-sides``; such files are read the way HexGui reads them.

Gomoku uses Go-style points: two letters, column then row from the top (``aa`` top left;
``a``-``z`` then ``A``-``Z``); ``RU[freestyle]`` or ``RU[standard]``. Both games read
either point style. Only the main line of a file with variations is read; setup
properties (AB, AW, AE) are refused.

Limits: text of at most 10 MiB, property names of at most 32 letters; the parser makes one
linear pass without recursion, so variations may nest to any depth.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from connectn_env.games import GameState, IllegalActionError, cell_name, parse_cell_name
from connectn_env.games.config import GameConfig
from connectn_env.records.record import GameRecord
from connectn_env.records.textfile import MAX_RECORD_BYTES

GM_GOMOKU = 4
GM_HEX = 11
SGF_GAMES = ("gomoku", "hex")  # the game families SGF has a dialect for
_GO_LETTERS = string.ascii_lowercase + string.ascii_uppercase
_OLD_HEXGUI = re.compile(r"HexGui:0\.[0-9](\D.*)?", re.DOTALL)
_REASON_CODES = {"resign": "R", "forfeit": "F", "timeout": "T"}
_REASON_NAMES = {"R": "resign", "RESIGN": "resign", "F": "forfeit", "FORFEIT": "forfeit"}
_REASON_NAMES.update({"T": "timeout", "TIME": "timeout"})
_LINE_WIDTH = 72


# --- writing ------------------------------------------------------------------------


def record_to_sgf(record: GameRecord) -> str:
    """The record as SGF text (main line only, one move per node).

    Raises:
        ValueError: the game is not Gomoku or Hex.
    """
    from connectn_env import __version__

    game = record.game
    if game.name not in SGF_GAMES:
        raise ValueError(f"SGF covers gomoku and hex, not {game.name}; save it as .json")
    rows, cols = game.params["rows"], game.params["cols"]
    root = [
        ("FF", "4"),
        ("GM", str(GM_HEX if game.name == "hex" else GM_GOMOKU)),
        ("SZ", str(cols) if rows == cols else f"{cols}:{rows}"),
        ("AP", f"connectn-env:{__version__}"),
    ]
    if game.name == "gomoku":
        root.append(("RU", game.params["rule"]))
    elif game.params["swap"]:
        root.append(("RU", "swap"))
    root += [("PB", record.players[0]), ("PW", record.players[1])]
    if record.date:
        root.append(("DT", record.date[:10]))
    result = _result_value(record)
    if result:
        root.append(("RE", result))
    pieces = [f"{key}[{_escape(value)}]" for key, value in root]
    pieces[0] = "(;" + pieces[0]
    for number, action in enumerate(record.moves):
        colour = "BW"[number % 2]
        pieces.append(f";{colour}[{_point_name(game, action)}]")
    lines, line = [], ""
    for piece in pieces:
        if line and len(line) + len(piece) > _LINE_WIDTH:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line + ")")
    return "\n".join(lines) + "\n"


def _point_name(game: GameConfig, action: int) -> str:
    rows, cols = game.params["rows"], game.params["cols"]
    if action == rows * cols:
        return "swap-pieces"
    row, col = divmod(action, cols)
    if game.name == "hex":
        return cell_name(row, col)
    return _GO_LETTERS[col] + _GO_LETTERS[row]


def _result_value(record: GameRecord) -> str:
    if record.result == "draw":
        return "0"
    if record.result == "unfinished":
        return ""
    colour = "B" if record.result == "player_0" else "W"
    return f"{colour}+{_REASON_CODES.get(record.reason, '')}"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# --- parsing ------------------------------------------------------------------------


MAX_IDENT_LENGTH = 32  # letters in a property name (FF[4] names have one or two)
_MAX_POINT_LENGTH = 6  # "ab12" on the largest boards
_SIZE = re.compile(r"([0-9]{1,4})(?:\s*:\s*([0-9]{1,4}))?")
_SPACE = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z]+")
_VALUE = re.compile(r"\[([^\]\\]*(?:\\.[^\]\\]*)*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


@dataclass(frozen=True)
class _Property:
    ident: str
    values: tuple[str, ...]
    line: int


class _Parser:
    """Reads the main line of the first game tree; errors name the line.

    One pass of regular-expression matches, no recursion: the time is linear in the text
    and any nesting depth of variations is read (only the first variation at each branch
    is kept).
    """

    def __init__(self, text: str, where: str) -> None:
        self.text, self.where, self.pos = text, where, 0
        self._line, self._counted = 1, 0  # newlines counted up to self._counted

    def error(self, message: str, line: int | None = None) -> ValueError:
        return ValueError(f"{self.where} line {line or self.line_at(self.pos)}: {message}")

    def line_at(self, pos: int) -> int:
        """Line number of ``pos`` (positions asked for never go backwards)."""
        if pos > self._counted:
            self._line += self.text.count("\n", self._counted, pos)
            self._counted = pos
        return self._line

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def found(self) -> str:
        return repr(self.peek()) if self.peek() else "the end of the file"

    def skip_space(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos).end()

    def main_line(self) -> list[list[_Property]]:
        """``( node+ tree* )``: the nodes of the first game tree's main line."""
        self.skip_space()
        if self.peek() != "(":
            raise self.error(f"expected '(' to open a game tree, found {self.found()}")
        branches: list[list[bool]] = []  # per open tree: [on the main line, has a child]
        nodes: list[list[_Property]] = []
        while True:  # at a '('
            self.pos += 1
            on_main = not branches or (branches[-1][0] and not branches[-1][1])
            if branches:
                branches[-1][1] = True
            branches.append([on_main, False])
            self.skip_space()
            if self.peek() != ";":
                raise self.error("expected ';' to start a node after '('")
            while self.peek() == ";":
                node = self.node()
                if on_main:
                    nodes.append(node)
            while self.peek() != "(":
                if self.peek() != ")":
                    raise self.error(f"expected ')' to close the game tree, found {self.found()}")
                self.pos += 1
                branches.pop()
                if not branches:
                    return nodes
                self.skip_space()

    def node(self) -> list[_Property]:
        self.pos += 1  # ';'
        properties: list[_Property] = []
        seen: set[str] = set()
        while True:
            self.skip_space()
            match = _IDENT.match(self.text, self.pos)
            if match is None:
                return properties
            line = self.line_at(match.start())
            name = match.group()
            if len(name) > MAX_IDENT_LENGTH:
                raise self.error(
                    f"property name {_cut(name)} has {len(name):,} letters; at most "
                    f"{MAX_IDENT_LENGTH} are allowed",
                    line,
                )
            ident = "".join(c for c in name if c.isupper())  # FF[3] lower-case letters
            self.pos = match.end()
            self.skip_space()
            if self.peek() != "[":
                raise self.error(f"property {ident or '?'} has no [value]", line)
            values = []
            while self.peek() == "[":
                value = _VALUE.match(self.text, self.pos)
                if value is None:
                    start = self.line_at(self.pos)
                    raise self.error(f"value of {ident} is never closed with ']'", start)
                values.append(_ESCAPE.sub(_unescape, value.group(1)))
                self.pos = value.end()
                self.skip_space()
            if ident in seen:
                raise self.error(f"property {ident} appears twice in one node", line)
            seen.add(ident)
            properties.append(_Property(ident, tuple(values), line))


def _unescape(match: re.Match[str]) -> str:
    """``\\x`` -> ``x``; a soft line break (backslash, newline) disappears."""
    char = match.group(1)
    return "" if char == "\n" else char


def _cut(text: str, limit: int = 40) -> str:
    """``text`` for a message: at most ``limit`` characters."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def record_from_sgf(text: str, where: str = "sgf") -> GameRecord:
    """Parse an SGF game of Gomoku or Hex (see the module docstring for what is accepted).

    Raises:
        TypeError: ``text`` is not a str.
        ValueError: malformed text, an unsupported game or property, an illegal move, a
            result the moves do not give, text longer than 10 MiB; the message names
            ``where``, the line and the property at fault.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if len(text) > MAX_RECORD_BYTES:
        raise ValueError(
            f"{where}: {len(text):,} characters, more than the {MAX_RECORD_BYTES:,} a record "
            "may have"
        )
    parser = _Parser(text.lstrip("\ufeff"), where)
    nodes = parser.main_line()
    root = {p.ident: p for p in nodes[0]}
    game_name = _game_name(root, parser)
    cols, rows = _board_size(root, parser, 11 if game_name == "hex" else 15)
    moves = _move_properties(nodes, parser)
    old_hexgui = _OLD_HEXGUI.fullmatch(_single(root.get("AP"), "")) is not None
    if game_name == "hex":
        wants_swap = "swap" in _single(root.get("RU"), "").lower()
        has_swap = any(_is_swap(prop.values[0]) for _, prop in moves)
        params = {"rows": rows, "cols": cols, "swap": wants_swap or has_swap}
    else:
        params = {"rows": rows, "cols": cols, "rule": _gomoku_rule(root, parser)}
    try:
        game = GameConfig(game_name, params)
    except ValueError as error:
        sz = _cut(root["SZ"].values[0])
        raise parser.error(f"SZ[{sz}]: {error}", root["SZ"].line) from None
    state = game.make_game().new_initial_state()
    flipped = False  # after swap-sides: file colours and coordinates are exchanged
    ended: tuple[str, str, int] | None = None  # (result, reason, line) from resign/forfeit
    for colour, prop in moves:
        shown = _cut(prop.values[0])
        if ended is not None:
            raise parser.error(f"{colour}[{shown}] follows the end of the game", prop.line)
        player = (colour == "W") != flipped
        value = prop.values[0].strip()
        special = value.lower()
        if special in ("resign", "forfeit"):
            ended = (f"player_{1 - player}", special, prop.line)
            continue
        if state.is_terminal():
            raise parser.error(f"{colour}[{shown}] is played after the game ended", prop.line)
        if state.current_player() != player:
            expected = "White" if (state.current_player() == 1) != flipped else "Black"
            raise parser.error(f"{colour}[{shown}] is out of turn ({expected} to move)", prop.line)
        swap_sides = special in ("swap-sides", "swap") or (special == "swap-pieces" and old_hexgui)
        if game_name == "hex" and _is_swap(value):
            action = rows * cols
        else:
            row, col = _parse_point(value, game_name, rows, cols, prop, parser)
            if flipped:
                row, col = col, row
            action = row * cols + col
        try:
            state.apply_action(action)
        except IllegalActionError as error:
            raise parser.error(f"{colour}[{shown}] is illegal: {error}", prop.line) from None
        flipped = flipped or swap_sides
    result, reason = _result(root, state, ended, flipped, parser)
    try:
        return GameRecord(
            game=game,
            moves=tuple(state.history()),
            players=(_single(root.get("PB"), "Black"), _single(root.get("PW"), "White")),
            result=result,
            reason=reason,
            date=_single(root.get("DT"), ""),
            meta={"source": "sgf", "application": _single(root.get("AP"), "")},
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None


def _single(prop: _Property | None, default: str) -> str:
    return prop.values[0] if prop is not None else default


def _game_name(root: dict[str, _Property], parser: _Parser) -> str:
    prop = root.get("GM")
    if prop is None:
        raise parser.error("the root node has no GM property (GM[4] Gomoku or GM[11] Hex)", 1)
    value = prop.values[0].strip()
    if value not in (str(GM_GOMOKU), str(GM_HEX)):
        raise parser.error(
            f"GM[{_cut(value)}] is not supported (GM[4] Gomoku, GM[11] Hex)", prop.line
        )
    return "hex" if value == str(GM_HEX) else "gomoku"


def _board_size(root: dict[str, _Property], parser: _Parser, default: int) -> tuple[int, int]:
    """(columns, rows) from SZ[n] or SZ[columns:rows]."""
    prop = root.get("SZ")
    if prop is None:
        return default, default
    value = prop.values[0].strip()
    match = _SIZE.fullmatch(value)
    if match is None:
        raise parser.error(
            f"SZ[{_cut(value)}]: expected a board size like 11 or 13:11 (columns:rows, ASCII "
            "digits)",
            prop.line,
        )
    cols = int(match.group(1))
    rows = int(match.group(2) or cols)
    return cols, rows


def _gomoku_rule(root: dict[str, _Property], parser: _Parser) -> str:
    prop = root.get("RU")
    if prop is None:
        return "freestyle"
    value = prop.values[0].strip().lower()
    if value not in ("freestyle", "standard"):
        raise parser.error(
            f"RU[{_cut(value)}]: Gomoku rule must be freestyle or standard", prop.line
        )
    return value


def _move_properties(nodes: list[list[_Property]], parser: _Parser) -> list[tuple[str, _Property]]:
    moves = []
    for node in nodes:
        for prop in node:
            if prop.ident in ("AB", "AW", "AE"):
                raise parser.error(
                    f"setup property {prop.ident} is not supported (games start empty)", prop.line
                )
        colours = [p for p in node if p.ident in ("B", "W")]
        if len(colours) > 1:
            raise parser.error("a node holds both a B and a W move", colours[1].line)
        if colours:
            moves.append((colours[0].ident, colours[0]))
    return moves


def _is_swap(value: str) -> bool:
    return value.strip().lower() in ("swap-pieces", "swap-sides", "swap")


def _parse_point(
    value: str, game: str, rows: int, cols: int, prop: _Property, parser: _Parser
) -> tuple[int, int]:
    """(row, col) of a point written ``c3`` (Hex style) or ``cc`` (Go style)."""
    if not value.isascii() or len(value) > _MAX_POINT_LENGTH:
        raise parser.error(
            f"{prop.ident}[{_cut(value)}]: expected a point like c3 or cc (ASCII letters and "
            "digits)",
            prop.line,
        )
    if len(value) == 2 and value.isalpha():
        col, row = _GO_LETTERS.find(value[0]), _GO_LETTERS.find(value[1])
        if 0 <= row < rows and 0 <= col < cols:
            return row, col
        raise parser.error(f"{prop.ident}[{value}] is off the {cols}x{rows} board", prop.line)
    if value.lower() in ("pass", "", "tt"):
        raise parser.error(f"{prop.ident}[{value}]: passing is not a move in {game}", prop.line)
    try:
        return parse_cell_name(value, rows, cols)
    except ValueError as error:
        raise parser.error(f"{prop.ident}[{value}]: {error}", prop.line) from None


def _result(
    root: dict[str, _Property],
    state: GameState,
    ended: tuple[str, str, int] | None,
    flipped: bool,
    parser: _Parser,
) -> tuple[str, str]:
    """(result, reason) from the position, a resign/forfeit move and RE, which must agree."""
    prop = root.get("RE")
    told = _parse_result(prop, flipped, parser) if prop is not None else None
    if state.is_terminal():
        actual = "draw" if state.winner is None else f"player_{state.winner}"
        found: tuple[str, str] | None = (actual, "")
    elif ended is not None:
        found = ended[:2]
    else:
        found = None
    if found is None:
        if told is not None and told[0] == "draw":
            raise parser.error(
                f"RE[{_cut(prop.values[0])}] says draw, but the game is unfinished after "
                f"{state.move_number} move{'' if state.move_number == 1 else 's'}",
                prop.line,
            )
        return told if told is not None else ("unfinished", "")
    if told is not None and told[0] not in (found[0], "unfinished"):
        shown = _cut(prop.values[0])
        raise parser.error(
            f"RE[{shown}] contradicts the game ({found[0]} won)"
            if found[0] != "draw"
            else f"RE[{shown}] contradicts the game (a draw)",
            prop.line,
        )
    return found


def _parse_result(prop: _Property, flipped: bool, parser: _Parser) -> tuple[str, str]:
    value = prop.values[0].strip()
    upper = value.upper()
    if upper in ("0", "DRAW"):
        return "draw", ""
    if upper in ("VOID", "?", ""):
        return "unfinished", ""
    match = re.fullmatch(r"([BW])\+(.*)", upper)
    if match is None:
        raise parser.error(f"RE[{_cut(value)}]: expected B+, W+, 0 (draw) or Void", prop.line)
    winner = int((match.group(1) == "W") != flipped)
    return f"player_{winner}", _REASON_NAMES.get(match.group(2), "resign")
