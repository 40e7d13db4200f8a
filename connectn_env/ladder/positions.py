"""Critical Connect Four positions judged by the perfect solver: what ``move_quality``
measures moves on.

A position is kept when some legal move changes its game-theoretic result (a won or drawn
position with a move that does worse). Each carries the solver's score of every legal move
(:class:`~connectn_env.games.connect_n.solver.Connect4Solver`, Pons' convention: the sign is
the result for the player to move, a higher score a faster win or a slower loss), so judging
a move needs no solver run.

The shipped set (:data:`SHIPPED_POSITIONS`, ``data/positions/connect_four.json`` here) is
made by ``python benchmarks/connect4_move_quality.py --positions 200 --seed 0 --save FILE``.

A file is JSON: ``{"format": "connectn-positions", "version": 1, "game": "connect_four",
"count", "seed", "plies": [low, high], "seconds", "date", "package_version", "git_commit",
"positions": [["4453...", [score of column 1, ..., score of column 7 or null if full]], ...]}``
(moves as 1-based column digits, as in Pons' test sets).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from connectn_env.atomic_write import write_text_atomically
from connectn_env.games.config import GameConfig
from connectn_env.games.connect_n.solver import Connect4Solver, parse_columns
from connectn_env.safe_files import read_regular_bytes

FORMAT = "connectn-positions"
VERSION = 1
PLIES = (10, 22)  # positions are this many plies into a random game
GAME = GameConfig("connect_four")
SHIPPED_POSITIONS = Path(__file__).resolve().parent / "data" / "positions" / "connect_four.json"
_MAX_BYTES = 1 << 22


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class Position:
    """A Connect Four position and the solver's score of each legal move.

    Attributes:
        moves: The moves that lead to it (0-based columns).
        scores: ``{column: score for the player to move if they play there}``.
    """

    moves: tuple[int, ...]
    scores: Mapping[int, int]

    @property
    def best(self) -> int:
        """The best move's score."""
        return max(self.scores.values())

    def keeps(self, column: int) -> bool:
        """Whether ``column`` keeps the position's result (win, draw or loss)."""
        return column in self.scores and _sign(self.scores[column]) == _sign(self.best)

    def is_best(self, column: int) -> bool:
        """Whether ``column`` is a best move (the fastest win, or the slowest loss)."""
        return column in self.scores and self.scores[column] == self.best


def critical_positions(
    count: int,
    seed: int = 0,
    solver: Connect4Solver | None = None,
    *,
    plies: tuple[int, int] = PLIES,
    result: int | None = None,
) -> list[Position]:
    """``count`` positions ``plies`` (low, high: both included) plies into uniformly random
    games (seeded) where some move changes the result, each with the solver's score of every
    legal move; with ``result`` (1, 0 or -1), only positions of that result for the player to
    move (0: drawn positions with a losing move)."""
    solver = solver or Connect4Solver()
    rng = np.random.default_rng(seed)
    found: list[Position] = []
    while len(found) < count:
        length = int(rng.integers(plies[0], plies[1] + 1))
        state = GAME.make_game().new_initial_state()
        moves: list[int] = []
        while len(moves) < length and not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            moves.append(action)
        if state.is_terminal():
            continue
        if result is not None and _sign(solver.solve(moves)) != result:
            continue  # one score says so: cheaper than every move's
        position = Position(tuple(moves), solver.move_scores(moves))
        if any(not position.keeps(column) for column in position.scores):
            found.append(position)
    return found


def save_positions(positions: Sequence[Position], path: str | Path, **about: Any) -> Path:
    """Write ``positions`` as a positions file (``about``: the fields that say how they were
    made: ``count``, ``seed``, ``seconds``...), atomically."""
    cols = GAME.make_game().cols
    rows = [
        ["".join(str(c + 1) for c in p.moves), [p.scores.get(c) for c in range(cols)]]
        for p in positions
    ]
    header = json.dumps({"format": FORMAT, "version": VERSION, "game": GAME.name, **about})
    lines = ",\n".join(json.dumps(row) for row in rows)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = f'{header[:-1]}, "positions": [\n{lines}\n]}}'
    return write_text_atomically(path, text + "\n")


def load_positions(path: str | Path | None = None) -> list[Position]:
    """The positions of a positions file (default: the shipped set), every entry checked
    (a legal, unfinished position whose scored columns are exactly its legal moves, some of
    which change the result).

    Raises:
        ValueError: the file is not a readable positions file (named, with what is wrong).
    """
    path = SHIPPED_POSITIONS if path is None else Path(path)
    try:
        data = json.loads(read_regular_bytes(path, max_bytes=_MAX_BYTES, what="a positions file"))
    except (OSError, UnicodeDecodeError, RecursionError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a readable positions file: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'{path}: not a positions file (no "format": "{FORMAT}")')
    if data.get("version") != VERSION or data.get("game") != GAME.name:
        raise ValueError(
            f"{path}: version {data.get('version')!r} of game {data.get('game')!r}; this reads "
            f"version {VERSION} of {GAME.name}"
        )
    rows = data.get("positions")
    if not isinstance(rows, list) or not rows:
        raise ValueError(f"{path}: 'positions' must be a non-empty list")
    positions = []
    for number, row in enumerate(rows, start=1):
        try:
            positions.append(_position(row))
        except (TypeError, ValueError) as error:
            raise ValueError(f"{path}: position {number} ({str(row)[:80]}): {error}") from None
    return positions


def _position(row: Any) -> Position:
    if not (isinstance(row, list) and len(row) == 2 and isinstance(row[0], str)):
        raise ValueError("expected [moves as column digits, scores per column]")
    moves, scores = parse_columns(row[0]) if row[0] else [], row[1]
    state = GAME.make_game().new_initial_state()
    for column in moves:
        if state.is_terminal() or column not in state.legal_actions():
            raise ValueError(f"column {column + 1} cannot be played there")
        state.apply_action(column)
    legal = set(state.legal_actions()) if not state.is_terminal() else set()
    if not legal or not isinstance(scores, list) or len(scores) != state.game.cols:
        raise ValueError(f"a finished game, or not {state.game.cols} scores")
    scored = {c: s for c, s in enumerate(scores) if s is not None}
    if set(scored) != legal or not all(type(s) is int and abs(s) <= 21 for s in scored.values()):
        raise ValueError("the scores must be integers from -21 to 21 for exactly the legal moves")
    position = Position(tuple(moves), scored)
    if all(position.keeps(column) for column in scored):
        raise ValueError("no move changes the result: not a critical position")
    return position
