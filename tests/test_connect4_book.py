"""Connect Four's opening book and perfect player: book entries against a fresh solve, the
perfect player against other agents, the ``exact`` option's use of the book, bad input."""

from __future__ import annotations

import hashlib
import os
import random
import re
import struct

import numpy as np
import pytest

from agents import AlphaBetaAgent, MCTSAgent, PerfectAgent, RandomAgent
from connectn_env import connect_n_v0
from connectn_env.games import ConnectNGame, GomokuGame
from connectn_env.games.connect_n.book import (
    MAGIC,
    OpeningBook,
    canonical_key,
    key_position,
    load_book,
    read_book,
    shipped_book_path,
)
from connectn_env.games.connect_n.solver import Connect4Solver, _wins, parse_columns
from connectn_env.ladder.book_build import build_book, level
from connectn_env.ladder.rungs import ladder_rungs
from connectn_env.specs import parse_agent_spec

BOOK = load_book()
ENTRIES = {int(e["key"]): (int(e["move"]), int(e["score"])) for e in BOOK.entries}


def _env_after(moves: list[int] | tuple[int, ...]):
    env = connect_n_v0.env()
    env.reset()
    for move in moves:
        env.step(move)
    return env


def test_the_shipped_book_is_checked_and_states_its_coverage():
    assert len(BOOK) == BOOK.info["entries"] > 0
    assert 0 in BOOK.info["complete"] and BOOK.info["cpu_seconds"] > 0
    assert BOOK.best_after([]) == (3, 1)  # d wins, with the first player's last stone
    for key in list(ENTRIES)[:50]:
        assert canonical_key(*key_position(key)) == (key, False)


@pytest.mark.slow  # about 5 s of solving
def test_the_fast_wins_of_ply_4_agree_with_a_fresh_solve():
    """The first player's ply-4 entries that win by 6 or more (Pons' score), solved again
    from their bitboards by a fresh solver: a fast win is proven in seconds (0.4 to 3 s each
    on this machine), where the other entries take up to minutes (the next test)."""
    solver = Connect4Solver()
    fast = [
        key
        for key, (_, score) in ENTRIES.items()
        if bin(key_position(key)[1]).count("1") == 4 and score >= 6
    ]
    assert len(fast) >= 4
    for key in fast:
        current, mask = key_position(key)
        assert solver.best_move_of(current, mask, 4) == ENTRIES[key], key


@pytest.mark.slow  # about 5 s of solving
def test_a_sample_of_entries_agrees_with_a_fresh_solve():
    """20 entries drawn at random (seed 0), solved again from their bitboards by a fresh
    solver: most entries are of plies 8 to 10, solved in 4 s for the 20 on this machine (an
    early entry takes minutes, the ply-4 fast wins above excepted)."""
    solver = Connect4Solver()
    for key in random.Random(0).sample(sorted(ENTRIES), min(20, len(ENTRIES))):
        current, mask = key_position(key)
        assert solver.best_move_of(current, mask, bin(mask).count("1")) == ENTRIES[key]


def test_each_entry_scores_the_worst_reply_to_its_move_by_the_book():
    """An entry's score is the lowest of the book's scores two plies on, over every reply to
    its move (Pons' scores: negamax), wherever the book holds all of them."""
    checked = 0
    for ply in BOOK.info["complete"]:
        for moves in level(ply, ENTRIES):
            column, score = BOOK.best_after(moves)
            own = (*moves, column)
            if _wins(own, 6, 7):
                assert score == (43 - ply) // 2
                continue
            scores = []
            for reply in range(7):
                after = (*own, reply)
                if after.count(reply) > 6:
                    continue
                if _wins(after, 6, 7):
                    scores.append(-((42 - ply) // 2))
                elif (entry := BOOK.best_after(after)) is not None:
                    scores.append(entry[1])
                else:
                    break  # beyond the book
            else:
                assert score == min(scores), moves
                checked += 1
    assert checked > 0


def test_best_move_agrees_with_every_moves_exact_score():
    solver = Connect4Solver()
    for text in ("427631264721", "335662333565", "157564142155", "4444353566"):
        moves = parse_columns(text)
        scores = solver.move_scores(moves)
        best = max(scores.values())
        column = min((c for c in scores if scores[c] == best), key=lambda c: (abs(c - 3), c))
        assert solver.best_move(moves) == (column, best)


def test_mirror_images_share_an_entry():
    for moves in ([0], [1], [3, 1], [3, 0], [3, 3, 3, 0]):
        mirrored = [6 - c for c in moves]
        column, score = BOOK.best_after(moves)
        assert BOOK.best_after(mirrored) == (6 - column, score)


def _play(players: list, moves: list[int]):
    """The env after ``moves`` and then a game between ``players`` (first player first)."""
    env = _env_after(moves)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(players[env.possible_agents.index(env.agent_selection)].act(env))
    return env


def test_the_perfect_player_wins_a_won_middle_game():
    moves = parse_columns("427631264721")  # 12 stones, the first player to move wins
    assert Connect4Solver().best_move(moves)[1] > 0
    for opponent in (RandomAgent(seed=2), MCTSAgent(simulations=300, seed=2)):
        env = _play([PerfectAgent(), opponent], moves)
        assert env.rewards["player_0"] == 1


@pytest.mark.parametrize("opponent", ["random", "ab", "mcts"])
def test_the_perfect_player_never_loses_from_the_empty_board(opponent):
    """Seconds: the book answers plies 0 to 10 and the solver is fast beyond (it took minutes
    per move, so ran by hand only, while the book covered plies 0 to 4)."""
    for perfect_first in (True, False):
        other = {
            "random": RandomAgent(seed=1),
            "ab": AlphaBetaAgent(depth=4, seed=1),
            # exact=False: with the book (plies 0 to 10) and then the solver, the default
            # agent plays the first player's win perfectly, and the second player loses
            "mcts": MCTSAgent(simulations=300, seed=1, exact=False),
        }[opponent]
        players = [PerfectAgent(), other] if perfect_first else [other, PerfectAgent()]
        env = _play(players, [])
        perfect = env.possible_agents[0 if perfect_first else 1]
        assert env.rewards[perfect] >= (1 if perfect_first else 0)  # the first player wins


def test_after_four_stones_in_the_centre_only_d_keeps_the_win():
    moves = [3, 3, 3, 3]
    assert BOOK.best_after(moves)[0] == 3 and BOOK.best_after(moves)[1] > 0
    assert PerfectAgent().act(_env_after(moves)) == 3
    for seed in range(3):
        result = MCTSAgent(seed=seed).search(_env_after(moves))
        assert result.action == 3 and result.proven == "win"
        assert result.simulations <= 1  # answered by the book, without a search
        assert result.pi[3] == 1.0 and result.principal_variation == (3,)  # as analysed
    calls = []
    result = MCTSAgent(seed=0).search(_env_after(moves), progress=lambda *a: calls.append(a))
    assert result.action == 3 and len(calls) == 1  # a progress hook still hears of the move


def test_the_default_agent_keeps_the_first_players_win_wherever_the_book_is_complete():
    """Every reply of the opponent, as far as the book covers the first player's side: the
    default agent plays the book's (winning) move at once. (Beyond it, up to the ply from
    which the solver alone answers within a second, it is not checked: see docs/yardstick.md.)
    One agent searches them all, as in a game (a new one per position spent four fifths of the
    test setting itself up)."""
    agent = MCTSAgent(seed=0)
    checked = 0
    for ply in (p for p in BOOK.info["complete"] if p % 2 == 0):
        for moves in level(ply, ENTRIES):
            column, score = BOOK.best_after(moves)
            assert score > 0
            result = agent.search(_env_after(moves))
            assert (result.action, result.proven) == (column, "win"), moves
            checked += 1
    assert checked >= 1


def test_a_book_move_leaves_a_tree_that_the_next_searches_grow():
    """Self-play with tree reuse through book positions and out of the book."""
    agent = MCTSAgent(simulations=300, seed=0)
    env = _env_after([])
    for ply in range(6):
        result = agent.search(env)
        assert result.visits.sum() >= 1 and result.action in range(7), ply
        env.step(result.action)


def test_the_book_is_used_only_with_exact_and_on_connect_four():
    moves = [3, 3, 3, 3]
    assert MCTSAgent(exact=False, simulations=50, seed=0).search(_env_after(moves)).proven is None
    assert (
        ConnectNGame(rows=7, cols=8)
        .exact_solver()
        .book_move(ConnectNGame(rows=7, cols=8).new_initial_state())
        is None
    )


def test_the_perfect_player_is_the_top_rung_of_connect_four_only():
    assert ladder_rungs("connect_four")[-1].label == "perfect"
    assert all(r.label != "perfect" for r in ladder_rungs("hex_7x7"))
    spec = parse_agent_spec("perfect")
    assert isinstance(spec.build(seed=3), PerfectAgent)
    spec.check_game(ConnectNGame())
    with pytest.raises(ValueError, match=r"Connect Four .* only, not .*Gomoku"):
        spec.check_game(GomokuGame())
    with pytest.raises(ValueError, match="unknown key 'depth' for perfect"):
        parse_agent_spec("perfect:depth=3")


def test_another_game_is_refused_by_name():
    env = connect_n_v0.env(rows=3, cols=3, n=3, gravity=False)
    env.reset()
    with pytest.raises(ValueError, match=r"Connect Four .* only, not .*rows=3"):
        PerfectAgent().act(env)


def test_a_damaged_book_file_is_refused_by_name(tmp_path):
    data = bytearray(shipped_book_path().read_bytes())
    cases = {
        "flipped.bin": (bytes(data[:-1]) + bytes([data[-1] ^ 1]), "checksum does not match"),
        "magic.bin": (b"X" + bytes(data[1:]), "not a Connect Four opening book"),
        "short.bin": (bytes(data[:20]), "checksum does not match"),
    }
    other = OpeningBook(BOOK.entries, {**BOOK.info, "rows": 7, "cols": 8})
    cases["other.bin"] = (other.to_bytes(), "7 x 8, not Connect Four 6 x 7")
    info = b"[" * 100_000 + b"]" * 100_000  # nested past the recursion limit, checksum right
    body = struct.pack("<I", len(info)) + info
    deep = MAGIC + hashlib.sha256(body).digest() + body
    cases["deep.bin"] = (deep, "its JSON block cannot be read")
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(ValueError, match=message) as error:
            load_book(path)
        assert name in str(error.value)
        with pytest.raises(ValueError, match=name):
            PerfectAgent(book=path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_book_that_is_not_a_regular_file_is_refused_by_name(tmp_path):
    os.mkfifo(tmp_path / "pipe.bin")
    for path in (tmp_path / "pipe.bin", tmp_path):
        with pytest.raises(ValueError, match="not a regular file") as error:
            read_book(path)
        assert str(path) in str(error.value)


def test_a_missing_book_or_a_book_that_is_not_a_path_is_refused(tmp_path):
    path = tmp_path / "none.bin"
    message = (
        f"cannot read the opening book {path}: No such file or directory: the book must be "
        "an existing opening book file"
    )
    for read in (read_book, load_book, lambda book: PerfectAgent(book=book)):
        with pytest.raises(ValueError, match=re.escape(message)):
            read(path)
    with pytest.raises(ValueError, match=re.escape(message.replace(str(path), "/nonexistent"))):
        PerfectAgent(book="/nonexistent")
    for book in (5, [str(path)]):
        with pytest.raises(TypeError, match=rf"book must be None .* got {re.escape(repr(book))}"):
            PerfectAgent(book=book)


def _fast_wins(count: int) -> list[int]:
    """Keys of ``count`` ply-4 entries that a fresh solve proves in about a second."""
    scored = [(-s, k) for k, (_, s) in ENTRIES.items() if bin(key_position(k)[1]).count("1") == 4]
    return [key for _, key in sorted(scored)[:count]]


def test_an_interrupted_build_keeps_what_it_solved_and_goes_on(tmp_path, monkeypatch):
    """Two entries removed from a copy of the book: the build solves the first, is
    interrupted in the second (the file then holds the first), and the same call again
    solves the rest: the book is whole again, unchanged."""
    path = tmp_path / "book.bin"
    missing = _fast_wins(2)
    kept = {k: v for k, v in ENTRIES.items() if k not in missing}
    partial = OpeningBook(BOOK.entries[np.isin(BOOK.entries["key"], list(kept))], BOOK.info)
    path.write_bytes(partial.to_bytes())
    solve = Connect4Solver.best_move
    calls = []

    def interrupted_second(self, moves):
        calls.append(moves)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return solve(self, moves)

    monkeypatch.setattr(Connect4Solver, "best_move", interrupted_second)
    with pytest.raises(KeyboardInterrupt):
        build_book(path, plies=5, minutes=10, side="first")
    assert len(read_book(path)) == len(BOOK) - 1  # the first missing entry, solved and kept
    monkeypatch.setattr(Connect4Solver, "best_move", solve)
    book = build_book(path, plies=5, minutes=10, side="first")
    assert read_book(path).entries.tobytes() == book.entries.tobytes() == BOOK.entries.tobytes()
    assert {0, 2, 4} <= set(book.info["complete"])
    assert book.info["cpu_seconds"] >= BOOK.info["cpu_seconds"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"side": "middle"}, "side must be one of both, first, second, not 'middle'"),
        ({"plies": -1}, "plies must be 0 to 42, not -1"),
        ({"minutes": float("nan")}, "minutes must be"),
        ({"save_every": -1.0}, "save_every must be"),
    ],
)
def test_the_build_refuses_bad_arguments_by_name(tmp_path, arguments, message):
    with pytest.raises(ValueError, match=message):
        build_book(tmp_path / "book.bin", **{"plies": 1, "minutes": 1.0, **arguments})
    assert not (tmp_path / "book.bin").exists()
