"""AlphaBetaAgent: it solves small games (values and moves checked against brute-force
minimax), never loses where the game is not lost, finds short wins, is deterministic, keeps
to its budgets and refuses bad input."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from agents_helpers import play, pz_tictactoe
from pythonpath_helpers import child_environment

from agents import AlphaBetaAgent, MCTSAgent, RandomAgent, alphabeta
from connectn_env import connect_n_v0, gomoku_v0, hex_v0
from connectn_env.arena import run_tournament
from connectn_env.games import ConnectNGame, GameState, HexGame, connect_four, tictactoe
from connectn_env.records import GameConfig
from connectn_env.specs import parse_agent_spec

PROVEN_VALUE = {"win": 1.0, "loss": -1.0, "draw": 0.0}


def brute_force_values(game) -> dict[tuple, float]:
    """Minimax value for the player to move of every unfinished position reachable from the
    start, keyed by :func:`position_key` (plain recursion over the public state API)."""
    values: dict[tuple, float] = {}

    def value(state: GameState) -> float:
        key = position_key(state)
        if key not in values:
            player = state.current_player()
            best = -2.0
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                result = child.returns()[player] if child.is_terminal() else -value(child)
                best = max(best, result)
            values[key] = best
        return values[key]

    value(game.new_initial_state())
    return values


def position_key(state: GameState) -> tuple:
    return (state.current_player(), *state.board.ravel().tolist())


def reachable_positions(game) -> list[GameState]:
    """Every unfinished position reachable from the start, once each."""
    seen: set[tuple] = set()
    found = []
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        key = position_key(state)
        if state.is_terminal() or key in seen:
            continue
        seen.add(key)
        found.append(state)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            stack.append(child)
    return found


def result_after(state: GameState, action: int, values: dict[tuple, float]) -> float:
    """The minimax value for the mover of playing ``action`` in ``state``."""
    player = state.current_player()
    child = state.clone()
    child.apply_action(action)
    return child.returns()[player] if child.is_terminal() else -values[position_key(child)]


def check_solves(game, positions: list[GameState], values: dict[tuple, float]) -> None:
    agent = AlphaBetaAgent(depth=game.max_moves)
    for state in positions:
        result = agent.analyse_state(state)
        truth = values[position_key(state)]
        assert result.proven is not None, state
        assert PROVEN_VALUE[result.proven] == truth == result.value, state
        assert result_after(state, result.action, values) == truth, state
        assert result.principal_variation[0] == result.action


def test_tictactoe_every_position_value_and_move_match_brute_force_minimax():
    game = tictactoe()
    values = brute_force_values(game)
    positions = reachable_positions(game)
    assert len(positions) == len(values) == 4520
    check_solves(game, positions, values)


def test_connect3_on_4x4_with_gravity_matches_brute_force_minimax():
    game = ConnectNGame(rows=4, cols=4, n=3, gravity=True)
    values = brute_force_values(game)
    positions = reachable_positions(game)
    assert values[position_key(game.new_initial_state())] == 1.0  # a first-player win
    sample = [positions[i] for i in np.random.default_rng(0).permutation(len(positions))[:400]]
    check_solves(game, sample, values)


def test_solving_without_the_games_heuristics_gives_the_same_values():
    class PlainTicTacToe(ConnectNGame):
        heuristics = None  # no key, no evaluation: the generic fallbacks

    game = PlainTicTacToe(rows=3, cols=3, n=3, gravity=False)
    values = brute_force_values(game)
    positions = reachable_positions(game)[::7]
    check_solves(game, positions, values)
    result = AlphaBetaAgent(depth=9).analyse_state(game.new_initial_state())
    assert (result.evaluation, result.proven) == ("none", "draw")
    assert AlphaBetaAgent(depth=2).analyse_state(game.new_initial_state()).value == 0.0


def replies_never_beat(game, agent: AlphaBetaAgent, seat: int) -> tuple[int, int]:
    """Play ``agent`` in ``seat`` against every sequence of replies; returns (games, worst
    result for the agent)."""
    games, worst = 0, 1.0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            games += 1
            worst = min(worst, state.returns()[seat])
        elif state.current_player() == seat:
            state.apply_action(agent.analyse_state(state).action)
            stack.append(state)
        else:
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                stack.append(child)
    return games, worst


def test_tictactoe_never_lost_against_any_sequence_of_replies():
    agent = AlphaBetaAgent(depth=9)
    games_first, worst_first = replies_never_beat(tictactoe(), agent, 0)
    games_second, worst_second = replies_never_beat(tictactoe(), agent, 1)
    assert (games_first, games_second) == (76, 457)  # every reply sequence was played
    assert worst_first >= 0.0 and worst_second >= 0.0


def test_connect3_4x4_gravity_first_player_wins_against_any_sequence_of_replies():
    game = ConnectNGame(rows=4, cols=4, n=3, gravity=True)
    games, worst = replies_never_beat(game, AlphaBetaAgent(depth=16), 0)
    assert games == 36 and worst == 1.0


def play_out(game, agents: dict[int, object]) -> float:
    """player_0's result of a game between ``agents`` (by seat) on an AEC env."""
    env = connect_n_v0.env(**game.parameters)
    env.reset(seed=0)
    state = env.unwrapped.game_state
    while not state.is_terminal():
        env.step(agents[state.current_player()].act(env))
    return state.returns()[0]


@pytest.mark.slow  # about 9 s
def test_4x4_four_in_a_row_is_a_draw_it_never_loses():
    game = ConnectNGame(rows=4, cols=4, n=4, gravity=False)
    solver = AlphaBetaAgent(depth=16)  # one table for every game: later searches are fast
    assert solver.analyse_state(game.new_initial_state()).proven == "draw"
    opponents = [RandomAgent(seed) for seed in range(6)] + [
        MCTSAgent(simulations=2000, seed=seed) for seed in range(2)
    ]
    for i, opponent in enumerate(opponents):
        seat = i % 2
        result = play_out(game, {seat: solver, 1 - seat: opponent})
        assert (result if seat == 0 else -result) >= 0.0


def test_connect3_4x4_gravity_beats_random_and_mcts_from_the_first_seat():
    game = ConnectNGame(rows=4, cols=4, n=3, gravity=True)
    solver = AlphaBetaAgent(depth=16)
    opponents = [RandomAgent(seed) for seed in range(5)] + [
        MCTSAgent(simulations=3000, seed=seed) for seed in range(3)
    ]
    for opponent in opponents:
        assert play_out(game, {0: solver, 1: opponent}) == 1.0


@pytest.mark.parametrize(
    ("make_env", "moves", "winning", "plies"),
    [
        # Connect Four: three in column 0, X to move: win in one.
        (connect_n_v0.env, [0, 6, 0, 6, 0, 5], {0}, 1),
        # Connect Four: X on 2 and 3 of the bottom row, both ends open: win in two.
        (connect_n_v0.env, [3, 6, 2, 6], {1, 4}, 3),
        # Gomoku: black's open three on row 7 (columns 6 to 8) makes an open four: win in two.
        (gomoku_v0.env, [106, 0, 107, 14, 108, 224], {105, 109}, 3),
        # Hex 5 x 5: player_0 holds column 2 down to row 3: win in one.
        (lambda: hex_v0.env(size=5), [2, 0, 7, 1, 12, 3, 17, 4], {21, 22}, 1),
    ],
)  # fmt: skip
def test_short_wins_are_found_and_proven(make_env, moves, winning, plies):
    env = play(make_env, moves)
    state = env.unwrapped.game_state
    result = AlphaBetaAgent(depth=4).analyse(env)
    assert result.proven == "win" and result.value == 1.0
    assert len(result.principal_variation) == plies
    assert result.action in winning
    line = state.clone()
    for action in result.principal_variation:
        line.apply_action(action)
    assert line.winner == state.current_player()


def test_a_threat_is_blocked():
    # Gomoku: white must block black's closed four (row 7, columns 3 to 6; column 2 blocked).
    moves = [7 * 15 + 3, 7 * 15 + 2, 7 * 15 + 4, 0, 7 * 15 + 5, 14, 7 * 15 + 6]
    env = play(gomoku_v0.env, moves)
    assert AlphaBetaAgent(depth=2).act(env) == 7 * 15 + 7
    # Connect Four: O must block X's three in column 3.
    env = play(connect_n_v0.env, [3, 0, 3, 0, 3])
    assert AlphaBetaAgent(depth=2).act(env) == 3


def test_a_lost_position_is_proven_lost():
    # Connect Four: X has two threats on the bottom row (columns 1 and 5); O cannot stop both.
    env = play(connect_n_v0.env, [2, 6, 3, 6, 4])
    result = AlphaBetaAgent(depth=4).analyse(env)
    assert result.proven == "loss" and result.value == -1.0
    assert len(result.principal_variation) == 2


def test_results_are_deterministic_and_seeds_only_break_ties():
    state = connect_four().new_initial_state()
    first = AlphaBetaAgent(depth=8).analyse_state(state)
    again = AlphaBetaAgent(depth=8).analyse_state(state)
    assert (first.action, first.value, first.nodes, first.principal_variation) == (
        again.action,
        again.value,
        again.nodes,
        again.principal_variation,
    )
    seeded = [AlphaBetaAgent(depth=8, seed=5).analyse_state(state) for _ in range(2)]
    assert seeded[0].principal_variation == seeded[1].principal_variation
    # After X takes the centre, O's four corners are equally good: seeds pick among them.
    corners = {0, 2, 6, 8}
    centre = tictactoe().new_initial_state()
    centre.apply_action(4)
    chosen = {AlphaBetaAgent(depth=1, seed=seed).analyse_state(centre).action for seed in range(12)}
    assert chosen <= corners and len(chosen) > 1
    assert AlphaBetaAgent(depth=9).analyse_state(centre).action in corners  # edges lose


def test_the_depth_budget_is_kept():
    state = connect_four().new_initial_state()
    for depth in (1, 3, 6):
        result = AlphaBetaAgent(depth=depth).analyse_state(state)
        assert result.depth == depth and result.proven is None
        assert len(result.principal_variation) <= depth


def test_the_node_budget_is_kept():
    state = connect_four().new_initial_state()
    for budget in (1, 5_000, 50_000):
        result = AlphaBetaAgent(nodes=budget).analyse_state(state)
        assert result.depth >= 1
        assert result.nodes <= max(budget, 7)  # the first iteration (7 moves) always runs
    assert AlphaBetaAgent(nodes=50_000).analyse_state(state).depth > 5
    assert AlphaBetaAgent().nodes == 200_000  # the default budget


def test_the_time_budget_is_kept():
    env = play(gomoku_v0.env, [112, 113, 98])
    AlphaBetaAgent(depth=2).act(env)  # loads the compiled search
    result = AlphaBetaAgent(time_limit=0.2).analyse(env)
    assert 0.15 <= result.elapsed <= 0.7
    assert result.depth >= 2 and result.proven is None


def test_the_env_is_not_changed_and_the_table_is_kept_between_moves():
    env = play(connect_n_v0.env, [3, 3])
    history = env.unwrapped.game_state.history()
    agent = AlphaBetaAgent(depth=9)
    first = agent.analyse(env)
    assert env.unwrapped.game_state.history() == history
    again = agent.analyse(env)
    assert again.action == first.action and again.nodes < first.nodes / 5


def test_work_arrays_grow_for_deep_searches(monkeypatch):
    monkeypatch.setattr(alphabeta, "_FIRST_CAPACITY", 2)  # then 4, then 8, then 9 plies
    result = AlphaBetaAgent(depth=9).analyse_state(tictactoe().new_initial_state())
    assert (result.proven, result.depth, len(result.principal_variation)) == ("draw", 9, 9)


def test_hex_with_the_swap_rule_is_solved_on_3x3():
    # With the swap rule every opening move of 3 x 3 Hex is swapped or answered: a loss.
    result = AlphaBetaAgent(depth=10).analyse_state(HexGame(size=3, swap=True).new_initial_state())
    assert result.proven == "loss"
    result = AlphaBetaAgent(depth=9).analyse_state(HexGame(size=3).new_initial_state())
    assert result.proven == "win"


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"depth": 0}, ValueError),
        ({"depth": 2.5}, TypeError),
        ({"time_limit": 0}, ValueError),
        ({"time_limit": "1"}, TypeError),
        ({"nodes": 0}, ValueError),
        ({"table_bits": 9}, ValueError),
        ({"table_bits": 29}, ValueError),
        ({"seed": -1}, ValueError),
        ({"seed": "x"}, TypeError),
    ],
)
def test_bad_parameters_are_refused(kwargs, error):
    with pytest.raises(error):
        AlphaBetaAgent(**kwargs)


def test_bad_calls_are_refused_and_leave_the_agent_usable():
    agent = AlphaBetaAgent(depth=2)
    finished = play(connect_n_v0.env, [0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="game is over"):
        agent.act(finished)
    third_party = pz_tictactoe()
    third_party.reset(seed=0)
    with pytest.raises(TypeError, match="this suite's envs"):
        agent.act(third_party)
    with pytest.raises(TypeError, match="GameState"):
        agent.analyse_state("x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="game is over"):
        agent.analyse_state(finished.unwrapped.game_state)
    assert agent.act(play(connect_n_v0.env, [3, 0, 3, 0, 3])) == 3


# --- everywhere an agent spec is ------------------------------------------------------


def test_the_ab_spec_builds_the_agent_and_checks_its_bounds():
    agent = parse_agent_spec("ab:depth=6").build(3)
    assert isinstance(agent, AlphaBetaAgent) and agent.depth == 6
    assert parse_agent_spec("ab:time=1").build().time_limit == 1.0
    with pytest.raises(ValueError, match="table_bits must be at most 28, got 40"):
        parse_agent_spec("ab:table_bits=40")  # refused when parsed, before any game


def test_a_gymnasium_opponent_given_as_an_ab_spec_is_never_beaten():
    env = gym.make("connectn_env/TicTacToe-v0", opponent="ab:depth=9", learner_side="random")
    rng = np.random.default_rng(0)
    for episode in range(8):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert reward <= 0.0
    assert "ab:depth=9" in repr(env.unwrapped.opponent)
    refused = "neither one of 'random', 'mcts', 'self' nor a valid agent spec"
    with pytest.raises(ValueError, match=refused):
        gym.make("connectn_env/TicTacToe-v0", opponent="ab:depth=zero")


def test_connectn_play_against_ab_in_the_terminal():
    cells = [f"{c}{r}" for r in "123" for c in "abc"]
    run = subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", "play", "tictactoe", "--ui", "terminal",
         "--opponent", "ab:depth=9"],
        input="\n".join([*cells, "quit"]) + "\n",
        capture_output=True, text=True, timeout=300,
        env=child_environment(SDL_VIDEODRIVER="dummy"),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Opponent: ab:depth=9" in run.stdout
    assert "You win!" not in run.stdout
    assert "The AI wins." in run.stdout or "Draw." in run.stdout


def test_an_arena_tournament_with_ab():
    result = run_tournament(
        GameConfig("tictactoe", {}), ["ab:depth=9", "random"], games=4, workers=1
    )
    (pairing,) = result.pairings
    assert pairing.errors_a == pairing.errors_b == 0
    assert pairing.losses == 0 and pairing.wins >= 2


def test_a_timed_search_compiles_before_its_clock_starts(monkeypatch):
    """The time budget is thinking time: the compile (a depth-1 search of a scratch agent,
    once per game and process) runs before the clock is read, and leaves the agent alone."""
    events = []
    real_perf_counter = alphabeta.time.perf_counter

    def clock():
        events.append("clock")
        return real_perf_counter()

    real_analyse = AlphaBetaAgent.analyse_state

    def spy(self, state):
        events.append(("search", self.depth))
        return real_analyse(self, state)

    monkeypatch.setattr(alphabeta, "_prepared", set())  # as in a process that compiled nothing
    monkeypatch.setattr(alphabeta.time, "perf_counter", clock)
    monkeypatch.setattr(AlphaBetaAgent, "analyse_state", spy)
    agent = AlphaBetaAgent(time_limit=1.0, seed=0)
    env = connect_n_v0.env(**tictactoe().parameters)
    env.reset()
    agent.act(env)
    assert events[:3] == [("search", None), ("search", 1), "clock"]  # the scratch search first
    assert events.count(("search", 1)) == 1
    events.clear()
    agent.act(env)  # compiled: the clock starts at once
    assert events[:2] == [("search", None), "clock"]
