"""Seeds are used whole: in the AEC, single-agent and vector envs a seed of 2**64 or more is
not cut to its low bits (``2**64`` does not give the streams of ``0``); seeds from 2**128 on
are refused with a ValueError naming the range, quickly, and the env is left as it was."""

from __future__ import annotations

import time

import numpy as np
import pytest
from aec_helpers import snapshot

from connectn_env import connect_n_v0, tictactoe
from connectn_env.envs.reset_args import SEED_LIMIT
from connectn_env.gym import BoardGameVectorEnv
from connectn_env.gym.single_agent import BoardGameGymEnv

# (a seed of more than 64 bits, the seeds it would alias if cut)
WIDE_SEEDS = [
    (2**64, [0]),
    (2**64 + 5, [5]),
    (2**100 + 2**63 + 7, [2**63 + 7, 7]),
    (SEED_LIMIT - 64, [2**64 - 64, 2**63 - 64, 2**32 - 64]),  # room for 32 boards
]
TOO_LARGE = [
    (SEED_LIMIT, r"2\*\*128 - 1 .*got 340282366920938463463374607431768211456"),
    (2**1_000_000, r"2\*\*128 - 1 .*got an int of 1000001 bits"),
    (-(2**1_000_000), r"an int >= 0, got -an int of 1000001 bits"),
]


def aec_streams(seed: int) -> list:
    env = connect_n_v0.raw_env()
    env.reset(seed=seed)
    return [env.action_space(agent).sample() for agent in env.possible_agents for _ in range(8)]


def gym_streams(seed: int) -> list:
    env = BoardGameGymEnv(tictactoe(), learner_side="random")
    env.reset(seed=seed)
    return [env.learner, *env.np_random.integers(2**62, size=4).tolist()]


def vector_streams(seed: int) -> list:
    env = BoardGameVectorEnv(tictactoe(), num_envs=32, learner_side="random")
    obs, _ = env.reset(seed=seed)
    first = obs.tolist()
    obs, *_ = env.step(np.argmax(env.action_masks(), axis=1))
    return [env.learners.tolist(), first, obs.tolist()]


STREAMS = {"aec": aec_streams, "gym": gym_streams, "vector": vector_streams}


@pytest.mark.parametrize("env_kind", list(STREAMS))
@pytest.mark.parametrize(("seed", "aliases"), WIDE_SEEDS, ids=str)
def test_wide_seeds_are_used_whole(env_kind: str, seed: int, aliases: list[int]) -> None:
    streams = STREAMS[env_kind]
    wide = streams(seed)
    assert streams(seed) == wide  # reproducible
    for alias in aliases:
        assert streams(alias) != wide, f"seed {seed} gave the streams of seed {alias}"


def _vector_state(env: BoardGameVectorEnv) -> tuple:
    return env._states.tolist(), env._rngs.tolist(), env.learners.tolist(), env._over.tolist()


def _gym_state(env: BoardGameGymEnv) -> tuple:
    return env.np_random.bit_generator.state, env.learner, env.game_state.data.tolist()


@pytest.mark.parametrize(
    ("seed", "message"), TOO_LARGE, ids=["2**128", "2**1000000", "-(2**1000000)"]
)
def test_seeds_out_of_range_are_refused_quickly_and_change_nothing(seed: int, message: str) -> None:
    aec = connect_n_v0.env()
    aec.reset(seed=3)
    aec.step(3)
    gym_env = BoardGameGymEnv(tictactoe(), learner_side="random")
    gym_env.reset(seed=3)
    gym_env.step(int(np.flatnonzero(gym_env.action_masks())[0]))
    vector = BoardGameVectorEnv(tictactoe(), num_envs=4, learner_side="random")
    vector.reset(seed=3)
    vector.step(np.argmax(vector.action_masks(), axis=1))
    before = (snapshot(aec), _gym_state(gym_env), _vector_state(vector))
    started = time.thread_time()
    for reset in (aec.reset, gym_env.reset, vector.reset):
        with pytest.raises(ValueError, match=message):
            reset(seed=seed)
    with pytest.raises(ValueError, match=r"seed\[2\] must be None or an int"):
        vector.reset(seed=[1, 2, seed, 4])
    assert time.thread_time() - started < 0.5
    assert (snapshot(aec), _gym_state(gym_env), _vector_state(vector)) == before


def test_the_vector_env_refuses_a_seed_whose_last_board_seed_is_out_of_range() -> None:
    env = BoardGameVectorEnv(tictactoe(), num_envs=4)
    env.reset(seed=SEED_LIMIT - 4)  # boards get SEED_LIMIT - 4 ... SEED_LIMIT - 1
    before = _vector_state(env)
    with pytest.raises(ValueError, match=r"seed \+ 3 \(the seed of board 3\) must be None or an"):
        env.reset(seed=SEED_LIMIT - 3)
    assert _vector_state(env) == before
