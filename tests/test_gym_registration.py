"""Gymnasium ids: registration, kwargs, module-prefixed ids, cheap package import."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import gymnasium as gym
import pytest
from pythonpath_helpers import child_environment

import connectn_env
from connectn_env import GomokuGame, HexGame
from connectn_env.gym import BoardGameGymEnv, BoardGameVectorEnv


def run_python(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=child_environment(),
    )
    return result.stdout.strip()


def test_module_prefixed_id_needs_no_prior_import():
    out = run_python(
        """
        import sys
        import gymnasium as gym
        assert "connectn_env" not in sys.modules
        env = gym.make("connectn_env:connectn_env/ConnectFour-v0")
        obs, info = env.reset(seed=0)
        print(obs.shape, type(env.unwrapped).__name__)
        """
    )
    assert out == "(6, 7, 2) BoardGameGymEnv"


def test_import_registers_ids_without_pygame_agents_or_compiling():
    out = run_python(
        """
        import sys
        import gymnasium as gym
        import connectn_env
        import connectn_env.gym.vector_kernels as vector_kernels
        from connectn_env.games import REGISTRY
        functions = [*vars(vector_kernels).values()]
        for game_class in REGISTRY.families():
            functions += game_class().kernels
        compiled = [f for f in functions if getattr(f, "signatures", None)]
        ids = sorted(k for k in gym.registry if k.startswith("connectn_env/"))
        print("pygame" in sys.modules, "agents" in sys.modules, compiled, ids)
        """
    )
    assert out == (
        "False False [] ['connectn_env/ConnectFour-v0', 'connectn_env/ConnectN-v0', "
        "'connectn_env/Gomoku-v0', 'connectn_env/GridPath-v0', 'connectn_env/Hex-v0', "
        "'connectn_env/Othello-v0', "
        "'connectn_env/TicTacToe-v0']"
    )


@pytest.mark.parametrize(
    ("env_id", "kwargs", "parameters"),
    [
        ("connectn_env/ConnectFour-v0", {}, {"rows": 6, "cols": 7, "n": 4, "gravity": True}),
        ("connectn_env/TicTacToe-v0", {}, {"rows": 3, "cols": 3, "n": 3, "gravity": False}),
        (
            "connectn_env/ConnectN-v0",
            {"rows": 4, "cols": 9, "n": 3, "gravity": False},
            {"rows": 4, "cols": 9, "n": 3, "gravity": False},
        ),
        ("connectn_env/Gomoku-v0", {}, {"rows": 15, "cols": 15, "rule": "freestyle"}),
        (
            "connectn_env/Gomoku-v0",
            {"size": 9, "rule": "standard"},
            {"rows": 9, "cols": 9, "rule": "standard"},
        ),
        ("connectn_env/Hex-v0", {}, {"rows": 11, "cols": 11, "swap": False}),
        ("connectn_env/Hex-v0", {"rows": 3, "cols": 5}, {"rows": 3, "cols": 5, "swap": False}),
    ],
)
def test_ids_build_the_right_game(env_id, kwargs, parameters):
    env = gym.make(env_id, **kwargs)
    assert isinstance(env.unwrapped, BoardGameGymEnv)
    assert env.unwrapped.game.parameters == parameters
    vector = gym.make_vec(env_id, num_envs=2, **kwargs)
    assert isinstance(vector, BoardGameVectorEnv)
    assert vector.game.parameters == parameters


def test_a_game_object_can_be_passed():
    env = gym.make("connectn_env/Hex-v0", game=HexGame(size=4, swap=True))
    assert env.action_space.n == 17
    with pytest.raises(ValueError, match="game object"):
        gym.make("connectn_env/Hex-v0", game=GomokuGame(size=7), size=5)
    with pytest.raises(ValueError, match="game must be"):
        gym.make("connectn_env/Hex-v0", game="chess")


def test_bad_game_parameters_raise():
    with pytest.raises(ValueError, match="n must be"):
        gym.make("connectn_env/ConnectN-v0", n=9)
    with pytest.raises(TypeError):
        gym.make("connectn_env/Gomoku-v0", swap=True)


def test_registration_is_idempotent():
    before = dict(gym.registry)
    connectn_env.gym.register_gym_envs()
    assert dict(gym.registry) == before
