"""Text rendering (``render_mode="ansi"``): the board with coordinates, last move marked."""

from __future__ import annotations

from connectn_env.games import GameState, column_label
from connectn_env.games.layout import KIND_HEX

_STONES = {0: ".", 1: "X", 2: "O"}


def render_ansi(state: GameState) -> str:
    """The board as text: column letters (numbers for gravity games) on top, row numbers
    on the left, ``X`` for player_0 and ``O`` for player_1, the last move in brackets, the
    winning line or chain in lowercase, and a status line."""
    game = state.game
    board = state.board
    last = state.last_move_cell()
    winning = set(state.winning_cells())
    hex_board = game.kind == KIND_HEX
    width = len(str(game.rows))
    if game.gravity:
        labels = [str(c + 1) for c in range(game.cols)]
    else:
        labels = [column_label(c) for c in range(game.cols)]
    cell_width = max(len(label) for label in labels) + 2
    lines = [" " * (width + 1) + "".join(label.center(cell_width) for label in labels)]
    for r in range(game.rows):
        cells = []
        for c in range(game.cols):
            mark = _STONES[int(board[r, c])]
            if (r, c) in winning:
                mark = mark.lower()
            cells.append(f"[{mark}]" if (r, c) == last else f" {mark} ")
        indent = " " * r if hex_board else ""
        row_label = "" if game.gravity else str(r + 1)
        lines.append(
            f"{row_label:>{width}} {indent}" + "".join(x.center(cell_width) for x in cells)
        )
    lines.append(_status(state))
    return "\n".join(lines)


def _status(state: GameState) -> str:
    winner = state.winner
    if winner is not None:
        return f"player_{winner} ({_STONES[winner + 1]}) wins after {state.move_number} moves"
    if state.is_terminal():
        return f"draw after {state.move_number} moves"
    player = state.current_player()
    return f"player_{player} ({_STONES[player + 1]}) to move"
