"""The suite's games registered as OpenSpiel games, checked with OpenSpiel's own tools: its C++
``random_sim_test``, its Python ``games_sim_test``, playthroughs and MCTS, compared with
OpenSpiel's C++ implementation of the same game where it has one."""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, generate_playthrough, mcts
from open_spiel.python.tests import games_sim_test
from pythonpath_helpers import pythonpath

from connectn_env import openspiel_games
from connectn_env.games import ConnectNGame, GomokuGame, HexGame, IllegalActionError

NAMES = [
    "connectn_connect_four",
    "connectn_tictactoe",
    "connectn_connect_n",
    "connectn_gomoku",
    "connectn_hex",
    "connectn_othello",
]
# Our game string and OpenSpiel's C++ game with the same rules and action numbering.
SAME_GAMES = [
    ("connectn_connect_four", "connect_four"),
    ("connectn_tictactoe", "tic_tac_toe"),
    ("connectn_connect_n(rows=5,cols=4,n=3)", "connect_four(rows=5,columns=4,x_in_row=3)"),
    ("connectn_gomoku(size=9)", "gomoku(size=9)"),
    ("connectn_hex(size=5)", "hex(board_size=5)"),
    ("connectn_hex(size=4,swap=True)", "hex(board_size=4,swap=True)"),
    ("connectn_hex(rows=3,cols=5)", "hex(num_rows=3,num_cols=5)"),
]


def test_register_names_every_game_once_and_is_idempotent():
    assert openspiel_games.register() == NAMES
    assert openspiel_games.register() == NAMES
    registered = pyspiel.registered_names()
    assert all(registered.count(name) == 1 for name in NAMES)


@pytest.mark.parametrize(
    ("game_string", "board_game"),
    [
        ("connectn_connect_four", ConnectNGame()),
        ("connectn_tictactoe", ConnectNGame(rows=3, cols=3, n=3, gravity=False)),
        ("connectn_connect_n(n=5,gravity=False)", ConnectNGame(n=5, gravity=False)),
        ("connectn_gomoku", GomokuGame()),
        ("connectn_gomoku(size=9,rule=standard)", GomokuGame(size=9, rule="standard")),
        ("connectn_gomoku(rows=7,cols=9)", GomokuGame(rows=7, cols=9)),
        ("connectn_hex", HexGame()),
        ("connectn_hex(size=7,swap=True)", HexGame(size=7, swap=True)),
    ],
)
def test_parameters_build_the_suite_game(game_string, board_game):
    game = pyspiel.load_game(game_string)
    assert game.board_game == board_game
    assert game.num_distinct_actions() == board_game.num_actions
    assert game.observation_tensor_shape() == [board_game.rows, board_game.cols, 2]
    cells = board_game.rows * board_game.cols
    swap = board_game.num_actions == cells + 1
    assert game.max_game_length() == cells + int(swap)
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    game_type = game.get_type()
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_parameter_specification_lists_the_defaults():
    spec = {name: pyspiel.load_game(name).get_type().parameter_specification for name in NAMES}
    assert spec == {
        "connectn_connect_four": {},
        "connectn_tictactoe": {},
        "connectn_connect_n": {"rows": 6, "cols": 7, "n": 4, "gravity": True},
        "connectn_gomoku": {"size": 15, "rows": 0, "cols": 0, "rule": "freestyle"},
        "connectn_hex": {"size": 11, "rows": 0, "cols": 0, "swap": False},
        "connectn_othello": {"size": 8},
    }


@pytest.mark.parametrize(
    ("game_string", "error", "message"),
    [
        ("connectn_hex(size=0)", ValueError, "size must be between 1 and 32, got 0"),
        ("connectn_gomoku(rule=renju)", ValueError, "rule must be one of"),
        ("connectn_hex(rows=3,cols=4,swap=True)", ValueError, "swap=True needs a square board"),
        ("connectn_connect_n(n=9)", ValueError, "n must be between 1 and 7, got 9"),
        ("connectn_hex(depth=3)", pyspiel.SpielError, "Unknown parameter 'depth'"),
        ("connectn_gomoku(size=9.5)", pyspiel.SpielError, "Wrong type for parameter size"),
    ],
)
def test_bad_parameters_are_refused_with_the_reason(game_string, error, message):
    with pytest.raises(error, match=message):
        pyspiel.load_game(game_string)


@pytest.mark.parametrize(
    "game_string",
    [*NAMES, "connectn_hex(size=5,swap=True)", "connectn_gomoku(size=9,rule=standard)"],
)
def test_openspiel_random_sim_test_passes(game_string):
    """OpenSpiel's C++ conformance check: API consistency, clones, serialisation."""
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("game_string", [*NAMES, "connectn_hex(size=5,swap=True)"])
def test_openspiel_python_games_sim_test_passes(game_string):
    """OpenSpiel's Python simulation test (pickle of game, game type and states too)."""
    games_sim_test.GamesSimTest().sim_game(pyspiel.load_game(game_string))


PLAYTHROUGH_KEYS = (
    "IsTerminal()",
    "History()",
    "HistoryString()",
    "CurrentPlayer()",
    "InformationStateString(",
    "LegalActions()",
    "Rewards()",
    "Returns()",
)


@pytest.mark.parametrize(("ours", "theirs"), SAME_GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_playthrough_matches_openspiel_cpp_game(ours, theirs, seed):
    """OpenSpiel's playthrough generator, with the same seed, walks the same game on both."""

    def facts(game_string: str) -> list[str]:
        lines = generate_playthrough.playthrough_lines(game_string, seed=seed)
        # OpenSpiel's Hex writes the zero return of player 1 as -0.
        return [re.sub(r"-0\b", "0", line) for line in lines if line.startswith(PLAYTHROUGH_KEYS)]

    ours_lines = facts(ours)
    assert ours_lines == facts(theirs)
    assert any(line.startswith("Returns()") for line in ours_lines)


def test_hex_action_strings_are_openspiels_cell_names():
    ours = pyspiel.load_game("connectn_hex(size=5)").new_initial_state()
    theirs = pyspiel.load_game("hex(board_size=5)").new_initial_state()
    for action in (0, 3, 12, 24):
        assert ours.action_to_string(0, action) == theirs.action_to_string(0, action)
    assert ours.action_to_string(0, 3) == "d1"


def test_action_strings_follow_the_play_notation():
    assert pyspiel.load_game("connectn_connect_four").new_initial_state().action_to_string(
        0, 3
    ) == ("4")
    state = pyspiel.load_game("connectn_hex(size=3,swap=True)").new_initial_state()
    state.apply_action(state.string_to_action("b1"))
    assert state.history() == [1]
    assert state.action_to_string(1, 9) == "swap"
    state.apply_action(state.string_to_action("swap"))
    assert state.history() == [1, 9]


def _search_statistics(game_string: str, opening: list[int]) -> list[tuple[int, int, float]]:
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    for action in opening:
        state.apply_action(action)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(3))
    bot = mcts.MCTSBot(game, 1.4, 200, evaluator, solve=True, random_state=np.random.RandomState(7))
    root = bot.mcts_search(state)
    return [(child.action, child.explore_count, child.total_reward) for child in root.children]


@pytest.mark.parametrize(("ours", "theirs"), SAME_GAMES)
def test_openspiel_mcts_searches_the_same_tree_as_on_the_cpp_game(ours, theirs):
    """OpenSpiel's MCTSBot, seeded alike, visits every root move exactly as often on our game
    as on OpenSpiel's: same legal moves, same order, same results."""
    statistics = _search_statistics(ours, [0, 2])
    assert statistics == _search_statistics(theirs, [0, 2])
    assert sum(visits for _, visits, _ in statistics) > 100  # a real search ran


def test_openspiel_mcts_finds_the_connect_four_win_and_evaluate_bots_plays_it_out():
    game = pyspiel.load_game("connectn_connect_four")
    state = game.new_initial_state()
    for action in (3, 0, 3, 0, 3, 6):  # player 0 has three in column 4 and moves
        state.apply_action(action)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 1.4, 100, evaluator, solve=True, random_state=np.random.RandomState(0))
    assert bot.step(state) == 3
    opponent = pyspiel.make_uniform_random_bot(1, 0)
    returns = evaluate_bots.evaluate_bots(state.clone(), [bot, opponent], np.random.RandomState(0))
    assert returns == [1.0, -1.0]


@pytest.mark.parametrize(("ours", "theirs"), SAME_GAMES[:2])
def test_evaluate_bots_gives_the_same_games_as_on_the_cpp_game(ours, theirs):
    def returns(game_string: str, seed: int) -> list[float]:
        game = pyspiel.load_game(game_string)
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in (0, 1)]
        return evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)

    results = [returns(ours, seed) for seed in range(20)]
    assert results == [returns(theirs, seed) for seed in range(20)]
    assert {tuple(r) for r in results} >= {(1.0, -1.0), (-1.0, 1.0)}


def test_observations_are_the_env_planes_and_strings_the_board_and_history():
    game = pyspiel.load_game("connectn_hex(size=3)")
    state = game.new_initial_state()
    state.apply_action(4)  # b2 for player 0
    state.apply_action(0)  # a1 for player 1
    position = openspiel_games.unwrap(state)
    for player in (0, 1):
        tensor = np.asarray(state.observation_tensor(player)).reshape(3, 3, 2)
        np.testing.assert_array_equal(tensor, position.observation(player))
    assert tensor[0, 0].tolist() == [1.0, 0.0] and tensor[1, 1].tolist() == [0.0, 1.0]
    assert state.observation_string(0) == state.observation_string(1) == str(position)
    assert state.information_state_string(1) == "4, 0"
    assert str(state) == "o . .\n . x .\n  . . ."


def test_unwrap_refuses_other_states():
    with pytest.raises(TypeError, match="connectn_"):
        openspiel_games.unwrap(pyspiel.load_game("tic_tac_toe").new_initial_state())


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    state = pyspiel.load_game("connectn_tictactoe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(IllegalActionError, match="occupied"):
        state.apply_action(4)
    assert state.history() == [4]
    assert state.current_player() == 1
    assert openspiel_games.unwrap(state).history() == [4]


def test_clone_serialise_and_pickle_keep_the_position():
    game = pyspiel.load_game("connectn_hex(size=4,swap=True)")
    state = game.new_initial_state()
    for action in (1, 16, 5):
        state.apply_action(action)
    clone = state.clone()
    clone.apply_action(0)
    assert state.history() == [1, 16, 5] and clone.history() == [1, 16, 5, 0]
    assert openspiel_games.unwrap(state).history() == [1, 16, 5]
    new_game, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(new_game) == str(game)
    assert new_state.history() == state.history() and str(new_state) == str(state)
    copied = pickle.loads(pickle.dumps(state))
    assert copied.history() == [1, 16, 5]
    assert copied.legal_actions() == state.legal_actions()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_terminal_state_reports_openspiels_terminal_player():
    state = pyspiel.load_game("connectn_tictactoe").new_initial_state()
    for action in (0, 3, 1, 4, 2):
        state.apply_action(action)
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [1.0, -1.0] and state.rewards() == [1.0, -1.0]
    assert state.legal_actions() == [] and state.legal_actions(1) == []


def test_openspiel_rl_environment_runs_an_episode():
    env = rl_environment.Environment("connectn_connect_four")
    step = env.reset()
    assert len(step.observations["info_state"][0]) == 6 * 7 * 2
    rng = np.random.default_rng(0)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])


def test_importing_the_package_does_not_import_openspiel_and_exit_is_clean():
    code = (
        "import sys, connectn_env\n"
        "assert 'pyspiel' not in sys.modules\n"
        "import pyspiel, connectn_env.openspiel_games\n"
        "state = pyspiel.load_game('connectn_gomoku(size=9)').new_initial_state()\n"
        "state.apply_action(40)\n"
        "print(state.history())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "[40]\n"


def test_adapter_benchmark_runs_and_prints_its_table():
    script = Path(__file__).parents[1] / "benchmarks" / "openspiel_adapter.py"
    env = {**os.environ, "PYTHONPATH": pythonpath()}
    run = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| ") and "x |" in line]
    assert len(rows) == 6  # three games, two measures
    assert all(float(row.split("|")[-2].strip().rstrip("x")) > 0 for row in rows)
