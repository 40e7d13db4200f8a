"""The replay buffer of self-play positions, and data augmentation with the game's symmetries.

The buffer's arrays are allocated once at full size, so memory stops growing once it is full;
the newest ``capacity`` positions are kept. A sample is transformed by a random symmetry of the
game each (``game.symmetries()``: the rotations and mirrors of a square placement board, the
mirror of a gravity board, the half turn of a Hex board...), never by a hard-coded one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.selfplay import SelfPlayGame
from connectn_env.games import BoardGame

__all__ = ["Batch", "ReplayBuffer", "SymmetryTable"]


@dataclass(frozen=True)
class Batch:
    """Training positions.

    Attributes:
        observations: int8 ``(n, rows, cols, 2)`` planes for the player to move.
        players: int8 ``(n,)`` player to move.
        masks: int8 ``(n, num_actions)`` legal actions.
        policies: float32 ``(n, num_actions)`` policy targets.
        values: float32 ``(n,)`` value targets for the player to move.
    """

    observations: np.ndarray
    players: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)


class SymmetryTable:
    """The game's symmetries as index arrays that transform batches of training data.

    Attributes:
        names: The symmetries' names, identity first.
    """

    def __init__(self, game: BoardGame) -> None:
        symmetries = game.symmetries()
        self.names = tuple(s.name for s in symmetries)
        cells = game.rows * game.cols
        self._cells = np.empty((len(symmetries), cells), dtype=np.int64)
        self._actions = np.empty((len(symmetries), game.num_actions), dtype=np.int64)
        for k, symmetry in enumerate(symmetries):
            self._cells[k, symmetry.cells] = np.arange(cells)  # inverse: gather form
            self._actions[k, symmetry.actions] = np.arange(game.num_actions)

    def __len__(self) -> int:
        return len(self.names)

    def apply(self, index: int, batch: Batch) -> Batch:
        """``batch`` transformed by symmetry ``index`` (new arrays)."""
        n, rows, cols, depth = batch.observations.shape
        flat = batch.observations.reshape(n, rows * cols, depth)[:, self._cells[index]]
        actions = self._actions[index]
        return Batch(
            observations=flat.reshape(n, rows, cols, depth),
            players=batch.players.copy(),
            masks=batch.masks[:, actions],
            policies=batch.policies[:, actions],
            values=batch.values.copy(),
        )

    def augment(self, batch: Batch, generator: np.random.Generator) -> Batch:
        """Each position of ``batch`` transformed by a symmetry drawn uniformly (new arrays)."""
        chosen = generator.integers(len(self), size=len(batch))
        out = Batch(*(np.empty_like(a) for a in _fields(batch)))
        for index in np.unique(chosen):
            rows = np.flatnonzero(chosen == index)
            part = self.apply(int(index), Batch(*(a[rows] for a in _fields(batch))))
            for target, source in zip(_fields(out), _fields(part), strict=True):
                target[rows] = source
        return out


def _fields(batch: Batch) -> tuple[np.ndarray, ...]:
    return (batch.observations, batch.players, batch.masks, batch.policies, batch.values)


class ReplayBuffer:
    """The newest ``capacity`` self-play positions of one game.

    Attributes:
        size: Positions held.
        added: Positions added since the buffer was made (or saved).
    """

    def __init__(self, capacity: int, game: BoardGame) -> None:
        self.capacity = int(capacity)
        rows, cols, actions = game.rows, game.cols, game.num_actions
        self.observations = np.zeros((self.capacity, rows, cols, 2), dtype=np.int8)
        self.players = np.zeros(self.capacity, dtype=np.int8)
        self.masks = np.zeros((self.capacity, actions), dtype=np.int8)
        self.policies = np.zeros((self.capacity, actions), dtype=np.float32)
        self.values = np.zeros(self.capacity, dtype=np.float32)
        self.size = 0
        self.added = 0

    def add(self, game: SelfPlayGame) -> None:
        """Append the positions of a finished self-play game."""
        n = len(game)
        start = self.added % self.capacity
        index = (start + np.arange(n)) % self.capacity
        self.observations[index] = game.observations
        self.players[index] = game.players
        self.masks[index] = game.masks
        self.policies[index] = game.policies
        self.values[index] = game.values
        self.added += n
        self.size = min(self.capacity, self.size + n)

    def sample(self, count: int, generator: np.random.Generator) -> Batch:
        """``count`` positions drawn uniformly with replacement (copies)."""
        if self.size == 0:
            raise ValueError("the replay buffer is empty")
        index = generator.integers(self.size, size=count)
        return Batch(
            self.observations[index],
            self.players[index],
            self.masks[index],
            self.policies[index],
            self.values[index],
        )

    def save(self, path: str | Path) -> None:
        """Write the held positions (oldest first) to an ``.npz`` file, atomically."""
        path = Path(path)
        order = (self.added - self.size + np.arange(self.size)) % self.capacity
        temporary = path.with_name(path.name + ".tmp.npz")
        np.savez(
            temporary,
            observations=self.observations[order],
            players=self.players[order],
            masks=self.masks[order],
            policies=self.policies[order],
            values=self.values[order],
            added=np.int64(self.added),
        )
        temporary.replace(path)

    def load(self, path: str | Path) -> None:
        """Replace the content with a file :meth:`save` wrote (the newest positions that fit).

        Raises:
            ValueError: the file does not match this buffer's game.
        """
        with np.load(Path(path), allow_pickle=False) as data:
            arrays = [data[k] for k in ("observations", "players", "masks", "policies", "values")]
            added = int(data["added"])
        shapes = [a.shape[1:] for a in arrays]
        expected = [a.shape[1:] for a in _fields(self.as_batch())]
        if shapes != expected:
            raise ValueError(f"{path} holds positions of shapes {shapes}, expected {expected}")
        keep = min(len(arrays[0]), self.capacity)
        index = (added - keep + np.arange(keep)) % self.capacity
        for target, source in zip(_fields(self.as_batch()), arrays, strict=True):
            target[index] = source[len(source) - keep :]
        self.size = keep
        self.added = added

    def as_batch(self) -> Batch:
        """The whole storage (views, including unused rows)."""
        return Batch(self.observations, self.players, self.masks, self.policies, self.values)
