"""Asking an agent for a move, in the caller's thread (:func:`think`) or in a background
thread that reports progress and can be stopped (:class:`Thinker`)."""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from connectn_env.games.validation import require_choice
from connectn_env.play.session import HINT, MOVE, GameSession

# progress(simulations, elapsed, root_value); returning True asks the search to stop early
Progress = Callable[[int, float, float], Any]
LIVE_EVERY = 0.1  # seconds between snapshots of the root's visits during a search


@dataclass(frozen=True)
class Answer:
    """What an agent answered.

    Attributes:
        kind: ``"move"`` or ``"hint"``.
        moves: The position asked about, as the moves leading to it.
        action: The action chosen (None if the agent failed).
        result: The ``SearchResult`` of a search agent, else None.
        error: What went wrong (``"ValueError: ..."``), or None.
    """

    kind: str
    moves: tuple[int, ...]
    action: int | None
    result: Any = None
    error: str | None = None


@dataclass(frozen=True)
class Status:
    """A search under way, as last reported.

    Attributes:
        kind: ``"move"`` or ``"hint"``.
        elapsed: Seconds since it started.
        simulations: Simulations so far (None if the agent does not report progress).
        root_value: Its current estimate of the position for the player to move, in
            [-1, 1] (None until reported).
        pi: The share of the root's visits per action so far (None until reported, and for
            agents without ``root_visits``).
    """

    kind: str
    elapsed: float
    simulations: int | None
    root_value: float | None
    pi: np.ndarray | None = None

    @property
    def win_chance(self) -> float | None:
        """``(root_value + 1) / 2``: the chance of winning for the player to move."""
        return None if self.root_value is None else (self.root_value + 1.0) / 2.0


def reports_progress(agent: Any) -> bool:
    """True if ``agent.search`` accepts a ``progress=`` callback."""
    search = getattr(agent, "search", None)
    if not callable(search):
        return False
    try:
        return "progress" in inspect.signature(search).parameters
    except (TypeError, ValueError):
        return False


def think(agent: Any, env: Any, *, progress: Progress | None = None) -> tuple[int, Any]:
    """Ask ``agent`` for its move in ``env``: ``(action, SearchResult or None)``.

    Search agents are asked through ``search`` (passing ``progress`` when they accept it),
    others through ``act``. Errors of the agent propagate.
    """
    search = getattr(agent, "search", None)
    if not callable(search):
        return int(agent.act(env)), None
    if progress is not None and reports_progress(agent):
        result = search(env, progress=progress)
    else:
        result = search(env)
    return int(result.action), result


class Thinker:
    """Runs one agent question at a time in a background thread.

    The agent searches on a copy of the session's env; the caller polls for the
    :class:`Answer` and applies it. :meth:`stop` abandons a search: agents that report
    progress stop at their next report (about every 10 ms with a time limit); others run
    to the end of their budget. The answer of a stopped search is dropped. :attr:`busy`
    stays True until the thread has ended, so the agent is never used by two threads at once.

    Args:
        agent: The agent (with ``act(env)``; ``search(env)`` for search agents).
    """

    def __init__(self, agent: Any) -> None:
        if not callable(getattr(agent, "act", None)):
            raise TypeError(f"agent must have an act(env) method, got {agent!r}")
        self.agent = agent
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._kind = MOVE
        self._start = 0.0
        self._num_actions: int | None = None
        self._report: tuple[int, float] | None = None
        self._live: tuple[float, np.ndarray] | None = None  # (when, pi) of the root's visits
        self._answer: Answer | None = None

    @property
    def busy(self) -> bool:
        """True while a thread is running (also a stopped one that has not ended yet)."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def stopping(self) -> bool:
        """True if the running search was told to stop."""
        return self.busy and self._stop.is_set()

    def start(self, kind: str, session: GameSession) -> None:
        """Ask for a ``"move"`` (the agent's own) or a ``"hint"`` (for the person) in the
        session's current position.

        Raises:
            ValueError: ``kind`` is not ``"move"`` or ``"hint"``, or the game is over.
            RuntimeError: a search is still running.
        """
        require_choice("kind", kind, (MOVE, HINT))
        if session.over:
            raise ValueError("the game is over: there is no move to think about")
        if self.busy:
            raise RuntimeError("the agent is still thinking: wait until busy is False")
        moves = session.moves
        env = session.position_copy()
        self._num_actions = session.game.num_actions
        self._stop.clear()
        with self._lock:
            self._kind, self._start = kind, time.monotonic()
            self._report, self._live, self._answer = None, None, None
        self._thread = threading.Thread(
            target=self._run, args=(kind, moves, env), name="connectn-ai", daemon=True
        )
        self._thread.start()

    @property
    def started(self) -> float:
        """When the latest search started (a ``time.monotonic()`` reading)."""
        with self._lock:
            return self._start

    def status(self) -> Status | None:
        """The running search's progress, or None when idle or stopping."""
        if not self.busy or self._stop.is_set():
            return None
        with self._lock:
            report, live = self._report, self._live
            elapsed = time.monotonic() - self._start
            kind = self._kind
        if report is None:
            return Status(kind, elapsed, None, None)
        return Status(kind, elapsed, report[0], report[1], None if live is None else live[1])

    def poll(self) -> Answer | None:
        """The finished answer (once), or None."""
        with self._lock:
            answer, self._answer = self._answer, None
        return answer

    def stop(self) -> None:
        """Abandon the running search (its answer is dropped); does not wait."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end; True if it has ended."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not self.busy

    def _progress(self, simulations: int, elapsed: float, root_value: float) -> bool:
        live = self._live_pi()
        with self._lock:
            self._report = (int(simulations), float(root_value))
            if live is not None:
                self._live = live
        return self._stop.is_set()  # True ends the search early

    def _live_pi(self) -> tuple[float, np.ndarray] | None:
        """A new snapshot of the root's visit shares if the last is :data:`LIVE_EVERY` old
        (read in the searching thread, between its chunks), else None."""
        root_visits = getattr(self.agent, "root_visits", None)
        now = time.monotonic()
        if not callable(root_visits) or self._num_actions is None:
            return None
        if self._live is not None and now - self._live[0] < LIVE_EVERY:
            return None
        visits = np.asarray(root_visits(self._num_actions), dtype=float)
        total = visits.sum()
        return None if total <= 0 else (now, visits / total)

    def _run(self, kind: str, moves: tuple[int, ...], env: Any) -> None:
        try:
            action, result = think(self.agent, env, progress=self._progress)
            answer = Answer(kind, moves, action, result)
        except Exception as error:  # the agent's failure is shown to the person
            answer = Answer(kind, moves, None, error=f"{type(error).__name__}: {error}")
        if not self._stop.is_set():
            with self._lock:
                self._answer = answer
