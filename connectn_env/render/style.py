"""The interface of a board style, and finding a game's style by name.

A board style is one module ``connectn_env/render/styles/<name>.py`` that defines ``STYLE``,
an instance of a :class:`BoardStyle` subclass; a game names its style in ``render_style``
and :func:`load_style` imports the module by that name, so a new style touches no other file.

The defaults of :class:`BoardStyle` describe a square lattice: cell (row, col) at the unit
point (col, row), the board's edge ``margin`` cells beyond the outer cell centres, column
letters across the top and row numbers down the left, shaded round stones, a dot on the last
move, the winning line drawn from end to end with a ring on each of its stones. A style
overrides what differs. Nothing here imports pygame: drawing methods get a
:class:`~connectn_env.render.canvas.Canvas` (pygame drawing in picture pixels), so styles load
headless for text and geometry.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from connectn_env.games import BoardGame, GameState, column_label
from connectn_env.render.theme import Palette, mix

if TYPE_CHECKING:
    from connectn_env.render.canvas import Canvas
    from connectn_env.render.geometry import BoardGeometry
    from connectn_env.render.pygame_renderer import Sprites

STYLES_PACKAGE = "connectn_env.render.styles"

Point = tuple[float, float]
Cell = tuple[int, int]
LabelUnits = list[tuple[str, Point, Point]]  # (text, unit point on the board's edge, outward)


class BoardStyle:
    """How one kind of board is drawn, as a picture and as text.

    Attributes:
        name: The style's name (its module's name).
        palette: Colours and the players' names.
        stone_radius: Radius of a stone, in cells.
        hint_radius: Radius of the window's hint ring, in cells.
        margin: Board beyond the outer cell centres, in cells (square lattices).
        uppercase_letters: Column letters drawn in capitals (go boards: A, B, C...).
        row_labels: Whether rows are numbered (on the left of pictures and text).
        target: What a click chooses, for messages: ``"cell"`` or ``"column"``.
        win_rings: Whether the winning stones get a ring (besides the winning line).
        legal_moves_shown: Whether the legal moves of the player to move are marked (a small
            dot in pictures, ``*`` in text).
    """

    name: ClassVar[str] = ""
    palette: ClassVar[Palette]
    stone_radius: ClassVar[float] = 0.42
    margin: ClassVar[float] = 0.5
    uppercase_letters: ClassVar[bool] = False
    row_labels: ClassVar[bool] = True
    target: ClassVar[str] = "cell"
    win_rings: ClassVar[bool] = True
    legal_moves_shown: ClassVar[bool] = False

    @property
    def hint_radius(self) -> float:
        """Radius of the window's hint ring, in cells (the stone's by default)."""
        return self.stone_radius

    # --- geometry (in units: one unit is the cell pitch) --------------------------------

    def unit(self, row: float, col: float) -> Point:
        """Centre of cell (row, col) in units, any real row and column."""
        return (col, row)

    def nearest_cell(self, x: float, y: float) -> Cell:
        """The cell (row, col) whose area holds unit point (x, y); maybe off the board."""
        return (math.floor(y + 0.5), math.floor(x + 0.5))

    def frame_units(self, rows: int, cols: int) -> list[Point]:
        """Corners of the board in units, clockwise from the top left."""
        top, left = -self.margin, -self.margin
        bottom, right = rows - 1 + self.margin, cols - 1 + self.margin
        return [(left, top), (right, top), (right, bottom), (left, bottom)]

    def column_label(self, col: int) -> str:
        """The label of column ``col`` in pictures (text uses it in lowercase)."""
        label = column_label(col)
        return label.upper() if self.uppercase_letters else label

    def label_units(self, rows: int, cols: int) -> tuple[LabelUnits, LabelUnits]:
        """Column and row labels: (text, unit point on the board's edge, outward direction)."""
        (left, top) = self.frame_units(rows, cols)[0]
        columns = [(self.column_label(c), (c, top), (0.0, -1.0)) for c in range(cols)]
        if not self.row_labels:
            return columns, []
        return columns, [(str(r + 1), (left, r), (-1.0, 0.0)) for r in range(rows)]

    def action_at(self, geometry: BoardGeometry, x: float, y: float) -> int | None:
        """The action a click at picture pixel (x, y) names, or None: the cell under it."""
        cell = geometry.cell_at((x, y))
        return None if cell is None else cell[0] * geometry.game.cols + cell[1]

    def landing_cell(self, state: GameState, action: int) -> Cell | None:
        """Where ``action`` puts a stone in ``state``: cell ``divmod(action, cols)``; None for
        a special action (swap, pass)."""
        if action in state.game.special_actions:
            return None
        return divmod(action, state.game.cols)

    # --- text ---------------------------------------------------------------------------

    def legend(self, rows: int, cols: int, names: Sequence[str]) -> str | None:
        """A sentence about the board that the picture shows but the text does not (Hex's
        sides), with the players called ``names``; None if there is nothing to add."""
        return None

    def move_label(self, game: BoardGame, action: int) -> str:
        """``action`` named as the picture's coordinates name it (``C3`` on a go board)."""
        name = game.action_name(action)
        if self.uppercase_letters and action not in game.special_actions:
            return name.upper()
        return name

    # --- pictures -----------------------------------------------------------------------

    def draw_board(self, canvas: Canvas, geometry: BoardGeometry) -> None:
        """The empty board (without coordinates) onto the picture's background."""
        raise NotImplementedError(f"board style {self.name!r} does not draw its board")

    def draw_stone(self, canvas: Canvas, player: int, centre: Point, radius: float) -> None:
        """One stone of ``player`` (0 or 1): a shaded stone lit from the top left."""
        colour, edge = self.palette.stones[player], self.palette.edges[player]
        light = tuple(min(255, v + 80) for v in colour)
        steps = 32
        for i in range(steps):
            t = i / steps
            shade = mix(mix(edge, colour, t * 4), light, (t - 0.55) * 2.2)
            offset = radius * 0.35 * t
            canvas.circle(shade, (centre[0] - offset, centre[1] - offset), radius * (1 - t))

    def fill_cell(
        self, canvas: Canvas, geometry: BoardGeometry, cell: Cell, colour: tuple[int, ...]
    ) -> None:
        """Paint the area of ``cell`` (used for the analysis heat map): a disc a cell wide."""
        canvas.circle(colour, geometry.center(*cell), geometry.cell / 2)

    def draw_position(
        self, canvas: Canvas, geometry: BoardGeometry, sprites: Sprites, state: GameState
    ) -> None:
        """The stones of ``state`` and its marks (last move, legal moves, the win) onto the
        drawn board."""
        board = state.board
        rows, cols = np.nonzero(board)
        for row, col in zip(rows.tolist(), cols.tolist(), strict=True):  # Python ints: fast
            canvas.blit_centered(sprites.stones[board[row, col] - 1], geometry.center(row, col))
        last = state.last_move_cell()
        if last is not None:
            self.mark_last_move(canvas, geometry, sprites, last, int(board[last]) - 1)
        if self.legal_moves_shown and not state.is_terminal():
            dot = sprites.dots[state.current_player()]
            for action in state.legal_actions():
                cell = self.landing_cell(state, action)
                if cell is not None:
                    canvas.blit_centered(dot, geometry.center(*cell))
        winning = state.winning_cells()
        if winning:
            self.mark_win(canvas, geometry, sprites, winning)

    def mark_last_move(
        self, canvas: Canvas, geometry: BoardGeometry, sprites: Sprites, cell: Cell, player: int
    ) -> None:
        """Mark the stone ``player`` placed last: a dot in the middle."""
        canvas.blit_centered(sprites.markers[player], geometry.center(*cell))

    def mark_win(
        self, canvas: Canvas, geometry: BoardGeometry, sprites: Sprites, cells: list[Cell]
    ) -> None:
        """Highlight the winning cells (sorted): lines along :meth:`win_segments` and, if
        ``win_rings``, a ring on each stone."""
        width = max(3, round(geometry.cell * 0.1))
        for start, end in self.win_segments(cells):
            canvas.thick_line(
                self.palette.win, geometry.center(*start), geometry.center(*end), width
            )
        if self.win_rings:
            for cell in cells:
                canvas.blit_centered(sprites.win_ring, geometry.center(*cell))

    def win_segments(self, cells: list[Cell]) -> list[tuple[Cell, Cell]]:
        """Pairs of cells to join with the winning line: a straight line's two ends."""
        return [(cells[0], cells[-1])]


def available_styles() -> list[str]:
    """Names of the board styles (the modules of ``connectn_env.render.styles``), sorted."""
    package = importlib.import_module(STYLES_PACKAGE)
    return sorted(info.name for info in pkgutil.iter_modules(package.__path__))


def load_style(name: str) -> BoardStyle:
    """The board style ``name``: ``STYLE`` of module ``connectn_env.render.styles.<name>``.

    Raises:
        TypeError: ``name`` is not a str.
        ValueError: there is no such style (the message lists the styles), or its module
            defines no ``STYLE`` that is a :class:`BoardStyle`.
    """
    if not isinstance(name, str):
        raise TypeError(f"a board style's name must be a str, got {type(name).__name__}")
    module_name = f"{STYLES_PACKAGE}.{name}"
    if not name.isidentifier():
        module = None
    else:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise  # the style exists, something it imports is missing
            module = None
    if module is None:
        raise ValueError(
            f"no board style {name!r} (no module {module_name}); styles: "
            f"{', '.join(available_styles())}"
        )
    style: Any = getattr(module, "STYLE", None)
    if not isinstance(style, BoardStyle):
        raise ValueError(f"module {module_name} defines no STYLE (a BoardStyle instance)")
    if style.name != name:
        raise ValueError(f"module {module_name} defines a STYLE named {style.name!r}")
    return style


def board_style(game: BoardGame) -> str:
    """How ``game`` is drawn: the name of its board style (``game.render_style``).

    Raises:
        TypeError: ``game`` is not a BoardGame.
        ValueError: no board style has that name (the message lists the styles).
    """
    if not isinstance(game, BoardGame):
        raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
    load_style(game.render_style)
    return game.render_style
