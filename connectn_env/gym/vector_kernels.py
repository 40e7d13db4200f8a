"""Compiled phases of one step of :class:`~connectn_env.gym.vector.BoardGameVectorEnv`.

N positions are the rows of one ``states`` array (the game's representation); every phase
reaches the rules only through the game's kernels (:mod:`connectn_env.games.contract`). A step
is: reset the boards that must start over (and note those where the opponent opens), play the
learner's actions, play the opponent's replies, score, observe. Each phase works on the boards
flagged in a bool array, so the env can run a Python opponent between two phases. Compiled
lazily (``cache=True``).
"""

from __future__ import annotations

from connectn_env.games.codes import DRAW, OK, ONGOING
from connectn_env.games.lib.jit import njit
from connectn_env.games.lib.rng import random_below

_REJECTION_DRAWS = 8
SIDE_RANDOM = 2  # side_mode value: draw the learner's side per episode (0 first, 1 second)


@njit(cache=True)
def learner_reward(kernels, params, state, learner):
    """+1 if the learner has won, -1 if it has lost, 0 otherwise (draw or ongoing)."""
    outcome = kernels.outcome(params, state)
    if outcome in (ONGOING, DRAW):
        return 0.0
    return 1.0 if outcome == learner + 1 else -1.0


@njit(cache=True)
def reset_boards(initial, states, learner, rngs, side_mode, which, opponent_opens):
    """Set the boards flagged in ``which`` to ``initial``; pick each learner's side
    (``side_mode`` 0, 1, or SIDE_RANDOM drawn from the board's generator); flag where the
    opponent opens."""
    for i in range(states.shape[0]):
        if which[i]:
            states[i, :] = initial
            side = side_mode
            if side_mode == SIDE_RANDOM:
                side = random_below(rngs[i : i + 1], 2)
            learner[i] = side
            opponent_opens[i] = side == 1


@njit(cache=True)
def first_illegal(kernels, params, states, actions, which):
    """Index of the first flagged board whose action is illegal, or -1."""
    for i in range(states.shape[0]):
        if which[i] and kernels.check(params, states[i], actions[i]) != OK:
            return i
    return -1


@njit(cache=True)
def learner_moves(
    kernels, params, states, actions, learner, which, rewards, terminated, illegal, reply
):
    """Play the learner's action on the flagged boards.

    An illegal action scores -1 and ends the episode (``illegal``); a move that ends the
    game is scored; otherwise the board is flagged in ``reply`` for the opponent.
    """
    for i in range(states.shape[0]):
        if not which[i]:
            continue
        state = states[i]
        if kernels.check(params, state, actions[i]) != OK:
            rewards[i] = -1.0
            terminated[i] = True
            illegal[i] = True
            continue
        kernels.apply(params, state, actions[i])
        if kernels.outcome(params, state) == ONGOING:
            reply[i] = True
        else:
            rewards[i] = learner_reward(kernels, params, state, learner[i])
            terminated[i] = True


@njit(cache=True)
def random_legal_action(kernels, params, state, rng, scratch):
    """A uniformly random legal action of a non-terminal ``state``.

    A few draws over the whole action space, each kept if legal, then (if all were illegal)
    a draw from the list of legal actions: both stages are uniform over the legal actions,
    and the first usually succeeds without scanning the board.
    """
    num_actions = scratch.shape[0]
    for _ in range(_REJECTION_DRAWS):
        action = random_below(rng, num_actions)
        if kernels.check(params, state, action) == OK:
            return action
    count = kernels.legal_actions(params, state, scratch)
    return scratch[random_below(rng, count)]


@njit(cache=True)
def random_replies(kernels, params, states, which, rngs, scratch):
    """Play a uniformly random legal move on the flagged boards (``scratch``: int64 work
    array of length num_actions)."""
    for i in range(states.shape[0]):
        if which[i]:
            action = random_legal_action(kernels, params, states[i], rngs[i : i + 1], scratch)
            kernels.apply(params, states[i], action)


@njit(cache=True)
def score_replies(kernels, params, states, learner, which, rewards, terminated):
    """Score the flagged boards where the opponent's reply ended the game."""
    for i in range(states.shape[0]):
        if which[i] and kernels.outcome(params, states[i]) != ONGOING:
            rewards[i] = learner_reward(kernels, params, states[i], learner[i])
            terminated[i] = True


@njit(cache=True)
def observe(kernels, params, states, learner, over, obs, masks):
    """Write each board's planes [learner's stones, opponent's stones] into ``obs`` (N, cells
    * 2), the flat view of (N, rows, cols, 2), and the learner's legal actions into ``masks``
    (zeros where ``over``)."""
    for i in range(states.shape[0]):
        kernels.observe(params, states[i], learner[i], obs[i])
        if over[i]:
            masks[i, :] = 0
        else:
            kernels.legal_mask(params, states[i], masks[i])
