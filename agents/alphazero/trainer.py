"""The AlphaZero training loop: self-play workers feed a replay buffer, the learner (this process)
trains the network on it, an evaluation worker measures each new network against pure UCT MCTS
and the previous network.

Evaluations (when ``eval_minutes > 0``): the first comes as soon as the learner has trained,
short (:func:`short_eval_games` games per opponent), so that a short run has an evaluated
network and a point on its curves; then one every ``eval_minutes`` of training time with
``eval_games`` games; and, once the budget is spent (and a running evaluation finished), a
final one of the last network with ``eval_games`` games unless the last evaluated network is
fresh (``FRESH_SHARE`` of the run's training time or more). The final evaluation comes after the
budget (training time stops; its wall-clock seconds are in its metrics record), so ``best.pt`` is
always an evaluated network.

Schedule: each worker plays ``moves_per_task`` moves in each of its ``games_in_flight`` games
with the newest weights, returns the finished games and gets the next task at once (with the
weights as they are then); meanwhile the learner trains ``train_ratio`` positions per new
position. With one worker the order of events does not depend on timing: task ``k + 1`` uses
the weights trained on the games of tasks up to ``k - 1``, so a run with a game budget and a
fixed inference precision is reproducible from its seed.

Bootstrap phase (``bootstrap``, :mod:`agents.alphazero.bootstrap`): before the first self-play
task, the workers play the phase's games left, one game per call, and the learner trains on their
positions as self-play's (``train_ratio`` per position), taking the games in their order; the
phase counts in the training time, and a checkpoint ends it.

Budget: ``minutes`` is training time. Before its clock starts, the workers compile what they
run (numba's search kernels, once per machine, then cached: announced with its seconds), so
that a short run is not spent compiling; the final evaluation comes after it (above).
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import torch

from agents.alphazero.actors import make_actors
from agents.alphazero.bootstrap import AgentResolver, BootstrapGame, BootstrapTask
from agents.alphazero.checkpoint import (
    MAX_CHECKPOINT_BYTES,
    Checkpoint,
    load_checkpoint,
    save_checkpoint,
)
from agents.alphazero.config import ConfigError, TrainConfig
from agents.alphazero.evaluation import MatchResult, mcts_budget, mcts_label
from agents.alphazero.inference import weights_of
from agents.alphazero.learner import Learner
from agents.alphazero.metrics import MetricsLog, plot_metrics
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.alphazero.pretrained import pretrained_checkpoint
from agents.alphazero.replay import ReplayBuffer, SymmetryTable
from agents.alphazero.resume import Resumed, restore_run
from agents.alphazero.rundir import RunDirectory
from agents.alphazero.workers import (
    EvaluationTask,
    EvaluationWorker,
    SelfPlayOutput,
    SelfPlayWorker,
    peak_rss_mb,
    rss_mb,
)
from connectn_env.atomic_write import write_bytes_atomically
from connectn_env.elo import PairingStats, elo_ratings
from connectn_env.games import REGISTRY
from connectn_env.safe_files import read_regular_bytes

METRICS_SECONDS = 30.0
POLL_SECONDS = 0.2
FRESH_SHARE = 0.9  # an evaluated network this far into the run needs no final evaluation
OPENING_MOVES = 2


def short_eval_games(eval_games: int) -> int:
    """Games per opponent of a run's first (short) evaluation: a fifth of ``eval_games``, at
    least 2 (one with each colour), at most ``eval_games``."""
    return min(eval_games, max(2, eval_games // 5))


def _layout(spec: NetworkSpec) -> str:
    """How a network's actions are laid out: per column or per cell, and special actions."""
    board = "one action per column" if spec.columns else "one action per cell"
    return f"{board} and {spec.specials} special (swap, pass)" if spec.specials else board


@dataclass(frozen=True)
class TrainResult:
    """What a training run produced.

    Attributes:
        out: The run directory.
        best: The network to play with (``best.pt``).
        latest: The newest training checkpoint (``latest.pt``).
        steps: Training steps of the whole run.
        games: Self-play games of the whole run.
        positions: Self-play positions of the whole run.
        seconds: Training time of the whole run.
        elo: The Elo ratings of the last evaluation (MCTS with the smallest budget = 0).
        evaluations: Every evaluation's results, as in the metrics log.
        bootstrap_games: Games of the bootstrap phase played (and trained on).
        bootstrap_positions: Their positions.
        bootstrap_cpu_seconds: The CPU time of the processes that played them.
    """

    out: Path
    best: Path
    latest: Path
    steps: int
    games: int
    positions: int
    seconds: float
    elo: dict[str, float] = field(default_factory=dict)
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    bootstrap_games: int = 0
    bootstrap_positions: int = 0
    bootstrap_cpu_seconds: float = 0.0


def resume_config(out: str | Path, **changes: Any) -> TrainConfig:
    """The config of the run in ``out`` with ``resume=True`` and ``changes`` (budgets, device,
    workers...): what :func:`train` needs to continue it.

    Raises:
        RunDirectoryError: ``out`` holds no readable run.
    """
    stored = RunDirectory(out).stored_config()
    return TrainConfig.from_json(stored.to_json(), **({"out": Path(out), "resume": True} | changes))


def train(
    config: TrainConfig,
    *,
    progress: bool | TextIO = True,
    resolve_agent: AgentResolver | None = None,
) -> TrainResult:
    """Train a network by self-play as ``config`` says; see :class:`TrainConfig`.

    Writes the run directory (``config.out``, see :mod:`agents.alphazero.rundir`); with
    ``config.resume`` continues the run there until the budgets (totals for the whole run) are
    spent. Ctrl-C (or a failing worker) saves a checkpoint first. With ``workers >= 1`` the
    workers are spawned processes: in a script, call ``train`` under ``if __name__ ==
    "__main__":``.

    Args:
        config: The settings.
        progress: Show a progress line on stderr (or on this stream); False for none.
        resolve_agent: What builds the agent of ``config.bootstrap`` from its spec, as
            ``resolve_agent(spec, game, seed=...)``: :func:`connectn_env.specs.resolve_agent`
            (what ``connectn train`` passes). Needed while a bootstrap phase remains to play.

    Raises:
        ConfigError: a setting this machine or game cannot honour (no CUDA device...), a
            bootstrap agent spec that is bad or cannot play the game.
        RunDirectoryError: the run directory cannot be used (another game's run...).
        CheckpointError: the run's checkpoint is unreadable.
        WorkerError: a worker failed.
    """
    if not isinstance(config, TrainConfig):
        raise TypeError(f"config must be a TrainConfig, got {type(config).__name__}")
    stream = progress if hasattr(progress, "write") else (sys.stderr if progress else None)
    trainer = _Trainer(config, stream, resolve_agent)
    return trainer.run()


class _Trainer:
    def __init__(
        self, config: TrainConfig, stream: TextIO | None, resolve: AgentResolver | None
    ) -> None:
        if config.device == "cuda" and not torch.cuda.is_available():
            raise ConfigError("device 'cuda' asked for, but torch sees no CUDA device")
        self.game = config.game.make_game()
        try:
            self.spec = NetworkSpec.for_game(
                self.game, channels=config.channels, blocks=config.blocks
            )
        except ValueError as error:
            raise ConfigError(str(error)) from None
        run = RunDirectory(config.out)
        run.open(config)  # makes a new run's directory, takes the lock, checks
        self.resolve = resolve
        try:
            self._set_up(config, run, stream)
        except BaseException:
            run.unlock(remove_made=True)
            raise

    def _set_up(self, config: TrainConfig, run: RunDirectory, stream: TextIO | None) -> None:
        """Everything before the first write; a resumed run's files are all read here."""
        self.config = config
        self.run_dir = run
        self.stream = stream
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.model = PolicyValueNet(self.spec)
        self.learner = Learner(
            self.model,
            learning_rate=config.learning_rate,
            weight_decay=config.weight_decay,
            device=config.device,
        )
        self.buffer = ReplayBuffer(config.buffer_size, self.game)
        self.symmetries = SymmetryTable(self.game)
        self.sampler = np.random.default_rng([config.seed, 1])
        self.state: dict[str, Any] = {
            "step": 0,
            "games": 0,
            "positions": 0,
            "seconds": 0.0,
            "sessions": 0,
            "budgets": list(config.eval_budgets),
            "evaluated": [],  # {"label", "seconds", "step", "games", "path"}
            "pairings": [],  # MatchResult.to_json() of every evaluation game set
            "last_eval_seconds": 0.0,
            "bootstrap_games": 0,  # taken into the buffer, in order (and trained on)
            "bootstrap_positions": 0,
            "bootstrap_cpu_seconds": 0.0,
        }
        if config.init is not None and not config.resume:
            self.model.load_state_dict(self._initial_network(config.init).model)
        self.resumed: Resumed | None = None
        if config.resume:
            self.resumed = restore_run(
                run, config, self.model, self.learner.optimizer, self.buffer, self.sampler
            )
            self.state.update(self.resumed.state)
            self.learner.steps = self.state["step"]
        if self._bootstrap_left():
            self._check_bootstrap()
        kind = "ray" if config.ray else ("process" if config.workers else "inline")
        self.actors = make_actors(kind, config.ray)  # before any write: Ray may be unreachable

    def _bootstrap_left(self) -> int:
        """Games of the bootstrap phase still to play."""
        return (self.config.bootstrap_games or 0) - self.state["bootstrap_games"]

    def _bootstrap_task(self, index: int) -> BootstrapTask:
        config = self.config
        return BootstrapTask(
            config.bootstrap,
            self.resolve,
            index,
            config.seed,
            config.opening_moves,
            config.bootstrap_min_opening,
        )

    def _check_bootstrap(self) -> None:
        """Refuse a bootstrap agent that cannot be built for the game (before any write)."""
        spec = self.config.bootstrap
        if self.resolve is None:
            raise ConfigError(
                f"bootstrap {spec!r}: train() needs resolve_agent to build the agent "
                "(connectn_env.specs.resolve_agent; connectn train passes it)"
            )
        try:
            self._bootstrap_task(0).agent(self.config.game, 0)
        except (ValueError, TypeError) as error:
            raise ConfigError(f"bootstrap: {error}") from None

    def _initial_network(self, source: str) -> Checkpoint:
        """The checkpoint ``init`` names, checked against this run's game and network. A
        network of the same game at another board size (or with other rules of that game,
        such as another line length) is accepted where its actions are laid out alike: the
        network is fully convolutional, so its weights fit any board (a curriculum: Hex 7 x 7,
        then 11 x 11)."""
        game = self.config.game
        try:
            if source == "pretrained":
                checkpoint = pretrained_checkpoint(game)
            else:
                checkpoint = load_checkpoint(source)
        except ValueError as error:  # CheckpointError is one
            raise ConfigError(f"init: {error}") from None
        have, want = checkpoint.spec, self.spec
        trained_on = f"init: {source}: the network was trained on {checkpoint.game}, not on {game}"
        if REGISTRY[checkpoint.game.name].family != REGISTRY[game.name].family:
            raise ConfigError(f"{trained_on}; a run starts from a network of its own game only")
        if (have.columns, have.specials) != (want.columns, want.specials):
            raise ConfigError(
                f"{trained_on}, and its actions are laid out otherwise ({_layout(have)}, "
                f"this run's {_layout(want)})"
            )
        if (have.channels, have.blocks) != (want.channels, want.blocks):
            raise ConfigError(
                f"init: {source} is a network with {have.channels} channels and {have.blocks} "
                f"blocks, this run's has {want.channels} and {want.blocks}: give --channels "
                f"{have.channels} --blocks {have.blocks}"
            )
        return checkpoint

    def run(self) -> TrainResult:
        config, run = self.config, self.run_dir
        self.metrics = MetricsLog(run.metrics)
        try:
            if self.resumed is None:
                run.create(config)
            else:
                run.remove_leftovers()
                run.checkpoints.mkdir(exist_ok=True)
                self.metrics.keep(self.resumed.metrics)
        except BaseException:
            self.actors.close()
            run.unlock()
            raise
        self.state["sessions"] += 1
        self.eval_actors = self.actors
        self.session_start = time.monotonic()
        self.seconds_before = self.state["seconds"]
        self.session_games = self.state["games"]
        self.session_positions = self.state["positions"]
        self.window = _Window(self.state)
        self.last_line = 0.0
        self.line_open = False  # a terminal's progress line is not ended yet
        self.last_housekeeping = 0.0
        self.stopped_at: float | None = None
        self.last_checkpoint = self.seconds_before
        self.eval_call: Any = None
        self.eval_clock = (0.0, False)  # when the running evaluation started, after the budget
        self.last_eval: str = ""
        self.worker_rss = (0.0, 0.0)
        self.rate_start = self.session_start
        self.last_bootstrap_record = self.state["bootstrap_games"]
        self.last_bootstrap_seconds = self.seconds_before
        try:
            self._loop()
        except KeyboardInterrupt:
            self._save()
            self._write_line(final=True)
            raise
        except Exception:
            with contextlib.suppress(Exception):  # keep what was learnt, then report
                self._save()
            raise
        finally:
            self.actors.close()
            run.unlock()
        return self._result()

    def _start_workers(self) -> list[Any]:
        config = self.config
        game = {"name": config.game.name, "params": dict(config.game.params)}
        settings = {
            "simulations": config.simulations,
            "games_in_flight": config.games_in_flight,
            "c_puct": config.c_puct,
            "dirichlet_alpha": config.dirichlet_alpha,
            "noise_fraction": config.noise_fraction,
            "temperature_moves": config.temperature_moves,
            "selection": config.selection,
            "full_search_fraction": config.full_search_fraction,
            "fast_simulations": config.fast_simulations,
            "opening_moves": config.opening_moves,
            "reuse_tree": config.reuse_tree,
            "precision": config.precision,
            "inference": config.inference,
        }
        workers = []
        for index in range(max(config.workers, 1)):
            seed = int(
                np.random.SeedSequence(
                    [config.seed, 2, self.state["sessions"], index]
                ).generate_state(1)[0]
            )
            workers.append(
                self.actors.start(
                    SelfPlayWorker,
                    game,
                    self.spec.to_json(),
                    settings,
                    seed,
                    config.threads,
                    config.device,
                )
            )
        self.evaluator = None
        if config.eval_minutes > 0:
            self.evaluator = self.eval_actors.start(
                EvaluationWorker,
                game,
                self.spec.to_json(),
                config.threads,
                config.device,
                config.precision,
            )
        return workers

    # --- the loop -------------------------------------------------------------------------

    def _warm_up(self, workers: list[Any]) -> None:
        """Have every worker compile what it runs, then start the budget's clock."""
        self._say(
            "set-up: the workers compile the search before the time budget starts (first run "
            "on this machine; cached afterwards)"
        )
        start = time.monotonic()
        task = [self._bootstrap_task(0)] if self._bootstrap_left() > 0 else []
        calls = [self.actors.call(worker, "warm_up", *task) for worker in workers]
        if self.evaluator is not None:
            calls.append(self.eval_actors.call(self.evaluator, "warm_up"))
        for call in calls:
            self.actors.result(call)
        self.session_start = self.rate_start = time.monotonic()
        self._say(f"set-up done in {self.session_start - start:.1f} s; the time budget starts")

    def _say(self, line: str) -> None:
        """Write ``line`` on a line of its own (below a terminal's progress line)."""
        if self.stream is not None:
            self.stream.write(("\n" if self.line_open else "") + line + "\n")
            self.stream.flush()
            self.line_open = False

    def _loop(self) -> None:
        workers = self._start_workers()
        self._warm_up(workers)
        if self._bootstrap_left() > 0:
            self._bootstrap(workers)
        calls: dict[Any, int] = {}
        shared: tuple[int, Any] | None = None

        def submit(index: int) -> None:
            nonlocal shared
            version = self.learner.steps
            if shared is None or shared[0] != version:
                shared = (version, self.actors.share(weights_of(self.model)))
            call = self.actors.call(
                workers[index], "play", shared[1], version, self.config.moves_per_task
            )
            calls[call] = index

        if not self._budget_spent():
            for index in range(len(workers)):
                submit(index)
        while calls:
            for call in self.actors.ready(list(calls), POLL_SECONDS):
                index = calls.pop(call)
                self._absorb(self.actors.result(call))
                if not self._budget_spent():
                    submit(index)
                self._train_due()
            if self._budget_spent():
                break  # tasks still running on other workers are dropped
            self._housekeeping()
        self.stopped_at = self._elapsed()
        if self.eval_call is not None:
            self._finish_evaluation(wait=True)
        if self._final_evaluation_due():
            self._start_evaluation(after_budget=True)
            if self.eval_call is not None:
                self._finish_evaluation(wait=True)
        if self.window.start_seconds is not None:
            self.metrics.write(
                self.window.record(self._elapsed(), self.buffer.size, self.worker_rss)
            )
        self._save()
        if self.config.eval_minutes <= 0 or not self.state["evaluated"]:
            self._save_best_from_model()
        self._plot()
        self._write_line(final=True)

    # --- the bootstrap phase -----------------------------------------------------------------

    def _bootstrap(self, workers: list[Any]) -> None:
        """Play the bootstrap games left, one per call on each worker, and take them into
        the buffer in their order (a game that finishes early waits for those before it),
        training on them as they come as on self-play's positions. Once the phase is over,
        a checkpoint: a run stopped later never plays it again."""
        state, total = self.state, self.config.bootstrap_games
        self._say(
            f"bootstrap phase: {self.config.bootstrap} plays games {state['bootstrap_games'] + 1} "
            f"to {total} against itself"
        )
        next_index = state["bootstrap_games"]
        finished: dict[int, BootstrapGame] = {}
        calls: dict[Any, int] = {}

        def submit(worker: int) -> None:
            nonlocal next_index
            if next_index < total and not self._budget_spent():
                task = self._bootstrap_task(next_index)
                calls[self.actors.call(workers[worker], "bootstrap", task)] = worker
                next_index += 1

        for worker in range(len(workers)):
            submit(worker)
        while calls:
            for call in self.actors.ready(list(calls), POLL_SECONDS):
                worker = calls.pop(call)
                played: BootstrapGame = self.actors.result(call)
                finished[played.index] = played
                while state["bootstrap_games"] in finished:
                    self._absorb_bootstrap(finished.pop(state["bootstrap_games"]))
                    self._train_due()
                submit(worker)
            if self._budget_spent():
                break  # games still running on other workers are dropped (replayed on resume)
            self._housekeeping()
        if self.last_bootstrap_record != state["bootstrap_games"]:
            self.metrics.write(self._bootstrap_record())
        if self._bootstrap_left() == 0:
            self._save()
            self.rate_start = time.monotonic()
            self._say(
                f"bootstrap phase done: {total} games, {state['bootstrap_positions']} positions, "
                f"{state['bootstrap_cpu_seconds']:.1f} CPU seconds, {self.learner.steps} "
                "training steps; self-play starts"
            )

    def _absorb_bootstrap(self, played: BootstrapGame) -> None:
        state = self.state
        self.buffer.add(played.game)
        state["bootstrap_games"] += 1
        state["bootstrap_positions"] += len(played.game)
        state["bootstrap_cpu_seconds"] += played.cpu_seconds
        state["seconds"] = self._elapsed()

    def _bootstrap_record(self) -> dict[str, Any]:
        """The metrics record of the bootstrap phase so far (its losses since the last
        record)."""
        state = self.state
        self.last_bootstrap_record = state["bootstrap_games"]
        self.last_bootstrap_seconds = elapsed = self._elapsed()
        losses = self.window.take_losses()
        return {
            "kind": "bootstrap",
            "seconds": round(elapsed, 2),
            "step": self.learner.steps,
            "games": state["bootstrap_games"],
            "of": self.config.bootstrap_games,
            "positions": state["bootstrap_positions"],
            "cpu_seconds": round(state["bootstrap_cpu_seconds"], 2),
            "loss": losses["loss"],
            "policy_loss": losses["policy"],
            "value_loss": losses["value"],
            "buffer": self.buffer.size,
        }

    def _elapsed(self) -> float:
        """Training seconds of the whole run so far (waiting for the last evaluation once the
        budget is spent is not training)."""
        if self.stopped_at is not None:
            return self.stopped_at
        return self.seconds_before + time.monotonic() - self.session_start

    def _budget_spent(self) -> bool:
        config = self.config
        if config.minutes is not None and self._elapsed() >= config.minutes * 60:
            return True
        return config.games is not None and self.state["games"] >= config.games

    def _absorb(self, output: SelfPlayOutput) -> None:
        for game in output.games:
            self.buffer.add(game)
        self.state["games"] += len(output.games)
        self.state["positions"] += sum(len(g) for g in output.games)
        self.window.add(output)
        self.worker_rss = (output.rss_mb, output.peak_rss_mb)
        self.state["seconds"] = self._elapsed()

    def _train_due(self) -> None:
        config = self.config
        if self.buffer.size < config.min_buffer:
            return
        positions = self.state["positions"] + self.state["bootstrap_positions"]
        due = int(positions * config.train_ratio / config.batch_size)
        while self.learner.steps < due and not self._budget_spent():
            batch = self.symmetries.augment(
                self.buffer.sample(config.batch_size, self.sampler), self.sampler
            )
            self.window.losses.append(self.learner.step(batch))
            self.state["step"] = self.learner.steps
            if time.monotonic() - self.last_housekeeping >= POLL_SECONDS:
                self._housekeeping()  # evaluations and checkpoints start on time
        self.state["step"] = self.learner.steps

    def _housekeeping(self) -> None:
        self.last_housekeeping = time.monotonic()
        self.state["seconds"] = elapsed = self._elapsed()
        if self.window.due(elapsed):
            self.metrics.write(self.window.record(elapsed, self.buffer.size, self.worker_rss))
        if self._bootstrap_left() > 0 and elapsed - self.last_bootstrap_seconds >= METRICS_SECONDS:
            self.metrics.write(self._bootstrap_record())
        if self.eval_call is not None:
            self._finish_evaluation(wait=False)
        if self._evaluation_due(elapsed):
            self._start_evaluation()
        if elapsed - self.last_checkpoint >= self.config.checkpoint_minutes * 60:
            self._save()
            if not self.state["evaluated"]:
                self._save_best_from_model()
        self._write_line()

    # --- evaluation ---------------------------------------------------------------------

    def _evaluation_due(self, elapsed: float) -> bool:
        """The first evaluation as soon as the network has trained, then on the grid."""
        config, evaluated = self.config, self.state["evaluated"]
        return (
            config.eval_minutes > 0
            and self.eval_call is None
            and self.learner.steps > 0
            and (
                not evaluated
                or elapsed - self.state["last_eval_seconds"] >= config.eval_minutes * 60
            )
            and not any(e["step"] == self.learner.steps for e in evaluated)
        )

    def _final_evaluation_due(self) -> bool:
        """The budget is spent and the last evaluated network is not the last network nor one
        of the last ``1 - FRESH_SHARE`` of the training time."""
        if self.config.eval_minutes <= 0:
            return False
        evaluated = self.state["evaluated"]
        if not evaluated:
            return True
        last = evaluated[-1]
        return (
            last["step"] != self.learner.steps and last["seconds"] < FRESH_SHARE * self._elapsed()
        )

    def _start_evaluation(self, after_budget: bool = False) -> None:
        config, state = self.config, self.state
        step = self.learner.steps
        games = config.eval_games if state["evaluated"] else short_eval_games(config.eval_games)
        label = f"step-{step:07d}"
        path = self.run_dir.checkpoints / f"{label}.pt"
        save_checkpoint(path, self._checkpoint(training=False))
        entry = {
            "label": label,
            "seconds": self._elapsed(),
            "step": step,
            "games": state["games"],
            "path": str(path.relative_to(self.run_dir.path)),
        }
        previous = None
        if state["evaluated"]:
            last = state["evaluated"][-1]
            weights = load_checkpoint(self.run_dir.path / last["path"]).model
            previous = (last["label"], {k: v.numpy() for k, v in weights.items()})
        task = EvaluationTask(
            label=label,
            weights=weights_of(self.model),
            previous=previous,
            budgets=tuple(state["budgets"]),
            games=games,
            simulations=config.eval_simulations,
            c_puct=config.c_puct,
            opening_moves=OPENING_MOVES,
            seed=int(np.random.SeedSequence([config.seed, 3, step]).generate_state(1)[0]),
        )
        interval = config.eval_minutes * 60  # on a fixed grid: no drift from late starts
        state["last_eval_seconds"] = entry["seconds"] // interval * interval
        self.eval_entry = entry
        self.eval_clock = (time.monotonic(), after_budget)
        if after_budget:
            self.last_eval = f"final evaluation of {label} running ({games} games per opponent)"
            self._write_line(final=True)
        self.eval_call = self.eval_actors.call(self.evaluator, "evaluate", task)
        if self.config.workers == 0:  # in the driver: it has run already
            self._finish_evaluation(wait=True)

    def _finish_evaluation(self, wait: bool) -> None:
        call = self.eval_call
        if not wait and not self.eval_actors.ready([call], 0.0):
            return
        results: list[MatchResult] = self.eval_actors.result(call)
        self.eval_call = None
        state, entry = self.state, self.eval_entry
        state["evaluated"].append(entry)
        state["pairings"] += [r.to_json() for r in results]
        elo = self._elo()
        top = mcts_label(state["budgets"][-1])
        against_top = [r.score for r in results if r.b == top]
        if against_top and against_top[0] >= self.config.raise_budget_at:
            state["budgets"].append(2 * state["budgets"][-1])
        self.metrics.write(
            {
                "kind": "eval",
                "seconds": entry["seconds"],
                "label": entry["label"],
                "step": entry["step"],
                "games": entry["games"],
                "results": [r.to_json() for r in results],
                "elo": elo,
                "checkpoints": {e["label"]: e["seconds"] for e in state["evaluated"]},
                "eval_seconds": round(time.monotonic() - self.eval_clock[0], 1),
                "after_budget": self.eval_clock[1],
            }
        )
        best = max(
            state["evaluated"],
            key=lambda e: (elo.get(e["label"], -math.inf), e["step"]),
        )
        network = read_regular_bytes(
            self.run_dir.path / best["path"], max_bytes=MAX_CHECKPOINT_BYTES, what="a checkpoint"
        )
        write_bytes_atomically(self.run_dir.best, network)
        parts = [f"{_short_label(r.b)} {r.score:.2f}" for r in results]
        self.last_eval = f"{entry['label']}: " + ", ".join(parts)
        self._plot()

    def _elo(self) -> dict[str, float]:
        state = self.state
        budgets = sorted(
            {budget for p in state["pairings"] if (budget := mcts_budget(p["b"])) is not None}
        )
        labels = [mcts_label(b) for b in budgets] + [e["label"] for e in state["evaluated"]]
        pairings = [
            PairingStats(p["a"], p["b"], p["wins"], p["draws"], p["losses"], 0, 0)
            for p in state["pairings"]
        ]
        ratings = elo_ratings(labels, pairings)
        return {label: (None if math.isnan(v) else round(v, 1)) for label, v in ratings.items()}

    # --- files ----------------------------------------------------------------------------

    def _checkpoint(self, training: bool) -> Checkpoint:
        progress: dict[str, Any] = {
            "step": self.learner.steps,
            "games": self.state["games"],
            "positions": self.state["positions"],
            "seconds": self.state["seconds"],
        }
        if training:
            progress["state"] = json.dumps(self.state)
            progress["sampler"] = json.dumps(self.sampler.bit_generator.state)
        return Checkpoint(
            game=self.config.game,
            spec=self.spec,
            model=self.model.state_dict(),
            optimizer=self.learner.optimizer.state_dict() if training else None,
            config=self.config.to_json(),
            progress=progress,
        )

    def _save(self) -> None:
        self.state["seconds"] = self._elapsed()
        self.state["step"] = self.learner.steps
        self.buffer.save(self.run_dir.buffer)
        save_checkpoint(self.run_dir.latest, self._checkpoint(training=True))
        self.last_checkpoint = self.state["seconds"]

    def _save_best_from_model(self) -> None:
        save_checkpoint(self.run_dir.best, self._checkpoint(training=False))

    def _plot(self) -> None:
        title = f"AlphaZero on {self.config.game}"
        with contextlib.suppress(ImportError):  # no matplotlib: metrics.jsonl has the figures
            plot_metrics(self.run_dir.metrics, self.run_dir.plots, title)

    def _result(self) -> TrainResult:
        from agents.alphazero.metrics import read_metrics

        evaluations = [r for r in read_metrics(self.run_dir.metrics) if r["kind"] == "eval"]
        return TrainResult(
            out=self.run_dir.path,
            best=self.run_dir.best,
            latest=self.run_dir.latest,
            steps=self.learner.steps,
            games=self.state["games"],
            positions=self.state["positions"],
            seconds=self.state["seconds"],
            elo=evaluations[-1]["elo"] if evaluations else {},
            evaluations=evaluations,
            bootstrap_games=self.state["bootstrap_games"],
            bootstrap_positions=self.state["bootstrap_positions"],
            bootstrap_cpu_seconds=self.state["bootstrap_cpu_seconds"],
        )

    # --- progress line --------------------------------------------------------------------

    def _write_line(self, final: bool = False) -> None:
        stream = self.stream
        if stream is None:
            return
        now = time.monotonic()
        tty = bool(getattr(stream, "isatty", lambda: False)())
        if not final and now - self.last_line < (0.5 if tty else 30.0):
            return
        self.last_line = now
        line = self._line()
        self.line_open = tty and not final
        if tty:
            stream.write("\r" + line + "\x1b[K" + ("\n" if final else ""))
        else:
            stream.write(line + "\n")
        stream.flush()

    def _line(self) -> str:
        config, state = self.config, self.state
        elapsed = self._elapsed()
        budget = []
        if config.minutes is not None:
            budget.append(f"{_clock(elapsed)}/{_clock(config.minutes * 60)}")
        else:
            budget.append(_clock(elapsed))
        if self._bootstrap_left() > 0:
            parts = [
                " ".join(budget),
                f"bootstrap games {state['bootstrap_games']}/{config.bootstrap_games}",
                f"positions {state['bootstrap_positions']}",
                f"CPU {state['bootstrap_cpu_seconds']:.0f} s",
                f"step {self.learner.steps}",
            ]
        else:
            parts = [" ".join(budget), *self._self_play_parts()]
        if self.window.last_loss is not None:
            parts.append(f"loss {self.window.last_loss:.3f}")
        if self.last_eval:
            parts.append(f"eval {self.last_eval}")
        return "  ".join(parts)

    def _self_play_parts(self) -> list[str]:
        config, state = self.config, self.state
        games = f"games {state['games']}" + (f"/{config.games}" if config.games else "")
        session = max(time.monotonic() - self.rate_start, 1e-9)
        rates = (
            (state["games"] - self.session_games) / session,
            (state["positions"] - self.session_positions) / session,
        )
        return [
            f"{games} ({rates[0]:.2f}/s)",
            f"positions {state['positions']} ({rates[1]:.0f}/s)",
            f"step {self.learner.steps}",
        ]


class _Window:
    """Self-play and training figures since the last metrics record."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.start_seconds: float | None = None
        self.start_games = state["games"]
        self.start_positions = state["positions"]
        self.task_seconds = 0.0
        self.network_seconds = 0.0
        self.losses: list[dict[str, float]] = []
        self.last_loss: float | None = None

    def add(self, output: SelfPlayOutput) -> None:
        if self.start_seconds is None:
            self.start_seconds = self.state["seconds"] - output.seconds
        self.task_seconds += output.seconds
        self.network_seconds += output.network_seconds

    def due(self, elapsed: float) -> bool:
        return self.start_seconds is not None and elapsed - self.start_seconds >= METRICS_SECONDS

    def rates(self) -> tuple[float, float]:
        """Games and positions per second since the last record."""
        span = max(self.state["seconds"] - self.start_seconds, 1e-9)
        return (
            (self.state["games"] - self.start_games) / span,
            (self.state["positions"] - self.start_positions) / span,
        )

    def take_losses(self) -> dict[str, float | None]:
        """The mean losses of the steps since the last call (None without steps), which are
        then forgotten."""
        losses = {
            key: (
                sum(loss[key] for loss in self.losses) / len(self.losses) if self.losses else None
            )
            for key in ("loss", "policy", "value")
        }
        if losses["loss"] is not None:
            self.last_loss = losses["loss"]
        self.losses = []
        return losses

    def record(
        self, elapsed: float, buffer: int, worker_rss: tuple[float, float]
    ) -> dict[str, Any]:
        games_rate, positions_rate = self.rates()
        losses = self.take_losses()
        record = {
            "kind": "train",
            "seconds": round(elapsed, 2),
            "step": self.state["step"],
            "games": self.state["games"],
            "positions": self.state["positions"],
            "loss": losses["loss"],
            "policy_loss": losses["policy"],
            "value_loss": losses["value"],
            "games_per_s": round(games_rate, 3),
            "positions_per_s": round(positions_rate, 1),
            "network_share": round(self.network_seconds / self.task_seconds, 3)
            if self.task_seconds
            else None,
            "buffer": buffer,
            "rss_mb": round(rss_mb(), 1),
            "peak_rss_mb": round(peak_rss_mb(), 1),
            "worker_rss_mb": round(worker_rss[0], 1),
            "worker_peak_rss_mb": round(worker_rss[1], 1),
        }
        self.start_seconds = elapsed
        self.start_games = self.state["games"]
        self.start_positions = self.state["positions"]
        self.task_seconds = self.network_seconds = 0.0
        return record


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _short_label(label: str) -> str:
    """``"mcts 1000"`` for a pure UCT opponent's label, any other label as it is."""
    budget = mcts_budget(label)
    return label if budget is None else f"mcts {budget}"
