"""GridPath-v0: maps (random with a path, from text), A* against breadth-first distances, the
step rules, the planning interface, rendering, Gymnasium's checker and bad input."""

from __future__ import annotations

import copy
import pickle
import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import connectn_env  # noqa: F401  (registers the ids)
from connectn_env.gridpath import (
    MOVES,
    GridMap,
    GridPathEnv,
    MapError,
    actions_along,
    astar,
    load_map,
    parse_map,
    random_map,
    shortest_distances,
)
from connectn_env.gridpath.render import CELL_PIXELS, PLAN

CORRIDOR = """
S.#.
.##.
...G
"""


def test_every_render_mode_passes_gymnasiums_checker():
    for mode in (None, "rgb_array", "ansi", "human"):
        env = gym.make("connectn_env/GridPath-v0", render_mode=mode)
        check_env(env.unwrapped, skip_render_check=False)
        env.close()
        env.close()  # closing twice is fine
    check_env(gym.make("connectn_env:connectn_env/GridPath-v0", size=6).unwrapped)


def test_random_maps_are_reproducible_and_always_have_a_path():
    env = GridPathEnv()
    first, _ = env.reset(seed=7)
    again, _ = env.reset(seed=7)
    other, _ = env.reset(seed=8)
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    for seed in range(30):
        grid = random_map(20, 20, 0.3, np.random.default_rng(seed))
        assert grid.obstacles.sum() == round(0.3 * 398)
        path = astar(grid)
        assert path is not None and path[0] == grid.start and path[-1] == grid.goal
        assert abs(grid.start[0] - grid.goal[0]) + abs(grid.start[1] - grid.goal[1]) >= 20


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    rows=st.integers(2, 14),
    cols=st.integers(2, 14),
    density=st.floats(0.0, 0.4),
)
def test_astar_paths_are_shortest_and_walkable(seed, rows, cols, density):
    grid = random_map(rows, cols, density, np.random.default_rng(seed))
    path = astar(grid)
    distances = shortest_distances(grid, grid.start)
    assert len(path) - 1 == distances[grid.goal]
    assert all(grid.free(cell) for cell in path)
    cell = grid.start
    for action in actions_along(path):
        cell = grid.move(cell, action)
    assert cell == grid.goal


def test_steps_cost_bumps_stay_and_the_goal_ends_the_episode():
    env = GridPathEnv(grid_map=CORRIDOR, step_cost=0.1, goal_reward=2.0)
    observation, info = env.reset()
    assert info == {"position": (0, 0), "steps": 0}
    assert observation[:, :, 0].tolist() == [[0, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
    assert observation[0, 0, 1] == 1 and observation[:, :, 1].sum() == 1
    assert observation[2, 3, 2] == 1 and observation[:, :, 2].sum() == 1
    _, reward, terminated, truncated, info = env.step(0)  # up: the wall
    assert (reward, terminated, truncated, info["position"]) == (-0.1, False, False, (0, 0))
    for action in (2, 2, 1, 1):  # down, down, right, right
        env.step(action)
    assert env.heuristic_value() == pytest.approx(2.0 - 0.1)
    _, reward, terminated, truncated, info = env.step(1)
    assert reward == pytest.approx(1.9) and terminated and not truncated
    assert info == {"position": (2, 3), "steps": 6}
    with pytest.raises(ValueError, match="episode is over"):
        env.step(0)


def test_max_steps_truncates():
    env = GridPathEnv(grid_map=CORRIDOR, max_steps=3)
    env.reset()
    results = [env.step(0)[2:4] for _ in range(3)]
    assert results == [(False, False), (False, False), (False, True)]


def test_clone_and_restore_replay_exactly():
    env = GridPathEnv(size=10)
    env.reset(seed=3)
    env.step(1)
    saved = env.clone_state()
    first = [env.step(a)[:4] for a in (2, 2, 3)]
    env.restore_state(saved)
    second = [env.step(a)[:4] for a in (2, 2, 3)]
    assert all(
        np.array_equal(a[0], b[0]) and a[1:] == b[1:] for a, b in zip(first, second, strict=True)
    )
    other = GridPathEnv(size=10)
    other.reset(seed=99)
    other.restore_state(saved)  # the map comes with the state
    assert other.grid_map == env.grid_map and other.steps == 1
    with pytest.raises(TypeError, match="clone_state"):
        env.restore_state((1, 2))
    with pytest.raises(TypeError, match="clone_state"):
        GridPathEnv(size=5).restore_state(saved)


def test_the_plan_and_the_trail_are_drawn():
    env = GridPathEnv(grid_map=CORRIDOR, render_mode="ansi")
    env.reset()
    env.show_plan([2, 2, 1, 1, 1])
    assert env.render() == "A.#.\n*##.\n***G\n"
    env.step(2)
    assert env.render() == "S.#.\nA##.\n***G\n"  # the plan follows the agent
    env.step(1)  # a bump: the agent leaves the plan, which is dropped
    assert env.render() == "S.#.\nA##.\n...G\n"
    picture_env = GridPathEnv(grid_map=CORRIDOR, render_mode="rgb_array")
    picture_env.reset()
    plain = picture_env.render()
    assert plain.shape == (3 * CELL_PIXELS, 4 * CELL_PIXELS, 3) and plain.dtype == np.uint8
    picture_env.show_plan(actions_along(picture_env.shortest_path()))
    drawn = picture_env.render()
    is_plan = (drawn == PLAN).all(axis=2)
    centre = CELL_PIXELS // 2
    assert is_plan[2 * CELL_PIXELS + centre, 2 * CELL_PIXELS + centre]  # on the bottom row
    assert not (plain == PLAN).all(axis=2).any()
    picture_env.show_plan(None)
    assert np.array_equal(picture_env.render(), plain)


def test_human_mode_opens_a_window_and_copies_do_not_share_it():
    env = GridPathEnv(size=6, render_mode="human")
    env.reset(seed=0)
    env.step(0)
    clone = copy.deepcopy(env)
    clone.step(1)
    restored = pickle.loads(pickle.dumps(env))
    assert restored.position == env.position and restored.grid_map == env.grid_map
    env.close()
    clone.close()


def test_text_maps_from_strings_and_files(tmp_path):
    grid = parse_map(CORRIDOR)
    assert (grid.rows, grid.cols, grid.start, grid.goal) == (3, 4, (0, 0), (2, 3))
    assert parse_map(grid.text()) == grid
    path = tmp_path / "map.txt"
    path.write_text(CORRIDOR, encoding="utf-8")
    assert load_map(path) == grid
    env = GridPathEnv(grid_map=str(path))
    env.reset()
    assert env.grid_map == grid
    env.reset(options={"grid_map": "..G.\nS...\n...."})
    assert env.position == (1, 0) and env.grid_map.goal == (0, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("S.\n.", "same length"),
        ("S.x\n..G", "unknown character 'x'"),
        ("S..\n...", "exactly one S and one G"),
        ("SG.\n..G", "exactly one S and one G"),
        ("S#.\n##G", "cannot be reached"),
        ("", "empty"),
    ],
)
def test_bad_text_maps_are_refused(text, message):
    with pytest.raises(MapError, match=message):
        parse_map(text)


ALLOWED = "grid_map must be a text map ('.' free, '#' obstacle, 'S' start, 'G' goal; one"


@pytest.mark.parametrize(
    ("grid_map", "message"),
    [
        # a str with a line break, or of map characters and spaces only, is a text map
        ("S..", "grid_map 'S..': a map needs exactly one S and one G, got 1 S and 0 G"),
        ("", "grid_map '': the map is empty"),
        (" S#G ", "grid_map ' S#G ': the goal cannot be reached"),
        ("XX\n", "grid_map 'XX\\n': unknown character 'X' at row 0, column 0"),
        # anything else is a path
        ("XX", "grid_map 'XX': cannot read the map file XX: No such file or directory"),
        ("no/such/map.txt", "cannot read the map file no/such/map.txt: No such file"),
    ],
)
def test_a_grid_map_that_is_no_map_text_or_map_file_is_refused(grid_map, message):
    for make in (
        lambda: GridPathEnv(grid_map=grid_map),
        lambda: gym.make("connectn_env/GridPath-v0", grid_map=grid_map),
    ):
        with pytest.raises(MapError, match=re.escape(message)) as error:
            make()
        assert ALLOWED in str(error.value)
    env = GridPathEnv(grid_map="S.G")  # one line, map characters only: a text map
    assert env.reset()[1]["position"] == (0, 0)
    env.step(1)
    before = env.clone_state()
    with pytest.raises(MapError, match=re.escape(message)):
        env.reset(options={"grid_map": grid_map})
    assert env.clone_state() == before


def test_a_map_file_that_cannot_be_read_is_refused_by_name(tmp_path):
    path = tmp_path / "S.G"  # a Path is always a path
    with pytest.raises(MapError, match=f"cannot read the map file {re.escape(str(path))}: No"):
        load_map(path)
    with pytest.raises(MapError, match=re.escape(f"{path}: No such file")):
        GridPathEnv(grid_map=path)
    path.write_text("S.G\n", encoding="utf-8")
    assert GridPathEnv(grid_map=path).fixed_map == parse_map("S.G")
    with pytest.raises(MapError, match="is a directory, not a regular file"):
        GridPathEnv(grid_map=str(tmp_path))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"size": 0}, ValueError),
        ({"size": 1}, ValueError),
        ({"rows": 2.5}, TypeError),
        ({"obstacle_density": 1.0}, ValueError),
        ({"obstacle_density": -0.1}, ValueError),
        ({"max_steps": 0}, ValueError),
        ({"goal_reward": 0}, ValueError),
        ({"step_cost": -1}, ValueError),
        ({"render_mode": "window"}, ValueError),
        ({"grid_map": 3}, TypeError),
        ({"grid_map": "S#\n#G"}, MapError),
    ],
)
def test_bad_constructor_arguments(kwargs, error):
    with pytest.raises(error):
        GridPathEnv(**kwargs)


def test_bad_calls_leave_the_env_as_it_was():
    env = GridPathEnv(grid_map=CORRIDOR)
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset()
    env.step(2)
    before = env.clone_state()
    for action, error in ((4, ValueError), (-1, ValueError), ("up", TypeError), (True, TypeError)):
        with pytest.raises(error):
            env.step(action)
        assert env.clone_state() == before
    with pytest.raises(ValueError, match="0 to 3"):
        env.show_plan([1, 9])
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"seed": 1})
    with pytest.raises(ValueError, match="3 x 4"):
        env.reset(options={"grid_map": "S.\n.G"})
    with pytest.raises(ValueError, match="obstacle_density must be below 1"):
        random_map(5, 5, 1.5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="start"):
        GridMap(np.zeros((2, 2), dtype=bool), (0, 0), (0, 0))
    assert len(MOVES) == env.action_space.n == 4
