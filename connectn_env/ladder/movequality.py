"""``move_quality``: how often a candidate's Connect Four moves keep the game-theoretic
result, and how often they are best, on a fixed set of critical positions judged by the
perfect solver (Kaggle ConnectX's "good move rate" and "perfect move rate"), with Wilson 95%
intervals. ``connectn evaluate connect_four CANDIDATE --positions`` prints it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectn_env.arena.progress import Progress
from connectn_env.arena.worker import describe_error, tampering
from connectn_env.elo import wilson
from connectn_env.errors import ConnectnError
from connectn_env.games.validation import require_action, require_int
from connectn_env.ladder.candidates import check_candidate, make_candidate
from connectn_env.ladder.games import ladder_key
from connectn_env.ladder.matches import DEFAULT_MOVE_TIMEOUT, require_move_timeout
from connectn_env.ladder.positions import GAME, Position, load_positions


@dataclass(frozen=True)
class MoveQuality:
    """What :func:`move_quality` found.

    Attributes:
        candidate: The candidate's label.
        positions: Positions judged.
        kept: Moves that keep the result (a win stays a win, a draw a draw).
        best: Best moves (the fastest win, the slowest loss).
        errors: Positions where the candidate failed (an illegal move, an exception, a move
            over the time limit, a change to the env during its move): counted as neither
            kept nor best.
        first_error: The first failure, described (None: none).
    """

    candidate: str
    positions: int
    kept: int
    best: int
    errors: int
    first_error: str | None = None

    @property
    def kept_share(self) -> float:
        return self.kept / self.positions

    @property
    def best_share(self) -> float:
        return self.best / self.positions

    @property
    def kept_ci95(self) -> tuple[float, float]:
        """The Wilson 95% interval of :attr:`kept_share`."""
        return wilson(self.kept_share, self.positions)

    @property
    def best_ci95(self) -> tuple[float, float]:
        """The Wilson 95% interval of :attr:`best_share`."""
        return wilson(self.best_share, self.positions)

    def table(self) -> str:
        """The result as ``connectn evaluate --positions`` prints it."""
        lines = [f"{self.candidate}: Connect Four move quality on {self.positions} positions"]
        for name, count, share, (low, high) in (
            ("result kept", self.kept, self.kept_share, self.kept_ci95),
            ("best move", self.best, self.best_share, self.best_ci95),
        ):
            lines.append(f"{name:<11}  {count:4d}  {share:6.1%}  95% CI [{low:.1%}, {high:.1%}]")
        if self.errors:
            lines.append(
                f"{self.errors} positions failed by the candidate (illegal moves...); the "
                f"first: {self.first_error}"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data (what ``--json`` writes)."""
        return {
            "game": GAME.name,
            "candidate": self.candidate,
            "positions": self.positions,
            "kept": self.kept,
            "kept_share": self.kept_share,
            "kept_ci95": list(self.kept_ci95),
            "best": self.best,
            "best_share": self.best_share,
            "best_ci95": list(self.best_ci95),
            "errors": self.errors,
            "first_error": self.first_error,
        }


def move_quality(
    candidate: Any,
    positions: Sequence[Position] | str | Path | None = None,
    *,
    game: Any = "connect_four",
    seed: int = 0,
    name: str | None = None,
    progress: bool = False,
    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
) -> MoveQuality:
    """Judge ``candidate``'s move in each position by the solver's scores.

    The candidate is built once (seed ``seed``) and asked for a move in each position, on a
    fresh env; positions run one after another in this process. As in the arena's games, a
    move fails the position if it raises, is illegal, takes longer than ``move_timeout`` or
    changes the env (the candidate called ``env.step`` or ``env.reset`` itself).

    Args:
        candidate: What ``evaluate`` takes: an agent spec, ``"sb3:path=model.zip"``, an
            ``AgentSpec``, an agent object with ``act(env)`` or a callable
            ``policy(observation, action_mask) -> action``.
        positions: :class:`~connectn_env.ladder.positions.Position` objects, a positions
            file, or None for the shipped set (200 positions).
        game: Must be Connect Four (the solver's game).
        seed: The candidate's seed.
        name: Its label (default: its spec, or its class or function name).
        progress: Show progress on stderr.
        move_timeout: Seconds per move (default 300, at most a day; None: no limit). A move
            in Python code is interrupted at the limit (by ``SIGALRM``, in the main thread
            of a POSIX process); one in compiled code fails once it returns.

    Raises:
        ValueError: another game, an unknown candidate, a damaged positions file, no
            positions, a bad ``move_timeout`` (named, with what is allowed).
        TypeError: a candidate that is neither a spec, an agent nor a callable, or
            positions that are not ``Position`` objects.
    """
    _check_game(game)
    seed = require_int("seed", seed, 0)
    move_timeout = require_move_timeout(move_timeout)
    entry = make_candidate(candidate, name)
    if positions is None or isinstance(positions, str | Path):
        positions = load_positions(positions)
    positions = list(positions)
    if not positions or not all(isinstance(p, Position) for p in positions):
        raise TypeError(
            "positions must be a non-empty sequence of Position objects, a positions file "
            f"or None (the shipped set), got {str(positions)[:80]}"
        )
    check_candidate(entry, GAME)
    agent = entry.spec.build(seed)
    bar = Progress(len(positions), enabled=progress, unit="positions")
    kept = best = errors = 0
    first_error = None
    for number, position in enumerate(positions, start=1):
        column, failure = _move(agent, position, move_timeout)
        if failure is not None:
            errors += 1
            first_error = first_error or f"position {number}: {failure}"
        kept += column is not None and position.keeps(column)
        best += column is not None and position.is_best(column)
        bar.advance()
    return MoveQuality(entry.label, len(positions), kept, best, errors, first_error)


def _check_game(game: Any) -> None:
    try:
        key = ladder_key(game)
    except ValueError:
        key = None
    if key != GAME.name:
        raise ValueError(
            f"move quality is judged on Connect Four only (its perfect solver), not {game!r}"
        )


def _move(
    agent: Any, position: Position, move_timeout: float | None
) -> tuple[int | None, str | None]:
    """The candidate's column in ``position`` and None, or None and what went wrong."""
    env = GAME.make_env()
    env.reset()
    reference = GAME.make_game().new_initial_state()
    for column in position.moves:
        env.step(column)
        reference.apply_action(column)
    begin = time.perf_counter()
    try:
        with _interrupted_after(move_timeout):
            action = agent.act(env)
        elapsed = time.perf_counter() - begin
        changed = tampering(env, reference)
        if changed is not None:
            return None, (
                f"PositionTampered: the candidate changed {changed} during its move (it "
                "called env.step or env.reset, or wrote into the env)"
            )
        if move_timeout is not None and elapsed > move_timeout:
            raise MoveTimeout(f"move took {elapsed:.3f} s, more than the {move_timeout:g} s")
        column = require_action(action, reference.game.num_actions)
    except Exception as error:  # the candidate's failure is counted, the run goes on
        kind, message = describe_error(error)
        return None, f"{kind}: {message}"
    if column not in position.scores:
        return None, f"IllegalAction: action {column} is not a legal column there"
    return column, None


class MoveTimeout(ConnectnError):
    """A move ran past the time limit."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message} move timeout")


@contextlib.contextmanager
def _interrupted_after(seconds: float | None) -> Iterator[None]:
    """Raise :class:`MoveTimeout` in the block's Python code after ``seconds`` (where
    ``SIGALRM`` can be used: the main thread of a POSIX process)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise MoveTimeout(f"no answer within the {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
