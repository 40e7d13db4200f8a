"""The A/B mode: agents whose difference is known. Plain UCT with 400 simulations against
100 on Connect Four is accepted as stronger with the bounds 0,50; UCT 100 against itself is
accepted as not stronger; bad bounds are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from connectn_env.ladder import sprt

UCT100 = "mcts:simulations=100,preset=uct"


def test_uct_400_is_accepted_as_stronger_than_uct_100() -> None:
    states = []
    result = sprt(
        "mcts:simulations=400,preset=uct",
        UCT100,
        game="connect_four",
        elo0=0,
        elo1=50,
        max_games=400,
        report=states.append,
    )
    assert result.decision == "H1" and result.verdict.startswith("accepted H1 (stronger")
    assert result.llr >= result.bounds[1]
    assert [s.games for s in states] == list(range(1, result.games + 1))


def test_uct_100_against_itself_is_accepted_as_not_stronger(tmp_path: Path) -> None:
    results = tmp_path / "ab.jsonl"
    result = sprt(
        UCT100, UCT100, game="connect_four", elo0=0, elo1=50, max_games=600, results=results
    )
    assert result.decision == "H0" and result.verdict.startswith("accepted H0 (not stronger")
    assert (result.a, result.b) == (UCT100, f"{UCT100}#2")
    assert result.llr <= result.bounds[0]
    again = sprt(
        UCT100, UCT100, game="connect_four", elo0=0, elo1=50, max_games=600, results=results
    )
    assert (again.wins, again.draws, again.losses) == (result.wins, result.draws, result.losses)


def test_the_test_is_inconclusive_at_the_maximum_number_of_games() -> None:
    result = sprt("random", "random", game="tictactoe", elo0=0, elo1=50, max_games=4)
    assert result.games == 4 and result.decision == "inconclusive"
    assert "inconclusive" in result.verdict


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"elo0": 50, "elo1": 0}, "elo0 must be less than elo1 by at least 0.1 Elo"),
        ({"elo0": 0, "elo1": 5e-133}, "elo0 must be less than elo1 by at least 0.1 Elo"),
        ({"elo0": 0, "elo1": 50, "alpha": 0.5}, "alpha must be at least 1e-06 and less than 0.5"),
        ({"elo0": 0, "elo1": 50, "beta": 0}, "beta must be at least 1e-06"),
        ({"elo0": 0, "elo1": 50, "max_games": 0}, "max_games"),
    ],
)
def test_bad_bounds_and_probabilities_are_refused(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sprt("random", "random", game="tictactoe", **options)


def test_errors_name_the_agent_at_fault() -> None:
    with pytest.raises(ValueError, match=r"^B 'foo': unknown agent spec 'foo'"):
        sprt("random", "foo", game="tictactoe", elo0=0, elo1=50)
    with pytest.raises(ValueError, match=r"^candidate 'foo': unknown agent spec 'foo'"):
        sprt("foo", "random", game="tictactoe", elo0=0, elo1=50)
    with pytest.raises(ValueError, match=r"^B 'perfect' cannot play tictactoe"):
        sprt("random", "perfect", game="tictactoe", elo0=0, elo1=50)


@pytest.mark.parametrize(
    "b", ["arena_helpers:crashing", "arena_helpers:illegal", "arena_helpers:exiting"]
)
def test_b_failing_in_a_game_stops_the_test_instead_of_accepting_h1(b: str, tmp_path: Path) -> None:
    results = tmp_path / "ab.jsonl"
    with pytest.raises(ValueError, match=rf"^B '{b}' failed in a game: .*cannot judge A"):
        sprt("random", b, game="tictactoe", elo0=0, elo1=50, workers=1, results=results)
    assert len(results.read_text().splitlines()) >= 2  # the game B lost stays on file
    with pytest.raises(ValueError, match=rf"^B '{b}' failed in a game"):  # resumed too
        sprt("random", b, game="tictactoe", elo0=0, elo1=50, workers=1, results=results)


def test_a_hanging_a_loses_by_timeout_and_a_hanging_b_stops_the_test() -> None:
    result = sprt(
        "arena_helpers:spinning", "random", game="tictactoe", elo0=0, elo1=50, max_games=2,
        workers=1, move_timeout=0.5,
    )  # fmt: skip
    assert (result.games, result.losses) == (2, 2)
    with pytest.raises(
        ValueError, match=r"^B 'arena_helpers:sleepy' failed in a game: MoveTimeout"
    ):
        sprt("random", "arena_helpers:sleepy", game="tictactoe", elo0=0, elo1=50, workers=1,
             move_timeout=0.5)  # fmt: skip
