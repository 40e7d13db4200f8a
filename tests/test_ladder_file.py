"""Ladder files: written and read back whole, damaged ones and other games' refused by
name, the shipped ladders well formed, the games and rungs, the levels for players."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import connectn_env.ladder.ladderfile as ladderfile
import connectn_env.ladder.rungs as rungs_module
from connectn_env.elo import PairingStats
from connectn_env.games.config import GameConfig
from connectn_env.ladder import (
    LADDER_GAMES,
    Ladder,
    LadderRung,
    ladder_key,
    ladder_rungs,
    level_rung,
    level_spec,
    levels,
    load_ladder,
    save_ladder,
    shipped_ladder,
)
from connectn_env.ladder.ladderfile import DATA, shipped_keys
from connectn_env.specs import parse_agent_spec

SMALL = Ladder(
    key="connect_n_6x6",
    rungs=(
        LadderRung("random", "random", 0.0, (0.0, 0.0), 20),
        LadderRung("uct-10", "mcts:simulations=10,preset=uct", 210.5, (150.0, 271.0), 40),
        LadderRung("uct-100", "mcts:simulations=100,preset=uct", 420.0, (350.0, 490.0), 20),
    ),
    pairings=(
        PairingStats("random", "uct-10", 3, 1, 16, 0, 0),
        PairingStats("uct-10", "uct-100", 4, 0, 16, 0, 1),
    ),
    games_per_pair=20,
    command="connectn ladder build connect_n --rows 6 --cols 6 --no-gravity",
    cpu_hours=0.01,
    provisional=True,
    date="2026-01-01T00:00:00+00:00",
    package_version="0.2.0",
    git_commit="abc",
    machine={"cores": 2},
)


def test_a_ladder_file_reads_back_equal(tmp_path: Path) -> None:
    path = save_ladder(SMALL, tmp_path / "sub" / "l.json")
    assert load_ladder(path) == SMALL
    assert load_ladder(path, GameConfig("connect_n", {"rows": 6, "cols": 6, "gravity": False}))
    table = SMALL.table()
    assert "PROVISIONAL" in table and "uct-100" in table and "calibration" in table


def _damaged(data: dict, change: str) -> dict:
    data = json.loads(json.dumps(data))
    if change == "format":
        data["format"] = "something"
    elif change == "other game":
        data["key"] = "hex_7x7"
    elif change == "outside":
        data["rungs"][1]["rating"] = 500.0
    elif change == "no random":
        data["rungs"][0]["spec"] = "mcts:simulations=5"
    elif change == "spec":
        data["rungs"][1]["spec"] = "nonsense:"
    elif change == "pairing":
        data["pairings"][0]["b"] = "nobody"
    elif change == "games":
        data["games_per_pair"] = 0
    elif change == "duplicate":
        data["rungs"][2]["label"] = "uct-10"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("format", "not a ladder file"),
        ("other game", "game"),
        ("outside", "inside its ci95"),
        ("no random", "'random'"),
        ("spec", "bad spec"),
        ("pairing", "two rungs"),
        ("games", "games_per_pair"),
        ("duplicate", "label 'uct-10'"),
    ],
)
def test_a_damaged_ladder_file_is_refused_by_name(
    tmp_path: Path, change: str, message: str
) -> None:
    path = tmp_path / "l.json"
    path.write_text(json.dumps(_damaged(SMALL.to_json(), change)), encoding="utf-8")
    with pytest.raises(ValueError, match=message) as error:
        load_ladder(path)
    assert str(path) in str(error.value)


def test_a_truncated_file_and_another_games_ladder_are_refused(tmp_path: Path) -> None:
    path = save_ladder(SMALL, tmp_path / "l.json")
    with pytest.raises(ValueError, match="the ladder of connect_n_6x6, not of connect_four"):
        load_ladder(path, "connect_four")
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ValueError, match="invalid JSON") as error:
        load_ladder(path)
    assert str(path) in str(error.value)
    with pytest.raises(ValueError, match="not a readable ladder file"):
        load_ladder(tmp_path / "missing.json")


def test_every_shipped_ladder_loads_and_its_rungs_are_the_games_rungs() -> None:
    shipped = sorted(DATA.glob("*.json"))
    assert shipped, "at least one ladder ships"
    for path in shipped:
        ladder = load_ladder(path, path.stem)
        assert [(r.label, r.spec) for r in ladder.rungs] == [
            (r.label, r.spec) for r in ladder_rungs(ladder.key)
        ]
        assert ladder.rung("random").rating == 0.0


def test_ladder_games_are_found_by_key_name_or_config() -> None:
    assert ladder_key("connect_four") == "connect_four"
    assert ladder_key(GameConfig("connect_n")) == "connect_four"  # Connect Four's size
    assert ladder_key("gomoku") == "gomoku_15x15"
    assert ladder_key(GameConfig("hex", {"rows": 7, "cols": 7})) == "hex_7x7"
    assert ladder_key(LADDER_GAMES["othello_8x8"].make_game()) == "othello_8x8"
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*connect_n_6x6"):
        ladder_key("chess")
    with pytest.raises(ValueError, match="tictactoe has no ladder"):
        ladder_key("tictactoe")
    with pytest.raises(TypeError, match="got int"):
        ladder_key(3)


def test_rungs_are_budgeted_by_simulations_or_depth_and_az_comes_from_the_manifest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for key in LADDER_GAMES:
        rungs = ladder_rungs(key)
        labels = [r.label for r in rungs]
        assert labels[0] == "random" and len(set(labels)) == len(labels)
        for rung in rungs:
            options = dict(parse_agent_spec(rung.spec).options)
            assert "time" not in options
        assert {"uct-10", "uct-100", "uct-1k", "uct-10k", "mcts-1k", "mcts-10k"} <= set(labels)
        assert sum(label.startswith("ab-") for label in labels) == 3
        network = rungs_module._pretrained_network(LADDER_GAMES[key])
        assert ("az-200" in labels) is (network is not None)
    monkeypatch.setattr(rungs_module, "_pretrained_network", lambda game: None)
    assert not any(r.label.startswith("az-") for r in ladder_rungs("hex_7x7"))
    monkeypatch.setattr(rungs_module, "_pretrained_network", lambda game: "0123456789ab")
    assert "az-200" in [r.label for r in ladder_rungs("hex_7x7")]
    spec = next(r.spec for r in ladder_rungs("hex_7x7") if r.label == "az-200")
    assert dict(parse_agent_spec(spec).options) == {
        "pretrained": True,
        "network": "0123456789ab",
        "simulations": 200,
    }


def test_the_network_rungs_of_the_shipped_ladders_pin_the_shipped_networks() -> None:
    """A network trained again must be rated again: its old rung's spec no longer builds."""
    from agents.alphazero.pretrained import pretrained_networks

    checked = 0
    for key in shipped_keys():
        ladder = shipped_ladder(key)
        for rung in ladder.rungs:
            spec = parse_agent_spec(rung.spec)
            options = dict(spec.options)
            if spec.kind == "az" and options.get("pretrained"):
                network = pretrained_networks()[LADDER_GAMES[key]]
                assert network.sha256.startswith(options["network"]), (key, rung.label)
                spec.check_game(LADDER_GAMES[key])
                checked += 1
    assert checked >= 1


@pytest.fixture
def only_six_by_six(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package's ladder folder as if only the 6 x 6 ladder shipped."""
    (tmp_path / "connect_n_6x6.json").write_bytes((DATA / "connect_n_6x6.json").read_bytes())
    monkeypatch.setattr(ladderfile, "DATA", tmp_path)


def test_levels_run_from_random_to_the_strongest_shipped_rung(only_six_by_six: None) -> None:
    rungs = levels("connect_n_6x6")
    assert level_spec("connect_n_6x6", 1) == "random"
    assert level_rung("connect_n_6x6", len(rungs)).rating == max(r.rating for r in rungs)
    assert [r.rating for r in rungs] == sorted(r.rating for r in rungs)
    with pytest.raises(ValueError, match=f"from 1 to {len(rungs)}"):
        level_spec("connect_n_6x6", 0)
    with pytest.raises(TypeError, match="level must be an int"):
        level_spec("connect_n_6x6", "3")
    with pytest.raises(ValueError, match=r"no levels for hex_7x7: .* are: connect_n_6x6 \("):
        level_spec("hex_7x7", 1)


def test_a_game_without_a_shipped_ladder_says_so(only_six_by_six: None) -> None:
    with pytest.raises(ValueError, match=r"no ladder is built for othello_8x8 yet \(built: conn"):
        shipped_ladder("othello")


def test_a_version_2_file_states_its_checks_and_a_false_statement_is_refused(
    tmp_path: Path,
) -> None:
    """The rebuilt ladders carry pair counts, held-out pairings and their checks; a file
    whose stated checks are not what its own numbers give, a held-out pairing of a rung it
    does not have, or pair counts for more games than were played, is refused by name."""
    data = json.loads((DATA / "connect_four.json").read_text(encoding="utf-8"))
    assert data["version"] == 2 and data["held_out"] and data["openings"]["openings"] == 93
    ladder = ladderfile.load_ladder(DATA / "connect_four.json")
    assert ladder.checks == data["checks"] and ladder.checks["held_out"]["of"] >= 1
    assert all(p.pairs is not None and sum(p.pairs) * 2 <= p.games for p in ladder.pairings)
    path = tmp_path / "ladder.json"
    bad_checks = {**data, "checks": {**data["checks"], "held_out": {"consistent": 9, "of": 9}}}
    bad_held = {**data, "held_out": [{**data["held_out"][0], "a": "nobody"}]}
    bad_pairs = {**data, "pairings": [{**data["pairings"][0], "pentanomial": [99, 0, 0, 0, 0]}]}
    for bad, message in (
        (bad_checks, "its checks"),
        (bad_held, "held-out pairing 1: a and b must be two rungs"),
        (bad_pairs, "pentanomial must be null or 5 pair counts"),
    ):
        path.write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            ladderfile.load_ladder(path)
    unstated = {key: value for key, value in data.items() if key != "checks"}
    path.write_text(json.dumps(unstated), encoding="utf-8")
    assert ladderfile.load_ladder(path).checks == data["checks"]
