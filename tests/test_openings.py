"""Opening suites: the shipped files, the reader's refusals, the maker and the command."""

from __future__ import annotations

import json

import pytest

from connectn_env.cli import main
from connectn_env.ladder.games import LADDER_GAMES
from connectn_env.ladder.openings import (
    OPENINGS,
    OpeningSuite,
    load_suite,
    save_suite,
    shipped_suite,
    suite_symmetries,
)
from connectn_env.ladder.openings_make import make_suite, solver_judge, wins_at_once

SIX = "connect_n_6x6"


def _write(tmp_path, **changes):
    data = OpeningSuite(SIX, ((14, 21, 15, 20), (0, 35)), 2, 4).to_json() | changes
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("key", list(LADDER_GAMES))
def test_a_suite_ships_for_every_ladder_game(key):
    suite = shipped_suite(key)
    assert suite.key == key and len(suite.openings) >= 50
    assert suite.command.startswith("connectn openings make") and suite.judge


def test_shipped_connect_four_openings_are_what_the_solver_judge_keeps():
    suite = shipped_suite("connect_four")
    judge = solver_judge(500_000)
    game = LADDER_GAMES["connect_four"].make_game()
    for opening in suite.openings[:3]:
        state = game.new_initial_state()
        for action in opening:
            state.apply_action(action)
        assert judge(state), opening


def test_suite_round_trips_and_keeps_its_digest(tmp_path):
    suite = OpeningSuite(SIX, ((14, 21, 15, 20), (0, 35)), 2, 4, "cmd", "judge", 1.5)
    path = save_suite(suite, tmp_path / "s.json")
    assert load_suite(path, "connect_n_6x6") == suite
    assert load_suite(path).digest == suite.digest
    reordered = OpeningSuite(SIX, suite.openings[::-1], 2, 4)
    assert reordered.digest != suite.digest


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "other"}, "not an opening suite"),
        ({"version": 2}, "version 2"),
        ({"extra": 1}, "fields not allowed: ['extra']"),
        ({"key": "connect_four"}, "is not connect_four's"),
        ({"openings": [[14, 14]]}, "opening 1: move 2 (c3) is illegal"),
        ({"openings": [[14, 99]]}, "opening 1: move 2: action 99 is outside"),
        ({"openings": [[14, 1.5]]}, "opening 1: move 2: an action must be an int"),
        ({"openings": [[14]]}, "opening 1 has 1 moves; the suite's are 2 to 4"),
        ({"openings": [[0, 35], [5, 30]]}, "opening 2 repeats opening 1"),  # mirror image
        ({"openings": [[0, 35], [35, 0]]}, "opening 2 repeats opening 1"),  # 180 degrees
        ({"openings": []}, "'openings' must be a list of 1"),
        ({"min_plies": 5}, "min_plies <= max_plies"),
        ({"cpu_seconds": -1}, "cpu_seconds must be a number >= 0"),
    ],
)
def test_reader_refuses_bad_suites_by_name(tmp_path, changes, message):
    path = _write(tmp_path, **changes)
    with pytest.raises(ValueError, match=r"suite\.json") as error:
        load_suite(path)
    assert message in str(error.value)


def test_reader_refuses_missing_fields_damage_and_another_games_suite(tmp_path):
    data = OpeningSuite(SIX, ((14, 21),), 2, 2).to_json()
    del data["judge"]
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"fields missing: \['judge'\]"):
        load_suite(path)
    path.write_text(json.dumps(OpeningSuite(SIX, ((14, 21),), 2, 2).to_json())[:-20])
    with pytest.raises(ValueError, match="invalid JSON"):
        load_suite(path)
    path.write_text(json.dumps(OpeningSuite(SIX, ((14, 21),), 2, 2).to_json()))
    with pytest.raises(ValueError, match="an opening suite of connect_n_6x6, not of hex_7x7"):
        load_suite(path, "hex_7x7")


def test_reader_refuses_a_finished_game(tmp_path):
    four = [0, 6, 1, 7, 2, 8, 3]  # player_0 completes a1-d1
    path = _write(tmp_path, openings=[four], min_plies=7, max_plies=7)
    with pytest.raises(ValueError, match="opening 1: the game is over after its last move"):
        load_suite(path)
    path = _write(tmp_path, openings=[[*four, 9]], min_plies=8, max_plies=8)
    with pytest.raises(ValueError, match="opening 1: the game is over after move 7"):
        load_suite(path)


@pytest.mark.parametrize(
    ("key", "first", "image"),
    [
        ("connect_four", [0, 1], [6, 5]),  # the mirror
        ("hex_7x7", [0], [48]),  # the 180-degree rotation
        ("othello_8x8", [19], [44]),  # d3 and e6: the 180-degree rotation of the start
    ],
)
def test_symmetric_duplicates_are_refused_for_each_board(tmp_path, key, first, image):
    config = LADDER_GAMES[key]
    data = OpeningSuite(key, (tuple(first),), 1, 2).to_json()
    data["openings"] = [first, image]
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="opening 2 repeats opening 1"):
        load_suite(path)
    assert config.make_game()  # the game builds


@pytest.mark.parametrize(
    ("key", "names"),
    [
        ("connect_four", ["identity", "mirror left-right"]),
        ("hex_7x7", ["identity", "rotate 180"]),
        ("othello_8x8", ["identity", "rotate 180", "transpose", "anti-transpose"]),
        ("connect_n_6x6", 8),
    ],
)
def test_suites_use_the_symmetries_that_keep_the_start(key, names):
    """Othello's mirrors swap the centre discs' colours: not a symmetry of its openings."""
    kept = [symmetry.name for symmetry in suite_symmetries(LADDER_GAMES[key])]
    assert kept == names if isinstance(names, list) else len(kept) == names


def test_maker_keeps_what_the_judge_accepts_and_never_a_win_at_once():
    judged = []

    def judge(state):
        judged.append(state.history())
        return len(judged) % 2 == 0  # every other position

    judge.__doc__ = "every other position"
    suite, tries = make_suite(SIX, count=6, min_plies=5, max_plies=7, judge=judge, seed=3)
    assert len(suite.openings) == 6 and tries >= 12 and suite.judge == "every other position"
    game = LADDER_GAMES[SIX].make_game()
    for opening in suite.openings:
        assert 5 <= len(opening) <= 7 and list(opening) in judged
        state = game.new_initial_state()
        for action in opening:
            state.apply_action(action)
        assert not state.is_terminal() and not wins_at_once(state)
    again, _ = make_suite(SIX, count=6, min_plies=5, max_plies=7, judge=judge, seed=3)
    assert again.openings != () and len(again.openings) == 6


def test_maker_refuses_openings_that_leave_a_win_at_once():
    """Random openings of 9 plies on 6 x 6 often leave the side to move a four to complete:
    with a judge that accepts everything, none of those is kept."""
    game = LADDER_GAMES[SIX].make_game()
    suite, tries = make_suite(
        SIX, count=30, min_plies=9, max_plies=9, judge=lambda state: True, seed=0
    )
    assert tries > len(suite.openings)  # some were refused
    for opening in suite.openings:
        state = game.new_initial_state()
        for action in opening:
            state.apply_action(action)
        assert not wins_at_once(state)


def test_maker_refuses_bad_arguments():
    with pytest.raises(ValueError, match=r"max_plies \(3\) must be at least min_plies \(4\)"):
        make_suite(SIX, count=1, min_plies=4, max_plies=3, judge=lambda s: True)
    with pytest.raises(ValueError, match="no opening of connect_n_6x6 kept in 5 tries"):
        make_suite(SIX, count=1, min_plies=2, max_plies=2, judge=lambda s: False, max_tries=5)


def test_openings_command_makes_and_shows_a_suite(tmp_path, capsys):
    out = tmp_path / "six.json"
    argv = ["openings", "make", "connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]
    argv += ["--count", "3", "--min-plies", "4", "--max-plies", "4", "--simulations", "200"]
    assert main([*argv, "--out", str(out)]) == 0
    suite = load_suite(out, SIX)
    assert len(suite.openings) == 3 and "--simulations 200" in suite.command
    assert main(["openings", "show", str(out)]) == 0
    assert "connect_n_6x6: 3 openings of 4 to 4 plies" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SystemExit) as error:
        main(["openings", "show", str(tmp_path / "bad.json")])
    assert error.value.code == 2
    assert "connectn openings: error:" in capsys.readouterr().err


def test_shipped_suites_are_package_data():
    assert sorted(p.stem for p in OPENINGS.glob("*.json")) == sorted(LADDER_GAMES)
