"""The suite's games as OpenSpiel games: ``pyspiel.load_game("connectn_connect_four")``.

Importing this module registers, with OpenSpiel's game registry, one Python game per name of
the game registry (:func:`spiel_games`: ``connectn_connect_four``, ``connectn_tictactoe``,
``connectn_connect_n``, ``connectn_gomoku``, ``connectn_hex``, ...), so that OpenSpiel's
algorithms (``MCTSBot``, ``evaluate_bots``, ``random_sim_test``, playthroughs, ...) run on them
unchanged. Each ``pyspiel.State`` is a thin adapter over a
:class:`~connectn_env.games.GameState`: the rules stay in the suite's compiled core.
OpenSpiel (``pip install open-spiel``, part of the ``test`` extra) is imported only here,
never by ``import connectn_env``.

Observation tensor: the env's int8 planes ``(rows, cols, 2)`` [the observing player's stones,
the opponent's] as float32; observation string: the board as text; information-state string:
the action history, as in OpenSpiel's perfect-information games. Action strings are the
play notation: ``"4"`` (a column, 1-based), ``"c3"`` (a cell, ``a1`` top left) or ``"swap"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from connectn_env.games import REGISTRY, BoardGame, GameEntry, GameState, Parameter

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as error:  # pragma: no cover - exercised only without open-spiel
    raise ImportError(
        "connectn_env.openspiel_games needs OpenSpiel: pip install open-spiel "
        '(or pip install ".[test]" from a checkout)'
    ) from error

__all__ = [
    "BoardObserver",
    "SpielEntry",
    "SpielGame",
    "SpielState",
    "register",
    "spiel_games",
    "unwrap",
]

Params = dict[str, Any]


@dataclass(frozen=True)
class SpielEntry:
    """One OpenSpiel game of the suite.

    Attributes:
        long_name: OpenSpiel's ``GameType.long_name``.
        build: Builds the suite's game from the OpenSpiel parameters (every parameter of
            ``parameters`` is given: OpenSpiel fills in the defaults).
        parameters: OpenSpiel's ``parameter_specification``: each parameter and its default
            (int, bool or str, which also fixes the type OpenSpiel accepts).
    """

    long_name: str
    build: Callable[[Params], BoardGame]
    parameters: Params = field(default_factory=dict)


def _spiel_default(parameter: Parameter) -> Any:
    """OpenSpiel parameters cannot be None: a derived value (a side "the same as size") is 0."""
    return 0 if parameter.default is None else parameter.default


def _builder(entry: GameEntry) -> Callable[[Params], BoardGame]:
    defaults = {p.name: _spiel_default(p) for p in entry.parameters}

    def build(params: Params) -> BoardGame:
        # OpenSpiel passes every parameter, its defaults filled in: only the others are given
        # (Gomoku's rows=10 comes with size=15, which must not conflict with it)
        return entry.make(**{k: v for k, v in params.items() if v != defaults.get(k)})

    return build


def spiel_games() -> dict[str, SpielEntry]:
    """The games this module registers, by OpenSpiel short name: ``connectn_<name>`` for every
    name of the game registry (presets without parameters)."""
    return {
        f"connectn_{name}": SpielEntry(
            f"connectn-env {entry.summary}",
            _builder(entry),
            {p.name: _spiel_default(p) for p in entry.parameters},
        )
        for name, entry in REGISTRY.items()
    }


def register() -> list[str]:
    """Register every game of :func:`spiel_games` with OpenSpiel (idempotent).

    Returns:
        The short names, all loadable with ``pyspiel.load_game``.
    """
    known = set(pyspiel.registered_names())
    for name, entry in spiel_games().items():
        if name not in known:
            game_type = _game_type(name, entry)
            pyspiel.register_game(game_type, _game_class(game_type, entry))
    return list(spiel_games())


def unwrap(state: pyspiel.State) -> GameState:
    """The suite's :class:`~connectn_env.games.GameState` behind a state of these games.

    Raises:
        TypeError: ``state`` is not a state of a game registered here.
    """
    if not isinstance(state, SpielState):
        raise TypeError(f"state must be a state of a connectn_* OpenSpiel game, got {state!r}")
    return state.position.state


def _game_type(name: str, entry: SpielEntry) -> pyspiel.GameType:
    game_type = pyspiel.GameType
    return game_type(
        short_name=name,
        long_name=entry.long_name,
        dynamics=game_type.Dynamics.SEQUENTIAL,
        chance_mode=game_type.ChanceMode.DETERMINISTIC,
        information=game_type.Information.PERFECT_INFORMATION,
        utility=game_type.Utility.ZERO_SUM,
        reward_model=game_type.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(entry.parameters),
    )


def _game_class(game_type: pyspiel.GameType, entry: SpielEntry) -> type[SpielGame]:
    """A SpielGame subclass for one name: OpenSpiel's registry keeps the creator it is given
    until the process exits, and a class (unlike a closure) outlives the interpreter's
    shutdown, so the registry's last reference does not free it without the GIL."""
    name = "SpielGame_" + game_type.short_name
    return type(name, (SpielGame,), {"game_type": game_type, "entry": entry})


class SpielGame(pyspiel.Game):
    """A ``pyspiel.Game`` over one of the suite's games; :func:`register` makes one subclass
    per name, with the class attributes ``game_type`` and ``entry``."""

    game_type: pyspiel.GameType
    entry: SpielEntry

    def __init__(self, params: Params | None = None) -> None:
        params = dict(params or {})
        self.board_game = self.entry.build(params)
        board_game = self.board_game
        info = pyspiel.GameInfo(
            num_distinct_actions=board_game.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=board_game.max_moves,
        )
        super().__init__(self.game_type, info, params)

    def __reduce__(self) -> tuple[Callable[[str], pyspiel.Game], tuple[str]]:
        # As OpenSpiel pickles its own games: by the game string.
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self) -> SpielState:
        """The empty board, player 0 to move."""
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Params | None = None
    ) -> Any:
        """The board planes for observations; the history for (perfect-recall) info states."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.board_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Position:
    """Holds the suite's state; OpenSpiel clones a Python state by deep-copying its
    attributes, and this makes that copy one array copy (``GameState.clone``)."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Position:
        return _Position(self.state.clone())

    def __getstate__(self) -> GameState:
        return self.state

    def __setstate__(self, state: GameState) -> None:
        self.state = state


class SpielState(pyspiel.State):
    """A ``pyspiel.State`` adapter over :class:`~connectn_env.games.GameState`."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.position = _Position(game.board_game.new_initial_state())

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.TERMINAL``."""
        player = self.position.state.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if player < 0 else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.position.state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.state.game.action_name(int(action))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.position.state.is_terminal()

    def returns(self) -> list[float]:
        """+1 / -1 / 0 for each player (0 while the game goes on)."""
        return self.position.state.returns()

    def __str__(self) -> str:
        return str(self.position.state)


class BoardObserver:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) over the suite's board planes."""

    def __init__(self, board_game: BoardGame, params: Params | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        shape = (board_game.rows, board_game.cols, 2)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        """Planes [``player``'s stones, the opponent's] of ``state``."""
        self.dict["observation"][...] = state.position.state.observation(player)

    def string_from(self, state: SpielState, player: int) -> str:
        """The board as text (the same for both players: a perfect-information game)."""
        return str(state.position.state)


register()
