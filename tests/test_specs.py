"""Agent specs: parsing, typed values, building agents, and the error messages."""

from __future__ import annotations

import pickle

import pytest

from agents import AlphaBetaAgent, MCTSAgent, PolicyAgent, PUCTAgent, RandomAgent
from connectn_env.specs import BUILTIN_KINDS, AgentSpec, parse_agent_spec


@pytest.mark.parametrize(
    ("text", "kind", "options", "shown"),
    [
        ("random", "random", (), "random"),
        ("random:seed=3", "random", (("seed", 3),), "random:seed=3"),
        ("mcts", "mcts", (), "mcts"),
        (
            "mcts:simulations=800,c=1.4",
            "mcts",
            (("simulations", 800), ("c", 1.4)),
            "mcts:simulations=800,c=1.4",
        ),
        (
            "mcts:time=0.5,rave=true",
            "mcts",
            (("time", 0.5), ("rave", True)),
            "mcts:time=0.5,rave=true",
        ),
        (" mcts:c=2, reuse=False ", "mcts", (("c", 2.0), ("reuse", False)), "mcts:c=2,reuse=false"),
        ("puct:simulations=400", "puct", (("simulations", 400),), "puct:simulations=400"),
        ("ab", "ab", (), "ab"),
        ("ab:depth=6", "ab", (("depth", 6),), "ab:depth=6"),
        ("ab:time=1,seed=3", "ab", (("time", 1.0), ("seed", 3)), "ab:time=1,seed=3"),
        ("human", "human", (), "human"),
        ("agents:RandomAgent", "agents:RandomAgent", (), "agents:RandomAgent"),
        (
            "arena_helpers:sleepy:seconds=2",
            "arena_helpers:sleepy",
            (("seconds", 2),),
            "arena_helpers:sleepy:seconds=2",
        ),
    ],
)
def test_valid_specs_parse_to_typed_options(text, kind, options, shown) -> None:
    spec = parse_agent_spec(text)
    assert spec.kind == kind
    assert spec.options == options
    assert [type(v) for _, v in spec.options] == [type(v) for _, v in options]
    assert str(spec) == shown
    assert parse_agent_spec(str(spec)) == spec  # the label parses back to the same spec
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert hash(spec) == hash(parse_agent_spec(str(spec)))


def test_factory_values_are_typed_like_literals() -> None:
    spec = parse_agent_spec("arena_helpers:sleepy:a=true,b=-3,c=2.5e-1,d=hello")
    assert dict(spec.options) == {"a": True, "b": -3, "c": 0.25, "d": "hello"}


def test_build_makes_the_named_agents_with_their_options() -> None:
    mcts = parse_agent_spec("mcts:simulations=64,c=2,rave=true,reuse=false,max_nodes=500").build(1)
    assert isinstance(mcts, MCTSAgent)
    assert (mcts.simulations, mcts.exploration, mcts.rave) == (64, 2.0, True)
    assert (mcts.reuse_tree, mcts.max_nodes) == (False, 500)
    timed = parse_agent_spec("mcts:time=0.25").build()
    assert (timed.simulations, timed.time_limit) == (None, 0.25)
    puct = parse_agent_spec("puct:simulations=10,c=3,temperature=1,noise=0.25,alpha=0.5").build(0)
    assert isinstance(puct, PUCTAgent)
    assert (puct.simulations, puct.c_puct, puct.temperature) == (10, 3.0, 1.0)
    assert (puct.noise_fraction, puct.dirichlet_alpha) == (0.25, 0.5)
    assert isinstance(parse_agent_spec("random").build(5), RandomAgent)
    ab = parse_agent_spec("ab:depth=6,time=1.5,nodes=1000,table_bits=12").build(0)
    assert isinstance(ab, AlphaBetaAgent)
    assert (ab.depth, ab.time_limit, ab.nodes, ab.table_bits) == (6, 1.5, 1000, 12)
    assert parse_agent_spec("ab:time=1").build().time_limit == 1.0
    assert parse_agent_spec("human").build(0) is None
    assert parse_agent_spec("human").is_human and not parse_agent_spec("random").is_human


def test_build_seeds_agents_and_a_seed_key_wins() -> None:
    import connectn_env

    def moves(spec: AgentSpec, seed: int | None) -> list[int]:
        agent = spec.build(seed)
        env = connectn_env.gomoku_v0.raw_env(size=9)
        env.reset()
        played = []
        for _ in range(6):
            played.append(agent.act(env))
            env.step(played[-1])
        return played

    random = parse_agent_spec("random")
    assert moves(random, 1) == moves(random, 1)
    assert moves(random, 1) != moves(random, 2)
    fixed = parse_agent_spec("random:seed=7")
    assert moves(fixed, 1) == moves(fixed, 2) == moves(random, 7)


def test_factory_gets_its_keys_and_a_seed_only_if_it_takes_one() -> None:
    sleepy = parse_agent_spec("arena_helpers:sleepy:seconds=0.5").build(3)  # no seed parameter
    assert sleepy.seconds == 0.5
    first = parse_agent_spec("arena_helpers:first_legal").build(3)
    assert isinstance(first, PolicyAgent)
    assert isinstance(parse_agent_spec("agents:RandomAgent").build(2), RandomAgent)


def test_factory_returning_no_agent_is_a_type_error() -> None:
    spec = parse_agent_spec("arena_helpers:not_an_agent")
    with pytest.raises(TypeError, match="arena_helpers:not_an_agent returned 42"):
        spec.build(0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus", r"unknown agent spec 'bogus'.*random.*mcts.*simulations, time, c.*puct.*human"),
        (
            "mcts:foo=1",
            r"unknown key 'foo' for mcts; valid keys: simulations, time, c, selection, rave",
        ),
        ("puct:rave=true", r"unknown key 'rave' for puct; valid keys: simulations, time, c, "),
        ("random:simulations=3", r"unknown key 'simulations' for random; valid keys: seed"),
        ("human:level=3", r"unknown key 'level' for human; valid keys: none"),
        ("mcts:simulations=0", r"simulations must be at least 1, got 0"),
        ("mcts:simulations=1.5", r"simulations must be an integer, got '1.5'"),
        ("mcts:time=0", r"time must be greater than 0, got 0"),
        ("mcts:time=fast", r"time must be a number, got 'fast'"),
        ("mcts:rave=yes", r"rave must be true or false, got 'yes'"),
        ("mcts:c=-1", r"c must be at least 0, got -1"),
        ("mcts:simulations", r"expected key=value, got 'simulations'.*valid specs"),
        ("mcts:simulations=", r"expected key=value"),
        ("mcts:c=1,c=2", r"key 'c' given twice"),
        ("random:seed=-1", r"seed must be at least 0"),
        ("ab:depth=0", r"depth must be at least 1, got 0"),
        ("ab:depth=2.5", r"depth must be an integer, got '2.5'"),
        ("ab:time=0", r"time must be greater than 0"),
        ("ab:nodes=0", r"nodes must be at least 1"),
        ("ab:table_bits=4", r"table_bits must be at least 10"),
        ("ab:simulations=5", r"unknown key 'simulations' for ab; valid keys: depth, time, nodes"),
        ("no_such_module_xyz:make", r"cannot import module 'no_such_module_xyz'"),
        ("agents:NoSuchThing", r"module 'agents' has no callable 'NoSuchThing'"),
        ("agents:", r"unknown agent spec 'agents:'"),
        ("agents:1bad", r"unknown agent spec"),
        ("arena_helpers:sleepy:seconds", r"expected key=value"),
    ],
)
def test_invalid_specs_say_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_agent_spec(text)


def test_human_can_be_refused_and_non_strings_are_type_errors() -> None:
    with pytest.raises(ValueError, match="'human' is only allowed in connectn play"):
        parse_agent_spec("human", allow_human=False)
    with pytest.raises(TypeError, match="allow_human must be a bool, got 'no'"):
        parse_agent_spec("human", allow_human="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a string"):
        parse_agent_spec(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        parse_agent_spec("random").build("1")  # type: ignore[arg-type]
    assert set(BUILTIN_KINDS) == {"random", "mcts", "puct", "ab", "az", "perfect", "human"}
    with pytest.raises(ValueError, match="unknown key 'depth' for mcts; valid keys: simulations"):
        AgentSpec("mcts", (("depth", 3),))
    with pytest.raises(ValueError, match="unknown agent kind 'alphabeta'"):
        AgentSpec("alphabeta")
    with pytest.raises(TypeError, match="a tuple of options"):
        AgentSpec("mcts", [("simulations", 3)])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mcts:time=1e999", r"time must be a finite number, got 1e999"),
        ("mcts:c=1e999", r"c must be a finite number, got 1e999"),
        ("mcts:rave_k=1e999", r"rave_k must be a finite number, got 1e999"),
        ("puct:alpha=1e999", r"alpha must be a finite number, got 1e999"),
        ("puct:noise=2", r"noise must be at most 1, got 2"),
        ("mcts:time=1e7", r"time must be at most 1e\+06, got 1e7"),
        ("mcts:simulations=1e3", r"simulations must be an integer, got '1e3'"),
        ("mcts:simulations=10000000000000", r"simulations must be at most 1e\+12"),
        ("mcts:simulations=１０", r"simulations must be an integer, got '１０'"),
        ("random:seed=٣", r"seed must be an integer, got '٣'"),
        ("mcts:simulations=" + "9" * 500, r"simulations is a number of 500 characters"),
        ("mcts:" + "c=1," * 300, r"has 1,205 characters; at most 1000 are allowed"),
        ("arena_helpers:first_legal:depth=1e999", r"depth must be a finite number, got 1e999"),
        ("mcts:max_nodes=99999999999", r"max_nodes must be at most \d+ \(2 trees of 84 bytes"),
        ("puct:max_nodes=1", r"max_nodes must be at least 2, got 1"),
        (
            "mcts:selection=gumbel,time=1",
            r"agent spec 'mcts:selection=gumbel,time=1': .*give simulations",
        ),
        ("mcts:selection=gumbel,rave=true", r"selection='gumbel' with rave=True"),
    ],
)
def test_out_of_range_values_are_refused_when_parsed(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_agent_spec(text)


def test_spec_objects_check_their_values_too() -> None:
    with pytest.raises(ValueError, match="time must be a finite number, got inf"):
        AgentSpec("mcts", (("time", float("inf")),))
    with pytest.raises(ValueError, match=r"simulations must be an integer, got 2\.5"):
        AgentSpec("mcts", (("simulations", 2.5),))
    with pytest.raises(TypeError, match=r"value of k must be a bool, int, float or str"):
        AgentSpec("arena_helpers:first_legal", (("k", [1]),))
    with pytest.raises(TypeError, match=r"each option must be a \(str key, value\) pair"):
        AgentSpec("mcts", ((1, 2),))
    assert AgentSpec("mcts", (("time", 1),)).build(0).time_limit == 1


def test_the_node_bound_is_what_two_trees_take_in_physical_memory() -> None:
    from agents import tree
    from connectn_env import memory_limits

    per_node = tree.NUM_INT_FIELDS * 4 + tree.NUM_FLOAT_FIELDS * 8
    assert per_node == memory_limits.BYTES_PER_NODE
    ints, floats, _ = tree.new_tree(10)
    assert (ints.nbytes + floats.nbytes) // 10 == per_node
    memory = memory_limits.physical_memory()
    limit = memory_limits.max_tree_nodes()
    if memory is not None:
        assert limit == min(2**31 - 1, memory // (2 * per_node))
    assert memory_limits.check_max_nodes(limit) == limit
    with pytest.raises(ValueError, match=f"max_nodes must be at most {limit} "):
        memory_limits.check_max_nodes(limit + 1)
    with pytest.raises(TypeError, match="max_nodes must be an int"):
        memory_limits.check_max_nodes(2.0)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("az:pretrained", "az:pretrained"),
        ("az:pretrained, simulations=50", "az:pretrained,simulations=50"),
        ("az:simulations=50,pretrained=true", "az:simulations=50,pretrained=true"),
    ],
)
def test_a_shipped_network_is_shown_as_typed(text, shown) -> None:
    pytest.importorskip("torch")
    spec = parse_agent_spec(text)
    assert str(spec) == shown
    assert parse_agent_spec(str(spec)) == spec
