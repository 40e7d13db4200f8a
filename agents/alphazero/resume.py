"""Reading a run back for ``--resume``: every file of the run directory is read and checked
before anything is written, so a damaged file stops the resume with its name and what is
wrong, and leaves the directory as it was.

What is checked: ``latest.pt`` is a training checkpoint of this game with the network of
``run.json`` (its optimizer state fits the network, its progress entries are the run's
counters), ``buffer.npz`` is a replay buffer of this game (:meth:`ReplayBuffer.load`),
``metrics.jsonl`` holds records (:func:`read_metrics`), and ``best.pt`` and every evaluated
network in ``checkpoints/`` are checkpoints of this game and network, each matching the
digest it was saved with (:func:`load_checkpoint`; a run saved before checkpoints carried one
resumes unchecked). The kinds of the files the run only writes (``plots.png``,
``checkpoints/``) are checked by :meth:`RunDirectory.check`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import torch

from agents.alphazero.checkpoint import Checkpoint, CheckpointError, load_checkpoint
from agents.alphazero.config import TrainConfig
from agents.alphazero.evaluation import mcts_budget
from agents.alphazero.metrics import read_metrics
from agents.alphazero.network import NetworkSpec, PolicyValueNet
from agents.alphazero.replay import ReplayBuffer
from agents.alphazero.rundir import RunDirectory, RunDirectoryError
from connectn_env.safe_files import describe_file_error

_COUNTERS = ("step", "games", "positions", "sessions")
_TIMES = ("seconds", "last_eval_seconds")
# the bootstrap phase's (a run started before the phase existed has none: 0)
_BOOTSTRAP = {"bootstrap_games": int, "bootstrap_positions": int, "bootstrap_cpu_seconds": float}
_EVALUATED = {"label": str, "seconds": float, "step": int, "games": int, "path": str}
_PAIRING = {"a": str, "b": str, "wins": int, "draws": int, "losses": int}


@dataclass(frozen=True)
class Resumed:
    """What a resumed run continues from (the model, optimizer, buffer and sampler given to
    :func:`restore_run` hold the rest).

    Attributes:
        state: The run's counters and evaluation history, as the trainer keeps them.
        metrics: The metrics records up to the checkpoint (the later ones are dropped).
    """

    state: dict[str, Any]
    metrics: list[dict[str, Any]]


def restore_run(
    run: RunDirectory,
    config: TrainConfig,
    model: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    buffer: ReplayBuffer,
    sampler: np.random.Generator,
) -> Resumed:
    """Load the run in ``run`` into ``model``, ``optimizer``, ``buffer`` and ``sampler``,
    checking every file first; writes nothing. An error's message starts with the file's path.

    Raises:
        CheckpointError: ``latest.pt``, ``best.pt`` or an evaluated network is unreadable,
            of another game or network, or not what the run wrote there.
        RunDirectoryError: ``buffer.npz`` or ``metrics.jsonl`` is unreadable or damaged.
    """
    latest = load_checkpoint(run.latest, config.game)
    _check_network(latest, model.spec, run)
    state, sampler_state = _training_entries(latest)
    model.load_state_dict(latest.model)
    _load_optimizer(optimizer, latest, model)
    try:
        sampler.bit_generator.state = sampler_state
    except (TypeError, ValueError, KeyError, OverflowError) as error:
        raise CheckpointError(f"{run.latest}: a damaged sampler state ({error})") from None
    for path in _evaluated_paths(state, run):
        _check_network(load_checkpoint(path, config.game), model.spec, run)
    if run.best.exists():
        _check_network(load_checkpoint(run.best, config.game), model.spec, run)
    try:
        buffer.load(run.buffer)
    except (OSError, ValueError) as error:
        raise RunDirectoryError(describe_file_error(run.buffer, error)) from None
    try:
        records = read_metrics(run.metrics)
    except (OSError, ValueError) as error:
        raise RunDirectoryError(describe_file_error(run.metrics, error)) from None
    kept = [r for r in records if r["seconds"] <= state["seconds"]]
    return Resumed(state=state, metrics=kept)


def _check_network(checkpoint: Checkpoint, spec: NetworkSpec, run: RunDirectory) -> None:
    if checkpoint.spec != spec:
        raise CheckpointError(
            f"{checkpoint.path}: its network has {checkpoint.spec.channels} channels and "
            f"{checkpoint.spec.blocks} blocks; {run.run_file} says {spec.channels} and "
            f"{spec.blocks}"
        )


def _training_entries(checkpoint: Checkpoint) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run's state and the sampler's state stored in a training checkpoint."""
    progress = checkpoint.progress
    present = {
        "optimizer state": checkpoint.optimizer is not None,
        "run state": isinstance(progress.get("state"), str),
        "sampler state": isinstance(progress.get("sampler"), str),
    }
    missing = [name for name, there in present.items() if not there]
    if missing:
        raise CheckpointError(
            f"{checkpoint.path}: not a training checkpoint (it has no {', '.join(missing)}: a "
            "copy of best.pt?); --resume continues from the latest.pt the run wrote"
        )
    try:
        state = json.loads(progress["state"])
        sampler = json.loads(progress["sampler"])
        _check_state(state)
        if not isinstance(sampler, dict):
            raise TypeError(f"the sampler state is a {type(sampler).__name__}, not an object")
    except (ValueError, TypeError, RecursionError) as error:
        raise CheckpointError(f"{checkpoint.path}: a damaged run state ({error})") from None
    return state, sampler


def _check_state(state: Any) -> None:
    """Refuse a run state that is not the trainer's (see ``_Trainer.state``)."""
    if not isinstance(state, dict):
        raise TypeError(f"the run state is a {type(state).__name__}, not an object")
    for key in _COUNTERS:
        _require(state, key, int, minimum=0)
    for key in _TIMES:
        _require(state, key, float, minimum=0)
    for key, kind in _BOOTSTRAP.items():
        if key in state:
            _require(state, key, kind, minimum=0)
    budgets = _require(state, "budgets", list)
    if not budgets or any(not _is(b, int) or b < 1 for b in budgets):
        raise ValueError(f"budgets must be simulation counts, got {budgets!r:.80}")
    for key, fields in (("evaluated", _EVALUATED), ("pairings", _PAIRING)):
        for entry in _require(state, key, list):
            if not isinstance(entry, dict):
                raise TypeError(f"{key} must hold objects, got {entry!r:.80}")
            for name, kind in fields.items():
                _require(entry, name, kind, where=f"an entry of {key}")
    labels = {entry["label"] for entry in state["evaluated"]}
    for pairing in state["pairings"]:  # the Elo fit needs every side among the rated
        if pairing["a"] not in labels or not (
            pairing["b"] in labels or mcts_budget(pairing["b"]) is not None
        ):
            raise ValueError(
                f"pairing {pairing['a']!r:.40} vs {pairing['b']!r:.40} is not between "
                "evaluated networks or against MCTS"
            )


def _is(value: Any, kind: type) -> bool:
    if isinstance(value, bool):
        return False
    if kind is float:
        return isinstance(value, int | float) and math.isfinite(value)
    return isinstance(value, kind)


def _require(
    data: dict[str, Any], key: str, kind: type, *, minimum: float | None = None, where: str = ""
) -> Any:
    value = data.get(key)
    ok = _is(value, kind) and (minimum is None or value >= minimum)
    if not ok:
        wanted = {int: "a count", float: "a number of seconds"}.get(kind, kind.__name__)
        place = f" in {where}" if where else ""
        raise ValueError(f"{key}{place} must be {wanted}, got {value!r:.80}")
    return value


def _load_optimizer(
    optimizer: torch.optim.Optimizer, checkpoint: Checkpoint, model: PolicyValueNet
) -> None:
    """Load the checkpoint's optimizer state, refusing one that does not fit the network."""
    parameters = list(model.parameters())
    try:
        optimizer.load_state_dict(checkpoint.optimizer)
        for index, entry in optimizer.state_dict()["state"].items():
            for name, value in entry.items():
                if name != "step" and value.shape != parameters[index].shape:
                    raise ValueError(
                        f"{name} of parameter {index} has shape {tuple(value.shape)}, the "
                        f"network's is {tuple(parameters[index].shape)}"
                    )
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RuntimeError) as error:
        raise CheckpointError(f"{checkpoint.path}: a damaged optimizer state ({error})") from None


def _evaluated_paths(state: dict[str, Any], run: RunDirectory) -> list[Path]:
    """The files of the evaluated networks, which must lie in ``checkpoints/``."""
    paths = []
    for entry in state["evaluated"]:
        relative = PurePosixPath(entry["path"])
        if relative.parent != PurePosixPath(run.checkpoints.name) or relative.suffix != ".pt":
            raise CheckpointError(
                f"{run.latest}: a damaged run state (evaluated network {entry['path']!r:.80} is "
                f"not a .pt file in {run.checkpoints.name}/)"
            )
        paths.append(run.path / relative)
    return paths
