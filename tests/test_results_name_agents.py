"""Results files name what played: each game line names its agents' specs and network
digests, a resume whose agent changed under the same label (a rung's spec, a network trained
again) is refused and changes nothing, and files written before still resume, with a
warning."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from agents import RandomAgent
from connectn_env.arena import ArenaError, GameResult, ResultsFile, run_tournament
from connectn_env.arena.played import PlayedBy, played_by
from connectn_env.elo import PairingStats
from connectn_env.games.config import GameConfig
from connectn_env.ladder import Ladder, LadderRung, evaluate

UCT = "mcts:simulations=10,preset=uct"
LADDER = Ladder(
    key="connect_n_6x6",
    rungs=(
        LadderRung("random", "random", 0.0, (0.0, 0.0), 20),
        LadderRung("uct-10", UCT, 200.0, (150.0, 250.0), 40),
        LadderRung("uct-100", "mcts:simulations=100,preset=uct", 400.0, (350.0, 450.0), 20),
    ),
    pairings=(
        PairingStats("random", "uct-10", 3, 1, 16, 0, 0),
        PairingStats("uct-10", "uct-100", 4, 0, 16, 0, 0),
    ),
    games_per_pair=20,
)


def _changed(ladder: Ladder, label: str, spec: str) -> Ladder:
    rungs = tuple(
        dataclasses.replace(rung, spec=spec) if rung.label == label else rung
        for rung in ladder.rungs
    )
    return dataclasses.replace(ladder, rungs=rungs)


def _games(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_a_resume_against_a_rung_whose_spec_changed_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "games.jsonl"
    evaluate(RandomAgent(seed=1), ladder=LADDER, games=2, results=results)  # the middle rung
    games = _games(results)
    assert [game["specs"] for game in games] == [[None, UCT]] * 2  # an object: no spec
    assert [game["networks"] for game in games] == [[None, None]] * 2
    before = results.read_bytes()
    message = (
        r"its games of 'uct-10' were played by mcts:simulations=10,preset=uct \(line 2\); this "
        r"run's 'uct-10' is ab:depth=2: those games cannot count for it"
    )
    with pytest.raises(ArenaError, match=message):
        evaluate(
            RandomAgent(seed=1),
            ladder=_changed(LADDER, "uct-10", "ab:depth=2"),
            games=4,
            results=results,
        )
    assert results.read_bytes() == before
    again = evaluate(RandomAgent(seed=1), ladder=LADDER, games=4, results=results)
    assert again.played == 2 and len(_games(results)) == 4


def test_a_results_file_written_before_specs_were_named_still_resumes(tmp_path: Path) -> None:
    results = tmp_path / "games.jsonl"
    evaluate(RandomAgent(seed=1), ladder=LADDER, games=2, results=results)
    header, *lines = results.read_text().splitlines()
    old = [
        {k: v for k, v in json.loads(line).items() if k not in ("specs", "networks")}
        for line in lines
    ]
    results.write_text("\n".join([header, *map(json.dumps, old)]) + "\n")
    changed = _changed(LADDER, "uct-10", "ab:depth=2")
    with pytest.warns(UserWarning, match="'uct-10'.* name no agent specs .*cannot be detected"):
        resumed = evaluate(RandomAgent(seed=1), ladder=changed, games=4, results=results)
    assert resumed.games == 4 and resumed.played == 2


def _tictactoe_store(path: Path) -> ResultsFile:
    header = {"game": "tictactoe", "params": {}, "seed": 0, "move_timeout": None}
    return ResultsFile(path, header)


def test_a_network_trained_again_under_the_same_path_cannot_reuse_its_games(tmp_path: Path) -> None:
    from agents.alphazero.checkpoint import load_checkpoint, save_checkpoint
    from agents.alphazero.pretrained import pretrained_networks

    game = GameConfig("tictactoe")
    network = tmp_path / "best.pt"
    shutil.copyfile(pretrained_networks()[game].path, network)
    spec = f"az:path={network},simulations=2"
    first = {spec: played_by(spec, game), "random": played_by("random", game)}
    assert first[spec].network == pretrained_networks()[game].sha256  # the file's SHA-256
    store = _tictactoe_store(tmp_path / "r.jsonl")
    store.name_agents(first)
    store.add(GameResult((spec, "random"), 0, (spec, "random"), "player_0", moves=(0, 3, 1, 4, 2)))
    checkpoint = load_checkpoint(network)
    checkpoint.model = {name: value + 0.01 for name, value in checkpoint.model.items()}
    save_checkpoint(network, checkpoint)  # trained again: the same spec, another network
    again = _tictactoe_store(tmp_path / "r.jsonl")
    with pytest.raises(
        ArenaError, match=rf"played by {spec} \(network [0-9a-f]{{12}}\).*this run's"
    ):
        again.name_agents({spec: played_by(spec, game), "random": first["random"]})
    again.name_agents(first)  # the same agents: resumed


def test_a_line_naming_two_agents_under_one_label_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    store = _tictactoe_store(path)
    store.name_agents({"a": PlayedBy("random"), "b": PlayedBy("mcts:simulations=2")})
    store.add(GameResult(("a", "b"), 0, ("a", "b"), "player_0", moves=(0, 3, 1, 4, 2)))
    store.name_agents({"a": PlayedBy("ab:depth=2"), "b": PlayedBy("mcts:simulations=2")})
    store.add(GameResult(("a", "b"), 1, ("b", "a"), "player_0", moves=(0, 3, 1, 4, 2)))
    with pytest.raises(ArenaError, match="line 3: 'a' is ab:depth=2, but random on line 2"):
        _tictactoe_store(path)
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"networks": [null, null]', '"networks": ["abc", null]')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ArenaError, match="line 3: key 'networks' must hold two SHA-256"):
        _tictactoe_store(path)


def test_the_arenas_results_name_the_agents(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_tournament("tictactoe", ["random", "mcts:simulations=2"], games=2, workers=1, out=out)
    assert [game["specs"] for game in _games(out)] == [["random", "mcts:simulations=2"]] * 2
