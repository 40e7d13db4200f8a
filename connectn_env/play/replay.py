"""``connectn replay FILE`` in a terminal, and the captions the replay window shares."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from connectn_env.play.notation import move_name
from connectn_env.render.ansi import STONE_CHARS, render_ansi
from connectn_env.safetext import printable

TERMINAL_HELP = (
    "Enter or n: next move, p: previous, f: first, l: last, a number: that move, q: quit."
)


def check_record(record: Any) -> Any:
    """``record`` if it is a :class:`~connectn_env.records.GameRecord`, else TypeError."""
    from connectn_env.records import GameRecord

    if not isinstance(record, GameRecord):
        raise TypeError(f"record must be a GameRecord, got {type(record).__name__}")
    return record


def move_caption(record: Any, index: int, names: tuple[str, str], *, upper: bool = False) -> str:
    """``"Move 3 of 9: X (random) plays b2"`` for position ``index`` (0: the empty board);
    ``upper`` writes cells as on a go board (``B2``)."""
    total = len(record.moves)
    if index == 0:
        return f"Start: {total} moves, {names[0]} ({record.players[0]}) moves first"
    action = record.moves[index - 1]
    player = (index - 1) % 2
    name = move_name(record.game.make_game(), action)
    name = name.upper() if upper else name
    return f"Move {index} of {total}: {names[player]} ({record.players[player]}) plays {name}"


def result_caption(record: Any) -> str:
    """How the game ended, as recorded."""
    if record.result == "draw":
        text = "Result: draw"
    elif record.result == "unfinished":
        text = "Result: unfinished"
    else:
        text = f"Result: {record.result} ({record.players[record.winner]}) wins"
    return f"{text} by {record.reason}" if record.reason else text


def replay_terminal(
    record: Any, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Step through ``record`` on text streams (Enter/n, p, f, l, a move number, q); EOF
    quits. Returns 0."""
    record = check_record(record)
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    states = record.replay_states()
    names = (STONE_CHARS[1], STONE_CHARS[2])
    last = len(states) - 1
    index = 0

    def say(text: str) -> None:  # names from the file: control characters escaped
        stdout.write(printable(text, newlines=True) + "\n")
        stdout.flush()

    say(f"{record.game}: {record.players[0]} ({names[0]}) vs {record.players[1]} ({names[1]}).")
    say(TERMINAL_HELP)
    shown = None
    while True:
        if index != shown:
            say(render_ansi(states[index]))
            say(move_caption(record, index, names))
            if index == last:
                say(result_caption(record))
            shown = index
        stdout.write("replay> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("")
            return 0
        entry = line.strip().lower()
        if entry in ("q", "quit", "exit"):
            return 0
        if entry in ("", "n", "next"):
            if index == last:
                say("That was the last move (p: previous, q: quit).")
            index = min(last, index + 1)
        elif entry in ("p", "prev", "previous"):
            if index == 0:
                say("This is the start (n: next, q: quit).")
            index = max(0, index - 1)
        elif entry in ("f", "first"):
            index = 0
        elif entry in ("l", "last"):
            index = last
        elif entry.isascii() and entry.isdigit():  # not "²" or "٣"
            number = entry.lstrip("0") or "0"
            # The length first: int() refuses 4,300 digits and more.
            if len(number) <= len(str(last)) and int(number) <= last:
                index = int(number)
            else:
                shown = number if len(number) <= 12 else f"{number[:12]}..."
                say(f"No such move: {shown} (moves are 0 to {last}).")
        else:
            say(
                f"{line.strip()[:40]!r} is not a replay command (moves are 0 to {last}). "
                f"{TERMINAL_HELP}"
            )
