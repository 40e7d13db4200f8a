"""Othello in plain Python, written for clarity rather than speed: the brute-force reference
that the property tests hold the compiled kernels to.

The board is a list of lists (0 empty, 1 player_0's disc, 2 player_1's). Legal moves are
found by trying every empty cell in every one of the eight directions; nothing is cached.
"""

from __future__ import annotations

from connectn_env.games.contract import Outcome
from connectn_env.games.game import BoardGame

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def initial_board(size: int) -> list[list[int]]:
    """The starting board: player_1's discs on the top-left and bottom-right centre cells,
    player_0's on the other two (OpenSpiel's ``othello``)."""
    board = [[0] * size for _ in range(size)]
    low, high = size // 2 - 1, size // 2
    board[low][low] = board[high][high] = 2
    board[low][high] = board[high][low] = 1
    return board


def flipped_by(board: list[list[int]], row: int, col: int, player: int) -> list[tuple[int, int]]:
    """The discs that ``player`` (0 or 1) placing at the empty (row, col) would flip."""
    size = len(board)
    own, other = player + 1, 2 - player
    flipped = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < size and 0 <= c < size and board[r][c] == own:
            flipped.extend(line)
    return flipped


def placements(board: list[list[int]], player: int) -> list[int]:
    """The cells ``r * size + c`` where ``player`` may place a disc, increasing."""
    size = len(board)
    return [
        r * size + c
        for r in range(size)
        for c in range(size)
        if board[r][c] == 0 and flipped_by(board, r, c, player)
    ]


class ReferenceOthello:
    """A game of Othello: whose turn, the legal actions (the pass is ``size * size``, legal
    only without a placement), and the result once neither player can place.

    Attributes:
        board: The board (list of lists).
        player: The player to move (meaningless once the game is over).
        history: The actions played.
        over: True once neither player can place a disc.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.board = initial_board(size)
        self.player = 0
        self.history: list[int] = []
        self.over = False

    @property
    def pass_action(self) -> int:
        return self.size * self.size

    def legal_actions(self) -> list[int]:
        """Placements, or ``[pass]`` if there are none; [] once the game is over."""
        if self.over:
            return []
        return placements(self.board, self.player) or [self.pass_action]

    def apply(self, action: int) -> None:
        """Play a legal action (raises ValueError for an illegal one)."""
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is illegal here")
        if action != self.pass_action:
            row, col = divmod(action, self.size)
            for r, c in flipped_by(self.board, row, col, self.player):
                self.board[r][c] = self.player + 1
            self.board[row][col] = self.player + 1
        self.history.append(action)
        self.player = 1 - self.player
        self.over = not placements(self.board, 0) and not placements(self.board, 1)

    def current_player(self) -> int:
        """The player to move (as the harness of the property tests reads it)."""
        return self.player

    def outcome(self) -> Outcome:
        """ONGOING until neither player can place, then who has more discs (or a draw)."""
        if not self.over:
            return Outcome.ONGOING
        black, white = self.discs()
        if black == white:
            return Outcome.DRAW
        return Outcome.PLAYER_0_WINS if black > white else Outcome.PLAYER_1_WINS

    def discs(self) -> tuple[int, int]:
        """(player_0's discs, player_1's discs)."""
        cells = [v for row in self.board for v in row]
        return cells.count(1), cells.count(2)

    def returns(self) -> list[float]:
        """[player_0, player_1]: +1 more discs, -1 fewer, 0 equal or not over."""
        if not self.over:
            return [0.0, 0.0]
        black, white = self.discs()
        sign = (black > white) - (black < white)
        return [float(sign), float(-sign)]


def new_reference_state(game: BoardGame) -> ReferenceOthello:
    """The reference position of an Othello game's start (the plugin convention)."""
    return ReferenceOthello(game.rows)
