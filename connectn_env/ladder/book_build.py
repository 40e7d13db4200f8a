"""Build (or extend) Connect Four's opening book with the solver; resumable.

The book (read by :mod:`connectn_env.games.connect_n.book`) covers, ply by ply, every
position the perfect player meets as either colour: at even plies the positions where the
first player is to move after its book moves and any replies, at odd plies likewise for the
second player (ply 0: the empty board; ply 1: each first move). Plies are filled in order
(0, 1, 2, ...; ``--side first`` only the even ones, ``--side second`` the odd ones), each
before the next, positions in centre-first order of their moves; mirror images share an
entry. The book file is written atomically after each entry that ends ``--save-every`` CPU
seconds (default 0: every entry) since the last write, when the build is interrupted (Ctrl-C
or ``SIGTERM``, heard once the entry under way is solved: the compiled solver does not stop
for signals), and at the end, so a killed build loses at most the entry under way: run the
same command again and it goes on from the file (its JSON block records the complete plies,
``complete``, and the CPU time spent, ``cpu_seconds``).

Usage::

    python -m connectn_env.ladder.book_build --plies 8 --minutes 60 [--side first]
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from connectn_env.atomic_write import write_bytes_atomically
from connectn_env.games.connect_n.book import (
    BOOK_COLS,
    BOOK_ROWS,
    ENTRY,
    OpeningBook,
    canonical_key,
    position_bits,
    read_book,
    shipped_book_path,
)
from connectn_env.games.connect_n.solver import Connect4Solver, _wins
from connectn_env.ladder.provenance import provenance

BUILD_TABLE_SIZE = 1 << 24  # about 150 MB, kept across all positions of a build
_MODULE = "connectn_env.ladder.book_build"
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
SIDES = {"both": (0, 1), "first": (0,), "second": (1,)}  # the parities of the plies built


def level(ply: int, entries: dict[int, tuple[int, int]]) -> Iterator[tuple[int, ...]]:
    """The positions (move tuples) at ``ply`` where the perfect player is to move, one per
    mirror pair, as far as ``entries`` (``{key: (column, score)}``, canonical orientation)
    hold the earlier plies' book moves."""
    if ply < 2:
        yield from [()] if ply == 0 else [(c,) for c in CENTRE_FIRST if 2 * c <= BOOK_COLS - 1]
        return
    seen: set[int] = set()
    for parent in level(ply - 2, entries):
        key, mirrored = canonical_key(*position_bits(parent))
        if key not in entries:
            continue
        column = entries[key][0]
        own = (*parent, BOOK_COLS - 1 - column if mirrored else column)
        if _wins(own, BOOK_ROWS, BOOK_COLS):
            continue
        for reply in CENTRE_FIRST:
            moves = (*own, reply)
            if moves.count(reply) > BOOK_ROWS or _wins(moves, BOOK_ROWS, BOOK_COLS):
                continue
            child, _ = canonical_key(*position_bits(moves))
            if child not in seen:
                seen.add(child)
                yield moves


def _book(entries: dict[int, tuple[int, int]], info: dict) -> OpeningBook:
    keys = sorted(entries)
    table = np.zeros(len(keys), dtype=ENTRY)
    table["key"] = keys
    table["move"] = [entries[k][0] for k in keys]
    table["score"] = [entries[k][1] for k in keys]
    return OpeningBook(table, {**info, "entries": len(keys)})


def build_book(
    path: str | Path, plies: int, minutes: float, side: str = "both", save_every: float = 0.0
) -> OpeningBook:
    """Extend the book at ``path`` (created if missing) to cover plies ``0 .. plies - 1`` of
    ``side``, stopping after ``minutes`` of CPU time; see the module docstring.

    Args:
        path: The book file, read if it exists and written atomically.
        plies: Cover plies ``0 .. plies - 1`` (0 to 42).
        minutes: CPU minutes at most (the entry under way is finished first).
        side: ``"both"``, ``"first"`` (even plies) or ``"second"`` (odd plies).
        save_every: CPU seconds between writes of the file (0: after every entry).

    Returns:
        The book as written.

    Raises:
        ValueError: a bad argument (named), or a damaged book file at ``path``.
        KeyboardInterrupt: the build was interrupted; the entries solved so far are written.
    """
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)}, not {side!r}")
    if not 0 <= plies <= BOOK_ROWS * BOOK_COLS:
        raise ValueError(f"plies must be 0 to {BOOK_ROWS * BOOK_COLS}, not {plies!r}")
    for name, value in (("minutes", minutes), ("save_every", save_every)):
        if not value >= 0:
            raise ValueError(f"{name} must be a number of CPU minutes/seconds >= 0, not {value!r}")
    path = Path(path)
    entries: dict[int, tuple[int, int]] = {}
    info: dict = {"rows": BOOK_ROWS, "cols": BOOK_COLS, "cpu_seconds": 0.0, "complete": []}
    if path.exists():
        book = read_book(path)
        info = dict(book.info)
        entries = {int(e["key"]): (int(e["move"]), int(e["score"])) for e in book.entries}
    solver = Connect4Solver(BOOK_ROWS, BOOK_COLS, table_size=BUILD_TABLE_SIZE)
    start = last_save = time.process_time()
    spent_before = float(info["cpu_seconds"])

    def save() -> OpeningBook:
        info["cpu_seconds"] = round(spent_before + time.process_time() - start, 1)
        info.update(provenance(), command=" ".join(["python -m", _MODULE, *sys.argv[1:]]))
        book = _book(entries, info)
        write_bytes_atomically(path, book.to_bytes())
        return book

    try:
        for ply in range(plies):
            if ply % 2 not in SIDES[side]:
                continue
            for moves in level(ply, entries):
                key, mirrored = canonical_key(*position_bits(moves))
                if key in entries:
                    continue
                if time.process_time() - start > minutes * 60:
                    return save()
                canonical = tuple(BOOK_COLS - 1 - c for c in moves) if mirrored else moves
                began = time.process_time()
                entries[key] = solver.best_move(canonical)
                spent = time.process_time() - began
                print(f"ply {ply} {''.join(str(c + 1) for c in canonical) or '-'}: "
                      f"{entries[key]} {spent:.1f} s", flush=True)  # fmt: skip
                if time.process_time() - last_save >= save_every:
                    save()
                    last_save = time.process_time()
            info["complete"] = sorted({*info["complete"], ply})
    except KeyboardInterrupt:
        save()  # what was solved is kept; the same command goes on from it
        raise
    return save()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def main() -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=8, help="cover plies 0 .. PLIES - 1")
    parser.add_argument("--minutes", type=float, default=60.0, help="CPU minutes, at most")
    parser.add_argument("--side", choices=tuple(SIDES), default="both")
    parser.add_argument("--out", type=Path, default=shipped_book_path())
    parser.add_argument("--save-every", type=float, default=0.0, help="CPU seconds (0: always)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _interrupt)  # a kill stops it as Ctrl-C does: saved
    try:
        book = build_book(args.out, args.plies, args.minutes, args.side, args.save_every)
    except ValueError as error:
        parser.error(str(error))
    except KeyboardInterrupt:
        book = read_book(args.out)
        print(f"interrupted: {args.out} keeps {len(book)} entries; run the same command again "
              "to go on", file=sys.stderr)  # fmt: skip
        raise SystemExit(130) from None
    print(f"{args.out}: {len(book)} entries, plies {book.info['complete']} complete, "
          f"{book.info['cpu_seconds']:.0f} CPU s in all")  # fmt: skip


if __name__ == "__main__":
    main()
