"""Brute-force Gomoku tactics on flat boards (freestyle: five or more in a row), and
hand-made tactical positions: a win in one, a closed or broken four to block, an open or
broken three to stop."""

from __future__ import annotations

import numpy as np

from connectn_env.games import GameState, GomokuGame

SIZE = 15
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def windows(rows: int, cols: int, n: int = 5) -> np.ndarray:
    """Every line of ``n`` cells of a board, as flat cell indices."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                end_r, end_c = r + (n - 1) * dr, c + (n - 1) * dc
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append([(r + k * dr) * cols + c + k * dc for k in range(n)])
    return np.array(lines)


def threats(flat: np.ndarray, lines: np.ndarray, player: int) -> set[int]:
    """Empty cells where a stone of ``player`` (0 or 1) makes five."""
    stones = flat[lines]
    own = (stones == player + 1).sum(axis=1)
    empty = (stones == 0).sum(axis=1)
    full = lines[(own == lines.shape[1] - 1) & (empty == 1)]
    return {int(cell) for cell in full[flat[full] == 0]}


def threat_making_cells(flat: np.ndarray, lines: np.ndarray, player: int) -> np.ndarray:
    """The empty cells where a stone of ``player`` can give them a threat they lack: every empty
    cell if they have one already, else those of lines holding ``n - 2`` of their stones and
    two empty cells (a new threat is on a line through the move). The two searches below try
    only these, and find what trying every empty cell finds."""
    if threats(flat, lines, player):
        return np.flatnonzero(flat == 0)
    stones = flat[lines]
    own = (stones == player + 1).sum(axis=1)
    empty = (stones == 0).sum(axis=1)
    near = lines[(own == lines.shape[1] - 2) & (empty == 2)]
    return np.unique(near[flat[near] == 0])


def double_threat_moves(flat: np.ndarray, lines: np.ndarray, player: int) -> set[int]:
    """Moves after which ``player`` has two or more threats (an open four, or two fours)."""
    found = set()
    for move in threat_making_cells(flat, lines, player):
        flat[move] = player + 1
        if len(threats(flat, lines, player)) >= 2:
            found.add(int(move))
        flat[move] = 0
    return found


def four_making_moves(flat: np.ndarray, lines: np.ndarray, player: int) -> set[int]:
    """Moves after which ``player`` has a threat."""
    found = set()
    for move in threat_making_cells(flat, lines, player):
        flat[move] = player + 1
        if threats(flat, lines, player):
            found.add(int(move))
        flat[move] = 0
    return found


def defences(flat: np.ndarray, lines: np.ndarray, player: int) -> set[int]:
    """Moves of ``player`` after which the opponent cannot make two threats at once."""
    found = set()
    for move in np.flatnonzero(flat == 0):
        flat[move] = player + 1
        if not double_threat_moves(flat, lines, 1 - player):
            found.add(int(move))
        flat[move] = 0
    return found


# kind -> (stones of the side that attacks along the line, cells that must stay empty),
# offsets along the line from the pattern's anchor; "blocked": an offset the other side holds
PATTERNS = {
    "win": ([0, 1, 2, 3], [-1, 4], [-1]),
    "win broken": ([0, 1, 3, 4], [2], []),
    "closed four": ([0, 1, 2, 3], [4], [-1]),
    "broken four": ([0, 1, 3, 4], [2], []),
    "open three": ([0, 1, 2], [-2, -1, 3, 4], []),
    "broken three": ([0, 1, 3], [-2, -1, 2, 4, 5], []),
}


def tactical_position(kind: str, seed: int) -> tuple[GameState, set[int]]:
    """A 15 x 15 freestyle position of ``kind`` and the set of right answers for the player to
    move: its winning moves ("win", "win broken"), or the block ("closed four", "broken
    four"), or the defences against the opponent's three (the other kinds; the mover has
    no four of its own to make there, so a defence is the only right answer)."""
    rng = np.random.default_rng(seed)
    lines = windows(SIZE, SIZE)
    attacker_stones, empties, blocked = PATTERNS[kind]
    attacking_mover = kind.startswith("win")
    for _ in range(1000):
        mover = int(rng.integers(2))
        attacker = mover if attacking_mover else 1 - mover
        dr, dc = DIRECTIONS[int(rng.integers(4))]
        row, col = (int(x) for x in rng.integers(2, SIZE - 2, size=2))
        flat = np.zeros(SIZE * SIZE, dtype=np.int64)
        offsets = attacker_stones + empties + blocked
        spots = {k: (row + k * dr, col + k * dc) for k in offsets}
        if not all(0 <= r < SIZE and 0 <= c < SIZE for r, c in spots.values()):
            continue
        cell = {k: r * SIZE + c for k, (r, c) in spots.items()}
        for k in attacker_stones:
            flat[cell[k]] = attacker + 1
        for k in blocked:
            flat[cell[k]] = 2 - attacker
        reserved = set(cell.values())
        # scattered stones so that the counts fit the player to move (player_0 moves first)
        counts = [int((flat == 1).sum()), int((flat == 2).sum())]
        extra = int(rng.integers(1, 4))
        wanted = [max(counts) + extra, max(counts) + extra]
        if mover == 1:
            wanted[0] += 1
        for player in (0, 1):
            while counts[player] < wanted[player]:
                spot = int(rng.integers(SIZE * SIZE))
                if flat[spot] == 0 and spot not in reserved:
                    flat[spot] = player + 1
                    counts[player] += 1
        if not _fits(kind, flat, lines, mover):
            continue
        answers = _answers(kind, flat, lines, mover)
        return _state(flat), answers
    raise RuntimeError(f"no {kind} position found for seed {seed}")


def _fits(kind: str, flat: np.ndarray, lines: np.ndarray, mover: int) -> bool:
    """The position has the threats of its kind and no other."""
    own, other = threats(flat, lines, mover), threats(flat, lines, 1 - mover)
    if kind.startswith("win"):
        return bool(own)
    if own:
        return False
    if kind.endswith("four"):
        return len(other) == 1
    return (
        not other
        and bool(double_threat_moves(flat, lines, 1 - mover))
        and not (four_making_moves(flat, lines, mover))
    )


def _answers(kind: str, flat: np.ndarray, lines: np.ndarray, mover: int) -> set[int]:
    if kind.startswith("win"):
        return threats(flat, lines, mover)
    if kind.endswith("four"):
        return threats(flat, lines, 1 - mover)
    return defences(flat, lines, mover)


def _state(flat: np.ndarray) -> GameState:
    """The position with these stones (played alternately, player_0 first)."""
    blacks = np.flatnonzero(flat == 1).tolist()
    whites = np.flatnonzero(flat == 2).tolist()
    state = GomokuGame(size=SIZE).new_initial_state()
    for i in range(len(blacks) + len(whites)):
        state.apply_action(blacks[i // 2] if i % 2 == 0 else whites[i // 2])
    return state
