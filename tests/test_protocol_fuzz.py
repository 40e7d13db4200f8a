"""Hostile peers for ``connectn gtp hex`` and ``connectn pbrain``, in process (issue 25), and
the one parser that every number they send goes through (``parse_integer``).

Hypothesis writes whole sessions: known commands and random words, with arguments that are
small numbers, numbers of thousands of digits (past Python's int-string limit), non-ASCII
digits (``²``, ``١``, ``１``), signs, NUL bytes and other control characters, random text;
the last line has no newline (end of input in the middle of a line). Each session runs
through the engine's own ``run`` loop. Every line that the protocol answers gets exactly one
answer (GTP: every line with a command; pbrain: every command but ``INFO``, ``END`` and the
lines of a ``BOARD`` block before ``DONE``), in the protocol's grammar, never an internal
error; afterwards the engine still answers a known-good command. The counts of lines tried
and answered well are printed at the end of the module (``pytest -s``).
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agents import RandomAgent
from connectn_env.protocols.gtp import GtpEngine
from connectn_env.protocols.numbers import parse_integer
from connectn_env.protocols.pbrain import PbrainEngine

GTP_RESPONSE = re.compile(r"([=?])(\d*) (.*?)\n\n", re.S)
GTP_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # GTP 2 section 2.3: removed
PBRAIN_MOVE = re.compile(r"\d+,\d+")
PBRAIN_ANSWERS = ("OK", "ERROR", "UNKNOWN", 'name="connectn",')
NON_ASCII_DIGITS = "\u00b2\u00b3\u00b9\u0660\u0661\u06f3\u0967\uff10\uff11\U0001d7d7"
HUGE = "1" * 5000  # past Python's int-string limit (4,300 digits)
COUNTS: Counter[str] = Counter()


class Transcript:
    """The engine's stdin and stdout at once: yields the session's lines (as a text stream
    splits them) and files each write under the line being answered."""

    def __init__(self, session: str) -> None:
        self.session = session
        self.lines: list[str] = []
        self.writes: list[list[str]] = []

    def __iter__(self) -> Iterator[str]:
        for line in io.StringIO(self.session):
            self.lines.append(line)
            self.writes.append([])
            yield line

    def write(self, text: str) -> int:
        self.writes[-1].append(text)
        return len(text)

    def flush(self) -> None:
        pass


def numbers() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-3, 40).map(str),
        st.sampled_from([19, 4301, 5000]).map(lambda digits: "9" * digits),  # int() raises
        st.text(alphabet="0123456789+-_" + NON_ASCII_DIGITS, min_size=1, max_size=6),
        st.sampled_from(["2147483647", "-500", "0", "007", "1e3", "0x1f", "\u00b2", "1\x00"]),
    )


def arguments(words: list[str]) -> st.SearchStrategy[str]:
    """One command line: a head, then arguments joined by spaces, commas, tabs or NULs."""
    field = st.one_of(numbers(), st.text(max_size=10), st.sampled_from(words))
    separator = st.sampled_from([" ", " ", ",", ", ", "\t", "\x00", "\u3000", "\r"])
    return st.lists(st.tuples(separator, field), max_size=4).map(
        lambda parts: "".join(f"{sep}{text}" for sep, text in parts)[1:]
    )


def templated(templates: list[str]) -> st.SearchStrategy[str]:
    """A well-formed command of the protocol with each ``{}`` a number from
    :func:`numbers`: valid ones play, hostile ones must be refused."""
    return st.sampled_from(templates).flatmap(
        lambda template: st.lists(
            numbers(), min_size=template.count("{}"), max_size=template.count("{}")
        ).map(lambda values: template.format(*values))
    )


def sessions(
    heads: list[str], words: list[str], templates: list[str], openings: list[str]
) -> st.SearchStrategy[str]:
    """An opening, then lines joined by newlines; the last has no newline (end of input
    in the middle of a line)."""
    head = st.one_of(st.sampled_from(heads), st.sampled_from(heads), st.text(max_size=8))
    command = st.tuples(head, st.sampled_from([" ", " ", " ", "", "\x00 "]), arguments(words))
    line = st.one_of(command.map("".join), templated(templates), st.text(max_size=20))
    body = st.lists(line, min_size=2, max_size=25).map("\n".join)
    return st.tuples(st.sampled_from(openings), body).map("".join)


GTP_HEADS = [
    *("boardsize", "clear_board", "play", "genmove", "undo", "showboard", "time_settings"),
    *("time_left", "kgs-time_settings", "all_legal_moves", "known_command", "final_score"),
    *("name", "1 play", "2 genmove", "99999999999999999999 name", "\u00b2 name", "quit"),
]
GTP_WORDS = ["b", "w", "black", "c3", "a1", "e5", "swap-pieces", "resign", "none", "byoyomi"]
GTP_TEMPLATES = [
    *("boardsize {}", "boardsize {} {}", "play b c{}", "play w a{}", "genmove b", "undo"),
    *("time_settings {} {} {}", "time_left b {} {}", "time_left w {} {}", "{} name"),
    *("kgs-time_settings absolute {}", "kgs-time_settings byoyomi {} {} {}", "{} genmove w"),
]
PBRAIN_HEADS = [
    *("START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "DONE", "INFO", "TAKEBACK"),
    *("ABOUT", "END", "SWAP2BOARD", "PLAY", "INFO time_left", "INFO timeout_turn", "INFO rule"),
    *("START 7", "1,1,1", "2,2,2", "3,3,\u00b2"),
]
PBRAIN_WORDS = ["7", "10,10", "1,1", "1,1,1", "timeout_match", "rule", "DONE"]
PBRAIN_TEMPLATES = [
    *("START {}", "RECTSTART {},{}", "TURN {},{}", "TAKEBACK {},{}", "BOARD", "{},{},{}"),
    *("DONE", "BEGIN", "RESTART", "INFO time_left {}", "INFO timeout_turn {}", "INFO rule {}"),
]


@pytest.mark.parametrize(
    ("text", "signed", "value"),
    [("0", False, 0), ("007", False, 7), ("9" * 18, False, 10**18 - 1), ("-500", True, -500)],
)
def test_parse_integer_reads_ascii_digits(text, signed, value):
    assert parse_integer(text, signed=signed) == value


@pytest.mark.parametrize(
    ("text", "signed", "shown"),
    [
        ("9" * 19, False, "9" * 19),  # 19 digits: more than MAX_DIGITS
        (HUGE, True, "1" * 20 + "..."),  # past the int-string limit, quoted in part
        ("-5", False, "-5"),  # a sign only where the protocol allows one
        ("+5", True, "+5"),
        ("--5", True, "--5"),
        ("\u00b2", False, "\u00b2"),  # str.isdigit() is True, int() raises
        ("\uff11", False, "\uff11"),  # int() would read it as 1
        ("1_000", False, "1_000"),  # int() would read it as 1000
        (" 1", False, " 1"),
        ("1\x00", False, "1\\x00"),  # control characters are shown escaped
        ("", False, ""),
    ],
)
def test_parse_integer_refuses_everything_else(text, signed, shown):
    with pytest.raises(ValueError, match=re.escape(f"'{shown}' is not a number of 1 to 18")):
        parse_integer(text, signed=signed)


def test_parse_integer_takes_only_text():
    with pytest.raises(TypeError, match="parse_integer reads a str, got bytes"):
        parse_integer(b"12")


def count_kinds(protocol: str, line: str) -> None:
    """Tally the hostile kinds of input that ``line`` holds, for the module's report."""
    COUNTS[f"{protocol} lines tried"] += 1
    kinds = {
        "huge numbers": re.search(r"[0-9]{19}", line),
        "non-ASCII digits": any(char in NON_ASCII_DIGITS for char in line),
        "NUL bytes": "\x00" in line,
        "cut by end of input": not line.endswith("\n"),
    }
    COUNTS.update(f"{protocol} lines with {kind}" for kind, found in kinds.items() if found)


def gtp_answers(line: str) -> bool:
    """Whether GTP answers ``line``: it holds a command once control characters and the
    comment are removed (GTP 2 section 2.3)."""
    return bool(GTP_CONTROL.sub("", line.split("#", 1)[0]).replace("\t", " ").split())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(GTP_HEADS, GTP_WORDS, GTP_TEMPLATES, ["", "play b c3\n"]), st.booleans())
@example(f"boardsize {HUGE}\nname", False)  # issue 25, finding 2
@example(f"play w c{HUGE}\n{HUGE} name\ntime_left b {HUGE} 0", True)
def test_gtp_answers_every_command_once_and_goes_on(session, swap):
    gtp = GtpEngine(RandomAgent(seed=0), size=5, swap=swap, version="fuzz")
    transcript = Transcript(session)
    assert gtp.run(transcript, transcript) == 0
    for line, writes in zip(transcript.lines, transcript.writes, strict=True):
        count_kinds("gtp", line)
        assert len(writes) == int(gtp_answers(line)), (line, writes)
        for response in writes:
            match = GTP_RESPONSE.fullmatch(response)
            assert match, (line, response)
            COUNTS[f"gtp answers {match.group(1)}"] += 1
            assert not match.group(3).startswith("internal error"), (line, response)
        COUNTS["gtp lines answered well"] += 1
    if not gtp.finished:  # not stopped by quit: the engine goes on
        assert gtp.handle("name") == "= connectn\n\n"
        assert GTP_RESPONSE.fullmatch(gtp.handle("showboard"))


def pbrain_answers(text: str, in_block: bool, block_opened: bool) -> int:
    """How many lines (DEBUG lines aside) the Gomocup protocol answers to ``text``."""
    if not text:
        return 0
    if in_block:
        return int(text.upper() == "DONE")  # board lines and END are silent
    word = text.partition(" ")[0].upper()
    return int(not (word in ("INFO", "END") or block_opened))


def assert_pbrain_answer(answers: list[str], expected: int, line: str) -> None:
    debug = [answer for answer in answers if answer.startswith("DEBUG ")]
    others = answers[len(debug) :]
    assert len(others) == expected, (line, answers)
    for answer in others:
        assert answer.startswith(PBRAIN_ANSWERS) or PBRAIN_MOVE.fullmatch(answer), (line, answer)
        assert "internal error" not in answer, (line, answer)
        COUNTS["pbrain answers " + ("move" if PBRAIN_MOVE.fullmatch(answer) else answer[:2])] += 1
        assert not debug or PBRAIN_MOVE.fullmatch(answer), (line, answers)  # DEBUG, then a move
    assert all("\n" not in answer and "\r" not in answer for answer in answers), answers


class BlockWatcher(PbrainEngine):
    """A brain that notes, for each line, whether a BOARD block was open before and after."""

    def __init__(self) -> None:
        super().__init__(RandomAgent(seed=0), version="fuzz")
        self.blocks: list[tuple[bool, bool]] = []

    def handle(self, line: str) -> list[str]:
        before = self._block is not None
        answers = super().handle(line)
        self.blocks.append((before, self._block is not None and not before))
        return answers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sessions(PBRAIN_HEADS, PBRAIN_WORDS, PBRAIN_TEMPLATES, ["", "START 7\n", "START 7\nTURN 3,3\n"])
)
@example(f"START 7\nTURN 1,{HUGE}\nTAKEBACK {HUGE},1\nRECTSTART {HUGE},7")  # finding 2
@example("START 7\nBOARD\n1,1,\u00b2\nDONE\nBOARD\n1,1")  # finding 3, then end of input
def test_pbrain_answers_every_command_once_and_goes_on(session):
    brain = BlockWatcher()
    transcript = Transcript(session)
    assert brain.run(transcript, transcript) == 0
    for line, writes, (in_block, opened) in zip(
        transcript.lines, transcript.writes, brain.blocks, strict=True
    ):
        count_kinds("pbrain", line)
        answers = [text.removesuffix("\n") for text in writes]
        assert all(text.endswith("\n") for text in writes)
        assert_pbrain_answer(answers, pbrain_answers(line.strip(), in_block, opened), line)
        COUNTS["pbrain lines answered well"] += 1
    if not brain.finished:  # not stopped by END: the brain goes on
        if brain._block is not None:  # end of input inside BOARD: DONE closes it
            assert_pbrain_answer(brain.handle("DONE"), 1, "DONE")
        (about,) = brain.handle("ABOUT")
        assert about.startswith('name="connectn", version="fuzz"')


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    yield
    print(
        "\nprotocol fuzz: " + ", ".join(f"{key}: {value}" for key, value in sorted(COUNTS.items()))
    )
