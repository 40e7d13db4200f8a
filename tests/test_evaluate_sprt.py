"""The A/B mode: agents whose difference is known. Plain UCT with 400 simulations against
100 on Connect Four is accepted as stronger with the bounds 0,50; UCT 100 against itself is
accepted as not stronger; the games come in pairs, colours swapped, counted in order so that
the decision does not depend on the workers; bad bounds are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from connectn_env.cli import main
from connectn_env.ladder import sprt

UCT100 = "mcts:simulations=100,preset=uct"
FIRST = "arena_helpers:first_legal"


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
    assert result.games == 2 * result.pairs == 2 * sum(result.pentanomial.counts)
    assert [s.pairs for s in states] == sorted({s.pairs for s in states})
    assert states[-1].pairs == result.pairs and states[-1].decision == "H1"
    assert all(s.decision is None for s in states[:-1])


def test_uct_100_against_itself_is_accepted_as_not_stronger(tmp_path: Path) -> None:
    results = tmp_path / "ab.jsonl"
    result = sprt(
        UCT100, UCT100, game="connect_four", elo0=0, elo1=50, max_games=600, results=results
    )
    assert result.decision == "H0" and result.verdict.startswith("accepted H0 (not stronger")
    assert (result.a, result.b) == (UCT100, f"{UCT100}#2")
    # the decision is taken on the pairs it reports: the LLR it reports crossed the bound
    # (games under way then were played out, and are not counted)
    assert result.llr <= result.bounds[0]
    assert result.pentanomial.llr(0, 50) == result.llr
    played = len(results.read_text().splitlines()) - 1
    assert played == result.games + result.uncounted
    again = sprt(
        UCT100, UCT100, game="connect_four", elo0=0, elo1=50, max_games=600, results=results
    )
    assert again == result


def test_the_decision_does_not_depend_on_the_number_of_workers() -> None:
    options = {"game": "tictactoe", "elo0": 0, "elo1": 100, "max_games": 200}
    one = sprt("random", "random", workers=1, **options)
    two = sprt("random", "random", workers=2, **options)  # the games end in another order
    assert one.decision == "H0" and one.pairs >= 5
    assert (two.pentanomial, two.llr, two.decision) == (one.pentanomial, one.llr, one.decision)


def test_an_unfinished_pair_in_the_results_file_is_completed_on_resume(tmp_path: Path) -> None:
    results = tmp_path / "ab.jsonl"
    options = {"game": "tictactoe", "elo0": 0, "elo1": 50, "max_games": 6, "workers": 1}
    first = sprt("random", "random", results=results, **options)
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:-1]) + "\n")  # the last pair's second game lost
    half = [json.loads(line) for line in lines[1:-1]]
    assert [game["index"] for game in half] == [0, 1, 2, 3, 4]
    again = sprt("random", "random", results=results, **options)
    assert again == first and again.pairs == 3
    games = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    assert [game["index"] for game in games] == [0, 1, 2, 3, 4, 5]
    assert games[5]["moves"] == json.loads(lines[-1])["moves"]  # the same seeds, the same game


def test_pairs_swap_colours_and_repeated_games_are_flagged() -> None:
    # first_legal against itself replays one game: A wins it with one colour, loses it with
    # the other, so every pair scores 1 point and only one game is distinct
    result = sprt(FIRST, FIRST, game="tictactoe", elo0=0, elo1=50, max_games=100, workers=1)
    assert result.pentanomial.counts == (0, 0, 18, 0, 0)  # 18 pairs of 1 point accept H0
    assert (result.decision, result.wins, result.losses, result.distinct) == ("H0", 18, 18, 1)
    assert result.warning is not None and "only 1 distinct games of 36" in result.warning
    assert "opening suite" in result.warning
    data = result.to_json()
    assert (data["pairs"], data["pentanomial"], data["distinct_games"]) == (18, [0, 0, 18, 0, 0], 1)
    assert data["warning"] == result.warning and data["elo"] == 0


def test_the_command_prints_the_pairs_and_warns_of_repeated_games(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "ab.json"
    argv = ["evaluate", "tictactoe", FIRST, "--vs", FIRST, "--sprt", "0,50", "--workers", "1"]
    assert main([*argv, "--no-progress", "--json", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1] == (
        "18 pairs, 36 games (1 distinct)  W 18 D 0 L 18  Ptnml(0-2) 0 0 18 0 0  "
        "Elo +0 [-40, +40]  LLR -3.02  [-2.94, 2.94]"
    )
    assert printed[2:] == [
        "accepted H0 (not stronger: A is at most 0 Elo better)",
        json.loads(out.read_text())["warning"],
    ]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--max-games", "7"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "--max-games: expected an even number of games (they come in pairs), got '7'" in error


def test_the_test_is_inconclusive_at_the_maximum_number_of_games() -> None:
    result = sprt("random", "random", game="tictactoe", elo0=0, elo1=50, max_games=4)
    assert result.games == 4 and result.pairs == 2 and result.decision == "inconclusive"
    assert "inconclusive" in result.verdict and result.warning is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"elo0": 50, "elo1": 0}, "elo0 must be less than elo1 by at least 0.1 Elo"),
        ({"elo0": 0, "elo1": 5e-133}, "elo0 must be less than elo1 by at least 0.1 Elo"),
        ({"elo0": 0, "elo1": 50, "alpha": 0.5}, "alpha must be at least 1e-06 and less than 0.5"),
        ({"elo0": 0, "elo1": 50, "beta": 0}, "beta must be at least 1e-06"),
        ({"elo0": 0, "elo1": 50, "max_games": 0}, "max_games"),
        ({"elo0": 0, "elo1": 50, "max_games": 7}, r"max_games must be even .*pairs.*, got 7"),
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


@pytest.mark.slow  # about 8 s of move timeouts
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
