"""The parameter schema of a game: names, types, defaults and bounds, for constructors, the
command line, records and the generated documentation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from connectn_env.games.validation import require_bool, require_choice, require_int


@dataclass(frozen=True)
class Parameter:
    """One keyword parameter of a game class.

    Attributes:
        name: The keyword.
        kind: ``int``, ``bool`` or ``str`` (a choice among ``choices``).
        default: The default value; None means "derived" (say from what in ``help``).
        help: One line for ``--help`` and the documentation.
        low, high: Bounds of an int parameter (inclusive).
        choices: The allowed values of a str parameter.
        test_high: The largest value property tests draw (small boards keep them fast);
            ``high`` if None.
    """

    name: str
    kind: type
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    test_high: int | None = None

    def validate(self, value: Any) -> Any:
        """``value`` checked and normalised (TypeError/ValueError naming the parameter); None
        is accepted where the default is None (a derived value)."""
        if value is None and self.default is None:
            return None
        if self.kind is bool:
            return require_bool(self.name, value)
        if self.kind is int:
            return require_int(self.name, value, self.low, self.high)
        if not isinstance(value, str):
            raise TypeError(
                f"{self.name} must be a str, got {value!r} of type {type(value).__name__}"
            )
        return require_choice(self.name, value, self.choices)

    def describe(self) -> str:
        """``name=default`` and the allowed values, for tables and help lines."""
        if self.kind is int:
            allowed = "int" if self.low is None else f"{self.low}..{self.high}"
        elif self.kind is bool:
            allowed = "true/false"
        else:
            allowed = " or ".join(repr(choice) for choice in self.choices)
        default = self.help_default()
        return f"{self.name}={default} ({allowed})"

    def help_default(self) -> str:
        """The default as text (``derived`` for None)."""
        if self.default is None:
            return "derived"
        if isinstance(self.default, bool):
            return str(self.default).lower()
        return str(self.default)
