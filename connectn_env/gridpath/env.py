"""``GridPath-v0``: walk from the start to the goal of a grid with obstacles, as few steps as
possible."""

from __future__ import annotations

import numbers
import reprlib
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from connectn_env.games.validation import require_int, require_number
from connectn_env.gridpath.astar import astar, manhattan
from connectn_env.gridpath.maps import (
    MAX_SIDE,
    MOVES,
    Cell,
    GridMap,
    MapError,
    load_map,
    parse_map,
    random_map,
)
from connectn_env.gridpath.render import ArrayWindow, draw_rgb, draw_text

RENDER_MODES = ("human", "rgb_array", "ansi")
PLANES = 3  # observation planes: obstacles, agent, goal
_MAP_TEXT = frozenset(".#SG \t")  # a str of these only is a text map, not a path


def _as_map(value: Any) -> GridMap:
    """A GridMap from a GridMap, a text map or the path of a map file.

    A str is a text map if it has a line break or holds only map characters (``.#SG`` and
    spaces, so ``"S.G"`` and ``""`` too), else a path.

    Raises:
        TypeError: not a GridMap, a str or a Path.
        MapError: a bad text map, or a file that cannot be read or holds a bad map.
    """
    if isinstance(value, GridMap):
        return value
    if not isinstance(value, str | Path):
        raise TypeError(
            f"grid_map must be a GridMap, a text map or a path to one, got {type(value).__name__}"
        )
    try:
        if isinstance(value, str) and ("\n" in value or set(value) <= _MAP_TEXT):
            return parse_map(value)
        return load_map(value)
    except ValueError as error:
        raise MapError(
            f"grid_map {reprlib.repr(value)}: {error}; grid_map must be a text map ('.' free, "
            "'#' obstacle, 'S' start, 'G' goal; one line per row) or the path of a map file"
        ) from None


class GridPathEnv(gymnasium.Env):
    """A grid with obstacles: move up, right, down or left from the start to the goal.

    Each step costs ``step_cost`` (also a step into a wall or an obstacle, which leaves the
    agent where it is); reaching the goal earns ``goal_reward`` and ends the episode
    (``terminated``); after ``max_steps`` steps it is cut (``truncated``). The return of a
    path of ``L`` steps is ``goal_reward - step_cost * L``: the shortest path is the best.

    Maps are random (drawn at each reset from the env's generator, so ``reset(seed=s)``
    repeats a map; start and goal are always joined by a path) or fixed (``grid_map``).

    Observation: int8 ``(rows, cols, 3)`` planes [obstacles, agent, goal]. ``info`` holds
    the agent's ``position`` and the ``steps`` taken.

    Planning interface (what :class:`agents.MCTSPlanner` uses): :meth:`clone_state` and
    :meth:`restore_state` save and restore the episode (map, position, steps, cells
    visited); :meth:`heuristic_value` is an optimistic estimate of the return to go; the
    planned path (:meth:`show_plan`) is drawn by every render mode.

    Args:
        size: Side of a square random grid (default 20); ignored where rows/cols are given.
        rows, cols: Sides of a random grid (default ``size``), 1 to 256.
        obstacle_density: Share of the cells (start and goal aside) that are obstacles on a
            random grid, in [0, 1) (default 0.3).
        grid_map: A fixed map: a :class:`~connectn_env.gridpath.GridMap`, a text map (``.``
            free, ``#`` obstacle, ``S`` start, ``G`` goal; one line per row) or the path of
            a file holding one. A str is text if it has a line break or only those
            characters and spaces (``"S.G"``), else a path. Then size, rows, cols and
            obstacle_density are not used.
        max_steps: Steps before the episode is cut (default ``rows * cols``).
        goal_reward: Reward for reaching the goal (> 0, default 1).
        step_cost: Cost of a step (>= 0, default 0.01).
        render_mode: ``"human"``, ``"rgb_array"``, ``"ansi"`` or None.

    Raises:
        TypeError, ValueError: a bad argument; a ``grid_map`` that is a bad text map or a
            map file that cannot be read raises :class:`~connectn_env.gridpath.MapError`.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 8}

    def __init__(
        self,
        *,
        size: int = 20,
        rows: int | None = None,
        cols: int | None = None,
        obstacle_density: float = 0.3,
        grid_map: Any = None,
        max_steps: int | None = None,
        goal_reward: float = 1.0,
        step_cost: float = 0.01,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}"
            )
        self.fixed_map = None if grid_map is None else _as_map(grid_map)
        if self.fixed_map is None:
            size = require_int("size", size, 1, MAX_SIDE)
            self.rows = size if rows is None else require_int("rows", rows, 1, MAX_SIDE)
            self.cols = size if cols is None else require_int("cols", cols, 1, MAX_SIDE)
            if self.rows * self.cols < 2:
                raise ValueError(f"a grid needs at least two cells, got {self.rows} x {self.cols}")
            self.obstacle_density = require_number("obstacle_density", obstacle_density, 0.0)
            if self.obstacle_density >= 1.0:
                raise ValueError(f"obstacle_density must be below 1, got {obstacle_density}")
        else:
            self.rows, self.cols = self.fixed_map.rows, self.fixed_map.cols
            self.obstacle_density = float(self.fixed_map.obstacles.mean())
        self.max_steps = (
            self.rows * self.cols if max_steps is None else require_int("max_steps", max_steps, 1)
        )
        self.goal_reward = require_number("goal_reward", goal_reward, 0.0, strict_low=True)
        self.step_cost = require_number("step_cost", step_cost, 0.0)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            0, 1, shape=(self.rows, self.cols, PLANES), dtype=np.int8
        )
        self.action_space = spaces.Discrete(len(MOVES))
        self.grid_map: GridMap | None = None
        self.position: Cell = (0, 0)
        self.steps = 0
        self.trail: tuple[Cell, ...] = ()
        self.planned_path: tuple[Cell, ...] = ()
        self._over = True
        self._template = np.zeros((self.rows, self.cols, PLANES), dtype=np.int8)
        self._window = ArrayWindow("GridPath", self.metadata["render_fps"])

    # --- Gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode on a new random map (or the fixed one).

        Args:
            seed: Seeds the env's generator (and so the map).
            options: None, or ``{"grid_map": map}`` to play that map (a GridMap, text or
                path, of this env's size) in this episode.

        Raises:
            TypeError: ``options["grid_map"]`` is not a GridMap, a str or a Path.
            ValueError: other options, a map of another size, a bad text map, or a map file
                that cannot be read (:class:`~connectn_env.gridpath.MapError`).
        """
        if options is not None and (not isinstance(options, dict) or set(options) - {"grid_map"}):
            raise ValueError(f"options must be None or {{'grid_map': map}}, got {options!r}")
        grid = None
        if options and options.get("grid_map") is not None:
            grid = _as_map(options["grid_map"])
            if (grid.rows, grid.cols) != (self.rows, self.cols):
                raise ValueError(
                    f"the map is {grid.rows} x {grid.cols}, this env's observations are "
                    f"{self.rows} x {self.cols}"
                )
        super().reset(seed=seed)
        if grid is None and self.fixed_map is not None:
            grid = self.fixed_map
        elif grid is None:
            grid = random_map(self.rows, self.cols, self.obstacle_density, self.np_random)
        self._start(grid)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Move (0 up, 1 right, 2 down, 3 left); a blocked move keeps the agent in place.

        Raises:
            TypeError: ``action`` is not an integer.
            ValueError: ``action`` is not 0 to 3, or the episode is over (call reset).
        """
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise TypeError(f"action must be an int 0 to 3, got {action!r}")
        if not 0 <= action < len(MOVES):
            raise ValueError(
                f"action must be 0 (up), 1 (right), 2 (down) or 3 (left), got {action}"
            )
        if self._over:
            raise ValueError("the episode is over (or not started): call reset()")
        grid = self.grid_map
        self.position = grid.move(self.position, int(action))
        self.steps += 1
        self.trail = (*self.trail, self.position)
        if self.planned_path:
            ahead = self.planned_path[1:]
            self.planned_path = ahead if ahead and ahead[0] == self.position else ()
        terminated = self.position == grid.goal
        truncated = not terminated and self.steps >= self.max_steps
        self._over = terminated or truncated
        reward = (self.goal_reward if terminated else 0.0) - self.step_cost
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), bool(terminated), bool(truncated), self._info()

    def render(self) -> np.ndarray | str | None:
        """An RGB array, text or a window frame (per the render mode), with the cells visited
        and the planned path drawn."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to draw")
            return None
        if self.grid_map is None:
            raise ValueError("call reset() before render()")
        parts = (self.grid_map, self.position, self.trail, self.planned_path)
        if self.render_mode == "ansi":
            return draw_text(*parts)
        frame = draw_rgb(*parts)
        if self.render_mode == "rgb_array":
            return frame
        self._window.show(frame)
        return None

    def close(self) -> None:
        """Close the window if one is open; safe to call more than once."""
        self._window.close()

    # --- planning interface -------------------------------------------------------------

    def clone_state(self) -> tuple[Any, ...]:
        """The episode's state (an immutable value) for :meth:`restore_state`."""
        return (self.grid_map, self.position, self.steps, self.trail, self.planned_path, self._over)

    def restore_state(self, state: tuple[Any, ...]) -> None:
        """Put back a state from :meth:`clone_state` (the generator is not part of it: steps
        are deterministic).

        Raises:
            TypeError: ``state`` does not come from :meth:`clone_state` of such an env.
        """
        if (
            not isinstance(state, tuple)
            or len(state) != 6
            or not (state[0] is None or isinstance(state[0], GridMap))
            or (state[0] is not None and (state[0].rows, state[0].cols) != (self.rows, self.cols))
        ):
            raise TypeError(
                f"state must come from clone_state() of a {self.rows} x {self.cols} GridPathEnv"
            )
        grid, self.position, self.steps, self.trail, self.planned_path, self._over = state
        if grid is None:
            self.grid_map = None  # the state of an env not reset yet
        elif grid is not self.grid_map:
            self._set_map(grid)

    def heuristic_value(self) -> float:
        """An optimistic return to go: the goal reward minus the cost of the Manhattan
        distance to the goal (exact when no obstacle is in the way; A*'s heuristic)."""
        grid = self._require_map()
        return self.goal_reward - self.step_cost * manhattan(self.position, grid.goal)

    def shortest_path(self) -> list[Cell]:
        """A shortest path (A*) from the agent to the goal, cells included at both ends."""
        grid = self._require_map()
        path = astar(grid, self.position)
        assert path is not None  # every map has a path and every move is reversible
        return path

    def show_plan(self, actions: Any) -> None:
        """Draw the path that ``actions`` (a sequence of 0-3) would walk from the agent, until
        it is replaced, the episode is reset, or the agent leaves it. None or ``[]`` clears.

        Raises:
            TypeError, ValueError: an action is not an int 0 to 3.
        """
        grid = self._require_map()
        cells = [self.position]
        for action in [] if actions is None else list(actions):
            if isinstance(action, bool) or not isinstance(action, numbers.Integral):
                raise TypeError(f"actions must be ints 0 to 3, got {action!r}")
            if not 0 <= action < len(MOVES):
                raise ValueError(f"actions must be 0 to 3, got {action}")
            cells.append(grid.move(cells[-1], int(action)))
        self.planned_path = tuple(cells) if len(cells) > 1 else ()

    # --- helpers -------------------------------------------------------------------------

    def _start(self, grid: GridMap) -> None:
        self._set_map(grid)
        self.position = grid.start
        self.steps = 0
        self.trail = (grid.start,)
        self.planned_path = ()
        self._over = False

    def _set_map(self, grid: GridMap) -> None:
        self.grid_map = grid
        self._template = np.zeros((self.rows, self.cols, PLANES), dtype=np.int8)
        self._template[:, :, 0] = grid.obstacles
        self._template[(*grid.goal, 2)] = 1

    def _require_map(self) -> GridMap:
        if self.grid_map is None:
            raise ValueError("call reset() first: there is no map yet")
        return self.grid_map

    def _observation(self) -> np.ndarray:
        observation = self._template.copy()
        observation[(*self.position, 1)] = 1
        return observation

    def _info(self) -> dict[str, Any]:
        return {"position": self.position, "steps": self.steps}
