"""Native batched vector env: N boards stepped together in compiled code."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from connectn_env.envs.reset_args import require_reset_options, require_reset_seed
from connectn_env.games import BoardGame, GameState, IllegalActionError
from connectn_env.games.contract import bind
from connectn_env.games.lib.rng import xorshift_next
from connectn_env.games.validation import require_choice, require_int
from connectn_env.gym import vector_kernels
from connectn_env.gym.opponents import (
    MCTSOpponent,
    Opponent,
    RandomOpponent,
    make_opponent,
    play_replies,
)
from connectn_env.gym.selfplay import SelfPlayOpponent, SelfPlaySeat, make_self_play
from connectn_env.gym.single_agent import (
    ILLEGAL_ACTION_MODES,
    LEARNER_SIDES,
    StepOrderError,
    check_learner_side,
)
from connectn_env.memory_limits import check_fits_in_memory
from connectn_env.render.dispatch import StateRenderer

VECTOR_RENDER_MODES = ("rgb_array", "ansi")
AUTORESET_MODES = (AutoresetMode.NEXT_STEP.value, AutoresetMode.SAME_STEP.value)
_SEED_BOUND = 2**63
_COPIES = 4  # arrays per board: states, a saved copy, observations and masks, step buffers


class BoardGameVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` copies of :class:`~connectn_env.gym.single_agent.BoardGameGymEnv` in one
    int32 array, stepped by compiled kernels.

    Observations are int8 (num_envs, rows, cols, 2), actions an int array (num_envs,),
    rewards float64, terminations bool, truncations always False. ``info["action_mask"]``
    and :meth:`action_masks` give the int8 (num_envs, num_actions) masks. The random
    opponent and the ``"mcts"`` opponent (a fresh compiled UCT search per move, from
    ``agents.native``, when opponent_kwargs only sets ``simulations``, ``exploration``,
    ``max_nodes`` or ``reuse_tree``) play inside compiled code; other opponents (agents,
    callables, ``"mcts"`` with RAVE or a time limit) are called from Python for the boards
    where they move. A self-play opponent (``"self"`` or a
    :class:`~connectn_env.gym.selfplay.SelfPlayOpponent`) is one pool for all boards, each
    board drawing its own snapshot per episode; the boards that play the same snapshot are
    evaluated in one batched call per step.

    Autoreset follows Gymnasium 1.x: ``"NextStep"`` (default; the step after an episode
    ends resets that board, its action is ignored and its reward is 0) or ``"SameStep"``
    (the board is reset in the step that ends the episode; ``info["final_obs"]`` and
    ``info["final_info"]`` hold the last observation and info).

    The randomness (side choice, compiled opponents) comes from a per-board xorshift
    generator seeded by ``reset(seed=s)`` with ``s + i`` for board ``i``: reproducible,
    but not the same stream as the single-agent env's.

    Args:
        game: The rules and parameters.
        num_envs: Number of boards, at least 1.
        opponent, opponent_kwargs, learner_side, illegal_action: As for
            :class:`~connectn_env.gym.single_agent.BoardGameGymEnv`; an agent, callable or
            self-play opponent is shared by all boards.
        render_mode: ``"rgb_array"``, ``"ansi"`` (a tuple with one frame per board) or None.
        autoreset_mode: ``"NextStep"`` (default) or ``"SameStep"`` (or the
            ``gymnasium.vector.AutoresetMode`` members).
    """

    def __init__(
        self,
        game: BoardGame,
        *,
        num_envs: int = 1,
        opponent: Any = "random",
        opponent_kwargs: dict[str, Any] | None = None,
        learner_side: str = "first",
        illegal_action: str = "lose",
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
        self.num_envs = check_fits_in_memory("num_envs", num_envs, _bytes_per_board(game))
        self.learner_side = require_choice("learner_side", learner_side, LEARNER_SIDES)
        check_learner_side(game, learner_side)
        self.illegal_action = require_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            require_choice("render_mode", render_mode, VECTOR_RENDER_MODES)
        if isinstance(autoreset_mode, AutoresetMode):
            autoreset_mode = autoreset_mode.value
        self.autoreset_mode = AutoresetMode(
            require_choice("autoreset_mode", autoreset_mode, AUTORESET_MODES)
        )
        self._mcts, self._opponents = _reply_plan(opponent, opponent_kwargs, game, self.num_envs)
        self._tree = None  # MCTS tree buffers, allocated on first use
        self.game = game
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(VECTOR_RENDER_MODES),
            "autoreset_mode": self.autoreset_mode,
        }
        self.single_observation_space = spaces.Box(
            0, 1, shape=(game.rows, game.cols, 2), dtype=np.int8
        )
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._params = game.params
        self._initial = game.new_initial_state().data
        self._side_mode = (
            vector_kernels.SIDE_RANDOM
            if learner_side == "random"
            else LEARNER_SIDES.index(learner_side)
        )
        self._states = np.tile(self._initial, (n, 1))
        self._learner = np.zeros(n, dtype=np.int8)
        self._over = np.zeros(n, dtype=np.bool_)
        self._started = False  # reset() has succeeded once
        self._scratch = np.zeros(game.num_actions, dtype=np.int64)
        self._masks = np.zeros((n, game.num_actions), dtype=np.int8)
        self._renderer = StateRenderer(game, render_mode, caption=type(self).__name__, fps=30)
        self._entry_points: dict[Any, Any] = {}
        self._rngs = np.random.SeedSequence().generate_state(n, np.uint64) | np.uint64(1)

    # --- Gymnasium API ------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every board, or those in ``options["reset_mask"]`` (bool array (num_envs,)).

        Args:
            seed: None, an int ``s`` (board ``i`` gets ``s + i``) or a list of num_envs
                ints or Nones; a board without a seed continues its generator. Board seeds
                are ints from 0 to 2**128 - 1, used whole (``2**64`` is not ``0``: see
                :mod:`connectn_env.envs.reset_args`); numpy integers are fine, bools are not.
            options: None or ``{"reset_mask": mask}``.

        Raises:
            TypeError, ValueError: a bad seed or options; every argument is checked
                before any board changes, and nothing changes if a Python opponent's
                opening move fails.
        """
        which = self._reset_mask(options)
        seeds = self._board_seeds(seed)
        with self._restored_on_error():
            super().reset(
                seed=seeds[0] if seed is not None and not isinstance(seed, list | tuple) else None
            )
            for i, board_seed in enumerate(seeds):
                if which[i] and board_seed is not None:
                    self._rngs[i] = _rng_state(board_seed)
            self._start_boards(which)
            self._over[which] = False
            obs = self._observe()
        self._started = True
        return obs, {"action_mask": self._masks.copy(), "_action_mask": which.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one learner action per board (and the opponent's replies); autoreset.

        A Python opponent that fails (in a reply, or in the opening move of a board reset
        in this step) changes nothing: its error is raised with every board as it was.

        Raises:
            StepOrderError: ``reset`` was never called (a ``ValueError``).
            TypeError: ``actions`` is not an integer array.
            ValueError: wrong shape, or an action outside the action space.
            IllegalActionError: with ``illegal_action="raise"``, a masked-out action (no
                board is changed).
        """
        if not self._started:
            raise StepOrderError("step() was called before reset(): call reset() before step()")
        actions = self._validate_actions(actions)
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        illegal = np.zeros(n, dtype=np.bool_)
        reply = np.zeros(n, dtype=np.bool_)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            starting = self._over.copy()
        else:
            starting = np.zeros(n, dtype=np.bool_)
        moving = ~starting
        if self.illegal_action == "raise":
            bad = self._compiled(
                vector_kernels.first_illegal,
                self.game.kernels,
                self._params,
                self._states,
                actions,
                moving,
            )
            if bad >= 0:
                raise IllegalActionError(
                    f"action {actions[bad]} of board {bad} is illegal; legal actions: "
                    f"{np.flatnonzero(self._masks[bad]).tolist()}"
                )
        with self._restored_on_error():
            opens = self._start_boards(starting, reply_later=True)
            self._compiled(
                vector_kernels.learner_moves,
                self.game.kernels,
                self._params,
                self._states,
                actions,
                self._learner,
                moving,
                rewards,
                terminated,
                illegal,
                reply,
            )
            self._replies(reply | opens)
            self._compiled(
                vector_kernels.score_replies,
                self.game.kernels,
                self._params,
                self._states,
                self._learner,
                reply,
                rewards,
                terminated,
            )
            self._over = terminated.copy()
            obs = self._observe()
            step_info = {
                "action_mask": self._masks.copy(),
                "_action_mask": np.ones(n, dtype=np.bool_),
            }
            if illegal.any():
                step_info["illegal_action"] = illegal
                step_info["_illegal_action"] = illegal.copy()
            if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
                infos = self._same_step_reset(terminated, obs, step_info)
                obs = self._observe()
                infos["action_mask"] = self._masks.copy()
            else:
                infos = step_info
        return obs, rewards, terminated, np.zeros(n, dtype=np.bool_), infos

    def action_masks(self) -> np.ndarray:
        """A new int8 (num_envs, num_actions) array of the learner's legal actions (all zeros
        for a board whose episode is over)."""
        return self._masks.copy()

    def game_state(self, index: int) -> GameState:
        """A copy of board ``index``'s position (a finished board stays readable until the
        step that resets it)."""
        index = require_int("index", index, 0, self.num_envs - 1)
        return GameState(self.game, self._states[index].copy())

    @property
    def self_play(self) -> SelfPlayOpponent | None:
        """The pool of snapshots every board's opponent draws from, if it plays self-play."""
        if self._opponents is not None and isinstance(self._opponents[0], SelfPlaySeat):
            return self._opponents[0].pool
        return None

    @property
    def learners(self) -> np.ndarray:
        """A new int8 array: the learner's player index on each board (0 moves first)."""
        return self._learner.copy()

    def render(self) -> tuple[np.ndarray | str, ...] | None:
        """One frame per board: RGB arrays (rgb_array) or text (ansi)."""
        if self.render_mode is None:
            return self._renderer.render(self.game_state(0))  # warns, returns None
        return tuple(self._renderer.render(self.game_state(i)) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        """Release the renderer; ``close()`` may be called more than once."""
        self._renderer.close()

    # --- helpers -------------------------------------------------------------------------

    def _start_boards(self, which: np.ndarray, *, reply_later: bool = False) -> np.ndarray:
        """Empty the flagged boards, pick sides, reseed Python opponents; the opponent opens
        now, or (``reply_later``) the returned flags say where it must."""
        opens = np.zeros(self.num_envs, dtype=np.bool_)
        if not which.any():
            return opens
        vector_kernels.reset_boards(
            self._initial, self._states, self._learner, self._rngs, self._side_mode, which, opens
        )
        if self._opponents is not None:
            for i in np.flatnonzero(which):
                seed = int(xorshift_next(self._rngs[i : i + 1]) % np.uint64(_SEED_BOUND))
                self._opponents[i].reset(seed)
        if not reply_later:
            self._replies(opens)
        return opens

    def _replies(self, which: np.ndarray) -> None:
        """The opponent moves on the flagged boards."""
        if self._mcts is not None:
            from agents.loop import new_workspace
            from agents.tree import new_tree
            from connectn_env.gym.mcts_replies import mcts_replies

            simulations, agent, max_nodes = self._mcts
            game = self.game
            if self._tree is None:
                workspace = new_workspace(
                    game.kernels, game.params, self._initial, game.num_actions, game.max_moves
                )
                self._tree = (new_tree(max_nodes), workspace)
            policy, choose, data = agent.compiled_setup(game)  # the agent's options
            self._compiled(
                mcts_replies,
                game.kernels,
                self._params,
                self._states,
                which,
                self._rngs,
                simulations,
                policy,
                choose,
                self._tree[0],
                self._tree[1],
                data,
            )
            return
        if self._opponents is None:
            self._compiled(
                vector_kernels.random_replies,
                self.game.kernels,
                self._params,
                self._states,
                which,
                self._rngs,
                self._scratch,
            )
            return
        boards = np.flatnonzero(which)
        # Views of the boards' rows: the opponents' moves write through.
        play_replies(
            [self._opponents[i] for i in boards],
            [GameState(self.game, self._states[i]) for i in boards],
        )

    def _same_step_reset(
        self, done: np.ndarray, obs: np.ndarray, step_info: dict[str, Any]
    ) -> dict[str, Any]:
        """Reset the finished boards now; the infos carry their final observation and info."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(done):
            final_obs[i] = obs[i].copy()
        final_info = {key: value.copy() for key, value in step_info.items()}
        for key in list(final_info):
            if not key.startswith("_"):
                final_info[key][~done] = 0
                final_info[f"_{key}"] &= done
        self._start_boards(done)
        self._over[done] = False
        return {
            "final_obs": final_obs,
            "_final_obs": done.copy(),
            "final_info": final_info,
            "_final_info": done.copy(),
            "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
        }

    def _observe(self) -> np.ndarray:
        game = self.game
        obs = np.empty((self.num_envs, game.rows, game.cols, 2), dtype=np.int8)
        masks = np.empty((self.num_envs, game.num_actions), dtype=np.int8)
        flat = obs.reshape(self.num_envs, -1)
        self._compiled(
            vector_kernels.observe,
            game.kernels,
            self._params,
            self._states,
            self._learner,
            self._over,
            flat,
            masks,
        )
        self._masks = masks
        return obs

    def _validate_actions(self, actions: Any) -> np.ndarray:
        if isinstance(actions, list | tuple) and any(
            isinstance(a, bool | np.bool_) for a in actions
        ):
            raise TypeError(f"actions must be integers, not bools, got {actions!r}")
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            raise TypeError(
                f"actions must be an integer array of shape ({self.num_envs},), got dtype "
                f"{array.dtype}"
            )
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got shape {array.shape}")
        num_actions = self.game.num_actions
        if array.min() < 0 or array.max() >= num_actions:
            bad = int(array[(array < 0) | (array >= num_actions)][0])
            raise ValueError(
                f"action {bad} is outside the action space: actions are 0 to {num_actions - 1}"
            )
        return array.astype(np.int64)

    def _reset_mask(self, options: dict[str, Any] | None) -> np.ndarray:
        if not require_reset_options(options):
            return np.ones(self.num_envs, dtype=np.bool_)
        if set(options) != {"reset_mask"}:
            raise ValueError(f"options must be None or {{'reset_mask': mask}}, got {options!r}")
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError("options['reset_mask'] must be a numpy bool array")
        if mask.shape != (self.num_envs,) or not mask.any():
            raise ValueError(
                f"options['reset_mask'] must have shape ({self.num_envs},) and a True value, "
                f"got {mask!r}"
            )
        return mask.copy()

    def _board_seeds(self, seed: Any) -> list[int | None]:
        """Each board's seed; every one is checked before any is used."""
        if isinstance(seed, list | tuple):
            if len(seed) != self.num_envs:
                raise ValueError(
                    f"seed must be None, an int or a list of {self.num_envs} ints or Nones, "
                    f"got a list of {len(seed)}"
                )
            return [require_reset_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]
        first = require_reset_seed(seed)
        if first is None:
            return [None] * self.num_envs
        last = self.num_envs - 1
        require_reset_seed(first + last, f"seed + {last} (the seed of board {last})")
        return [first + i for i in range(self.num_envs)]

    @contextmanager
    def _restored_on_error(self) -> Iterator[None]:
        """Undo a reset or step whose Python opponent failed (compiled ones cannot fail)."""
        if self._opponents is None:
            yield
            return
        saved = (
            self._states.copy(),
            self._learner.copy(),
            self._rngs.copy(),
            self._over.copy(),
            self._masks,  # replaced, never modified in place
            self._np_random,  # reset(seed=...) replaces the generator
            self._np_random_seed,
        )
        try:
            yield
        except Exception:
            (
                self._states,
                self._learner,
                self._rngs,
                self._over,
                self._masks,
                self._np_random,
                self._np_random_seed,
            ) = saved
            raise

    def _compiled(self, function: Any, *args: Any) -> Any:
        """Call a compiled phase through its entry point for these argument types (bound on
        first use: this skips numba's typing of the kernels tuple on every step)."""
        entry = self._entry_points.get(function)
        if entry is None:
            entry = self._entry_points[function] = bind(function, *args)
        return entry(*args)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_tree"] = None  # scratch space, reallocated when needed
        state["_entry_points"] = {}  # bound again after unpickling
        return state

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.game!r}, num_envs={self.num_envs}, "
            f"learner_side={self.learner_side!r})"
        )


def _reply_plan(
    opponent: Any, opponent_kwargs: dict[str, Any] | None, game: BoardGame, num_envs: int
) -> tuple[tuple[int, float, int] | None, list[Opponent] | None]:
    """How the opponent replies: ``(mcts, adapters)``. Compiled random play: (None, None);
    compiled MCTS: ((simulations, agent, max_nodes), None), the agent giving its options for
    the game (:meth:`agents.MCTSAgent.compiled_setup`); else one adapter per board
    (``"self"``: seats at one new pool)."""
    if isinstance(opponent, str) and opponent == "self":
        opponent, opponent_kwargs = make_self_play(opponent_kwargs), None
    first = make_opponent(opponent, opponent_kwargs, game)  # validates the arguments
    if isinstance(first, RandomOpponent):
        return None, None
    if isinstance(first, MCTSOpponent):
        from connectn_env.gym.mcts_replies import NATIVE_MCTS_KWARGS

        if set(opponent_kwargs or {}) <= NATIVE_MCTS_KWARGS:
            agent = first.agent
            agent.compiled_setup(game)  # refuses options the game cannot honour, at once
            return (agent.simulations or 1000, agent, agent.max_nodes), None
    others = [make_opponent(opponent, opponent_kwargs, game) for _ in range(num_envs - 1)]
    return None, [first, *others]


def _bytes_per_board(game: BoardGame) -> int:
    """Memory one board takes (its state, observation and mask, each kept in a few copies)."""
    state = game.new_initial_state().data.nbytes
    return _COPIES * (state + 2 * game.rows * game.cols + 9 * game.num_actions)


def _rng_state(seed: int) -> np.uint64:
    """A non-zero xorshift state derived from ``seed``."""
    return np.random.SeedSequence(seed).generate_state(1, np.uint64)[0] | np.uint64(1)
