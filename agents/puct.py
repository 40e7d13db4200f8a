"""AlphaZero-style search: PUCT selection guided by a policy-value function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents import tree as t
from agents.positions import EnvPosition, NativePosition
from agents.search import DEFAULT_MAX_NODES, SearchAgent, python_simulations
from connectn_env.games.validation import require_number

PolicyValueFn = Callable[[Any], tuple[Any, Any]]


def check_policy_value(
    output: Any, legal: np.ndarray, num_actions: int
) -> tuple[np.ndarray, float]:
    """Validate ``(priors, value)`` from a policy-value function; return the priors of the
    ``legal`` actions renormalised (uniform if they sum to 0) and the value.

    Raises:
        TypeError: not a pair, or non-numeric parts.
        ValueError: wrong prior shape, NaN/inf, negative priors, value outside [-1, 1].
    """
    if not isinstance(output, tuple | list) or len(output) != 2:
        raise TypeError(
            f"policy_value_fn must return (priors, value), got {type(output).__name__} "
            f"{output!r:.80}"
        )
    try:
        priors = np.asarray(output[0], dtype=np.float64).reshape(-1)
        value = float(np.asarray(output[1], dtype=np.float64).reshape(()))
    except (TypeError, ValueError) as error:
        raise TypeError(f"policy_value_fn must return numeric (priors, value): {error}") from error
    if priors.shape != (num_actions,):
        raise ValueError(
            f"policy_value_fn priors must have shape ({num_actions},) (one per action), "
            f"got {np.shape(output[0])}"
        )
    if not np.all(np.isfinite(priors)) or np.any(priors < 0):
        raise ValueError(f"policy_value_fn priors must be finite and >= 0, got {priors}")
    if not np.isfinite(value) or abs(value) > 1.0 + 1e-6:
        raise ValueError(f"policy_value_fn value must be in [-1, 1], got {value}")
    legal_priors = priors[legal]
    total = legal_priors.sum()
    if total <= 0:
        return np.full(len(legal), 1.0 / len(legal)), value
    return legal_priors / total, min(max(value, -1.0), 1.0)


class PUCTAgent(SearchAgent):
    """AlphaZero-style MCTS: ``Q + c_puct P sqrt(N) / (1 + n)`` with priors from a function.

    Args:
        policy_value_fn: ``fn(observation) -> (priors, value)``; ``observation`` is what
            ``env.observe(agent)`` returns for the player to move (this suite and PettingZoo
            classic: ``{"observation", "action_mask"}``); ``priors`` is array-like over the
            whole action space (renormalised over the legal actions: illegal actions never get
            mass; uniform if the legal ones sum to 0); ``value`` in [-1, 1] for the player to
            move. None: uniform priors and the result of one random play-out as the value.
        simulations: Simulations per move (int >= 1).
        c_puct: Exploration constant.
        dirichlet_alpha: Concentration of the root noise (0.3 for chess-sized action spaces,
            about 10 / num_actions in general).
        noise_fraction: Weight of the Dirichlet noise in the root priors (0.25 in AlphaZero
            self-play; 0 to play at full strength).
        temperature: Move choice: 0 plays the most visited move (a proven win first); > 0
            samples proportionally to ``visits ** (1 / temperature)``.
        max_nodes: Tree size bound (the search goes on without growing when it is reached).
        seed: None, an int or a ``np.random.Generator``.
        backend: ``"auto"``, ``"native"`` or ``"generic"`` (see :class:`MCTSAgent`).
    """

    def __init__(
        self,
        policy_value_fn: PolicyValueFn | None = None,
        *,
        simulations: int = 800,
        c_puct: float = 1.25,
        dirichlet_alpha: float = 0.3,
        noise_fraction: float = 0.0,
        temperature: float = 0.0,
        max_nodes: int = DEFAULT_MAX_NODES,
        seed: Any = None,
        backend: str = "auto",
    ) -> None:
        if policy_value_fn is not None and not callable(policy_value_fn):
            raise TypeError(f"policy_value_fn must be callable or None, got {policy_value_fn!r}")
        super().__init__(
            simulations=simulations,
            time_limit=None,
            max_nodes=max_nodes,
            reuse_tree=False,
            backend=backend,
            seed=seed,
        )
        self.policy_value_fn = policy_value_fn
        self.c_puct = require_number("c_puct", c_puct, 0.0)
        self.dirichlet_alpha = require_number(
            "dirichlet_alpha", dirichlet_alpha, 0.0, strict_low=True
        )
        self.noise_fraction = require_number("noise_fraction", noise_fraction, 0.0)
        if self.noise_fraction > 1.0:
            raise ValueError(f"noise_fraction must be between 0 and 1, got {noise_fraction}")
        self.temperature = require_number("temperature", temperature, 0.0)
        self._no_stamp = np.zeros((2, 0), dtype=np.int64)

    def _evaluate(self, position: NativePosition | EnvPosition) -> tuple[np.ndarray, float]:
        """``(priors over position.legal(), r0)`` of a non-terminal position."""
        legal = position.legal()
        if self.policy_value_fn is None:
            rng = np.array([self._generator.integers(1, 2**63)], dtype=np.uint64)
            r0 = position.copy().rollout(rng, self._generator)
            return np.full(len(legal), 1.0 / len(legal)), r0
        observation = position.observation()
        num_actions = _num_actions(position)
        priors, value = check_policy_value(self.policy_value_fn(observation), legal, num_actions)
        return priors, value if position.player() == 0 else -value

    def _search_tree(self, root: NativePosition | EnvPosition, rng: np.ndarray, count: int) -> int:
        ints, floats, meta = tree = self._trees[0]
        if ints[t.I_COUNT, 0] == 0:  # expand the root once, with noise
            priors, r0 = self._evaluate(root)
            actions = root.legal()
            if self.noise_fraction > 0:
                noise = self._generator.dirichlet(np.full(len(actions), self.dirichlet_alpha))
                priors = (1 - self.noise_fraction) * priors + self.noise_fraction * noise
            t.shuffle_together(actions, priors, len(actions), rng)
            t.expand(ints, floats, meta, 0, root.player(), actions, priors, len(actions))
            t.backup(ints, floats, 0, r0)
        return python_simulations(
            tree,
            root,
            count,
            mode=t.MODE_PUCT,
            exploration=self.c_puct,
            rave_equivalence=1.0,
            rng=rng,
            generator=self._generator,
            evaluate=self._evaluate,
            stamp=self._no_stamp,
        )

    def _choose(self, visits: np.ndarray) -> int:
        ints, floats, _ = self._trees[0]
        if self.temperature == 0:
            return int(t.best_root_child(ints, floats))
        first, count = ints[t.I_FIRST, 0], ints[t.I_COUNT, 0]
        children = np.arange(first, first + count)
        counts = ints[t.I_VISITS, children].astype(np.float64)
        logits = np.log(np.maximum(counts, 1e-300)) / self.temperature
        weights = np.where(counts > 0, np.exp(logits - logits.max()), 0.0)
        if weights.sum() == 0:
            weights = np.ones(count)
        return int(self._generator.choice(children, p=weights / weights.sum()))

    def root_priors(self) -> np.ndarray:
        """Priors of the last search's root (after noise) over the action space (for tests and
        inspection); empty before any search."""
        if not self._trees:
            return np.zeros(0)
        ints, floats, _ = self._trees[0]
        first, count = ints[t.I_FIRST, 0], ints[t.I_COUNT, 0]
        children = np.arange(first, first + count)
        actions = ints[t.I_ACTION, children]
        out = np.zeros(self._last_num_actions, dtype=np.float64)
        out[actions] = floats[t.F_PRIOR, children]
        return out

    def __repr__(self) -> str:
        return (
            f"PUCTAgent({self.policy_value_fn!r}, simulations={self.simulations}, "
            f"c_puct={self.c_puct}, temperature={self.temperature})"
        )


def _num_actions(position: NativePosition | EnvPosition) -> int:
    if isinstance(position, NativePosition):
        return position.game.num_actions
    return int(position.env.action_space(position.env.agent_selection).n)
