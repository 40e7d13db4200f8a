"""benchmarks/grhino_match.py against a fake GTP engine that plays as GRhino does (no grhino
needed): the first legal move, passes skipped by the engine itself, ``pass`` from genmove."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from connectn_env.protocols.match import ProtocolMatch

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "grhino_match.py"

FAKE = """
import sys

COLOURS = {"black": 1, "white": 2}
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
ILLEGAL = "--illegal" in sys.argv


def start():
    board = [[0] * 8 for _ in range(8)]
    board[3][3] = board[4][4] = 2
    board[3][4] = board[4][3] = 1
    return board


def flips(board, player, r, c):
    if board[r][c]:
        return []
    found = []
    for dr, dc in DIRECTIONS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == 3 - player:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == player:
            found += line
    return found


def moves(board, player):
    return [(r, c) for r in range(8) for c in range(8) if flips(board, player, r, c)]


board, to_move = start(), 1
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    answer = ""
    if words[0] == "quit":
        print("=\\n", flush=True)
        break
    if words[0] == "clear_board":
        board, to_move = start(), 1
    elif words[0] == "play":
        player = COLOURS[words[1]]
        cell = words[2].lower()
        r, c = int(cell[1:]) - 1, ord(cell[0]) - ord("a")
        if player != to_move or not flips(board, player, r, c):
            print("? illegal move\\n", flush=True)
            continue
        for rr, cc in flips(board, player, r, c) + [(r, c)]:
            board[rr][cc] = player
        if moves(board, 3 - player):
            to_move = 3 - player
    elif words[0] == "genmove":
        player = COLOURS[words[1]]
        legal = moves(board, player) if player == to_move else []
        if ILLEGAL:
            answer = "A1"
        elif not legal:
            answer = "pass"
        else:
            r, c = legal[0]
            for rr, cc in flips(board, player, r, c) + [(r, c)]:
                board[rr][cc] = player
            if moves(board, 3 - player):
                to_move = 3 - player
            answer = "ABCDEFGH"[c] + str(r + 1)
    print("= " + answer + "\\n", flush=True)
"""


@pytest.fixture(scope="module")
def grhino_match():
    spec = importlib.util.spec_from_file_location("grhino_match", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_gtp.py"
    path.write_text(FAKE)
    return [sys.executable, str(path)]


def test_two_games_colours_alternating(grhino_match, fake):
    records = grhino_match.run_match(fake, "random", games=2, seed=3, openings=True)
    assert [r.agent_colour for r in records] == ["black", "white"]
    suite_first = list(grhino_match.shipped_suite(grhino_match.GAME).openings[0])
    for record in records:
        assert record.opening == suite_first  # one game pair from the first opening
        assert record.moves[: len(suite_first)] == suite_first
        ours, theirs = record.discs
        assert record.result == (1.0 if ours > theirs else 0.5 if ours == theirs else 0.0)
        match = ProtocolMatch(grhino_match.GAME)
        match.replay(record.moves)  # every move legal in the suite's rules
        assert match.state.is_terminal()
    wins = sum(r.result == 1 for r in records)
    draws = sum(r.result == 0.5 for r in records)
    text = grhino_match.table(records, "random", "fake")
    lines = text.splitlines()
    assert lines[0] == "`random` against `fake`: 2 games, 2 distinct"
    assert lines[4].startswith(f"| all | 2 | {wins}-{draws}-{2 - wins - draws} | ")
    assert lines[5].startswith("| first | 1 | ") and lines[6].startswith("| second | 1 | ")


def test_first_opening_starts_later_in_the_suite(grhino_match, fake, tmp_path):
    out = tmp_path / "games.json"
    argv = ["--games", "4", "--agent", "random", "--openings", "--first-opening", "20"]
    assert grhino_match.main([*argv, "--engine", " ".join(fake), "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    suite = grhino_match.shipped_suite(grhino_match.GAME).openings
    assert data["first_opening"] == 20
    assert [g["opening"] for g in data["games"]] == [list(suite[i]) for i in (20, 20, 21, 21)]


@pytest.mark.parametrize(
    ("first", "openings", "message"),
    [
        (150, True, "first_opening must be between 0 and 149, got 150"),
        (-1, True, "first_opening must be between 0 and 149, got -1"),
        (3, False, r"a first opening needs the suite's openings \(--openings\)"),
    ],
)
def test_bad_first_opening_is_refused_before_the_engine_starts(
    grhino_match, first, openings, message
):
    with pytest.raises(ValueError, match=message):
        grhino_match.run_match(
            ["no-such-engine"], "random", 2, openings=openings, first_opening=first
        )


@pytest.mark.parametrize(("games", "first"), [(2, 1.0), (2, True), (2.0, 0), ("2", 0), (True, 0)])
def test_a_count_that_is_not_an_int_is_refused_before_the_engine_starts(grhino_match, games, first):
    with pytest.raises(TypeError, match="must be an int"):
        grhino_match.run_match(
            ["no-such-engine"], "random", games, openings=True, first_opening=first
        )


def pass_position(game) -> list[int]:
    """Moves of a random game up to a position where the side to move must pass."""
    rng = np.random.default_rng(1)
    while True:
        state, moves = game.new_initial_state(), []
        while not state.is_terminal() and state.legal_actions() != [64]:
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            moves.append(action)
        if not state.is_terminal():
            return moves


def test_passes_both_ways(grhino_match, fake):
    opening = pass_position(grhino_match.GAME.make_game())
    passer = len(opening) % 2  # no pass in the opening: players alternate up to there
    engine = grhino_match.GTPEngine(fake)
    try:
        engine.send("boardsize 8")
        for agent_seat in (passer, 1 - passer):  # our pass, not sent; the engine's "pass"
            agent = grhino_match.resolve_agent("random", grhino_match.GAME, seed=0)
            record = grhino_match.play_game(engine, agent, 0, agent_seat, opening)
            assert record.moves[len(opening)] == 64
            assert sum(record.discs) <= 64
    finally:
        engine.close()


def test_illegal_engine_move_is_refused(grhino_match, fake, capsys):
    command = f"{fake[0]} {fake[1]} --illegal"
    status = grhino_match.main(["--games", "2", "--agent", "random", "--engine", command])
    assert status == 2
    err = capsys.readouterr().err
    assert re.search(
        r"error: game 0: GRhino's move 'A1' for white is illegal after [A-H][1-8]\n", err
    )
