"""Othello end to end: the generated PettingZoo module under PettingZoo's ``api_test``, the
Gymnasium id under ``check_env``, the vector env, MCTS and PUCT agents in whole games and on
forced passes, the command line (arena, demo, terminal play with ``pass``) and JSON records."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from othello_helpers import random_positions
from pettingzoo.test import api_test, seed_test
from pythonpath_helpers import child_environment, pythonpath

from agents import MCTSAgent, PUCTAgent, RandomAgent
from connectn_env import othello_v0
from connectn_env.games import OthelloGame
from connectn_env.games.othello.reference import ReferenceOthello
from connectn_env.gym import BoardGameVectorEnv
from connectn_env.records import GameRecord, load_record, record_from_json, record_to_json

# Said by api_test of every env of the suite (see tests/test_api_compliance.py).
API_TEST_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}
PASS_GAME = ["c4", "d2", "a1", "a2", "c1", "d4", "a3", "b4", "d3", "b1", "d1", "pass", "a4"]


def connectn(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    environment = child_environment(SDL_VIDEODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
        check=False,
    )


def forced_pass_env(size: int = 4) -> object:
    """A raw env after random moves up to a position where the mover must pass."""
    game = OthelloGame(size=size)
    for seed in range(100):
        positions = random_positions(game, seed)
        for state in positions:
            if state.legal_actions() == [game.pass_action]:
                env = othello_v0.raw_env(size=size)
                env.reset()
                for action in state.history():
                    env.step(action)
                return env
    raise AssertionError("no forced pass in 100 random games")


# --- PettingZoo and Gymnasium -------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 8, 16])
@pytest.mark.parametrize("factory", ["env", "raw_env"])
def test_pettingzoo_api_test(size: int, factory: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(getattr(othello_v0, factory)(size=size), num_cycles=300)
    advice = {str(w.message) for w in caught if issubclass(w.category, UserWarning)}
    assert advice == API_TEST_WARNINGS  # no "all zeros": the board never starts empty


def test_pettingzoo_seed_test_and_module_documentation() -> None:
    seed_test(lambda: othello_v0.env(size=6), num_cycles=300)
    assert "connectn_env/othello-v0" in othello_v0.__doc__
    assert "``size=8 (4..16)``" in othello_v0.__doc__
    with pytest.raises(ValueError, match="size must be even"):
        othello_v0.env(size=7)


def test_env_plays_a_forced_pass_and_the_game_to_its_end() -> None:
    env = forced_pass_env()
    mover = env.agent_selection
    observation = env.observe(mover)
    assert observation["action_mask"].tolist() == [0] * 16 + [1]
    env.step(16)
    assert env.agent_selection != mover and env.rewards[mover] == 0.0
    assert env.unwrapped.game_state.last_move_cell() is None
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    returns = env.unwrapped.game_state.returns()
    assert [env.rewards["player_0"], env.rewards["player_1"]] == returns


@pytest.mark.parametrize("kwargs", [{}, {"size": 4, "learner_side": "second"}])
def test_gymnasium_check_env(kwargs: dict) -> None:
    """check_env, drawing included; the text marks the legal moves with *."""
    env = gym.make("connectn_env/Othello-v0", **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    text_env = gym.make("connectn_env/Othello-v0", size=4, render_mode="ansi")
    text_env.reset(seed=0)
    assert text_env.render().splitlines()[:3] == ["  a b c d", "1 . * . .", "2 * O X ."]


def test_gymnasium_episode_against_mcts_with_passes() -> None:
    env = gym.make(
        "connectn_env/Othello-v0",
        size=4,
        opponent="mcts",
        opponent_kwargs={"simulations": 30},
        learner_side="random",
    )
    rng = np.random.default_rng(0)
    passes = 0
    for episode in range(12):
        _, info = env.reset(seed=episode)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal))
            passes += action == 16
            _, reward, terminated, truncated, info = env.step(action)
            assert truncated is False
        assert reward in (-1.0, 0.0, 1.0)
        assert env.unwrapped.game_state.is_terminal()
    assert passes > 0


@pytest.mark.parametrize(
    "opponent",
    [{"opponent": "random"}, {"opponent": "mcts", "opponent_kwargs": {"simulations": 8}}],
)
def test_vector_env_steps_whole_games(opponent: dict) -> None:
    env = gym.make_vec("connectn_env/Othello-v0", num_envs=6, size=4, **opponent)
    assert isinstance(env, BoardGameVectorEnv)
    assert env.single_action_space.n == 17
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(1)
    finished = passes = 0
    for _ in range(200):
        masks = env.action_masks()
        assert np.array_equal(masks, info["action_mask"])
        # Finished boards (reset at the next step) have no legal action: any action will do.
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        passes += int((actions == 16).sum())
        observation, reward, terminated, truncated, info = env.step(actions)
        assert observation.shape == (6, 4, 4, 2) and not truncated.any()
        assert set(np.unique(reward[terminated])) <= {-1.0, 0.0, 1.0}
        finished += int(terminated.sum())
    assert finished >= 20 and passes > 0


# --- agents -------------------------------------------------------------------------------


def play_out(env: object, players: dict[str, object]) -> list[int]:
    while not all(env.terminations.values()):
        env.step(players[env.agent_selection].act(env))
    return env.unwrapped.game_state.history()


@pytest.mark.parametrize(
    "make_agent",
    [
        lambda seed: MCTSAgent(simulations=200, seed=seed),
        lambda seed: MCTSAgent(simulations=200, rave=True, seed=seed),
        lambda seed: PUCTAgent(simulations=100, seed=seed),
        lambda seed: PUCTAgent(lambda obs: (obs["action_mask"], 0.0), simulations=50, seed=seed),
    ],
    ids=["mcts", "mcts-rave", "puct", "puct-policy-value-fn"],
)
def test_search_agents_play_whole_games_with_passes(make_agent) -> None:
    passes = 0
    for seed in range(8):
        env = othello_v0.env(size=4)
        env.reset(seed=seed)
        seats = {"player_0": make_agent(seed), "player_1": RandomAgent(seed=seed)}
        if seed % 2:
            seats = {"player_0": seats["player_1"], "player_1": seats["player_0"]}
        history = play_out(env, seats)
        assert env.unwrapped.game_state.is_terminal()
        passes += history.count(16)
    assert passes > 0


@pytest.mark.parametrize("backend", ["native", "generic"])
@pytest.mark.parametrize("agent_class", [MCTSAgent, PUCTAgent])
def test_search_agents_pass_when_they_must(agent_class, backend) -> None:
    env = forced_pass_env()
    agent = agent_class(simulations=50, seed=0, backend=backend)
    assert agent.act(env) == 16


def test_mcts_beats_random_on_6x6() -> None:
    score = 0.0
    for seed in range(6):
        env = othello_v0.env(size=6)
        env.reset(seed=seed)
        mcts, rand = MCTSAgent(simulations=400, seed=seed), RandomAgent(seed=seed)
        seats = {"player_0": mcts, "player_1": rand} if seed % 2 == 0 else {
            "player_0": rand, "player_1": mcts
        }  # fmt: skip
        play_out(env, seats)
        mcts_seat = "player_0" if seed % 2 == 0 else "player_1"
        score += env.rewards[mcts_seat]
    assert score >= 4


def exact_value(game: ReferenceOthello) -> int:
    """+1, 0 or -1: the result with perfect play for the player to move (plain minimax; every
    action, passes included, hands the turn over)."""
    if game.over:
        return int(game.returns()[game.player])
    values = []
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        child.apply(action)
        values.append(-exact_value(child))
    return max(values)


def test_mcts_solver_proves_a_4x4_endgame_as_minimax_does() -> None:
    env = forced_pass_env()
    env.step(16)
    state = env.unwrapped.game_state
    reference = ReferenceOthello(4)
    for action in state.history():
        reference.apply(action)
    expected = {1: "win", 0: "draw", -1: "loss"}[exact_value(reference)]
    result = MCTSAgent(simulations=50_000, seed=0).search(env)
    assert result.proven == expected
    assert result.simulations < 50_000  # the search stopped once the root was proven


# --- command line, terminal play, records ---------------------------------------------


def test_cli_arena_and_demo() -> None:
    arena = connectn("arena", "othello", "random", "mcts:simulations=50", "--games", "2")
    assert arena.returncode == 0, arena.stderr
    assert "othello(size=8): 2 games per pairing" in arena.stdout
    assert "random vs mcts:simulations=50      2" in arena.stdout
    demo = connectn("demo", "othello", "--size", "4", "--seed", "2")
    assert demo.returncode == 0, demo.stderr
    assert "player_0 plays" in demo.stdout
    assert "wins after" in demo.stdout or "draw after" in demo.stdout


def test_terminal_play_accepts_pass_and_records_the_game(tmp_path: Path) -> None:
    lines = ["pass", *PASS_GAME[:11], "a1", "pass", "a4", "quit"]
    run = connectn(
        "play", "othello", "--size", "4", "--ui", "terminal", "--opponent", "human",
        "--record", str(tmp_path), stdin="\n".join(lines) + "\n",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "pass is illegal: it is only legal without a move" in out
    assert "a1 is already taken: choose an empty cell" in out
    assert "or 'pass'" in out
    assert "player_0 (X) wins after 13 moves" in out
    (path,) = tmp_path.glob("othello-*.json")
    record = load_record(path)
    assert [record.game.make_game().action_name(a) for a in record.moves] == PASS_GAME
    assert record.result == "player_0"


def test_window_play_passes_with_a_click_when_there_is_no_move() -> None:
    """Two people at one board play PASS_GAME by clicks; at the forced pass any click passes."""
    import pygame

    from connectn_env.play.session import GameSession
    from connectn_env.play.window import PlayWindow

    session = GameSession(othello_v0.raw_env(size=4), None)
    window = PlayWindow(session)
    game = session.game

    def click(row: int, col: int) -> None:
        position = window.frame.cell_pixel(row, col)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1))
        window.step()

    try:
        window.step()
        click(0, 0)  # a1 flips nothing at the start
        assert window.message == "a1 is illegal: it flips no disc."
        for name in PASS_GAME:
            if name == "pass":
                assert window._prompt() == "White has no move: click the board to pass."
                click(3, 3)  # any cell
            else:
                click(*divmod(game.parse_action(name), 4))
        assert [game.action_name(a) for a in session.moves] == PASS_GAME
        assert session.over
    finally:
        window.close()


def test_json_record_round_trips_with_passes() -> None:
    game = OthelloGame(size=4)
    final = game.new_initial_state()
    for name in PASS_GAME:
        final.apply_action(game.parse_action(name))
    record = GameRecord.from_state(final, players=("mcts", "random"))
    again = record_from_json(record_to_json(record))
    assert again == record
    assert again.game.name == "othello" and again.game.params == {"size": 4}
    assert again.final_state() == final and again.final_state().returns() == [1.0, -1.0]
    assert len(again.replay_states()) == len(PASS_GAME) + 1


@pytest.mark.slow
def test_benchmark_script_runs_and_prints_its_tables() -> None:
    script = Path(__file__).parents[1] / "benchmarks" / "othello_vs_openspiel.py"
    environment = {**os.environ, "PYTHONPATH": pythonpath()}
    run = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| ") and "x |" in line]
    assert [row.split("|")[1].strip().split(",")[0] for row in rows] == [
        "MCTSAgent",
        "OpenSpiel C++ MCTSBot (othello)",
        "MCTSAgent",
    ]
    assert all(float(row.split("|")[-2].strip().rstrip("x").replace(",", "")) > 0 for row in rows)
    assert "| 16x16, padded board |" in run.stdout
