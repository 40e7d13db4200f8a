"""The ``connectn`` command: play against the AI, run tournaments, replay games, benchmark.

Subcommands::

    connectn play GAME [game options] [--opponent SPEC | --level N] [--human-first | --ai-first]
                  [--seed N] [--ui window|terminal|auto] [--record DIR]
    connectn arena GAME [game options] SPEC SPEC [SPEC ...] [--games N] [--workers K]
                   [--seed N] [--move-timeout S] [--out FILE.jsonl] [--json FILE]
                   [--record DIR] [--openings FILE [--first-opening N]] [--no-progress]
                   [--ray ADDRESS]
    connectn evaluate GAME [game options] CANDIDATE [--games N | --minutes M] [--workers K]
                      [--ray ADDRESS] [--json FILE] [--results FILE] [--ladder FILE]
                      [--vs B --sprt ELO0,ELO1 [--alpha A] [--beta B] [--max-games N]]
    connectn evaluate connect_four CANDIDATE --positions [--json FILE]
    connectn ladder build GAME [game options] [--games-per-pair N] [--workers K]
                          [--ray ADDRESS] [--out FILE] [--results FILE] [--hold]
    connectn ladder show GAME [game options] [--file FILE]
    connectn openings make GAME [game options] --min-plies N --max-plies N --out FILE
                           [--count N] [--nodes N] [--simulations N] [--band V] [--seed N]
    connectn openings show FILE
    connectn replay FILE [--ui window|terminal|auto]
    connectn bench [--full]
    connectn warmup [GAME ...]
    connectn demo GAME [game options] [--seed N]
    connectn train GAME [game options] --out RUN_DIR [--minutes N] [--games N] [--resume]
                   [--device cpu|cuda] [--workers K] [--ray ADDRESS] [training options]
    connectn gtp hex [--size N] [--swap] [--opponent SPEC | --level N] [--seed N]
    connectn pbrain [--opponent SPEC | --level N] [--seed N]

GAME is a name of the game registry (``connectn play --help`` lists them); its options are
the game's parameters (``connectn play hex --help``).

What ``connectn_env.play.run_play(args)`` receives (an ``argparse.Namespace``):

- ``args.game_config``: :class:`connectn_env.records.GameConfig` (validated;
  ``.make_env(render_mode)``, ``.make_game()``); ``args.game`` and the raw game options
  are there too.
- ``args.opponent``: :class:`connectn_env.specs.AgentSpec` (parsed and validated, default
  ``mcts:time=1.0``; ``human`` means two people share the board). ``.build(seed)``.
- ``args.level``: int or None (``--level N``: a level of the game's ladder; ``opponent``
  is then that level's spec).
- ``args.human_first``: bool (default True; ``--ai-first`` sets False).
- ``args.seed``: int or None.
- ``args.ui``: ``"window"``, ``"terminal"`` or ``"auto"`` (default).
- ``args.record``: ``pathlib.Path`` or None (save finished games with
  ``connectn_env.records.save_record``).

``connectn_env.play.run_replay(record, args)`` receives the loaded
:class:`connectn_env.records.GameRecord` and a namespace with ``args.file`` (Path) and
``args.ui``. Both return the process exit code.
"""

from __future__ import annotations

import argparse
import math
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from connectn_env.arena import ArenaError, run_arena_command
from connectn_env.arena.tournament import MAX_GAMES, MAX_MOVE_TIMEOUT, MAX_WORKERS
from connectn_env.arena.worker import describe_error
from connectn_env.envs.base import BoardGameEnv
from connectn_env.errors import ConnectnError
from connectn_env.gameoptions import (
    add_game_parsers,
    ascii_int,
    game_config_from_args,
    path_argument,
)
from connectn_env.games import MAX_SIDE
from connectn_env.games.compile_notice import compile_notices, worker_notices_on_stderr
from connectn_env.games.config import GameConfig
from connectn_env.play import AgentBuildError, run_play, run_replay
from connectn_env.play.ui import NoDisplayError
from connectn_env.records import load_record
from connectn_env.safetext import printable
from connectn_env.specs import (
    BUILTIN_KINDS,
    AgentSpec,
    describe_agents,
    parse_agent_spec,
    resolve_agent,
)
from connectn_env.stdout_guard import StdoutError, guarded_stdout, silence_stdout
from connectn_env.train_command import add_train_options
from connectn_env.warmup import run_warmup

DEFAULT_OPPONENT = "mcts:time=1.0"
DEFAULT_PBRAIN_OPPONENT = "mcts:time=30"
DESCRIPTION = "Play against the AI, run tournaments, replay games, benchmark."
SPEC_HELP = (
    "Agent specs: random[:seed=S], mcts[:simulations=800,c=1.4,time=0.5,rave=true,...], "
    "puct[:simulations=400,...], az:pretrained[,simulations=200,threads=1,...] (the AlphaZero "
    "network shipped for the game; needs torch), az:path=RUN_DIR/best.pt[,simulations=200,...] "
    "(a trained AlphaZero network), ab[:depth=6,time=1,nodes=200000,...] (alpha-beta), perfect "
    "(Connect Four's perfect player: opening book, then solver), human (two people at one "
    "board; play only), module:callable[:key=value,...] (a factory returning an object with "
    "act(env)); values are true/false, integers, decimals or strings; connectn agents KIND "
    "lists a kind's keys. A spec runs code: module:callable imports that module and calls "
    "that callable, whatever it is, so use only specs you would run as commands."
)
HELP_WIDTH = 100
UIS = ("window", "terminal", "auto")


def make_raw_env(args: argparse.Namespace, render_mode: str | None = None) -> BoardGameEnv:
    """The raw AEC env that the command-line options describe."""
    return game_config_from_args(args).make_env(render_mode)


def _spec(allow_human: bool):
    def parse(text: str) -> AgentSpec:
        try:
            return parse_agent_spec(text, allow_human=allow_human)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.__name__ = "agent spec"
    return parse


def _int_at_least(low: int, high: int | None = None):
    """An argparse type: an integer (ASCII digits) from ``low`` to ``high``."""

    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", text.strip()):
            raise argparse.ArgumentTypeError(f"expected an integer, got {text[:40]!r}")
        value = int(text)
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0, at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {text[:40]!r}"
        ) from None
    if not (math.isfinite(value) and 0 < value <= MAX_MOVE_TIMEOUT):
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds greater than 0 and at most "
            f"{MAX_MOVE_TIMEOUT:g}, got {text[:40]}"
        )
    return value


_positive_int = _int_at_least(1)
_seed = _int_at_least(0)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, plus the text of an option's ``more_help()`` (help computed
    only when it is shown, such as the levels read from the shipped ladders)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = super()._get_help_string(action) or ""
        more = getattr(action, "more_help", None)
        return text if more is None else text + more().replace("%", "%%")


def _formatter(prog: str) -> argparse.HelpFormatter:
    """Help text no wider than the terminal and never wider than HELP_WIDTH columns."""
    width = min(HELP_WIDTH, shutil.get_terminal_size().columns)
    return _HelpFormatter(prog, width=width, max_help_position=min(30, width // 3))


def _levels_help(game: str) -> str:
    """``": 1 random, 2 uct-10, ..."``: the levels of ``game`` (a registry name), one list per
    shipped ladder of that game, read from the ladders' files (a ladder that cannot be read
    here is named with the reason: help never fails)."""
    from connectn_env.ladder.games import LADDER_GAMES, command_game
    from connectn_env.ladder.ladderfile import shipped_keys
    from connectn_env.ladder.levels import levels

    keys = [key for key in shipped_keys() if LADDER_GAMES[key].name == game]
    if not keys:
        return f" (none for {game}: no ladder of it ships)"
    lists = []
    for key in keys:
        try:
            rungs = levels(key)
        except ValueError as error:
            lists.append(f"{command_game(key)}: cannot be read ({error})")
            continue
        labels = ", ".join(f"{n} {rung.label}" for n, rung in enumerate(rungs, start=1))
        lists.append(labels if len(keys) == 1 else f"{command_game(key)}: {labels}")
    return ". Levels: " + "; ".join(lists)


def _first_side(prog: str) -> str:
    """The first player of the game whose ``play`` sub-parser is ``prog`` (``"connectn play
    hex"``), as the window and the terminal call it: ``"Red in the window, X in the
    terminal"``."""
    from connectn_env.games import REGISTRY
    from connectn_env.render.ansi import STONE_CHARS
    from connectn_env.render.style import load_style

    game = REGISTRY[prog.rsplit(" ", 1)[-1]].make()
    window = load_style(game.render_style).palette.names[0]
    text = STONE_CHARS[1]
    return window if window == text else f"{window} in the window, {text} in the terminal"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    from connectn_env import __version__

    parser = argparse.ArgumentParser(
        prog="connectn", description=DESCRIPTION, formatter_class=_formatter, allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"connectn {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add_command(name: str, **kwargs) -> argparse.ArgumentParser:
        return commands.add_parser(name, formatter_class=_formatter, allow_abbrev=False, **kwargs)

    play = add_command("play", help="play against the AI (window or terminal)", epilog=SPEC_HELP)

    def play_options(sub: argparse.ArgumentParser) -> None:
        sub.epilog = SPEC_HELP
        opponent = sub.add_mutually_exclusive_group()
        opponent.add_argument(
            "--opponent",
            type=_spec(allow_human=True),
            default=parse_agent_spec(DEFAULT_OPPONENT),
            metavar="SPEC",
            help=f"the AI, an agent spec (default {DEFAULT_OPPONENT}); human: two people play",
        )
        game = sub.prog.rsplit(" ", 1)[-1]
        _add_level_option(opponent).more_help = lambda: _levels_help(game)
        order = sub.add_mutually_exclusive_group()
        order.add_argument(
            "--human-first",
            dest="human_first",
            action="store_true",
            default=True,
            help=f"you move first (default): {_first_side(sub.prog)}",
        )
        order.add_argument(
            "--ai-first", dest="human_first", action="store_false", help="the AI moves first"
        )
        sub.add_argument("--seed", type=_seed, default=None, help="seed of the AI (>= 0)")
        sub.add_argument("--ui", choices=UIS, default="auto", help="window, terminal or auto")
        sub.add_argument(
            "--record", type=path_argument, metavar="DIR", help="save finished games here"
        )

    add_game_parsers(play, play_options, _formatter)

    arena = add_command(
        "arena",
        help="round-robin tournament between agents",
        description="Round robin: every pair of agents plays --games games, colours alternating.",
        epilog=SPEC_HELP,
    )

    def arena_options(sub: argparse.ArgumentParser) -> None:
        sub.epilog = SPEC_HELP
        sub.add_argument(
            "agents",
            nargs="+",
            type=_spec(allow_human=False),
            metavar="SPEC",
            help="two or more agents (agent specs, listed below)",
        )
        sub.add_argument(
            "--games",
            type=_int_at_least(1, MAX_GAMES),
            default=10,
            help=f"games per pairing, 1 to {MAX_GAMES} (10)",
        )
        sub.add_argument(
            "--workers",
            type=_int_at_least(1, MAX_WORKERS),
            default=None,
            help=f"processes, 1 to {MAX_WORKERS} (all cores)",
        )
        sub.add_argument("--seed", type=_seed, default=0, help="base seed of every game (0)")
        sub.add_argument(
            "--move-timeout",
            type=_seconds,
            default=None,
            metavar="SECONDS",
            help="an agent whose move takes longer loses the game",
        )
        sub.add_argument(
            "--out", type=path_argument, metavar="FILE", help="append games here (JSON lines)"
        )
        sub.add_argument(
            "--json", type=path_argument, metavar="FILE", help="write the tables as JSON"
        )
        sub.add_argument("--record", type=path_argument, metavar="DIR", help="save every game here")
        sub.add_argument(
            "--openings",
            type=path_argument,
            metavar="FILE",
            help="an opening suite: each opening played twice, colours swapped (game pairs)",
        )
        sub.add_argument(
            "--first-opening",
            type=_int_at_least(0, 10**6),
            default=0,
            metavar="N",
            help="start from the suite's opening N (from 0), the ones before it played last: "
            "openings another match's first games did not play (0)",
        )
        sub.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
        sub.add_argument(
            "--ray",
            metavar="ADDRESS",
            help="play the games as Ray tasks: auto (this machine's cluster), ray://HOST:10001 "
            "or local (start Ray here); --workers then caps the games at once",
        )

    add_game_parsers(arena, arena_options, _formatter)

    _add_yardstick_commands(add_command)

    agents = add_command(
        "agents",
        help="the agent kinds of specs, and each kind's keys",
        description="List the built-in agent kinds, or one kind's spec keys with the values "
        "they take, their defaults and what they do.",
    )
    agents.add_argument("kind", nargs="?", choices=BUILTIN_KINDS, help="a kind (default: all)")

    replay = add_command("replay", help="step through a saved game (.json or .sgf)")
    replay.add_argument("file", type=path_argument, help="a game record")
    replay.add_argument("--ui", choices=UIS, default="auto", help="window, terminal or auto")

    bench = add_command("bench", help="environment and MCTS speed against references")
    bench.add_argument("--full", action="store_true", help="more runs and simulations")

    warmup = add_command(
        "warmup",
        help="compile ahead what the first moves need (numba caches it on disk)",
        description="Compile the rules and the search (plain UCT and the game's recommended "
        "options) of each GAME ahead, so that the first move of any later program loads them "
        "from numba's cache instead of compiling.",
    )
    warmup.add_argument("games", nargs="*", metavar="GAME", help="game names (default: all)")

    train = add_command(
        "train",
        help="train an AlphaZero network by self-play (needs torch)",
        description="AlphaZero self-play training: writes checkpoints, metrics and plots to "
        "RUN_DIR; the network plays as the agent spec az:path=RUN_DIR/best.pt.",
    )
    add_game_parsers(train, add_train_options, _formatter)

    demo = add_command("demo", help="a random-vs-random game as text")
    add_game_parsers(
        demo,
        lambda sub: sub.add_argument(
            "--seed", type=_seed, default=0, help="seed of both random players (0)"
        ),
        _formatter,
    )

    gtp = add_command(
        "gtp",
        help="a Hex engine for HexGui (Go Text Protocol on stdin/stdout)",
        description="Speak GTP on standard input and output, with MoHex's Hex commands, so "
        "that HexGui (Program > New Program..., command connectn gtp hex) can play the agent.",
        epilog=SPEC_HELP,
    )
    gtp.add_argument("game", choices=("hex",), help="the game (hex)")
    gtp.add_argument(
        "--size",
        type=_int_at_least(1, MAX_SIDE),
        default=11,
        help=f"board side, 1 to {MAX_SIDE}, until boardsize (11)",
    )
    gtp.add_argument("--swap", action="store_true", help="swap (pie) rule: swap-pieces is legal")
    _add_agent_options(gtp, DEFAULT_OPPONENT, "Hex at --size, rated without the swap rule")

    pbrain = add_command(
        "pbrain",
        help="a Gomoku brain for the Gomocup manager / Piskvork (stdin/stdout)",
        description="Speak the Gomocup (Piskvork) protocol on standard input and output: "
        "START, BEGIN, TURN, BOARD, INFO, END, ABOUT, RESTART, RECTSTART, TAKEBACK. The "
        "agent thinks within INFO timeout_turn and its share of INFO time_left.",
        epilog=SPEC_HELP,
    )
    _add_agent_options(pbrain, DEFAULT_PBRAIN_OPPONENT, "Gomoku 15 x 15")
    return parser


def _add_yardstick_commands(add_command) -> None:
    """``connectn evaluate``, ``connectn ladder build|show`` and ``connectn openings
    make|show``."""
    from connectn_env.ladder.command import (
        add_evaluate_options,
        add_ladder_build_options,
        add_ladder_show_options,
    )
    from connectn_env.ladder.openings_command import (
        add_openings_make_options,
        add_openings_show_options,
    )

    types = (_positive_int, _int_at_least(1, MAX_WORKERS), _seed)
    evaluate = add_command(
        "evaluate",
        help="an agent's Elo on the game's ladder, or an A/B test (--vs, --sprt)",
        description="Rate CANDIDATE on the game's ladder of reference agents (its Elo with a "
        "95% interval), or with --vs B --sprt ELO0,ELO1 play it against B in game pairs "
        "(colours swapped) until a sequential probability ratio test on the pairs decides.",
        epilog=SPEC_HELP,
    )
    add_game_parsers(evaluate, lambda sub: add_evaluate_options(sub, *types), _formatter)
    ladder = add_command("ladder", help="build or show a game's ladder of rated agents")
    actions = ladder.add_subparsers(dest="ladder_command", required=True, metavar="ACTION")
    build = actions.add_parser(
        "build",
        help="play the rungs against their neighbours and fit their ratings (resumable)",
        formatter_class=_formatter,
        allow_abbrev=False,
    )
    add_game_parsers(build, lambda sub: add_ladder_build_options(sub, *types), _formatter)
    show = actions.add_parser(
        "show", help="print a ladder", formatter_class=_formatter, allow_abbrev=False
    )
    add_game_parsers(show, add_ladder_show_options, _formatter)
    openings = add_command("openings", help="make or show an opening suite")
    suite_actions = openings.add_subparsers(
        dest="openings_command", required=True, metavar="ACTION"
    )
    make = suite_actions.add_parser(
        "make",
        help="draw random openings and keep those a cheap judge calls balanced",
        formatter_class=_formatter,
        allow_abbrev=False,
    )
    add_game_parsers(make, lambda sub: add_openings_make_options(sub, *types[::2]), _formatter)
    show_suite = suite_actions.add_parser(
        "show", help="print an opening suite", formatter_class=_formatter, allow_abbrev=False
    )
    add_openings_show_options(show_suite)


def _add_agent_options(parser: argparse.ArgumentParser, default: str, ladder: str) -> None:
    """--opponent, --level and --seed of the protocol engines (``ladder``: whose levels)."""
    agent = parser.add_mutually_exclusive_group()
    agent.add_argument(
        "--opponent",
        type=_spec(allow_human=False),
        default=parse_agent_spec(default),
        metavar="SPEC",
        help=f"the engine's agent, an agent spec (default {default})",
    )
    _add_level_option(agent, f" ({ladder})")
    parser.add_argument("--seed", type=_seed, default=None, help="seed of the agent (>= 0)")


def _add_level_option(group: argparse._MutuallyExclusiveGroup, ladder: str = "") -> argparse.Action:
    return group.add_argument(
        "--level",
        type=ascii_int,
        metavar="N",
        help=f"a level of the game's ladder{ladder} instead: 1 is the weakest rung",
    )


def demo(args: argparse.Namespace) -> int:
    """Play one random-vs-random game and print every position."""
    from connectn_env.play.notation import move_name

    env = make_raw_env(args, render_mode="ansi")
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)
    print(env.render())
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        print(f"\n{agent} plays {move_name(env.game, action)}\n{env.render()}")
    env.close()
    return 0


def run_protocol(args: argparse.Namespace, agent: Any) -> int:
    """``connectn gtp`` and ``connectn pbrain``: ``agent`` answers a controller on
    stdin/stdout."""
    from connectn_env import __version__

    sys.stdin.reconfigure(errors="replace")  # a stray byte is a bad command, not a crash
    if args.command == "gtp":
        from connectn_env.protocols.gtp import run_gtp

        version = f"{__version__} ({args.opponent})"
        return run_gtp(agent, size=args.size, swap=args.swap, version=version)
    from connectn_env.protocols.pbrain import run_pbrain

    return run_pbrain(agent, version=__version__, agent_name=str(args.opponent))


def _tell_stderr(message: str) -> None:
    """A compile record on its own line of stderr (over a progress line being redrawn)."""
    clear = "\r\x1b[K" if sys.stderr.isatty() else ""
    print(f"{clear}connectn: {printable(message)}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``connectn`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.command_line = shlex.join(["connectn", *(sys.argv[1:] if argv is None else argv)])
    try:
        with guarded_stdout():
            return _run(parser, args)
    except BrokenPipeError:
        # The reader went away (connectn demo ... | head): stop quietly, and point stdout at
        # /dev/null so that the interpreter's final flush does not fail again.
        silence_stdout()
        return 1
    except StdoutError as error:  # connectn warmup > /dev/full
        silence_stdout()
        print(f"connectn {args.command}: error: {error.strerror}", file=sys.stderr)
        return 2


def pbrain_main() -> int:
    """Entry point of ``pbrain-connectn`` (Gomocup wants brains named ``pbrain-*``)."""
    return main(["pbrain", *sys.argv[1:]])


@dataclass(frozen=True)
class Command:
    """How ``_run`` runs a subcommand.

    Attributes:
        run: The handler: the parsed arguments to the exit status.
        errors: What the handler raises for a bad input or setting; each is reported as one
            line, ``connectn COMMAND: error: ...``, with exit status 2.
        game: The command plays a game of the registry: its game options are made
            ``args.game_config`` and its agent specs are checked against it first.
    """

    run: Callable[[argparse.Namespace], int]
    errors: tuple[type[BaseException], ...] = ()
    game: bool = True


def _evaluate(args: argparse.Namespace) -> int:
    from connectn_env.ladder.command import run_evaluate_command

    return run_evaluate_command(args)


def _ladder(args: argparse.Namespace) -> int:
    from connectn_env.ladder.command import run_ladder_command

    return run_ladder_command(args)


def _openings(args: argparse.Namespace) -> int:
    from connectn_env.ladder.openings_command import run_openings_command

    return run_openings_command(args, args.command_line)


def _bench(args: argparse.Namespace) -> int:
    from connectn_env.bench import run_bench

    with compile_notices(_tell_stderr):
        return run_bench(full=args.full)


def _train(args: argparse.Namespace) -> int:
    from connectn_env.train_command import run_train_command

    with compile_notices(_tell_stderr), worker_notices_on_stderr():  # self-play's too
        return run_train_command(args)


USAGE = (ValueError, TypeError, OSError)  # a bad value, file or setting, named
COMMANDS: dict[str, Command] = {
    "play": Command(run_play, (AgentBuildError, NoDisplayError)),
    "arena": Command(run_arena_command, (ArenaError, OSError)),
    "evaluate": Command(_evaluate, USAGE),
    "ladder": Command(_ladder, USAGE),
    "openings": Command(_openings, USAGE, game=False),
    "agents": Command(lambda args: print(describe_agents(args.kind)) or 0, game=False),
    "replay": Command(
        lambda args: run_replay(load_record(args.file), args), (ValueError, OSError), False
    ),
    "bench": Command(_bench, game=False),
    "warmup": Command(lambda args: run_warmup(args.games), (ValueError,), game=False),
    "demo": Command(demo),
    "train": Command(_train, (ImportError, ConnectnError)),
    "gtp": Command(lambda args: run_protocol(args, _protocol_agent(args)), (ValueError,), False),
    "pbrain": Command(lambda args: run_protocol(args, _protocol_agent(args)), (ValueError,), False),
}


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run ``args.command`` from :data:`COMMANDS`: its game and agents checked first, then its
    handler; a refused input ends it with one ``error:`` line and exit status 2."""
    command = COMMANDS[args.command]
    try:
        try:
            _prepare(args, command)
        except ValueError as error:
            _refuse(parser, args, error)
        try:
            return command.run(args)
        except BrokenPipeError:
            raise  # the reader went away: main() stops quietly
        except command.errors as error:
            _refuse(parser, args, error)
    except KeyboardInterrupt:
        parser.exit(130, "\ninterrupted\n")
    except SystemExit as stop:  # SIGTERM or SIGHUP during connectn arena
        if isinstance(stop.code, int) and stop.code > 128:
            parser.exit(stop.code, "\nterminated\n")
        raise


def _refuse(parser: argparse.ArgumentParser, args: argparse.Namespace, error: BaseException):
    """End the command with ``connectn COMMAND: error: ...`` and exit status 2."""
    message = f"connectn {args.command}: error: {error}\n"
    parser.exit(2, printable(message, newlines=True))


def _prepare(args: argparse.Namespace, command: Command) -> None:
    """The game options made ``args.game_config``, ``--level N`` made ``args.opponent``, and
    the agent specs checked against the game (a ValueError says what is refused)."""
    if command.game:
        args.game_config = game_config_from_args(args)
    _choose_level(args)
    for spec in _agent_specs(args):
        spec.check_game(args.game_config)


def _choose_level(args: argparse.Namespace) -> None:
    """``--level N``: ``args.opponent`` becomes the spec of that level of the game played
    (``connectn gtp hex``: the Hex ladder of ``--size``, rated without the swap rule;
    ``connectn pbrain``: Gomoku 15 x 15).

    Raises:
        ValueError: the game has no levels, or none of that number.
    """
    if getattr(args, "level", None) is None:
        return
    from connectn_env.ladder import level_spec

    if args.command == "gtp":
        game = GameConfig("hex", {"rows": args.size, "cols": args.size})
    elif args.command == "pbrain":
        game = GameConfig("gomoku")
    else:
        game = args.game_config
    args.opponent = parse_agent_spec(level_spec(game, args.level), allow_human=False)


def _protocol_agent(args: argparse.Namespace) -> Any:
    """The agent of ``connectn gtp`` or ``connectn pbrain``, built from ``args.opponent`` once
    its spec is checked against the engine's first game: Hex at ``--size`` (with ``--swap``);
    Gomoku 15 x 15 for pbrain, whose board comes with START, so that a kind that plays no
    Gomoku (``perfect``) is refused, but not an ``az`` network, which START checks on the
    board it gives (a 20 x 20 network plays START 20).

    Raises:
        ValueError: the spec cannot play that game, or gives no agent (the message names the
            spec and the reason).
    """
    spec, game = args.opponent, None
    if args.command == "gtp":
        size = args.size
        game = GameConfig("hex", {"rows": size, "cols": size, "swap": args.swap})
        spec.check_game(game)  # refused as it is; a failed build is named below
    elif spec.kind != "az":
        spec.check_game(GameConfig("gomoku"))
    try:
        return resolve_agent(spec, game, seed=args.seed)
    except Exception as error:  # a module:callable spec runs any code
        kind, message = describe_error(error)
        raise ValueError(f"the opponent {spec} cannot be built: {kind}: {message}") from None


def _agent_specs(args: argparse.Namespace) -> list[AgentSpec]:
    """The agent specs of a play or arena command line."""
    if args.command == "play":
        return [args.opponent]
    return list(getattr(args, "agents", []))


if __name__ == "__main__":
    sys.exit(main())
