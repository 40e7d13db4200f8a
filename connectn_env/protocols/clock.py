"""Thinking time for the protocol engines: how much of the clock the next move may use.

One rule for GTP and pbrain: a move may use **the remaining time over the moves left to
plan**: :data:`MOVES_TO_PLAN` moves while a main time (or a whole-match clock) runs, the
stones left in a Canadian byo-yomi period, one move in a Japanese byo-yomi period (each move
played in time renews it). While a main time runs, one move's share of the byo-yomi that
follows it is added (the move may run into it). The tightest of that share and any per-move
limit is the budget, less a safety margin for the reply to travel.
"""

from __future__ import annotations

from dataclasses import dataclass

MOVES_TO_PLAN = 15  # a move may use 1 / MOVES_TO_PLAN of a main time or match clock
SAFETY_FRACTION = 0.1  # of each budget, left for the reply to travel
SAFETY_SECONDS = 0.05


def clock_share(remaining: float, moves: int = MOVES_TO_PLAN) -> float:
    """Seconds one move may use of ``remaining`` seconds meant for ``moves`` moves (>= 0)."""
    return max(remaining, 0.0) / moves


def thinking_budget(*limits: float | None) -> float | None:
    """The tightest of ``limits`` (seconds, None for no limit) less the safety margin (10 %
    and 50 ms, never below 0), or None when no limit is given."""
    given = [limit for limit in limits if limit is not None]
    if not given:
        return None
    return max(0.0, min(given) * (1 - SAFETY_FRACTION) - SAFETY_SECONDS)


@dataclass(frozen=True)
class TimeSystem:
    """A game's time settings in seconds, as GTP's ``time_settings`` (Canadian byo-yomi,
    absolute time when ``overtime`` is 0) and KGS's ``kgs-time_settings`` give them.

    Attributes:
        limited: False for no time limit (the default).
        main: Main time.
        overtime: Byo-yomi time: of one Canadian period, or of each Japanese period.
        stones: Moves per Canadian period, or the number of Japanese periods; 0: no byo-yomi.
        japanese: Japanese byo-yomi (periods) rather than Canadian (stones per period).
    """

    limited: bool = False
    main: float = 0.0
    overtime: float = 0.0
    stones: int = 0
    japanese: bool = False

    def __post_init__(self) -> None:
        for name in ("main", "overtime"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"TimeSystem {name} must be a number of seconds, got {value!r}")
            if not value >= 0:
                raise ValueError(f"TimeSystem {name} must be >= 0 seconds, got {value!r}")
        if isinstance(self.stones, bool) or not isinstance(self.stones, int):
            raise TypeError(f"TimeSystem stones must be an int, got {self.stones!r}")
        if self.stones < 0:
            raise ValueError(f"TimeSystem stones must be >= 0, got {self.stones}")

    @classmethod
    def canadian(cls, main: float, overtime: float, stones: int) -> TimeSystem:
        """GTP 2's ``time_settings``: overtime > 0 with 0 stones means no time limit."""
        if overtime > 0 and stones == 0:
            return cls()
        return cls(True, main, overtime if stones else 0.0, stones)

    @classmethod
    def byoyomi(cls, main: float, period: float, periods: int) -> TimeSystem:
        """KGS's Japanese byo-yomi: ``periods`` periods of ``period`` seconds after ``main``."""
        return cls(True, main, period if periods else 0.0, periods, japanese=periods > 0)

    def start(self) -> tuple[float, int] | None:
        """A player's clock at the start of a game (see :meth:`share`), None if unlimited."""
        if not self.limited:
            return None
        if self.main > 0 or not self.stones:
            return self.main, 0
        return self.overtime, self.stones  # no main time: the first byo-yomi period

    def share(self, clock: tuple[float, int] | None) -> float | None:
        """Seconds the next move may use, before the safety margin (None: no limit).

        Args:
            clock: Seconds left and stones (Japanese: periods) left, 0 stones while the main
                time runs, as GTP's ``time_left`` gives them; None: no limit.
        """
        if clock is None:
            return None
        left, stones = clock
        if stones > 0:  # in byo-yomi
            return clock_share(left, 1 if self.japanese else stones)
        return clock_share(left) + self._overtime_share()

    def spend(self, clock: tuple[float, int], seconds: float) -> tuple[float, int]:
        """The clock after a move that took ``seconds``: how an engine keeps its own clock
        between two ``time_left`` commands."""
        left, stones = clock[0] - seconds, clock[1]
        if stones == 0:
            if left >= 0 or not self.stones:
                return max(left, 0.0), 0
            left, stones = left + self.overtime, self.stones  # the main time ran out
        if self.japanese:  # a move in time renews the period, an overrun uses it up
            return self.overtime, stones - int(left < 0)
        if stones > 1:
            return left, stones - 1
        return self.overtime, self.stones  # the period's stones are played: a new period

    def _overtime_share(self) -> float:
        if not self.stones:
            return 0.0
        return self.overtime if self.japanese else self.overtime / self.stones
