"""Move names as people type and read them: ``4`` (a column of a gravity game, 1-based),
``b2`` (a cell: column letter, row number, ``a1`` top left) or the name of a special action
(``swap`` in Hex, ``pass`` in Othello: ``BoardGame.special_actions``)."""

from __future__ import annotations

from connectn_env.games import BoardGame, GameState, Status, cell_name, parse_cell_name
from connectn_env.games.coords import parse_column_number
from connectn_env.games.validation import require_int

SWAP = "swap"


def swap_action(game: BoardGame) -> int | None:
    """The swap action of ``game`` (its special action named ``swap``), or None."""
    for action, name in game.special_actions.items():
        if name == SWAP:
            return action
    return None


def forced_special_action(state: GameState) -> int | None:
    """The special action that is the only legal move in ``state`` (a pass when the player
    has no other move), or None."""
    legal = [] if state.is_terminal() else state.legal_actions()
    if len(legal) == 1 and legal[0] in state.game.special_actions:
        return int(legal[0])
    return None


def move_name(game: BoardGame, action: int) -> str:
    """The name of ``action``: a 1-based column number, a cell name or ``swap``.

    Raises:
        TypeError: ``game`` is not a BoardGame or ``action`` not an int.
        ValueError: ``action`` is outside the game's action space.
    """
    if not isinstance(game, BoardGame):
        raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
    return game.action_name(require_int("action", action, 0, game.num_actions - 1))


def move_format(game: BoardGame) -> str:
    """How to enter a move in ``game``, for help lines."""
    if not isinstance(game, BoardGame):
        raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
    if game.gravity:
        return f"a column number, 1 to {game.cols}"
    last = cell_name(game.rows - 1, game.cols - 1)
    text = f"a cell, column letter then row number, a1 to {last}"
    for name in game.special_actions.values():
        text += f", or '{name}'" + (" (second move only)" if name == SWAP else "")
    return text


def parse_move(state: GameState, text: str) -> int:
    """The legal action that ``text`` names in ``state``.

    Raises:
        TypeError: ``state`` is not a GameState or ``text`` not a str.
        ValueError: ``text`` names no move, or its move is illegal now; the message says why
            and how moves are written.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    game = state.game
    entry = text.strip().lower()
    if state.is_terminal():
        raise ValueError("the game is over: no more moves")
    if not entry:
        raise ValueError(f"enter a move: {move_format(game)}")
    specials = {name: action for action, name in game.special_actions.items()}
    if entry in specials:
        action = specials[entry]
    elif entry == SWAP:
        raise ValueError(f"this game has no swap rule: enter {move_format(game)}")
    elif game.gravity:
        action = _parse_column(game, entry)
    else:
        row, col = parse_cell_name(entry, game.rows, game.cols)
        action = row * game.cols + col
    if not state.legal_action_mask()[action]:
        raise ValueError(illegal_move_reason(state, action))
    return action


def _parse_column(game: BoardGame, entry: str) -> int:
    try:
        return parse_column_number(entry, game.cols)
    except ValueError as error:
        raise ValueError(f"{error}: enter {move_format(game)}") from None


def illegal_move_reason(state: GameState, action: int) -> str:
    """Why the illegal ``action`` cannot be played in ``state``, for people."""
    game = state.game
    name = move_name(game, action)
    if game.gravity:
        return f"column {name} is full: choose another column"
    if action == swap_action(game):
        return "swap is only allowed as the second move of the game"
    if action not in game.special_actions and state.board[divmod(action, game.cols)]:
        return f"{name} is already taken: choose an empty cell"
    # Any other reason is the game's own ("action 0 is illegal: a1 flips no disc"), written
    # for the API: said with the move's name instead of its action number.
    status = Status(game.kernels.check(game.params, state.data, action))
    _, _, why = game.illegal_reason(state, action, status).partition(": ")
    if why.startswith(f"{name} "):
        why = f"it {why[len(name) + 1 :]}"
    return f"{name} is illegal: {why}" if why else f"{name} is illegal here"
