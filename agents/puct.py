"""AlphaZero-style search: PUCT selection guided by a policy-value function."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import options as declare
from agents import tree as search_tree
from agents.generic import EnvPosition, caller_evaluates, generic_simulations
from agents.loop import resolve_leaf, rollout_value, run_simulations
from agents.positions import SimState
from agents.rules import (
    ASK_BOTH,
    PUCT_SELECTIONS,
    SearchPolicy,
    SearchSettings,
    caller_expands,
    expand_on_first_visit,
    sampled_child,
    sampling_total,
    search_rules,
)
from agents.search import (
    DEFAULT_MAX_NODES,
    EXACT_NODES_PER_GUIDED_SIMULATION,
    EXACT_NODES_PER_SIMULATION,
    GAMES_WITH_SOLVERS,
    SearchAgent,
    require_simulations_for,
)
from connectn_env.games import BoardGame, ExactSolver, GameState

PolicyValueFn = Callable[[Any], tuple[Any, Any]]
# A leaf evaluator on this suite's games: a position (read, not kept) -> (priors over the
# action space, value for the player to move)
LeafEvaluator = Callable[[GameState], tuple[np.ndarray, float]]
SELECTIONS = PUCT_SELECTIONS
_NO_DATA = np.zeros(0, dtype=np.int64)


def check_policy_value(output: Any, num_actions: int) -> tuple[np.ndarray, float]:
    """Validate ``(priors, value)`` from a policy-value function.

    Returns:
        The priors as a float64 array over the action space and the value in [-1, 1].

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
    return priors, min(max(value, -1.0), 1.0)


def legal_priors(priors: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """``priors`` of the ``legal`` actions, renormalised (uniform if they sum to 0)."""
    chosen = priors[legal]
    total = chosen.sum()
    return chosen / total if total > 0 else np.full(len(legal), 1.0 / len(legal))


@dataclass(frozen=True)
class PUCTOptions:
    """:class:`PUCTAgent`'s options as declared once (spec ``puct:key=value,...``; see the
    agent for what each does): made from a spec or from the constructor's arguments, it
    checks them. The seed is the constructor's own (it also takes a Generator)."""

    simulations: int | None = declare.simulations(800)
    time_limit: float | None = declare.time_limit()
    c_puct: float = declare.c_puct(1.25)
    selection: str = declare.option(
        "puct", str, choices=SELECTIONS, key="selection", help="the root's selection rule"
    )
    temperature: float = declare.temperature()
    noise_fraction: float = declare.option(
        0.0, float, low=0.0, high=1.0, key="noise", aliases=("noise_fraction",),
        help="weight of the Dirichlet noise in the root priors",
    )  # fmt: skip
    dirichlet_alpha: float = declare.option(
        0.3, float, low=0.0, strict=True, high=1e6, key="alpha", aliases=("dirichlet_alpha",),
        help="concentration of the root noise",
    )  # fmt: skip
    reuse_tree: bool = declare.reuse_tree()
    max_nodes: int = declare.max_nodes(DEFAULT_MAX_NODES)
    exact: bool = declare.exact(False)
    seed: int | None = declare.seed()

    def __post_init__(self) -> None:
        declare.check_fields(self)
        self.check_together()

    def check_together(self) -> None:
        """Refuse a selection rule that plans a simulation budget under a time limit alone
        (with neither budget, the search agent's own error says so)."""
        if self.time_limit is not None:
            needs = search_rules(self.selection).root.needs_simulations
            require_simulations_for(needs, self.selection, self.simulations, "PUCTAgent")


class PUCTAgent(SearchAgent):
    """AlphaZero-style MCTS: ``Q + c_puct P sqrt(N) / (1 + n)`` with priors from a function.

    On this suite's envs the tree walk is compiled: without a function the whole search is
    (uniform priors, random play-out values); with one, the search stops at each new leaf to
    call it. On other AEC envs the same compiled loop stops at every leaf, which is played in
    Python (:mod:`agents.generic`): on the env's state adapter without a function (see
    :mod:`agents.positions`), on full env copies with one (it reads observations).

    Args:
        policy_value_fn: ``fn(observation) -> (priors, value)``; ``observation`` is what
            ``env.observe(agent)`` returns for the player to move (this suite and PettingZoo
            classic: ``{"observation", "action_mask"}``); ``priors`` is array-like over the
            whole action space (renormalised over the legal actions: illegal actions never get
            mass; uniform if the legal ones sum to 0); ``value`` in [-1, 1] for the player to
            move. None: uniform priors and the result of one random play-out as the value.
        simulations: Simulations per move (int >= 1).
        time_limit: Seconds per move (> 0); with both budgets the first one spent stops.
        c_puct: Exploration constant.
        dirichlet_alpha: Concentration of the root noise (0.3 for chess-sized action spaces,
            about 10 / num_actions in general).
        noise_fraction: Weight of the Dirichlet noise in the root priors (0.25 in AlphaZero
            self-play; 0 to play at full strength). Added once per root position.
        temperature: Move choice: 0 plays the selection rule's move (PUCT: the most visited,
            a proven win first); > 0 samples proportionally to ``visits ** (1 / temperature)``
            among the moves not proven lost (a proven win or draw, or the slowest loss when
            every move loses, is played as at 0), as :class:`agents.batched.BatchedSearch`
            does; with ``selection="gumbel"`` the halving's move, whatever the temperature.
        selection: ``"puct"`` (AlphaZero) or ``"gumbel"`` (Gumbel AlphaZero's root search:
            :mod:`agents.gumbel`; needs ``simulations``).
        reuse_tree: Keep the subtree of the moves played since the last search.
        max_nodes: Tree size bound (see :class:`~agents.MCTSAgent`).
        exact: Before the simulations, the game's exact solver proves what it can of the
            root's moves into the tree, as :class:`~agents.MCTSAgent`'s ``exact`` does (a
            proven win is played, a proven loss avoided; Othello from 18 empty cells,
            Connect Four's opening book), within
            ``EXACT_NODES_PER_GUIDED_SIMULATION`` solver nodes per simulation when the
            search has a function (a network), MCTS's ``EXACT_NODES_PER_SIMULATION``
            without one. This suite's games with a solver only.
        seed: None, an int or a ``np.random.Generator``.
        backend: ``"auto"``, ``"native"`` or ``"generic"`` (see :class:`~agents.MCTSAgent`).
        evaluator: Instead of ``policy_value_fn``, on this suite's games only: a function of
            the position (a ``GameState``, read and not kept) giving ``(priors over the action
            space, value for the player to move)`` without checks, a network's for
            :class:`~agents.alphazero.AlphaZeroAgent`.
    """

    def __init__(
        self,
        policy_value_fn: PolicyValueFn | None = None,
        *,
        simulations: int | None = 800,
        time_limit: float | None = None,
        c_puct: float = 1.25,
        dirichlet_alpha: float = 0.3,
        noise_fraction: float = 0.0,
        temperature: float = 0.0,
        selection: str = "puct",
        reuse_tree: bool = True,
        max_nodes: int = DEFAULT_MAX_NODES,
        exact: bool = False,
        seed: Any = None,
        backend: str = "auto",
        evaluator: LeafEvaluator | None = None,
    ) -> None:
        if policy_value_fn is not None and not callable(policy_value_fn):
            raise TypeError(f"policy_value_fn must be callable or None, got {policy_value_fn!r}")
        if evaluator is not None and (policy_value_fn is not None or backend != "native"):
            raise ValueError(
                "an evaluator of this suite's positions goes with backend='native' and no "
                "policy_value_fn"
            )
        declared = PUCTOptions(
            simulations=simulations,
            time_limit=time_limit,
            c_puct=c_puct,
            selection=selection,
            temperature=temperature,
            noise_fraction=noise_fraction,
            dirichlet_alpha=dirichlet_alpha,
            reuse_tree=reuse_tree,
            max_nodes=max_nodes,
            exact=exact,
        )
        super().__init__(
            simulations=declared.simulations,
            time_limit=declared.time_limit,
            max_nodes=declared.max_nodes,
            reuse_tree=declared.reuse_tree,
            backend=backend,
            seed=seed,
        )
        self.policy_value_fn = policy_value_fn
        self._evaluator = evaluator if evaluator is not None else self._evaluate_observation
        self._guided = evaluator is not None or policy_value_fn is not None
        self.c_puct = declared.c_puct
        self.dirichlet_alpha = declared.dirichlet_alpha
        self.noise_fraction = declared.noise_fraction
        self.temperature = declared.temperature
        self.selection = declared.selection
        self.exact = declared.exact
        if self.exact and self.backend == "generic":
            raise ValueError(
                "PUCTAgent: exact=True cannot run on backend='generic': the exact solver "
                "needs one of this suite's games on the compiled path"
            )
        self._exact_nodes = (
            EXACT_NODES_PER_GUIDED_SIMULATION if self._guided else EXACT_NODES_PER_SIMULATION
        )
        self._noised_key: Any = None
        self._policies: dict[Any, SearchPolicy] = {}

    def _before_search(self, state: GameState | None) -> None:
        """This search's settings (a selection rule's ``prepare`` replaces them); ``exact``
        on a game without a solver, or an env that is not this suite's, is refused."""
        if self.exact and (state is None or self._exact_solver(state.game) is None):
            what = "an env that is not this suite's" if state is None else repr(state.game)
            raise ValueError(
                f"PUCTAgent: exact=True needs one of this suite's games with an exact solver; "
                f"{what} has none (the games with one: {GAMES_WITH_SOLVERS})"
            )
        self._rule = search_rules(self.selection)
        settings = self._settings
        if type(settings) is not SearchSettings or settings.exploration != self.c_puct:
            self._settings = SearchSettings(exploration=self.c_puct)

    def _scratch_arguments(self) -> tuple[type[SearchAgent], dict[str, Any]]:
        """A PUCT agent with the same selection rule and tree reuse, with uniform priors if
        this one has a function (the compiled code is the same; the function, a network's
        for ``AlphaZeroAgent``, is not called)."""
        function = _uniform_policy_value if self._guided else None
        return PUCTAgent, {
            "policy_value_fn": function,
            "selection": self.selection,
            "reuse_tree": self.reuse_tree,
            "exact": self.exact,
            "backend": self.backend,
        }

    def _solver_used(self, game: BoardGame) -> ExactSolver | None:
        return self._exact_solver(game) if self.exact else None

    def _policy(self, expand: Any, evaluate: Any) -> SearchPolicy:
        """The loop's policy with these expansion and evaluation rules (kept: numba types a
        policy once per object)."""
        policy = self._policies.get((expand, evaluate))
        if (
            policy is None
            or policy.select is not self._rule.select
            or (policy.settings is not self._settings)
        ):
            rule = self._rule
            policy = SearchPolicy(
                rule.select, expand, evaluate, rule.backup, rule.root.proven, self._settings
            )
            self._policies[(expand, evaluate)] = policy
        return policy

    # --- compiled path ------------------------------------------------------------------

    def _native_simulations(self, state: GameState, rng: np.ndarray, count: int) -> int:
        game = state.game
        workspace = self._compiled_workspace(state)
        tree = tuple(self._trees[0])
        if not self._guided:
            policy = self._policy(expand_on_first_visit, rollout_value)
            return int(
                run_simulations(
                    game.kernels,
                    game.params,
                    state.data,
                    tree,
                    policy,
                    rng,
                    workspace,
                    _NO_DATA,
                    count,
                )
            )
        policy = self._policy(caller_expands, rollout_value)
        done = 0
        while done < count:
            done += run_simulations(
                game.kernels, game.params, state.data, tree, policy, rng, workspace, _NO_DATA,
                count - done,
            )  # fmt: skip
            if done == count or workspace.leaf[2] != ASK_BOTH:
                return done
            workspace.leaf[2] = 0
            leaf = GameState(game, workspace.state)
            priors, value = self._evaluator(leaf)
            r0 = value if leaf.current_player() == 0 else -value
            resolve_leaf(game.kernels, game.params, tree, policy, workspace, priors, r0, rng)
            done += 1
        return done

    def _evaluate_observation(self, leaf: GameState) -> tuple[np.ndarray, float]:
        """``policy_value_fn`` of a leaf of the compiled loop's observation: (priors over
        the action space, value for the player to move), checked."""
        observation = {
            "observation": leaf.observation(leaf.current_player()),
            "action_mask": leaf.legal_action_mask(),
        }
        return check_policy_value(self.policy_value_fn(observation), leaf.game.num_actions)

    # --- generic path ---------------------------------------------------------------------

    def _generic_simulations(self, root: EnvPosition, rng: np.ndarray, count: int) -> int:
        return generic_simulations(
            self._trees[0],
            root,
            count,
            policy=self._policy(caller_expands, caller_evaluates),
            workspace=self._generic_workspace,
            rng=rng,
            generator=self._generator,
            evaluate=self._evaluate_generic,
            observed=self.policy_value_fn is not None,
        )

    def _evaluate_generic(self, position: SimState) -> tuple[np.ndarray, float]:
        """(priors over ``position.legal()``, result for player 0) of a non-terminal position:
        a state adapter's without ``policy_value_fn``, else an
        :class:`~agents.positions.EnvCopyState` (the function reads its observation)."""
        legal = position.legal()
        if self.policy_value_fn is None:
            return np.full(len(legal), 1.0 / len(legal)), position.copy().rollout(self._generator)
        output = self.policy_value_fn(position.observation())
        priors, value = check_policy_value(output, position.num_actions())
        return legal_priors(priors, legal), value if position.player() == 0 else -value

    # --- root noise and move choice -------------------------------------------------------

    def _prepare_root(self, root: GameState | EnvPosition, rng: np.ndarray, key: Any) -> None:
        """Expand and evaluate the root first (not counted as a simulation, as in AlphaZero),
        then mix Dirichlet noise into its priors, once per root position."""
        ints, floats, _ = self._trees[0]
        if ints[0, search_tree.I_COUNT] == 0:
            if isinstance(root, EnvPosition):
                self._generic_simulations(root, rng, 1)
            else:
                self._native_simulations(root, rng, 1)
        if self.noise_fraction == 0 or _same_key(key, self._noised_key):
            return
        first, count = int(ints[0, search_tree.I_FIRST]), int(ints[0, search_tree.I_COUNT])
        if count == 0:
            return
        children = np.arange(first, first + count)
        noise = self._generator.dirichlet(np.full(count, self.dirichlet_alpha))
        mixed = (1 - self.noise_fraction) * floats[children, search_tree.F_PRIOR]
        floats[children, search_tree.F_PRIOR] = mixed + self.noise_fraction * noise
        self._noised_key = key

    def _choose(self) -> int:
        """The move choice's move, or one drawn at the temperature (see the class
        docstring; the draw is :class:`~agents.batched.BatchedSearch`'s)."""
        ints, floats, _ = self._trees[0]
        if self.temperature > 0 and self._rule.choice.samples and self._known_child is None:
            total = sampling_total(ints, floats, self.temperature)
            if total > 0:
                draw = self._generator.random() * total
                return int(sampled_child(ints, floats, self.temperature, draw))
        return super()._choose()

    def root_priors(self) -> np.ndarray:
        """Priors of the last search's root (after noise) over the action space (for tests and
        inspection); empty before any search."""
        if not self._trees:
            return np.zeros(0)
        ints, floats, _ = self._trees[0]
        first, count = ints[0, search_tree.I_FIRST], ints[0, search_tree.I_COUNT]
        children = np.arange(first, first + count)
        actions = ints[children, search_tree.I_ACTION]
        out = np.zeros(self._last_num_actions, dtype=np.float64)
        out[actions] = floats[children, search_tree.F_PRIOR]
        return out

    def __repr__(self) -> str:
        return (
            f"PUCTAgent({self.policy_value_fn!r}, simulations={self.simulations}, "
            f"c_puct={self.c_puct}, temperature={self.temperature})"
        )


def _uniform_policy_value(observation: Any) -> tuple[np.ndarray, float]:
    """Uniform priors over the legal actions and a value of 0 (a scratch agent's function)."""
    return np.asarray(observation["action_mask"], dtype=np.float64), 0.0


def _same_key(a: Any, b: Any) -> bool:
    """True if two root keys (kind, game or env, history or agent) name the same root."""
    if a is None or b is None or a[0] != b[0] or a[0] != "native":
        return False
    return a[1] == b[1] and np.array_equal(a[2], b[2])
