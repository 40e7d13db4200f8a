"""``reset(seed=..., options=...)`` in the AEC, single-agent and vector envs, opponents that
answer out of range, and calls out of order: clear errors, and nothing changed."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest
from aec_helpers import snapshot

from connectn_env import CallOrderError, IllegalActionError, connect_n_v0, tictactoe
from connectn_env.envs.order import ResetFirstError
from connectn_env.gym import BoardGameVectorEnv
from connectn_env.gym.single_agent import BoardGameGymEnv, StepOrderError

BAD_SEEDS = [
    (-1, ValueError, r"seed must be None or an int >= 0, got -1"),
    (1.5, TypeError, r"seed must be None or an int >= 0, got 1\.5 of type float"),
    (float("nan"), TypeError, r"got nan of type float"),
    ("x", TypeError, r"got 'x' of type str"),
    ([3], TypeError, r"got \[3\] of type list"),
    (True, TypeError, r"got True of type bool"),
    (np.bool_(False), TypeError, r"of type bool"),
    (np.float64(2.0), TypeError, r"of type float64"),
]
BAD_OPTIONS = [5, "reset_mask", [1], 0]


def _ids(case) -> str:
    return f"{type(case).__name__}:{case!r}"


@pytest.mark.parametrize(("seed", "error", "message"), BAD_SEEDS, ids=_ids)
@pytest.mark.parametrize("factory", ["env", "raw_env"])
def test_aec_reset_refuses_bad_seeds_and_changes_nothing(factory, seed, error, message) -> None:
    env = getattr(connect_n_v0, factory)()
    env.reset(seed=np.int64(3))  # numpy integers are seeds
    env.step(3)
    before = snapshot(env)
    with pytest.raises(error, match=message):
        env.reset(seed=seed)
    assert snapshot(env) == before


@pytest.mark.parametrize("options", BAD_OPTIONS, ids=_ids)
def test_aec_reset_options_must_be_a_dict(options) -> None:
    env = connect_n_v0.raw_env()
    env.step(3)
    before = snapshot(env)
    with pytest.raises(TypeError, match=r"options must be None or a dict, got"):
        env.reset(options=options)
    assert snapshot(env) == before
    env.reset(options={})


def test_calls_before_reset_raise_a_value_error_naming_the_call() -> None:
    env = connect_n_v0.env()
    for call, name in (
        (lambda: env.step(0), "step()"),
        (lambda: env.observe("player_0"), "observe()"),
        (lambda: env.render(), "render()"),
        (lambda: env.agent_iter(), "agent_iter()"),
    ):
        with pytest.raises(CallOrderError, match=re.escape(f"{name} was called before reset()")):
            call()
    with pytest.raises(ResetFirstError, match=r"env.agents cannot be read before reset\(\)"):
        _ = env.agents
    assert issubclass(ResetFirstError, AttributeError) and issubclass(CallOrderError, ValueError)
    assert not hasattr(env, "rewards")
    env.reset()
    agents = iter(env.agent_iter())
    next(agents)
    with pytest.raises(CallOrderError, match=r"agent_iter\(\) needs a step\(\) or reset\(\)"):
        next(agents)


# --- single-agent env -------------------------------------------------------------------


def _gym_state(env: BoardGameGymEnv) -> tuple:
    generator = env.np_random.bit_generator.state
    return env.game_state.history(), env.learner, env._over, str(generator)


@pytest.mark.parametrize(("seed", "error", "message"), BAD_SEEDS, ids=_ids)
def test_gym_reset_refuses_bad_seeds_and_changes_nothing(seed, error, message) -> None:
    env = BoardGameGymEnv(tictactoe(), learner_side="random")
    env.reset(seed=np.uint32(7))
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    before = _gym_state(env)
    with pytest.raises(error, match=message):
        env.reset(seed=seed)
    with pytest.raises(TypeError, match=r"options must be None or a dict, got 5"):
        env.reset(options=5)
    assert _gym_state(env) == before


class _OutOfRange:
    def __init__(self, answer) -> None:
        self.answer = answer

    def __call__(self, observation, mask):
        return self.answer

    def __repr__(self) -> str:
        return f"<answers {self.answer!r}>"


@pytest.mark.parametrize("answer", [2**63, 2**64 + 5, -(2**63) - 1, 9, np.uint64(2**63)])
def test_gym_opponent_out_of_range_is_a_clear_error_and_changes_nothing(answer) -> None:
    env = BoardGameGymEnv(tictactoe(), opponent=_OutOfRange(answer), illegal_action="raise")
    env.reset(seed=0)
    before = env.game_state.history()
    with pytest.raises(IllegalActionError, match=rf"the opponent .* chose .*action {answer}"):
        env.step(4)
    assert env.game_state.history() == before
    second = BoardGameGymEnv(tictactoe(), opponent=_OutOfRange(answer), learner_side="second")
    with pytest.raises(IllegalActionError, match="outside the action space"):
        second.reset(seed=2)  # the opponent's opening move fails: nothing changes
    assert second.game_state.history() == [] and second._np_random is None
    state = tictactoe().new_initial_state()
    state.apply_action(4)  # the compiled rules still work in this process
    assert state.history() == [4]


def test_gym_reset_failing_in_the_opponents_opening_restores_the_env() -> None:
    calls = []

    def opening_fails(observation, mask):
        calls.append(1)
        if len(calls) > 1:
            raise RuntimeError("the opponent broke")
        return int(np.flatnonzero(mask)[0])

    env = BoardGameGymEnv(tictactoe(), opponent=opening_fails, learner_side="second")
    env.reset(seed=5)
    before = _gym_state(env)
    with pytest.raises(RuntimeError, match="the opponent broke"):
        env.reset(seed=6)
    assert _gym_state(env) == before


def test_gym_step_before_reset_or_after_the_end_is_a_call_order_error() -> None:
    assert issubclass(StepOrderError, CallOrderError) and issubclass(StepOrderError, RuntimeError)
    env = gym.make("connectn_env/TicTacToe-v0", opponent=_lowest_legal).unwrapped
    with pytest.raises(StepOrderError, match=re.escape("step() was called before reset(): ")):
        env.step(0)
    assert env.game_state.history() == [] and env._np_random is None
    env.reset(seed=0)
    for action in (3, 4):
        env.step(action)  # the opponent takes 0, then 1
    assert env.step(5)[1:3] == (1.0, True)  # 3, 4, 5: the learner wins
    with pytest.raises(RuntimeError, match=re.escape("the episode is over: call reset() before")):
        env.step(6)  # a StepOrderError, which callers may catch as a RuntimeError
    assert env.game_state.history() == [3, 0, 4, 1, 5]


# --- vector env -------------------------------------------------------------------------


def _vector_state(env: BoardGameVectorEnv) -> tuple:
    generator = env._np_random
    return (
        env._states.tolist(),
        env._rngs.tolist(),
        env.learners.tolist(),
        env._over.tolist(),
        env.action_masks().tolist(),
        env._np_random_seed,
        None if generator is None else str(generator.bit_generator.state),
    )


def _lowest_legal(observation, mask) -> int:
    return int(np.flatnonzero(mask)[0])


class _FailsOnCall:
    """A callable opponent (the lowest legal action) that raises on its call number ``n``
    (0: never)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0

    def __call__(self, observation, mask) -> int:
        self.calls += 1
        if self.calls == self.n:
            raise RuntimeError(f"the opponent broke on call {self.n}")
        return _lowest_legal(observation, mask)


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        ([1, 2, 3, -1], ValueError, r"seed\[3\] must be None or an int >= 0, got -1"),
        ([1, 2, 3, True], TypeError, r"seed\[3\] must be None or an int >= 0, got True"),
        ([1, 2, 3, 1.5], TypeError, r"seed\[3\] must be None or an int >= 0, got 1\.5"),
        ([1, 2, 3], ValueError, r"a list of 4 ints or Nones, got a list of 3"),
        (-5, ValueError, r"seed must be None or an int >= 0, got -5"),
        ("7", TypeError, r"got '7' of type str"),
    ],
    ids=str,
)
def test_vector_reset_checks_every_seed_before_changing_a_board(seed, error, message) -> None:
    env = BoardGameVectorEnv(tictactoe(), num_envs=4, learner_side="random")
    env.reset(seed=[np.int64(1), None, np.uint8(3), 4])  # numpy integers are seeds
    env.step(np.zeros(4, dtype=np.int64) + 4)
    before = _vector_state(env)
    with pytest.raises(error, match=message):
        env.reset(seed=seed)
    with pytest.raises(TypeError, match=r"options must be None or a dict, got 5"):
        env.reset(options=5)
    assert _vector_state(env) == before


def test_vector_python_opponent_out_of_range_is_a_clear_error() -> None:
    env = BoardGameVectorEnv(tictactoe(), num_envs=3, opponent=_OutOfRange(2**63))
    env.reset(seed=0)
    before = _vector_state(env)
    with pytest.raises(IllegalActionError, match=r"action 9223372036854775808 is outside"):
        env.step(np.array([4, 4, 4]))
    assert _vector_state(env) == before


def test_vector_reset_failing_in_an_opening_move_changes_nothing() -> None:
    opponent = _FailsOnCall(2)
    env = BoardGameVectorEnv(tictactoe(), num_envs=3, opponent=opponent, learner_side="second")
    with pytest.raises(RuntimeError, match="the opponent broke on call 2"):
        env.reset(seed=1)  # the second board's opening fails: still not reset
    with pytest.raises(StepOrderError, match=r"step\(\) was called before reset\(\)"):
        env.step(np.array([8, 8, 8]))
    env.reset(seed=0)
    env.step(np.array([8, 8, 8]))
    before = _vector_state(env)
    opponent.n = opponent.calls + 2
    with pytest.raises(RuntimeError, match=rf"the opponent broke on call {opponent.n}"):
        env.reset(seed=1)
    assert _vector_state(env) == before


def test_vector_same_step_autoreset_failing_in_an_opening_move_changes_nothing() -> None:
    opponent = _FailsOnCall(0)
    env = BoardGameVectorEnv(
        tictactoe(), opponent=opponent, learner_side="second", autoreset_mode="SameStep"
    )
    env.reset(seed=0)  # the opponent opens at 0
    env.step(np.array([8]))  # the opponent takes 1
    before = _vector_state(env)
    opponent.n = opponent.calls + 2  # its move at 2 wins; the opening of the next game fails
    with pytest.raises(RuntimeError, match=rf"the opponent broke on call {opponent.n}"):
        env.step(np.array([7]))
    assert _vector_state(env) == before
    opponent.n = 0
    _, reward, terminated, _, info = env.step(np.array([7]))
    assert (reward[0], terminated[0]) == (-1.0, True)
    assert info["final_obs"][0][..., 1].flatten()[:3].tolist() == [1, 1, 1]


def test_vector_step_before_reset_is_a_call_order_error() -> None:
    env = BoardGameVectorEnv(tictactoe(), num_envs=2)
    before = _vector_state(env)
    with pytest.raises(CallOrderError, match=re.escape("call reset() before step()")):
        env.step(np.array([0, 0]))
    assert _vector_state(env) == before
    env.reset(seed=0)
    env.step(np.array([0, 0]))
    assert [env.game_state(i).history()[0] for i in range(2)] == [0, 0]


@pytest.mark.parametrize(
    ("actions", "error", "message"),
    [
        (np.array([2**63, 0], dtype=np.uint64), ValueError, r"action 9223372036854775808 is"),
        ([2**64, 0], TypeError, r"integer array .* got dtype object"),
        ([True, False], TypeError, r"actions must be integers, not bools, got \[True, False\]"),
        (np.array([True, False]), TypeError, r"got dtype bool"),
    ],
    ids=["2**63", "2**64", "bools", "bool array"],
)
def test_vector_learner_actions_out_of_range(actions, error, message) -> None:
    env = BoardGameVectorEnv(tictactoe(), num_envs=2)
    env.reset(seed=0)
    before = _vector_state(env)
    with pytest.raises(error, match=message):
        env.step(actions)
    assert _vector_state(env) == before


@pytest.mark.parametrize("num_envs", [2**31, 2**70])
def test_vector_env_refuses_more_boards_than_memory_holds(num_envs: int) -> None:
    with pytest.raises(ValueError, match=rf"num_envs must be at most \d+ .* got {num_envs}"):
        BoardGameVectorEnv(tictactoe(), num_envs=num_envs)


@pytest.mark.parametrize("env_class", [BoardGameGymEnv, BoardGameVectorEnv])
def test_mcts_opponent_with_more_nodes_than_memory_is_refused_up_front(env_class) -> None:
    with pytest.raises(ValueError, match=r"max_nodes must be at most \d+ .* got 1099511627776"):
        env_class(tictactoe(), opponent="mcts", opponent_kwargs={"max_nodes": 2**40})
    with pytest.raises(TypeError, match=r"'depth' is not an MCTSAgent argument; valid: "):
        env_class(tictactoe(), opponent="mcts", opponent_kwargs={"depth": 3})
