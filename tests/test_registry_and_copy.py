"""Registry ids, copies of envs mid-game, and what ``import connectn_env`` does not do."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from aec_helpers import play_to_end
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import connectn_env
from connectn_env import ConnectNGame, GomokuGame, HexGame, connect_n_v0, gomoku_v0, hex_v0
from connectn_env.games import OthelloGame
from connectn_env.registration import register_pettingzoo_envs

EXPECTED_GAMES = {
    "connectn_env/connect_four-v0": ConnectNGame(rows=6, cols=7, n=4, gravity=True),
    "connectn_env/tictactoe-v0": ConnectNGame(rows=3, cols=3, n=3, gravity=False),
    "connectn_env/connect_n-v0": ConnectNGame(),
    "connectn_env/gomoku-v0": GomokuGame(size=15, rule="freestyle"),
    "connectn_env/hex-v0": HexGame(size=11, swap=False),
    "connectn_env/othello-v0": OthelloGame(size=8),
}
OVERRIDES = {
    "connectn_env/connect_four-v0": ({"rows": 5}, ConnectNGame(rows=5, cols=7, n=4)),
    "connectn_env/tictactoe-v0": (
        {"rows": 4, "cols": 4, "n": 4},
        ConnectNGame(rows=4, cols=4, n=4, gravity=False),
    ),
    "connectn_env/connect_n-v0": ({"n": 3, "gravity": False}, ConnectNGame(n=3, gravity=False)),
    "connectn_env/gomoku-v0": (
        {"size": 9, "rule": "standard"},
        GomokuGame(size=9, rule="standard"),
    ),
    "connectn_env/hex-v0": ({"size": 7, "swap": True}, HexGame(size=7, swap=True)),
    "connectn_env/othello-v0": ({"size": 6}, OthelloGame(size=6)),
}


def test_registry_lists_every_id() -> None:
    assert set(connectn_env.PETTINGZOO_ENVS) == set(EXPECTED_GAMES)
    assert set(EXPECTED_GAMES) <= set(pettingzoo.aec_registry)


@pytest.mark.parametrize("env_id", EXPECTED_GAMES)
def test_registry_id_makes_the_right_game(env_id: str) -> None:
    env = pettingzoo.make("aec", env_id)
    assert isinstance(env, OrderEnforcingWrapper)
    assert env.unwrapped.game == EXPECTED_GAMES[env_id]
    assert type(env.unwrapped.game) is type(EXPECTED_GAMES[env_id])
    assert env.unwrapped.illegal_action == "lose"
    env.reset()
    assert env.unwrapped.game_state.history() == []


@pytest.mark.parametrize("env_id", EXPECTED_GAMES)
def test_registry_id_accepts_keyword_overrides(env_id: str) -> None:
    kwargs, expected = OVERRIDES[env_id]
    env = pettingzoo.make("aec", env_id, render_mode="ansi", **kwargs)
    assert env.unwrapped.game == expected
    assert env.unwrapped.render_mode == "ansi"
    assert pettingzoo.make("aec", env_id).unwrapped.game == EXPECTED_GAMES[env_id]  # no leak


def test_registering_again_is_a_silent_no_op(recwarn: pytest.WarningsRecorder) -> None:
    specs = dict(pettingzoo.aec_registry)
    register_pettingzoo_envs()
    assert dict(pettingzoo.aec_registry) == specs
    assert not [w for w in recwarn if "Overriding" in str(w.message)]


# --- copies of envs mid-game ------------------------------------------------------------

COPIES: dict[str, Callable] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
}
FACTORIES = [
    pytest.param(connect_n_v0.env, id="connect_four-env"),
    pytest.param(connect_n_v0.raw_env, id="connect_four-raw_env"),
    pytest.param(lambda: gomoku_v0.env(size=9, rule="standard"), id="gomoku-env"),
    pytest.param(lambda: hex_v0.raw_env(size=5, swap=True), id="hex-swap-raw_env"),
    pytest.param(
        lambda: pettingzoo.make("aec", "connectn_env/tictactoe-v0"), id="tictactoe-registry"
    ),
]


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("make", FACTORIES)
def test_env_copy_mid_game_keeps_the_position_and_continues_identically(
    make: Callable, how: str
) -> None:
    env = make()
    env.reset(seed=0)
    for action in (1, 2, 3):
        env.step(action)
    history = env.unwrapped.game_state.history()
    twin = COPIES[how](env)
    assert type(twin) is type(env)
    assert twin.unwrapped is not env.unwrapped
    assert twin.unwrapped.game_state == env.unwrapped.game_state
    assert twin.unwrapped.game_state.data is not env.unwrapped.game_state.data
    assert twin.agent_selection == env.agent_selection == "player_1"
    assert twin.unwrapped.game_state.history() == history == [1, 2, 3]
    for agent in env.possible_agents:
        for key, value in env.observe(agent).items():
            assert np.array_equal(twin.observe(agent)[key], value)

    trace_twin = play_to_end(twin, np.random.default_rng(7))
    assert env.unwrapped.game_state.history() == history  # the original did not move
    assert play_to_end(env, np.random.default_rng(7)) == trace_twin
    assert env.unwrapped.game_state == twin.unwrapped.game_state


def test_env_copy_drops_the_renderer_but_keeps_the_render_mode() -> None:
    env = connect_n_v0.env(render_mode="ansi")
    env.reset()
    env.step(3)
    twin = copy.deepcopy(env)
    assert twin.render() == env.render()
    assert twin.unwrapped.render_mode == "ansi"


@pytest.mark.parametrize("how", COPIES)
def test_pettingzoo_classic_copies_lose_the_position_ours_do_not(how: str) -> None:
    """Documents the pitfall: PettingZoo's classic envs copy as a fresh, un-reset env."""
    theirs = pettingzoo.make("aec", "classic/connect_four-v3")
    ours = connect_n_v0.env()
    for env in (theirs, ours):
        env.reset(seed=0)
        env.step(3)
        env.step(3)
    their_twin, our_twin = COPIES[how](theirs), COPIES[how](ours)
    assert np.count_nonzero(theirs.unwrapped.board) == 2
    assert np.count_nonzero(their_twin.unwrapped.board) == 0  # the stones are gone
    with pytest.raises(AttributeError):
        _ = their_twin.unwrapped.agent_selection  # and it was never reset
    assert np.count_nonzero(our_twin.unwrapped.game_state.board) == 2
    assert our_twin.unwrapped.game_state.history() == [3, 3]


# --- what importing the package does not do ---------------------------------------------------


def run_fresh_python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``code`` in a new interpreter outside the source tree (so the installed package is
    imported)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_import_does_not_import_pygame(tmp_path: Path) -> None:
    result = run_fresh_python(
        """
        import sys
        import connectn_env
        from connectn_env import connect_n_v0, gomoku_v0, hex_v0
        env = connect_n_v0.env()
        env.reset()
        env.step(3)
        assert "pygame" not in sys.modules, "pygame was imported"
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr


def test_import_compiles_no_numba_code(tmp_path: Path) -> None:
    result = run_fresh_python(
        """
        import numba
        import connectn_env
        from connectn_env import ENV_MODULES
        from connectn_env.games import REGISTRY
        for module in ENV_MODULES.values():
            module.env().reset()
        kernels = [k for cls in REGISTRY.families() for k in cls().kernels]
        assert all(isinstance(k, numba.core.registry.CPUDispatcher) for k in kernels)
        compiled = {k.__name__: k.signatures for k in kernels if k.signatures}
        assert not compiled, compiled
        print(len(kernels))
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= 3 * 8


def test_tests_use_the_installed_package(tmp_path: Path) -> None:
    """The package imported from outside the source tree is the one these tests import."""
    result = run_fresh_python("import connectn_env; print(connectn_env.__file__)", tmp_path)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()) == Path(connectn_env.__file__)
