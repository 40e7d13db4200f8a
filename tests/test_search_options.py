"""The search options of ``MCTSAgent``: validation, the games' defaults and presets, what the
compiled pieces do on hand-made trees (UCB1-tuned, PoolRAVE's pools, LGR's table), proven
moves and the tree text of ``SearchResult``, determinism with seeds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from agents_helpers import play, pz_tictactoe

from agents import MCTSAgent
from agents import tree as search_tree
from agents.mcts import SearchOptions
from agents.rollout import refresh_pools, update_replies
from agents.rules import SearchSettings, backup_tuned, select_uct, select_uct_tuned
from connectn_env import connect_n_v0, gomoku_v0, hex_v0
from connectn_env.games import ConnectNGame, GomokuGame, HexGame, Outcome
from connectn_env.specs import parse_agent_spec

# --- validation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"selection": "ucb2"}, ValueError, "selection must be one of 'ucb1', 'ucb1-tuned'"),
        ({"selection": 1}, ValueError, "selection"),
        ({"pool_rave": 4, "rave": False}, ValueError, "pool_rave=4 needs rave=True"),
        (
            {"pool_rave": 4, "preset": "uct"},
            ValueError,
            r"^MCTSAgent: pool_rave=4 needs rave=True, which preset='uct' leaves off \(PoolRAVE",
        ),
        ({"pool_rave": -1}, ValueError, "pool_rave"),
        ({"pool_rave": 2.5}, TypeError, "pool_rave"),
        ({"decisive": 1}, TypeError, "decisive"),
        ({"lgr": "yes"}, TypeError, "lgr"),
        ({"local": None, "preset": "plain"}, ValueError, "preset must be one of"),
        ({"exploration": -1.0}, ValueError, "exploration"),
        ({"rave_equivalence": 0}, ValueError, "rave_equivalence"),
        ({"decisive": True, "backend": "generic"}, ValueError, "decisive=True cannot run on"),
        ({"lgr": True, "backend": "generic"}, ValueError, "play-out policies need"),
    ],
)
def test_bad_options_are_refused_with_a_clear_error(kwargs, error, message):
    with pytest.raises(error, match=message):
        MCTSAgent(**kwargs)


def test_an_option_the_game_cannot_honour_is_refused_at_the_search_and_the_agent_goes_on():
    env = play(connect_n_v0.env, [3])
    agent = MCTSAgent(local=True, simulations=50, seed=0)
    with pytest.raises(ValueError, match=r"local=True needs moves that are cells"):
        agent.search(env)
    gomoku = play(lambda: gomoku_v0.env(size=9), [40])
    assert agent.search(gomoku).simulations == 50  # the same agent works where it can


def test_playout_options_on_a_third_party_env_are_refused_naming_the_option():
    env = play(pz_tictactoe, [0])
    with pytest.raises(ValueError, match=r"decisive=True cannot run on an env that is not"):
        MCTSAgent(decisive=True, simulations=50, seed=0).search(env)
    tuned = MCTSAgent(selection="ucb1-tuned", rave=True, simulations=100, seed=0).search(env)
    assert tuned.simulations == 100  # tree-only options work on the generic path


def test_pool_rave_without_rave_on_a_game_without_rave_by_default_is_refused():
    env = play(connect_n_v0.env, [3])
    with pytest.raises(ValueError, match=r"pool_rave=4 needs rave=True on ConnectNGame"):
        MCTSAgent(pool_rave=4, simulations=50).search(env)


# --- defaults and presets -------------------------------------------------------------------


@pytest.mark.parametrize("game", [ConnectNGame(), GomokuGame(), HexGame()])
def test_unset_options_take_the_games_defaults_and_preset_uct_is_plain(game):
    defaults = MCTSAgent().options_for(game)
    assert defaults == SearchOptions(**type(game).search_defaults)
    assert defaults != SearchOptions()  # every game of the suite recommends something
    assert MCTSAgent(preset="uct").options_for(game) == SearchOptions()
    assert MCTSAgent(preset="uct", decisive=True).options_for(game).decisive
    assert MCTSAgent(exploration=0.5).options_for(game).exploration == 0.5
    assert MCTSAgent().options_for(None) == SearchOptions()


def test_agent_specs_take_every_option():
    spec = "mcts:simulations=64,selection=ucb1-tuned,rave=true,pool_rave=8,lgr=true,decisive=true"
    agent = parse_agent_spec(spec + ",local=false,preset=uct").build(seed=0)
    assert agent.options == {
        "selection": "ucb1-tuned",
        "rave": True,
        "pool_rave": 8,
        "lgr": True,
        "decisive": True,
        "local": False,
    }
    assert agent.preset == "uct"
    with pytest.raises(ValueError, match=r"selection must be one of ucb1, ucb1-tuned"):
        parse_agent_spec("mcts:selection=tuned")
    with pytest.raises(ValueError, match=r"pool_rave must be at least 0"):
        parse_agent_spec("mcts:pool_rave=-2")


# --- the compiled pieces on hand-made trees -------------------------------------------------


def _root_with_children(visits, means, squares, amaf=None):
    ints, floats, meta = search_tree.new_tree(16)
    search_tree.tree_reset(ints, floats, meta, 0)
    count = len(visits)
    search_tree.expand(ints, floats, meta, 0, 0, np.arange(count), np.full(count, 1 / count), count)
    ints[0, search_tree.I_VISITS] = sum(visits)
    for i, (n, q, sq) in enumerate(zip(visits, means, squares, strict=True)):
        child = 1 + i
        ints[child, search_tree.I_VISITS] = n
        floats[child, search_tree.F_VALUE] = q * n
        floats[child, search_tree.F_MEAN] = q
        floats[child, search_tree.F_INV_SQRT] = 1 / math.sqrt(n)
        floats[child, search_tree.F_SQUARES] = sq
        if amaf is not None:
            ints[child, search_tree.I_AMAF_N] = amaf[i][0]
            floats[child, search_tree.F_AMAF] = amaf[i][1]
    return ints, floats, meta


def test_ucb1_tuned_explores_the_uncertain_child_more_than_uct():
    """Two children with the same mean and visits: UCT cannot tell them apart (the first
    wins the tie), UCB1-tuned prefers the one whose values vary (a low variance shrinks the
    exploration term once a child has many visits)."""
    n = 5000
    ints, floats, _ = _root_with_children([n, n], [0.0, 0.0], [0.0, float(n)])
    settings = SearchSettings(exploration=1.0)
    assert select_uct(ints, floats, 0, settings) == 1
    assert select_uct_tuned(ints, floats, 0, settings) == 2
    # with a variance of 1 (the largest in [-1, 1]) the term is UCT's
    ints, floats, _ = _root_with_children([n, 2 * n], [0.0, 0.01], [float(n), float(2 * n)])
    assert select_uct(ints, floats, 0, settings) == select_uct_tuned(ints, floats, 0, settings)


def test_backup_tuned_keeps_the_sums_of_squares():
    ints, floats, meta = _root_with_children([1, 1], [0.0, 0.0], [0.0, 0.0])
    backup_tuned((ints, floats, meta), None, 1, 1, 1, -0.5)
    assert floats[1, search_tree.F_SQUARES] == 0.25 and floats[0, search_tree.F_SQUARES] == 0.25
    assert ints[1, search_tree.I_VISITS] == 2


def test_poolrave_pools_hold_the_best_amaf_moves():
    amaf = [(10, 2.0), (10, 9.0), (0, 0.0), (10, -5.0), (10, 5.0)]
    ints, floats, meta = _root_with_children([3, 9, 1, 2, 4], [0.0] * 5, [0.0] * 5, amaf)
    # the most visited child (action 1) has children of its own
    search_tree.expand(ints, floats, meta, 2, 1, np.array([7, 8]), np.array([0.5, 0.5]), 2)
    ints[6:8, search_tree.I_AMAF_N] = 4
    floats[6:8, search_tree.F_AMAF] = (-4.0, 3.0)
    pools = np.zeros((2, 4), dtype=np.int64)
    refresh_pools((ints, floats, meta), pools, 3)
    assert pools[0].tolist() == [3, 1, 4, 0]  # AMAF means 0.9, 0.5, 0.2 (untried: left out)
    assert pools[1].tolist() == [2, 8, 7, 0]


def test_lgr_stores_the_winners_replies_and_forgets_the_losers():
    replies = np.full((2, 9), -1, dtype=np.int64)
    replies[1, 4] = 8  # player 1's stored reply to 4, which it plays again and loses with
    moves = np.array([4, 8, 0, 2, 1])
    players = np.array([0, 1, 0, 1, 0])
    update_replies(replies, moves, players, 0, 5, int(Outcome.PLAYER_0_WINS))
    assert replies[0, 8] == 0 and replies[0, 2] == 1  # the winner's replies
    assert replies[1, 4] == -1  # forgotten
    assert replies[1, 0] == -1  # the loser's other reply is not stored
    update_replies(replies, moves, players, 0, 5, int(Outcome.DRAW))
    assert replies[0, 8] == 0  # a draw changes nothing


# --- results: proven moves, tree text, determinism -----------------------------------------


def test_proven_moves_are_reported_for_the_player_to_move():
    # x (player_0) has 0, 0, 0 in column 1: column 1 wins; o must not let it... x to move
    env = play(connect_n_v0.env, [0, 1, 0, 1, 0, 2])
    result = MCTSAgent(simulations=2000, seed=0, preset="uct").search(env)
    assert result.proven == "win" and result.proven_moves[0] == "win"
    assert result.action == 0
    # o to move must block column 1: every other column loses at once
    env = play(connect_n_v0.env, [0, 1, 0, 1, 0])
    result = MCTSAgent(simulations=5000, seed=0, preset="uct").search(env)
    assert result.action == 0
    assert {a for a, s in result.proven_moves.items() if s == "loss"} >= {2, 3, 4, 5, 6}


def test_tree_text_shows_the_principal_variation_and_the_top_moves():
    env = play(connect_n_v0.env, [3, 2, 3])  # beyond the opening book: a search
    result = MCTSAgent(simulations=3000, seed=0).search(env)
    text = result.tree_text(depth=2, width=2)
    lines = text.splitlines()
    assert lines[0].startswith("root: 3,000 visits")
    first = str(result.principal_variation[0] + 1)  # Connect Four columns are written 1 to 7
    assert lines[1].split()[:3] == ["principal", "variation:", first]
    assert int(first) - 1 == result.action
    top = [line for line in lines[2:] if line.startswith("  ") and line[2] != " "]
    assert len(top) == 3 and top[-1].strip().endswith("more")  # two moves, then the rest
    assert top[0].split()[0] == first
    assert "more" in text
    for bad, error in [({"depth": 0}, ValueError), ({"width": 9}, ValueError)]:
        with pytest.raises(error):
            result.tree_text(**bad)
    with pytest.raises(TypeError):
        result.tree_text(depth="2")


def test_tree_text_marks_proven_moves():
    env = play(connect_n_v0.env, [0, 1, 0, 1, 0, 2])
    text = MCTSAgent(simulations=500, seed=0).search(env).tree_text()
    assert text.splitlines()[2].endswith("[win in 1 ply]")


@pytest.mark.parametrize(
    ("make_env", "options"),
    [
        (connect_n_v0.env, {}),
        (connect_n_v0.env, {"lgr": True, "selection": "ucb1-tuned"}),
        (lambda: gomoku_v0.env(size=9), {}),
        (lambda: hex_v0.env(size=7), {}),
        (lambda: hex_v0.env(size=7), {"pool_rave": 4, "rave": True, "lgr": True}),
        (lambda: hex_v0.env(size=7), {"decisive": True}),
    ],
)
def test_searches_with_a_seed_are_repeatable(make_env, options):
    env = play(make_env, [])
    first = MCTSAgent(simulations=800, seed=5, **options)
    results = [MCTSAgent(simulations=800, seed=5, **options).search(env) for _ in range(2)]
    assert np.array_equal(results[0].visits, results[1].visits)
    assert results[0].action == results[1].action == first.act(env)
