"""After a game ends, every agent's action mask is empty: after a normal end and after an
illegal move ends a game of PettingZoo's classic convention, on every registered game."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

from connectn_env import ENV_MODULES
from connectn_env.games import REGISTRY
from connectn_env.gym import BoardGameVectorEnv
from connectn_env.gym.single_agent import BoardGameGymEnv


def classic_env(name: str):
    """``env()`` of the registered game ``name`` (illegal moves lose), reset."""
    entry = REGISTRY[name]
    env = ENV_MODULES[entry.env_module].env(**entry.fixed)
    env.reset()
    return env


def play_until_a_move_is_illegal(env, extra_plies: int) -> int:
    """Play the lowest legal action until the mover has an illegal action in the action
    space, then ``extra_plies`` more moves; return an illegal action of the mover."""
    played = 0
    while True:
        mask = env.observe(env.agent_selection)["action_mask"]
        illegal = np.flatnonzero(mask == 0)
        if illegal.size and played >= extra_plies:
            return int(illegal[0])
        if illegal.size:
            played += 1
        env.step(int(np.flatnonzero(mask)[0]))
        assert not any(env.terminations.values()), "the game ended before an illegal move"


def assert_every_mask_is_empty(env) -> None:
    num_actions = env.action_space("player_0").n
    for agent in env.possible_agents:
        assert env.observe(agent)["action_mask"].tolist() == [0] * num_actions, agent
        info = env.infos.get(agent, {})
        assert not np.asarray(info.get("action_mask", 0)).any(), agent


def drain(env) -> list[str]:
    """Step None for each done agent (checking ``last()``'s mask each time); the agents seen."""
    seen = []
    for agent in env.agent_iter():
        obs, _, terminated, _, info = env.last()
        assert terminated is True
        assert not obs["action_mask"].any(), agent
        assert not np.asarray(info.get("action_mask", 0)).any()
        with pytest.raises(ValueError, match="the only valid action is None"):
            env.step(int(np.argmax(obs["action_mask"])))
        assert_every_mask_is_empty(env)
        env.step(None)
        seen.append(agent)
    return seen


@pytest.mark.parametrize("extra_plies", [0, 1], ids=["first-illegal-chance", "one-ply-later"])
@pytest.mark.parametrize("name", list(REGISTRY))
def test_an_illegal_move_leaves_every_mask_empty(
    name: str, extra_plies: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EnvLogger, "_output", False)
    env = classic_env(name)
    illegal = play_until_a_move_is_illegal(env, extra_plies)
    mover = env.agent_selection
    env.step(illegal)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards[mover] == -1.0
    assert_every_mask_is_empty(env)
    assert sorted(drain(env)) == ["player_0", "player_1"]
    assert env.agents == []
    assert_every_mask_is_empty(env)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_a_normal_end_leaves_every_mask_empty(name: str) -> None:
    env = classic_env(name)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert_every_mask_is_empty(env)
    assert sorted(drain(env)) == ["player_0", "player_1"]
    assert_every_mask_is_empty(env)


def registered_game(name: str):
    entry = REGISTRY[name]
    return entry.game_class(**entry.fixed)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_gymnasium_envs_masks_are_empty_after_an_illegal_move(name: str) -> None:
    rng = np.random.default_rng(0)
    env = BoardGameGymEnv(registered_game(name), opponent="random")
    _, info = env.reset(seed=0)
    while info["action_mask"].all():  # random play (new episodes too) until a move is illegal
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            _, info = env.reset()
    _, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert not info["action_mask"].any()
    assert not env.action_masks().any()

    vector = BoardGameVectorEnv(registered_game(name), num_envs=2)
    _, info = vector.reset(seed=0)
    mask = info["action_mask"][0]
    while mask.all() or not mask.any():  # a finished board (no legal move) starts over next step
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        _, _, _, _, info = vector.step(np.array(actions))
        mask = info["action_mask"][0]
    other = info["action_mask"][1]
    actions = np.array([np.flatnonzero(mask == 0)[0], np.argmax(other)])
    _, reward, terminated, _, info = vector.step(actions)
    assert (reward[0], terminated[0], info["illegal_action"][0]) == (-1.0, True, True)
    assert not info["action_mask"][0].any()
    assert not vector.action_masks()[0].any()
