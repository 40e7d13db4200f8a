"""``connectn pbrain``: transcripts built from the Gomocup (Piskvork) protocol, in process and
over pipes through the real command, malformed commands and time limits included."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pythonpath_helpers import child_environment

from agents import MCTSAgent, RandomAgent
from connectn_env import __version__
from connectn_env.protocols.clock import MOVES_TO_PLAN
from connectn_env.protocols.match import choose_action
from connectn_env.protocols.pbrain import PbrainEngine, turn_budget
from connectn_env.records import GameConfig

MOVE = re.compile(r"(\d+),(\d+)")
HUGE = "1" * 5000  # past Python's int-string limit (4,300 digits): int() itself raises
SHOWN_HUGE = "11111111111111111111..."  # what messages quote of it
USAGE = {
    "START": "START takes the board size, for example START 20",
    "RECTSTART": "RECTSTART takes width,height, for example RECTSTART 30,20",
    "TURN": "TURN takes X,Y, for example TURN 10,10",
    "TAKEBACK": "TAKEBACK takes X,Y, for example TAKEBACK 10,10",
}


def not_a_number(shown: str) -> str:
    return f"'{shown}' is not a number of 1 to 18 ASCII digits"


def brain(agent=None) -> PbrainEngine:
    return PbrainEngine(agent or RandomAgent(seed=0), version="test", agent_name="random")


def say(engine: PbrainEngine, *lines: str) -> list[str]:
    """Every answer to ``lines``, DEBUG lines left out."""
    answers = []
    for line in lines:
        answers += [a for a in engine.handle(line) if not a.startswith("DEBUG")]
    return answers


def move_of(answer: list[str]) -> tuple[int, int]:
    assert len(answer) == 1 and MOVE.fullmatch(answer[0]), answer
    x, y = map(int, answer[0].split(","))
    return x, y


@pytest.mark.parametrize(
    ("turn", "left", "match", "expected"),
    [
        (None, None, None, None),  # no limits: the agent's own
        (5000, None, None, 5.0 * 0.9 - 0.05),
        (0, None, None, 0.0),  # as fast as possible
        (None, 150_000, None, 150.0 / MOVES_TO_PLAN * 0.9 - 0.05),
        (30_000, 15_000, None, 1.0 * 0.9 - 0.05),  # the match clock is the tighter
        (30_000, 2147483647, None, 30.0 * 0.9 - 0.05),  # 2147483647: unlimited match
        (None, None, 300_000, 20.0 * 0.9 - 0.05),  # timeout_match before any time_left
        (None, -500, None, 0.0),  # out of time: play at once
    ],
)
def test_turn_budget(turn, left, match, expected):
    budget = turn_budget(turn, left, match)
    assert budget == pytest.approx(expected) if expected is not None else budget is None


def test_start_begin_turn_and_about():
    engine = brain()
    assert say(engine, "START 15") == ["OK"]
    x, y = move_of(say(engine, "BEGIN"))
    assert 0 <= x < 15 and 0 <= y < 15
    assert engine.match.history() == [y * 15 + x]
    reply = move_of(say(engine, "TURN 0,0" if (x, y) != (0, 0) else "TURN 1,0"))
    assert len(engine.match.history()) == 3 and reply not in ((x, y), (0, 0))
    (about,) = say(engine, "ABOUT")
    assert re.fullmatch(
        r'name="connectn", version="test", author="connectn-env", agent="random"', about
    )


def test_coordinates_are_column_then_row():
    engine = brain()
    say(engine, "RECTSTART 7,5")  # 7 columns, 5 rows
    game = engine.match.env.unwrapped.game
    assert (game.rows, game.cols) == (5, 7)
    say(engine, "TURN 6,4")
    assert engine.match.history()[0] == 4 * 7 + 6


def test_board_replays_the_stones_alternately_and_answers():
    engine = brain()
    say(engine, "START 20")
    lines = ["BOARD", "10,10,1", "10,11,2", "11,11,1", "9,10,2", "DONE"]
    answers = [engine.handle(line) for line in lines]
    assert answers[:-1] == [[]] * 5  # nothing until DONE
    x, y = move_of([a for a in answers[-1] if not a.startswith("DEBUG")])
    history = engine.match.history()
    # Equal counts and our move: we moved first, own and opponent stones alternately.
    assert history[:4] == [10 * 20 + 10, 11 * 20 + 10, 11 * 20 + 11, 10 * 20 + 9]
    assert history[4] == y * 20 + x
    say(engine, "RESTART")
    move_of(say(engine, "BOARD", "3,3,2", "DONE"))  # the opponent moved first
    assert engine.match.history()[0] == 3 * 20 + 3


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["1,1,1"], "BOARD with 1 own and 0 opponent stones cannot be reached"),
        (["1,1,2", "2,2,2"], "BOARD with 0 own and 2 opponent stones cannot be reached"),
        (["1,1,3"], "BOARD field 3 is not supported"),
        (["1,1"], "BOARD line '1,1' is not X,Y,FIELD"),
        (["a,b,1"], "BOARD line 'a,b,1' is not X,Y,FIELD"),
        (["20,1,2"], "BOARD 20,1 is off the 20 x 20 board"),
        (["1,1,2", "1,1,1", "2,2,2"], "BOARD: that square is taken"),
        (
            # Our five is complete before the opponent's last stone can be placed.
            [
                *("0,0,1", "5,5,2", "1,0,1", "5,6,2", "2,0,1", "5,7,2", "3,0,1", "5,8,2"),
                *("4,0,1", "9,9,2"),
            ],
            "BOARD: the game is over",
        ),
        (
            # The opponent's last stone makes five: nothing left to play.
            ["5,5,2", "0,0,1", "5,6,2", "1,0,1", "5,7,2", "2,0,1", "5,8,2", "3,0,1", "5,9,2"],
            "BOARD: the game is already over",
        ),
    ],
)
def test_bad_boards_are_refused_and_keep_the_old_position(lines, message):
    engine = brain()
    say(engine, "START 20", "TURN 10,10")
    before = engine.match.history()
    (answer,) = say(engine, "BOARD", *lines, "DONE")
    assert answer.startswith("ERROR " + message), answer
    assert engine.match.history() == before


@pytest.mark.parametrize(
    ("setup", "line", "message"),
    [
        ([], "BEGIN", "ERROR no board yet: send START first"),
        ([], "TURN 1,1", "ERROR no board yet: send START first"),
        ([], "RESTART", "ERROR no board yet: send START first"),
        ([], "START", "ERROR START takes the board size, for example START 20"),
        ([], "START twenty", "ERROR START takes the board size"),
        ([], "START 4", "ERROR unsupported board 4 x 4: sides up to 32, the longer one at least 5"),
        ([], "START 40", "ERROR unsupported board 40 x 40"),
        ([], "RECTSTART 30", "ERROR RECTSTART takes width,height, for example RECTSTART 30,20"),
        ([], "RECTSTART 40,20", "ERROR unsupported board 40 x 20"),
        (["START 20"], "TURN 20,0", "ERROR TURN 20,0 is off the 20 x 20 board"),
        (["START 20"], "TURN -1,0", "ERROR TURN takes X,Y, for example TURN 10,10"),
        (["START 20"], "TURN 1;1", "ERROR TURN takes X,Y"),
        (["START 20"], "TAKEBACK 1,1", "ERROR TAKEBACK 1,1: that is not the last move"),
        (
            ["START 20", "TURN 5,5"],
            "BEGIN",
            "ERROR BEGIN needs an empty board (send RESTART first)",
        ),
        (["START 20", "SWAP2BOARD", "7,7"], "DONE", "ERROR swap2 openings are not supported"),
        (["START 20"], "PLAY 1,1", "UNKNOWN PLAY answers SUGGEST, which this brain never sends"),
        (["START 20"], "YXSHOWFORBID", "UNKNOWN command 'YXSHOWFORBID'; this brain knows ABOUT"),
        (["START 20", "INFO rule 4"], "BEGIN", "ERROR rule 4 is not supported"),
        (["START 20", "INFO rule 8"], "TURN 1,1", "ERROR rule 8 is not supported"),
        (
            ["START 20", "INFO rule 17"],
            "BEGIN",
            "ERROR INFO rule 17: the protocol defines the bits 1 (exactly five), 2 (continuous",
        ),
        (
            ["START 20", "INFO timeout_turn soon"],
            "BEGIN",
            "ERROR INFO timeout_turn needs an integer: 'soon' is not a number of 1 to 18 ASCII",
        ),
    ],
)
def test_errors_and_unknown_commands(setup, line, message):
    engine = brain()
    say(engine, *setup)
    before = None if engine.match is None else engine.match.history()
    (answer,) = say(engine, line)
    assert answer.startswith(message), answer
    assert (None if engine.match is None else engine.match.history()) == before


def test_turn_on_a_taken_square_and_after_the_end():
    engine = brain()
    say(engine, "START 20", "TURN 10,10")
    reply = say(engine, "TURN 10,10")
    assert reply == ["ERROR TURN 10,10: that square is taken"]
    engine.match.replay([0, 100, 1, 101, 2, 102, 3, 103, 4])  # a five for the first player
    assert say(engine, "TURN 19,19") == ["ERROR TURN 19,19: the game is over"]


def test_takeback_and_restart():
    engine = brain()
    say(engine, "START 15")
    move_of(say(engine, "TURN 7,7"))
    last = engine.match.history()[-1]
    y, x = divmod(last, 15)
    assert say(engine, f"TAKEBACK {x},{y}") == ["OK"]
    assert say(engine, "TAKEBACK 7,7") == ["OK"]
    assert engine.match.history() == []
    say(engine, "TURN 1,1")
    assert say(engine, "RESTART") == ["OK"] and engine.match.history() == []


def test_board_plays_six_in_a_row_under_exactly_five_in_any_order():
    """Under exactly five a line of six is no win, though a five passes on the way to it: the
    stone that would make the five waits, whatever the order of the lines."""
    own = [f"{x},0,1" for x in range(6)]
    theirs = [f"{x},5,2" for x in range(4)] + ["0,9,2", "9,9,2"]
    for order in (own, own[::-1], own[:3] + own[4:] + own[3:4]):
        engine = brain()
        say(engine, "INFO rule 1", "START 15")
        (answer,) = [a for a in say(engine, "BOARD", *order, *theirs, "DONE") if a[0] != "D"]
        x, y = move_of([answer])
        history = engine.match.history()
        assert sorted(history[:12]) == [*range(6), *range(75, 79), 135, 144]
        assert history[12] == y * 15 + x and len(history) == 13


def test_info_rule_selects_exactly_five_and_survives_restart():
    engine = brain()
    say(engine, "INFO rule 1", "START 15")
    assert engine.match.config == GameConfig("gomoku", {"size": 15, "rule": "standard"})
    say(engine, "TURN 7,7", "INFO rule 0", "TURN 1,1")  # rule changed mid-game: same moves
    assert engine.match.config.params["rule"] == "freestyle"
    assert engine.match.history()[0] == 7 * 15 + 7 and len(engine.match.history()) == 4
    say(engine, "INFO rule 3", "RESTART")  # exactly five + continuous game
    assert engine.match.config.params["rule"] == "standard"


def test_info_lines_are_silent_and_unknown_keys_ignored():
    engine = brain()
    for line in (
        "INFO timeout_turn 5000",
        "INFO timeout_match 180000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO time_left 170000",
        "INFO folder C:\\brains",
        "INFO evaluate 7,7",
        "INFO colour_of_the_sky blue",
    ):
        assert engine.handle(line) == []
    assert (engine.timeout_turn, engine.timeout_match, engine.time_left) == (5000, 180000, 170000)


def test_end_stops_the_brain_even_inside_a_board():
    engine = brain()
    say(engine, "START 20", "BOARD", "1,1,1")
    assert engine.handle("END") == [] and engine.finished


def test_a_search_agent_stops_at_the_budget():
    env = GameConfig("gomoku", {"size": 15}).make_env()
    env.reset()
    agent = MCTSAgent(time_limit=30, seed=0)
    choose_action(agent, env, budget=0.0)  # compile or load the compiled search first
    start = time.perf_counter()
    action, note = choose_action(agent, env, budget=0.3)
    elapsed = time.perf_counter() - start
    assert elapsed < 3.0  # far below the agent's own 30 s
    assert env.unwrapped.game_state.legal_action_mask()[action]
    assert "simulations in" in note


def test_agent_failures_are_errors_not_crashes():
    class Crashing:
        def act(self, env):
            raise RuntimeError("out of ideas")

    class Cheating:
        def act(self, env):
            return 0  # a1, whatever the position

    engine = brain(Crashing())
    say(engine, "START 15")
    assert say(engine, "BEGIN") == [
        "ERROR the agent failed: the agent raised RuntimeError: out of ideas"
    ]
    engine = brain(Cheating())
    say(engine, "START 15")
    assert say(engine, "TURN 0,0") == [
        "ERROR the agent failed: the agent chose the illegal action 0"
    ]
    assert engine.match.history() == [0]


def test_two_brains_play_a_whole_game():
    black, white = brain(RandomAgent(seed=1)), brain(RandomAgent(seed=2))
    say(black, "START 7")
    say(white, "START 7")
    x, y = move_of(say(black, "BEGIN"))
    players = [white, black]
    for ply in range(49):
        engine, other = players[ply % 2], players[1 - ply % 2]
        answer = say(engine, f"TURN {x},{y}")
        if answer == ["ERROR the game is over"]:  # the move it was told ended the game
            break
        x, y = move_of(answer)
    else:
        pytest.fail("a 7 x 7 game lasts at most 49 moves")
    assert engine.match.state.is_terminal()
    assert engine.match.history() == other.match.history()  # both saw the whole game


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=24),
            st.sampled_from(
                ["START", "TURN", "BOARD", "DONE", "INFO", "TAKEBACK", "RECTSTART", "BEGIN"]
            ).flatmap(lambda head: st.text(max_size=8).map(lambda tail: f"{head} {tail}")),
            st.sampled_from(["START 7", "BEGIN", "RESTART", "DONE", "1,1,1", "2,2,2"]),
        ),
        max_size=25,
    )
)
def test_no_input_crashes_the_brain(lines):
    engine = brain()
    for line in lines:
        for answer in engine.handle(line):
            assert "\n" not in answer and "\r" not in answer
            assert answer.split(" ")[0] in (
                "OK",
                "ERROR",
                "UNKNOWN",
                "DEBUG",
                'name="connectn",',
            ) or MOVE.fullmatch(answer), answer
        if engine.finished:
            break


INFORMATIONAL = ("MESSAGE", "DEBUG")  # lines a brain may write besides its answers


def run_brain(args: list[str], transcript: str) -> subprocess.CompletedProcess:
    env = child_environment()
    return subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", "pbrain", *args],
        input=transcript.encode("utf-8", "surrogateescape"),
        capture_output=True,
        env=env,
        timeout=300,
    )


def test_connectn_pbrain_over_pipes_as_the_manager_drives_it():
    transcript = (
        "INFO timeout_match 180000\r\n"
        "INFO timeout_turn 5000\r\n"
        "INFO rule 1\r\n"
        "START 20\r\n"
        "ABOUT\r\n"
        "INFO time_left 180000\r\n"
        "BEGIN\r\n"
        "\r\n"
        "TURN 0,0\r\n"
        "TURN \xff\xfe\r\n"
        "SHOUT hello\r\n"
        "RESTART\r\n"
        "BOARD\r\n"
        "10,10,1\r\n"
        "10,11,2\r\n"
        "DONE\r\n"
        f"TURN 1,{HUGE}\r\n"  # past the int-string limit: was a traceback
        "BOARD\r\n"
        "1,1,\u00b2\r\n"
        "DONE\r\n"
        "END\r\n"
        "ABOUT\r\n"  # after END: never answered
    )
    run = run_brain(["--opponent", "random:seed=4"], transcript)
    assert run.returncode == 0, run.stderr
    answers = [
        line  # MESSAGE lines (a cold cache's compile notices) are not answers
        for line in run.stdout.decode().splitlines()
        if not line.startswith(INFORMATIONAL)
    ]
    assert answers[0] == "OK"
    assert answers[1].startswith(f'name="connectn", version="{__version__}"')
    assert MOVE.fullmatch(answers[2]) and MOVE.fullmatch(answers[3])
    assert answers[4] == "ERROR TURN takes X,Y, for example TURN 10,10"
    assert answers[5].startswith("UNKNOWN command 'SHOUT'")
    assert answers[6] == "OK"
    assert MOVE.fullmatch(answers[7]) and answers[7] not in ("10,10", "10,11")
    assert answers[8] == f"ERROR {USAGE['TURN']}: {not_a_number(SHOWN_HUGE)}"
    board_line = "ERROR BOARD line '1,1,\u00b2' is not X,Y,FIELD: "
    assert answers[9] == board_line + not_a_number("\u00b2")
    assert len(answers) == 10


def test_connectn_pbrain_honours_timeout_turn_over_pipes():
    """The agent would think 30 s per move; INFO timeout_turn 500 caps it."""
    env = child_environment()
    brain_process = subprocess.Popen(
        [sys.executable, "-m", "connectn_env.cli", "pbrain", "--opponent", "mcts:time=30"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )

    def send(line: str) -> str:
        """The answer to ``line``, past MESSAGE and DEBUG lines (the compile's notices)."""
        brain_process.stdin.write(line + "\n")
        brain_process.stdin.flush()
        while (answer := brain_process.stdout.readline().strip()).startswith(INFORMATIONAL):
            pass
        return answer

    brain_process.stdin.write("INFO timeout_turn 500\n")
    assert send("START 15") == "OK"  # the compile happens here, outside the turn's time
    for line in ("BEGIN", "TURN 0,0", "TURN 14,14"):
        start = time.perf_counter()
        answer = send(line)
        assert MOVE.fullmatch(answer), answer
        assert time.perf_counter() - start < 3.0  # 0.5 s asked, generous for a loaded machine
    brain_process.stdin.write("END\n")
    brain_process.stdin.flush()
    assert brain_process.wait(timeout=30) == 0


@pytest.mark.parametrize(
    ("setup", "line", "shown"),
    [
        ([], f"START {HUGE}", SHOWN_HUGE),
        ([], f"RECTSTART 20,{HUGE}", SHOWN_HUGE),
        (["START 20"], f"TURN 1,{HUGE}", SHOWN_HUGE),
        (["START 20"], f"TURN {HUGE},1", SHOWN_HUGE),
        (["START 20", "TURN 1,1"], f"TAKEBACK 1,{HUGE}", SHOWN_HUGE),
        (["START 20"], "TURN 1,\u00b2", "\u00b2"),
        (["START 20"], "TURN \uff11,1", "\uff11"),  # a full-width digit one
        (["START 20"], "TURN 1,1\x00", "1\\x00"),  # a NUL byte, quoted as an escape
        (["START 20"], "TURN +1,1", "+1"),
        (["START 20"], "TURN 1_0,1", "1_0"),
    ],
)
def test_huge_and_non_ascii_numbers_are_errors(setup, line, shown):
    """Finding 2 of issue 25: a 5,000-digit TURN ended the brain with a traceback."""
    engine = brain()
    say(engine, *setup)
    before = None if engine.match is None else engine.match.history()
    usage = USAGE[line.split()[0]]
    assert say(engine, line) == [f"ERROR {usage}: {not_a_number(shown)}"]
    assert (None if engine.match is None else engine.match.history()) == before
    assert say(engine, "START 15") == ["OK"]  # and the brain goes on


@pytest.mark.parametrize("row", ["1,1,\u00b2", "\u00b9,1,1", "1,\u0661,2", f"1,1,{HUGE}"])
def test_board_rows_with_non_ascii_or_huge_numbers_are_refused(row):
    """Finding 3 of issue 25: ``1,1,²`` passed ``isdigit()`` and ``int()`` raised."""
    engine = brain()
    say(engine, "START 20", "TURN 10,10")
    before = engine.match.history()
    (answer,) = say(engine, "BOARD", row, "DONE")
    (bad,) = [part for part in row.split(",") if not part.isascii() or len(part) > 18]
    shown = SHOWN_HUGE if bad == HUGE else bad
    assert answer == f"ERROR BOARD line {row[:30]!r} is not X,Y,FIELD: {not_a_number(shown)}"
    assert engine.match.history() == before
    assert move_of(say(engine, "TURN 0,0"))  # the brain goes on


def test_info_numbers_are_bounded_and_only_time_left_has_a_sign():
    engine = brain()
    assert say(engine, "INFO time_left -500", "INFO timeout_turn 2147483647") == []
    assert (engine.time_left, engine.timeout_turn) == (-500, 2147483647)
    say(engine, "START 15", f"INFO timeout_match {HUGE}")
    message = "ERROR INFO timeout_match needs an integer: " + not_a_number(SHOWN_HUGE)
    assert say(engine, "BEGIN") == [message]
    say(engine, "INFO timeout_turn -5")
    message = "ERROR INFO timeout_turn needs an integer: " + not_a_number("-5")
    assert say(engine, "BEGIN") == [message]
    assert engine.timeout_turn == 2147483647 and engine.match.history() == []


def test_a_board_longer_than_the_board_is_refused_without_keeping_every_line():
    engine = brain()
    say(engine, "START 5")
    engine.handle("BOARD")
    for _ in range(1000):
        engine.handle("1,1,1")
    assert len(engine._block[1]) == 26  # one more than the 25 squares, then no more
    assert say(engine, "DONE") == ["ERROR BOARD has more lines than the 5 x 5 board"]


def test_a_command_that_fails_unexpectedly_is_answered_and_the_brain_goes_on(capsys):
    engine = brain()

    def broken(argument):
        raise KeyError("bug")

    engine._commands["ABOUT"] = broken
    assert say(engine, "ABOUT") == ["ERROR internal error: KeyError: 'bug'"]
    assert "internal error: KeyError" in capsys.readouterr().err
    assert say(engine, "START 15") == ["OK"]
