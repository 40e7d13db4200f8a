"""One generic PettingZoo AEC environment for every board game of the suite.

It handles spaces, masks, rewards, termination, illegal actions and render dispatch;
each game module only builds its :class:`~connectn_env.games.BoardGame`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from connectn_env.envs.order import OrderEnforcedEnv, game_over_error
from connectn_env.envs.reset_args import require_reset_options, require_reset_seed
from connectn_env.games import BoardGame, GameState, IllegalActionError
from connectn_env.games.validation import require_action, require_choice
from connectn_env.render.dispatch import StateRenderer

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("human", "rgb_array", "ansi")
ILLEGAL_ACTION_MODES = ("raise", "lose")
ILLEGAL_ACTION_REWARD = -1.0


class BoardGameEnv(AECEnv):
    """PettingZoo AEC environment for a two-player board game.

    ``player_0`` moves first. Observations are ``{"observation": int8 (rows, cols, 2)
    [own stones, opponent stones], "action_mask": int8 (num_actions,)}``; the mask is all
    zeros for the agent not to move, and for both once the game is over (an illegal move
    that loses included). Rewards are +1 / -1 / 0, given when the game ends.

    Args:
        game: The rules and parameters.
        render_mode: ``"human"``, ``"rgb_array"``, ``"ansi"`` or None.
        illegal_action: What a legal-looking but illegal action (a taken cell, a full
            column) does. ``"raise"`` (default): raise
            :class:`~connectn_env.games.IllegalActionError` (a ``ValueError``) and leave
            the env unchanged. ``"lose"``: PettingZoo's classic convention, used by the
            ``env()`` factories: the mover gets -1, the other agent 0, and the game ends.
            Actions outside the action space always raise ``TypeError``/``ValueError``.

    Attributes:
        game: The rules and parameters (a :class:`~connectn_env.games.BoardGame`).
        game_state: The current position, a :class:`~connectn_env.games.GameState` with the
            planning interface (``current_player``, ``legal_actions``, ``apply_action``,
            ``clone``, ``is_terminal``, ``returns``). Search agents read and clone it;
            do not mutate it, use ``step``.
    """

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "board_game_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: BoardGame,
        *,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__()
        if not isinstance(game, BoardGame):
            raise TypeError(f"game must be a BoardGame, got {type(game).__name__}")
        self.metadata = {**type(self).metadata, "name": f"{game.name}_v0"}
        if render_mode is not None:
            require_choice("render_mode", render_mode, RENDER_MODES)
        self.illegal_action = require_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        board_shape = (game.rows, game.cols, 2)
        self._action_spaces = {a: spaces.Discrete(game.num_actions) for a in AGENTS}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape=board_shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self._renderer = StateRenderer(
            game, render_mode, caption=self.metadata["name"], fps=self.metadata["render_fps"]
        )
        self._start_game()

    # --- AEC API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) observation space of ``agent``."""
        return self._observation_spaces[self._check_agent(agent)]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The (cached) action space of ``agent``."""
        return self._action_spaces[self._check_agent(agent)]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game from the empty board; ``seed`` also seeds the action spaces.

        Raises:
            TypeError, ValueError: ``seed`` is not None or an int from 0 to 2**128 - 1 (used
                whole; numpy integers are fine), or ``options`` is not None or a dict; the
                env is unchanged.
        """
        seed = require_reset_seed(seed)
        require_reset_options(options)
        if seed is not None:
            for offset, agent in enumerate(AGENTS):
                self._action_spaces[agent].seed(seed + offset)
        self._start_game()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """New observation arrays for ``agent`` (planes from its point of view and its mask).

        The mask is all zeros unless ``agent`` is to move in a game that goes on: after the
        end, whether by the rules or by an illegal move (``illegal_action="lose"``), every
        agent's mask is empty, as ``step`` then takes only None.
        """
        player = AGENTS.index(self._check_agent(agent))
        if agent == self.agent_selection and not self._is_done(agent):
            mask = self.game_state.legal_action_mask()
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game_state.observation(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for an agent that is done).

        Raises:
            TypeError: ``action`` is not an integer (numpy integers are fine).
            ValueError: ``action`` is outside the action space, or is not None for an
                agent that is done.
            CallOrderError: every agent is done (call ``reset()``).
            IllegalActionError: the action is in range but not legal now.
        """
        if not self.agents:
            raise game_over_error(f"step() (got action {action!r})")
        agent = self.agent_selection
        if self._is_done(agent):
            if action is not None:
                raise ValueError(
                    f"{agent} is done (the game is over): the only valid action is None, "
                    f"got {action!r}"
                )
            self._was_dead_step(action)
            return
        action = self.validate_action(action)
        try:
            self.game_state.apply_action(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            EnvLogger.warn_on_illegal_move()
            self.rewards = dict.fromkeys(AGENTS, 0.0)
            self.rewards[agent] = ILLEGAL_ACTION_REWARD
            self.infos[agent] = {"illegal_action": action}
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            if self.game_state.is_terminal():
                returns = self.game_state.returns()
                self.rewards = {AGENTS[0]: returns[0], AGENTS[1]: returns[1]}
                self.terminations = dict.fromkeys(AGENTS, True)
            else:
                self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards[agent] = 0.0
        self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the mover.

        Raises:
            CallOrderError: every agent is done (call ``reset()``).
        """
        if not self.agents:
            raise game_over_error("last()")
        return super().last(observe)

    def render(self) -> np.ndarray | str | None:
        """Draw the board: a window (human), an RGB array (rgb_array) or text (ansi)."""
        return self._renderer.render(self.game_state)

    def close(self) -> None:
        """Close the window if one is open; safe to call more than once."""
        self._renderer.close()

    # --- helpers -----------------------------------------------------------------------

    def validate_action(self, action: Any) -> int:
        """Return ``action`` as an int if it is an integer in the action space.

        Raises:
            TypeError: ``action`` is not an integer (None, float, str, bool...).
            ValueError: ``action`` is outside ``[0, num_actions)``.
        """
        return require_action(action, self.game.num_actions, self.agent_selection)

    def _start_game(self) -> None:
        self.game_state: GameState = self.game.new_initial_state()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def _is_done(self, agent: str) -> bool:
        """True once ``agent`` may only step None: removed, terminated or truncated."""
        return agent not in self.agents or self.terminations[agent] or self.truncations[agent]

    def _check_agent(self, agent: Any) -> str:
        if not isinstance(agent, str) or agent not in AGENTS:
            raise ValueError(f"agent must be one of {', '.join(AGENTS)}, got {agent!r}")
        return agent

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game!r}, render_mode={self.render_mode!r})"


def wrap_classic(raw: BoardGameEnv) -> AECEnv:
    """Wrap ``raw`` like PettingZoo's classic envs: call order is enforced (reset first),
    with :class:`~connectn_env.envs.order.CallOrderError` (a ``ValueError``) for calls out
    of order.

    ``raw`` should be built with ``illegal_action="lose"`` for the classic convention.
    """
    return OrderEnforcedEnv(raw)
