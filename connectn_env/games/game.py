"""The base class of every game plugin: parameters, representation, notation, symmetries.

A game plugin is a package under ``connectn_env/games`` that exports ``GAME`` (a
:class:`BoardGame` subclass: parameters, notation, symmetries, rules as compiled kernels, see
:mod:`~connectn_env.games.contract`) and ``PRESETS``, and has a ``reference`` module with
``new_reference_state(game)``: a brute-force plain-Python model of the rules (``current_player``,
``legal_actions``, ``apply``, ``outcome``, ``board``) that the property tests check the kernels
against. One line in the registry (:mod:`connectn_env.games`) adds it; everything else
(PettingZoo and Gymnasium ids, the command line's game names and options, records, rendering,
the tests) reads the class.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from connectn_env.games.contract import GameKernels, Status
from connectn_env.games.coords import cell_name, parse_cell_name, parse_column_number
from connectn_env.games.parameters import Parameter
from connectn_env.games.representation import Representation
from connectn_env.games.state import GameState
from connectn_env.games.tactics import Tactics

MAX_SIDE = 32
STONE_CHARS = {0: ".", 1: "x", 2: "o"}


@dataclass(frozen=True, eq=False)
class Symmetry:
    """A transformation of the board that maps positions to equivalent positions.

    Attributes:
        name: For example ``"rotate 90"``.
        cells: ``cells[i]`` is where cell ``i`` (``r * cols + c``) goes.
        actions: ``actions[a]`` is the image of action ``a`` (special actions map to themselves).
    """

    name: str
    cells: np.ndarray
    actions: np.ndarray

    def planes(self, planes: np.ndarray) -> np.ndarray:
        """The image of ``(rows, cols, k)`` planes (a new array)."""
        rows, cols, depth = planes.shape
        out = np.empty_like(planes).reshape(rows * cols, depth)
        out[self.cells] = planes.reshape(rows * cols, depth)
        return out.reshape(rows, cols, depth)

    def policy(self, policy: np.ndarray) -> np.ndarray:
        """The image of a distribution (or any vector) over the action space."""
        out = np.empty_like(policy)
        out[self.actions] = policy
        return out


class ExactSolver(Protocol):
    """Proves positions of a game exactly (the search agents' ``exact`` option)."""

    def reaches(self, state: GameState) -> bool:
        """Whether solving ``state`` is worth a try: the solver usually finishes such
        positions within about a second (the search spends no time on it otherwise)."""
        ...

    def solve_moves(
        self, state: GameState, actions: Sequence[int], nodes: int
    ) -> tuple[dict[int, tuple[int, int] | None], int]:
        """Solve ``actions`` of ``state`` (legal, game not over) in this order, as far as a
        budget of ``nodes`` search nodes goes.

        Returns:
            ``({action: (result, plies) or None}, nodes used)`` for the actions decided:
            ``result`` is 1, 0 or -1 for the player to move if they play the action (perfect
            play after it), ``plies`` the moves after it to the end of the game in the proven
            line (the fastest win, the slowest loss a complete solver finds; a solver that
            proves only some lines, like a threat-space search, gives the length of the line
            it found; 0 if the action ends the game). None: the solver finished the action
            without a proof and never will prove it (an incomplete solver); actions missing
            from the dict may be proven with a larger budget.
        """
        ...


class BoardGame:
    """Rules and parameters of one game; immutable once built.

    Subclasses set the class attributes, ``PARAMETERS`` and :meth:`_build`; the constructor
    takes the parameters as keywords, checks them against ``PARAMETERS`` (a wrong type or value
    raises TypeError/ValueError naming it) and builds the representation.

    Attributes:
        name: Registry name of the game family (``"connect_n"``).
        gym_name: Name in the Gymnasium ids (``"ConnectN"``).
        summary: One line for tables and ``--help``.
        render_style: The drawing style in ``connectn_env.render.styles``.
        action_help: What an action means, for the generated documentation.
        PARAMETERS: The parameter schema (defaults, bounds, help).
        EXAMPLE_PARAMETERS: Parameter sets beyond the defaults that exercise the game's edge
            cases (smallest boards, odd shapes, rule variants): the test suite runs its
            compliance and property checks on each.
        params: The constant int64 vector the kernels read.
        kernels: The compiled kernels (a :class:`~connectn_env.games.contract.GameKernels`).
        representation: The state layout.
        rows: Board height.
        cols: Board width.
        num_actions: Size of the action space.
        max_moves: Most actions a game can last.
        gravity: True if an action names a column and the stone drops.
        search_defaults: Keyword options of ``agents.MCTSAgent`` for its strongest search on
            this game (measured; see docs/agents.md); ``MCTSAgent()`` uses them for the options
            it is not given.
        tactics: The game's :class:`~connectn_env.games.tactics.Tactics` (fast answers for
            the search's roll-out policies), or None: the search then uses the generic ones
            built from the kernels.
        neighbourhoods: True if the moves are cells with neighbours, so that the search's
            ``local`` option (moves near the stones) works.
    """

    name: ClassVar[str] = "board_game"
    gym_name: ClassVar[str] = "BoardGame"
    summary: ClassVar[str] = ""
    render_style: ClassVar[str] = "grid"
    action_help: ClassVar[str] = "cell ``r * cols + c``"
    PARAMETERS: ClassVar[tuple[Parameter, ...]] = ()
    EXAMPLE_PARAMETERS: ClassVar[tuple[dict[str, Any], ...]] = ()
    search_defaults: ClassVar[dict[str, Any]] = {}

    gravity: bool = False
    tactics: Tactics | None = None
    neighbourhoods: bool = False

    def __init__(self, **kwargs: Any) -> None:
        allowed = {p.name: p for p in self.PARAMETERS}
        unknown = sorted(set(kwargs) - allowed.keys())
        if unknown:
            names = ", ".join(allowed) or "none"
            raise TypeError(
                f"{type(self).__name__} got unexpected parameter {unknown[0]!r}; its "
                f"parameters are {names}"
            )
        values = {
            name: spec.validate(kwargs[name]) if name in kwargs else spec.default
            for name, spec in allowed.items()
        }
        self._parameters = self._resolve(values)
        representation, self.rows, self.cols, self.max_moves = self._build(self._parameters)
        self.representation: Representation = representation
        self.params: np.ndarray = representation.params
        self.kernels: GameKernels = representation.kernels
        self.num_actions = int(self.num_actions_of(self._parameters))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.__signature__ = inspect.Signature(
            [
                inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
                for p in cls.PARAMETERS
            ]
        )

    # --- subclass hooks ------------------------------------------------------------

    def _resolve(self, values: dict[str, Any]) -> dict[str, Any]:
        """Cross-parameter checks; returns the canonical parameters (``self.parameters``)."""
        return values

    def _build(self, parameters: dict[str, Any]) -> tuple[Representation, int, int, int]:
        """``(representation, rows, cols, max_moves)`` of the game."""
        raise NotImplementedError

    def num_actions_of(self, parameters: dict[str, Any]) -> int:
        """Size of the action space."""
        return self.rows * self.cols

    @property
    def title(self) -> str:
        """The game's name for people, with its size and options (``"Hex 7 x 7 (swap rule
        on)"``); by default the Gymnasium name and the board size."""
        return f"{self.gym_name} {self.rows} x {self.cols}"

    @property
    def special_actions(self) -> dict[int, str]:
        """Actions that name no cell (Hex's ``swap``, Othello's ``pass``), by name."""
        return {}

    def illegal_reason(self, state: GameState, action: int, status: Status) -> str:
        """Why ``action`` (in range) is illegal in ``state``, for error messages."""
        if status == Status.GAME_OVER:
            return f"action {action} is illegal: the game is over ({state.outcome.name})"
        if status == Status.OCCUPIED:
            row, col = divmod(action, self.cols)
            return f"action {action} is illegal: cell (row {row}, col {col}) is occupied"
        return f"action {action} is illegal here ({status.name.lower().replace('_', ' ')})"

    def last_move_cell(self, state: GameState) -> tuple[int, int] | None:
        """(row, col) of the stone the last action placed; None before the first move or after
        a move that placed none."""
        last = state.last_action
        if last is None or last in self.special_actions:
            return None
        return divmod(last, self.cols)

    def winning_cells(self, state: GameState) -> list[tuple[int, int]]:
        """Cells to highlight once the game is won (sorted); [] if none."""
        return []

    def symmetries(self) -> tuple[Symmetry, ...]:
        """Board transformations under which the rules are unchanged, identity first.

        Default: the symmetries of a rectangle of cells (8 on a square board, 4 otherwise);
        special actions map to themselves.
        """
        return dihedral_symmetries(self.rows, self.cols, self.num_actions)

    def text(self, state: GameState) -> str:
        """The board as plain text, a row per line (``x`` player_0, ``o`` player_1)."""
        return "\n".join(" ".join(STONE_CHARS[int(v)] for v in row) for row in state.board)

    def openspiel_reference(self) -> tuple[str, dict[str, Any]] | None:
        """``(name, parameters)`` of the same game in OpenSpiel, with the same actions, or None."""
        return None

    def exact_solver(self) -> ExactSolver | None:
        """A new exact solver of this game's positions (with its own tables), or None if the
        game has none (the default)."""
        return None

    # --- common API ----------------------------------------------------------------

    @property
    def parameters(self) -> dict[str, Any]:
        """Keyword arguments that rebuild this game."""
        return dict(self._parameters)

    def new_initial_state(self) -> GameState:
        """The starting position, ``player_0`` to move."""
        return GameState(self, self.representation.initial.copy())

    def num_distinct_actions(self) -> int:
        """Size of the action space (same name as OpenSpiel's)."""
        return self.num_actions

    def action_to_cell(self, action: int) -> tuple[int, int] | None:
        """(row, col) an action names; for gravity games the column's top row; None for a
        special action."""
        if self.gravity:
            return (0, action)
        if action in self.special_actions:
            return None
        return divmod(action, self.cols)

    def action_name(self, action: int) -> str:
        """How people write ``action``: a cell (``c3``), a 1-based column (``4``) or a
        special action's name."""
        if action in self.special_actions:
            return self.special_actions[action]
        if self.gravity:
            return str(action + 1)
        return cell_name(*divmod(action, self.cols))

    def parse_action(self, text: str) -> int:
        """The action ``text`` names (the inverse of :meth:`action_name`; legality unchecked).

        Raises:
            TypeError: ``text`` is not a str.
            ValueError: ``text`` names no action of this game; the message says how moves
                are written.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move must be a str, got {type(text).__name__}")
        entry = text.strip().lower()
        for action, name in self.special_actions.items():
            if entry == name:
                return action
        if self.gravity:
            try:
                return parse_column_number(entry, self.cols)
            except ValueError as error:
                raise ValueError(f"{error}: enter {self.move_format()}") from None
        if entry.isalpha() and entry.isascii():
            raise ValueError(f"{text!r} is not a move here: enter {self.move_format()}")
        row, col = parse_cell_name(entry, self.rows, self.cols)
        return row * self.cols + col

    def move_format(self) -> str:
        """How to enter a move, for help lines."""
        if self.gravity:
            return f"a column number, 1 to {self.cols}"
        last = cell_name(self.rows - 1, self.cols - 1)
        text = f"a cell, column letter then row number, a1 to {last}"
        for name in self.special_actions.values():
            text += f", or '{name}'"
        return text

    # --- equality, text, pickling --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._parameters == self._parameters

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(sorted(self._parameters.items()))))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._parameters.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_game, (type(self), self._parameters))


def _rebuild_game(cls: type[BoardGame], parameters: dict[str, Any]) -> BoardGame:
    return cls(**parameters)


def set_up_board(board: Any, shape: tuple[int, int], player: int) -> np.ndarray:
    """``board`` as an int8 array, checked for a set-up position (``BoardGame.position``).

    Raises:
        TypeError: ``board`` is not an integer array-like or ``player`` not an int.
        ValueError: a shape other than ``shape``, a value other than 0, 1, 2, or a player
            other than 0 or 1.
    """
    cells = np.asarray(board)
    if cells.dtype.kind not in "iu":
        raise TypeError(f"board must hold integers 0, 1, 2, got dtype {cells.dtype}")
    if cells.shape != shape:
        raise ValueError(f"board must have shape {shape}, got {cells.shape}")
    if not np.isin(cells, (0, 1, 2)).all():
        raise ValueError("board values must be 0 (empty), 1 (player_0) or 2 (player_1)")
    if isinstance(player, bool) or not isinstance(player, numbers.Integral):
        raise TypeError(f"player must be 0 or 1, got {player!r} of type {type(player).__name__}")
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player}")
    return cells.astype(np.int8)


def require_size_agrees(game: BoardGame, given: dict[str, Any]) -> None:
    """Refuse a ``size`` given with a ``rows`` or ``cols`` that differs from it (a game with
    the three, whose ``size`` is the side of a square board): which one was meant?

    Raises:
        ValueError: naming the three values.
    """
    size = given.get("size")
    if size is not None and (game.rows, game.cols) != (size, size):
        sides = ", ".join(f"{k}={given[k]}" for k in ("rows", "cols") if given.get(k) is not None)
        raise ValueError(
            f"size={size} conflicts with {sides}: give size for a square board, or rows and cols"
        )


def dihedral_symmetries(rows: int, cols: int, num_actions: int) -> tuple[Symmetry, ...]:
    """The symmetries of a ``rows`` x ``cols`` rectangle of cells (actions ``r * cols + c``;
    actions from ``rows * cols`` on map to themselves): 8 on a square board, else 4."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    maps = {
        "identity": (r, c),
        "rotate 180": (rows - 1 - r, cols - 1 - c),
        "mirror left-right": (r, cols - 1 - c),
        "mirror top-bottom": (rows - 1 - r, c),
    }
    if rows == cols:
        maps |= {
            "rotate 90": (c, rows - 1 - r),
            "rotate 270": (cols - 1 - c, r),
            "transpose": (c, r),
            "anti-transpose": (cols - 1 - c, rows - 1 - r),
        }
    return tuple(
        _symmetry(name, new_r * cols + new_c, num_actions) for name, (new_r, new_c) in maps.items()
    )


def _symmetry(name: str, cells: np.ndarray, num_actions: int) -> Symmetry:
    actions = np.arange(num_actions)
    actions[: len(cells)] = cells
    return Symmetry(name, cells.astype(np.int64), actions.astype(np.int64))
