"""The networks shipped with the package (agents/alphazero/pretrained.py): every one loads and
plays, tic-tac-toe's never loses, and bad names and damaged files are refused by name."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest
import torch

import agents.alphazero.pretrained as pretrained
from agents.alphazero import AlphaZeroAgent, CheckpointError
from agents.alphazero.pretrained import pretrained_checkpoint, pretrained_networks
from connectn_env.games import REGISTRY
from connectn_env.games.config import GameConfig
from connectn_env.specs import parse_agent_spec

NETWORKS = pretrained_networks()


def test_the_manifest_lists_files_that_ship_small_and_whole() -> None:
    assert GameConfig("tictactoe") in NETWORKS
    total = 0
    for network in NETWORKS.values():
        data = network.path.read_bytes()
        assert len(data) <= 2 * 1024 * 1024, network.path
        assert hashlib.sha256(data).hexdigest() == network.sha256
        assert network.card.startswith("docs/models/")
        total += len(data)
    assert total <= 12 * 1024 * 1024


@pytest.mark.parametrize("game", list(NETWORKS), ids=str)
def test_every_shipped_network_loads_and_plays_a_move(game) -> None:
    env = game.make_env()
    env.reset(seed=0)
    agent = AlphaZeroAgent.pretrained(game.make_game(), simulations=16, seed=0)
    action = agent.act(env)
    assert env.unwrapped.game_state.legal_action_mask()[action]


def _never_loses(agent, env, me) -> int:
    """Play ``agent`` as ``me`` against every reply; return the positions searched (fails at
    the first loss)."""
    if env.terminations[env.agent_selection]:
        assert env.rewards[me] >= 0, env.unwrapped.game_state.history()
        return 0
    if env.agent_selection == me:
        child = _copy(env)
        child.step(agent.act(env))
        return 1 + _never_loses(agent, child, me)
    searched = 0
    mask = env.unwrapped.game_state.legal_action_mask()
    for action in mask.nonzero()[0]:
        child = _copy(env)
        child.step(int(action))
        searched += _never_loses(agent, child, me)
    return searched


def _copy(env):
    from agents.envapi import clone_env

    return clone_env(env)


@pytest.mark.parametrize(
    "me", ["player_0", pytest.param("player_1", marks=pytest.mark.slow)]
)  # second: about 12 s
def test_the_tictactoe_network_never_loses_against_any_reply(me) -> None:
    """Exhaustive: every sequence of the opponent's replies, the network with 200 simulations
    (deterministic: temperature 0) on its side."""
    game = GameConfig("tictactoe")
    agent = AlphaZeroAgent.pretrained(game, simulations=200, reuse_tree=False, seed=0)
    env = game.make_env()
    env.reset(seed=0)
    assert _never_loses(agent, env, me) > 50


def test_az_pretrained_is_an_agent_spec() -> None:
    spec = parse_agent_spec("az:pretrained,simulations=32")
    assert dict(spec.options) == {"pretrained": True, "simulations": 32}
    spec.check_game(GameConfig("tictactoe"))
    agent = spec.build(seed=0)
    env = GameConfig("tictactoe").make_env()
    env.reset(seed=0)
    assert env.unwrapped.game_state.legal_action_mask()[agent.act(env)]
    assert "pretrained" in repr(agent)
    with pytest.raises(ValueError, match="path=FILE or pretrained, not both"):
        parse_agent_spec("az:pretrained,path=x.pt")


def test_network_pins_the_shipped_network_by_its_sha256() -> None:
    tictactoe = GameConfig("tictactoe")
    sha = NETWORKS[tictactoe].sha256
    assert pretrained_checkpoint(tictactoe, sha[:8].upper()).game == tictactoe
    other = ("0" if sha[0] != "0" else "1") + sha[1:12]
    with pytest.raises(ValueError, match=f"tictactoe is {sha[:12]} .*not {other}"):
        pretrained_checkpoint(tictactoe, other)
    spec = parse_agent_spec(f"az:pretrained,network={sha[:12]},simulations=16")
    spec.check_game(tictactoe)
    env = tictactoe.make_env()
    env.reset(seed=0)
    assert env.unwrapped.game_state.legal_action_mask()[spec.build(seed=0).act(env)]
    pinned_elsewhere = parse_agent_spec(f"az:pretrained,network={other},simulations=16")
    with pytest.raises(ValueError, match="not " + other):
        pinned_elsewhere.check_game(tictactoe)
    with pytest.raises(ValueError, match="not " + other):  # an env's game, loaded on first use
        pinned_elsewhere.build(seed=0).act(env)
    with pytest.raises(ValueError, match="not " + other):
        AlphaZeroAgent.pretrained(tictactoe, network=other)
    for bad in ("abc", "xyz12345", "0" * 65):
        with pytest.raises(ValueError, match=f"network must be 8 to 64 hex digits.*{bad}"):
            parse_agent_spec(f"az:pretrained,network={bad}")
    with pytest.raises(TypeError, match="network must be a string"):
        AlphaZeroAgent.pretrained(tictactoe, network=12345678)
    with pytest.raises(ValueError, match="network= pins a shipped network"):
        parse_agent_spec(f"az:path=x.pt,network={sha[:12]}")


def test_a_device_or_precision_it_cannot_use_is_refused_when_the_agent_is_made(
    monkeypatch,
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    tictactoe = GameConfig("tictactoe")
    no_cuda = r"device 'cuda' is not available on this machine .*use device='cpu'"
    for make in (
        lambda **kwargs: AlphaZeroAgent.pretrained(tictactoe, **kwargs),
        lambda **kwargs: AlphaZeroAgent.pretrained(**kwargs),  # game loaded on first use
        lambda **kwargs: AlphaZeroAgent(None, **kwargs),
    ):
        with pytest.raises(ValueError, match=no_cuda):
            make(device="cuda")
        with pytest.raises(ValueError, match="device must be one of 'cpu', 'cuda', got 'cuda:0'"):
            make(device="cuda:0")
        with pytest.raises(ValueError, match=r"precision must be one of .*'float32'.*got 'x'"):
            make(precision="x")
    with pytest.raises(ValueError, match=no_cuda):
        parse_agent_spec("az:pretrained,device=cuda").build(seed=0)


def test_a_game_without_a_network_is_refused_with_the_games_that_have_one() -> None:
    hex9 = REGISTRY["hex"].make(size=9)
    expected = (
        r"no pretrained network ships for hex\(rows=9,.*games with one: connect_four, .*"
        r"hex\(rows=7,cols=7,swap=false\), .*tictactoe"
    )
    with pytest.raises(ValueError, match=expected):
        pretrained_checkpoint(hex9)
    with pytest.raises(ValueError, match="no pretrained network ships"):
        parse_agent_spec("az:pretrained").check_game(GameConfig("hex", {"size": 9}))
    with pytest.raises(TypeError, match="BoardGame or a GameConfig"):
        pretrained_checkpoint("tictactoe")


def test_a_shipped_file_that_fails_its_checksum_is_refused_by_name(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "networks"
    shutil.copytree(pretrained.NETWORKS, folder)
    network = NETWORKS[GameConfig("tictactoe")]
    damaged = folder / network.path.name
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    monkeypatch.setattr(pretrained, "NETWORKS", folder)
    monkeypatch.setattr(pretrained, "MANIFEST", folder / "manifest.json")
    with pytest.raises(CheckpointError, match=rf"{damaged.name}: fails its checksum"):
        pretrained_checkpoint(GameConfig("tictactoe"))
    (folder / "manifest.json").write_text(json.dumps({"networks": [{"game": "x"}]}))
    with pytest.raises(CheckpointError, match=r"manifest\.json: a damaged manifest"):
        pretrained_networks()
    (folder / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)  # RecursionError
    with pytest.raises(CheckpointError, match=r"manifest\.json: a damaged manifest"):
        pretrained_networks()


def test_a_model_cards_strength_table_shows_each_colour_where_measured() -> None:
    """``docs/models/write_card.py`` writes the scores moving first and second when every
    result of ``alphazero_strength.py --json`` has them, and leaves them out otherwise."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "models" / "write_card.py"
    spec = importlib.util.spec_from_file_location("write_card", path)
    write_card = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(write_card)
    result = {
        "budget": 10000,
        "wins": 9,
        "draws": 0,
        "losses": 1,
        "score": 0.9,
        "ci95": [0.6, 0.98],
    }
    old = write_card.strength_table([result])
    assert old[0] == "| opponent | games | W-D-L | score | 95% interval |"
    assert old[2] == "| plain UCT, 10,000 simulations | 10 | 9-0-1 | 0.900 | [0.600, 0.980] |"
    new = write_card.strength_table([result | {"score_first": 1.0, "score_second": 0.8}])
    assert new[0].endswith("| moving first | moving second |")
    assert new[1].count("|") == new[0].count("|") == new[2].count("|")
    assert new[2].endswith("| 1.000 | 0.800 |")


@pytest.mark.parametrize(("spec", "threads"), [("", 1), (",threads=3", 3)])
def test_a_network_agent_searches_with_its_torch_threads_and_restores_them(
    spec, threads, monkeypatch
) -> None:
    agent = parse_agent_spec(f"az:pretrained,simulations=8{spec}").build(seed=0)
    assert agent.threads == threads
    env = GameConfig("tictactoe").make_env()
    env.reset(seed=0)
    agent.search(env)  # loads the network (attached on first use)
    seen = []
    evaluate = agent.evaluator.__call__

    def watched(*args):
        seen.append(torch.get_num_threads())
        return evaluate(*args)

    monkeypatch.setattr(agent, "evaluator", watched)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        agent.search(env)
        assert torch.get_num_threads() == 2  # the process's setting, restored
    finally:
        torch.set_num_threads(before)
    assert seen and set(seen) == {threads}


def test_none_leaves_torch_threads_alone_and_a_bad_count_is_refused() -> None:
    before = torch.get_num_threads()
    assert AlphaZeroAgent.pretrained(GameConfig("tictactoe"), threads=None).threads is None
    with pytest.raises(ValueError, match="threads must be at least 1, got 0"):
        parse_agent_spec("az:pretrained,threads=0")
    with pytest.raises(ValueError, match="threads must be between 1 and 1024, got 0"):
        AlphaZeroAgent.pretrained(threads=0)
    with pytest.raises(TypeError, match="threads must be an int"):
        AlphaZeroAgent.pretrained(threads=1.5)
    assert torch.get_num_threads() == before


def test_ship_network_ships_a_runs_network_with_its_manifest_entry(tmp_path, monkeypatch) -> None:
    """``benchmarks/ship_network.py`` writes the network and its manifest entry (here into a
    copy of the networks folder: a game that has a network gets it replaced)."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "ship_network.py"
    spec = importlib.util.spec_from_file_location("ship_network", path)
    ship_network = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ship_network)
    folder = tmp_path / "networks"
    shutil.copytree(pretrained.NETWORKS, folder)
    (folder / "tictactoe.pt").unlink()
    monkeypatch.setattr(ship_network, "NETWORKS", folder)
    monkeypatch.setattr(ship_network, "MANIFEST", folder / "manifest.json")
    shipped = NETWORKS[GameConfig("tictactoe")].path
    monkeypatch.setattr(
        sys, "argv", ["ship_network.py", str(tmp_path), "--checkpoint", str(shipped)]
    )
    ship_network.main()
    data = (folder / "tictactoe.pt").read_bytes()
    entries = json.loads((folder / "manifest.json").read_text())["networks"]
    assert len(entries) == len(NETWORKS)
    entry = next(entry for entry in entries if entry["file"] == "tictactoe.pt")
    assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert entry["card"] == "docs/models/tictactoe.md"
