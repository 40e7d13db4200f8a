"""A* on a grid map: the reference shortest path the planners are measured against."""

from __future__ import annotations

import heapq

from connectn_env.gridpath.maps import MOVES, Cell, GridMap


def manhattan(a: Cell, b: Cell) -> int:
    """Moves between two cells on an empty grid (A*'s admissible heuristic)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def astar(grid: GridMap, start: Cell | None = None, goal: Cell | None = None) -> list[Cell] | None:
    """A shortest path from ``start`` to ``goal`` (default: the map's), both included, with
    moves to the four neighbours at cost 1; None if the goal cannot be reached.

    Raises:
        ValueError: ``start`` or ``goal`` is off the grid or on an obstacle.
    """
    start = grid.start if start is None else (int(start[0]), int(start[1]))
    goal = grid.goal if goal is None else (int(goal[0]), int(goal[1]))
    for name, cell in (("start", start), ("goal", goal)):
        if not grid.free(cell):
            raise ValueError(f"{name} {cell} is off the grid or on an obstacle")
    best = {start: 0}
    parent: dict[Cell, Cell] = {}
    frontier = [(manhattan(start, goal), 0, start)]
    while frontier:
        _, cost, cell = heapq.heappop(frontier)
        if cell == goal:
            path = [cell]
            while cell in parent:
                cell = parent[cell]
                path.append(cell)
            return path[::-1]
        if cost > best[cell]:
            continue  # a stale entry: the cell was reached more cheaply since
        for dr, dc in MOVES:
            target = (cell[0] + dr, cell[1] + dc)
            if grid.free(target) and cost + 1 < best.get(target, cost + 2):
                best[target] = cost + 1
                parent[target] = cell
                heapq.heappush(frontier, (cost + 1 + manhattan(target, goal), cost + 1, target))
    return None
