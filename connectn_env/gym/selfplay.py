"""Self-play: an opponent that plays frozen snapshots of the learner's own policy.

A :class:`SelfPlayOpponent` is a bounded pool of snapshots shared by any number of boards
(single-agent envs, the boards of the native vector env). Each board has a seat
(:class:`SelfPlaySeat`) that draws one snapshot at the start of every episode and plays it
to the end of the episode:

- with probability ``latest_probability`` the latest snapshot, else one drawn uniformly
  from the whole pool (the latest included), as in OpenAI Five (80% latest, 20% past
  selves) and the self-play tutorials of PettingZoo and SB3 users;
- before the first snapshot, uniformly random legal moves.

The pool keeps the ``pool_size`` most recent snapshots; adding one more drops the oldest.

A snapshot is either an object with ``logits(observations, action_masks) -> scores`` for a
batch (what :class:`~connectn_env.gym.selfplay_sb3.SelfPlayCallback` adds: a copy of an
SB3 policy's weights), or a plain callable ``fn(observation, action_mask) -> action`` for
one board, which the caller must freeze (the pool keeps the object, not a copy). The
observation is the int8 (rows, cols, 2) planes [own stones, opponent's stones] of the
player to move: what the learner would get as that player. Scores are masked with the
legal-action mask, so a snapshot with scores always plays a legal move: sampled from the
softmax of the legal scores, or (``deterministic=True``) their arg-max. The legal scores must
be finite numbers (an illegal action's may be ``-inf`` or NaN); others raise a ``ValueError``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from connectn_env.games import GameState
from connectn_env.games.validation import require_bool, require_fraction, require_int

# What ``opponent_kwargs`` may set with ``opponent="self"``.
SELF_PLAY_KWARGS = ("pool_size", "latest_probability", "deterministic")
MAX_POOL_SIZE = 100_000


@runtime_checkable
class PolicySnapshot(Protocol):
    """A frozen policy that scores every action of a batch of positions."""

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Float scores of shape (batch, num_actions) for int8 observations of shape
        (batch, rows, cols, 2) and int8 masks of shape (batch, num_actions)."""


Snapshot = PolicySnapshot | Callable[[np.ndarray, np.ndarray], Any]


class SelfPlayOpponent:
    """A pool of frozen snapshots of the learner's policy, played by the env's opponent.

    Pass it as ``opponent=`` to the single-agent envs, ``gym.make`` or the native vector
    env: every env and board given the same object shares the pool (``opponent="self"``
    makes a new pool per env, one for all boards of a vector env; ``env.self_play`` is
    it). Add snapshots with :meth:`add` or the SB3 callback; see the module docstring for
    the rule that picks a snapshot per episode.

    Args:
        pool_size: The most snapshots kept, 1 to 100,000; the oldest goes first.
        latest_probability: Chance, 0 to 1, that an episode plays the latest snapshot
            rather than one drawn uniformly from the pool.
        deterministic: Play the arg-max of a snapshot's legal scores instead of sampling.

    Raises:
        TypeError: an argument of the wrong type.
        ValueError: ``pool_size`` outside [1, 100000] or ``latest_probability`` outside
            [0, 1].
    """

    def __init__(
        self, *, pool_size: int = 10, latest_probability: float = 0.5, deterministic: bool = False
    ) -> None:
        self.pool_size = require_int("pool_size", pool_size, 1, MAX_POOL_SIZE)
        self.latest_probability = require_fraction("latest_probability", latest_probability)
        self.deterministic = require_bool("deterministic", deterministic)
        self._pool: deque[Snapshot] = deque(maxlen=self.pool_size)
        self.added = 0  # snapshots added so far, dropped ones included

    def add(self, snapshot: Snapshot) -> None:
        """Add ``snapshot`` as the latest (dropping the oldest if the pool is full).

        Raises:
            TypeError: ``snapshot`` has no ``logits`` method and is not callable; the pool
                is unchanged.
        """
        if not isinstance(snapshot, PolicySnapshot) and not callable(snapshot):
            raise TypeError(
                "snapshot must have a logits(observations, action_masks) method or be a "
                f"callable fn(observation, action_mask) -> action, got {snapshot!r} of type "
                f"{type(snapshot).__name__}"
            )
        self._pool.append(snapshot)
        self.added += 1

    @property
    def snapshots(self) -> tuple[Snapshot, ...]:
        """The pool, oldest first (no ``__len__``: an empty pool is not falsy, so
        ``pool or "random"`` cannot silently drop it)."""
        return tuple(self._pool)

    def seat(self) -> SelfPlaySeat:
        """A new seat at this pool for one board (the envs make them)."""
        return SelfPlaySeat(self)

    def draw(self, rng: np.random.Generator) -> Snapshot | None:
        """The snapshot for an episode (None while the pool is empty: random play)."""
        if not self._pool:
            return None
        if rng.random() < self.latest_probability:
            return self._pool[-1]
        return self._pool[int(rng.integers(len(self._pool)))]

    def act_batch(self, seats: Sequence[SelfPlaySeat], states: Sequence[GameState]) -> list[int]:
        """One action per seat for the player to move in its state; the seats that play the
        same snapshot with scores are evaluated in one call.

        Raises:
            ValueError: a snapshot's scores are not numbers of shape (batch, num_actions),
                or a legal action's score is not finite.
        """
        actions = [0] * len(seats)
        batches: dict[int, list[int]] = {}
        for k, (seat, state) in enumerate(zip(seats, states, strict=True)):
            snapshot = seat.snapshot
            if snapshot is None:
                legal = np.flatnonzero(state.legal_action_mask())
                actions[k] = int(legal[seat.rng.integers(len(legal))])
            elif isinstance(snapshot, PolicySnapshot):
                batches.setdefault(id(snapshot), []).append(k)
            else:
                view = state.observation(state.current_player())
                actions[k] = snapshot(view, state.legal_action_mask())
        for rows in batches.values():
            snapshot = seats[rows[0]].snapshot
            views = np.stack([states[k].observation(states[k].current_player()) for k in rows])
            masks = np.stack([states[k].legal_action_mask() for k in rows])
            scores = _scores(snapshot, snapshot.logits(views, masks), masks)
            for row, k in enumerate(rows):
                actions[k] = self._choose(scores[row], masks[row], seats[k].rng)
        return actions

    def _choose(self, scores: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action: the arg-max, or a softmax sample (Gumbel-max), of the legal scores."""
        legal = np.where(mask.astype(bool), scores, -np.inf)
        if not self.deterministic:
            legal = legal + rng.gumbel(size=legal.shape)
        return int(np.argmax(legal))

    def __repr__(self) -> str:
        return (
            f"SelfPlayOpponent(pool_size={self.pool_size}, latest_probability="
            f"{self.latest_probability}, deterministic={self.deterministic}, "
            f"snapshots={len(self._pool)})"
        )


class SelfPlaySeat:
    """One board's opponent at a :class:`SelfPlayOpponent`: the snapshot drawn for the
    episode and the board's own generator (the env reseeds it every episode).

    Attributes:
        pool: The shared pool.
        snapshot: The snapshot of this episode, or None (random legal moves).
    """

    def __init__(self, pool: SelfPlayOpponent) -> None:
        self.pool = pool
        self.rng = np.random.default_rng()
        self.snapshot: Snapshot | None = None

    def reset(self, seed: int) -> None:
        """Reseed, and draw this episode's snapshot from the pool."""
        self.rng = np.random.default_rng(seed)
        self.snapshot = self.pool.draw(self.rng)

    def act(self, state: GameState) -> int:
        """The snapshot's move for the player to move in ``state``."""
        return self.pool.act_batch([self], [state])[0]

    def __repr__(self) -> str:
        return f"SelfPlaySeat({self.pool!r})"


def _scores(snapshot: PolicySnapshot, logits: Any, masks: np.ndarray) -> np.ndarray:
    """``snapshot``'s ``logits`` as float64 of the masks' shape, finite where legal.

    Raises:
        ValueError: they are not numbers, have another shape, or a legal one is not finite.
    """
    rule = "its scores must be finite numbers, one per action (an illegal action's may be -inf)"
    try:
        scores = np.asarray(logits, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"snapshot {snapshot!r} returned scores that are not numbers ({error}): {rule}"
        ) from None
    if scores.shape != masks.shape:
        raise ValueError(
            f"snapshot {snapshot!r} returned scores of shape {scores.shape}, expected "
            f"(batch, num_actions) = {masks.shape}: {rule}"
        )
    bad = ~np.isfinite(scores) & masks.astype(bool)
    if bad.any():
        row, action = np.argwhere(bad)[0].tolist()
        raise ValueError(
            f"snapshot {snapshot!r} returned the score {scores[row, action]} for the legal "
            f"action {action} of row {row}: {rule}"
        )
    return scores


def make_self_play(kwargs: dict[str, Any] | None) -> SelfPlayOpponent:
    """The pool of ``opponent="self"``, built from ``opponent_kwargs``.

    Raises:
        TypeError: a key that :class:`SelfPlayOpponent` does not take, or a bad value type.
        ValueError: a value out of range.
    """
    kwargs = kwargs or {}
    unknown = sorted(str(key) for key in kwargs if key not in SELF_PLAY_KWARGS)
    if unknown:
        raise TypeError(
            f"opponent_kwargs {kwargs!r}: {unknown[0]!r} is not a SelfPlayOpponent argument; "
            f"valid with opponent='self': {', '.join(SELF_PLAY_KWARGS)}"
        )
    return SelfPlayOpponent(**kwargs)
