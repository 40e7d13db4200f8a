"""One of the suite's agents against GRhino, an Othello engine nobody here wrote, over GTP.

Plays ``--games`` games of 8 x 8 Othello between ``--agent`` (a spec of
:func:`connectn_env.specs.resolve_agent`, default the shipped network with 200 simulations)
and GRhino's GTP engine ``gtp-rhino`` at ``--level`` (1 to 5, default 4; passed as its
``--level`` option), colours alternating (our agent moves first, black, in even games). The
suite's env (``connectn_env.othello_v0``'s rules, through
:class:`~connectn_env.protocols.match.ProtocolMatch`) is the referee: every GRhino move is
checked legal there, and an illegal move or a protocol error stops the script with an error
naming the move. GRhino's board is kept in step by sending it every move of ours.

From the empty board GRhino plays one game per colour over and over (it has no randomness at
``--rand 0``, its default), so ``--openings`` starts the games from the suite's shipped
Othello openings (``connectn_env/ladder/data/openings/othello_8x8.json``), each opening
played twice with colours exchanged (a game pair, as the ladder plays them); the table says
how many distinct games were played.

Passes. In the suite's rules a player without a legal move passes (action 64, legal only
then); GRhino skips such a player by itself and refuses ``play COLOUR pass``, so our passes
are not sent, and a ``genmove`` for GRhino when it has to pass answers ``pass``, accepted
only where the rules allow it.

The table: wins, draws and losses of our agent, its score with a 95% Wilson interval, moving
first (black) and second, mean disc counts, and CPU seconds of our agent per game (this
process's CPU time while our agent thinks; GRhino runs in its own process).

    apt-get install grhino                                # Debian/Ubuntu: /usr/games/gtp-rhino
    python benchmarks/grhino_match.py --openings          # 40 games from the suite's openings
    python benchmarks/grhino_match.py --openings --first-opening 20   # from its next 20
    python benchmarks/grhino_match.py --games 2           # from the empty board
    python benchmarks/grhino_match.py --agent ab:depth=6 --games 20 --openings --json out.json

Needs GRhino's ``gtp-rhino`` (``--engine`` names another path or command); it is never a
dependency of the package.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from connectn_env.atomic_write import write_text_atomically
from connectn_env.elo import wilson
from connectn_env.games import cell_name, parse_cell_name
from connectn_env.games.validation import require_int
from connectn_env.ladder.openings import shipped_suite
from connectn_env.protocols.match import ProtocolMatch
from connectn_env.records import GameConfig
from connectn_env.specs import resolve_agent

GAME = GameConfig("othello", {"size": 8})
SIZE = 8
PASS = SIZE * SIZE
COLOURS = ("black", "white")  # player_0 moves first and is black, as in GTP
DEFAULT_ENGINE = "gtp-rhino"


class EngineError(RuntimeError):
    """The GTP engine broke the protocol or the rules (the message says how)."""


class GTPEngine:
    """A GTP engine run as a subprocess: one command at a time, answers checked.

    Args:
        command: The command line (its first word is looked up on ``PATH`` and in
            ``/usr/games``).
    """

    def __init__(self, command: list[str]) -> None:
        program = shutil.which(command[0]) or shutil.which(command[0], path="/usr/games")
        if program is None:
            raise EngineError(
                f"GTP engine {command[0]!r} not found (install grhino: apt-get install grhino)"
            )
        self.command = [program, *command[1:]]
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def send(self, command: str) -> str:
        """Send ``command`` and return the body of its ``=`` answer.

        Raises:
            EngineError: the engine answered ``?`` or something else, or ended.
        """
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise EngineError(f"the engine ended before {command!r}") from None
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EngineError(f"the engine ended while answering {command!r}")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if answer.startswith("="):
            return answer[1:].strip()
        raise EngineError(f"the engine answered {answer!r} to {command!r}")

    def close(self) -> None:
        """Ask the engine to quit, and end it if it does not."""
        with contextlib.suppress(EngineError):
            self.send("quit")
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class GameRecord:
    """One game: our colour, its opening, moves, result and disc counts, our CPU time."""

    index: int
    agent_colour: str
    opening: list[int]
    moves: list[int] = field(default_factory=list)
    result: float = 0.0  # our score: 1, 0.5 or 0
    discs: tuple[int, int] = (0, 0)  # ours, GRhino's
    cpu_seconds: float = 0.0


def move_name(action: int) -> str:
    """GTP's name of ``action``: a cell like ``D3`` (``a1`` at the top left) or ``pass``."""
    return "pass" if action == PASS else cell_name(*divmod(action, SIZE)).upper()


def parse_move(text: str) -> int:
    """The action of GTP's move ``text`` (a cell or ``pass``, any case).

    Raises:
        ValueError: not a cell of the 8 x 8 board nor ``pass``.
    """
    if text.strip().lower() == "pass":
        return PASS
    row, col = parse_cell_name(text, SIZE, SIZE)
    return row * SIZE + col


def play_game(
    engine: GTPEngine, agent: Any, index: int, agent_seat: int, opening: list[int]
) -> GameRecord:
    """Play one game from ``opening`` with our agent on ``agent_seat`` (0: black, first).

    Raises:
        EngineError: GRhino answered an illegal or unreadable move, or broke the protocol.
    """
    match = ProtocolMatch(GAME)
    record = GameRecord(index, COLOURS[agent_seat], list(opening))
    engine.send("clear_board")
    cpu = 0.0
    for action in opening:
        tell(engine, match, action)
    while not match.state.is_terminal():
        seat = match.state.current_player()
        if seat == agent_seat:
            start = time.process_time()
            action, _ = match.think(agent)
            cpu += time.process_time() - start
            tell(engine, match, action)
            continue
        answer = engine.send(f"genmove {COLOURS[seat]}")
        try:
            action = parse_move(answer)
        except ValueError:
            raise EngineError(
                f"game {index}: GRhino answered {answer!r} to genmove {COLOURS[seat]}, "
                f"not a move, after {moves_text(match)}"
            ) from None
        if not match.state.legal_action_mask()[action]:
            raise EngineError(
                f"game {index}: GRhino's move {answer!r} for {COLOURS[seat]} is illegal "
                f"after {moves_text(match)}"
            )
        match.play(action)
    board = match.state.board
    counts = [int((board == player + 1).sum()) for player in (0, 1)]
    record.moves = match.history()
    record.result = (match.state.returns()[agent_seat] + 1) / 2
    record.discs = (counts[agent_seat], counts[1 - agent_seat])
    record.cpu_seconds = round(cpu, 3)
    return record


def tell(engine: GTPEngine, match: ProtocolMatch, action: int) -> None:
    """Play ``action`` for the side to move here and on GRhino's board (a pass is not sent:
    GRhino skips a player without a move by itself)."""
    colour = COLOURS[match.state.current_player()]
    match.play(action)
    if action != PASS:
        engine.send(f"play {colour} {move_name(action)}")


def moves_text(match: ProtocolMatch) -> str:
    """The moves so far, as GTP names them (``the start`` for none)."""
    return " ".join(move_name(a) for a in match.history()) or "the start"


def run_match(
    engine_command: list[str],
    agent_spec: str,
    games: int,
    seed: int = 0,
    openings: bool = False,
    progress: bool = False,
    first_opening: int = 0,
) -> list[GameRecord]:
    """Play ``games`` games against the engine, colours alternating (game pairs from the
    shipped suite's openings in order with ``openings``, from its opening ``first_opening``,
    else from the empty board).

    Raises:
        EngineError: the engine broke the protocol or the rules (the match stops there).
        TypeError: ``games`` or ``first_opening`` is not an int.
        ValueError: a bad spec, game count or first opening.
    """
    require_int("games", games, 1)
    suite = shipped_suite(GAME).openings if openings else ((),)
    if first_opening and not openings:
        raise ValueError("a first opening needs the suite's openings (--openings)")
    require_int("first_opening", first_opening, 0, len(suite) - 1)
    resolve_agent(agent_spec, GAME)  # a bad spec fails before the engine starts
    engine = GTPEngine(engine_command)
    records = []
    try:
        engine.send("boardsize 8")
        for index in range(games):
            opening = list(suite[(first_opening + index // 2) % len(suite)])
            agent = resolve_agent(agent_spec, GAME, seed=seed + index)
            record = play_game(engine, agent, index, index % 2, opening)
            records.append(record)
            if progress:
                print(
                    f"game {index + 1}/{games}: {record.agent_colour} "
                    f"{record.discs[0]}-{record.discs[1]} ({record.cpu_seconds:.1f} s CPU)",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        engine.close()
    return records


def score_line(label: str, records: list[GameRecord]) -> str:
    """A table row: games, W-D-L, score [95%], mean discs, mean CPU seconds."""
    n = len(records)
    wins = sum(r.result == 1 for r in records)
    draws = sum(r.result == 0.5 for r in records)
    score = (wins + draws / 2) / n if n else 0.0
    low, high = wilson(score, n)
    ours = sum(r.discs[0] for r in records) / max(n, 1)
    theirs = sum(r.discs[1] for r in records) / max(n, 1)
    cpu = sum(r.cpu_seconds for r in records) / max(n, 1)
    return (
        f"| {label} | {n} | {wins}-{draws}-{n - wins - draws} | {score:.3f} "
        f"[{low:.3f}, {high:.3f}] | {ours:.1f}-{theirs:.1f} | {cpu:.1f} |"
    )


def table(records: list[GameRecord], agent_spec: str, engine: str) -> str:
    """The Markdown table of a match, with its distinct games."""
    distinct = len({tuple(r.moves) for r in records})
    return "\n".join(
        [
            f"`{agent_spec}` against `{engine}`: {len(records)} games, {distinct} distinct",
            "",
            "| moving | games | W-D-L | score [95%] | discs (ours-GRhino) | our CPU s/game |",
            "|---|---:|---:|---|---:|---:|",
            score_line("all", records),
            score_line("first", [r for r in records if r.agent_colour == "black"]),
            score_line("second", [r for r in records if r.agent_colour == "white"]),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--level", type=int, default=4, choices=range(1, 6))
    parser.add_argument("--agent", default="az:pretrained,simulations=200")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--openings", action="store_true", help="game pairs from the shipped Othello suite"
    )
    parser.add_argument(
        "--first-opening",
        type=int,
        default=0,
        metavar="N",
        help="with --openings, start from the suite's opening N (0), to play openings "
        "that earlier matches did not",
    )
    parser.add_argument(
        "--engine",
        default=DEFAULT_ENGINE,
        help="the engine's command line (--level LEVEL is added); default gtp-rhino",
    )
    parser.add_argument("--json", type=Path, help="write the games and the table here")
    args = parser.parse_args(argv)
    command = [*shlex.split(args.engine), "--level", str(args.level)]
    try:
        records = run_match(
            command,
            args.agent,
            args.games,
            args.seed,
            args.openings,
            progress=True,
            first_opening=args.first_opening,
        )
    except (EngineError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    text = table(records, args.agent, shlex.join(command))
    print(text)
    if args.json is not None:
        data = {
            "agent": args.agent,
            "engine": command,
            "level": args.level,
            "seed": args.seed,
            "openings": args.openings,
            "first_opening": args.first_opening,
            "table": text,
            "games": [asdict(r) for r in records],
        }
        write_text_atomically(args.json, json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
