"""Bad values thrown at every public entry (Hypothesis).

Each entry is called with values that a brute-force predicate says are invalid; it must
raise ``TypeError`` or ``ValueError`` (or a documented subclass) whose message names the
value, and a stateful object must be exactly as it was before the call. Records and agent
specs get random text too: they must parse exactly when a reference predicate says they
are valid, and fail with a ``ValueError`` otherwise.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from aec_helpers import snapshot
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import agents
from connectn_env import ENV_MODULES, connect_n_v0, gomoku_v0, hex_v0, tictactoe
from connectn_env.arena import run_tournament
from connectn_env.games import ConnectNGame, GomokuGame, HexGame
from connectn_env.gym import BoardGameVectorEnv, SelfPlayOpponent
from connectn_env.gym.single_agent import BoardGameGymEnv
from connectn_env.memory_limits import max_tree_nodes
from connectn_env.records import (
    GameConfig,
    GameRecord,
    record_from_json,
    record_from_sgf,
    record_to_json,
    save_record,
)
from connectn_env.specs import MAX_SPEC_LENGTH, parse_agent_spec

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)

# --- hostile values ---------------------------------------------------------------------

SPECIAL = [
    np.bool_(True),
    np.float64(2.0),
    np.float32("nan"),
    np.int64(-1),
    np.uint64(2**63),
    np.array([1, 2]),
    np.array(1.5),
    [1],
    (2,),
    {"a": 1},
    1 + 2j,
    "１０",
    "\x1b[2J",
    b"\x00",
    2**63,
    -(2**63) - 1,
    2**64,
    float("inf"),
    float("-inf"),
    float("nan"),
    -0.0,
]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(),
    st.integers(-(2**80), 2**80),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.sampled_from(SPECIAL),
)


def is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)


def int_in(low: int, high: int | None = None) -> Callable[[Any], bool]:
    return lambda v: is_int(v) and low <= int(v) and (high is None or int(v) <= high)


def number_in(low: float, high: float = math.inf, *, strict: bool = False) -> Callable:
    def valid(v: Any) -> bool:
        if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real):
            return False
        v = float(v)
        return math.isfinite(v) and (v > low if strict else v >= low) and v <= high

    return valid


def is_bool(value: Any) -> bool:
    return isinstance(value, bool | np.bool_)


def one_of(*choices: Any) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and v in choices


def optional(valid: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or valid(v)


def names(message: str, value: Any) -> bool:
    """True if ``message`` names ``value`` (its repr, its str, or for containers and
    objects, its type)."""
    candidates = {repr(value), str(value), type(value).__name__}
    if isinstance(value, np.generic):
        candidates |= {repr(value.item()), str(value.item())}
    if isinstance(value, float):
        candidates.add(f"{value:g}")
    if is_int(value):
        candidates |= {str(int(value)), repr(float(value))}  # numbers may be named as floats
    return any(c in message for c in candidates if c)


def refused(call: Callable[[], Any], value: Any, state: Callable[[], Any] | None = None) -> str:
    """``call()`` must raise TypeError/ValueError naming ``value``; ``state()`` unchanged."""
    before = state() if state is not None else None
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    message = str(caught.value)
    assert names(message, value), f"{type(caught.value).__name__}: {message!r} for {value!r}"
    if state is not None:
        assert state() == before
    return message


# --- constructors -----------------------------------------------------------------------

CONSTRUCTORS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], bool]]] = {
    "connect_n_v0.env(rows)": (lambda v: connect_n_v0.env(rows=v), int_in(1, 32)),
    "connect_n_v0.env(cols)": (lambda v: connect_n_v0.env(cols=v), int_in(1, 32)),
    "connect_n_v0.env(n)": (lambda v: connect_n_v0.env(n=v), int_in(1, 7)),
    "connect_n_v0.env(gravity)": (lambda v: connect_n_v0.env(gravity=v), is_bool),
    "connect_n_v0.env(render_mode)": (
        lambda v: connect_n_v0.env(render_mode=v),
        optional(one_of("human", "rgb_array", "ansi")),
    ),
    "connect_n_v0.raw_env(illegal_action)": (
        lambda v: connect_n_v0.raw_env(illegal_action=v),
        one_of("raise", "lose"),
    ),
    "gomoku_v0.env(size)": (lambda v: gomoku_v0.env(size=v), int_in(5, 32)),
    "gomoku_v0.env(rule)": (lambda v: gomoku_v0.env(rule=v), one_of("freestyle", "standard")),
    "hex_v0.env(size)": (lambda v: hex_v0.env(size=v), int_in(1, 32)),
    "hex_v0.env(swap)": (lambda v: hex_v0.env(swap=v), is_bool),
    "ConnectNGame(rows)": (lambda v: ConnectNGame(rows=v), int_in(1, 32)),
    "GomokuGame(cols)": (lambda v: GomokuGame(cols=v), optional(int_in(1, 32))),
    "HexGame(rows)": (lambda v: HexGame(rows=v), optional(int_in(1, 32))),
    "GameConfig(name)": (
        lambda v: GameConfig(v),
        one_of("connect_four", "tictactoe", "connect_n", "gomoku", "hex", "othello"),
    ),
    "BoardGameGymEnv(learner_side)": (
        lambda v: BoardGameGymEnv(tictactoe(), learner_side=v),
        one_of("first", "second", "random"),
    ),
    "BoardGameGymEnv(illegal_action)": (
        lambda v: BoardGameGymEnv(tictactoe(), illegal_action=v),
        one_of("lose", "raise"),
    ),
    "BoardGameGymEnv(opponent)": (
        lambda v: BoardGameGymEnv(tictactoe(), opponent=v),
        lambda v: one_of("random", "mcts", "self")(v) or callable(v) or hasattr(v, "act"),
    ),
    "SelfPlayOpponent(pool_size)": (lambda v: SelfPlayOpponent(pool_size=v), int_in(1, 100_000)),
    "SelfPlayOpponent(latest_probability)": (
        lambda v: SelfPlayOpponent(latest_probability=v),
        number_in(0.0, 1.0),
    ),
    "SelfPlayOpponent(deterministic)": (lambda v: SelfPlayOpponent(deterministic=v), is_bool),
    "BoardGameGymEnv(opponent_kwargs)": (
        lambda v: BoardGameGymEnv(tictactoe(), opponent="mcts", opponent_kwargs=v),
        lambda v: v is None or (isinstance(v, dict) and not v),
    ),
    "BoardGameVectorEnv(num_envs)": (
        lambda v: BoardGameVectorEnv(tictactoe(), num_envs=v),
        int_in(1),  # too many for the memory: see test_reset_and_call_order.py
    ),
    "BoardGameVectorEnv(autoreset_mode)": (
        lambda v: BoardGameVectorEnv(tictactoe(), autoreset_mode=v),
        one_of("NextStep", "SameStep"),
    ),
    "RandomAgent(seed)": (lambda v: agents.RandomAgent(seed=v), optional(int_in(0))),
    "PolicyAgent(fn)": (lambda v: agents.PolicyAgent(v), callable),
    "MCTSAgent(simulations)": (lambda v: agents.MCTSAgent(simulations=v), optional(int_in(1))),
    "MCTSAgent(time_limit)": (
        lambda v: agents.MCTSAgent(time_limit=v),
        optional(number_in(0.0, strict=True)),
    ),
    "MCTSAgent(exploration)": (
        lambda v: agents.MCTSAgent(exploration=v),
        optional(number_in(0.0)),
    ),
    "MCTSAgent(rave)": (lambda v: agents.MCTSAgent(rave=v), optional(is_bool)),
    "MCTSAgent(rave_equivalence)": (
        lambda v: agents.MCTSAgent(rave_equivalence=v),
        optional(number_in(0.0, strict=True)),
    ),
    "MCTSAgent(selection)": (
        lambda v: agents.MCTSAgent(selection=v),
        optional(one_of("ucb1", "ucb1-tuned")),
    ),
    "MCTSAgent(pool_rave)": (
        lambda v: agents.MCTSAgent(rave=True, pool_rave=v),
        optional(int_in(0)),
    ),
    "MCTSAgent(decisive)": (lambda v: agents.MCTSAgent(decisive=v), optional(is_bool)),
    "MCTSAgent(lgr)": (lambda v: agents.MCTSAgent(lgr=v), optional(is_bool)),
    "MCTSAgent(local)": (lambda v: agents.MCTSAgent(local=v), optional(is_bool)),
    "MCTSAgent(exact)": (lambda v: agents.MCTSAgent(exact=v), optional(is_bool)),
    "MCTSAgent(preset)": (lambda v: agents.MCTSAgent(preset=v), one_of("default", "uct")),
    "MCTSAgent(reuse_tree)": (lambda v: agents.MCTSAgent(reuse_tree=v), is_bool),
    "MCTSAgent(max_nodes) below the memory bound": (
        lambda v: agents.MCTSAgent(max_nodes=v),
        lambda v: not (is_int(v) and int(v) <= 1) or int_in(2)(v),
    ),
    "MCTSAgent(backend)": (
        lambda v: agents.MCTSAgent(backend=v),
        one_of("auto", "native", "generic"),
    ),
    "PUCTAgent(c_puct)": (lambda v: agents.PUCTAgent(c_puct=v), number_in(0.0)),
    "PUCTAgent(noise_fraction)": (
        lambda v: agents.PUCTAgent(noise_fraction=v),
        number_in(0.0, 1.0),
    ),
    "PUCTAgent(dirichlet_alpha)": (
        lambda v: agents.PUCTAgent(dirichlet_alpha=v),
        number_in(0.0, strict=True),
    ),
    "PUCTAgent(temperature)": (lambda v: agents.PUCTAgent(temperature=v), number_in(0.0)),
    "PUCTAgent(policy_value_fn)": (
        lambda v: agents.PUCTAgent(v),
        lambda v: v is None or callable(v),
    ),
    "PUCTAgent(simulations) other than None": (
        lambda v: agents.PUCTAgent(simulations=v),
        lambda v: v is None or int_in(1)(v),
    ),
}


@pytest.mark.parametrize("entry", sorted(CONSTRUCTORS))
@FUZZ
@given(value=VALUES)
def test_constructors_refuse_bad_values_naming_them(entry: str, value: Any) -> None:
    build, valid = CONSTRUCTORS[entry]
    assume(not valid(value))
    refused(lambda: build(value), value)


def test_puct_without_a_budget_is_refused_at_construction() -> None:
    refused(lambda: agents.PUCTAgent(simulations=None), None)


def test_mcts_with_more_nodes_than_memory_is_refused_at_construction() -> None:
    refused(lambda: agents.MCTSAgent(max_nodes=2**40), 2**40)


# --- the AEC env ------------------------------------------------------------------------

AEC_MODULES = list(ENV_MODULES.values())  # every registered game family


def _started(module: Any, factory: str) -> Any:
    env = getattr(module, factory)()
    env.reset(seed=1)
    env.step(env.unwrapped.game_state.legal_actions()[-1])
    return env


@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("module", AEC_MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@FUZZ
@given(value=VALUES)
def test_aec_step_reset_and_observe_refuse_bad_values(module, factory, value) -> None:
    env = _started(module, factory)
    legal = np.flatnonzero(env.unwrapped.game_state.legal_action_mask()).tolist()
    if factory == "env":  # PettingZoo's convention: an illegal action in range loses
        legal = list(range(env.unwrapped.game.num_actions))
    state = lambda: snapshot(env)  # noqa: E731
    if not (is_int(value) and int(value) in legal):
        refused(lambda: env.step(value), value, state)
    if not optional(int_in(0))(value):
        refused(lambda: env.reset(seed=value), value, state)
    if not (value is None or isinstance(value, dict)):
        refused(lambda: env.reset(options=value), value, state)
    if not one_of("player_0", "player_1")(value):
        refused(lambda: env.observe(value), value, state)
        refused(lambda: env.action_space(value), value, state)


# --- GameState --------------------------------------------------------------------------


def _game_state() -> Any:
    state = tictactoe().new_initial_state()
    state.apply_action(4)
    return state


@FUZZ
@given(value=VALUES)
def test_game_state_apply_action_refuses_bad_values_within_int64(value: Any) -> None:
    assume(not (is_int(value) and not -(2**63) <= int(value) < 2**63))  # the lead's part
    state = _game_state()
    assume(not (is_int(value) and state.legal_action_mask()[int(value) % 9] and 0 <= value < 9))
    refused(lambda: state.apply_action(value), value, lambda: state.data.tolist())


@FUZZ
@given(
    value=st.one_of(
        st.integers(min_value=2**63, max_value=2**80), st.integers(max_value=-(2**63) - 1)
    )
)
def test_game_state_apply_action_refuses_ints_beyond_int64(value: int) -> None:
    state = _game_state()
    refused(lambda: state.apply_action(value), value, lambda: state.data.tolist())


@FUZZ
@given(value=VALUES)
def test_game_state_observation_refuses_bad_players(value: Any) -> None:
    assume(not (is_int(value) and int(value) in (0, 1)))
    state = _game_state()
    refused(lambda: state.observation(value), value, lambda: state.data.tolist())


@pytest.mark.parametrize("agent", ["random", "mcts"])
def test_agents_refuse_something_that_is_not_an_env(agent: str) -> None:
    player = agents.RandomAgent(seed=0) if agent == "random" else agents.MCTSAgent(simulations=5)
    for value in (5, None, "env"):
        refused(lambda v=value: player.act(v), value)


# --- the single-agent and vector envs ---------------------------------------------------


def _gym_state(env: BoardGameGymEnv) -> tuple:
    generator = env._np_random
    rng = None if generator is None else str(generator.bit_generator.state)
    return env.game_state.data.tolist(), env.learner, env._over, rng


@FUZZ
@given(value=VALUES)
def test_gym_env_refuses_bad_values(value: Any) -> None:
    env = BoardGameGymEnv(tictactoe(), learner_side="random", illegal_action="raise")
    env.reset(seed=3)
    state = lambda: _gym_state(env)  # noqa: E731
    legal = np.flatnonzero(env.action_masks()).tolist()
    if not (is_int(value) and int(value) in legal):
        refused(lambda: env.step(value), value, state)
    if not optional(int_in(0))(value):
        refused(lambda: env.reset(seed=value), value, state)
    if not (value is None or (isinstance(value, dict) and not value)):
        refused(lambda: env.reset(options=value), value, state)


def _vector_state(env: BoardGameVectorEnv) -> tuple:
    return env._states.tolist(), env._rngs.tolist(), env.learners.tolist(), env._over.tolist()


@FUZZ
@given(value=VALUES, position=st.integers(0, 2))
def test_vector_env_refuses_bad_values(value: Any, position: int) -> None:
    env = BoardGameVectorEnv(tictactoe(), num_envs=3, learner_side="random")
    env.reset(seed=0)
    state = lambda: _vector_state(env)  # noqa: E731
    if not optional(int_in(0))(value):
        seeds: list[Any] = [1, 2, 3]
        seeds[position] = value
        refused(lambda: env.reset(seed=seeds), value, state)
        if not isinstance(value, list | tuple):
            refused(lambda: env.reset(seed=value), value, state)
    if not (is_int(value) and 0 <= int(value) < 9):
        actions: list[Any] = [4, 4, 4]
        actions[position] = value
        with pytest.raises((TypeError, ValueError)):
            env.step(actions)  # one bad entry: the message names the array's dtype or value
        assert state() == _vector_state(env)


# --- agent specs: parsed exactly when valid ---------------------------------------------

SPEC_KEYS = {  # key -> reference validity of its text
    "simulations": lambda t: _int_text(t, 1, 10**12),
    "time": lambda t: _float_text(t, 0.0, 1e6, strict=True),
    "c": lambda t: _float_text(t, 0.0, 1e6),
    "rave": lambda t: t.lower() in ("true", "false"),
    "rave_k": lambda t: _float_text(t, 0.0, 1e12, strict=True),
    "max_nodes": lambda t: _int_text(t, 2, max_tree_nodes()),
    "seed": lambda t: _int_text(t, 0, None),
}
SPEC_TEXT = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"[+-]?[0-9]{0,14}(\.[0-9]{0,3})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.sampled_from(["1e999", "nan", "inf", "１０", "٣", "9" * 120, "1_000", " 5", "0x10"]),
)


def _int_text(text: str, low: int, high: int | None) -> bool:
    if not re.fullmatch(r"[+-]?[0-9]+", text) or len(text) > 100:
        return False
    return low <= int(text) and (high is None or int(text) <= high)


def _float_text(text: str, low: float, high: float, *, strict: bool = False) -> bool:
    if len(text) > 100:
        return False
    if not re.fullmatch(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?", text):
        return False
    value = float(text)
    return math.isfinite(value) and (value > low if strict else value >= low) and value <= high


@FUZZ
@given(key=st.sampled_from(sorted(SPEC_KEYS)), text=SPEC_TEXT)
def test_mcts_spec_values_parse_exactly_when_valid(key: str, text: str) -> None:
    assume("," not in text and "=" not in text and text.strip() == text)
    spec = f"mcts:{key}={text}"
    if text and SPEC_KEYS[key](text):
        assert parse_agent_spec(spec).options[0][0] == key
    else:
        message = refused(lambda: parse_agent_spec(spec), spec)
        assert len(message) < 2 * MAX_SPEC_LENGTH


@FUZZ
@given(value=VALUES)
def test_parse_agent_spec_refuses_non_strings(value: Any) -> None:
    assume(not isinstance(value, str))
    refused(lambda: parse_agent_spec(value), value)


# --- records ----------------------------------------------------------------------------

RECORD = record_to_json(GameRecord(GameConfig("tictactoe"), (4, 0, 8), players=("a", "b")))
RECORD_KEYS = {  # key -> reference validity of a value
    "format": lambda v: v == "connectn-record",
    "version": lambda v: type(v) is int and v == 1,
    "game": lambda v: v == "tictactoe",
    "params": lambda v: isinstance(v, dict) and not v,
    "players": lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(p, str) for p in v),
    "moves": lambda v: _legal_moves(v),
    "result": lambda v: v == "unfinished",
    "reason": lambda v: v == "",
    "date": lambda v: isinstance(v, str) and len(v) <= 64,
    "meta": lambda v: isinstance(v, dict),  # any JSON object this shallow
}
JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False),
        st.text(max_size=6),
    ),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)


@FUZZ
@given(key=st.sampled_from(sorted(RECORD_KEYS)), value=JSON_VALUES)
def test_record_json_refuses_bad_values_naming_the_key(key: str, value: Any) -> None:
    assume(not RECORD_KEYS[key](value))
    data = {**RECORD, key: value}
    with pytest.raises(ValueError) as caught:
        record_from_json(json.loads(json.dumps(data)), where="game.json")
    message = str(caught.value)
    assert message.startswith("game.json")
    assert key.rstrip("s") in message or names(message, value), message


@FUZZ
@given(
    field=st.sampled_from(["moves", "players", "result", "reason", "date", "meta"]), value=VALUES
)
def test_game_record_refuses_bad_fields_naming_them(field: str, value: Any) -> None:
    valid = {
        "moves": _legal_moves,
        "players": lambda v: (
            isinstance(v, list | tuple) and len(v) == 2 and all(isinstance(p, str) for p in v)
        ),
        "result": one_of("unfinished"),
        "reason": one_of(""),
        "date": lambda v: isinstance(v, str) and len(v) <= 64,
        "meta": lambda v: isinstance(v, dict),
    }[field]
    assume(not valid(value))
    kwargs = {"game": GameConfig("tictactoe"), "moves": (4,), field: value}
    with pytest.raises((TypeError, ValueError)) as caught:
        GameRecord(**kwargs)
    message = str(caught.value)
    assert field.rstrip("s") in message or names(message, value), message


def _legal_moves(value: Any) -> bool:
    """Reference: a sequence of ints that the rules accept in turn (and no decided game)."""
    if isinstance(value, str | bytes | dict) or not hasattr(value, "__iter__"):
        return False
    if isinstance(value, np.ndarray) and value.ndim != 1:
        return False
    state = tictactoe().new_initial_state()
    for action in value:
        if not (is_int(action) and 0 <= int(action) < 9 and state.legal_action_mask()[action]):
            return False
        state.apply_action(int(action))
    return not state.is_terminal()


SGF = "(;FF[4]GM[11]SZ[5]PB[alice]PW[bob]RE[B+R];B[c3];W[b2](;B[a1])(;B[e5]))"


@FUZZ
@given(data=st.data())
def test_mutated_sgf_either_loads_or_is_a_value_error(data: st.DataObject) -> None:
    text = SGF
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        insert = data.draw(st.text(alphabet="()[];\\:BWGMSZRE+-0123456789abc５\n\x1b", max_size=4))
        text = text[:at] + insert + text[at + cut :]
    try:
        record = record_from_sgf(text, where="fuzz.sgf")
    except ValueError as error:
        assert str(error).startswith("fuzz.sgf")
    else:
        assert isinstance(record, GameRecord) and record.final_state() is not None


@FUZZ
@given(text=st.text(max_size=40))
def test_any_text_is_an_sgf_record_or_a_value_error(text: str) -> None:
    try:
        record_from_sgf(text, where="fuzz.sgf")
    except ValueError as error:
        assert str(error).startswith("fuzz.sgf")


@FUZZ
@given(value=VALUES)
def test_save_record_refuses_bad_stems(value: Any, tmp_path_factory) -> None:
    assume(not (isinstance(value, str) and value and "/" not in value and "\\" not in value))
    assume(value is not None)
    record = GameRecord(GameConfig("tictactoe"), (4,))
    directory = tmp_path_factory.mktemp("records")
    with pytest.raises((TypeError, ValueError)):
        save_record(record, directory, stem=value)
    assert list(directory.iterdir()) == []


# --- the arena: bad arguments are refused before any process starts --------------------

ARENA_ARGUMENTS = {
    "games": int_in(1),
    "seed": int_in(0),
    "workers": optional(int_in(1, 256)),
    "move_timeout": optional(number_in(0.0, 86_400.0, strict=True)),
}


@FUZZ
@given(name=st.sampled_from(sorted(ARENA_ARGUMENTS)), value=VALUES)
def test_run_tournament_refuses_bad_arguments(name: str, value: Any) -> None:
    assume(not ARENA_ARGUMENTS[name](value))
    refused(lambda: run_tournament("tictactoe", ["random", "random"], **{name: value}), value)
