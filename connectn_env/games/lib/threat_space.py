"""A threat-space solver of k-in-a-row placement games without gravity (Gomoku), behind the
game-independent :class:`~connectn_env.games.game.ExactSolver` interface (the search agents'
``exact`` option): it proves the moves that win or lose by a sequence of threats.

A *threat* of a player is an empty cell where their stone completes a line; a *four* is a
move that makes one; a *three* is a move after which the player has a move that makes two
threats at once (an open four, a double four, a four-three). The attacker plays only fours
and threes:

- after a four the defender, with no line of their own to complete, must fill the threat
  (two threats at once cannot both be filled); where that block makes a threat of the
  defender, the attacker must fill it, and goes on only if that is a four or a three;
- after a three the defender has few replies that do not lose at once: their own fours, and
  the cells of the attacker's lines with ``n - 2`` stones after which the attacker has no
  double threat left. Any other move loses (the attacker makes two threats; the defender has
  none to answer with), so the attacker must win against each of these replies.

Every defence is searched, so a line found is a proven win: the solver proves a root move
won when the mover's threat sequence follows it and lost when the opponent has one after it
(victory by continuous fours, VCF, and by continuous threats, VCT, in Gomoku's terms).
Every other move is left to the search; quiet moves are never part of a line, so the solver misses
wins that need one. If the opponent has no sequence even with a free move, no root move is
searched for a loss (a stone of the mover only takes lines away).

The search is a depth-first AND-OR search on an explicit stack (numba's cache does not keep
recursive functions safely), deepened two plies at a time over all root moves (the shortest
lines are found first), with a transposition table of the nodes shown to fail within a depth
(kept between calls). Line windows keep each player's stone counts, so a move updates the
``4 n`` windows through its cell and threats are read from the counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from connectn_env.games.lib.header import H_PLAYER, HEADER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import EMPTY, line_steps, line_through, padded_index
from connectn_env.games.state import GameState

TABLE_SIZE = 1 << 18  # entries of the failed-node table (full keys: any size is exact)
_MIX = np.uint64(0x9E3779B97F4A7C15)
# told apart in the table: the attacker (0, 1), plus 2 for a defender's node
_NODE_KEYS = np.array(
    [0x5851F42D4C957F2D, 0x14057B7EF767814F, 0x2545F4914F6CDD1D, 0x61C8864680B583EB],
    dtype=np.uint64,
)
_FAILED = -1  # no threat sequence within the depth (or the budget ran out: see M_OUT)
_EXHAUSTED = 1 << 30  # the depth stored for a node without any threat sequence

# meta (int64): search counters
M_NODES = 0  # nodes visited
M_BUDGET = 1  # nodes allowed
M_OUT = 2  # 1 once the budget is spent
M_CUT = 3  # 1 if the depth limit cut a line in the current subtree
M_EPOCH = 4  # stamp of the current cell set
NUM_META = 5

# frames of the search's stack (int64 rows)
F_DEPTH = 0
F_DEFENDING = 1
F_COUNT = 2  # candidates of the node
F_NEXT = 3  # the candidate being searched
F_BEST = 4
F_SLOT = 5  # table slot
F_OUTER_CUT = 6  # M_CUT of the caller
F_BLOCK = 7  # the defender's forced block after the current candidate, or -1
NUM_FRAME_FIELDS = 8
_OPEN = -2  # a node opened on the stack

# outcomes of one move's search
R_UNKNOWN = 0
R_NONE = 1  # searched to the end: no threat sequence either way
R_WIN = 2
R_LOSS = 3


def line_windows(rows: int, cols: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every window of ``n`` cells in a row of a padded board, and the windows through each
    padded index.

    Returns:
        ``(windows, starts, members)``: ``windows[w]`` the padded indices of window ``w``;
        the windows through padded index ``p`` are ``members[starts[p]:starts[p + 1]]``.
    """
    width = cols + 1
    windows = []
    for step, dr, dc in zip(line_steps(width), (0, 1, 1, 1), (1, 0, 1, -1), strict=True):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (n - 1), c + dc * (n - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    first = padded_index(r, c, cols)
                    windows.append([first + i * step for i in range(n)])
    windows_array = np.array(windows, dtype=np.int64).reshape(-1, n)
    size = (rows + 2) * width + 1
    through: list[list[int]] = [[] for _ in range(size)]
    for w, cells in enumerate(windows_array):
        for pad in cells:
            through[int(pad)].append(w)
    starts = np.zeros(size + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(t) for t in through])
    members = np.array([w for t in through for w in t], dtype=np.int64)
    return windows_array, starts, members


@njit(cache=True)
def _place(ctx, pad, player):
    board, counts, starts, members, keys, key = ctx[0], ctx[1], ctx[3], ctx[4], ctx[5], ctx[6]
    board[pad] = player + 1
    for i in range(starts[pad], starts[pad + 1]):
        counts[members[i], player] += 1
    key[0] ^= keys[player, pad]


@njit(cache=True)
def _lift(ctx, pad, player):
    board, counts, starts, members, keys, key = ctx[0], ctx[1], ctx[3], ctx[4], ctx[5], ctx[6]
    board[pad] = EMPTY
    for i in range(starts[pad], starts[pad + 1]):
        counts[members[i], player] -= 1
    key[0] ^= keys[player, pad]


@njit(cache=True)
def _new_epoch(ctx):
    meta = ctx[12]
    meta[M_EPOCH] += 1
    return meta[M_EPOCH]


@njit(cache=True, inline="always")
def _live(counts, w, player, stones):
    """Whether window ``w`` holds ``stones`` stones of ``player`` and none of the opponent."""
    return counts[w, player] == stones and counts[w, 1 - player] == 0


@njit(cache=True)
def _makes_threat(board, pad, other, player, width, n, exact):
    """Whether ``player``'s stone on ``pad`` makes ``other`` a threat of theirs."""
    board[pad] = player + 1
    board[other] = player + 1
    wins = line_through(board, other, player + 1, width, n, exact) != 0
    board[other] = EMPTY
    board[pad] = EMPTY
    return wins


@njit(cache=True)
def _empty_pair(board, windows, w):
    """The two empty cells of window ``w`` (one with ``n - 2`` stones of one player)."""
    first = -1
    second = -1
    for i in range(windows.shape[1]):
        pad = windows[w, i]
        if board[pad] == EMPTY:
            if first < 0:
                first = pad
            else:
                second = pad
    return first, second


@njit(cache=True)
def _threats(ctx, player, width, exact, out):
    """The distinct threats of ``player`` into ``out``; returns how many."""
    board, counts, windows, stamp = ctx[0], ctx[1], ctx[2], ctx[9]
    n = windows.shape[1]
    epoch = _new_epoch(ctx)
    found = 0
    for w in range(windows.shape[0]):
        if not _live(counts, w, player, n - 1):
            continue
        for i in range(n):
            pad = windows[w, i]
            if board[pad] == EMPTY:
                break
        if stamp[0, pad] == epoch:
            continue
        stamp[0, pad] = epoch
        if exact:  # an overline does not win: check the whole line
            board[pad] = player + 1
            wins = line_through(board, pad, player + 1, width, n, True) != 0
            board[pad] = EMPTY
            if not wins:
                continue
        out[found] = pad
        found += 1
    return found


@njit(cache=True)
def _fours(ctx, player, width, exact, out):
    """The distinct fours of ``player`` (moves that make a threat) into ``out``."""
    board, counts, windows, stamp = ctx[0], ctx[1], ctx[2], ctx[9]
    n = windows.shape[1]
    epoch = _new_epoch(ctx)
    found = 0
    for w in range(windows.shape[0]):
        if not _live(counts, w, player, n - 2):
            continue
        first, second = _empty_pair(board, windows, w)
        for pad, other in ((first, second), (second, first)):
            if stamp[0, pad] != epoch and _makes_threat(board, pad, other, player, width, n, exact):
                stamp[0, pad] = epoch
                out[found] = pad
                found += 1
    return found


@njit(cache=True)
def _other_threat(ctx, player, pad, threat, width, exact):
    """Whether ``player``'s stone on ``pad`` makes a threat other than ``threat``."""
    board, counts, windows, starts, members = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    n = windows.shape[1]
    for i in range(starts[pad], starts[pad + 1]):
        w = members[i]
        if not _live(counts, w, player, n - 2):
            continue
        first, second = _empty_pair(board, windows, w)
        other = second if first == pad else first
        if other != threat and _makes_threat(board, pad, other, player, width, n, exact):
            return True
    return False


@njit(cache=True)
def _double_threat_through(ctx, player, cell, width, exact):
    """Whether ``player`` has a move that makes two threats at once using a line through
    ``cell``."""
    board, counts, windows, starts, members = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    n = windows.shape[1]
    for i in range(starts[cell], starts[cell + 1]):
        w = members[i]
        if not _live(counts, w, player, n - 2):
            continue
        first, second = _empty_pair(board, windows, w)
        for pad, other in ((first, second), (second, first)):
            if _makes_threat(board, pad, other, player, width, n, exact) and _other_threat(
                ctx, player, pad, other, width, exact
            ):
                return True
    return False


@njit(cache=True)
def _has_double_threat(ctx, player, width, exact):
    """Whether ``player`` has a move that makes two threats at once."""
    board, counts, windows, stamp, first_threat = ctx[0], ctx[1], ctx[2], ctx[9], ctx[10]
    n = windows.shape[1]
    epoch = _new_epoch(ctx)
    for w in range(windows.shape[0]):
        if not _live(counts, w, player, n - 2):
            continue
        first, second = _empty_pair(board, windows, w)
        for pad, other in ((first, second), (second, first)):
            if not _makes_threat(board, pad, other, player, width, n, exact):
                continue
            if stamp[1, pad] != epoch:
                stamp[1, pad] = epoch
                first_threat[pad] = other
            elif first_threat[pad] != other:
                return True
    return False


@njit(cache=True)
def _attacks(ctx, player, width, exact, threes, out):
    """The attacker's candidate moves into ``out``: their fours, then (if ``threes``) the
    moves after which they have a move that makes two threats at once."""
    board, counts, windows, stamp = ctx[0], ctx[1], ctx[2], ctx[9]
    n = windows.shape[1]
    found = _fours(ctx, player, width, exact, out)
    if not threes:
        return found
    epoch = _new_epoch(ctx)
    for i in range(found):
        stamp[0, out[i]] = epoch
    for w in range(windows.shape[0]):
        if not _live(counts, w, player, n - 3):
            continue
        for i in range(n):
            pad = windows[w, i]
            if board[pad] != EMPTY or stamp[0, pad] == epoch:
                continue
            stamp[0, pad] = epoch
            _place(ctx, pad, player)
            if _double_threat_through(ctx, player, pad, width, exact):
                out[found] = pad
                found += 1
            _lift(ctx, pad, player)
    return found


@njit(cache=True)
def _defences(ctx, attacker, width, exact, out):
    """The defender's candidate replies to a three into ``out``: their fours, then the
    moves after which the attacker has no move that makes two threats at once (every other
    move loses: the attacker makes two threats and the defender has none)."""
    board, counts, windows, stamp = ctx[0], ctx[1], ctx[2], ctx[9]
    n = windows.shape[1]
    defender = 1 - attacker
    found = _fours(ctx, defender, width, exact, out)
    epoch = _new_epoch(ctx)
    for i in range(found):
        stamp[0, out[i]] = epoch
    for w in range(windows.shape[0]):
        if not _live(counts, w, attacker, n - 2):
            continue
        for pad in _empty_pair(board, windows, w):
            if stamp[0, pad] == epoch:
                continue
            stamp[0, pad] = epoch
            _place(ctx, pad, defender)
            if not _has_double_threat(ctx, attacker, width, exact):
                out[found] = pad
                found += 1
            _lift(ctx, pad, defender)
    return found


@njit(cache=True)
def _table_slot(table_keys, key):
    return np.int64((key * _MIX) >> np.uint64(32)) % table_keys.shape[0]


@njit(cache=True)
def _open(ctx, frames, sp, attacker, depth, defending, width, exact):
    """Enter a node: its value if it is decided at once (plies to the attacker's win, or
    ``_FAILED``), else ``_OPEN`` with frame ``sp`` set up and its candidates listed."""
    board, table_keys, table_depths, scratch, meta = ctx[0], ctx[7], ctx[8], ctx[11], ctx[12]
    meta[M_NODES] += 1
    if meta[M_NODES] > meta[M_BUDGET]:
        meta[M_OUT] = 1
        return _FAILED
    cells = board.shape[0]
    level = scratch[depth * cells : (depth + 1) * cells]
    if defending:
        if depth < 4:
            meta[M_CUT] = 1
            return _FAILED
        if not _has_double_threat(ctx, attacker, width, exact):
            return _FAILED  # the attacker threatens nothing
    else:
        if _threats(ctx, attacker, width, exact, level) > 0:
            return 1
        if depth < 3:
            meta[M_CUT] = 1
            return _FAILED
    position = ctx[6][0] ^ _NODE_KEYS[attacker + 2 * defending]
    slot = _table_slot(table_keys, position)
    if table_keys[slot] == position and table_depths[slot] >= depth:
        if table_depths[slot] != _EXHAUSTED:
            meta[M_CUT] = 1
        return _FAILED
    if defending:
        count = _defences(ctx, attacker, width, exact, level)
        if count == 0:
            return 4  # any move; the attacker makes two threats; a block; the win
    else:
        blocks = _threats(ctx, 1 - attacker, width, exact, level)
        if blocks > 1:
            return _FAILED
        count = 1 if blocks == 1 else _attacks(ctx, attacker, width, exact, depth >= 5, level)
    frames[F_DEPTH, sp] = depth
    frames[F_DEFENDING, sp] = defending
    frames[F_COUNT, sp] = count
    frames[F_NEXT, sp] = 0
    frames[F_BEST, sp] = 0 if defending else _FAILED
    frames[F_SLOT, sp] = slot
    frames[F_OUTER_CUT, sp] = meta[M_CUT]
    frames[F_BLOCK, sp] = -1
    meta[M_CUT] = 1 if not defending and depth < 5 else 0  # threes need five plies
    return _OPEN


@njit(cache=True)
def _search(ctx, attacker, depth, defending, width, exact):
    """Plies to the attacker's win by a threat sequence of at most ``depth`` plies, or
    ``_FAILED``: the attacker to move, or (``defending``) the defender, after a three of the
    attacker (no threats on the board). A depth-first AND-OR search on an explicit stack of
    frames (one per node on the path; depth falls at every level)."""
    board, table_keys, table_depths, scratch, meta, frames = (
        ctx[0], ctx[7], ctx[8], ctx[11], ctx[12], ctx[13]
    )  # fmt: skip
    defender = 1 - attacker
    cells = board.shape[0]
    value = _open(ctx, frames, 0, attacker, depth, defending, width, exact)
    if value != _OPEN:
        return value
    sp = 0
    returned = False  # whether ``value`` is the result of frame sp's current child
    while True:
        depth = frames[F_DEPTH, sp]
        level = scratch[depth * cells : (depth + 1) * cells]
        finished = False
        if returned:  # take the child's stones back and count its value
            pad = level[frames[F_NEXT, sp]]
            if frames[F_DEFENDING, sp] == 1:
                _lift(ctx, pad, defender)
                if value == _FAILED:
                    frames[F_BEST, sp] = _FAILED
                    finished = True
                else:
                    frames[F_BEST, sp] = max(frames[F_BEST, sp], value + 1)
            else:
                offset = 1
                if frames[F_BLOCK, sp] >= 0:
                    _lift(ctx, frames[F_BLOCK, sp], defender)
                    frames[F_BLOCK, sp] = -1
                    offset = 2
                _lift(ctx, pad, attacker)
                if value != _FAILED:
                    frames[F_BEST, sp] = value + offset
                    finished = True
            finished = finished or meta[M_OUT] == 1
            frames[F_NEXT, sp] += 1
            returned = False
        while not finished:  # open the next child
            i = frames[F_NEXT, sp]
            if i == frames[F_COUNT, sp]:
                finished = True
                break
            pad = level[i]
            if frames[F_DEFENDING, sp] == 1:
                _place(ctx, pad, defender)
                child_depth, child_defending = depth - 1, False
            else:
                _place(ctx, pad, attacker)
                reply = scratch[(depth - 1) * cells : depth * cells]
                made = _threats(ctx, attacker, width, exact, reply)
                if made > 1:
                    _lift(ctx, pad, attacker)
                    frames[F_BEST, sp] = 3
                    finished = True
                    break
                if made == 1:
                    frames[F_BLOCK, sp] = reply[0]
                    _place(ctx, reply[0], defender)
                    child_depth, child_defending = depth - 2, False
                elif depth >= 5:
                    child_depth, child_defending = depth - 1, True
                else:
                    _lift(ctx, pad, attacker)
                    meta[M_CUT] = 1
                    frames[F_NEXT, sp] += 1
                    continue
            value = _open(ctx, frames, sp + 1, attacker, child_depth, child_defending, width,
                          exact)  # fmt: skip
            if value == _OPEN:
                sp += 1
                break
            returned = True
            break
        if not finished:
            continue
        # close frame sp
        value = frames[F_BEST, sp]
        if value == _FAILED and meta[M_OUT] == 0:
            slot = frames[F_SLOT, sp]
            table_keys[slot] = ctx[6][0] ^ _NODE_KEYS[attacker + 2 * frames[F_DEFENDING, sp]]
            table_depths[slot] = depth if meta[M_CUT] == 1 else _EXHAUSTED
        meta[M_CUT] |= frames[F_OUTER_CUT, sp]
        if sp == 0:
            return value
        sp -= 1
        returned = True


@njit(cache=True)
def _mover_wins(ctx, mover, depth, width, exact):
    """After a stone of ``mover`` (the opponent to move): plies to the mover's win by
    threats within ``depth`` plies, or ``_FAILED``."""
    cells = ctx[0].shape[0]
    threats = ctx[11][depth * cells : (depth + 1) * cells]
    made = _threats(ctx, mover, width, exact, threats)
    if made > 1:
        return 2
    if made == 1:
        block = threats[0]
        _place(ctx, block, 1 - mover)
        won = _search(ctx, mover, depth - 1, False, width, exact)
        _lift(ctx, block, 1 - mover)
        return _FAILED if won == _FAILED else won + 1
    return _search(ctx, mover, depth, True, width, exact)


@njit(cache=True)
def _solve_move(ctx, pad, mover, depth, check_loss, width, exact):
    """``(outcome, plies after the move)`` of ``mover``'s stone on ``pad`` with threat
    sequences of at most ``depth`` plies after it (``R_UNKNOWN`` if a line was cut or the
    budget ran out). ``check_loss`` False: the opponent is known to have no threat sequence
    even with a free move (the mover's stone can only take lines away)."""
    meta = ctx[12]
    n = ctx[2].shape[1]
    _place(ctx, pad, mover)
    outcome, plies = R_UNKNOWN, 0
    meta[M_CUT] = 0
    if line_through(ctx[0], pad, mover + 1, width, n, exact) != 0:
        outcome = R_WIN
    else:
        lost = _search(ctx, 1 - mover, depth, False, width, exact) if check_loss else _FAILED
        if lost != _FAILED:
            outcome, plies = R_LOSS, lost
        elif meta[M_OUT] == 0:
            won = _mover_wins(ctx, mover, depth, width, exact)
            if won != _FAILED:
                outcome, plies = R_WIN, won
            elif meta[M_CUT] == 0 and meta[M_OUT] == 0:
                outcome = R_NONE
    _lift(ctx, pad, mover)
    return outcome, plies


@njit(cache=True)
def _deepening(ctx, attacker, max_depth, width, exact):
    """The attacker to move: ``(plies to their win or _FAILED, whether decided)``, deepening
    until decided, ``max_depth`` or the end of the budget."""
    meta = ctx[12]
    depth = 3
    while meta[M_OUT] == 0:
        meta[M_CUT] = 0
        won = _search(ctx, attacker, depth, False, width, exact)
        if won != _FAILED:
            return won, True
        if meta[M_CUT] == 0 and meta[M_OUT] == 0:
            return _FAILED, True
        if depth >= max_depth:
            break
        depth = min(depth + 2, max_depth)
    return _FAILED, False


@njit(cache=True)
def _solve_moves(ctx, pads, mover, max_depth, width, exact, outcomes, plies):
    """Solve ``pads`` by deepening (3, 5, ... plies, every move undecided at one depth tried
    at the next: the shortest lines are found first) until each is decided, the depth reaches
    ``max_depth`` or the budget runs out; fills ``outcomes`` and ``plies``."""
    meta = ctx[12]
    for i in range(pads.shape[0]):
        outcomes[i] = R_UNKNOWN
    # the opponent without a threat sequence even with a free move: no move of ours loses
    free_move, decided = _deepening(ctx, 1 - mover, max_depth, width, exact)
    check_loss = not (decided and free_move == _FAILED)
    depth = 3
    undecided = pads.shape[0]
    while undecided > 0 and meta[M_OUT] == 0:
        for i in range(pads.shape[0]):
            if outcomes[i] != R_UNKNOWN:
                continue
            outcome, length = _solve_move(ctx, pads[i], mover, depth, check_loss, width, exact)
            if meta[M_OUT] == 1:
                break
            if outcome != R_UNKNOWN:
                outcomes[i] = outcome
                plies[i] = length
                undecided -= 1
        if depth >= max_depth:
            break
        depth = min(depth + 2, max_depth)


class ThreatSpaceSolver:
    """Proven root moves of a k-in-a-row placement game without gravity by threat sequences
    (see the module docstring); moves it settles without a proof come back as None.

    Args:
        rows: Board height.
        cols: Board width.
        n: Stones in a row that win.
        exact: Exactly ``n`` wins (an overline does not).
        table_size: Entries of the failed-node table (16 bytes each).
    """

    def __init__(
        self, rows: int, cols: int, n: int, *, exact: bool, table_size: int = TABLE_SIZE
    ) -> None:
        self.rows, self.cols, self.n, self.exact = rows, cols, n, exact
        self._windows, self._starts, self._members = line_windows(rows, cols, n)
        size = self._starts.shape[0] - 1
        self._keys = np.random.default_rng(0x7A11).integers(
            0, 2**63, size=(2, size), dtype=np.int64
        ).astype(np.uint64) * np.uint64(2) + np.uint64(1)
        self._table_keys = np.zeros(table_size, dtype=np.uint64)
        self._table_depths = np.zeros(table_size, dtype=np.int64)
        self._stamp = np.zeros((2, size), dtype=np.int64)  # marks of the cell scans
        self._first_threat = np.zeros(size, dtype=np.int64)
        self._max_depth = rows * cols  # no threat sequence is longer than the board
        self._scratch = np.zeros((self._max_depth + 2) * size, dtype=np.int64)
        self._frames = np.zeros((NUM_FRAME_FIELDS, self._max_depth + 2), dtype=np.int64)

    def reaches(self, state: GameState) -> bool:
        """Always: a quiet position (no fours or threes) costs about a node per move."""
        return True

    def solve_moves(
        self, state: GameState, actions: Sequence[int], nodes: int
    ) -> tuple[dict[int, tuple[int, int] | None], int]:
        """See :meth:`connectn_env.games.game.ExactSolver.solve_moves`; an action mapped to
        None has no threat sequence of either side after it (nothing to prove).

        Raises:
            ValueError: an action that is not legal in ``state`` (nothing is searched).
        """
        legal = state.legal_action_mask()
        for action in actions:
            if not (0 <= int(action) < legal.shape[0] and legal[int(action)]):
                raise ValueError(
                    f"action {action!r} is not legal here; legal actions: "
                    f"{np.flatnonzero(legal).tolist()}"
                )
        if not actions:
            return {}, 0
        cols, size = self.cols, self._stamp.shape[1]
        board = np.array(state.data[HEADER : HEADER + size], dtype=np.int32)
        counts = np.zeros((self._windows.shape[0], 2), dtype=np.int64)
        key = np.zeros(1, dtype=np.uint64)
        for player in (0, 1):
            stones = board[self._windows] == player + 1
            counts[:, player] = stones.sum(axis=1)
            key[0] = np.bitwise_xor.reduce(self._keys[player][board == player + 1], initial=key[0])
        pads = np.array([padded_index(a // cols, a % cols, cols) for a in actions], dtype=np.int64)
        meta = np.zeros(NUM_META, dtype=np.int64)
        meta[M_BUDGET] = nodes
        meta[M_EPOCH] = self._stamp.max()
        outcomes = np.zeros(len(actions), dtype=np.int64)
        plies = np.zeros(len(actions), dtype=np.int64)
        ctx = (board, counts, self._windows, self._starts, self._members, self._keys, key,
               self._table_keys, self._table_depths, self._stamp, self._first_threat,
               self._scratch, meta, self._frames)  # fmt: skip
        _solve_moves(
            ctx, pads, int(state.data[H_PLAYER]), self._max_depth, cols + 1, self.exact,
            outcomes, plies,
        )  # fmt: skip
        solved: dict[int, tuple[int, int] | None] = {}
        for action, outcome, length in zip(actions, outcomes, plies, strict=True):
            if outcome == R_WIN:
                solved[int(action)] = (1, int(length))
            elif outcome == R_LOSS:
                solved[int(action)] = (-1, int(length))
            elif outcome == R_NONE:
                solved[int(action)] = None
        return solved, int(min(meta[M_NODES], nodes))
