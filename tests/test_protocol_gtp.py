"""``connectn gtp hex``: transcripts built from the GTP 2 specification and MoHex's command set,
in process and over pipes through the real command, malformed commands included."""

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
from connectn_env.protocols.clock import TimeSystem
from connectn_env.protocols.gtp import GtpEngine
from connectn_env.protocols.match import ProtocolMatch

RESPONSE = re.compile(r"([=?])(\d*) (.*?)\n\n", re.S)
HUGE = "9" * 5000  # past Python's int-string limit (4,300 digits): int() itself raises
TOO_LONG = "'99999999999999999999...' is not a number of 1 to 18 ASCII digits"
BOARDSIZE = "syntax error: boardsize takes one or two integers (width height): "


def engine(size: int = 5, swap: bool = False) -> GtpEngine:
    return GtpEngine(RandomAgent(seed=0), size=size, swap=swap, version="test")


def ask(gtp: GtpEngine, line: str) -> str:
    """The body of a successful response."""
    response = gtp.handle(line)
    assert response is not None and response.startswith("= "), response
    return response[2:-2]


def refuse(gtp: GtpEngine, line: str) -> str:
    """The message of a failure; the position must be unchanged."""
    before = (gtp.match.history(), gtp.handle("showboard"))
    response = gtp.handle(line)
    assert response is not None and response.startswith("? "), response
    assert (gtp.match.history(), gtp.handle("showboard")) == before
    return response[2:-2]


def test_administrative_commands():
    gtp = engine()
    assert ask(gtp, "protocol_version") == "2"
    assert ask(gtp, "name") == "connectn"
    assert ask(gtp, "version") == "test"
    commands = ask(gtp, "list_commands").split("\n")
    assert {"boardsize", "clear_board", "play", "genmove", "undo", "showboard", "quit"} <= set(
        commands
    )
    assert {"hexgui-analyze_commands", "known_command", "protocol_version"} <= set(commands)
    assert all(ask(gtp, f"known_command {name}") == "true" for name in commands)
    assert ask(gtp, "known_command komi") == "false"
    assert ask(gtp, "hexgui-analyze_commands").split("\n") == [
        "string/ShowBoard/showboard",
        "plist/All Legal Moves/all_legal_moves %c",
        "string/Final Score/final_score",
    ]
    assert not gtp.finished
    assert gtp.handle("quit") == "= \n\n" and gtp.finished


def test_ids_are_echoed_on_success_and_failure():
    gtp = engine()
    assert gtp.handle("17 name") == "=17 connectn\n\n"
    assert (
        gtp.handle("3 play b zz")
        == "?3 syntax error: 'zz' is not a cell like c3 or swap-pieces\n\n"
    )
    assert gtp.handle("42 frobnicate") == "?42 unknown command: frobnicate\n\n"
    assert gtp.handle("8") == "?8 syntax error: a command must follow the id\n\n"


def test_preprocessing_as_the_specification_says():
    """GTP 2 section 2.3: control characters removed (HT kept), comments cut, HT to space,
    empty and white-space lines ignored."""
    gtp = engine()
    for ignored in ("", "   ", "\t", "# a comment", "   # indented comment", "\r"):
        assert gtp.handle(ignored) is None
    assert gtp.handle("name # trailing comment") == "= connectn\n\n"
    assert gtp.handle("\x01na\x02me\r") == "= connectn\n\n"
    assert gtp.handle("play\tb\tc3") == "= \n\n"
    assert gtp.match.history() == [12]


def test_a_game_with_play_genmove_undo_and_showboard():
    gtp = engine()
    assert ask(gtp, "boardsize 5") == ""
    assert ask(gtp, "play b c3") == "" and ask(gtp, "play W b2") == ""
    reply = ask(gtp, "genmove black")
    assert re.fullmatch(r"[a-e][1-5]", reply)
    assert gtp.match.history()[:2] == [12, 6] and len(gtp.match.history()) == 3
    assert ask(gtp, "undo") == ""
    assert gtp.match.history() == [12, 6]
    board = ask(gtp, "showboard").split("\n")
    assert board == [
        "",
        "    a b c d e",
        "  1 . . . . .",
        "   2 . W . . .",
        "    3 . . B . .",
        "     4 . . . . .",
        "      5 . . . . .",
        "B (black) connects top and bottom, W (white) left and right",
        "black to play",
    ]
    legal = ask(gtp, "all_legal_moves").split()
    assert len(legal) == 23 and "c3" not in legal and "a1" in legal
    assert ask(gtp, "final_score") == "cannot score"


def test_boardsize_width_height_and_clear_board():
    gtp = engine()
    assert ask(gtp, "boardsize 4 3") == ""
    game = gtp.match.env.unwrapped.game
    assert (game.rows, game.cols) == (3, 4)
    ask(gtp, "play b d3")
    assert gtp.match.history() == [11]
    assert ask(gtp, "clear_board") == ""
    assert gtp.match.history() == [] and gtp.match.env.unwrapped.game.cols == 4


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play", "syntax error: usage is play COLOUR MOVE, for example play b c3"),
        ("play b", "syntax error: usage is play COLOUR MOVE"),
        ("play b c3 d4", "syntax error: usage is play COLOUR MOVE"),
        ("play red c3", "syntax error: a colour is b, black, w or white, got 'red'"),
        ("play b 33", "syntax error: '33' is not a cell like c3 or swap-pieces"),
        ("play b f1", "illegal move: cell 'f1' is off the 5 x 5 board (a1 to e5)"),
        ("play w c3", "illegal move: it is black's turn"),
        ("play b swap-pieces", "illegal move: the swap rule is off (connectn gtp hex --swap)"),
        ("genmove", "syntax error: usage is genmove COLOUR, for example genmove w"),
        ("genmove w", "it is black's turn, not white's"),
        ("genmove purple", "syntax error: a colour is b, black, w or white"),
        ("boardsize", "syntax error: boardsize takes one or two integers (width height)"),
        ("boardsize x", "syntax error: boardsize takes one or two integers"),
        ("boardsize 5 5 5", "syntax error: boardsize takes one or two integers"),
        ("boardsize 0", "unacceptable size: sides are 1 to 32, got 0 x 0"),
        ("boardsize 33 5", "unacceptable size: sides are 1 to 32, got 33 x 5"),
        ("undo", "cannot undo: no move has been played"),
        ("undo now", "syntax error: usage is undo"),
        ("name please", "syntax error: usage is name"),
        ("known_command", "syntax error: usage is known_command NAME"),
        ("all_legal_moves b w", "syntax error: all_legal_moves takes at most a colour"),
        ("PLAY b c3", "unknown command: PLAY"),
        ("\u00e9t\u00e9 b c3", "unknown command: \u00e9t\u00e9"),
        ("fo\u202eo b c3", "unknown command: fo\\u202eo"),  # a bidi override, shown escaped
    ],
)
def test_malformed_commands_fail_and_change_nothing(line, message):
    assert refuse(engine(), line).startswith(message)


def test_occupied_cells_and_game_over():
    gtp = engine(size=3)
    ask(gtp, "play b b2")
    assert refuse(gtp, "play w b2") == "illegal move: b2 is occupied"
    for line in ("play w a1", "play b a2", "play w b1", "play b c2", "play w c1"):
        ask(gtp, line)
    assert ask(gtp, "final_score") == "W+"  # a1 b1 c1: white joins left and right
    assert refuse(gtp, "play b a3") == "illegal move: the game is over (W+)"
    assert ask(gtp, "genmove b") == "resign"
    assert ask(gtp, "play b resign") == ""  # accepted and ignored, as MoHex does


def test_swap_pieces_as_mohex_and_old_hexgui_send_it():
    """``play w swap-pieces``: the stone stays and white moves; white then wins left-right in
    HexGui's view, which the engine plays through the board's mirror symmetry."""
    gtp = engine(size=3, swap=True)
    ask(gtp, "play b a1")
    assert refuse(gtp, "play b a2") == "illegal move: it is white's turn"
    ask(gtp, "play w swap-pieces")
    assert ask(gtp, "showboard").split("\n")[2:4] == ["  1 B . .", "   2 . . ."]
    assert ask(gtp, "showboard").endswith("white to play")
    assert (
        refuse(gtp, "play w swap")
        == "illegal move: swap-pieces is only legal as white's first move"
    )
    for line in ("play w a2", "play b a3", "play w b2", "play b b3", "play w c2"):
        ask(gtp, line)
    assert ask(gtp, "final_score") == "W+"
    assert ask(gtp, "showboard").split("\n")[2:5] == ["  1 B . .", "   2 W W W", "    3 B B ."]
    for _ in range(6):
        ask(gtp, "undo")
    assert gtp.match.history() == [0]
    assert ask(gtp, "showboard").endswith("white to play")


def test_swap_as_newer_hexgui_sends_it_a_lone_white_stone():
    """HexGui 0.10+ answers its own swap-pieces with clear_board and the new position."""
    gtp = engine(size=3, swap=True)
    ask(gtp, "play b a2")
    ask(gtp, "clear_board")
    ask(gtp, "play w b1")  # black's a2 reflected in the long diagonal
    assert gtp.match.history() == [3, 9]  # a2 = (row 1, col 0) = action 3, then the swap
    board = ask(gtp, "showboard").split("\n")
    assert board[2:5] == ["  1 . W .", "   2 . . .", "    3 . . ."]
    assert board[-1] == "black to play"
    ask(gtp, "play b b2")
    assert gtp.match.history() == [3, 9, 4]
    assert refuse(gtp, "play w b2") == "illegal move: b2 is occupied"


def test_showboard_keeps_the_columns_aligned_beyond_26():
    gtp = engine(size=28)
    ask(gtp, "play b ab1")
    board = ask(gtp, "showboard").split("\n")
    header, first = board[1], board[2]
    assert header.endswith(" z aa ab") and first.endswith(" .  B")
    assert header.index("ab") + 1 == first.index("B")  # the stone under its column's label


def test_lone_white_stone_on_a_board_one_stone_fills_is_an_illegal_move():
    gtp = engine(size=1, swap=True)
    message = refuse(gtp, "play w a1")
    assert message == "illegal move: no swap can follow black's first stone (the game is over)"
    assert gtp.match.history() == []


def test_lone_white_stone_without_the_swap_rule_is_refused():
    assert refuse(engine(size=3), "play w b1") == "illegal move: it is black's turn"


def test_genmove_may_swap_and_answers_swap_pieces():
    class Swapper:
        def act(self, env):
            return env.unwrapped.game.rows * env.unwrapped.game.cols

    gtp = GtpEngine(Swapper(), size=4, swap=True)
    ask(gtp, "play b b1")
    assert ask(gtp, "genmove w") == "swap-pieces"
    assert ask(gtp, "showboard").split("\n")[2] == "  1 . B . ."
    assert ask(gtp, "showboard").endswith("white to play")


def test_agent_that_answers_an_illegal_action_is_reported():
    class Broken:
        def act(self, env):
            return 0

    gtp = GtpEngine(Broken(), size=3)
    ask(gtp, "play b a1")
    assert refuse(gtp, "genmove w") == "the agent failed: the agent chose the illegal action 0"


def test_agent_that_raises_is_reported_not_fatal():
    class Crashing:
        def act(self, env):
            raise RuntimeError("out of ideas")

    gtp = GtpEngine(Crashing(), size=3)
    message = refuse(gtp, "genmove b")
    assert message == "the agent failed: the agent raised RuntimeError: out of ideas"
    assert ask(gtp, "name") == "connectn"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(
                ["play b", "play w", "genmove b", "genmove w", "undo", "boardsize", "1 play"]
            ).flatmap(lambda head: st.text(max_size=8).map(lambda tail: f"{head} {tail}")),
        ),
        max_size=20,
    )
)
def test_no_input_crashes_the_engine(lines):
    gtp = engine(size=4, swap=True)
    for line in lines:
        before = gtp.match.history()
        response = gtp.handle(line)
        if response is None:
            continue
        match = RESPONSE.fullmatch(response)
        assert match, response
        assert "\n\n" not in match.group(3)
        if match.group(1) == "?":
            assert gtp.match.history() == before
        if gtp.finished:
            break


def run_command(
    args: list[str], transcript: str, timeout: float = 300
) -> subprocess.CompletedProcess:
    env = child_environment()
    return subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", *args],
        input=transcript.encode("utf-8", "surrogateescape"),
        capture_output=True,
        env=env,
        timeout=timeout,
    )


def test_connectn_gtp_over_pipes_with_a_hexgui_session_and_garbage():
    transcript = (
        "name\n"
        "version\n"
        "hexgui-analyze_commands\n"
        "1 boardsize 5 5\n"
        "\n"
        "# HexGui replays the game\n"
        "2 play b c3\n"
        "3 genmove w\n"
        "play b \xff\xfe\n"
        "4 play b c3\n"
        "totally bogus command\n"
        "5 showboard\n"
        "6 undo\n"
        "7 undo\n"
        "8 undo\n"
        f"8 boardsize {HUGE}\n"  # past the int-string limit: was a traceback
        "9 quit\n"
        "10 name\n"  # after quit: never answered
    )
    run = run_command(["gtp", "hex", "--size", "7", "--opponent", "random:seed=3"], transcript)
    assert run.returncode == 0, run.stderr
    responses = RESPONSE.findall(run.stdout.decode())
    assert "".join(f"{s}{i} {b}\n\n" for s, i, b in responses) == run.stdout.decode()
    assert responses[0] == ("=", "", "connectn")
    assert responses[1][2].startswith(f"{__version__} (random:seed=3)")
    assert responses[3] == ("=", "1", "")
    assert responses[4] == ("=", "2", "")
    status, ident, move = responses[5]
    assert (status, ident) == ("=", "3") and re.fullmatch(r"[a-e][1-5]", move) and move != "c3"
    assert responses[6][0] == "?" and responses[6][2].startswith("syntax error")
    assert responses[7] == ("?", "4", "illegal move: c3 is occupied")
    assert responses[8] == ("?", "", "unknown command: totally")
    assert responses[9][:2] == ("=", "5") and "B" in responses[9][2] and "W" in responses[9][2]
    assert responses[10:13] == [
        ("=", "6", ""),
        ("=", "7", ""),
        ("?", "8", "cannot undo: no move has been played"),
    ]
    assert responses[13] == ("?", "8", BOARDSIZE + TOO_LONG)
    assert responses[14] == ("=", "9", "")
    assert len(responses) == 15


class GtpClient:
    """Talks to ``connectn gtp`` over pipes one command at a time, as HexGui does."""

    def __init__(self, args: list[str]) -> None:
        env = child_environment()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "connectn_env.cli", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )

    def send(self, command: str) -> tuple[str, str]:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline()) not in ("\n", ""):
            lines.append(line)
        match = RESPONSE.fullmatch("".join(lines) + "\n")
        assert match, lines
        return match.group(1), match.group(3)

    def close(self) -> tuple[int, str]:
        assert self.send("quit") == ("=", "")
        return self.process.wait(timeout=60), self.process.stderr.read()


def test_connectn_gtp_mcts_plays_itself_to_the_end_over_pipes():
    client = GtpClient(["gtp", "hex", "--swap", "--opponent", "mcts:simulations=200,seed=1"])
    assert client.send("boardsize 5") == ("=", "")
    moves = []
    while True:
        status, board = client.send("showboard")
        to_play = board.split("\n")[-1]
        if to_play.startswith("game over"):
            break
        colour = to_play.split()[0]
        status, move = client.send(f"genmove {colour}")
        assert status == "=" and re.fullmatch(r"[a-e][1-5]|swap-pieces", move), move
        moves.append(move)
    assert len(moves) <= 26
    assert client.send("final_score")[1] in ("B+", "W+")  # Hex has no draws
    assert client.send("genmove b") == ("=", "resign")
    returncode, stderr = client.close()
    assert returncode == 0
    assert stderr.count("simulations in") == len(moves)  # the search notes go to stderr


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"boardsize {HUGE}", BOARDSIZE + TOO_LONG),
        (f"boardsize 5 {HUGE}", BOARDSIZE + TOO_LONG),
        (
            "boardsize \u00b2",
            BOARDSIZE + "'\u00b2' is not a",
        ),
        ("boardsize \uff15", BOARDSIZE + "'\uff15' is not"),
        ("boardsize 1_1", BOARDSIZE + "'1_1' is not a"),
        (f"play w a{HUGE}", f"syntax error: the row number {TOO_LONG}"),
        ("play w c\u00b2", "syntax error: 'c\u00b2' is not a cell like c3 or swap-pieces"),
        (f"time_settings {HUGE} 0 0", "syntax error: time_settings takes MAIN_TIME"),
        ("time_settings 60 -1 0", "syntax error: time_settings takes MAIN_TIME"),
        (f"time_left b {HUGE} 0", "syntax error: time_left takes COLOUR SECONDS STONES"),
        ("time_left b 30 \u00b2", "syntax error: time_left takes COLOUR SECONDS STONES"),
        ("time_left red 30 0", "syntax error: a colour is b, black, w or white, got 'red'"),
        (f"kgs-time_settings absolute {HUGE}", "syntax error: kgs-time_settings takes none"),
        ("kgs-time_settings fischer 60 5", "syntax error: kgs-time_settings takes none"),
    ],
)
def test_huge_and_non_ascii_numbers_are_syntax_errors(line, message):
    """Finding 2 of issue 25: a 5,000-digit boardsize ended the engine with a traceback."""
    gtp = engine()
    gtp.handle("play b c3")
    answer = refuse(gtp, line)
    assert answer.startswith(message), answer
    assert (HUGE in line) <= answer.endswith(TOO_LONG)
    assert len(answer) < 300  # the number is quoted, not echoed whole
    assert ask(gtp, "name") == "connectn"  # and the engine goes on


def test_ids_are_bounded_numbers_too():
    gtp = engine()
    assert gtp.handle(f"{HUGE} name") == f"? syntax error: the id {TOO_LONG}\n\n"
    assert gtp.handle("12x name") == (
        "? syntax error: the id '12x' is not a number of 1 to 18 ASCII digits\n\n"
    )
    assert gtp.handle("000000000000000042 name") == "=000000000000000042 connectn\n\n"


def test_a_command_that_fails_unexpectedly_is_answered_and_the_engine_goes_on(capsys):
    gtp = engine()

    def broken(args):
        raise KeyError("bug")

    gtp._commands["showboard"] = broken
    assert gtp.handle("7 showboard") == "?7 internal error: KeyError: 'bug'\n\n"
    assert "internal error: KeyError" in capsys.readouterr().err
    assert gtp.handle("8 name") == "=8 connectn\n\n"


def budget_after(monkeypatch, *lines: str) -> float | None:
    """The budget that a genmove after ``lines`` passes to the agent (a fresh 5 x 5 engine)."""
    budgets = []

    def think(match, agent, budget=None):
        budgets.append(budget)
        return int(match.state.legal_action_mask().nonzero()[0][0]), ""

    monkeypatch.setattr(ProtocolMatch, "think", think)
    gtp = engine()
    for line in lines:
        ask(gtp, line)
    ask(gtp, "genmove b")
    (budget,) = budgets
    return budget


def less_margin(seconds: float) -> float:
    return seconds * 0.9 - 0.05  # SAFETY_FRACTION and SAFETY_SECONDS, as pbrain


@pytest.mark.parametrize(
    ("lines", "seconds"),
    [
        ([], None),  # no time_settings: the agent's own limit
        (["time_settings 30 0 0"], 30 / 15),  # absolute: main time over 15 moves
        (["time_settings 0 5 0"], None),  # GTP 2: byo-yomi time with 0 stones is no limit
        (["time_settings 0 0 0"], 0.0),  # no time at all: as fast as possible
        (["time_settings 0 60 10"], 60 / 10),  # Canadian byo-yomi from the start
        (["time_settings 60 30 5"], 60 / 15 + 30 / 5),  # main time, and a byo-yomi move
        (["time_settings 60 30 5", "time_left b 150 0"], 150 / 15 + 30 / 5),
        (["time_settings 60 30 5", "time_left b 12 3"], 12 / 3),  # in byo-yomi: 3 stones
        (["time_settings 60 30 5", "time_left w 12 3"], 60 / 15 + 30 / 5),  # white's clock
        (["time_left b 45 0"], 45 / 15),  # time_left alone is honoured
        (["time_left b 45 0", "clear_board"], None),  # a new game starts the clocks again
        (["time_left b 45 0", "time_settings 150 0 0"], 150 / 15),  # new settings too
        (["kgs-time_settings none"], None),
        (["kgs-time_settings absolute 150"], 150 / 15),
        (["kgs-time_settings canadian 0 60 10"], 60 / 10),
        (["kgs-time_settings byoyomi 0 10 3"], 10.0),  # Japanese: a period per move
        (["kgs-time_settings byoyomi 150 10 3"], 150 / 15 + 10),
        (["kgs-time_settings byoyomi 150 10 3", "time_left b 7 2"], 7.0),
    ],
)
def test_genmove_thinks_for_the_share_of_the_clock(monkeypatch, lines, seconds):
    """Finding 12 of issue 25: the time commands were unknown; the rule is pbrain's."""
    budget = budget_after(monkeypatch, *lines)
    assert budget == (None if seconds is None else pytest.approx(max(0.0, less_margin(seconds))))


def test_time_commands_are_listed_and_known():
    gtp = engine()
    commands = ask(gtp, "list_commands").split("\n")
    assert {"time_settings", "time_left", "kgs-time_settings"} <= set(commands)
    assert ask(gtp, "known_command time_left") == "true"


@pytest.mark.parametrize(
    ("system", "clock", "seconds", "after"),
    [
        (TimeSystem.canadian(60, 30, 5), (10.0, 0), 4.0, (6.0, 0)),  # main time
        (TimeSystem.canadian(60, 30, 5), (1.0, 0), 4.0, (27.0, 4)),  # into byo-yomi
        (TimeSystem.canadian(60, 30, 5), (20.0, 3), 2.0, (18.0, 2)),
        (TimeSystem.canadian(60, 30, 5), (5.0, 1), 2.0, (30.0, 5)),  # a new period
        (TimeSystem.canadian(100, 0, 0), (5.0, 0), 8.0, (0.0, 0)),  # absolute: out of time
        (TimeSystem.byoyomi(0, 10, 3), (10.0, 3), 4.0, (10.0, 3)),  # the period renews
        (TimeSystem.byoyomi(0, 10, 3), (10.0, 3), 12.0, (10.0, 2)),  # an overrun uses one
    ],
)
def test_the_engine_keeps_its_own_clock_between_time_left_commands(system, clock, seconds, after):
    assert system.spend(clock, seconds) == pytest.approx(after)


def test_genmove_counts_its_thinking_against_its_clock():
    gtp = engine()
    ask(gtp, "time_settings 30 0 0")
    start = time.perf_counter()
    ask(gtp, "genmove b")
    elapsed = time.perf_counter() - start
    left, stones = gtp._clock(0)
    assert 30 - elapsed <= left < 30 and stones == 0
    assert gtp._clock(1) == (30, 0)  # white has not moved


def test_genmove_honours_a_small_time_budget():
    """An agent that would think 30 s plays within its share of a 3 s main time."""
    gtp = GtpEngine(MCTSAgent(time_limit=30, seed=0), size=7)
    ask(gtp, "time_settings 0 0 0")
    ask(gtp, "genmove b")  # compiles (or loads) the search, with a budget of 0
    ask(gtp, "time_settings 3 0 0")  # 3 / 15 s = 0.2 s, less the margin: 0.13 s
    start, cpu_start = time.perf_counter(), time.thread_time()
    ask(gtp, "genmove w")
    thinking = time.thread_time() - cpu_start  # CPU time: the machine may be loaded
    elapsed = time.perf_counter() - start
    assert thinking < 0.5, thinking  # far below the agent's own 30 s
    left, _ = gtp._clock(1)
    assert 3 - elapsed <= left < 3  # its clock was charged


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"main": -1}, ValueError, "TimeSystem main must be >= 0 seconds, got -1"),
        ({"overtime": float("nan")}, ValueError, "TimeSystem overtime must be >= 0 seconds"),
        ({"main": "60"}, TypeError, "TimeSystem main must be a number of seconds, got '60'"),
        ({"stones": 2.5}, TypeError, "TimeSystem stones must be an int, got 2.5"),
        ({"stones": -3}, ValueError, "TimeSystem stones must be >= 0, got -3"),
    ],
)
def test_time_systems_refuse_bad_values(arguments, error, message):
    with pytest.raises(error, match=re.escape(message)):
        TimeSystem(True, **arguments)
