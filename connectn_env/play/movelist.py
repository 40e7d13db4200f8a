"""The move list beside the board: the game's moves in its notation, two to a row after
the move number, the current move marked, scrolled with the mouse wheel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from connectn_env.render.theme import STATUS_BAR, TEXT

LIST_WIDTH = 150  # pixels beside the board
ROW_HEIGHT = 20  # pixels per row of the list
MARK = (250, 214, 120)  # background of the current move


def move_rows(names: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(number, first player's move, second player's move)`` for each move pair, as the
    list shows them: ``[("1.", "d4", "e5"), ("2.", "c3", "")]``."""
    return [
        (f"{i // 2 + 1}.", names[i], names[i + 1] if i + 1 < len(names) else "")
        for i in range(0, len(names), 2)
    ]


class MoveList:
    """Draws a game's moves in a rectangle of a frame and keeps the scroll position.

    The list follows the current move (keeps it in view) whenever that move changes; the
    mouse wheel scrolls it freely until then.

    Attributes:
        top: The first row shown (0: the first move pair).
    """

    def __init__(self) -> None:
        self.top = 0
        self._followed: tuple[int, int] | None = None  # (moves, current) last kept in view

    def scroll(self, steps: int, total_moves: int, rect: pygame.Rect) -> None:
        """Scroll ``steps`` rows down (negative: up), within the list of ``total_moves``."""
        rows = (total_moves + 1) // 2
        self.top = max(0, min(self.top + int(steps), rows - self.visible_rows(rect)))

    @staticmethod
    def visible_rows(rect: pygame.Rect) -> int:
        """How many rows fit in ``rect`` below the heading."""
        return max(1, rect.h // ROW_HEIGHT - 1)

    def draw(
        self,
        frame: Any,
        rect: pygame.Rect,
        names: Sequence[str],
        heading: tuple[str, str],
        current: int | None,
    ) -> None:
        """Draw the list of moves ``names`` into ``rect`` of ``frame`` (a
        :class:`~connectn_env.play.frame.BoardFrame`): a heading row with the two players'
        names (on the baseline of the board's column labels, where it has them), then the
        move pairs; move ``current`` (0-based; None: none) on a marked background."""
        surface = frame.surface
        surface.fill(STATUS_BAR, rect)
        visible = self.visible_rows(rect)
        rows = move_rows(names)
        follow = (len(names), -1 if current is None else current)
        if follow != self._followed:  # keep the current (else the last) move in view
            self._followed = follow
            target = (len(names) - 1 if current is None else current) // 2
            if not self.top <= target < self.top + visible:
                self.top = max(0, target - visible + 1)
        self.top = max(0, min(self.top, len(rows) - visible))
        number_w = round(rect.w * 0.24)
        move_w = (rect.w - number_w) // 2

        def cell(text: str, column: int, y: int, baseline: int | None = None) -> None:
            left = rect.x + (0 if column == 0 else number_w + (column - 1) * move_w)
            width = number_w if column == 0 else move_w
            box = pygame.Rect(left + 4, y, width - 8, ROW_HEIGHT)
            frame.text(text, box, small=True, baseline=baseline)

        labels = frame.column_label_baseline()
        cell(heading[0], 1, rect.y, labels)
        cell(heading[1], 2, rect.y, labels)
        rule = rect.y + ROW_HEIGHT - 1
        pygame.draw.line(surface, TEXT, (rect.x + 4, rule), (rect.right - 5, rule))
        for i, (number, first, second) in enumerate(rows[self.top : self.top + visible]):
            y = rect.y + (i + 1) * ROW_HEIGHT
            index = 2 * (self.top + i)
            if current is not None and current in (index, index + 1):
                column = 1 + current - index
                left = rect.x + number_w + (column - 1) * move_w
                box = pygame.Rect(left + 1, y + 1, move_w - 2, ROW_HEIGHT - 2)
                pygame.draw.rect(surface, MARK, box, border_radius=4)
            cell(number, 0, y)
            cell(first, 1, y)
            cell(second, 2, y)
        if len(rows) > visible:  # a scroll bar on the right edge: the part in view
            track = pygame.Rect(rect.right - 4, rect.y + ROW_HEIGHT, 3, visible * ROW_HEIGHT)
            thumb = track.copy()
            thumb.h = max(6, round(track.h * visible / len(rows)))
            thumb.y = track.y + round((track.h - thumb.h) * self.top / (len(rows) - visible))
            surface.fill(TEXT, thumb)
