"""Grid path finding as a single-agent Gymnasium env (``connectn_env/GridPath-v0``): maps,
the A* reference, drawing, and the env, which offers the clone/restore planning interface."""

from connectn_env.gridpath.astar import astar, manhattan
from connectn_env.gridpath.env import GridPathEnv
from connectn_env.gridpath.maps import (
    ACTION_NAMES,
    MOVES,
    GridMap,
    MapError,
    actions_along,
    load_map,
    parse_map,
    random_map,
    shortest_distances,
)

__all__ = [
    "ACTION_NAMES",
    "MOVES",
    "GridMap",
    "GridPathEnv",
    "MapError",
    "actions_along",
    "astar",
    "load_map",
    "manhattan",
    "parse_map",
    "random_map",
    "shortest_distances",
]
