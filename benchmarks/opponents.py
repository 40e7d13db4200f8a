"""Reference players for the strength benchmarks, as ``connectn arena`` agent factories.

``openspiel_mcts``: OpenSpiel's C++ ``MCTSBot`` (UCT, random roll-outs, MCTS-Solver on) on
OpenSpiel's own version of the game, fed the env's move history. Use it from the arena with
the benchmarks folder on ``PYTHONPATH``::

    PYTHONPATH=benchmarks connectn arena connect_four mcts:time=0.1 \\
        opponents:openspiel_mcts:seconds=0.1 --games 200
"""

from __future__ import annotations

from typing import Any

import pyspiel

from connectn_env.games import REGISTRY


class OpenSpielMCTS:
    """``pyspiel.MCTSBot`` playing the env's game.

    Args:
        game_string: OpenSpiel's name of the game (``"connect_four"``).
        seconds: Wall-clock seconds per move (``max_wall_clock_time``), or 0 to use
            ``simulations`` alone.
        simulations: Simulations per move (with ``seconds``: an upper bound).
        exploration: UCT's ``c``.
        seed: The bot's seed.
    """

    def __init__(
        self,
        game_string: str,
        *,
        seconds: float = 0.0,
        simulations: int = 10**9,
        exploration: float = 1.4,
        seed: int = 0,
    ) -> None:
        if seconds <= 0 and simulations >= 10**9:
            raise ValueError("OpenSpielMCTS needs seconds > 0 or a number of simulations")
        self.game = pyspiel.load_game(game_string)
        seed %= 2**31  # OpenSpiel takes a C int
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.MCTSBot(
            self.game, evaluator, exploration, simulations, 1000, True, seed, False,
            pyspiel.ChildSelectionPolicy.UCT, seconds if seconds > 0 else -1.0,
        )  # fmt: skip

    def state_of(self, env: Any) -> Any:
        """OpenSpiel's state after the env's moves."""
        state = self.game.new_initial_state()
        for action in env.unwrapped.game_state.history():
            state.apply_action(action)
        return state

    def act(self, env: Any) -> int:
        """The bot's move in the env's position."""
        return int(self.bot.step(self.state_of(env)))


def openspiel_mcts(
    seconds: float = 0.0, simulations: int = 10**9, c: float = 1.4, seed: int = 0
) -> OpenSpielMCTS:
    """Arena factory: OpenSpiel's MCTSBot on Connect Four (``seconds`` per move, or
    ``simulations``)."""
    return OpenSpielMCTS(
        "connect_four", seconds=seconds, simulations=simulations, exploration=c, seed=seed
    )


def openspiel_name(game_name: str, **parameters: Any) -> str:
    """OpenSpiel's game string of one of this suite's games (e.g. ``"gomoku(size=15)"``)."""
    reference = REGISTRY.make(game_name, **parameters).openspiel_reference()
    if reference is None:
        raise ValueError(f"{game_name} {parameters} has no OpenSpiel counterpart")
    name, params = reference
    if not params:
        return name
    return f"{name}({','.join(f'{k}={str(v).lower()}' for k, v in params.items())})"


__all__ = ["OpenSpielMCTS", "openspiel_mcts", "openspiel_name"]
