"""The pygame window of ``connectn play``: the board, the move list, a status panel and
the keys."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pygame

from connectn_env.games import GameState
from connectn_env.play.compile_notes import CompileNotes
from connectn_env.play.frame import PAD, BoardFrame, explain_no_window, run_frames
from connectn_env.play.levels import PlayLevels
from connectn_env.play.movelist import LIST_WIDTH, MoveList
from connectn_env.play.notation import forced_special_action, illegal_move_reason, swap_action
from connectn_env.play.session import HINT, MOVE, GameSession
from connectn_env.play.thinking import Status, Thinker
from connectn_env.play.wording import counted, forced
from connectn_env.render.canvas import Canvas
from connectn_env.render.pygame_renderer import PygameRenderer
from connectn_env.render.theme import TEXT

HEAT = (255, 120, 0)  # analysis overlay
HINT_COLOUR = (230, 0, 230)
WIN_BANNER, LOSS_BANNER, DRAW_BANNER = (60, 170, 90), (200, 60, 50), (120, 116, 108)
WHITE = (255, 255, 255)
HEAT_LABELS = 5  # the most visited moves get a percentage
KEY_HELP = "U undo   N new game   S switch sides   H hint   A analysis   Q quit"
LEVEL_HELP = "   +/- level"
LEVEL_UP = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)  # + is shift-= on many keyboards
LEVEL_DOWN = (pygame.K_MINUS, pygame.K_KP_MINUS)
INFO_LINES = 2  # small lines for messages and the analysis caption
NO_ANALYSIS = "No analysis yet: it appears when the AI searches."


class PlayWindow:
    """An interactive game window for a :class:`~connectn_env.play.session.GameSession`.

    The agent thinks in a background thread (:class:`~connectn_env.play.thinking.Thinker`)
    on a copy of the position while the window keeps drawing and handling events; the
    window applies the move it returns. Call :meth:`run` for the whole loop, or
    :meth:`step` once per frame and then :meth:`close`. While the window is open, the
    records of the ``connectn_env.compile`` logger are caught
    (:class:`~connectn_env.play.compile_notes.CompileNotes`): the status line shows the
    latest while the agent's first search compiles.

    Args:
        session: The game to show and play.
        title: Window title.
        opponent: The agent's name in the status texts (``"AI (mcts:time=1)"``); by
            default its class name.
        levels: The levels of ``connectn play --level``: the agent is the level played,
            named by its level, rung and Elo; + and - change the level (at once between
            games, else from the next game).

    Attributes:
        session: The game.
        frame: The window, board picture and text lines (:class:`BoardFrame`).
        thinker: Runs the agent, or None without an agent.
        levels: The levels, or None.
        show_analysis: Whether the analysis heat map is drawn.
        move_list: The move list beside the board (scrolled with the mouse wheel).
        notes: The compile logger's records.
        running: False once the person has quit.
    """

    def __init__(
        self,
        session: GameSession,
        *,
        title: str = "connectn play",
        opponent: str | None = None,
        levels: PlayLevels | None = None,
    ) -> None:
        if not isinstance(session, GameSession):
            raise TypeError(f"session must be a GameSession, got {type(session).__name__}")
        if opponent is not None and not isinstance(opponent, str):
            raise TypeError(f"opponent must be a str or None, got {type(opponent).__name__}")
        if levels is not None and (not isinstance(levels, PlayLevels) or session.agent is None):
            raise TypeError(f"levels need PlayLevels and a session with an agent, got {levels!r}")
        self.session = session
        self.thinker = None if session.agent is None else Thinker(session.agent)
        self.levels = levels
        self._opponent = opponent or type(session.agent).__name__
        key_help = KEY_HELP if self.thinker is not None else KEY_HELP.replace("   H hint", "")
        key_help += LEVEL_HELP if levels is not None else ""
        self.frame = BoardFrame(
            PygameRenderer(session.game),
            title=title,
            key_help=key_help,
            small_lines=INFO_LINES,
            side_width=LIST_WIDTH,
        )
        self.names = self.frame.renderer.palette.names
        self.show_analysis = False
        self.move_list = MoveList()
        self.notes = CompileNotes()
        self.running = True
        self.hover: int | None = None
        self._message: tuple[tuple[int, ...], str] = ((), "")
        self._failed: tuple[int, ...] | None = None  # the position where the agent failed
        self._prepared = False  # the agent's compile started (after the first frame)

    @property
    def opponent(self) -> str:
        """The agent's name in the status texts: its level (``"level 3: uct-100, Elo
        +634"``) when playing levels."""
        return self._opponent if self.levels is None else self.levels.name()

    @property
    def message(self) -> str:
        """The line of information under the status line (hints, errors, what a key did).
        It belongs to the position it was said in: any move clears it."""
        moves, text = self._message
        return text if moves == self.session.moves else ""

    @message.setter
    def message(self, text: str) -> None:
        self._message = (self.session.moves, text)

    # --- lifecycle -----------------------------------------------------------------------

    def run(self, *, fps: float = 30.0) -> None:
        """Open the window and play until the person quits, then close it."""
        run_frames(self.step, self.close, fps)

    def step(self) -> bool:
        """One frame: handle pending events, let the agent move, draw. False once quit.

        The first frame is drawn and shown before the agent is asked anything, so the
        window opens painted, not black while a search starts (and compiles).
        """
        self.frame.open()
        self.notes.listen()
        if not self.frame.showing:
            self.draw()
            self.frame.flip()
        for event in pygame.event.get():
            self.handle(event)
        if self.running:
            self.update()
            self.draw()
            self.frame.flip()
            if not self._prepared:  # compile behind the first frames, announced on them
                self._prepared = True
                self.session.prepare_agent()
        return self.running

    def close(self) -> None:
        """Stop the agent's thread and close the window; safe to repeat."""
        if self.thinker is not None:
            self.thinker.stop()
            self.thinker.wait(timeout=_stop_timeout(self.session.agent))
        self.notes.stop()
        self.frame.close()

    # --- input ---------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame event (clicks, mouse moves, keys, closing the window)."""
        if event.type in (pygame.QUIT, pygame.WINDOWCLOSE):
            self.running = False
        elif event.type == pygame.MOUSEMOTION:
            self.hover = self.frame.action_at(event.pos)
        elif event.type == pygame.WINDOWLEAVE:
            self.hover = None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.MOUSEWHEEL:  # wheel up (y > 0): earlier moves
            self.move_list.scroll(-event.y, len(self.session.moves), self.frame.side_rect())
        elif event.type == pygame.KEYDOWN:
            self.key(event.key)

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at window pixel ``pos``: play there if it is the person's turn.

        Clicking the opening stone takes it when the swap rule allows; when the only move
        is a special action (Othello's pass), a click anywhere on the board plays it.
        """
        session = self.session
        action = self.frame.action_at(pos)
        if action is None or session.over:
            return
        if not session.human_turn:
            self.message = "The AI is thinking: wait for its move."
            return
        swap = swap_action(session.game)
        if swap is not None and session.is_legal(swap) and action == session.moves[0]:
            action = swap  # clicking the opening stone takes it (the swap rule)
        forced = forced_special_action(session.state)
        if forced is not None:
            action = forced
        if not session.is_legal(action):
            self.message = self._illegal_text(action)
            return
        self._stop_thinking()  # a hint search for this position is no longer wanted
        session.play(action)
        self.message = ""

    def _illegal_text(self, action: int) -> str:
        state, style = self.session.state, self.frame.renderer.style
        cell = style.landing_cell(state, action)
        if cell is None or state.board[cell]:
            taken = "full" if style.target == "column" else "taken"
            return f"That {style.target} is {taken}: choose another."
        return f"{illegal_move_reason(state, action)}."

    def key(self, key: int) -> None:
        """A key press: U undo, N new game, S switch sides, H hint, A analysis, + and - the
        level (when playing levels), Q/Esc quit."""
        session = self.session
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self.running = False
        elif key == pygame.K_a:
            self.show_analysis = not self.show_analysis
        elif key == pygame.K_u:
            self._stop_thinking()
            taken = session.undo()
            plural = "s" * (taken != 1)
            self.message = f"Took back {taken} move{plural}." if taken else "Nothing to undo."
        elif key == pygame.K_n:
            self._stop_thinking()
            session.new_game()
            self.message = "New game."
            if self.levels is not None:
                self._change_level(lambda: self.levels.new_game(session), "New game.")
        elif key == pygame.K_s:
            self._stop_thinking()
            session.switch_sides()
            self.message = f"You now play {self.names[session.human_player]}."
        elif key == pygame.K_h:
            self._ask_hint()
        elif self.levels is not None and key in LEVEL_UP + LEVEL_DOWN:
            change = 1 if key in LEVEL_UP else -1
            self._change_level(lambda: self.levels.step(change, session))

    def _change_level(self, change: Callable[[], str], before: str = "") -> None:
        """Run a level change and say what it did (after ``before``); a new agent gets its
        own thinker."""
        try:
            said = change()
        except ValueError as error:
            said = str(error)
        self.message = " ".join(text for text in (before, said) if text)
        if self.thinker.agent is not self.session.agent:
            self._stop_thinking()
            self.thinker = Thinker(self.session.agent)
            self._failed = None  # the new agent may move where the last one failed

    def _ask_hint(self) -> None:
        session = self.session
        if self.thinker is None:
            self.message = "No AI to ask: the opponent is a person."
        elif not session.human_turn:
            self.message = "Hints are for your turn."
        elif self.thinker.busy:
            self.message = "The AI is busy: try again in a moment."
        else:
            self.thinker.start(HINT, session)
            self.message = ""

    def _stop_thinking(self) -> None:
        if self.thinker is not None and self.thinker.busy:
            self.thinker.stop()

    # --- the agent -----------------------------------------------------------------------

    def update(self) -> None:
        """Apply a finished answer of the agent; start its search when it is to move."""
        if self.thinker is None:
            return
        session = self.session
        answer = self.thinker.poll()
        if answer is not None and answer.moves == session.moves:
            if answer.error is not None:
                self._failed = answer.moves
                self.message = f"The AI failed: {answer.error}"
            elif answer.kind == MOVE and session.ai_turn:
                session.note_answer(MOVE, answer.moves, answer.action, answer.result)
                try:
                    session.play(answer.action)
                except ValueError as error:
                    self._failed = answer.moves
                    self.message = f"The AI failed: {error}"
            elif answer.kind == HINT:
                known = session.proven()  # what an earlier search proved here, if it did
                session.note_answer(HINT, answer.moves, answer.action, answer.result)
                self.message = self._hint_text(answer.action, answer.result, known)
        if session.ai_turn and not self.thinker.busy and self._failed != session.moves:
            self.thinker.start(MOVE, session)

    def _hint_text(self, action: int, result: Any, known: str | None = None) -> str:
        """``"Hint: 4 (your win chance by the AI's search: 49%)"``; a result the search (or
        an earlier one: ``known``) proved comes first: ``"Hint: 4 (a forced win for you)"``."""
        name = self.frame.renderer.style.move_label(self.session.game, action)
        text = f"Hint: {name}"
        if result is None:
            return text
        proven = result.proven or known
        if proven is not None:
            return f"{text} ({forced(proven, 'you')})"
        chance = (result.root_value + 1) / 2
        return f"{text} (your win chance by the AI's search: {chance:.0%})"

    # --- drawing -------------------------------------------------------------------------

    def draw(self) -> pygame.Surface:
        """Draw the whole window into its surface and return the surface."""
        frame, session = self.frame, self.session
        frame.clear()
        board = frame.board()
        status = None if self.thinker is None else self.thinker.status()
        thinking = status is not None and status.kind == MOVE
        preview = self.hover if session.human_turn and not thinking else None
        bar = self.bar_text()
        frame.renderer.draw(board, session.state, highlight=preview, status=bar)
        frame.shown.append(bar)
        shown = self._shown_pi(status)
        labels = [] if shown is None else self._draw_heat(board, *shown)
        if session.hint is not None:
            self._draw_hint(board, session.hint, [centre for _, centre in labels])
        for text, centre in labels:  # over the hint's ring
            self._label(board, text, centre)
        result = session.result_text(self.names)
        line = frame.status_rect()
        if status is not None:
            self._draw_thinking(line, status)
        elif result is not None:
            self._draw_banner(line, result)
        else:
            frame.text(self._prompt(), line)
        frame.paragraph(self.info_line(status), 0, INFO_LINES)
        self._draw_move_list()
        return frame.surface

    def bar_text(self) -> str:
        """The status bar under the board: who is to move (``"You (Red) to move"``, ``"AI
        (mcts) to move"``) or who won, the disc count in Othello, and the level played
        (``"against level 3: uct-100, Elo +634"``) when the AI is not named already."""
        session, state = self.session, self.session.state
        moves = state.move_number
        after = f"after {moves} move{'s' * (moves != 1)}"
        winner = state.winner
        if winner is not None:
            side = self.side_name(winner)
            text = f"{side} {'win' if side.startswith('You') else 'wins'} {after}"
        elif state.is_terminal():
            text = f"Draw {after}"
        else:
            text = f"{self.side_name(state.current_player())} to move"
        score = session.score_text(self.names)
        if score is not None:
            text += f"   {score}"
        if self.levels is not None and self.opponent not in text:
            text += f"   against {self.opponent}"
        return text

    def side_name(self, player: int) -> str:
        """``"You (Red)"``, ``"AI (mcts)"``, or the colour alone when two people play."""
        session = self.session
        if session.agent is None:
            return self.names[player]
        if player == session.human_player:
            return f"You ({self.names[player]})"
        return f"AI ({self.opponent})"

    def info_line(self, status: Status | None = None) -> str:
        """The line under the status line: the message, else (with the analysis shown) what
        the heat map shows (``status``: the search under way, if any), else the level
        played."""
        if self.message or not self.show_analysis:
            return self.message or ("" if self.levels is None else self.levels.describe())
        if status is not None and status.pi is not None:
            whose = "its move" if status.kind == MOVE else "your hint"
            return (
                f"Live analysis of {whose}: share of "
                f"{counted(status.simulations, 'simulation')} per move so far"
            )
        if self.session.analysis is not None:
            return self._analysis_caption()
        return NO_ANALYSIS

    def _shown_pi(self, status: Status | None) -> tuple[np.ndarray, GameState] | None:
        """The visit shares the heat map shows and the position they are of: the search
        under way's, else the latest finished search's; None with the analysis hidden, or
        none to show (a move known without a search has no shares)."""
        if not self.show_analysis:
            return None
        if status is not None and status.pi is not None:
            return status.pi, self.session.state
        analysis = self.session.analysis
        if analysis is None or not _searched(analysis.result):
            return None
        return analysis.result.pi, self._analysed_state()

    def _analysed_state(self) -> GameState:
        """The position of the latest finished search."""
        state = self.session.game.new_initial_state()
        for action in self.session.analysis.moves:
            state.apply_action(action)
        return state

    def _draw_move_list(self) -> None:
        session, style = self.session, self.frame.renderer.style
        names = [style.move_label(session.game, a) for a in session.moves]
        current = len(names) - 1 if names else None
        self.move_list.draw(self.frame, self.frame.side_rect(), names, self.names, current)

    def _prompt(self) -> str:
        session = self.session
        if self.thinker is not None and self.thinker.stopping:
            return "Stopping the AI..."
        if session.ai_turn:
            if self._failed == session.moves:
                return "The AI failed to move: press U, N or S."
            return "The AI moves..."
        mover = self.names[session.state.current_player()]
        what = self.frame.renderer.style.target
        forced = forced_special_action(session.state)
        if forced is not None:
            name = session.game.special_actions[forced]
            return f"{mover} has no move: click the board to {name}."
        if session.agent is None:
            return f"{mover} to move: click a {what}."
        text = f"Your move ({mover}): click a {what}."
        swap = swap_action(session.game)
        if swap is not None and session.is_legal(swap):
            text += f" Click the {self.names[0]} stone to swap."
        return text

    def _draw_thinking(self, line: pygame.Rect, status: Status) -> None:
        surface = self.frame.surface
        palette = self.frame.renderer.palette
        mover = self.session.state.current_player()
        colour = palette.stones[mover]
        if sum(colour) > 600:  # a white stone: draw its spinner in the outline colour
            colour = palette.edges[mover]
        radius = line.h * 0.32
        arc = pygame.Rect(0, 0, round(2 * radius), round(2 * radius))
        arc.center = (round(line.x + radius + 2), line.centery)
        angle = (time.monotonic() * 5.0) % (2 * math.pi)
        pygame.draw.arc(surface, colour, arc, angle, angle + 4.2, max(2, round(radius / 3)))
        note = None
        if status.simulations is None:  # nothing searched yet: perhaps compiling
            note = self.notes.latest(since=self.thinker.started)
        if note is not None:
            parts = [note]
        elif status.kind == MOVE:
            parts = [f"AI ({self.opponent}) thinking"]
        else:
            parts = ["Looking for a hint"]
        if status.simulations is not None:
            parts.append(counted(status.simulations, "simulation"))
        chance = status.win_chance
        if chance is not None:
            whose = "its" if status.kind == MOVE else "your"
            parts.append(f"{whose} win chance {chance:.0%}")
        parts.append(f"{status.elapsed:.1f} s")
        text_rect = pygame.Rect(line.x + line.h, line.y, line.w - line.h, line.h)
        end = self.frame.text("   ".join(parts), text_rect)
        bar = pygame.Rect(end + PAD, line.centery - 5, min(120, line.right - end - PAD), 10)
        if chance is not None and bar.w > 20:  # the mover's share of the bar, in its colour
            surface.fill(palette.stones[1 - mover], bar)
            surface.fill(colour, (bar.x, bar.y, round(bar.w * chance), bar.h))
            pygame.draw.rect(surface, TEXT, bar, 1)

    def _draw_banner(self, line: pygame.Rect, result: str) -> None:
        session = self.session
        winner = session.state.winner
        if winner is None:
            colour = DRAW_BANNER
        elif session.agent is None or winner == session.human_player:
            colour = WIN_BANNER
        else:
            colour = LOSS_BANNER
        pygame.draw.rect(self.frame.surface, colour, line, border_radius=6)
        self.frame.text(f"{result}   N new game   U undo", line, colour=WHITE, centre=True)

    def _analysis_caption(self) -> str:
        """What the heat map shows; the shares of moves it cannot show (a move played since,
        a special action such as swap) are listed. A move known without a search (an opening
        book's) says so and shows no shares."""
        analysis = self.session.analysis
        result, game, style = analysis.result, self.session.game, self.frame.renderer.style
        who = "the AI's move" if analysis.kind == MOVE else "your hint"
        text = f"Analysis of {who} at move {len(analysis.moves) + 1}: "
        if not _searched(result):
            mover = "it" if analysis.kind == MOVE else "you"
            proven = f" ({forced(result.proven, mover)})" if result.proven else ""
            return f"{text}{style.move_label(game, result.action)}, known without a search{proven}"
        text += f"share of {counted(result.simulations, 'simulation')} per move"
        state = self._analysed_state()
        shown = self._heat_cells(result.pi, state)
        unseen = [
            int(a) for a in np.argsort(result.pi)[::-1] if result.pi[a] > 0 and a not in shown
        ]
        for action in unseen[:HEAT_LABELS]:
            played = style.landing_cell(state, action) is not None  # its cell is taken now
            name = style.move_label(game, action) + (" (played)" if played else "")
            text += f", {name} {_percent(float(result.pi[action]))}"
        return text + _search_label(game, result, style)

    def _heat_cells(self, pi: np.ndarray, state: GameState) -> dict[int, tuple[int, int]]:
        """The cell where each searched move would put its stone in ``state`` (the position
        searched), for the cells still empty now (moves played since and special actions
        have none)."""
        style, board = self.frame.renderer.style, self.session.state.board
        cells = {}
        for action in np.flatnonzero(np.asarray(pi) > 0):
            cell = style.landing_cell(state, int(action))
            if cell is not None and not board[cell]:
                cells[int(action)] = cell
        return cells

    def _draw_heat(
        self, board: pygame.Surface, pi: np.ndarray, state: GameState
    ) -> list[tuple[str, tuple[float, float]]]:
        """The visit share of each move of the position ``state`` in orange (stronger for
        more visits) on the empty cell where its stone would land (stones are left as they
        are). Returns the percentage labels of the most visited moves, ``(text, centre)``,
        to be drawn over everything else."""
        renderer = self.frame.renderer
        pi = np.asarray(pi, dtype=float)
        top = pi.max(initial=0.0)
        cells = self._heat_cells(pi, state)
        if top <= 0 or not cells:
            return []
        overlay = Canvas(pygame.Surface(board.get_size(), pygame.SRCALPHA))
        for action, cell in cells.items():
            alpha = round(20 + 180 * float(pi[action]) / top)
            renderer.style.fill_cell(overlay, renderer.geometry, cell, (*HEAT, alpha))
        board.blit(overlay.surface, (0, 0))
        return [
            (_percent(float(pi[action])), renderer.geometry.center(*cells[action]))
            for action in sorted(cells, key=lambda a: -pi[a])[:HEAT_LABELS]
        ]

    def _label(self, board: pygame.Surface, text: str, centre: tuple[float, float]) -> None:
        """White text on a dark box centred at ``centre``, if it fits in a cell."""
        label, _ = self.frame.fonts[1].render(text, WHITE)
        if label.get_width() >= self.frame.renderer.geometry.cell * 0.95:
            return
        box = label.get_rect(center=(round(centre[0]), round(centre[1])))
        back = pygame.Surface(box.inflate(6, 4).size, pygame.SRCALPHA)
        pygame.draw.rect(back, (0, 0, 0, 160), back.get_rect(), border_radius=3)
        board.blit(back, box.inflate(6, 4))
        board.blit(label, box)

    def _draw_hint(
        self, board: pygame.Surface, action: int, labelled: list[tuple[float, float]]
    ) -> None:
        """A ring where the hinted stone would go, with a dot in it unless a percentage
        label is at that centre (``labelled``); special actions such as swap are named in
        the message line only."""
        style = self.frame.renderer.style
        geometry = self.frame.renderer.geometry
        cell = style.landing_cell(self.session.state, action)
        if cell is None:
            return
        centre = geometry.center(*cell)
        radius = style.hint_radius * geometry.cell
        width = max(3, round(geometry.cell * 0.09))
        pygame.draw.circle(board, WHITE, centre, radius + 1, width + 2)
        pygame.draw.circle(board, HINT_COLOUR, centre, radius, width)
        if centre not in labelled:
            pygame.draw.circle(board, HINT_COLOUR, centre, max(3.0, geometry.cell * 0.08))


def _percent(share: float) -> str:
    return "<1%" if share < 0.005 else f"{share:.0%}"


def _searched(result: Any) -> bool:
    """False for a move known without a search (an opening book's: proven, with the root's
    expansion at most) or a search that ran no simulation: it has no shares to show."""
    simulations = result.simulations
    return simulations > 1 or (simulations == 1 and result.proven is None)


def _stop_timeout(agent: Any) -> float:
    """How long closing waits for the agent's thread: its time budget plus a second (agents
    that report progress stop much sooner), else a few seconds."""
    budget = getattr(agent, "time_limit", None)
    return 5.0 if budget is None else float(budget) + 1.0


def run_window(
    session: GameSession,
    *,
    title: str = "connectn play",
    opponent: str | None = None,
    levels: PlayLevels | None = None,
    fps: float = 30.0,
) -> int:
    """Play ``session`` in a window until the person quits (``opponent``: the agent's name
    in the status texts; ``levels``: see :class:`PlayWindow`); returns 0 (1, with a message
    on stderr, if no window can be opened)."""
    window = PlayWindow(session, title=title, opponent=opponent, levels=levels)
    problem = window.frame.try_open()
    if problem is not None:
        return explain_no_window(problem)
    window.run(fps=fps)
    return 0


def _search_label(game: Any, result: Any, style: Any) -> str:
    """``"; expected line 4 4 3; proven 5 win"``: the start of the principal variation (of
    two moves or more: one is the move itself) and the moves the solver proved (from
    ``SearchResult``; "" for what a result does not have), named as the board ``style``'s
    coordinates name them."""
    text = ""
    line = getattr(result, "principal_variation", ())[:3]
    if len(line) > 1:
        text += "; expected line " + " ".join(style.move_label(game, a) for a in line)
    proven = getattr(result, "proven_moves", None) or {}
    moves = sorted(proven.items(), key=lambda item: ("win", "draw", "loss").index(item[1]))
    if moves:
        text += "; proven " + ", ".join(f"{style.move_label(game, a)} {s}" for a, s in moves[:2])
        text += " ..." if len(moves) > 2 else ""
    return text
