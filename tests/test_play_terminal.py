"""``connectn play --ui terminal`` driven through stdin: whole games, bad input explained,
hints, undo, the swap move, end of input, records, and the automatic fallback from the
window to the terminal."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from pythonpath_helpers import child_environment

import agents
from connectn_env.play import _recorder
from connectn_env.play.session import GameSession
from connectn_env.play.terminal import COMMANDS, run_terminal
from connectn_env.records import GameConfig, load_record

RESULTS = ("You win!", "The AI wins.", "Draw.")
ALL_CELLS = [f"{c}{r}" for r in "123" for c in "abc"]


def connectn(*args, stdin="", env=None, timeout=120):
    environment = child_environment(SDL_VIDEODRIVER="dummy", **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
    )


def terminal_game(game, agent, lines, *, human_player=0, **params):
    session = GameSession(GameConfig(game, params).make_env(), agent, human_player=human_player)
    out = io.StringIO()
    status = run_terminal(session, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    return status, out.getvalue(), session


def test_a_whole_game_through_the_command_line():
    # Bad input, a1 twice (taken), then every cell in turn: taken ones are refused, so the
    # game ends whatever the AI plays.
    lines = ["zz", "d9", "hello", "", "a1", "a1", *ALL_CELLS, "quit"]
    run = connectn(
        "play", "tictactoe", "--ui", "terminal", "--opponent", "random", "--seed", "1",
        stdin="\n".join(lines) + "\n",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "You play X (you move first). Opponent: random\n" in out
    assert "cell name 'zz' must be column letters then a row number" in out
    assert "cell 'd9' is off the 3 x 3 board (a1 to c3)" in out
    assert "Commands: undo, new, hint, analyse, switch, help, quit." in out
    assert "a1 is already taken: choose an empty cell" in out
    assert "AI (O) plays" in out
    assert sum(result in out for result in RESULTS) == 1
    assert "The game is over: type new, undo or quit" in out  # cells typed after the end
    assert out.rstrip().endswith("Bye.")


def test_end_of_input_quits_cleanly():
    run = connectn("play", "connect_four", "--ui", "terminal", "--opponent", "random", stdin="")
    assert run.returncode == 0, run.stderr
    assert "End of input: bye." in run.stdout


def test_auto_falls_back_to_the_terminal_without_a_display():
    run = connectn(
        "play", "tictactoe", "--opponent", "random", "--ai-first", stdin="quit\n",
        env={"DISPLAY": "", "WAYLAND_DISPLAY": ""},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "No display available" in run.stdout
    assert "You play O (you move second)" in run.stdout
    assert "AI (X) plays" in run.stdout


def test_record_saves_the_finished_game(tmp_path):
    run = connectn(
        "play", "tictactoe", "--ui", "terminal", "--opponent", "random", "--seed", "3",
        "--record", str(tmp_path), stdin="\n".join(ALL_CELLS) + "\n",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1 and "Game saved" in run.stderr
    record = load_record(files[0])
    assert record.players == ("human", "random")
    assert record.result != "unfinished"
    assert len(record.moves) >= 5


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("afile", "afile is a regular file, not a directory; --record needs a directory"),
        ("afile/sub", "--record afile/sub: afile is a regular file, not a directory"),
        ("/proc/nope", "--record /proc/nope: "),  # not writable, or (as root) cannot be made
    ],
)
def test_record_that_cannot_be_a_directory_is_refused_before_the_game(tmp_path, record, message):
    if record.startswith("/proc") and not os.path.isdir("/proc"):
        pytest.skip("no /proc here")
    (tmp_path / "afile").write_text("kept\n")
    run = subprocess.run(
        [sys.executable, "-m", "connectn_env.cli", "play", "tictactoe", "--ui", "terminal",
         "--opponent", "random", "--record", record],
        input="\n".join(ALL_CELLS) + "\n", capture_output=True, text=True, timeout=120,
        cwd=tmp_path, env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.startswith(f"connectn play: error: {message}")
    assert run.stderr.count("\n") == 1  # one line, no traceback
    assert run.stdout == ""  # no game was played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    assert (tmp_path / "afile").read_text() == "kept\n"


def test_a_game_that_cannot_be_saved_is_said_and_the_session_goes_on(tmp_path, capsys):
    session = GameSession(GameConfig("tictactoe").make_env(), None, human_player=0)
    for action in (0, 3, 1, 4, 2):
        session.play(action)
    (tmp_path / "afile").write_text("kept\n")  # where the folder was when the game began
    _recorder(tmp_path / "afile", "human", None)(session)
    assert capsys.readouterr().err == f"Game not saved: {tmp_path / 'afile'}: File exists\n"
    assert (tmp_path / "afile").read_text() == "kept\n"


def test_columns_hint_undo_and_new_in_connect_four():
    agent = agents.MCTSAgent(simulations=50, seed=0)
    lines = ["0", "8", "four", "4", "hint", "undo", "undo", "4", "new", "quit"]
    status, out, session = terminal_game("connect_four", agent, lines)
    assert status == 0
    assert "there is no column 0: enter a column number, 1 to 7." in out
    assert "there is no column 8" in out
    assert "'four' is not a column" in out
    assert "Hint: " in out and "Most searched:" in out
    assert "Took back 2 moves." in out and "Nothing to undo." in out
    assert "New game." in out
    assert session.moves == ()


def test_analyse_prints_the_tree_of_the_latest_search():
    # exact=False: no opening book (which answers d without a search), so the reply is searched
    agent = agents.MCTSAgent(simulations=400, seed=0, exact=False)
    status, out, _ = terminal_game("connect_four", agent, ["analyse", "4", "analyze", "quit"])
    assert status == 0
    assert "No search to analyse yet" in out
    tree = out.split("Search tree of the AI's move at move 2:\n")[1]
    assert tree.startswith("root: 400 visits") and "principal variation: " in tree


def test_column_full_is_explained():
    status, out, session = terminal_game(
        "connect_n", None, ["1", "1", "1", "2", "quit"], rows=2, cols=3, n=3
    )
    assert status == 0
    assert "Two players at one board" in out
    assert "column 1 is full: choose another column." in out
    assert session.moves == (0, 0, 1)


def test_hex_swap_is_typed_as_swap():
    agent = agents.RandomAgent(seed=0)
    status, out, session = terminal_game(
        "hex", agent, ["swap", "quit"], human_player=1, rows=3, cols=3, swap=True
    )
    assert status == 0
    assert "or 'swap' (second move only)" in " ".join(out.split())  # maybe wrapped
    assert session.moves[1] == 9


def test_a_failing_agent_ends_the_game_with_a_message():
    class Broken:
        def act(self, env):
            raise RuntimeError("no idea")

    status, out, _ = terminal_game("tictactoe", Broken(), ["b2"])
    assert status == 1
    assert "The AI failed: RuntimeError: no idea" in out


def test_switch_hands_the_persons_side_to_the_ai():
    agent = agents.RandomAgent(seed=0)
    status, out, session = terminal_game("tictactoe", agent, ["b2", "switch", "quit"])
    assert status == 0
    assert "You now play O." in out
    assert session.human_player == 1
    assert len(session.moves) == 3  # b2, the AI's reply as O, then the AI's move as X
    assert session.moves[0] == 4


def test_hex_intro_names_the_game_and_the_sides_in_short_lines():
    run = connectn(
        "play", "hex", "--size", "11", "--swap", "--ui", "terminal", "--opponent", "random",
        stdin="help\nswap\nquit\n",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.startswith("Hex 11 x 11 (swap rule on): You play X (you move first). Opponent:")
    assert "X connects top to bottom (row 1 to 11), O left to right (column a to k)." in out
    assert "swap is only allowed as the second move of the game" in out
    assert max(len(line) for line in out.splitlines()) <= 79


def test_swap_without_the_swap_rule_is_explained():
    status, out, session = terminal_game("hex", None, ["swap", "quit"], rows=7, cols=7)
    assert status == 0
    assert out.startswith("Hex 7 x 7 (swap rule off): Two players at one board")
    assert "this game has no swap rule: enter a cell" in out
    assert "must be column letters" not in out
    assert session.moves == ()


def test_titles_of_the_other_games():
    for game, params, title in [
        ("connect_four", {}, "Connect Four"),
        ("tictactoe", {}, "Tic-tac-toe"),
        ("connect_n", {"rows": 5, "cols": 8, "n": 3, "gravity": False}, "Connect 3 on 5 x 8"),
        ("gomoku", {"size": 9}, "Gomoku 9 x 9 (freestyle)"),
    ]:
        _, out, _ = terminal_game(game, None, ["quit"], **params)
        assert out.startswith(f"{title}"), out.splitlines()[0]
        assert "connects" not in out  # sides are Hex's


def test_othello_prints_the_disc_count_and_names_illegal_moves_without_numbers():
    status, out, _ = terminal_game("othello", None, ["a1", "d3", "pass", "quit"])
    assert status == 0
    assert "Discs: X 2, O 2" in out
    assert "Discs: X 4, O 1" in out  # after d3
    assert "a1 is illegal: it flips no disc." in out
    assert "pass is illegal: it is only legal without a move." in out
    assert "action " not in out


class _CompilingAgent:
    """Announces a compile on the compile logger before it moves."""

    def __init__(self):
        self.agent = agents.RandomAgent(seed=0)

    def act(self, env):
        log = logging.getLogger("connectn_env.compile")
        log.info("compiling Tic-tac-toe search kernels (first use, cached afterwards)")
        log.info("compiled Tic-tac-toe search kernels in 0.1 s")
        return self.agent.act(env)


def test_compile_announcements_are_printed_one_line_each():
    logger = logging.getLogger("connectn_env.compile")
    before = (list(logger.handlers), logger.level)
    status, out, _ = terminal_game("tictactoe", _CompilingAgent(), ["quit"], human_player=1)
    assert status == 0
    lines = out.splitlines()
    compiling = lines.index("  compiling Tic-tac-toe search kernels (first use, cached afterwards)")
    assert lines[compiling + 1] == "  compiled Tic-tac-toe search kernels in 0.1 s"
    assert lines[compiling + 2].startswith("AI (X) plays")
    assert (list(logger.handlers), logger.level) == before  # attached only while playing


class ScriptedSearch:
    """A search agent whose results are given: (action, root proof, proven moves) per call."""

    def __init__(self, answers):
        self.answers = list(answers)

    def act(self, env):
        return self.search(env).action

    def search(self, env):
        import numpy as np

        action, proven, proven_moves = self.answers.pop(0)
        pi = np.zeros(env.game.num_actions)
        pi[action] = 1.0
        return SimpleNamespace(
            action=action, proven=proven, proven_moves=proven_moves, root_value=-0.1,
            simulations=1, pi=pi,
        )  # fmt: skip


def test_a_hint_after_the_ai_proved_its_win_says_the_forced_loss():
    # The AI's search proved its move 4 wins; the hint's own search proves nothing.
    agent = ScriptedSearch([(3, "win", {3: "win"}), (2, None, {})])
    status, out, _ = terminal_game("connect_four", agent, ["1", "hint", "quit"])
    assert status == 0
    assert "AI (O) plays 4 (1 simulation in" in out and "a forced win for it)." in out
    assert "Hint: 3 (1 simulation in" in out and "a forced loss for you)." in out
    assert "win chance" not in out and "1 simulations" not in out


def test_the_proof_of_a_search_holds_for_its_position_and_the_next_only():
    session = GameSession(GameConfig("tictactoe").make_env(), agents.RandomAgent(seed=0))
    assert session.proven() is None
    result = SimpleNamespace(proven="win", proven_moves={4: "win", 0: "draw"})
    session.note_answer("hint", (), 4, result)
    assert session.proven() == "win"
    session.play(4)
    assert session.proven() == "loss"  # the move proven to win, seen by the one who answers
    session.undo()
    session.play(0)
    assert session.proven() == "draw"
    session.play(1)
    assert session.proven() is None


def test_one_prompt_per_turn_and_help_says_what_each_command_does():
    status, out, _ = terminal_game("tictactoe", agents.RandomAgent(seed=0), ["help", "quit"])
    assert status == 0
    assert "to move" not in out  # the board's status line: the prompt says it
    assert out.count("Your move (X): ") == 2
    help_text = out.split("Your move (X): help\n")[1]
    for command, what in COMMANDS.items():
        if command != "level [N]":
            assert re.search(rf"^  {re.escape(command)} +{re.escape(what)}$", help_text, re.M)
    assert "level" not in help_text  # no levels without --level


def test_the_board_of_a_finished_game_keeps_its_result_line():
    lines = ["a1", "a2", "b1", "b2", "c1", "quit"]  # X: a row; the other side: column b
    status, out, _ = terminal_game("tictactoe", None, lines)
    assert status == 0 and "player_0 (X) wins after 5 moves" in out


def test_docs_name_every_terminal_command():
    text = (Path(__file__).parents[1] / "docs" / "play.md").read_text()
    for command in COMMANDS:
        assert f"`{command.split()[0]}" in text


class _SlowToPrepare(agents.MCTSAgent):
    """A search agent whose prepare (its compile) takes a while before the search's clock."""

    def prepare(self, env, *, later_moves=False):
        super().prepare(env, later_moves=later_moves)  # the compile, on a cold cache
        time.sleep(0.3)


def test_the_move_says_the_thinking_time_not_the_compile_wait():
    agent = _SlowToPrepare(simulations=20, seed=0)
    status, out, session = terminal_game("tictactoe", agent, ["quit"], human_player=1)
    assert status == 0
    said = next(line for line in out.splitlines() if line.startswith("AI (X) plays"))
    thinking = session.analysis.result.elapsed
    assert thinking < 0.3 and f"simulations in {thinking:.1f} s" in said, said


def test_a_hint_known_without_a_search_gives_no_shares():
    # A book or solver answer runs no simulation: "Most searched: a3 100%" misled.
    agent = ScriptedSearch([(2, "draw", {2: "draw"})])  # (action, proof, proven moves)
    real_search = agent.search

    def search(env):
        result = real_search(env)
        result.simulations = 0
        return result

    agent.search = search
    status, out, _ = terminal_game("tictactoe", agent, ["hint", "quit"])
    assert status == 0
    assert "Hint: c1 (0 simulations in" in out and "a forced draw)." in out
    assert "Most searched" not in out
