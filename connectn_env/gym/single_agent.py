"""Single-agent Gymnasium env: the learner plays one side of a board game against an opponent."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from connectn_env.envs.base import RENDER_MODES
from connectn_env.envs.order import CallOrderError
from connectn_env.envs.reset_args import require_reset_options, require_reset_seed
from connectn_env.games import BoardGame, GameState, IllegalActionError
from connectn_env.games.validation import require_action, require_choice
from connectn_env.gym.opponents import make_opponent, play_reply
from connectn_env.gym.selfplay import SelfPlayOpponent, SelfPlaySeat
from connectn_env.render.dispatch import StateRenderer

LEARNER_SIDES = ("first", "second", "random")
ILLEGAL_ACTION_MODES = ("lose", "raise")
ILLEGAL_ACTION_REWARD = -1.0
_SEED_BOUND = 2**63


class StepOrderError(CallOrderError, RuntimeError):
    """``step()`` before ``reset()`` or after the episode is over: a
    :class:`~connectn_env.envs.order.CallOrderError` (so a ``ValueError``) that is also a
    ``RuntimeError`` (what ``step`` raised after the end of an episode in earlier versions)."""


def check_learner_side(game: BoardGame, learner_side: str) -> None:
    """Refuse a learner that may move second in a game the opening move can end.

    In such a game (``n=1``, a Hex board one row high...) an episode would be over before
    the learner's first action.

    Raises:
        ValueError: ``learner_side`` is not ``"first"`` and some opening move ends the game.
    """
    if learner_side == "first":
        return
    start = game.new_initial_state()
    for action in start.legal_actions():
        state = start.clone()
        state.apply_action(action)
        if state.is_terminal():
            raise ValueError(
                f"learner_side={learner_side!r} is not possible in {game!r}: the opening "
                f"move {action} ends the game; use learner_side='first'"
            )


class BoardGameGymEnv(gymnasium.Env):
    """A board game of the suite as a single-agent Gymnasium env.

    The learner plays one side; the opponent's replies happen inside ``step`` (and in
    ``reset`` when the learner moves second). Observations are int8 (rows, cols, 2)
    planes [learner's stones, opponent's stones]; the legal-action mask is
    ``info["action_mask"]`` and :meth:`action_masks` (sb3-contrib's convention). Rewards
    are +1 win, -1 loss, 0 draw, when the episode ends; ``truncated`` is always False.

    Args:
        game: The rules and parameters.
        opponent: ``"random"`` (default), ``"mcts"`` (``agents.MCTSAgent(**opponent_kwargs)``),
            ``"self"`` or a :class:`~connectn_env.gym.selfplay.SelfPlayOpponent` (frozen
            snapshots of the learner's policy), an agent spec (``"ab:depth=4"``,
            ``"mcts:simulations=200"``), an agent with ``act(env)``, or a callable
            ``fn(observation, action_mask) -> action`` given the opponent's own view; see
            :func:`~connectn_env.gym.opponents.make_opponent`.
        opponent_kwargs: Keyword arguments of the ``"mcts"`` opponent, e.g.
            ``{"simulations": 200}``, or of the ``"self"`` one (``{"pool_size": 5}``).
        learner_side: ``"first"`` (default), ``"second"``, or ``"random"``: drawn per
            episode from the env's seeded generator.
        illegal_action: ``"lose"`` (default): an illegal action ends the episode with
            reward -1 (``info["illegal_action"]`` is True). ``"raise"``: raise
            :class:`~connectn_env.games.IllegalActionError` and leave the env unchanged.
        render_mode: ``"human"``, ``"rgb_array"``, ``"ansi"`` or None.

    Attributes:
        game: The rules and parameters.
        game_state: The current position (:class:`~connectn_env.games.GameState`); read it
            or clone it, do not modify it.
        learner: The learner's player index in the current episode (0 moves first).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        game: BoardGame,
        *,
        opponent: Any = "random",
        opponent_kwargs: dict[str, Any] | None = None,
        learner_side: str = "first",
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
        self.learner_side = require_choice("learner_side", learner_side, LEARNER_SIDES)
        check_learner_side(game, learner_side)
        self.illegal_action = require_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            require_choice("render_mode", render_mode, RENDER_MODES)
        self.opponent = make_opponent(opponent, opponent_kwargs, game)
        self.game = game
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, shape=(game.rows, game.cols, 2), dtype=np.int8)
        self.action_space = spaces.Discrete(game.num_actions)
        self.game_state: GameState = game.new_initial_state()
        self.learner = 0
        self._over = False  # the episode has ended (a finished game or an illegal action)
        self._started = False  # reset() has succeeded once
        self._renderer = StateRenderer(
            game, render_mode, caption=type(self).__name__, fps=self.metadata["render_fps"]
        )

    # --- Gymnasium API ------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode: pick the learner's side, seed the opponent, play its first
        move if the learner moves second.

        Args:
            seed: Seeds the env's generator, which draws the side and the opponent's seed:
                None or an int from 0 to 2**128 - 1, used whole (numpy integers are fine;
                see :mod:`connectn_env.envs.reset_args`).
            options: Not used; must be None or an empty dict.

        Raises:
            TypeError, ValueError: a bad ``seed`` or ``options``; the env is unchanged, as
                it is when the opponent's opening move fails.
        """
        seed = require_reset_seed(seed)
        if require_reset_options(options):
            raise ValueError(f"reset takes no options, got {options!r}")
        saved = self._episode()
        try:
            super().reset(seed=seed)
            if self.learner_side == "random":
                self.learner = int(self.np_random.integers(2))
            else:
                self.learner = LEARNER_SIDES.index(self.learner_side)
            self.opponent.reset(int(self.np_random.integers(_SEED_BOUND)))
            self.game_state = self.game.new_initial_state()
            self._over = False
            if self.learner == 1:
                play_reply(self.opponent, self.game_state)
        except Exception:
            self._restore(saved)
            raise
        self._started = True
        if self.render_mode == "human":
            self.render()
        return self._observation(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponent's reply unless the game is over.

        Raises:
            TypeError: ``action`` is not an integer (numpy integers are fine).
            ValueError: ``action`` is outside the action space.
            IllegalActionError: with ``illegal_action="raise"``, a masked-out action.
            StepOrderError: ``reset`` was never called, or the episode is over (a
                ``ValueError`` and a ``RuntimeError``).
        """
        if not self._started:
            raise StepOrderError("step() was called before reset(): call reset() before step()")
        if self._over:
            raise StepOrderError("the episode is over: call reset() before step()")
        action = self._validate_action(action)
        info: dict[str, Any] = {}
        before = self.game_state.data.copy()
        try:
            self.game_state.apply_action(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info["illegal_action"] = True
            reward = ILLEGAL_ACTION_REWARD
        else:
            if not self.game_state.is_terminal():
                try:
                    play_reply(self.opponent, self.game_state)
                except Exception:
                    self.game_state.data = before
                    raise
            self._over = self.game_state.is_terminal()
            reward = self.game_state.returns()[self.learner]
        info["action_mask"] = self.action_masks()
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, info

    def render(self) -> np.ndarray | str | None:
        """Draw the board: a window (human), an RGB array (rgb_array) or text (ansi)."""
        return self._renderer.render(self.game_state)

    def close(self) -> None:
        """Close the window if one is open; safe to call more than once."""
        self._renderer.close()

    @property
    def self_play(self) -> SelfPlayOpponent | None:
        """The pool of snapshots the opponent draws from, if it plays self-play."""
        return self.opponent.pool if isinstance(self.opponent, SelfPlaySeat) else None

    # --- masks ---------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """A new int8 array of the learner's legal actions (all zeros once the episode is over).

        sb3-contrib's ``MaskablePPO`` calls this; through Gymnasium wrappers use
        ``env.get_wrapper_attr("action_masks")()``.
        """
        if self._over:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return self.game_state.legal_action_mask()

    # --- helpers -------------------------------------------------------------------------

    def _episode(self) -> tuple[Any, ...]:
        """What ``reset`` changes, to put back if it fails."""
        generator = self._np_random
        state = None if generator is None else generator.bit_generator.state
        return generator, state, self._np_random_seed, self.learner, self.game_state, self._over

    def _restore(self, saved: tuple[Any, ...]) -> None:
        generator, state, seed, self.learner, self.game_state, self._over = saved
        if generator is not None:
            generator.bit_generator.state = state
        self._np_random, self._np_random_seed = generator, seed

    def _observation(self) -> np.ndarray:
        return self.game_state.observation(self.learner)

    def _validate_action(self, action: Any) -> int:
        return require_action(action, self.game.num_actions)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.game!r}, opponent={self.opponent!r}, "
            f"learner_side={self.learner_side!r})"
        )
