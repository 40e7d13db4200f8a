"""Screenshots of the play window for the docs: ``docs/images/<game>.png``.

Each game's window is opened on an X server (Xvfb), a few moves are played against the
AI (a seeded MCTS, so the pictures are the same every run), the analysis overlay is
switched on, and the window's pixels are saved as PNG: the board with the AI's heat map,
the move list beside it, the status texts below.

Run from the repository root (needs Debian's ``xvfb``: ``apt-get install -y xvfb``)::

    python docs/screenshots.py            # starts itself under xvfb-run when no DISPLAY
    python docs/screenshots.py hex gomoku # only these games
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

IMAGES = Path(__file__).resolve().parent / "images"
SCREEN = "1280x1024x24"  # the virtual screen: every window keeps its natural size
OPPONENT = "mcts"  # the agent's name in the status texts
SIMULATIONS = 3000  # per AI move: strong enough to look sensible, fast once compiled
TIMEOUT = 300.0  # seconds an AI move may take (the first one compiles)


@dataclass(frozen=True)
class Shot:
    """One screenshot: the game (a registry name), its file and the person's moves.

    Turn ``k`` plays ``moves[k]``, or if the AI's replies made it illegal the next legal
    one of the list (else any legal move); ``turns`` moves are played.
    """

    game: str
    file: str
    moves: tuple[str, ...]
    turns: int


SHOTS = (
    Shot("connect_four", "connect_four.png", ("4", "4", "3", "5", "2", "6"), 3),
    Shot("gomoku", "gomoku.png", ("h8", "g9", "j7", "f9", "h11", "k8", "e6"), 4),
    Shot("hex", "hex.png", ("f6", "e8", "g4", "d9", "h3", "c10"), 4),
    Shot("othello", "othello.png", ("d3", "c5", "f4", "e6", "c3", "f5", "b4", "e3"), 4),
    Shot("tictactoe", "tic_tac_toe.png", ("b2", "a1", "c3", "a3", "c1"), 2),
)


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots named in ``argv`` (default: all); returns the exit status."""
    names = [shot.game for shot in SHOTS]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"of {', '.join(names)}")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(names))
    if unknown:
        parser.error(f"no screenshot of {', '.join(unknown)}; games: {', '.join(names)}")
    if not os.environ.get("DISPLAY"):
        return _under_xvfb(argv)
    os.environ["SDL_VIDEODRIVER"] = "x11"  # a real (virtual) window, not SDL's dummy
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")
    IMAGES.mkdir(parents=True, exist_ok=True)
    for shot in SHOTS:
        if not args.games or shot.game in args.games:
            path = take(shot)
            print(f"{path} ({path.stat().st_size // 1024} KB)", flush=True)
    return 0


def _under_xvfb(argv: list[str] | None) -> int:
    """Run this script again under ``xvfb-run`` (a virtual X server)."""
    if shutil.which("xvfb-run") is None:
        print("no DISPLAY and no xvfb-run: apt-get install -y xvfb", file=sys.stderr)
        return 1
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", sys.executable, __file__]
    return subprocess.run([*command, *(sys.argv[1:] if argv is None else argv)]).returncode


def take(shot: Shot) -> Path:
    """Play ``shot``'s moves in a window, show the analysis and save the picture."""
    import pygame

    import agents
    from connectn_env.play.notation import parse_move
    from connectn_env.play.session import GameSession
    from connectn_env.play.window import PlayWindow
    from connectn_env.records import GameConfig

    # exact=False: every move searched (Connect Four's opening book answers without a
    # search, and a move known without one has no shares to show)
    agent = agents.MCTSAgent(simulations=SIMULATIONS, seed=0, exact=False)
    session = GameSession(GameConfig(shot.game).make_env(), agent, human_player=0)
    title = f"connectn play: {session.game.title} against {OPPONENT}"
    window = PlayWindow(session, title=title, opponent=OPPONENT)
    try:
        for turn in range(shot.turns):
            _wait_for_the_ai(window)
            if session.over:
                break
            wanted = shot.moves[turn:] + shot.moves[:turn]
            session.play(_first_legal(session, wanted, parse_move))
        _wait_for_the_ai(window)
        window.show_analysis = True
        window.hover = None  # no preview stone where Xvfb's pointer happens to be
        window.draw()
        path = IMAGES / shot.file
        pygame.image.save(window.frame.surface, str(path))
        return path
    finally:
        window.close()


def _first_legal(session, moves: tuple[str, ...], parse_move) -> int:
    for text in moves:
        try:
            return parse_move(session.state, text)
        except ValueError:
            continue
    return int(session.state.legal_actions()[0])  # none of the list: any legal move


def _wait_for_the_ai(window) -> None:
    """Let the window run until it is the person's turn (or the game is over)."""
    session = window.session
    start = time.monotonic()
    while session.ai_turn or window.thinker.busy:
        if not window.step():
            raise RuntimeError("the window was closed")
        if time.monotonic() - start > TIMEOUT:
            raise RuntimeError(f"the AI took over {TIMEOUT:.0f} s to move")
        time.sleep(0.01)
    window.step()


if __name__ == "__main__":
    sys.exit(main())
