"""The ``connectn`` subcommands run from one table (``cli.COMMANDS``): every subcommand of the
parser has its entry, and one place turns what a handler raises for a bad input into
``connectn COMMAND: error: ...`` and exit status 2, leaving anything else a traceback."""

from __future__ import annotations

import argparse

import pytest
from cli_helpers import run_main

from connectn_env import ConnectnError, cli


def subcommands(parser: argparse.ArgumentParser) -> set[str]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(action.choices)


def test_every_subcommand_has_one_entry_in_the_table() -> None:
    assert set(cli.COMMANDS) == subcommands(cli.build_parser())


class Refused(ValueError, ConnectnError):
    """A handler's error for a bad input."""


@pytest.mark.parametrize(
    ("error", "shown"),
    [(Refused("no such board\x1b"), "no such board\\x1b"), (OSError(5, "gone"), "[Errno 5] gone")],
)
def test_a_declared_error_is_one_line_and_exit_status_2(
    error: Exception, shown: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    def handler(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setitem(cli.COMMANDS, "demo", cli.Command(handler, (ValueError, OSError)))
    code, out, err = run_main(["demo", "tictactoe"], capsys)
    assert (code, out) == (2, "")
    assert err == f"connectn demo: error: {shown}\n"  # control characters escaped


def test_an_undeclared_error_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def handler(args: argparse.Namespace) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setitem(cli.COMMANDS, "demo", cli.Command(handler, (ValueError,)))
    with pytest.raises(RuntimeError, match="a bug"):
        cli.main(["demo", "tictactoe"])


def test_the_checks_before_the_handler_refuse_with_the_same_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A game option or an agent spec the game cannot take: the handler never runs."""
    ran = []
    monkeypatch.setitem(cli.COMMANDS, "arena", cli.Command(ran.append, ()))
    code, _, err = run_main(["arena", "hex", "perfect", "random"], capsys)
    assert code == 2 and err.startswith("connectn arena: error: ") and "perfect" in err
    assert ran == []
