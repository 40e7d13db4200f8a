"""The reference agents of each ladder ("rungs"), weakest first by expected strength.

Every rung is budgeted by simulations or search depth, never by time, so that a rating
means the same on any machine. Each game gets: ``random`` (the anchor, rated 0); plain UCT
(``preset=uct``) at 10, 100, 1,000 and 10,000 simulations; ``MCTSAgent()``'s defaults at
1,000 and 10,000; alpha-beta at three depths chosen for the game's branching factor; and the
pretrained AlphaZero network with 200 simulations wherever
``agents/alphazero/networks/manifest.json`` lists one for the game (adding a network there
adds the rung: no code changes). The network rung's spec pins the network by the start of its
SHA-256 (``network=``), so a network trained again is a new rung to rate, never one that keeps
the old network's rating.

Connect Four's top rung is its perfect player (``perfect``: the opening book shipped with
the package, then the solver; deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass

from connectn_env.games.config import GameConfig
from connectn_env.ladder.games import LADDER_GAMES, ladder_key

ALPHA_BETA_DEPTHS: dict[str, tuple[int, int, int]] = {
    "connect_four": (2, 4, 6),
    "gomoku_15x15": (1, 2, 3),
    "hex_11x11": (1, 2, 3),
    "othello_8x8": (2, 4, 6),
    "hex_7x7": (2, 3, 4),
    "connect_n_6x6": (2, 4, 6),
}
AZ_SIMULATIONS = 200
NETWORK_PREFIX = 12  # hex digits of the network's SHA-256 in its rung's spec


@dataclass(frozen=True)
class Rung:
    """A reference agent: a short label and its agent spec."""

    label: str
    spec: str


def _uct(simulations: int) -> Rung:
    return Rung(f"uct-{_count(simulations)}", f"mcts:simulations={simulations},preset=uct")


def _default(simulations: int) -> Rung:
    return Rung(f"mcts-{_count(simulations)}", f"mcts:simulations={simulations}")


def _count(number: int) -> str:
    return f"{number // 1000}k" if number >= 1000 else str(number)


def ladder_rungs(game: object) -> list[Rung]:
    """The rungs of ``game``'s ladder (see :func:`~connectn_env.ladder.games.ladder_key`),
    weakest first by expected strength (the fitted ratings may order them otherwise).

    Raises:
        ValueError: the game has no ladder.
    """
    key = ladder_key(game)
    shallow, middle, deep = (Rung(f"ab-{d}", f"ab:depth={d}") for d in ALPHA_BETA_DEPTHS[key])
    rungs = [
        Rung("random", "random"),
        _uct(10),
        _uct(100),
        shallow,
        _uct(1000),
        _default(1000),
        middle,
    ]
    network = _pretrained_network(LADDER_GAMES[key])
    if network is not None:
        spec = f"az:pretrained,network={network},simulations={AZ_SIMULATIONS}"
        rungs.append(Rung(f"az-{AZ_SIMULATIONS}", spec))
    rungs += [_uct(10_000), deep, _default(10_000)]
    if key == "connect_four":
        rungs.append(Rung("perfect", "perfect"))
    return rungs


def _pretrained_network(game: GameConfig) -> str | None:
    """The start of the SHA-256 of the network shipped for ``game`` (None without one, or
    without torch)."""
    try:
        from agents.alphazero.pretrained import pretrained_networks
    except ImportError:
        return None
    network = pretrained_networks().get(game)
    return None if network is None else network.sha256[:NETWORK_PREFIX]
