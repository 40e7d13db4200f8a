"""Tactics (see :mod:`~connectn_env.games.tactics`) of the k-in-a-row placement games on a
padded board: Gomoku, tic-tac-toe and the m,n,k-games (:data:`TACTICS`), and Connect-N with
gravity on boards too large for bitboards (:data:`GRAVITY_TACTICS`: columns, each tried).

Without gravity a roll-out keeps, move by move: the list of empty cells, the list of empty
cells next to a stone (``LOCAL``), and each player's *threats*, the empty cells where a stone
of theirs completes a line (``DECISIVE``). A move can only create threats on the four lines
through it, so a threat list grows by a short walk per move and loses cells only when they
are filled (checked when read).

Tree expansion with ``DECISIVE`` reads every window of ``n`` cells once: a window holding
``n - 1`` stones of a player and an empty cell makes that cell a threat; one holding ``n - 2``
stones and two empty cells (a *three* in Gomoku) makes each empty cell a four-making move,
and a cell that makes two different threats at once (an open four, or two fours) is a move
the other side must prevent. The node keeps, in this order of precedence: the winning moves;
the moves that stop the opponent's win; the moves after which the opponent can no longer make
two threats at once (the defences against an open three), together with the player's own
four-making moves; else the cells near the stones (``LOCAL``) or every empty cell.
"""

from __future__ import annotations

import numpy as np

from connectn_env.games.codes import DRAW, ONGOING
from connectn_env.games.contract import compiled_kernel
from connectn_env.games.lib.header import H_OUTCOME, H_PLAYER, HEADER
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.lines import EMPTY, line_through
from connectn_env.games.lib.placement import (
    P_COLS,
    P_EXACT,
    P_HEIGHTS,
    P_N,
    P_ROWS,
    apply,
    legal_actions,
)
from connectn_env.games.lib.rng import random_below
from connectn_env.games.tactics import DECISIVE, LOCAL, Tactics

ROLLOUT_RADIUS = 1  # LOCAL roll-outs draw among the empty cells next to a stone
EXPANSION_RADIUS = 2  # LOCAL tree nodes get the empty cells within two steps of a stone

# counters
C_FREE = 0
C_NEAR = 1
C_THREATS = 2  # and 3: each player's threat list length
C_FLAGS = 4
C_EPOCH = 5
C_PAIRS = 6  # and 7: each player's pair windows (expansion)
NUM_COUNTERS = 8


@njit(cache=True)
def _pad(cols, action):
    """Padded board index (relative to the board's start) of cell ``action``."""
    return (action // cols + 1) * (cols + 1) + action % cols + 1


@njit(cache=True)
def _action(cols, pad):
    width = cols + 1
    return (pad // width - 1) * cols + pad % width - 1


@njit(cache=True)
def _run(board, pad, step, stone):
    """Stones ``stone`` in a row from ``pad + step`` on, in the direction ``step``."""
    length = 0
    pad += step
    while board[pad] == stone:
        length += 1
        pad += step
    return length


@njit(cache=True)
def wins_at(params, board, pad, player):
    """True if a stone of ``player`` on the empty cell ``pad`` completes a line."""
    board[pad] = player + 1
    won = line_through(
        board, pad, player + 1, params[P_COLS] + 1, params[P_N], params[P_EXACT] == 1
    )
    board[pad] = EMPTY
    return won != 0


@compiled_kernel
def new_workspace(kernels, params, state, num_actions):
    """Work arrays of roll-outs and expansions."""
    cells = params[P_ROWS] * params[P_COLS]
    return (
        np.empty(cells, dtype=np.int64),  # free: empty cells (columns with gravity)
        np.full(cells, -1, dtype=np.int64),  # where each cell is in free
        np.empty(cells, dtype=np.int64),  # near: empty cells next to a stone
        np.full(cells, -1, dtype=np.int64),  # where each cell is in near
        np.empty((2, cells), dtype=np.int64),  # threats of each player
        np.zeros((2, cells), dtype=np.int8),  # whether a cell is in a player's threat list
        np.zeros(NUM_COUNTERS, dtype=np.int64),
        np.zeros((2, cells), dtype=np.int8),  # expansion: winning cells of each player
        np.empty((2, 4 * cells, 2), dtype=np.int64),  # expansion: pair windows
        np.zeros(cells, dtype=np.int64),  # expansion: stamps
        np.empty(cells, dtype=np.int64),  # expansion: first partner of a cell
        np.empty(cells, dtype=np.int64),  # expansion: candidate defences
    )


@njit(cache=True)
def _add_near(params, state, tws, pad, radius):
    """Put the empty cells within ``radius`` of ``pad`` into the near list."""
    near, near_where, counters = tws[2], tws[3], tws[6]
    rows, cols = params[P_ROWS], params[P_COLS]
    width = cols + 1
    row, col = pad // width - 1, pad % width - 1
    for r in range(max(0, row - radius), min(rows, row + radius + 1)):
        for c in range(max(0, col - radius), min(cols, col + radius + 1)):
            action = r * cols + c
            if near_where[action] < 0 and state[HEADER + (r + 1) * width + c + 1] == EMPTY:
                near_where[action] = counters[C_NEAR]
                near[counters[C_NEAR]] = action
                counters[C_NEAR] += 1


@njit(cache=True)
def _remove(items, where, counters, slot, action):
    """Swap-remove ``action`` from a list kept with its index array."""
    index = where[action]
    if index < 0:
        return
    last = counters[slot] - 1
    moved = items[last]
    items[index] = moved
    where[moved] = index
    where[action] = -1
    counters[slot] = last


@njit(cache=True)
def _push_threat(tws, player, action):
    threats, flagged, counters = tws[4], tws[5], tws[6]
    if flagged[player, action] == 0:
        flagged[player, action] = 1
        threats[player, counters[C_THREATS + player]] = action
        counters[C_THREATS + player] += 1


@njit(cache=True)
def _new_threats(params, state, tws, pad, player):
    """Record the threats ``player``'s new stone at ``pad`` creates (on its four lines): on
    each side, the first cell after the player's stones, if it completes a line."""
    cols = params[P_COLS]
    width = cols + 1
    n = params[P_N]
    exact = params[P_EXACT] == 1
    stone = player + 1
    for step in (1, width, width + 1, width - 1):
        for sign in (1, -1):
            other = HEADER + pad + sign * step
            while state[other] == stone:
                other += sign * step
            if state[other] != EMPTY:
                continue
            length = 1 + _run(state, other, step, stone) + _run(state, other, -step, stone)
            if length == n or (length > n and not exact):
                _push_threat(tws, player, _action(cols, other - HEADER))


@compiled_kernel
def start(kernels, params, state, tws, flags, rng, moves, players, count):
    """List the free moves, and the near cells and threats the flags ask for."""
    free, where, near_where, flagged, counters = tws[0], tws[1], tws[3], tws[5], tws[6]
    rows, cols = params[P_ROWS], params[P_COLS]
    counters[C_FLAGS] = flags
    counters[C_NEAR] = 0
    counters[C_THREATS] = 0
    counters[C_THREATS + 1] = 0
    free_count = 0
    for action in range(rows * cols):
        near_where[action] = -1
        flagged[0, action] = 0
        flagged[1, action] = 0
        if state[HEADER + _pad(cols, action)] == EMPTY:
            where[action] = free_count
            free[free_count] = action
            free_count += 1
        else:
            where[action] = -1
    counters[C_FREE] = free_count
    if flags & LOCAL:
        for action in range(rows * cols):
            pad = _pad(cols, action)
            if state[HEADER + pad] != EMPTY:
                _add_near(params, state, tws, pad, ROLLOUT_RADIUS)
    if flags & DECISIVE:
        width = cols + 1
        for i in range(free_count):
            action = free[i]
            pad = HEADER + _pad(cols, action)
            touches = 3 if params[P_N] == 1 else 0  # bit p: a stone of p is next to the cell
            for step in (1, width, width + 1, width - 1):
                for other in (pad + step, pad - step):
                    if state[other] == 1 or state[other] == 2:
                        touches |= state[other]
            for player in range(2):
                if touches & (player + 1) and wins_at(params, state, pad, player):
                    _push_threat(tws, player, action)
    return count


@compiled_kernel
def play(kernels, params, state, tws, action):
    """Place the stone (the board, the player to move and the outcome are kept; the history
    is not written) and update the lists."""
    free, where, counters = tws[0], tws[1], tws[6]
    cols = params[P_COLS]
    player = state[H_PLAYER]
    pad = _pad(cols, action)
    state[HEADER + pad] = player + 1
    state[H_PLAYER] = 1 - player
    _remove(free, where, counters, C_FREE, action)
    if line_through(state, HEADER + pad, player + 1, cols + 1, params[P_N], params[P_EXACT] == 1):
        state[H_OUTCOME] = player + 1  # Outcome.PLAYER_0_WINS / PLAYER_1_WINS
        return state[H_OUTCOME]
    if counters[C_FREE] == 0:
        state[H_OUTCOME] = DRAW
        return DRAW
    flags = counters[C_FLAGS]
    if flags & LOCAL:
        _remove(tws[2], tws[3], counters, C_NEAR, action)
        _add_near(params, state, tws, pad, ROLLOUT_RADIUS)
    if flags & DECISIVE:
        _new_threats(params, state, tws, pad, player)
    return ONGOING


@compiled_kernel
def finish(kernels, params, state, tws):
    """The outcome (``play`` always decides it)."""
    return state[H_OUTCOME]


@compiled_kernel
def random_move(kernels, params, state, tws, rng):
    """A random empty cell (with ``LOCAL``: next to a stone, if there is one)."""
    counters = tws[6]
    if counters[C_NEAR] > 0:
        return tws[2][random_below(rng, counters[C_NEAR])]
    return tws[0][random_below(rng, counters[C_FREE])]


@compiled_kernel
def winning_move(kernels, params, state, tws, player):
    """A threat of ``player`` (an empty cell where its stone completes a line), or -1."""
    cols = params[P_COLS]
    threats, flagged, counters = tws[4], tws[5], tws[6]
    exact = params[P_EXACT] == 1
    slot = C_THREATS + player
    while counters[slot] > 0:
        action = threats[player, counters[slot] - 1]
        pad = HEADER + _pad(cols, action)
        if state[pad] == EMPTY and (not exact or wins_at(params, state, pad, player)):
            return action
        counters[slot] -= 1
        flagged[player, action] = 0
    return -1


@njit(cache=True)
def _scan_windows(params, board, tws):
    """Mark each player's winning cells and list their pair windows (``n - 2`` stones and two
    empty cells, no stone of the other player)."""
    win, pairs, counters = tws[7], tws[8], tws[6]
    rows, cols, n = params[P_ROWS], params[P_COLS], params[P_N]
    width = cols + 1
    win[:, :] = 0
    counters[C_PAIRS] = 0
    counters[C_PAIRS + 1] = 0
    exact = params[P_EXACT] == 1
    for r in range(rows):
        for c in range(cols):
            start = (r + 1) * width + c + 1
            for direction in range(4):
                if direction == 0:
                    step, fits = 1, c + n <= cols
                elif direction == 1:
                    step, fits = width, r + n <= rows
                elif direction == 2:
                    step, fits = width + 1, c + n <= cols and r + n <= rows
                else:
                    step, fits = width - 1, c - n + 1 >= 0 and r + n <= rows
                if not fits:
                    continue
                count0 = 0
                count1 = 0
                empty_a = -1
                empty_b = -1
                for k in range(n):
                    value = board[start + k * step]
                    if value == 1:
                        count0 += 1
                    elif value == 2:
                        count1 += 1
                    elif empty_a < 0:
                        empty_a = start + k * step
                    else:
                        empty_b = start + k * step
                for player in range(2):
                    own, other = (count0, count1) if player == 0 else (count1, count0)
                    if other != 0:
                        continue
                    if own == n - 1:
                        if not exact or wins_at(params, board, empty_a, player):
                            win[player, _action(cols, empty_a)] = 1
                    elif own == n - 2 and n >= 3:
                        k = counters[C_PAIRS + player]
                        if k < pairs.shape[1]:
                            pairs[player, k, 0] = _action(cols, empty_a)
                            pairs[player, k, 1] = _action(cols, empty_b)
                            counters[C_PAIRS + player] = k + 1


@njit(cache=True)
def _double_threat_left(tws, player, removed):
    """True if, with a stone on ``removed`` (-1: none), some empty cell would give ``player``
    two different threats at once (from its pair windows)."""
    pairs, counters, stamp, first = tws[8], tws[6], tws[9], tws[10]
    counters[C_EPOCH] += 1
    epoch = counters[C_EPOCH]
    for k in range(counters[C_PAIRS + player]):
        a, b = pairs[player, k, 0], pairs[player, k, 1]
        if a == removed or b == removed:
            continue
        for move, partner in ((a, b), (b, a)):
            if stamp[move] != epoch:
                stamp[move] = epoch
                first[move] = partner
            elif first[move] != partner:
                return True
    return False


@njit(cache=True)
def _near_cells(params, board, tws, out):
    """The empty cells within ``EXPANSION_RADIUS`` of a stone (the centre on an empty board)."""
    stamp, counters = tws[9], tws[6]
    rows, cols = params[P_ROWS], params[P_COLS]
    width = cols + 1
    counters[C_EPOCH] += 1
    epoch = counters[C_EPOCH]
    stones = 0
    for action in range(rows * cols):
        if board[_pad(cols, action)] == EMPTY:
            continue
        stones += 1
        r, c = action // cols, action % cols
        for nr in range(max(0, r - EXPANSION_RADIUS), min(rows, r + EXPANSION_RADIUS + 1)):
            for nc in range(max(0, c - EXPANSION_RADIUS), min(cols, c + EXPANSION_RADIUS + 1)):
                stamp[nr * cols + nc] = epoch
    if stones == 0:
        out[0] = (rows // 2) * cols + cols // 2
        return 1
    count = 0
    for action in range(rows * cols):
        if stamp[action] == epoch and board[(action // cols + 1) * width + action % cols + 1] == 0:
            out[count] = action
            count += 1
    return count


@compiled_kernel
def expansion(kernels, params, state, tws, out, flags):
    """The moves of a new tree node (see the module docstring)."""
    board = state[HEADER:]
    cols = params[P_COLS]
    cells = params[P_ROWS] * cols
    if flags & DECISIVE:
        player = np.int64(state[H_PLAYER])
        _scan_windows(params, board, tws)
        win = tws[7]
        for who in (player, 1 - player):
            count = 0
            for action in range(cells):
                if win[who, action]:
                    out[count] = action
                    count += 1
            if count > 0:
                return count
        opponent = 1 - player
        if _double_threat_left(tws, opponent, -1):
            return _defences(tws, player, out)
    if flags & LOCAL:
        return _near_cells(params, board, tws, out)
    return legal_actions(params, state, out)


@njit(cache=True)
def _pair_cells(tws, player, out, count):
    """Append the empty cells of ``player``'s pair windows to ``out[:count]``, each once (the
    stamps of the current epoch mark the cells already there); the new count."""
    pairs, stamp, counters = tws[8], tws[9], tws[6]
    epoch = counters[C_EPOCH]
    for k in range(counters[C_PAIRS + player]):
        for j in range(2):
            cell = pairs[player, k, j]
            if stamp[cell] != epoch:
                stamp[cell] = epoch
                out[count] = cell
                count += 1
    return count


@njit(cache=True)
def _defences(tws, player, out):
    """The moves of ``player`` when the opponent can make two threats at once: the cells
    after which it no longer can, else the cells of its pair windows; and ``player``'s own
    four-making moves."""
    counters, candidates = tws[6], tws[11]
    opponent = 1 - player
    counters[C_EPOCH] += 1
    cells = _pair_cells(tws, opponent, candidates, 0)
    count = 0
    for i in range(cells):
        if not _double_threat_left(tws, opponent, candidates[i]):
            out[count] = candidates[i]
            count += 1
    if count == 0:
        for i in range(cells):  # (a slice copy may allocate: not in the search loop)
            out[i] = candidates[i]
        count = cells
    counters[C_EPOCH] += 1
    stamp, epoch = tws[9], counters[C_EPOCH]
    for i in range(count):
        stamp[out[i]] = epoch
    return _pair_cells(tws, player, out, count)


TACTICS = Tactics.of(globals())

# --- with gravity (boards too large for bitboards): columns ------------------------------


@compiled_kernel
def gravity_new_workspace(kernels, params, state, num_actions):
    """The open columns and their count."""
    return np.empty(params[P_COLS], dtype=np.int64), np.zeros(1, dtype=np.int64)


@compiled_kernel
def gravity_start(kernels, params, state, tws, flags, rng, moves, players, count):
    """List the open columns."""
    tws[1][0] = legal_actions(params, state, tws[0])
    return count


@compiled_kernel
def gravity_play(kernels, params, state, tws, action):
    """Apply the move; list the open columns again when one fills up."""
    apply(params, state, action)
    if state[params[P_HEIGHTS] + action] == params[P_ROWS]:
        tws[1][0] = legal_actions(params, state, tws[0])
    return state[H_OUTCOME]


@compiled_kernel
def gravity_random_move(kernels, params, state, tws, rng):
    """A random open column."""
    return tws[0][random_below(rng, tws[1][0])]


@njit(cache=True)
def _drop_pad(params, state, column):
    """Padded index (in the state) of the cell a stone dropped in ``column`` lands on."""
    row = params[P_ROWS] - 1 - state[params[P_HEIGHTS] + column]
    return HEADER + (row + 1) * (params[P_COLS] + 1) + column + 1


@compiled_kernel
def gravity_winning_move(kernels, params, state, tws, player):
    """An open column where ``player`` completes a line, or -1."""
    for i in range(tws[1][0]):
        column = tws[0][i]
        if wins_at(params, state, _drop_pad(params, state, column), player):
            return column
    return -1


@compiled_kernel
def gravity_expansion(kernels, params, state, tws, out, flags):
    """Columns: the winning ones, else those that stop the opponent's win, else all."""
    count = legal_actions(params, state, out)
    if flags & DECISIVE == 0:
        return count
    player = np.int64(state[H_PLAYER])
    for who in (player, 1 - player):
        kept = 0
        for i in range(count):
            column = out[i]
            if wins_at(params, state, _drop_pad(params, state, column), who):
                out[kept] = column
                kept += 1
        if kept > 0:
            return kept
    return count


GRAVITY_TACTICS = Tactics.of(globals(), "gravity_", finish=finish)
