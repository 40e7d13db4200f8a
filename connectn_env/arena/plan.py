"""The tournament plan: agent labels, every game as a task, and its deterministic seeds."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from connectn_env.records.gameconfig import GameConfig
from connectn_env.specs import AgentSpec

__all__ = ["GameTask", "agent_labels", "plan_games"]


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
    """

    game: GameConfig
    pairing: tuple[str, str]
    index: int
    labels: tuple[str, str]
    specs: tuple[AgentSpec, AgentSpec]
    seeds: tuple[int, int]
    move_timeout: float | None

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


def plan_games(
    game: GameConfig,
    specs: list[AgentSpec],
    *,
    games: int,
    seed: int,
    move_timeout: float | None,
) -> list[GameTask]:
    """Every game of a round robin: each pair of agents plays ``games`` games, colours
    alternating (game 0: the earlier agent on the command line is player_0)."""
    labels = agent_labels(specs)
    tasks = []
    for i in range(len(specs)):
        for j in range(i + 1, len(specs)):
            pairing = (labels[i], labels[j])
            for index in range(games):
                seats = (i, j) if index % 2 == 0 else (j, i)
                tasks.append(
                    GameTask(
                        game=game,
                        pairing=pairing,
                        index=index,
                        labels=(labels[seats[0]], labels[seats[1]]),
                        specs=(specs[seats[0]], specs[seats[1]]),
                        seeds=game_seeds(seed, pairing, index),
                        move_timeout=move_timeout,
                    )
                )
    return tasks
