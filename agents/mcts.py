"""Monte Carlo tree search with play-outs: UCT or UCB1-tuned, MCTS-Solver, RAVE and PoolRAVE,
decisive moves, last-good-reply and local play-outs, each an option of the one compiled loop;
and the game's exact solver proving root moves first (``exact``)."""

from __future__ import annotations

import weakref
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from agents import options as declare
from agents.generic import EnvPosition, caller_evaluates, generic_simulations
from agents.loop import rollout_value, run_simulations
from agents.rollout import expansion_flags, new_policy_data, policy_rollout
from agents.rules import (
    MCTS_BACKUPS,
    MCTS_SELECTIONS,
    Rules,
    SearchPolicy,
    SearchSettings,
    caller_expands_on_second_visit,
    expand_on_second_visit,
    search_rules,
)
from agents.search import (
    DEFAULT_MAX_NODES,
    DEFAULT_SIMULATIONS,
    GAMES_WITH_SOLVERS,
    SearchAgent,
    require_simulations_for,
)
from connectn_env.games import BoardGame, ExactSolver, GameState
from connectn_env.games.contract import bind

SELECTIONS = MCTS_SELECTIONS
PRESETS = ("default", "uct")
_NO_DATA = np.zeros(0, dtype=np.int64)
# run_simulations' compiled entry point per agent and game, bound on first use: numba's typing
# of the kernels and workspace tuples cost up to 0.2 ms a call (Gomoku), paid by every chunk
# of a timed search. The argument types are fixed per agent and game (its options, its trees,
# the game's workspace and a cloned root). Kept outside the agent, which still pickles.
_ENTRY_POINTS: weakref.WeakKeyDictionary[Any, dict[Any, Any]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class SearchOptions:
    """The search options an :class:`MCTSAgent` uses on a game (see its arguments).

    The defaults are plain UCT: what ``MCTSAgent(preset="uct")`` uses, and what any agent
    uses on an env that is not this suite's for the options it is not given.
    """

    exploration: float = 1.4
    selection: str = "ucb1"
    rave: bool = False
    rave_equivalence: float = 1000.0
    pool_rave: int = 0
    decisive: bool = False
    lgr: bool = False
    local: bool = False
    exact: bool = False
    backup: str | None = None

    @property
    def policy(self) -> bool:
        """True if the play-outs follow a policy (any roll-out option is on)."""
        return self.decisive or self.lgr or self.local or self.pool_rave > 0


OPTION_NAMES = tuple(f.name for f in fields(SearchOptions))
ROLLOUT_OPTIONS = ("decisive", "lgr", "pool_rave", "local")  # need the compiled tactics
COMPILED_GAME_OPTIONS = (*ROLLOUT_OPTIONS, "exact")  # need one of this suite's games


@dataclass(frozen=True)
class MCTSOptions:
    """:class:`MCTSAgent`'s options as declared once (spec ``mcts:key=value,...``): each
    field's metadata gives its range, spec key and help; made from a spec or from the
    constructor's arguments, it checks them (one by one, then together). None: unset (the
    game's recommended value, see :class:`MCTSAgent`). The seed is the constructor's own (it
    also takes a ``np.random.Generator``)."""

    simulations: int | None = declare.simulations()
    time_limit: float | None = declare.time_limit()
    exploration: float | None = declare.option(
        None, float, low=0.0, high=1e6, key="c", aliases=("exploration",),
        help="exploration constant c of UCT",
    )  # fmt: skip
    selection: str | None = declare.option(
        None, str, choices=SELECTIONS, key="selection", help="the tree's selection rule"
    )
    rave: bool | None = declare.option(
        None, bool, key="rave", help="blend in all-moves-as-first values (MC-RAVE)"
    )
    rave_equivalence: float | None = declare.option(
        None, float, low=0.0, strict=True, high=1e12, key="rave_k",
        aliases=("rave_equivalence",),
        help="RAVE schedule: the AMAF weight halves at about k visits",
    )  # fmt: skip
    pool_rave: int | None = declare.option(
        None, int, low=0, high=10**6, key="pool_rave",
        help="K > 0: play-outs draw moves from the K best AMAF moves (needs rave)",
    )  # fmt: skip
    decisive: bool | None = declare.option(
        None, bool, key="decisive", help="play-outs play (and stop) wins at once"
    )
    lgr: bool | None = declare.option(
        None, bool, key="lgr", help="play-outs play the last good reply (LGRF-1)"
    )
    local: bool | None = declare.option(
        None, bool, key="local", help="play-outs and new nodes consider cells near the stones"
    )
    exact: bool | None = declare.exact(None)
    backup: str | None = declare.option(
        None, str, choices=MCTS_BACKUPS, key="backup",
        help="how a result is backed up (None: the selection rule's own; max: MaxUCT)",
    )  # fmt: skip
    preset: str = declare.option(
        "default", str, choices=PRESETS, key="preset",
        help="options left unset: the game's recommended ones (default) or plain UCT's (uct)",
    )  # fmt: skip
    reuse_tree: bool = declare.reuse_tree()
    max_nodes: int = declare.max_nodes(DEFAULT_MAX_NODES)
    seed: int | None = declare.seed()

    def __post_init__(self) -> None:
        declare.check_fields(self)
        self.check_together()

    def check_together(self) -> None:
        """Refuse options valid one by one but not together (see :func:`check_together`)."""
        budget = self.simulations
        if budget is None and self.time_limit is None:
            budget = DEFAULT_SIMULATIONS
        check_together(self.search_options(), "MCTSAgent", self.preset, budget)

    def search_options(self) -> dict[str, Any]:
        """The search options given (those not None), by name."""
        values = {name: getattr(self, name) for name in OPTION_NAMES}
        return {name: value for name, value in values.items() if value is not None}


def check_together(
    options: dict[str, Any],
    where: str,
    preset: str = "default",
    simulations: int | None = 1,
    on: str = "",
) -> None:
    """Refuse checked options that do not go together (``where`` names the source in
    errors, ``on`` the game they were resolved on): PoolRAVE without RAVE, a selection rule
    without a RAVE variant with RAVE, a backup that does not fit the rule, a rule that plans
    a simulation budget without one (``simulations`` None)."""
    pool_rave, rave = options.get("pool_rave", 0), options.get("rave")
    if on or rave is not None:
        require_rave_for_pool(pool_rave, bool(rave), where, on)
    elif preset == "uct":
        require_rave_for_pool(pool_rave, False, where, ", which preset='uct' leaves off")
    if "selection" in options or "backup" in options:
        rule = _rules(SearchOptions(**options), on)
        require_simulations_for(
            rule.root.needs_simulations, options.get("selection"), simulations, where
        )


def require_rave_for_pool(pool_rave: int, rave: bool, where: str, context: str = "") -> None:
    """Refuse PoolRAVE (``pool_rave`` > 0) without RAVE: it draws play-out moves from RAVE's
    AMAF values. ``where`` and ``context`` place the error (before and after the option).

    Raises:
        ValueError: ``pool_rave`` > 0 and ``rave`` false.
    """
    if pool_rave > 0 and not rave:
        raise ValueError(
            f"{where}: pool_rave={pool_rave} needs rave=True{context} (PoolRAVE draws "
            "play-out moves from RAVE's AMAF values)"
        )


class MCTSAgent(SearchAgent):
    """Monte Carlo tree search with one play-out per simulation.

    On this suite's envs the whole search runs compiled (numba); on any other PettingZoo AEC
    env the same compiled loop walks the tree and stops at each leaf, which is played in
    Python on a copy of the env's position (:mod:`agents.generic`). Proven wins and
    losses propagate (MCTS-Solver) and are reported per move (``SearchResult.proven_moves``).

    Options left unset (None) take the game's recommended values (``game.search_defaults``,
    the strongest configuration measured on that game: see docs/agents.md) with
    ``preset="default"``, or plain UCT's (:class:`SearchOptions`) with ``preset="uct"`` and on
    envs that are not this suite's. ``MCTSAgent(preset="uct")`` is plain UCT with random
    play-outs everywhere.

    Args:
        simulations: Simulations per move (int >= 1).
        time_limit: Seconds per move (> 0). With both budgets, the first one spent stops the
            search; with neither, ``simulations=1000``.
        exploration: The constant ``c`` in ``Q + c sqrt(ln N / n)`` (values in [-1, 1]).
        selection: ``"ucb1"`` (UCT), ``"ucb1-tuned"`` (the exploration term shrinks with
            the value's variance: :func:`agents.rules.select_uct_tuned`) or ``"gumbel"``
            (Gumbel root search with uniform priors: :mod:`agents.gumbel`; needs
            ``simulations``, not with RAVE).
        rave: Blend in all-moves-as-first values (MC-RAVE, Gelly and Silver 2011).
        rave_equivalence: RAVE schedule ``k`` in ``beta = sqrt(k / (3 N + k))`` (``N``: visits
            of the parent): the AMAF weight halves at about ``N = k``.
        pool_rave: K > 0: PoolRAVE, play-outs draw moves from the K best AMAF moves (needs
            ``rave=True``); 0: off.
        decisive: Play-outs play a move that wins at once, else stop the opponent's win at
            once; new tree nodes get only such moves when there are any (in Gomoku also only
            the defences against an open three, and the player's own fours).
        lgr: Play-outs play the last good reply to the previous move (LGRF-1).
        local: Play-outs and new tree nodes only consider cells near the stones (games whose
            moves are cells: Gomoku, tic-tac-toe; not Connect Four or Hex).
        exact: Before the simulations, the game's exact solver (``game.exact_solver()``:
            Connect Four and other four-in-a-row gravity boards of at most 64 bits; Gomoku's
            threat-space search, which proves the moves that win or lose by a sequence of
            fours and threes; Othello's endgame search up to 8 x 8), in positions it usually
            finishes (``reaches``: Connect Four from the 10th stone, Othello from 18 empty
            cells), proves what it can of the root's moves into the tree
            (MCTS-Solver plays a proven win with the shortest line and avoids proven losses;
            a fully proven root ends the search); on Connect Four 6 x 7 a position of the
            opening book (:mod:`~connectn_env.games.connect_n.book`) is answered by the
            book's move, proven, without a search. Its budget: at most half of ``time_limit``
            (node budgets doubling while time is left), and ``EXACT_NODES_PER_SIMULATION``
            (8) nodes per simulation of ``simulations``, about the time of half as many
            simulations again. The simulations then get what is left of the time. As a game
            default it applies only where the game has a solver.
        backup: How a simulation's result is backed up (:data:`agents.rules.BACKUPS`): None
            (the default) the selection rule's own (the mean value, with the statistics
            UCB1-tuned and RAVE read); ``"max"``: a node is valued by its best child (MaxUCT,
            Keller and Helmert 2013; not with ``ucb1-tuned`` or RAVE, which read statistics
            it does not keep).
        preset: ``"default"`` (the game's recommended options) or ``"uct"`` (plain UCT) for
            the options left unset.
        reuse_tree: Keep the subtree of the moves played since the last search.
        max_nodes: Tree size bound (2 to what half the machine's memory holds); when it is
            reached the least visited nodes lose their children and the search goes on (see
            :class:`~agents.search.SearchAgent`). Two buffers of this size are allocated (about
            84 bytes per node each, touched only when used).
        seed: None, an int or a ``np.random.Generator``.
        backend: ``"auto"`` (compiled for this suite's envs), ``"native"`` or ``"generic"``
            (force the env-copying path, for any env).

    Raises:
        TypeError, ValueError: a bad value, ``pool_rave`` without ``rave``, or a play-out
            option with ``backend="generic"`` (play-out policies need the game's compiled
            tactics). An option a game cannot honour (``local`` on Connect Four, play-out
            options on a third-party env) is refused when the search starts.
    """

    def __init__(
        self,
        *,
        simulations: int | None = None,
        time_limit: float | None = None,
        exploration: float | None = None,
        selection: str | None = None,
        rave: bool | None = None,
        rave_equivalence: float | None = None,
        pool_rave: int | None = None,
        decisive: bool | None = None,
        lgr: bool | None = None,
        local: bool | None = None,
        exact: bool | None = None,
        backup: str | None = None,
        preset: str = "default",
        reuse_tree: bool = True,
        max_nodes: int = DEFAULT_MAX_NODES,
        seed: Any = None,
        backend: str = "auto",
    ) -> None:
        declared = MCTSOptions(
            simulations=simulations,
            time_limit=time_limit,
            exploration=exploration,
            selection=selection,
            rave=rave,
            rave_equivalence=rave_equivalence,
            pool_rave=pool_rave,
            decisive=decisive,
            lgr=lgr,
            local=local,
            exact=exact,
            backup=backup,
            preset=preset,
            reuse_tree=reuse_tree,
            max_nodes=max_nodes,
        )
        if simulations is None and time_limit is None:
            simulations = DEFAULT_SIMULATIONS
        options = declared.search_options()
        super().__init__(
            simulations=simulations,
            time_limit=declared.time_limit,
            max_nodes=declared.max_nodes,
            reuse_tree=declared.reuse_tree,
            backend=backend,
            seed=seed,
        )
        if self.backend == "generic":
            _refuse_compiled_game_options(options, "backend='generic'")
        self.options = options
        self.preset = declared.preset
        self._active = SearchOptions(**options) if self.preset == "uct" else None
        self._setups: dict[Any, tuple[SearchPolicy, Any, Any]] = {}
        self._generic_policy: SearchPolicy | None = None

    # --- options --------------------------------------------------------------------------

    def options_for(self, game: BoardGame | None) -> SearchOptions:
        """The options this agent searches with on ``game`` (None: an env that is not this
        suite's, on the generic path).

        Raises:
            TypeError: ``game`` is neither a ``BoardGame`` nor None.
            ValueError: an option the game cannot honour (see the class docstring).
        """
        if game is not None and not isinstance(game, BoardGame):
            raise TypeError(
                f"options_for takes a BoardGame (env.unwrapped.game) or None, got "
                f"{type(game).__name__}"
            )
        if game is None:
            _refuse_compiled_game_options(self.options, "an env that is not this suite's")
            return SearchOptions(**self.options)
        defaults = {} if self.preset == "uct" else type(game).search_defaults
        resolved = SearchOptions(**{**defaults, **self.options})
        check_together(asdict(resolved), "MCTSAgent", on=f" on {game!r}")
        if resolved.local and not game.neighbourhoods:
            raise ValueError(
                f"MCTSAgent: local=True needs moves that are cells with neighbours; the moves "
                f"of {game!r} are not (local play-outs are for Gomoku and other m,n,k-games)"
            )
        if resolved.exact and self._exact_solver(game) is None:
            if self.options.get("exact"):
                raise ValueError(
                    f"MCTSAgent: exact=True needs a game with an exact solver; {game!r} has "
                    f"none (the games with one: {GAMES_WITH_SOLVERS})"
                )
            resolved = replace(resolved, exact=False)  # a game default: where it applies
        return resolved

    def _scratch_arguments(self) -> tuple[type[SearchAgent], dict[str, Any]]:
        arguments = {"preset": self.preset, "reuse_tree": self.reuse_tree, "backend": self.backend}
        return MCTSAgent, {**self.options, **arguments}

    def _solver_used(self, game: BoardGame) -> ExactSolver | None:
        return self._exact_solver(game) if self.options_for(game).exact else None

    def _settings_for(self, options: SearchOptions) -> SearchSettings:
        """The loop's settings for these options."""
        flags = expansion_flags(decisive=options.decisive, local=options.local)
        return SearchSettings(
            exploration=options.exploration,
            rave_equivalence=options.rave_equivalence,
            expansion=flags,
        )

    def compiled_setup(self, game: BoardGame) -> tuple[SearchPolicy, Any, Any]:
        """``(policy, choose, data)`` of the compiled loop on ``game``, ``choose`` the
        selection rule's compiled move choice (for compiled callers such as the vector env's
        opponent; the data keeps the LGR replies between searches). The ``exact`` option and
        a selection rule's ``prepare`` are not part of it: they run in :meth:`search`."""
        setup = self._setups.get(game)
        if setup is None:
            options = self.options_for(game)
            rule = _rules(options)
            evaluate, data = rollout_value, _NO_DATA
            if options.policy:
                state = game.new_initial_state().data
                data = new_policy_data(
                    game,
                    state,
                    decisive=options.decisive,
                    lgr=options.lgr,
                    pool_rave=options.pool_rave,
                    local=options.local,
                )
                evaluate = policy_rollout
            settings = self._settings_for(options)
            policy = SearchPolicy(
                rule.select, expand_on_second_visit, evaluate, rule.backup, rule.root.proven,
                settings,
            )  # fmt: skip
            setup = self._setups[game] = (policy, rule.choice.choose, data)
        return setup

    def _before_search(self, state: GameState | None) -> None:
        """Resolve the options for this search's game (refusing what it cannot honour)."""
        if state is None:
            self._active = self.options_for(None)
            self._settings = self._settings_for(self._active)
        else:
            self._active = self.options_for(state.game)
            self._settings = self.compiled_setup(state.game)[0].settings
        self._rule = _rules(self._active)

    # --- simulations ----------------------------------------------------------------------

    def _native_simulations(self, state: GameState, rng: np.ndarray, count: int) -> int:
        game = state.game
        policy, _, data = self.compiled_setup(game)
        if policy.settings is not self._settings:
            policy = policy._replace(settings=self._settings)
        workspace = self._compiled_workspace(state)
        args = (
            game.kernels, game.params, state.data, tuple(self._trees[0]), policy, rng,
            workspace, data, count,
        )  # fmt: skip
        entries = _ENTRY_POINTS.setdefault(self, {})
        key = (game, type(policy.settings))  # a rule's prepared settings are of its own type
        if key not in entries:
            entries[key] = bind(run_simulations, *args)
        return int(entries[key](*args))

    def _generic_simulations(self, root: EnvPosition, rng: np.ndarray, count: int) -> int:
        policy = self._generic_policy
        if (
            policy is None
            or policy.select is not self._rule.select
            or policy.backup is not self._rule.backup
            or policy.settings is not self._settings
        ):
            policy = self._generic_policy = SearchPolicy(
                self._rule.select,
                caller_expands_on_second_visit,
                caller_evaluates,
                self._rule.backup,
                self._rule.root.proven,
                self._settings,
            )  # kept: numba types a policy once per object
        return generic_simulations(
            self._trees[0],
            root,
            count,
            policy=policy,
            workspace=self._generic_workspace,
            rng=rng,
            generator=self._generator,
            trace=self._active is not None and self._active.rave,
        )

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        preset = "" if self.preset == "default" else f", preset={self.preset!r}"
        return (
            f"MCTSAgent(simulations={self.simulations}, time_limit={self.time_limit}"
            f"{options}{preset})"
        )


def _option_property(name: str) -> property:
    return property(
        lambda self: self.options.get(name),
        doc=f"The ``{name}`` option as given (None: unset; see :meth:`MCTSAgent.options_for`).",
    )


for _name in OPTION_NAMES:
    setattr(MCTSAgent, _name, _option_property(_name))


def _rules(options: SearchOptions, on: str = "") -> Rules:
    """The rules of a search with these options (MCTS searches a won root for a faster win),
    refused with ``MCTSAgent``'s name and the options in the message where they do not fit
    (``on`` a game, whose defaults may have set some: " on <game>")."""
    try:
        return search_rules(
            options.selection, rave=options.rave, backup=options.backup, roots=("fastest-win",)
        )
    except ValueError as error:
        given = f"selection={options.selection!r} with rave={options.rave}"
        given += "" if options.backup is None else f", backup={options.backup!r}"
        raise ValueError(f"MCTSAgent: {given}{on}: {error}") from None


def _refuse_compiled_game_options(options: dict[str, Any], where: str) -> None:
    """ValueError if a play-out option or ``exact`` is on: they need this suite's games (their
    compiled tactics, their exact solver)."""
    for name in COMPILED_GAME_OPTIONS:
        value = options.get(name)
        if value:
            need = (
                "the exact solver needs one of this suite's games on the compiled path"
                if name == "exact"
                else "play-out policies need the compiled tactics of this suite's games (the "
                "generic path plays uniformly random play-outs)"
            )
            raise ValueError(
                f"MCTSAgent: {name}={value!r} cannot run on {where}: {need}; leave it unset or off"
            )
