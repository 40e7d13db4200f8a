"""The rule registries: each axis apart, compatibility checks, the max backup added as one
function and one line, the fastest-win root rule, and one move choice and training target
for PUCT agents and batched searches (a move proven lost gets no mass and is not drawn)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import MCTSAgent, PUCTAgent
from agents import tree as search_tree
from agents.batched import BatchedSearch, uniform_evaluator
from agents.loop import new_workspace, rollout_value, run_simulations
from agents.rules import (
    ROOT_RULES,
    RootRule,
    SearchPolicy,
    SearchSettings,
    backup_max,
    backup_tuned,
    expand_on_second_visit,
    search_faster_win,
    search_rules,
)
from connectn_env import connect_n_v0
from connectn_env.games import ConnectNGame
from connectn_env.specs import parse_agent_spec

TICTACTOE = ConnectNGame(rows=3, cols=3, n=3, gravity=False)
NO_DATA = np.zeros(0, dtype=np.int64)


def test_a_select_refuses_a_backup_that_does_not_keep_what_it_reads() -> None:
    with pytest.raises(ValueError) as error:
        search_rules("ucb1-tuned", backup="mean")
    message = str(error.value)
    assert "'ucb1-tuned'" in message and "'mean'" in message and "squares" in message
    assert "rave-tuned, tuned" in message  # what it runs with
    with pytest.raises(ValueError, match=r"'rave' reads amaf .* 'mean' .* are rave, rave-tuned"):
        search_rules("ucb1", rave=True, backup="mean")
    with pytest.raises(ValueError, match="no backup 'median'; the backups are max, mean, rave, "):
        search_rules("ucb1", backup="median")
    with pytest.raises(ValueError, match="no root rule 'dirichlet'; the root rules are "):
        search_rules("puct", roots=("dirichlet",))
    assert search_rules("ucb1", backup="tuned").backup is backup_tuned  # it keeps more
    with pytest.raises(ValueError, match=r"'ucb1-tuned' reads squares .* backup 'max'"):
        search_rules("ucb1-tuned", backup="max")
    with pytest.raises(ValueError, match=r"'rave' reads amaf .* backup 'max'"):
        search_rules("ucb1", rave=True, backup="max")
    assert search_rules("ucb1", backup="max").backup is backup_max
    assert search_rules("gumbel", backup="max").backup is backup_max  # it reads values only


def test_root_rules_merge_and_refuse_two_rules_for_one_field(monkeypatch) -> None:
    merged = search_rules("gumbel", roots=("fastest-win",)).root
    assert merged.proven is search_faster_win and merged.needs_simulations
    assert merged.prepare is ROOT_RULES["gumbel"].prepare
    monkeypatch.setitem(ROOT_RULES, "never", RootRule(proven=object()))
    with pytest.raises(ValueError, match="root rules 'fastest-win' and 'never' both set proven"):
        search_rules("ucb1", roots=("fastest-win", "never"))


def test_mcts_searches_a_won_root_for_a_faster_win_and_puct_stops() -> None:
    """The fastest-win rule is a root rule the loop is given, not a flag it reads."""
    state = TICTACTOE.new_initial_state()
    for move in (0, 3, 1, 4):  # x threatens 2, o threatens 5: x wins at once with 2
        state.apply_action(move)
    done = {}
    for name, roots in (("ucb1", ("fastest-win",)), ("puct", ())):
        rules = search_rules(name, roots=roots)
        policy = SearchPolicy(
            rules.select, expand_on_second_visit, rollout_value, rules.backup, rules.root.proven,
            SearchSettings(exploration=1.4),
        )  # fmt: skip
        tree = search_tree.new_tree(2000)
        search_tree.tree_reset(*tree, state.current_player())
        game = TICTACTOE
        workspace = new_workspace(
            game.kernels, game.params, state.data, game.num_actions, game.max_moves
        )
        rng = np.array([3], dtype=np.uint64)
        done[name] = run_simulations(
            game.kernels, game.params, state.data, tree, policy, rng, workspace, NO_DATA, 400
        )
        assert tree[0][0, search_tree.I_SOLVED] == search_tree.LOSS  # won for x, to move
    assert done["puct"] < 20 < done["ucb1"]  # PUCT stops at the proof; MCTS goes on


def _searched(state, rules, simulations: int, seed: int):
    """The tree of a UCT search with ``rules`` from ``state``."""
    game = state.game
    policy = SearchPolicy(
        rules.select, expand_on_second_visit, rollout_value, rules.backup, rules.root.proven,
        SearchSettings(exploration=1.4),
    )  # fmt: skip
    tree = search_tree.new_tree(50_000)
    search_tree.tree_reset(*tree, state.current_player())
    workspace = new_workspace(
        game.kernels, game.params, state.data, game.num_actions, game.max_moves
    )
    rng = np.array([seed + 1], dtype=np.uint64)
    run_simulations(game.kernels, game.params, state.data, tree, policy, rng, workspace,
                    NO_DATA, simulations)  # fmt: skip
    return tree


def _max_value(ints, floats, node) -> float | None:
    """Brute force: the value of ``node`` for its mover by max backups over the tree below it
    (a child searched: its proven result, else its own max value), None if no child was."""
    values = []
    first = int(ints[node, search_tree.I_FIRST])
    for child in range(first, first + int(ints[node, search_tree.I_COUNT])):
        status = ints[child, search_tree.I_SOLVED]
        if status != search_tree.UNSOLVED:
            values.append({search_tree.WIN: 1.0, search_tree.LOSS: -1.0}.get(status, 0.0))
        elif ints[child, search_tree.I_VISITS] > 0:
            below = _max_value(ints, floats, child)
            values.append(floats[child, search_tree.F_MEAN] if below is None else below)
    if not values:
        return None
    same = ints[node, search_tree.I_PLAYER] == search_tree.mover_of(ints, node)
    return max(values) if same else -max(values)


@settings(max_examples=15, deadline=None)
@given(
    moves=st.lists(st.integers(0, 15), max_size=6),
    simulations=st.integers(1, 300),
    seed=st.integers(0, 2**16),
)
def test_the_max_backup_values_each_node_by_its_best_child(moves, simulations, seed) -> None:
    """Against brute force over the searched tree: the root's value (and every node's) is the
    best of its children's values, computed again from the leaves up."""
    game = ConnectNGame(rows=4, cols=4, n=3, gravity=True)
    state = game.new_initial_state()
    for move in moves:
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[move % len(state.legal_actions())])
    if state.is_terminal():
        return
    ints, floats, meta = _searched(state, search_rules("ucb1", backup="max"), simulations, seed)
    for node in range(int(meta[search_tree.M_NODES])):
        expected = _max_value(ints, floats, node)
        if expected is not None:
            assert floats[node, search_tree.F_MEAN] == expected
            visits = ints[node, search_tree.I_VISITS]
            assert floats[node, search_tree.F_VALUE] == expected * visits


def _negamax(state) -> float:
    """The value of a position in play for the player to move (brute force)."""
    best = -1.0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        value = child.returns()[state.current_player()] if child.is_terminal() else None
        best = max(best, -_negamax(child) if value is None else value)
    return best


@pytest.mark.parametrize("moves", [(4, 0, 8), (0, 4, 8, 2), (4, 1, 0, 8, 2)])
def test_the_max_backup_values_a_known_position_by_negamax(moves) -> None:
    """A tic-tac-toe position searched to the end: the root's value for the player to move is
    the best of its children's values, the game's value by negamax."""
    state = TICTACTOE.new_initial_state()
    for move in moves:
        state.apply_action(move)
    ints, floats, _ = _searched(state, search_rules("ucb1", backup="max"), 3000, 0)
    first, count = int(ints[0, search_tree.I_FIRST]), int(ints[0, search_tree.I_COUNT])
    children = floats[first : first + count, search_tree.F_MEAN]
    assert -floats[0, search_tree.F_MEAN] == children.max() == _negamax(state)


@pytest.mark.parametrize("size", [(3, 3, 3, False), (4, 4, 3, True)])
def test_mcts_with_the_max_backup_plays_legal_games(size) -> None:
    rows, cols, n, gravity = size
    env = connect_n_v0.env(rows=rows, cols=cols, n=n, gravity=gravity)
    env.reset(seed=0)
    agent = MCTSAgent(simulations=60, backup="max", seed=1)
    while not env.terminations[env.agent_selection]:
        result = agent.search(env)
        assert result.visits.sum() > 0
        env.step(result.action)  # raises on an illegal move


def test_the_backup_is_an_mcts_option_and_spec_key() -> None:
    agent = parse_agent_spec("mcts:backup=tuned,simulations=10").build()
    assert isinstance(agent, MCTSAgent) and agent.backup == "tuned"
    with pytest.raises(ValueError, match="backup"):
        parse_agent_spec("mcts:backup=median")
    with pytest.raises(ValueError, match=r"'ucb1-tuned' reads squares .* backup 'mean'"):
        parse_agent_spec("mcts:selection=ucb1-tuned,backup=mean")
    env = connect_n_v0.env(rows=3, cols=3, n=3, gravity=False)
    env.reset()
    with pytest.raises(ValueError, match=r"'rave' reads amaf .* 'tuned'"):
        MCTSAgent(simulations=10, rave=True, backup="tuned").search(env)
    agent = parse_agent_spec("mcts:backup=max,simulations=10").build()
    assert agent.backup == "max"
    with pytest.raises(ValueError, match=r"'ucb1-tuned' reads squares .* backup 'max'"):
        parse_agent_spec("mcts:selection=ucb1-tuned,backup=max")


def _must_block():
    """Tic-tac-toe, o to move: x threatens cell 2; blocking it draws, any other move loses."""
    env = connect_n_v0.env(rows=3, cols=3, n=3, gravity=False)
    env.reset(seed=0)
    state = TICTACTOE.new_initial_state()
    for move in (0, 4, 1):
        env.step(move)
        state.apply_action(move)
    return env, state


@pytest.mark.parametrize("path", ["puct", "puct-network", "mcts", "batched"])
def test_a_move_proven_lost_gets_no_policy_mass_and_is_never_drawn(path) -> None:
    """One move choice and training target for every path: at temperature 1 the moves the
    search proved lost get no share of the target and are never played."""
    env, state = _must_block()
    for seed in range(6):
        if path == "batched":
            search = BatchedSearch(TICTACTOE, 1, simulations=200, seed=seed)
            search.reset(0, state)
            search.run([0], uniform_evaluator)
            ints = search.trees[0][0]
            pi, action = search.policies([0])[0], int(search.choose([0], 1.0)[0])
        else:
            if path == "mcts":
                agent = MCTSAgent(simulations=300, preset="uct", seed=seed)
            else:
                function = None if path == "puct" else (lambda obs: (obs["action_mask"], 0.0))
                agent = PUCTAgent(function, simulations=200, temperature=1.0, seed=seed)
            result = agent.search(env)
            ints = agent._trees[0][0]
            pi, action = result.pi, result.action
        first, count = int(ints[0, search_tree.I_FIRST]), int(ints[0, search_tree.I_COUNT])
        lost = [
            int(ints[child, search_tree.I_ACTION])
            for child in range(first, first + count)
            if ints[child, search_tree.I_SOLVED] == search_tree.LOSS
            and ints[child, search_tree.I_VISITS] > 0
        ]
        assert lost  # the search visited moves it then proved lost
        assert np.all(pi[lost] == 0) and pi[2] > 0 and pi.sum() == pytest.approx(1.0)
        assert action not in lost


def test_puct_agents_play_gumbel_moves_at_any_temperature_as_batched_searches_do() -> None:
    """Gumbel's move choice does not sample by visits: its Gumbel draws are its sampling."""
    env = connect_n_v0.env(rows=3, cols=3, n=3, gravity=False)
    env.reset(seed=0)
    for seed in range(4):
        hot = PUCTAgent(simulations=16, selection="gumbel", temperature=2.0, seed=seed)
        cold = PUCTAgent(simulations=16, selection="gumbel", seed=seed)
        assert hot.search(env).action == cold.search(env).action
