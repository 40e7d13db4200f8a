"""Does more or differently weighted search help the shipped 6 x 6 network defend?

The shipped network (PUCT) against plain UCT 10,000, 200 games, colours alternating, as in
``benchmarks/alphazero_strength.py``, with (a) a discounted backup in the network's search
(each level up multiplies the result by ``gamma``, so a loss found nearer the root weighs
more than one farther down: the search prefers the line that loses later) and (b) 800
simulations per move instead of 200; then (c) where a lost game went wrong: in a recorded
game's first moves (UCT c3, network d4, UCT d3, network e3, UCT c5: ``LINE``), how many of
the replies alpha-beta at depth 9 proves lost after the first, third and fifth move, and
after the fifth each of the network's likeliest replies with its prior, the network's value
after it and alpha-beta's proof. The discount is injected into the batched search's policy
here (a probe, not an option of the package); the UCT side is untouched.

Run: ``python benchmarks/results/pretrained/connect_n_rows6_cols6_n4_gravityFalse/search_probe.py``
(about 6 minutes on this project's 2-core machine).
"""

from __future__ import annotations

import time

import numpy as np
import torch
from numba import njit

import agents.batched as batched
from agents.alphabeta import AlphaBetaAgent
from agents.alphazero.evaluation import MCTSSide, NetworkSide, play_match
from agents.alphazero.inference import NetworkEvaluator
from agents.alphazero.pretrained import pretrained_checkpoint
from agents.tree import F_INV_SQRT, F_MEAN, F_VALUE, I_PARENT, I_VISITS, inv_sqrt, mover_of
from connectn_env.elo import wilson
from connectn_env.records import GameConfig

GAME = GameConfig("connect_n", {"rows": 6, "cols": 6, "n": 4, "gravity": False})
GAMES = 200
OPPONENT = 10_000
LINE = (14, 21, 15, 16, 26)  # c3 d4 d3 e3 c5: the first moves of a game the network lost


def discounted_backup(gamma: float):
    """A compiled backup rule: :func:`agents.tree.backup` with the result multiplied by
    ``gamma`` at each level up."""

    @njit(forceinline=True)
    def backup(tree, workspace, node, depth, count, r0):
        ints, floats = tree[0], tree[1]
        result = r0
        while node >= 0:
            parent = ints[node, I_PARENT]
            visits = ints[node, I_VISITS] + 1
            ints[node, I_VISITS] = visits
            value = floats[node, F_VALUE] + (result if mover_of(ints, node) == 0 else -result)
            floats[node, F_VALUE] = value
            floats[node, F_MEAN] = value / visits
            floats[node, F_INV_SQRT] = inv_sqrt(visits)
            result *= gamma
            node = parent

    return backup


def probe(gamma: float, simulations: int) -> None:
    """Play the match and print its line."""
    original = batched.search_policy
    if gamma < 1:
        rule = discounted_backup(gamma)
        batched.search_policy = lambda c_puct, selection="puct": original(
            c_puct, selection
        )._replace(backup=rule)
    try:
        game = GAME.make_game()
        evaluator = NetworkEvaluator(
            pretrained_checkpoint(game).network(), precision="auto", batch=GAMES
        )
        network = NetworkSide(game, evaluator, simulations=simulations, c_puct=1.5, seed=0)
        start = time.perf_counter()
        result = play_match(game, network, MCTSSide(game, OPPONENT, seed=1), GAMES, ("az", "uct"))
    finally:
        batched.search_policy = original
    low, high = wilson(result.score, result.games)
    print(
        f"| {gamma} | {simulations} | {result.score:.3f} | "
        f"{result.wins}-{result.draws}-{result.losses} | [{low:.3f}, {high:.3f}] | "
        f"{result.score_moving(first=True):.3f} / {result.score_moving(first=False):.3f} | "
        f"{time.perf_counter() - start:.0f} |",
        flush=True,
    )


def cell(action: int) -> str:
    """An action as column letter and row number (a1 is action 0)."""
    return f"{'abcdef'[action % 6]}{action // 6 + 1}"


def proof_after(moves: tuple[int, ...]) -> str | None:
    """What alpha-beta at depth 9 proves (for the player to move) after ``moves``."""
    env = GAME.make_env()
    env.reset(seed=0)
    for move in moves:
        env.step(move)
    return AlphaBetaAgent(depth=9, nodes=3_000_000).analyse(env).proven


def opening_probe() -> None:
    """Print the replies proven lost along :data:`LINE`, then the network's view and
    alpha-beta's proof of each likely reply after it."""
    game = GAME.make_game()
    print()
    for plies in (1, 3, 5):
        line = LINE[:plies]
        state = game.new_initial_state()
        for action in line:
            state.apply_action(action)
        replies = state.legal_actions()
        open_replies = [a for a in replies if proof_after((*line, a)) != "win"]
        print(
            f"after {' '.join(cell(action) for action in line)}: alpha-beta at depth 9 proves "
            f"{len(replies) - len(open_replies)} of the {len(replies)} replies lost; not "
            f"proven: {' '.join(cell(action) for action in open_replies) or 'none'}",
            flush=True,
        )
    evaluator = NetworkEvaluator(pretrained_checkpoint(game).network(), precision="float32")
    state = game.new_initial_state()
    for action in LINE:
        state.apply_action(action)
    mover = state.current_player()
    priors, _ = evaluator(
        state.observation(mover)[None], np.array([mover]), state.legal_action_mask()[None]
    )
    print(f"\nafter {' '.join(cell(action) for action in LINE)}, the network to move:\n")
    print("| reply | prior | network's value after it (for the network) | alpha-beta, depth 9 |")
    print("|---|---|---|---|")
    for action in sorted(state.legal_actions(), key=lambda a: -priors[0][a])[:8]:
        after = state.clone()
        after.apply_action(action)
        _, value = evaluator(
            after.observation(1 - mover)[None],
            np.array([1 - mover]),
            after.legal_action_mask()[None],
        )
        verdict = proof_after((*LINE, action)) or "not proven"
        print(
            f"| {cell(action)} | {priors[0][action]:.3f} | {-float(value[0]):+.3f} | "
            f"{verdict} for UCT |",
            flush=True,
        )


def main() -> None:
    torch.set_num_threads(1)
    print(f"{GAME}: the shipped network against plain UCT {OPPONENT:,}, {GAMES} games\n")
    print("| discount | simulations | score | W-D-L | 95% CI | moving first / second | seconds |")
    print("|---|---|---|---|---|---|---|")
    for gamma, simulations in ((1.0, 200), (0.95, 200), (0.85, 200), (0.7, 200), (1.0, 800)):
        probe(gamma, simulations)
    opening_probe()


if __name__ == "__main__":
    main()
