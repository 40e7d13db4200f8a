"""A perfect Connect Four solver: compiled negamax with alpha-beta pruning on bitboards, a
transposition table and null-window searches (Pascal Pons' design, "Solving Connect 4",
2019), for four in a row with gravity on boards of up to 64 bits (``(rows + 1) * cols``).

Scores follow Pons' convention, for the player to move: 0 for a draw; a win with the
player's ``k``-th last stone that the board can hold scores ``k`` (``(rows * cols + 1 -
moves) // 2`` for a win with the next stone), a loss the opposite. The higher the score the
sooner the win (or the later the loss).

Mid-game positions of Connect Four (12 or more stones) take milliseconds to a second; early
ones far longer. A search can be given a node budget (:meth:`Connect4Solver.scores_within`,
what the search agents' ``exact`` option uses): it then proves what it can and says which
moves it could not finish.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from connectn_env.games.connect_n.bitboard_tactics import board_masks, winning_cells
from connectn_env.games.lib.jit import njit

TABLE_SIZE = 1 << 23  # entries of the transposition table (full keys: any size is exact)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NO_VALUE = 0  # stored values are score - min_score + 1 > 0
UNLIMITED = 1 << 62  # a node budget that never runs out
_MIX = np.uint64(0x9E3779B97F4A7C15)  # spreads every bit of a key over the table's slots


@njit(cache=True)
def _popcount(bits):
    count = 0
    while bits != _ZERO:
        bits &= bits - _ONE
        count += 1
    return count


@njit(cache=True)
def _winning(current, mask, rows, board):
    """The empty cells where a stone of the player owning ``current`` completes four."""
    return winning_cells(current, 4, rows + 1) & (board ^ mask)


@njit(cache=True)
def _non_losing_moves(current, mask, rows, bottom, board):
    """The playable cells that do not let the opponent win at once (0: every move loses)."""
    possible = (mask + bottom) & board
    opponent_win = _winning(current ^ mask, mask, rows, board)
    forced = possible & opponent_win
    if forced != _ZERO:
        if forced & (forced - _ONE) != _ZERO:
            return _ZERO  # two threats to stop
        possible = forced
    return possible & ~(opponent_win >> _ONE)  # never under an opponent's winning cell


@njit(cache=True)
def _negamax(current, mask, moves, alpha, beta, rows, cols, bottom, board, tables, budget):
    """The score of the position within ``[alpha, beta]``; the player to move cannot win at
    once (checked by the caller). ``tables``: the transposition table's keys and values and
    the move-ordering rows (one per depth). ``budget[0]``: nodes left; once it is negative
    the value is meaningless (the caller discards it) and nothing more is stored."""
    budget[0] -= 1
    if budget[0] < 0:
        return alpha
    keys, values, order_moves, order_scores = tables
    cells = rows * cols
    playable = _non_losing_moves(current, mask, rows, bottom, board)
    if playable == _ZERO:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    low = -((cells - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - moves) // 2
    key = current + mask
    slot = np.int64(((key * _MIX) >> np.uint64(32)) % np.uint64(keys.shape[0]))
    if keys[slot] == key and values[slot] != _NO_VALUE:
        high = values[slot] + (-(cells // 2) + 3) - 1
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # order: more threats created first, then centre columns first
    order_moves = order_moves[moves]
    order_scores = order_scores[moves]
    count = 0
    height = rows + 1
    column_bits = (_ONE << np.uint64(rows)) - _ONE
    for i in range(cols):
        column = cols // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2)
        move = playable & (column_bits << np.uint64(column * height))
        if move == _ZERO:
            continue
        score = _popcount(_winning(current | move, mask, rows, board))
        position = count
        while position > 0 and order_scores[position - 1] < score:
            order_moves[position] = order_moves[position - 1]
            order_scores[position] = order_scores[position - 1]
            position -= 1
        order_moves[position] = move
        order_scores[position] = score
        count += 1
    for i in range(count):
        move = order_moves[i]
        child_current = current ^ mask
        child_mask = mask | move
        score = -_negamax(
            child_current,
            child_mask,
            moves + 1,
            -beta,
            -alpha,
            rows,
            cols,
            bottom,
            board,
            tables,
            budget,
        )
        if score >= beta:
            return score
        if score > alpha:
            alpha = score
    if budget[0] >= 0:
        keys[slot] = key
        values[slot] = alpha - (-(cells // 2) + 3) + 1
    return alpha


@njit(cache=True)
def _solve(current, mask, moves, rows, cols, tables, budget):
    """The exact score of the position (Pons' convention); meaningless if ``budget[0]`` ends
    negative (out of nodes)."""
    bottom, board = board_masks(rows, cols)
    cells = rows * cols
    possible = (mask + bottom) & board
    if _winning(current, mask, rows, board) & possible != _ZERO:
        return (cells + 1 - moves) // 2
    low = -((cells - moves) // 2)
    high = (cells + 1 - moves) // 2
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and low // 2 < middle:
            middle = low // 2
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
        result = _negamax(
            current, mask, moves, middle, middle + 1, rows, cols, bottom, board, tables, budget
        )
        if budget[0] < 0:
            return 0
        if result <= middle:
            high = result
        else:
            low = result
    return low


@njit(cache=True)
def _at_most(current, mask, moves, bound, rows, cols, tables, budget):
    """Whether the score of the position (for its player to move) is at most ``bound``: one
    null-window search, far cheaper than the exact score."""
    bottom, board = board_masks(rows, cols)
    cells = rows * cols
    if moves == cells:
        return bound >= 0
    if _winning(current, mask, rows, board) & ((mask + bottom) & board) != _ZERO:
        return (cells + 1 - moves) // 2 <= bound
    result = _negamax(
        current, mask, moves, bound, bound + 1, rows, cols, bottom, board, tables, budget
    )
    return result <= bound


class Connect4Solver:
    """Exact scores of Connect Four positions (four in a row, gravity; 6 x 7 by default).

    The transposition table is kept between calls, so related positions (the children of one
    position, the next move of the same game) are solved faster together.

    Args:
        rows: Board height.
        cols: Board width; ``(rows + 1) * cols`` must be at most 64.
        table_size: Entries of the transposition table (9 bytes each; the default 2**23 is
            about 75 MB, touched as it fills).
    """

    def __init__(self, rows: int = 6, cols: int = 7, table_size: int = TABLE_SIZE) -> None:
        if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 1 or cols < 1:
            raise ValueError(f"rows and cols must be positive ints, got {rows!r} x {cols!r}")
        if (rows + 1) * cols > 64:
            raise ValueError(f"a {rows} x {cols} board does not fit 64 bits: (rows + 1) * cols")
        if isinstance(table_size, bool) or not isinstance(table_size, int) or table_size < 1:
            raise ValueError(f"table_size must be an int >= 1, got {table_size!r}")
        self.rows = rows
        self.cols = cols
        self._tables = (
            np.zeros(table_size, dtype=np.uint64),
            np.zeros(table_size, dtype=np.int8),
            np.zeros((rows * cols + 1, cols), dtype=np.uint64),
            np.zeros((rows * cols + 1, cols), dtype=np.int64),
        )

    def _position(self, moves: Sequence[int]) -> tuple[np.uint64, np.uint64, int]:
        """``(current, mask, count)`` after ``moves`` (0-based columns)."""
        rows, cols = self.rows, self.cols
        height = rows + 1
        current, mask = 0, 0
        heights = [0] * cols
        for i, column in enumerate(moves):
            column = int(column)
            if not 0 <= column < cols or heights[column] == rows:
                raise ValueError(f"move {i} ({column}) is not a legal column here")
            bit = 1 << (column * height + heights[column])
            heights[column] += 1
            current ^= mask
            mask |= bit
            if _has_four(current ^ mask, height):  # the player who just moved
                raise ValueError(f"the game is over after move {i} of {list(moves)}")
        return np.uint64(current), np.uint64(mask), len(moves)

    def solve(self, moves: Sequence[int]) -> int:
        """The score for the player to move after ``moves`` (0-based columns).

        Raises:
            ValueError: an illegal move, a finished game or a full board.
        """
        current, mask, count = self._position(moves)
        if count == self.rows * self.cols:
            raise ValueError("the board is full")
        budget = np.array([UNLIMITED], dtype=np.int64)
        return int(_solve(current, mask, count, self.rows, self.cols, self._tables, budget))

    def move_scores(self, moves: Sequence[int]) -> dict[int, int]:
        """``{column: score for the player to move if they play there}`` for every legal
        column (a win at once scores ``(rows * cols + 1 - len(moves)) // 2``)."""
        current, mask, count = self._position(moves)
        columns = [c for c in range(self.cols) if sum(1 for m in moves if int(m) == c) < self.rows]
        scores, _ = self.scores_within(int(current), int(mask), count, columns, UNLIMITED)
        return scores

    def best_move(self, moves: Sequence[int]) -> tuple[int, int]:
        """The best move after ``moves`` (0-based columns) and its score: the highest score
        (the fastest win, the slowest loss); among equals the column nearest the centre, the
        left one first. Only the best move's score is exact: each other move is only checked
        to be no better (a null-window search), so this is several times faster than
        :meth:`move_scores`.

        Raises:
            ValueError: an illegal move, a finished game or a full board.
        """
        current, mask, count = self._position(moves)
        return self.best_move_of(int(current), int(mask), count)

    def best_move_of(self, current: int, mask: int, moves: int) -> tuple[int, int]:
        """:meth:`best_move` of a position given as bitboards (see :meth:`scores_within`).

        Raises:
            ValueError: a full board.
        """
        rows, cols = self.rows, self.cols
        if moves >= rows * cols:
            raise ValueError("the board is full")
        height = rows + 1
        column_bits = (1 << rows) - 1
        centre_first = sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))
        legal = [c for c in centre_first if mask & (1 << (c * height + rows - 1)) == 0]
        if _mirror(mask, rows, cols) == mask and _mirror(current, rows, cols) == current:
            legal = [c for c in legal if 2 * c <= cols - 1]  # the mirror image scores the same
        bottom, board = board_masks(rows, cols)
        win_now = int(
            _winning(np.uint64(current), np.uint64(mask), rows, board)
            & ((np.uint64(mask) + bottom) & board)
        )
        for column in legal:
            if win_now & (column_bits << (column * height)):
                return column, (rows * cols + 1 - moves) // 2
        budget = np.array([UNLIMITED], dtype=np.int64)
        best, best_score = (
            legal[0],
            self.scores_within(current, mask, moves, legal[:1], UNLIMITED)[0][legal[0]],
        )
        for column in legal[1:]:
            move = (mask + int(bottom)) & (column_bits << (column * height))
            child = (np.uint64(current ^ mask), np.uint64(mask | move), moves + 1)
            if _at_most(*child, -best_score - 1, rows, cols, self._tables, budget):
                best, best_score = (
                    column,
                    self.scores_within(current, mask, moves, [column], UNLIMITED)[0][column],
                )
        return best, best_score

    def scores_within(
        self, current: int, mask: int, moves: int, columns: Sequence[int], nodes: int
    ) -> tuple[dict[int, int], int]:
        """Scores of the given moves of a position, as far as ``nodes`` search nodes go.

        Args:
            current: The bitboard of the player to move (bit ``c * (rows + 1) + h`` is the
                stone at height ``h`` of column ``c``).
            mask: The bitboard of every stone.
            moves: Stones on the board.
            columns: The columns to score, in this order (each must have room).
            nodes: The node budget shared by all of them.

        Returns:
            ``({column: score for the player to move if they play there}`` for the columns
            solved before the budget ran out, nodes used).
        """
        rows, cols = self.rows, self.cols
        bottom, board = board_masks(rows, cols)
        current, mask = np.uint64(current), np.uint64(mask)
        win_now = _winning(current, mask, rows, board) & ((mask + bottom) & board)
        column_bits = (1 << rows) - 1
        budget = np.array([nodes], dtype=np.int64)
        scores: dict[int, int] = {}
        for column in columns:
            move = np.uint64((int(mask) + int(bottom)) & (column_bits << (column * (rows + 1))))
            if move == _ZERO:
                raise ValueError(f"column {column} is full")
            if win_now & move != _ZERO:
                scores[column] = (rows * cols + 1 - moves) // 2
                continue
            if moves + 1 == rows * cols:
                scores[column] = 0
                continue
            child = _solve(current ^ mask, mask | move, moves + 1, rows, cols, self._tables, budget)
            if budget[0] < 0:
                break
            scores[column] = -int(child)
        return scores, int(nodes - max(int(budget[0]), 0))


def _mirror(bits: int, rows: int, cols: int) -> int:
    """The bitboard of the board's mirror image (column ``c`` becomes ``cols - 1 - c``)."""
    height = rows + 1
    column_bits = (1 << height) - 1
    mirrored = 0
    for column in range(cols):
        mirrored |= ((bits >> (column * height)) & column_bits) << ((cols - 1 - column) * height)
    return mirrored


def _has_four(bits: int, height: int) -> bool:
    for step in (1, height, height - 1, height + 1):
        pair = bits & (bits >> step)
        if pair & (pair >> 2 * step):
            return True
    return False


def _wins(moves: Sequence[int], rows: int, cols: int) -> bool:
    """True if the last of ``moves`` completes four."""
    height = rows + 1
    heights = [0] * cols
    stones = [0, 0]
    for i, column in enumerate(moves):
        stones[i % 2] |= 1 << (int(column) * height + heights[int(column)])
        heights[int(column)] += 1
    return _has_four(stones[(len(moves) - 1) % 2], height)


def parse_columns(text: str) -> list[int]:
    """``"4453"`` (1-based columns, as in Pons' test sets) -> ``[3, 3, 4, 2]``."""
    if not text.isdigit():
        raise ValueError(f"expected digits 1-9 naming columns, got {text!r}")
    return [int(ch) - 1 for ch in text]
