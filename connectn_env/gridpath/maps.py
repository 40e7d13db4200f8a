"""Grid maps for path finding: obstacles, a start and a goal; random maps with a path
guaranteed, and maps read from text.

Text maps have one line per row: ``.`` free, ``#`` obstacle, ``S`` the start, ``G`` the goal
(exactly one of each); blank lines around the map and spaces at the ends of lines are
ignored.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from connectn_env.errors import ConnectnError
from connectn_env.games.validation import require_int, require_number
from connectn_env.safe_files import describe_file_error, read_regular_text

Cell = tuple[int, int]
MOVES: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))  # actions: up, right, down, left
ACTION_NAMES = ("up", "right", "down", "left")
MAX_SIDE = 256
MAX_DRAWS = 1000  # random maps tried before giving up on a reachable one
MAX_MAP_BYTES = 2**20  # a map of MAX_SIDE x MAX_SIDE cells is 66 kB
_FREE, _WALL, _START, _GOAL = ".", "#", "S", "G"


class MapError(ValueError, ConnectnError):
    """A text map that cannot be read, or a map without a path from start to goal."""


@dataclass(frozen=True, eq=False)
class GridMap:
    """An immutable grid: ``obstacles`` (bool, ``(rows, cols)``, read-only), ``start`` and
    ``goal`` cells (row, col), both free and different."""

    obstacles: np.ndarray
    start: Cell
    goal: Cell

    def __post_init__(self) -> None:
        obstacles = np.array(self.obstacles, dtype=bool)
        if obstacles.ndim != 2 or min(obstacles.shape) < 1 or max(obstacles.shape) > MAX_SIDE:
            raise ValueError(
                f"obstacles must be a 2-d array with sides 1 to {MAX_SIDE}, got shape "
                f"{obstacles.shape}"
            )
        obstacles.flags.writeable = False
        object.__setattr__(self, "obstacles", obstacles)
        for name in ("start", "goal"):
            cell = tuple(int(v) for v in getattr(self, name))
            if len(cell) != 2 or not self.inside(cell):
                raise ValueError(f"{name} {getattr(self, name)!r} is not a cell of the grid")
            if obstacles[cell]:
                raise ValueError(f"{name} {cell} is on an obstacle")
            object.__setattr__(self, name, cell)
        if self.start == self.goal:
            raise ValueError(f"start and goal must differ, both are {self.start}")

    @property
    def rows(self) -> int:
        return self.obstacles.shape[0]

    @property
    def cols(self) -> int:
        return self.obstacles.shape[1]

    def inside(self, cell: Cell) -> bool:
        """True if ``cell`` is on the grid."""
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def free(self, cell: Cell) -> bool:
        """True if ``cell`` is on the grid and not an obstacle."""
        return self.inside(cell) and not self.obstacles[cell]

    def move(self, cell: Cell, action: int) -> Cell:
        """Where ``action`` leads from ``cell`` (the same cell when blocked)."""
        dr, dc = MOVES[action]
        target = (cell[0] + dr, cell[1] + dc)
        return target if self.free(target) else cell

    def text(self) -> str:
        """The map as text (the format :func:`parse_map` reads)."""
        lines = []
        for r in range(self.rows):
            row = [_WALL if wall else _FREE for wall in self.obstacles[r]]
            if self.start[0] == r:
                row[self.start[1]] = _START
            if self.goal[0] == r:
                row[self.goal[1]] = _GOAL
            lines.append("".join(row))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GridMap):
            return NotImplemented
        return (
            self.start == other.start
            and self.goal == other.goal
            and np.array_equal(self.obstacles, other.obstacles)
        )

    def __hash__(self) -> int:
        return hash((self.start, self.goal, self.obstacles.tobytes(), self.obstacles.shape))


def parse_map(text: str) -> GridMap:
    """Read a text map (see the module docstring).

    Raises:
        TypeError: ``text`` is not a str.
        MapError: unknown characters, rows of different lengths, not exactly one ``S`` and
            one ``G``, or no path from ``S`` to ``G``.
    """
    if not isinstance(text, str):
        raise TypeError(f"a map must be a str, got {type(text).__name__}")
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or not lines[0]:
        raise MapError("the map is empty")
    widths = {len(line) for line in lines}
    if len(widths) != 1:
        raise MapError(f"every row of a map must have the same length, got lengths {widths}")
    starts, goals = [], []
    for r, line in enumerate(lines):
        for c, char in enumerate(line):
            if char not in (_FREE, _WALL, _START, _GOAL):
                raise MapError(
                    f"unknown character {char!r} at row {r}, column {c}: use '.' free, "
                    "'#' obstacle, 'S' start, 'G' goal"
                )
            (starts if char == _START else goals if char == _GOAL else []).append((r, c))
    if len(starts) != 1 or len(goals) != 1:
        raise MapError(
            f"a map needs exactly one S and one G, got {len(starts)} S and {len(goals)} G"
        )
    obstacles = np.array([[char == _WALL for char in line] for line in lines])
    try:
        grid = GridMap(obstacles, starts[0], goals[0])
    except ValueError as error:
        raise MapError(str(error)) from None
    if shortest_distances(grid, grid.goal)[grid.start] < 0:
        raise MapError("the goal cannot be reached from the start")
    return grid


def load_map(path: str | Path) -> GridMap:
    """Read a text map from a file (UTF-8, a regular file of at most :data:`MAX_MAP_BYTES`).

    Raises:
        MapError: the map is malformed, or the file cannot be read (missing, no
            permission...; the message names it).
        ValueError: not a regular file, too large or not UTF-8 (the message names it).
    """
    try:
        text = read_regular_text(path, max_bytes=MAX_MAP_BYTES, what="a map")
    except OSError as error:
        raise MapError(f"cannot read the map file {describe_file_error(path, error)}") from None
    return parse_map(text)


def shortest_distances(grid: GridMap, source: Cell) -> np.ndarray:
    """Moves from ``source`` to every cell (breadth first); -1 where unreachable or blocked."""
    distance = np.full(grid.obstacles.shape, -1, dtype=np.int64)
    distance[source] = 0
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for action in range(len(MOVES)):
            target = grid.move(cell, action)
            if distance[target] < 0:
                distance[target] = distance[cell] + 1
                queue.append(target)
    return distance


def random_map(
    rows: int,
    cols: int,
    obstacle_density: float,
    rng: np.random.Generator,
    *,
    min_distance: int | None = None,
) -> GridMap:
    """A random map with a path from start to goal.

    ``round(obstacle_density * (rows * cols - 2))`` obstacles are placed uniformly on the cells
    other than the start and the goal, two random cells at least ``min_distance`` apart in
    Manhattan distance (default ``(rows + cols) // 2``, at most what the grid allows). Draws
    are repeated until the goal is reachable.

    Raises:
        ValueError: bad sizes or density, or no reachable map in 1,000 draws (the density
            is too high for this grid).
    """
    rows = require_int("rows", rows, 1, MAX_SIDE)
    cols = require_int("cols", cols, 1, MAX_SIDE)
    if rows * cols < 2:
        raise ValueError(f"a map needs at least two cells, got {rows} x {cols}")
    density = require_number("obstacle_density", obstacle_density, 0.0)
    if density >= 1.0:
        raise ValueError(f"obstacle_density must be below 1, got {density}")
    longest = rows + cols - 2
    if min_distance is None:
        min_distance = min((rows + cols) // 2, longest)
    min_distance = require_int("min_distance", min_distance, 1, longest)
    cells = rows * cols
    walls = round(density * (cells - 2))
    for _ in range(MAX_DRAWS):
        start = divmod(int(rng.integers(cells)), cols)
        goal = divmod(int(rng.integers(cells)), cols)
        if abs(start[0] - goal[0]) + abs(start[1] - goal[1]) < min_distance:
            continue
        ends = [start[0] * cols + start[1], goal[0] * cols + goal[1]]
        others = np.setdiff1d(np.arange(cells), ends)
        obstacles = np.zeros(cells, dtype=bool)
        obstacles[rng.choice(others, size=walls, replace=False)] = True
        grid = GridMap(obstacles.reshape(rows, cols), start, goal)
        if shortest_distances(grid, goal)[start] >= 0:
            return grid
    raise ValueError(
        f"no {rows} x {cols} map with obstacle_density={density} had a path in {MAX_DRAWS} "
        "draws: lower the density"
    )


def actions_along(cells: list[Cell]) -> list[int]:
    """The actions that walk along ``cells`` (each next to the one before).

    Raises:
        ValueError: two consecutive cells are not neighbours.
    """
    actions = []
    for (r0, c0), (r1, c1) in itertools.pairwise(cells):
        step = (r1 - r0, c1 - c0)
        if step not in MOVES:
            raise ValueError(f"cells {(r0, c0)} and {(r1, c1)} are not neighbours")
        actions.append(MOVES.index(step))
    return actions
