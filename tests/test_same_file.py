"""Outputs never replace inputs: a command whose output names a file it reads (by any name:
the same path, a symbolic or hard link, a relative path) is refused before any game, and
the file is left as it was. ``evaluate --ladder X --json X`` replaced CPU-hours of ladder
with one result."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from cli_helpers import run_main

import agents.alphazero
import connectn_env.ladder
from connectn_env.same_file import check_outputs, same_file, spec_inputs
from connectn_env.specs import parse_agent_spec

SIX = ["connect_n", "--rows", "6", "--cols", "6", "--no-gravity"]
SHIPPED_LADDER = Path(connectn_env.ladder.__file__).parent / "data" / "connect_n_6x6.json"
NETWORK = Path(agents.alphazero.__file__).parent / "networks" / "tictactoe.pt"
QUIET = ["--workers", "1", "--no-progress"]


def _alias(tmp_path: Path, target: Path, kind: str) -> str:
    """Another name of ``target`` (in ``tmp_path``, the current directory)."""
    if kind == "same":
        return target.name
    if kind == "symlink":
        os.symlink(target, tmp_path / "link")
        return "link"
    if kind == "hardlink":
        os.link(target, tmp_path / "hard")
        return "hard"
    (tmp_path / "sub").mkdir()
    return f"sub/../{target.name}"


@pytest.mark.parametrize("kind", ["same", "symlink", "hardlink", "dotdot"])
@pytest.mark.parametrize("option", ["--json", "--results"])
def test_evaluate_refuses_an_output_that_is_its_ladder(
    tmp_path, monkeypatch, capsys, kind: str, option: str
) -> None:
    monkeypatch.chdir(tmp_path)
    ladder = tmp_path / "L.json"
    shutil.copyfile(SHIPPED_LADDER, ladder)
    before = ladder.read_bytes()
    output = _alias(tmp_path, ladder, kind)
    argv = ["evaluate", *SIX, "random", "--games", "2", *QUIET, "--ladder", "L.json"]
    code, out, err = run_main([*argv, option, output], capsys)
    assert code == 2 and out == "", err
    expected = f"error: {option} {output} is the file --ladder reads (L.json); an output never "
    assert expected in err and err.count("\n") == 1, err
    assert ladder.read_bytes() == before


def test_evaluate_refuses_a_json_that_is_the_candidates_network(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    network = tmp_path / "net.pt"
    shutil.copyfile(NETWORK, network)
    os.symlink(network, tmp_path / "result.json")
    candidate = "az:path=net.pt,simulations=2"
    for argv in (
        ["evaluate", *SIX, candidate, "--games", "2"],
        ["evaluate", "tictactoe", "random", "--vs", candidate, "--sprt", "0,50"],
    ):
        code, out, err = run_main([*argv, *QUIET, "--json", "result.json"], capsys)
        assert code == 2 and out == "", err
        assert "--json result.json is the file " in err and "(net.pt)" in err, err
    assert network.read_bytes() == NETWORK.read_bytes()


def test_arena_refuses_an_output_that_is_an_agents_network_or_its_other_output(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    network = tmp_path / "net.pt"
    shutil.copyfile(NETWORK, network)
    argv = ["arena", "tictactoe", "az:path=net.pt,simulations=2", "random", "--games", "1"]
    code, out, err = run_main([*argv, *QUIET, "--json", "./net.pt"], capsys)
    assert code == 2 and out == "", err
    assert "error: --json net.pt is the file the agent az:path=net.pt" in err, err
    assert network.read_bytes() == NETWORK.read_bytes()
    (tmp_path / "games.jsonl").write_text("")
    os.link(tmp_path / "games.jsonl", tmp_path / "tables.json")
    outputs = ["--out", "games.jsonl", "--json", "tables.json"]
    code, out, err = run_main([*argv, *QUIET, *outputs], capsys)
    assert code == 2 and out == "", err
    assert "--out and --json both name games.jsonl; give each its own file" in err, err
    assert (tmp_path / "games.jsonl").read_bytes() == b""


def test_same_file_and_the_inputs_of_specs(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a").write_text("")
    os.symlink("a", "link")
    assert same_file("a", "link") and same_file("a", tmp_path / "a")
    assert same_file("new", "./new") and not same_file("a", "new")
    shutil.copyfile(NETWORK, "net.pt")
    spec = parse_agent_spec("az:path=net.pt,simulations=2")
    assert spec_inputs("A", spec) == [("A az:path=net.pt,simulations=2", "net.pt")]
    assert spec_inputs("A", "sb3:path= a ") == [("A sb3:path= a ", "a")]
    assert spec_inputs("A", "mcts:simulations=10") == spec_inputs("A", None) == []
    check_outputs([("--json", "b")], [("--ladder", "a")])  # distinct: no error
    with pytest.raises(ValueError, match="--json link is the file --ladder reads"):
        check_outputs([("--json", "link"), ("--results", None)], [("--ladder", "a")])
