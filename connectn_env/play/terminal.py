"""``connectn play --ui terminal``: the game on a text board, moves typed on stdin."""

from __future__ import annotations

import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any, TextIO

from connectn_env.play.compile_notes import CompileNotes
from connectn_env.play.levels import PlayLevels
from connectn_env.play.notation import move_format, move_name, parse_move
from connectn_env.play.session import HINT, MOVE, GameSession
from connectn_env.play.thinking import think
from connectn_env.play.wording import counted, forced
from connectn_env.render.ansi import STONE_CHARS, render_ansi
from connectn_env.render.style import load_style
from connectn_env.safetext import printable

NAMES = (STONE_CHARS[1], STONE_CHARS[2])
COMMANDS = {  # command: what it does (with an AI; without one, undo takes back one move)
    "undo": "take back your last move and the AI's reply",
    "new": "start a new game (you keep your side)",
    "hint": "ask the AI which move it would play for you",
    "analyse": "show the search tree of the AI's last move or hint",
    "switch": "swap sides: you play on with the AI's stones",
    "level [N]": "list the levels, or play level N (from the next game if one is under way)",
    "help": "this list",
    "quit": "leave (end of input too)",
}
PROGRESS_EVERY = 0.25  # seconds between progress lines on a terminal
QUIT, CHANGED, SAME = "quit", "changed", "same"
HELP_WIDTH = 79  # introduction and help lines are wrapped to this many characters


class TerminalGame:
    """Plays a :class:`~connectn_env.play.session.GameSession` on text streams.

    While it runs, each record of the ``connectn_env.compile`` logger (the agent's first
    search compiling) is printed on a line of its own.

    Args:
        session: The game.
        stdin: Where moves and commands are read (default ``sys.stdin``).
        stdout: Where the board and messages go (default ``sys.stdout``).
        opponent: How the agent is introduced (for example its spec).
        title: The game's name for the first line (default: the game's ``title``, for
            example ``"Hex 7 x 7 (swap rule on)"``).
        levels: The levels of ``connectn play --level``: the opponent is the level played;
            ``level`` lists them, ``level N`` changes it (at once between games, else from
            the next game).
    """

    def __init__(
        self,
        session: GameSession,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        opponent: str = "the AI",
        title: str | None = None,
        levels: PlayLevels | None = None,
    ) -> None:
        if not isinstance(session, GameSession):
            raise TypeError(f"session must be a GameSession, got {type(session).__name__}")
        if not isinstance(opponent, str):
            raise TypeError(f"opponent must be a str, got {type(opponent).__name__}")
        if levels is not None and (not isinstance(levels, PlayLevels) or session.agent is None):
            raise TypeError(f"levels need PlayLevels and a session with an agent, got {levels!r}")
        self.session = session
        self.levels = levels
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        self.opponent = opponent
        self.title = session.game.title if title is None else str(title)
        self._last_progress = 0.0

    def run(self) -> int:
        """Play until ``quit`` or the end of input; returns the exit status (0; 1 if the
        agent failed; 130 on Ctrl-C)."""
        try:
            with CompileNotes(self._note):
                return self._loop()
        except KeyboardInterrupt:
            self._say("\nInterrupted: bye.")
            return 130

    def _loop(self) -> int:
        """The intro, then moves and commands until the game is left."""
        session = self.session
        self._say(self._intro())
        session.prepare_agent()  # compiles while the intro is read (announced once)
        self._show()
        while True:
            if session.ai_turn:
                if not self._agent_moves(MOVE):
                    return 1
                self._show()
                continue
            line = self._read()
            if line is None:
                self._say("End of input: bye.")
                return 0
            outcome = self._command(line)
            if outcome == QUIT:
                self._say("Bye.")
                return 0
            if outcome == CHANGED:
                self._show()

    # --- input ---------------------------------------------------------------------------

    def _read(self) -> str | None:
        session = self.session
        if session.over:
            prompt = "Game over. new, undo or quit: "
        else:
            player = session.state.current_player()
            who = "Your move" if session.agent is not None else "Move"
            prompt = f"{who} ({NAMES[player]}): "
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self._say("")
            return None
        if not self.stdin.isatty():  # echo piped input, so the transcript reads well
            self._say(line.strip())
        return line.strip()

    def _command(self, line: str) -> str:
        """Carry out one line of input: a command or a move."""
        session = self.session
        word = line.lower()
        if word in ("quit", "exit", "q"):
            return QUIT
        if word in ("help", "?", ""):
            self._say(self._help(explained=True))
            return SAME
        if word == "undo":
            taken = session.undo()
            if not taken:
                self._say("Nothing to undo.")
                return SAME
            self._say(f"Took back {counted(taken, 'move')}.")
            return CHANGED
        if word == "new":
            session.new_game()
            said = "" if self.levels is None else self._level_change(self.levels.new_game)
            self._say(f"New game. {said}".strip())
            return CHANGED
        if word.split()[:1] == ["level"]:
            return self._level(word.split()[1:])
        if word == "switch":
            session.switch_sides()
            self._say(f"You now play {NAMES[session.human_player]}.")
            return CHANGED
        if word == "hint":
            return self._hint()
        if word in ("analyse", "analyze"):
            return self._analyse()
        if session.over:
            self._say(f"The game is over: type new, undo or quit (not {line!r}).")
            return SAME
        try:
            action = parse_move(session.state, line)
        except ValueError as error:
            self._say(f"{error}.")
            if word.isalpha():  # perhaps a mistyped command
                self._say(self._help())
            return SAME
        session.play(action)
        return CHANGED

    def _level(self, words: list[str]) -> str:
        """``level``: the levels, the one played marked; ``level N``: play level N."""
        if self.levels is None:
            self._say(
                f"No levels: the opponent is {self.opponent}. connectn play GAME --level N "
                "plays a level of the game's ladder."
            )
        elif not words:
            self._say(self._level_list())
        elif len(words) > 1 or not words[0].isascii() or not words[0].isdigit():
            top = len(self.levels.rungs)
            self._say(f"level takes a number from 1 to {top}, not {' '.join(words)!r}.")
        else:
            level = int(words[0])
            self._say(self._level_change(lambda session: self.levels.choose(level, session)))
        return SAME

    def _level_change(self, change: Callable[[GameSession], str]) -> str:
        """What ``change(session)`` did to the level, or why it did nothing."""
        try:
            return change(self.session)
        except ValueError as error:
            return f"{error}."

    def _level_list(self) -> str:
        levels = self.levels
        lines = [f"Levels of the {levels.key} ladder (type level N to play level N):"]
        width = max(len(rung.label) for rung in levels.rungs)
        for number, rung in enumerate(levels.rungs, start=1):
            mark = ">" if number == levels.level else "+" if number == levels.pending else " "
            lines.append(f"{mark} {number:2d}  {rung.label:<{width}}  Elo {rung.rating:+5.0f}")
        lines.append(levels.describe())
        return "\n".join(lines)

    def _hint(self) -> str:
        if self.session.agent is None:
            self._say("No AI to ask: the opponent is a person.")
        elif self.session.over:
            self._say("The game is over: no hint.")
        else:
            self._agent_moves(HINT)
        return SAME

    def _analyse(self) -> str:
        """Print the tree of the latest search (the AI's move or a hint)."""
        analysis = self.session.analysis
        tree_text = getattr(getattr(analysis, "result", None), "tree_text", None)
        if tree_text is None:
            self._say("No search to analyse yet: it appears after the AI's first search.")
            return SAME
        who = "the AI's move" if analysis.kind == MOVE else "your hint"
        self._say(f"Search tree of {who} at move {len(analysis.moves) + 1}:\n{tree_text()}")
        return SAME

    # --- the agent -----------------------------------------------------------------------

    def _agent_moves(self, kind: str) -> bool:
        """Ask the agent for its move (and play it) or for a hint; False if it failed."""
        session = self.session
        moves = session.moves
        mover = NAMES[session.state.current_player()]
        if kind == MOVE:
            self._say(f"AI ({mover}) is thinking...")
        known = session.proven()  # what an earlier search proved here, if it did
        try:
            action, result = think(session.agent, session.position_copy(), progress=self._progress)
            session.note_answer(kind, moves, action, result)
            if kind == MOVE:
                session.play(action)
        except Exception as error:  # any failure of the agent ends the game with a message
            self._say(f"The AI failed: {type(error).__name__}: {error}")
            return False
        self._clear_progress()
        details = _details(result, getattr(result, "elapsed", 0.0), kind, known)  # not the compile
        name = move_name(session.game, action)
        if kind == MOVE:
            self._say(f"AI ({mover}) plays {name}{details}")
        else:
            self._say(f"Hint: {name}{details}{_top_moves(session, result)}")
        return True

    def _progress(self, simulations: int, elapsed: float, root_value: float) -> None:
        if not self.stdout.isatty():
            return
        now = time.monotonic()
        if now - self._last_progress < PROGRESS_EVERY:
            return
        self._last_progress = now
        chance = (root_value + 1) / 2
        self.stdout.write(f"\r  {counted(simulations, 'simulation')}, win chance {chance:.0%}  ")
        self.stdout.flush()

    def _clear_progress(self) -> None:
        if self.stdout.isatty():
            self.stdout.write("\r\033[K")
            self.stdout.flush()

    def _note(self, text: str) -> None:
        """A compile logger's record, on a line of its own."""
        self._clear_progress()
        self._say(f"  {text}")

    # --- output --------------------------------------------------------------------------

    def _show(self) -> None:
        session = self.session
        self._say(render_ansi(session.state, status=session.over))  # the prompt says who moves
        score = session.score_text(NAMES)
        if score is not None:
            self._say(f"Discs: {score}")
        result = session.result_text(NAMES)
        if result is not None:
            self._say(f"{result} Type new for another game, undo to take back, quit to leave.")

    def _intro(self) -> str:
        session = self.session
        if session.agent is None:
            sides = f"Two players at one board: {NAMES[0]} moves first."
        else:
            first = "first" if session.human_player == 0 else "second"
            levels = self.levels
            opponent = f"Opponent: {self.opponent}" if levels is None else levels.describe()
            sides = f"You play {NAMES[session.human_player]} (you move {first}). {opponent}"
        game = self.session.game
        legend = load_style(game.render_style).legend(game.rows, game.cols, NAMES)
        lines = [f"{self.title}: {sides}", *([legend] if legend else [])]
        return "\n".join([*(_wrap(line) for line in lines), self._help()])

    def _help(self, *, explained: bool = False) -> str:
        """How to enter a move and the commands: their names, or (``explained``) one line
        each saying what they do."""
        commands = dict(COMMANDS)
        if self.session.agent is None:
            del commands["hint"], commands["analyse"]
            commands["undo"] = "take back the last move"
        if self.levels is None:
            del commands["level [N]"]
        lines = [f"Enter {move_format(self.session.game)}."]
        if explained:
            width = max(len(name) for name in commands)
            lines += ["Commands:", *(f"  {c:<{width}}  {what}" for c, what in commands.items())]
        else:
            lines.append(f"Commands: {', '.join(commands)}.")
        return "\n".join(_wrap(line) for line in lines)

    def _say(self, text: str) -> None:
        """Write ``text`` and a newline; control characters (in names, an agent's error
        message) are escaped, so none reaches the terminal."""
        self.stdout.write(printable(text, newlines=True) + "\n")
        self.stdout.flush()


def _wrap(text: str) -> str:
    """``text`` wrapped to :data:`HELP_WIDTH` characters, continuation lines indented."""
    return textwrap.fill(text, HELP_WIDTH, subsequent_indent="  ", break_on_hyphens=False)


def _details(result: Any, elapsed: float, kind: str, known: str | None = None) -> str:
    """``" (1,234 simulations in 0.5 s, its win chance 62%)."``, or ``"."`` without a search;
    a result proven by this search or ``known`` (proven by an earlier one) comes before any
    estimate: ``"a forced win for you"``."""
    if result is None:
        return "."
    mover = "it" if kind == MOVE else "you"
    proven = result.proven or known
    if proven is not None:
        outlook = forced(proven, mover)
    else:
        whose = "its" if kind == MOVE else "your"
        outlook = f"{whose} win chance {(result.root_value + 1) / 2:.0%}"
    return f" ({counted(result.simulations, 'simulation')} in {elapsed:.1f} s, {outlook})."


def _top_moves(session: GameSession, result: Any, count: int = 3) -> str:
    """``" Most searched: 4 62%, 3 20%."``; nothing without a search or when it ran no
    simulation (a book or solver answer: there are no shares to give)."""
    if result is None or not result.simulations:
        return ""
    order = [int(a) for a in result.pi.argsort()[::-1][:count] if result.pi[a] > 0]
    shares = ", ".join(f"{move_name(session.game, a)} {result.pi[a]:.0%}" for a in order)
    return f" Most searched: {shares}."


def run_terminal(
    session: GameSession,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    opponent: str = "the AI",
    title: str | None = None,
    levels: PlayLevels | None = None,
) -> int:
    """Play ``session`` on text streams; returns the exit status (see :meth:`TerminalGame.run`)."""
    return TerminalGame(
        session, stdin=stdin, stdout=stdout, opponent=opponent, title=title, levels=levels
    ).run()
