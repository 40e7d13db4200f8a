"""Game records: JSON and SGF round trips, HexGui's files, and malformed files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import connectn_env
from connectn_env.records import (
    GameConfig,
    GameRecord,
    load_record,
    record_from_sgf,
    record_to_sgf,
    save_record,
    write_record,
)

DATA = Path(__file__).parent / "data"


def random_game(game: connectn_env.BoardGame, seed: int, first: list[int] = ()) -> GameRecord:
    state = game.new_initial_state()
    for action in first:
        state.apply_action(action)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return GameRecord.from_state(state, players=("mcts:simulations=10", "random"))


GAMES = {
    "connect_four": connectn_env.connect_four(),
    "tictactoe": connectn_env.tictactoe(),
    "connect_n 5x4 n3 no gravity": connectn_env.ConnectNGame(rows=5, cols=4, n=3, gravity=False),
    "gomoku 9x9 standard": connectn_env.GomokuGame(size=9, rule="standard"),
    "gomoku 7x10": connectn_env.GomokuGame(rows=7, cols=10),
    "hex 7 swap": connectn_env.HexGame(size=7, swap=True),
    "hex 5x8": connectn_env.HexGame(rows=5, cols=8),
}


@pytest.mark.parametrize("name", GAMES)
def test_json_round_trip(name: str, tmp_path: Path) -> None:
    record = random_game(GAMES[name], seed=3)
    paths = save_record(record, tmp_path)
    assert paths[0].suffix == ".json"
    loaded = load_record(paths[0])
    assert loaded == record
    assert loaded.final_state() == record.final_state()
    assert loaded.result == record.result != "unfinished"


@pytest.mark.parametrize("name", [n for n in GAMES if n.startswith(("gomoku", "hex"))])
def test_sgf_round_trip(name: str, tmp_path: Path) -> None:
    game = GAMES[name]
    first = [1, game.rows * game.cols] if name == "hex 7 swap" else []  # a swap at move 2
    for seed in range(3):
        record = random_game(game, seed, first)
        paths = save_record(record, tmp_path, stem=f"game{seed}")
        assert [p.suffix for p in paths] == [".json", ".sgf"]
        loaded = load_record(paths[1])
        assert loaded.moves == record.moves
        assert loaded.game == record.game
        assert (loaded.result, loaded.reason) == (record.result, record.reason)
        assert loaded.players == record.players
        assert loaded.date == record.date[:10]


def test_sgf_text_uses_hexgui_conventions() -> None:
    game = connectn_env.HexGame(size=7, swap=True)
    state = game.new_initial_state()
    for action in (0 * 7 + 2, 49, 3 * 7 + 3, 6 * 7 + 6):  # c1, swap, d4, g7
        state.apply_action(action)
    text = record_to_sgf(GameRecord.from_state(state, players=("a]b", "c\\d")))
    assert text.startswith("(;FF[4]GM[11]SZ[7]AP[connectn-env:")
    assert "RU[swap]PB[a\\]b]PW[c\\\\d]" in text
    assert ";B[c1];W[swap-pieces];B[d4];W[g7])" in text
    assert "RE[" not in text  # unfinished
    assert max(len(line) for line in text.splitlines()) <= 72 + 1
    rectangular = GameRecord(GameConfig("hex", {"rows": 3, "cols": 5}), moves=(4, 10))
    assert "SZ[5:3]" in record_to_sgf(rectangular)
    assert ";B[e1];W[a3])" in record_to_sgf(rectangular)


def test_gomoku_sgf_uses_go_style_points_and_the_rule() -> None:
    record = GameRecord(GameConfig("gomoku", {"size": 15}), moves=(7 * 15 + 7, 0, 14 * 15 + 3))
    text = record_to_sgf(record)
    assert "GM[4]SZ[15]" in text and "RU[freestyle]" in text
    assert ";B[hh];W[aa];B[do])" in text
    assert record_from_sgf(text).moves == record.moves
    standard = GameRecord(GameConfig("gomoku", {"rows": 6, "cols": 9, "rule": "standard"}), ())
    assert "SZ[9:6]" in record_to_sgf(standard) and "RU[standard]" in record_to_sgf(standard)


def test_results_and_reasons_in_sgf() -> None:
    config = GameConfig("hex", {"size": 5})
    for result, reason, expected in (
        ("player_1", "resign", "RE[W+R]"),
        ("player_0", "forfeit", "RE[B+F]"),
        ("player_1", "timeout", "RE[W+T]"),
    ):
        record = GameRecord(config, moves=(12,), result=result, reason=reason)
        text = record_to_sgf(record)
        assert expected in text
        assert (record_from_sgf(text).result, record_from_sgf(text).reason) == (result, reason)
    won = random_game(config.make_game(), seed=0)  # decided on the board: plain B+ / W+
    assert f"RE[{'BW'[won.winner]}+]" in record_to_sgf(won)
    assert record_from_sgf(record_to_sgf(won)).reason == ""
    draws = [random_game(connectn_env.GomokuGame(size=5), seed) for seed in range(20)]
    draw = next(r for r in draws if r.result == "draw")
    assert "RE[0]" in record_to_sgf(draw)
    assert record_from_sgf(record_to_sgf(draw)).result == "draw"


@pytest.mark.parametrize(
    ("file", "moves", "result", "reason", "players", "params"),
    [
        # HexGui 0.10: swap-pieces moves Black's c4 to White's d3; Black moves next.
        (
            "hexgui_swap_pieces.sgf",
            (35, 121, 60, 70, 50, 49, 39),
            "unfinished",
            "",
            ("alice", "bob"),
            {"rows": 11, "cols": 11, "swap": True},
        ),
        # swap-sides: the stone stays, White moves again; read as our swap with the later
        # moves reflected in the long diagonal (f6 -> f6, e7 -> g5) and colours exchanged.
        (
            "hexgui_swap_sides.sgf",
            (35, 121, 60, 50),
            "unfinished",
            "",
            ("Black", "White"),
            {"rows": 11, "cols": 11, "swap": True},
        ),
        # HexGui 0.9 and earlier wrote swap-pieces for swap-sides; read as HexGui reads it.
        (
            "hexgui_0.9_swap.sgf",
            (35, 121, 60, 50),
            "unfinished",
            "",
            ("Black", "White"),
            {"rows": 11, "cols": 11, "swap": True},
        ),
        (
            "hexgui_resign.sgf",
            (12, 16),
            "player_1",
            "resign",
            ("Black", "White"),
            {"rows": 5, "cols": 5, "swap": False},
        ),
        (
            "hexgui_rectangular.sgf",
            (5, 18),
            "unfinished",
            "",
            ("Black", "White"),
            {"rows": 4, "cols": 6, "swap": False},
        ),
    ],
)
def test_reads_hexgui_files(file, moves, result, reason, players, params) -> None:
    record = load_record(DATA / file)
    assert record.game == GameConfig("hex", params)
    assert record.moves == moves
    assert (record.result, record.reason, record.players) == (result, reason, players)


def test_swap_pieces_and_swap_sides_files_give_the_same_position_up_to_symmetry() -> None:
    sides = load_record(DATA / "hexgui_swap_sides.sgf").final_state().board
    # In the file's own colours (swap-sides): Black c4 and e7, White f6. Reflect and swap.
    expected = np.zeros((11, 11), dtype=np.int8)
    for (row, col), colour in (((3, 2), 1), ((6, 4), 1), ((5, 5), 2)):
        expected[col, row] = 3 - colour
    np.testing.assert_array_equal(sides, expected)


def test_reads_little_golem_style_points() -> None:
    text = "(;FF[4]GM[11]SZ[5];B[cd];W[aa])"
    assert record_from_sgf(text).moves == (3 * 5 + 2, 0)


def test_variations_follow_the_main_line() -> None:
    text = "(;GM[4]SZ[9];B[ee](;W[aa];B[bb])(;W[cc]))"
    assert record_from_sgf(text).moves == (40, 0, 10)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"line 1: expected '\(' to open a game tree, found the end of the file"),
        ("(GM[11])", r"line 1: expected ';' to start a node"),
        ("(;GM[11]SZ[5];B[a1]", r"line 1: expected '\)' to close the game tree"),
        ("(;GM[11]SZ[5]\n;B[a1\n;W", r"line 2: value of B is never closed"),
        ("(;GM[11]SZ[5];B)", r"line 1: property B has no \[value\]"),
        ("(;SZ[5];B[a1])", r"line 1: the root node has no GM property"),
        (
            "(;GM[1]SZ[19];B[dd])",
            r"line 1: GM\[1\] is not supported \(GM\[4\] Gomoku, GM\[11\] Hex\)",
        ),
        ("(;GM[11]\nSZ[abc])", r"line 2: SZ\[abc\]: expected a board size"),
        ("(;GM[11]SZ[40])", r"line 1: SZ\[40\]: rows must be between 1 and 32"),
        ("(;GM[11]SZ[5:4]RU[swap])", r"line 1: SZ\[5:4\]: swap=True needs a square board"),
        ("(;GM[11]SZ[5]\n;B[a1]\n;B[b2])", r"line 3: B\[b2\] is out of turn \(White to move\)"),
        ("(;GM[11]SZ[5];B[a1];W[a1])", r"line 1: W\[a1\] is illegal: .*occupied"),
        ("(;GM[11]SZ[5];B[a1]\n;W[z9])", r"line 2: W\[z9\]: cell 'z9' is off the 5 x 5 board"),
        ("(;GM[11]SZ[5];B[a1];W[pass])", r"line 1: W\[pass\]: passing is not a move in hex"),
        ("(;GM[11]SZ[5];B[a1];W[swap-pieces];W[b1])", r"W\[b1\] is out of turn \(Black to move\)"),
        ("(;GM[11]SZ[5];B[a1];B[swap-pieces])", r"B\[swap-pieces\] is out of turn"),
        ("(;GM[11]SZ[5];B[a1];W[b1];B[swap-pieces])", r"B\[swap-pieces\] is illegal"),
        ("(;GM[11]SZ[5]\nAB[a1])", r"line 2: setup property AB is not supported"),
        ("(;GM[11]SZ[5];B[a1]W[b2])", r"a node holds both a B and a W move"),
        ("(;GM[11]SZ[5]SZ[6])", r"property SZ appears twice in one node"),
        ("(;GM[11]SZ[5]RE[maybe];B[a1])", r"RE\[maybe\]: expected B\+, W\+, 0 \(draw\) or Void"),
        ("(;GM[11]SZ[5];B[a1];W[resign];B[b2])", r"B\[b2\] follows the end of the game"),
        ("(;GM[4]SZ[9]RU[renju];B[ee])", r"RU\[renju\]: Gomoku rule must be freestyle or standard"),
        ("(;GM[4]SZ[9];B[zz])", r"B\[zz\] is off the 9x9 board"),
        ("(;GM[11]SZ[1]RE[W+];B[a1])", r"RE\[W\+\] contradicts the game \(player_0 won\)"),
        ("(;GM[11]SZ[1];B[a1];W[b1])", r"W\[b1\] is played after the game ended"),
    ],
)
def test_malformed_sgf_names_the_line_and_property(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        record_from_sgf(text, where="game.sgf")


def test_load_record_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.sgf"
    path.write_text("(;GM[11]SZ[5]\n;B[a1];W[a1])\n")
    with pytest.raises(ValueError, match=r"broken.sgf line 2: W\[a1\] is illegal"):
        load_record(path)


def _json_file(tmp_path: Path, **changes) -> Path:
    record = random_game(connectn_env.tictactoe(), seed=1)
    path = write_record(record, tmp_path / "game.json")
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "other"}, r"key 'format' must be 'connectn-record'"),
        ({"version": 7}, r"key 'version' must be 1"),
        ({"moves": "0,1,2"}, r"key 'moves' must be a list"),
        ({"moves": [0, 1.5]}, r"key 'moves' must hold integer actions"),
        ({"moves": [0, 0]}, r"move 2: action 0 is illegal: cell \(row 0, col 0\) is occupied"),
        ({"moves": [0, 1, 3, 4, 6, 7, 2]}, r"move 6: action 7 is illegal: the game is over"),
        ({"game": "chess"}, r"unknown game 'chess'; known games: connect_four, tictactoe"),
        ({"params": {"rows": 3, "cols": 3, "n": 3, "gravity": True}}, r"fixed parameters"),
        ({"result": "player_9"}, r"result must be one of player_0, player_1, draw, unfinished"),
        ({"moves": [0, 3, 1, 4, 2], "result": "player_1"}, r"result 'player_1' contradicts"),
        ({"players": "ab"}, r"key 'players' must be a list"),
    ],
)
def test_malformed_json_names_the_key(tmp_path: Path, changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_record(_json_file(tmp_path, **changes))


def test_invalid_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{\n "format": "connectn-record",\n "moves": [1, 2,]\n}\n')
    with pytest.raises(ValueError, match=r"game.json line 3: invalid JSON"):
        load_record(path)


def test_unknown_suffix_is_sniffed_and_writing_needs_a_known_one(tmp_path: Path) -> None:
    record = random_game(connectn_env.HexGame(size=4), seed=0)
    sgf = tmp_path / "game.txt"
    sgf.write_text(record_to_sgf(record))
    assert load_record(sgf).moves == record.moves
    with pytest.raises(ValueError, match=r"unknown record format '.txt'"):
        write_record(record, sgf)
    with pytest.raises(ValueError, match="SGF covers gomoku and hex, not connect_four"):
        record_to_sgf(random_game(connectn_env.connect_four(), seed=0))


def test_record_basics() -> None:
    game = connectn_env.connect_four()
    state = game.new_initial_state()
    for action in (3, 3, 4):
        state.apply_action(action)
    record = GameRecord.from_state(state)
    assert record.result == "unfinished" and record.winner is None
    assert record.game == GameConfig("connect_four")
    states = record.replay_states()
    assert len(states) == 4 and states[-1] == state and states[0].move_number == 0
    resigned = GameRecord.from_state(state, result="player_1", reason="resign")
    assert resigned.winner == 1
    with pytest.raises(TypeError, match="must be a GameState"):
        GameRecord.from_state("state")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="result must be one of"):
        GameRecord(GameConfig("tictactoe"), moves=(), result="won")


def test_save_record_never_overwrites(tmp_path: Path) -> None:
    record = random_game(connectn_env.tictactoe(), seed=2)
    first = save_record(record, tmp_path / "new_dir", stem="g")
    second = save_record(record, tmp_path / "new_dir", stem="g")
    assert [p.name for p in first + second] == ["g.json", "g-2.json"]
    with pytest.raises(TypeError, match="must be a GameRecord"):
        save_record("record", tmp_path)  # type: ignore[arg-type]


def test_game_config_names_presets_and_validates() -> None:
    assert GameConfig.from_game(connectn_env.tictactoe()).name == "tictactoe"
    assert GameConfig.from_game(connectn_env.ConnectNGame(rows=5)).name == "connect_n"
    assert GameConfig("hex", {"size": 5}) == GameConfig("hex", {"rows": 5, "cols": 5})
    assert str(GameConfig("gomoku", {"size": 9})) == "gomoku(rows=9,cols=9,rule=freestyle)"
    with pytest.raises(ValueError, match="bad parameters for hex"):
        GameConfig("hex", {"n": 4})
    with pytest.raises(ValueError, match="unknown game 'go'; known games: connect_four"):
        GameConfig("go")
