"""Options declared once (agents.options) and agents resolved once (connectn_env.specs)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from agents import MCTSAgent, PUCTAgent
from agents.mcts import OPTION_NAMES, MCTSOptions
from agents.options import declared
from connectn_env.games.config import GameConfig
from connectn_env.specs import parse_agent_spec, resolve_agent

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_renamed_keys_are_declared_aliases_read_as_the_spec_key() -> None:
    assert parse_agent_spec("mcts:exploration=1.2,rave_equivalence=30") == parse_agent_spec(
        "mcts:c=1.2,rave_k=30"
    )
    assert str(parse_agent_spec("puct:c_puct=2,noise_fraction=0.1")) == "puct:c=2,noise=0.1"
    assert resolve_agent("mcts:exploration=0.7").options == {"exploration": 0.7}
    with pytest.raises(ValueError, match="key 'c' given twice"):
        parse_agent_spec("mcts:c=1,exploration=2")
    with pytest.raises(ValueError, match="c must be at least 0, got -1"):
        parse_agent_spec("mcts:exploration=-1")  # named by its spec key


def test_a_spec_is_checked_without_building_its_agent(monkeypatch) -> None:
    built = []
    for cls in (MCTSAgent, PUCTAgent):
        original = cls.__init__

        def counting(self, *args, _original=original, **kwargs):
            built.append(type(self).__name__)
            _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", counting)
    parse_agent_spec("mcts:simulations=500,rave=true,pool_rave=4")
    parse_agent_spec("puct:simulations=64,selection=gumbel")
    with pytest.raises(ValueError, match="give simulations"):
        parse_agent_spec("mcts:selection=gumbel,time=1")
    with pytest.raises(ValueError, match="pool_rave=4 needs rave=True"):
        parse_agent_spec("mcts:pool_rave=4,rave=false")
    assert built == []
    resolve_agent("mcts:simulations=500", GameConfig("tictactoe"))
    assert built == ["MCTSAgent"]


def test_the_constructor_checks_by_the_same_declaration() -> None:
    assert declared(MCTSOptions)["exploration"].high == 1e6
    with pytest.raises(ValueError, match="exploration must be between 0 and 1e\\+06"):
        MCTSAgent(exploration=1e7)
    with pytest.raises(TypeError, match="rave must be True or False"):
        MCTSAgent(rave="yes")
    with pytest.raises(ValueError, match="noise_fraction must be between 0 and 1, got 2"):
        PUCTAgent(noise_fraction=2)


def test_the_docs_table_of_mcts_options_names_every_declared_option() -> None:
    text = (DOCS / "agents.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    options = declared(MCTSOptions)
    for name in (*OPTION_NAMES, "preset"):
        key = options[name].key
        shown = f"`{name}`" if key == name else f"`{name}` (`{key}`)"
        assert any(shown in row for row in rows), f"docs/agents.md has no row for {shown}"


def test_train_flags_and_their_defaults_come_from_train_config(capsys) -> None:
    from agents.alphazero import TrainConfig
    from connectn_env.cli import main

    with pytest.raises(SystemExit):
        main(["train", "tictactoe", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    defaults = {f.name: f.default for f in dataclasses.fields(TrainConfig)}
    flags = {d.flag: name for name, d in declared(TrainConfig).items() if d.flag}
    assert len(flags) == 35
    for flag, name in flags.items():
        assert re.search(rf"{flag} \S+ {re.escape(declared(TrainConfig)[name].help)}", text)
    assert f"AdamW learning rate ({defaults['learning_rate']:g})" in text


def test_a_network_is_read_once_per_process(monkeypatch) -> None:
    pytest.importorskip("torch")
    import torch

    from agents.alphazero import checkpoint, pretrained

    game = GameConfig("tictactoe")
    network = pretrained.pretrained_networks()[game].path
    reads, loads = [], []
    real_read, real_load = pretrained.read_regular_bytes, torch.load

    def read(path, *args, **kwargs):
        if Path(path) == network:
            reads.append(path)
        return real_read(path, *args, **kwargs)

    def load(*args, **kwargs):
        loads.append(1)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(pretrained, "read_regular_bytes", read)
    monkeypatch.setattr(checkpoint, "read_regular_bytes", read)
    monkeypatch.setattr(torch, "load", load)
    monkeypatch.setattr(checkpoint, "_CACHE", {})  # as in a new process
    spec = parse_agent_spec("az:pretrained,simulations=8")
    spec.check_game(game)  # as the CLI does before it plays
    agent = resolve_agent(spec, game, seed=0)
    env = game.make_env()
    env.reset(seed=0)
    agent.act(env)
    resolve_agent(spec, game, seed=1).act(env)  # another game of the same process
    assert (len(reads), len(loads)) == (1, 1)


def test_a_puct_agent_given_an_evaluator_searches_with_it() -> None:
    game = GameConfig("tictactoe")
    env = game.make_env()
    env.reset(seed=0)
    calls = []

    def evaluator(leaf):
        calls.append(leaf.current_player())
        priors = np.full(leaf.game.num_actions, 0.01)
        priors[4] = 1.0
        return priors, 0.0

    agent = PUCTAgent(simulations=50, evaluator=evaluator, backend="native", seed=0)
    result = agent.search(env)
    assert result.action == 4 and result.visits[4] > 25 and len(calls) >= 50
    with pytest.raises(ValueError, match="backend='native' and no policy_value_fn"):
        PUCTAgent(evaluator=evaluator)


def test_the_docs_table_of_agent_specs_lists_every_declared_key() -> None:
    from connectn_env import specs

    rows = {}
    for line in (DOCS / "arena.md").read_text().splitlines():
        cells = line.split(" | ")
        kind = re.match(r"\| `(\w+)[`:]", line)
        if kind and len(cells) == 3:
            listed = re.sub(r"\([^)]*\)", "", cells[2])  # a key's values and notes left out
            rows[kind.group(1)] = tuple(re.findall(r"`(\w+)`", listed))
    for kind in specs.BUILTIN_KINDS:
        assert rows.get(kind) == specs._KEYS[kind], f"docs/arena.md's row of {kind}"


@pytest.mark.parametrize(
    ("kind", "name", "allowed"),
    [
        (MCTSOptions, "simulations", "integer in [1, 1e+12]"),
        (MCTSOptions, "time_limit", "number in (0, 1e+06]"),
        (MCTSOptions, "max_nodes", "integer >= 2"),
        (MCTSOptions, "rave", "true | false"),
        (MCTSOptions, "selection", "ucb1 | ucb1-tuned | gumbel"),
    ],
)
def test_an_option_says_its_values_as_its_check_reads_them(kind, name, allowed) -> None:
    option = declared(kind)[name]
    assert option.allowed() == allowed
    if option.kind in (int, float):
        low = option.low
        if option.strict:
            with pytest.raises(ValueError):
                option.check(name, option.kind(low))
        else:
            assert option.check(name, option.kind(low)) == low
            with pytest.raises(ValueError):
                option.check(name, option.kind(low - 1))


def test_connectn_agents_lists_every_kind_and_every_declared_key(capsys) -> None:
    from connectn_env import specs
    from connectn_env.cli import main

    assert main(["agents"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listing[:-1]] == list(specs.BUILTIN_KINDS)
    for kind, cls in specs._OPTIONS.items():
        assert main(["agents", kind]) == 0
        text = capsys.readouterr().out
        if cls is None:
            assert text.strip().endswith("no keys")
            continue
        rows = {line.split()[0]: line for line in text.splitlines()[2:]}
        assert tuple(rows) == specs._KEYS[kind]
        for option in declared(cls).values():
            if option.key is not None:
                row = rows[option.key]
                assert option.allowed() in row and row.endswith(option.help)
                assert all(f"({alias})" in row for alias in option.aliases)
    assert main(["agents", "mcts"]) == 0
    assert re.search(
        r"\nmax_nodes +integer >= 2 +1000000 +tree size bound\n", capsys.readouterr().out
    )
    with pytest.raises(ValueError, match="unknown agent kind 'nope'; built-in kinds: random"):
        specs.describe_agents("nope")


def test_a_checkpoint_file_named_by_a_spec_is_read_once(tmp_path, monkeypatch) -> None:
    pytest.importorskip("torch")
    import shutil

    from agents.alphazero import checkpoint, pretrained

    game = GameConfig("tictactoe")
    path = tmp_path / "best.pt"
    shutil.copyfile(pretrained.pretrained_networks()[game].path, path)  # a checkpoint file
    reads = []
    real_read = checkpoint.read_regular_bytes

    def read(file, *args, **kwargs):
        reads.append(file)
        return real_read(file, *args, **kwargs)

    monkeypatch.setattr(checkpoint, "read_regular_bytes", read)
    spec = parse_agent_spec(f"az:path={path},simulations=8")
    spec.check_game(game)
    agent = resolve_agent(spec, game, seed=0)
    env = game.make_env()
    env.reset(seed=0)
    agent.act(env)
    assert reads == [path]
    shutil.copyfile(path, tmp_path / "new.pt")
    (tmp_path / "new.pt").replace(path)  # a new file there (a training run's new best.pt)
    resolve_agent(spec, game, seed=0)
    assert reads == [path, path]
