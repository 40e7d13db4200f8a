"""Bad input: clear TypeError/ValueError messages, and a failed call changes nothing."""

from __future__ import annotations

import re
from types import ModuleType

import numpy as np
import pytest
from aec_helpers import snapshot
from pettingzoo.utils.env_logger import EnvLogger

from connectn_env import (
    ENV_MODULES,
    CallOrderError,
    IllegalActionError,
    connect_n_v0,
    gomoku_v0,
    hex_v0,
)
from connectn_env.games.config import GameConfig

MODULES = list(ENV_MODULES.values())  # every registered game family
FACTORIES = ["env", "raw_env"]


def module_id(module: ModuleType) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def started(module: ModuleType, factory: str, **kwargs):
    """A reset env after one move (so both players' data is non-trivial)."""
    env = getattr(module, factory)(**kwargs)
    env.reset()
    env.step(env.unwrapped.game_state.legal_actions()[-1])
    return env


# --- actions outside the action space -------------------------------------------------

NOT_INTEGERS = [
    2.0,
    np.float64(2.0),
    "2",
    None,
    True,
    False,
    np.bool_(True),
    [2],
    (2,),
    np.array([2]),
    np.array(2.0),
    2 + 0j,
]


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("module", MODULES, ids=module_id)
@pytest.mark.parametrize("offset", [0, 1, 10**6], ids=lambda k: f"num_actions+{k}")
@pytest.mark.parametrize("negative", [False, True], ids=["too-large", "negative"])
def test_out_of_range_action_raises_value_error_and_changes_nothing(
    module: ModuleType, factory: str, offset: int, negative: bool
) -> None:
    env = started(module, factory)
    num_actions = env.action_space(env.agent_selection).n
    action = -1 - offset if negative else num_actions + offset
    before = snapshot(env)
    for value in (action, np.int64(action)):
        with pytest.raises(
            ValueError,
            match=rf"action {action} is outside the action space: actions are 0 to "
            rf"{num_actions - 1}",
        ):
            env.step(value)
    assert snapshot(env) == before


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("module", MODULES, ids=module_id)
@pytest.mark.parametrize("action", NOT_INTEGERS, ids=lambda a: f"{type(a).__name__}:{a!r}")
def test_non_integer_action_raises_type_error_and_changes_nothing(
    module: ModuleType, factory: str, action
) -> None:
    env = started(module, factory)
    before = snapshot(env)
    with pytest.raises(TypeError, match=rf"action must be an int .* got {re.escape(repr(action))}"):
        env.step(action)
    assert snapshot(env) == before


# --- illegal actions --------------------------------------------------------------------

# (module, kwargs, actions played first, illegal action, words of the reason)
ILLEGAL_CASES = {
    "connect four, full column": (
        connect_n_v0,
        {},
        [3, 3, 3, 3, 3, 3],
        3,
        "action 3 is illegal: column 3 is full",
    ),
    "tic-tac-toe, occupied cell": (
        connect_n_v0,
        {"rows": 3, "cols": 3, "n": 3, "gravity": False},
        [4, 0],
        4,
        r"action 4 is illegal: cell \(row 1, col 1\) is occupied",
    ),
    "gomoku, occupied cell": (
        gomoku_v0,
        {},
        [112],
        112,
        r"action 112 is illegal: cell \(row 7, col 7\) is occupied",
    ),
    "hex, occupied cell": (
        hex_v0,
        {"size": 5},
        [7, 8],
        8,
        r"action 8 is illegal: cell \(row 1, col 3\) is occupied",
    ),
    "hex, swap as the first move": (
        hex_v0,
        {"size": 5, "swap": True},
        [],
        25,
        "action 25 is illegal: swap is only allowed as player_1's first move",
    ),
    "hex, swap after the swap": (
        hex_v0,
        {"size": 5, "swap": True},
        [7, 25],
        25,
        "action 25 is illegal: swap is only allowed as player_1's first move",
    ),
    "hex, swap as player_1's second move": (
        hex_v0,
        {"size": 5, "swap": True},
        [7, 8, 9],
        25,
        "action 25 is illegal: swap is only allowed",
    ),
    "hex, swapped-away cell": (
        hex_v0,
        {"size": 5, "swap": True},
        [6, 25],
        6,
        r"action 6 is illegal: cell \(row 1, col 1\) is occupied",
    ),
}


def env_after(module: ModuleType, factory: str, kwargs: dict, actions: list[int], **extra):
    env = getattr(module, factory)(**kwargs, **extra)
    env.reset()
    for action in actions:
        env.step(action)
    return env


@pytest.mark.parametrize(
    ("module", "kwargs", "actions", "illegal", "reason"),
    ILLEGAL_CASES.values(),
    ids=ILLEGAL_CASES.keys(),
)
def test_raw_env_illegal_action_raises_and_leaves_the_env_exactly_unchanged(
    module: ModuleType, kwargs: dict, actions: list[int], illegal: int, reason: str
) -> None:
    env = env_after(module, "raw_env", kwargs, actions)
    assert env.observe(env.agent_selection)["action_mask"][illegal] == 0
    before = snapshot(env)
    with pytest.raises(IllegalActionError, match=reason) as error:
        env.step(illegal)
    assert isinstance(error.value, ValueError)
    assert snapshot(env) == before
    # The env still plays on.
    legal = env.unwrapped.game_state.legal_actions()[0]
    env.step(legal)
    assert env.unwrapped.game_state.history() == [*actions, legal]


@pytest.mark.parametrize("how", ["env", "raw_env(illegal_action='lose')"])
@pytest.mark.parametrize(
    ("module", "kwargs", "actions", "illegal", "reason"),
    ILLEGAL_CASES.values(),
    ids=ILLEGAL_CASES.keys(),
)
def test_classic_env_illegal_action_loses(
    module: ModuleType, kwargs: dict, actions: list[int], illegal: int, reason: str, how: str
) -> None:
    if how == "env":
        env = env_after(module, "env", kwargs, actions)
    else:
        env = env_after(module, "raw_env", kwargs, actions, illegal_action="lose")
    mover = env.agent_selection
    other = "player_1" if mover == "player_0" else "player_0"
    board_before = env.unwrapped.game_state.data.tolist()
    env.step(illegal)
    assert env.unwrapped.game_state.data.tolist() == board_before  # the move was not played
    assert env.rewards == {mover: -1.0, other: 0.0}
    assert env.terminations == {mover: True, other: True}
    assert env.infos[mover] == {"illegal_action": illegal}
    seen = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated is True
        seen[agent] = reward
        env.step(None)
    assert seen == {mover: -1.0, other: 0.0}
    assert env.agents == []


# --- stepping a finished game -----------------------------------------------------------


@pytest.mark.parametrize("factory", FACTORIES)
def test_stepping_a_finished_game(factory: str) -> None:
    env = env_after(connect_n_v0, factory, {"rows": 1, "cols": 2, "n": 1}, [0])
    assert env.terminations == {"player_0": True, "player_1": True}
    before = snapshot(env)
    # PettingZoo's convention: None is the only valid action for an agent that is done.
    with pytest.raises(ValueError, match=r"player_1 is done .* only valid action is None, got 1"):
        env.step(1)
    with pytest.raises(ValueError, match=r"only valid action is None, got np.int64\(0\)"):
        env.step(np.int64(0))
    assert snapshot(env) == before
    env.step(None)
    with pytest.raises(ValueError, match="player_0 is done"):
        env.step(1)
    env.step(None)
    assert env.agents == []
    before = snapshot(env)
    EnvLogger.mqueue.clear()
    for action in (1, 99, "garbage", None):
        message = f"every agent is done: call reset() before step() (got action {action!r})"
        with pytest.raises(CallOrderError, match=re.escape(message)):
            env.step(action)
    with pytest.raises(
        CallOrderError, match=re.escape("every agent is done: call reset() before last()")
    ):
        env.last()
    assert snapshot(env) == before
    assert EnvLogger.mqueue == []  # not PettingZoo's warning
    env.reset()
    env.step(1)
    assert env.unwrapped.game_state.history() == [1]


# --- constructor arguments ----------------------------------------------------------------

BAD_ARGUMENTS = [
    (connect_n_v0, {"rows": 0}, ValueError, "rows must be between 1 and 32, got 0"),
    (connect_n_v0, {"rows": 33}, ValueError, "rows must be between 1 and 32, got 33"),
    (connect_n_v0, {"cols": -3}, ValueError, "cols must be between 1 and 32, got -3"),
    (connect_n_v0, {"rows": 2.5}, TypeError, "rows must be an int, got 2.5"),
    (connect_n_v0, {"rows": "6"}, TypeError, "rows must be an int, got '6'"),
    (connect_n_v0, {"rows": None}, TypeError, "rows must be an int, got None"),
    (connect_n_v0, {"rows": True}, TypeError, "rows must be an int, got True"),
    (connect_n_v0, {"rows": 3, "cols": 3, "n": 4}, ValueError, "n must be between 1 and 3, got 4"),
    (connect_n_v0, {"n": 0}, ValueError, "n must be between 1 and 7, got 0"),
    (connect_n_v0, {"gravity": "yes"}, TypeError, "gravity must be True or False, got 'yes'"),
    (connect_n_v0, {"gravity": 1}, TypeError, "gravity must be True or False, got 1"),
    (gomoku_v0, {"rule": "renju"}, ValueError, "rule must be one of .*, got 'renju'"),
    (gomoku_v0, {"size": 4}, ValueError, "size must be between 5 and 32, got 4"),
    (gomoku_v0, {"rows": 4, "cols": 4}, ValueError, "side of at least 5, got 4 x 4"),
    (gomoku_v0, {"size": 33}, ValueError, "size must be between 5 and 32, got 33"),
    (hex_v0, {"rows": 3, "cols": 4, "swap": True}, ValueError, "square board, got 3 x 4"),
    (hex_v0, {"swap": 1}, TypeError, "swap must be True or False, got 1"),
    (hex_v0, {"size": 0}, ValueError, "size must be between 1 and 32, got 0"),
    (hex_v0, {"size": 11.0}, TypeError, "size must be an int, got 11.0"),
]
BAD_ARGUMENTS += [
    (module, {"render_mode": mode}, ValueError, f"render_mode must be one of .*, got {mode!r}")
    for module in MODULES
    for mode in ("foo", "rgb", 3)
]


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize(
    ("module", "kwargs", "error", "message"),
    BAD_ARGUMENTS,
    ids=[f"{module_id(m)}-{kw}" for m, kw, _, _ in BAD_ARGUMENTS],
)
def test_invalid_constructor_arguments_raise_naming_the_value(
    module: ModuleType, factory: str, kwargs: dict, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        getattr(module, factory)(**kwargs)


@pytest.mark.parametrize("module", MODULES, ids=module_id)
def test_invalid_illegal_action_mode(module: ModuleType) -> None:
    with pytest.raises(ValueError, match="illegal_action must be one of 'raise', 'lose', got 'x'"):
        module.raw_env(illegal_action="x")


@pytest.mark.parametrize("module", MODULES, ids=module_id)
def test_unknown_keyword_is_a_type_error(module: ModuleType) -> None:
    with pytest.raises(TypeError, match="colour"):
        module.env(colour="red")


# --- agents that do not exist ---------------------------------------------------------------


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("module", MODULES, ids=module_id)
@pytest.mark.parametrize("agent", ["player_9", 3, None, "player_0 "])
def test_unknown_agent_raises(module: ModuleType, factory: str, agent) -> None:
    env = getattr(module, factory)()
    env.reset()
    message = rf"agent must be one of player_0, player_1, got {re.escape(repr(agent))}"
    for method in (env.observe, env.action_space, env.observation_space):
        with pytest.raises(ValueError, match=message):
            method(agent)


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("connect_four", "\u0663", r"'\u0663' is not a column: enter a column number, 1 to 7"),
        ("connect_four", "9" * 5000, r"there is no column 9{12}\.\.\.: enter a column number"),
        ("connect_four", "0", "there is no column 0"),
        ("tictactoe", "a" + "1" * 5000, r"cell 'a1{19}'\.\.\. is off the 3 x 3 board"),
    ],
)
def test_parse_action_refuses_odd_numbers_by_name(game: str, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameConfig(game).make_game().parse_action(text)
    assert GameConfig("connect_four").make_game().parse_action("007") == 6
