"""``evaluate`` on a tiny ladder of cheap rungs built here (6 x 6 four in a row without
gravity: games of a few moves): a rung's own agent gets its rating back, every kind of
candidate plays, an illegal move loses the game and the run goes on, runs resume without
losing or repeating games, bad input is refused before anything is written."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

import connectn_env
from agents import RandomAgent
from connectn_env.elo import PairingStats
from connectn_env.ladder import Ladder, Rung, build_ladder, evaluate
from connectn_env.ladder.fit import fit_ratings

GAME = "connect_n_6x6"
RUNGS = [
    Rung("random", "random"),
    Rung("uct-10", "mcts:simulations=10,preset=uct"),
    Rung("uct-100", "mcts:simulations=100,preset=uct"),
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Ladder:
    folder = tmp_path_factory.mktemp("ladder")
    return build_ladder(
        GAME, games_per_pair=40, rungs=RUNGS, workers=1, results=folder / "games.jsonl"
    )


def _first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_a_rungs_own_agent_is_rated_within_the_interval(tiny: Ladder) -> None:
    result = evaluate(RUNGS[1].spec, ladder=tiny, games=60, workers=1)
    assert result.games == 60 and result.played == 60
    low, high = result.ci95
    assert low <= tiny.rung("uct-10").rating <= high
    rung_low, rung_high = tiny.rung("uct-10").ci95
    held = fit_ratings(
        [result.candidate, *tiny.labels],
        [
            PairingStats(result.candidate, r.label, r.wins, r.draws, r.losses, 0, 0, r.pairs)
            for r in result.rungs
        ],
        tiny.ratings,
    ).intervals[result.candidate]
    # the rungs' own uncertainty is in the interval: wider than with the rungs held exact,
    # and no wider than the two spreads added
    assert held[1] - held[0] < high - low < (held[1] - held[0]) + (rung_high - rung_low)
    played = {r.label: r.games for r in result.rungs}
    assert played["uct-10"] >= 20  # the games go where the score is nearest 50%
    assert "Elo" in result.table() and json.dumps(result.to_json())


def test_agent_objects_and_plain_policies_are_candidates(tiny: Ladder) -> None:
    agent = evaluate(RandomAgent(seed=3), ladder=tiny, games=6)
    assert agent.candidate == "RandomAgent" and agent.games == 6 and agent.errors == 0
    policy = evaluate(_first_legal, ladder=tiny, games=6, name="first")
    assert policy.candidate == "first" and policy.games == 6 and policy.errors == 0
    assert connectn_env.evaluate is evaluate


def test_an_illegal_action_loses_that_game_and_the_run_goes_on(tiny: Ladder) -> None:
    result = evaluate(lambda observation, mask: 0, ladder=tiny, games=8)
    assert result.games == 8 and 0 < result.errors <= 8
    assert all(r.errors <= r.losses for r in result.rungs)  # each error is a game lost
    assert "lost by an error" in result.table()


def test_a_run_resumes_without_losing_or_repeating_games(tiny: Ladder, tmp_path: Path) -> None:
    results = tmp_path / "eval.jsonl"
    first = evaluate("random", ladder=tiny, games=10, workers=1, results=results)
    assert first.played == 10
    with results.open("ab") as stream:  # a kill in the middle of a line
        stream.write(b'{"type": "game", "pairing": ["ran')
    again = evaluate("random", ladder=tiny, games=16, workers=1, results=results)
    assert again.played == 6 and again.games == 16
    lines = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    keys = [(*line["pairing"], line["index"]) for line in lines]
    assert len(keys) == len(set(keys)) == 16
    assert evaluate("random", ladder=tiny, games=16, workers=1, results=results).played == 0


def test_bad_candidates_and_games_are_refused_before_anything_is_written(
    tiny: Ladder, tmp_path: Path
) -> None:
    results = tmp_path / "never.jsonl"
    with pytest.raises(ValueError, match=r"candidate 'nonsense'.*valid specs"):
        evaluate("nonsense", ladder=tiny, results=results)
    with pytest.raises(ValueError, match=r"sb3:path=MODEL\.zip"):
        evaluate("sb3:model.zip", ladder=tiny, results=results)
    with pytest.raises(TypeError, match="candidate 3 of type int"):
        evaluate(3, ladder=tiny, results=results)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        evaluate("random", game="chess", results=results)
    with pytest.raises(ValueError, match="tictactoe has no ladder"):
        evaluate("random", game="tictactoe", results=results)
    with pytest.raises(ValueError, match="games must be"):
        evaluate("random", ladder=tiny, games=0, results=results)
    with pytest.raises(ValueError, match="cannot play"):
        evaluate("sb3:path=/nonexistent/model.zip", ladder=tiny, results=results)
    assert not results.exists()


def _with_rung_spec(ladder: Ladder, label: str, spec: str) -> Ladder:
    rungs = tuple(
        dataclasses.replace(rung, spec=spec) if rung.label == label else rung
        for rung in ladder.rungs
    )
    return dataclasses.replace(ladder, rungs=rungs)


def test_a_rung_that_cannot_play_stops_the_rating_instead_of_lifting_it(
    tiny: Ladder, tmp_path: Path
) -> None:
    unbuildable = _with_rung_spec(tiny, "uct-100", "arena_helpers:not_an_agent")
    results = tmp_path / "never.jsonl"
    message = r"ladder rung 'uct-100' cannot play .*: TypeError: agent factory arena_helpers:not_an"
    with pytest.raises(ValueError, match=message):
        evaluate("random", ladder=unbuildable, games=4, workers=1, results=results)
    assert not results.exists()
    crashing = _with_rung_spec(tiny, "random", "arena_helpers:crashing")  # the nearest rung
    with pytest.raises(ValueError, match=r"ladder rung 'random' failed in a game: RuntimeError"):
        evaluate("random", ladder=crashing, games=4, workers=1)


@pytest.mark.slow  # about 9 s of move timeouts
def test_a_hanging_candidate_loses_by_timeout_and_a_hanging_rung_stops_the_run(
    tiny: Ladder,
) -> None:
    result = evaluate("arena_helpers:spinning", ladder=tiny, games=2, workers=1, move_timeout=1)
    assert (result.games, result.errors) == (2, 2)
    assert sum(r.losses for r in result.rungs) == 2
    hanging = _with_rung_spec(tiny, "uct-10", "arena_helpers:spinning")  # the middle rung
    message = r"ladder rung 'uct-10' failed in a game: MoveTimeout: no answer within the 1 s"
    with pytest.raises(ValueError, match=message):
        evaluate("random", ladder=hanging, games=2, workers=1, move_timeout=1)
    with pytest.raises(ValueError, match="move_timeout must be at most 86400"):
        evaluate("random", ladder=tiny, move_timeout=86401)


def test_an_sb3_model_of_another_shape_is_refused_by_name(tiny: Ladder, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from stable_baselines3 import PPO

    model = PPO(
        "MlpPolicy", gym.make("connectn_env/TicTacToe-v0"), n_steps=16, batch_size=16, seed=0
    )
    model.save(tmp_path / "ttt.zip")
    with pytest.raises(ValueError, match=r"shape \(3, 3, 2\) and 9 actions.*\(6, 6, 2\) and 36"):
        evaluate(f"sb3:path={tmp_path / 'ttt.zip'}", ladder=tiny, games=2)


def test_a_ladder_build_resumes_and_a_new_rung_leaves_the_others_in_place(
    tiny: Ladder, tmp_path: Path
) -> None:
    results = tmp_path / "games.jsonl"
    built = build_ladder(GAME, games_per_pair=6, rungs=RUNGS, workers=1, results=results)
    again = build_ladder(GAME, games_per_pair=6, rungs=RUNGS, workers=1, results=results)
    assert again.ratings == built.ratings and again.pairings == built.pairings
    longer = [*RUNGS, Rung("uct-30", "mcts:simulations=30,preset=uct")]
    extended = build_ladder(GAME, games_per_pair=10, rungs=longer, hold=tiny, workers=1)
    assert {label: extended.ratings[label] for label in tiny.labels} == tiny.ratings
    assert [extended.rung(label).ci95 for label in tiny.labels] == [
        tiny.rung(label).ci95 for label in tiny.labels
    ]  # the held rungs keep the intervals they were built with
    assert extended.fixed == tuple(tiny.labels)
    assert extended.command.startswith(f"{tiny.command}; then ")
    new = {(p.a, p.b): p.games for p in extended.pairings if {p.a, p.b} - set(tiny.labels)}
    assert new.keys() >= {("uct-10", "uct-30"), ("uct-100", "uct-30")}  # then by fitted order
    assert set(new.values()) == {10}
    assert len(extended.pairings) == len(tiny.pairings) + len(new)
    low, high = extended.rung("uct-30").ci95
    assert low < extended.ratings["uct-30"] < high


def test_a_rung_whose_agent_changed_is_rated_again_with_its_own_interval(tiny: Ladder) -> None:
    """A rung of the held ladder whose spec changed (a network trained again) is not held: it
    gets a new rating and the interval of that rating, not the old rung's."""
    changed = [*RUNGS[:2], Rung("uct-100", "mcts:simulations=300,preset=uct")]
    ladder = build_ladder(GAME, games_per_pair=10, rungs=changed, hold=tiny, workers=1)
    assert ladder.fixed == ("random", "uct-10")
    low, high = ladder.rung("uct-100").ci95
    assert (low, high) != tiny.rung("uct-100").ci95
    assert low < ladder.ratings["uct-100"] < high
    assert ladder.rung("uct-100").games == 20


def test_held_out_pairings_of_two_held_rungs_stay_with_the_held_ladder(tiny: Ladder) -> None:
    """Rebuilding around a changed rung keeps the held ladder's held-out pairings whose two
    rungs keep their ratings (their check still stands) and drops those of the changed one."""
    kept = next(p for p in tiny.pairings if {p.a, p.b} == {"random", "uct-10"})
    dropped = next(p for p in tiny.pairings if "uct-100" in (p.a, p.b))
    hold = dataclasses.replace(tiny, held_out=(kept, dropped))
    changed = [*RUNGS[:2], Rung("uct-100", "mcts:simulations=300,preset=uct")]
    ladder = build_ladder(GAME, games_per_pair=4, rungs=changed, hold=hold, workers=1)
    assert ladder.held_out == (kept,)
    assert ladder.checks["held_out"]["of"] == 1


def test_a_held_ladder_with_a_rung_not_built_is_refused(tiny: Ladder, tmp_path: Path) -> None:
    results = tmp_path / "never.jsonl"
    message = r"the ladder to hold has rungs that are not among the rungs built: 'uct-100' "
    with pytest.raises(ValueError, match=message):
        build_ladder(GAME, games_per_pair=2, rungs=RUNGS[:2], hold=tiny, results=results)
    assert not results.exists()


def test_a_rung_placed_wrongly_plays_its_neighbours_by_fitted_rating(tmp_path: Path) -> None:
    misplaced = [*RUNGS, Rung("random-2", "random")]  # guessed strongest, plays the two best
    ladder = build_ladder(GAME, games_per_pair=10, rungs=misplaced, workers=1)
    played = {frozenset((p.a, p.b)) for p in ladder.pairings}
    assert frozenset(("random", "random-2")) in played  # neighbours once fitted
    low, high = ladder.rung("random-2").ci95
    assert low <= 0 <= high and ladder.ratings["random-2"] < ladder.ratings["uct-10"]


@pytest.mark.slow  # about 11 s: a worker process imports torch
def test_sb3_models_of_the_right_shape_play_and_masks_keep_maskable_ppo_legal(
    tiny: Ladder, tmp_path: Path
) -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    env = gym.make("connectn_env/ConnectN-v0", rows=6, cols=6, n=4, gravity=False)
    MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0).save(tmp_path / "m.zip")
    PPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0).save(tmp_path / "p.zip")
    masked = evaluate(f"sb3:path={tmp_path / 'm.zip'}", ladder=tiny, games=4, workers=1)
    assert masked.games == 4 and masked.errors == 0
    plain = evaluate(f"sb3:path={tmp_path / 'p.zip'}", ladder=tiny, games=4, workers=1)
    assert plain.games == 4  # an illegal action of PPO loses its game, counted in errors


def test_a_time_budget_stops_starting_games(tiny: Ladder) -> None:
    result = evaluate(_first_legal, ladder=tiny, minutes=0.002)
    assert 1 <= result.games < 1000


def test_a_bad_candidate_is_refused_before_the_ladder_loads(tmp_path: Path) -> None:
    """The candidate's spec is checked first: no ladder file is read (nor torch imported
    for a network rung) to refuse a misspelt agent."""
    damaged = tmp_path / "ladder.json"
    damaged.write_text("{")
    with pytest.raises(ValueError, match="unknown agent spec 'nonsense:'"):
        evaluate("nonsense:", ladder=damaged)
