"""``connectn replay FILE`` in a pygame window: arrow keys step through the game, the move
list beside the board marks the move shown."""

from __future__ import annotations

from typing import Any

import pygame

from connectn_env.games import GameState
from connectn_env.play.frame import BoardFrame, explain_no_window, run_frames
from connectn_env.play.movelist import LIST_WIDTH, MoveList
from connectn_env.play.replay import check_record, move_caption, result_caption
from connectn_env.render.pygame_renderer import PygameRenderer

WINDOW_KEYS = "Left/Right step   Home/End first/last   Q quit"


class ReplayWindow:
    """Shows a recorded game move by move in a pygame window.

    Keys: Left/Right step back/forward, Home/End jump to the start/end, Q (or Escape, or
    closing the window) quits; the mouse wheel scrolls the move list.

    Args:
        record: The game (a :class:`~connectn_env.records.GameRecord`).
        title: Window title.

    Attributes:
        index: The position shown: 0 is the empty board, ``len(record.moves)`` the end.
        move_list: The move list beside the board; it marks move ``index``.
        running: False once the viewer was closed.
    """

    def __init__(self, record: Any, *, title: str = "connectn replay") -> None:
        self.record = check_record(record)
        self.states: list[GameState] = record.replay_states()
        renderer = PygameRenderer(self.states[0].game)
        self.frame = BoardFrame(renderer, title=title, key_help=WINDOW_KEYS, side_width=LIST_WIDTH)
        self.names = renderer.palette.names
        game = self.states[0].game
        self.move_names = [renderer.style.move_label(game, a) for a in record.moves]
        self.move_list = MoveList()
        self.index = 0
        self.running = True

    def run(self, *, fps: float = 30.0) -> None:
        """Show the window until the viewer quits, then close it."""
        run_frames(self.step, self.close, fps)

    def step(self) -> bool:
        """Handle pending events and draw once; False once quit."""
        self.frame.open()
        for event in pygame.event.get():
            if event.type in (pygame.QUIT, pygame.WINDOWCLOSE):
                self.running = False
            elif event.type == pygame.KEYDOWN:
                self.key(event.key)
            elif event.type == pygame.MOUSEWHEEL:  # wheel up (y > 0): earlier moves
                self.move_list.scroll(-event.y, len(self.move_names), self.frame.side_rect())
        if self.running:
            self.draw()
            self.frame.flip()
        return self.running

    def key(self, key: int) -> None:
        """Left/Right/Home/End move through the game; Q or Escape quits."""
        last = len(self.states) - 1
        moves = {
            pygame.K_LEFT: max(0, self.index - 1),
            pygame.K_RIGHT: min(last, self.index + 1),
            pygame.K_HOME: 0,
            pygame.K_END: last,
        }
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self.running = False
        elif key in moves:
            self.index = moves[key]

    def draw(self) -> None:
        """Draw the position ``index`` and its captions."""
        frame = self.frame
        frame.clear()
        frame.renderer.draw(frame.board(), self.states[self.index])
        upper = frame.renderer.style.uppercase_letters  # as the picture's coordinates
        caption = move_caption(self.record, self.index, self.names, upper=upper)
        frame.text(caption, frame.status_rect())
        at_end = self.index == len(self.states) - 1
        frame.text(result_caption(self.record) if at_end else "", frame.small_rect(0), small=True)
        current = self.index - 1 if self.index > 0 else None
        self.move_list.draw(frame, frame.side_rect(), self.move_names, self.names, current)

    def close(self) -> None:
        """Close the window; safe to repeat."""
        self.frame.close()


def replay_window(record: Any, *, fps: float = 30.0) -> int:
    """Show ``record`` in a window until the viewer quits; returns 0 (1, with a message on
    stderr, if no window can be opened)."""
    viewer = ReplayWindow(record)
    problem = viewer.frame.try_open()
    if problem is not None:
        return explain_no_window(problem)
    viewer.run(fps=fps)
    return 0
