"""The replay buffer of self-play positions, and data augmentation with the game's symmetries.

The buffer's arrays are allocated once at full size, so memory stops growing once it is full;
the newest ``capacity`` positions are kept. A sample is transformed by a random symmetry of the
game each (``game.symmetries()``: the rotations and mirrors of a square placement board, the
mirror of a gravity board, the half turn of a Hex board...), never by a hard-coded one.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.lib.format as npy

from agents.selfplay import SelfPlayGame
from connectn_env.atomic_write import write_bytes_atomically
from connectn_env.games import BoardGame
from connectn_env.safe_files import read_regular_bytes


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


_NAMES = ("observations", "players", "masks", "policies", "values")


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
        order = (self.added - self.size + np.arange(self.size)) % self.capacity
        stream = io.BytesIO()
        arrays = dict(zip(_NAMES, (a[order] for a in _fields(self.as_batch())), strict=True))
        np.savez(stream, **arrays, added=np.int64(self.added))
        write_bytes_atomically(path, stream.getbuffer())

    def load(self, path: str | Path) -> None:
        """Replace the content with a file :meth:`save` wrote (the newest positions that fit).

        Only a regular file of at most the size :meth:`save` writes for this buffer is read,
        and no pickled object: each array's header is checked (type, shape, size) before the
        array is read.

        Raises:
            ValueError: the file is not such a file for this buffer's game (damaged, another
                game, mismatched arrays); the message starts with the path.
            OSError: the file cannot be read.
        """
        path = Path(path)
        row = sum(a[0].nbytes for a in _fields(self.as_batch()))
        data = read_regular_bytes(
            path, max_bytes=self.capacity * row + 2**16, what="this replay buffer"
        )
        expected = {
            name: (array.dtype, array.shape[1:])
            for name, array in zip(_NAMES, _fields(self.as_batch()), strict=True)
        }
        arrays = _read_npz(data, path, expected | {"added": (np.dtype(np.int64), None)})
        rows = {len(arrays[name]) for name in _NAMES}
        if len(rows) != 1:
            counts = ", ".join(f"{name} {len(arrays[name])}" for name in _NAMES)
            raise ValueError(f"{path}: its arrays hold different numbers of positions ({counts})")
        held, added = rows.pop(), int(arrays["added"])
        if added < held:
            raise ValueError(f"{path}: added is {added}, less than the {held} positions held")
        for name in ("policies", "values"):
            if not np.isfinite(arrays[name]).all():
                raise ValueError(f"{path}: {name} holds values that are not finite")
        keep = min(held, self.capacity)
        index = (added - keep + np.arange(keep)) % self.capacity
        for target, name in zip(_fields(self.as_batch()), _NAMES, strict=True):
            target[index] = arrays[name][held - keep :]
        self.size = keep
        self.added = added

    def as_batch(self) -> Batch:
        """The whole storage (views, including unused rows)."""
        return Batch(self.observations, self.players, self.masks, self.policies, self.values)


_ZIP_ERRORS = (
    ValueError,
    OSError,
    EOFError,
    KeyError,
    zipfile.BadZipFile,
    zlib.error,
    NotImplementedError,
    RuntimeError,
)


def _read_npz(
    data: bytes, where: Path, expected: dict[str, tuple[np.dtype, tuple[int, ...] | None]]
) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` file's content, each of the dtype and row shape (None: a
    scalar) in ``expected``; headers are checked before any array is read.

    Raises:
        ValueError: not an npz file, a missing array, another dtype or shape, or an array
            shorter than its header says; the message starts with ``where``.
    """
    arrays = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            for name, (dtype, row) in expected.items():
                if f"{name}.npy" not in names:
                    raise ValueError(f"no array {name!r}")
                info = archive.getinfo(f"{name}.npy")
                with archive.open(info) as stream:
                    shape, dtype_found = _npy_header(stream)
                wanted = () if row is None else (shape[:1] + row)
                if dtype_found != dtype or shape != wanted:
                    wanted_text = "a scalar" if row is None else f"(n, {', '.join(map(str, row))})"
                    raise ValueError(
                        f"array {name!r} is {dtype_found} of shape {shape}; this game's "
                        f"shapes are {dtype} of shape {wanted_text}"
                    )
                if dtype_found.itemsize * int(np.prod(shape)) > info.file_size:
                    raise ValueError(f"array {name!r} is shorter than its header says")
                with archive.open(info) as stream:
                    arrays[name] = npy.read_array(stream, allow_pickle=False)
    except _ZIP_ERRORS as error:
        raise ValueError(f"{where}: not a replay buffer file of this run ({error})") from None
    return arrays


def _npy_header(stream: io.BufferedIOBase) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype in the header of an ``.npy`` stream."""
    version = npy.read_magic(stream)
    if version == (1, 0):
        shape, _, dtype = npy.read_array_header_1_0(stream)
    elif version == (2, 0):
        shape, _, dtype = npy.read_array_header_2_0(stream)
    else:
        raise ValueError(f"npy format version {version} is not read here")
    return tuple(shape), dtype
