"""Text rendering (``render_mode="ansi"``): the board with coordinates, last move marked."""

from __future__ import annotations

from connectn_env.games import GameState
from connectn_env.render.style import load_style

STONE_CHARS = {0: ".", 1: "X", 2: "O"}
LEGAL_CHAR = "*"  # an empty cell where the player to move may play (styles that show them)


def render_ansi(state: GameState, *, status: bool = True) -> str:
    """The board as text, then (with ``status``) a status line, laid out by the game's board
    style.

    Column labels (the picture's, in lowercase: letters, or numbers ``1..cols`` for gravity
    games) are on top and row numbers ``1..rows`` on the left (styles without row labels
    have none), so ``a1`` is the top-left cell. ``X`` is player_0 and ``O`` player_1; the
    last move is in brackets (``[X]``) and the cells of the winning line or chain are
    lowercase (``x``, ``o``); styles that show legal moves mark them ``*``. Rows are
    shifted as the picture shifts them: Hex rows by half a cell per row, which draws
    OpenSpiel's rhombus.

    Raises:
        TypeError: ``state`` is not a :class:`~connectn_env.games.GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    game = state.game
    style = load_style(game.render_style)
    board = state.board
    last = state.last_move_cell()
    winning = set(state.winning_cells())
    legal = set()
    if style.legal_moves_shown and not state.is_terminal():
        legal = {style.landing_cell(state, action) for action in state.legal_actions()}
    labels = [style.column_label(c).lower() for c in range(game.cols)]
    label_width = max(len(label) for label in labels)
    # A mark is followed by at least one space, so brackets around it never cover another mark.
    pitch = label_width + 1
    shift = 0
    row_shift = style.unit(1, 0)[0] - style.unit(0, 0)[0]  # in cells, per row
    if row_shift:
        pitch += pitch % 2  # an even pitch: half a cell is a whole number of characters
        shift = round(pitch * row_shift)
    row_width = len(str(game.rows)) if style.row_labels else 0
    first = row_width + label_width  # column of the first mark; leaves room for a "["

    def mark_column(row: int, col: int) -> int:
        return first + row * shift + col * pitch

    width = mark_column(game.rows - 1, game.cols - 1) + 2
    header = [" "] * width
    for c, label in enumerate(labels):
        end = mark_column(0, c) + 1  # labels end above the marks of the first row
        header[end - len(label) : end] = label
    lines = ["".join(header).rstrip()]
    for r in range(game.rows):
        line = [" "] * width
        if style.row_labels:
            line[:row_width] = str(r + 1).rjust(row_width)
        for c in range(game.cols):
            x = mark_column(r, c)
            mark = LEGAL_CHAR if (r, c) in legal else STONE_CHARS[int(board[r, c])]
            line[x] = mark.lower() if (r, c) in winning else mark
            if (r, c) == last:
                line[x - 1], line[x + 1] = "[", "]"
        lines.append("".join(line).rstrip())
    if status:
        lines.append(status_text(state))
    return "\n".join(lines)


def status_text(state: GameState, names: tuple[str, str] = ("X", "O")) -> str:
    """One line: who is to move, who won after how many moves, or a draw."""
    moves = state.move_number
    after = f"after {moves} move{'' if moves == 1 else 's'}"
    winner = state.winner
    if winner is not None:
        return f"player_{winner} ({names[winner]}) wins {after}"
    if state.is_terminal():
        return f"draw {after}"
    player = state.current_player()
    return f"player_{player} ({names[player]}) to move"
