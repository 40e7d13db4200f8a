"""The tournament plan: agent labels, every game as a task, and its deterministic seeds."""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from connectn_env.games.config import GameConfig
from connectn_env.specs import AgentSpec


@dataclass(frozen=True)
class GameTask:
    """One game of the round robin.

    Attributes:
        game: The game.
        pairing: Labels of the pairing's two agents, in command-line order.
        index: Game number within the pairing (0-based); even: ``pairing[0]`` is player_0.
        labels: Labels of player_0 and player_1.
        specs: Specs of player_0 and player_1.
        seeds: Agent seeds of player_0 and player_1.
        move_timeout: Seconds per move, or None.
        opening: The moves played before the agents play (an opening of a suite), or ().
    """

    game: GameConfig
    pairing: tuple[str, str]
    index: int
    labels: tuple[str, str]
    specs: tuple[AgentSpec, AgentSpec]
    seeds: tuple[int, int]
    move_timeout: float | None
    opening: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[str, str, int]:
        """What identifies the game in a results file (with the tournament's game and seed)."""
        return (*self.pairing, self.index)


def agent_labels(specs: list[AgentSpec]) -> list[str]:
    """``str(spec)`` of each agent; repeated specs get ``#2``, ``#3``..."""
    labels: list[str] = []
    for spec in specs:
        label, number = str(spec), 1
        while label in labels:
            number += 1
            label = f"{spec}#{number}"
        labels.append(label)
    return labels


def game_seeds(base_seed: int, pairing: tuple[str, str], index: int) -> tuple[int, int]:
    """Two agent seeds that depend only on the base seed, the pairing's labels and the index
    (not on worker count, order of play or the other pairings)."""
    pairing_id = zlib.crc32("\x00".join(pairing).encode())
    sequence = np.random.SeedSequence(base_seed, spawn_key=(pairing_id, index))
    first, second = sequence.generate_state(2, dtype=np.uint32).tolist()
    return first, second


def planned_players(pairing: tuple[str, str], index: int) -> tuple[str, str]:
    """Labels of player_0 and player_1 in game ``index`` of ``pairing`` (colours alternate:
    in even games the pairing's first agent moves first)."""
    return pairing if index % 2 == 0 else (pairing[1], pairing[0])


def planned_opening(openings: Sequence[tuple[int, ...]] | None, index: int) -> tuple[int, ...]:
    """The opening of game ``index`` of a pairing: games ``2k`` and ``2k + 1`` (a game pair,
    colours swapped) play opening ``k`` of ``openings``, from the first again once all are
    played; () without a suite."""
    if not openings:
        return ()
    return tuple(openings[(index // 2) % len(openings)])


def check_pairs(pairs: Sequence[tuple[int, int]] | None, agents: int) -> list[tuple[int, int]]:
    """The pairings of a plan, as ``(i, j)`` agent indices with ``i < j``, in order (None:
    every pair, the round robin).

    Raises:
        ValueError: a pair that is not two different agent indices in increasing order, or
            a pair given twice.
    """
    if pairs is None:
        return [(i, j) for i in range(agents) for j in range(i + 1, agents)]
    checked: list[tuple[int, int]] = []
    for pair in pairs:
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not all(type(k) is int for k in pair)
            or not 0 <= pair[0] < pair[1] < agents
        ):
            raise ValueError(
                f"a pair must be two agent indices i < j from 0 to {agents - 1}, got {pair!r}"
            )
        if tuple(pair) in checked:
            raise ValueError(f"pair {tuple(pair)} is given twice")
        checked.append((pair[0], pair[1]))
    return sorted(checked)


def plan_size(agents: int, games: int, pairs: Sequence[tuple[int, int]] | None = None) -> int:
    """Number of games of a plan of ``agents`` agents, ``games`` per pairing (of ``pairs``;
    default: the round robin)."""
    return len(check_pairs(pairs, agents)) * games


def plan_games(
    game: GameConfig,
    specs: list[AgentSpec],
    *,
    games: int,
    seed: int,
    move_timeout: float | None,
    pairs: Sequence[tuple[int, int]] | None = None,
    openings: Sequence[tuple[int, ...]] | None = None,
) -> Iterator[GameTask]:
    """Every game of a round robin (or of the pairings ``pairs``, see :func:`check_pairs`),
    one at a time (the plan is never held in memory, so ``games`` may be huge): each pair of
    agents plays ``games`` games, colours alternating (game 0: the earlier agent on the
    command line is player_0), from the openings ``openings`` in game pairs when given
    (:func:`planned_opening`)."""
    labels = agent_labels(specs)
    for i, j in check_pairs(pairs, len(specs)):
        pairing = (labels[i], labels[j])
        for index in range(games):
            yield pairing_task(
                game,
                pairing,
                (specs[i], specs[j]),
                index,
                seed,
                move_timeout,
                planned_opening(openings, index),
            )


def pairing_task(
    game: GameConfig,
    pairing: tuple[str, str],
    specs: tuple[AgentSpec, AgentSpec],
    index: int,
    seed: int,
    move_timeout: float | None = None,
    opening: tuple[int, ...] = (),
) -> GameTask:
    """Game ``index`` of the pairing of agents labelled ``pairing`` with ``specs``: colours
    alternate, the seeds are :func:`game_seeds`, the game starts after ``opening``."""
    swap = planned_players(pairing, index) != pairing
    return GameTask(
        game=game,
        pairing=pairing,
        index=index,
        labels=(pairing[1], pairing[0]) if swap else pairing,
        specs=(specs[1], specs[0]) if swap else specs,
        seeds=game_seeds(seed, pairing, index),
        move_timeout=move_timeout,
        opening=opening,
    )
