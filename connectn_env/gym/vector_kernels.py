"""Compiled phases of one step of :class:`~connectn_env.gym.vector.BoardGameVectorEnv`.

N positions are the rows of one int32 ``states`` array (layout of
``connectn_env.games.layout``). A step is: reset the boards that must start over (and
note those where the opponent opens), play the learner's actions, play the opponent's
replies, score, observe. Each phase works on the boards flagged in a bool array, so the
env can run a Python opponent between two phases. Compiled lazily (``cache=True``).
"""

from __future__ import annotations

from numba import njit

from connectn_env.games.kernels import (
    apply_unchecked,
    check_action,
    fill_legal_mask,
    legal_action_list,
    random_below,
)
from connectn_env.games.layout import (
    HEADER,
    P_COLS,
    P_NUM_ACTIONS,
    P_ROWS,
    S_OUTCOME,
    Outcome,
    Status,
)

_OK = int(Status.OK)
_ONGOING = int(Outcome.ONGOING)
_DRAW = int(Outcome.DRAW)
_REJECTION_DRAWS = 8
SIDE_RANDOM = 2  # side_mode value: draw the learner's side per episode (0 first, 1 second)


@njit(cache=True)
def learner_reward(state, learner):
    """+1 if the learner has won, -1 if it has lost, 0 otherwise (draw or ongoing)."""
    outcome = state[S_OUTCOME]
    if outcome in (_ONGOING, _DRAW):
        return 0.0
    return 1.0 if outcome == learner + 1 else -1.0


@njit(cache=True)
def reset_boards(initial, states, learner, rngs, side_mode, which, opponent_opens):
    """Empty the boards flagged in ``which``; pick each learner's side (``side_mode`` 0, 1,
    or SIDE_RANDOM drawn from the board's generator); flag where the opponent opens."""
    for i in range(states.shape[0]):
        if which[i]:
            states[i, :] = initial
            side = side_mode
            if side_mode == SIDE_RANDOM:
                side = random_below(rngs[i : i + 1], 2)
            learner[i] = side
            opponent_opens[i] = side == 1


@njit(cache=True)
def first_illegal(params, states, actions, which):
    """Index of the first flagged board whose action is illegal, or -1."""
    for i in range(states.shape[0]):
        if which[i] and check_action(params, states[i], actions[i]) != _OK:
            return i
    return -1


@njit(cache=True)
def learner_moves(params, states, actions, learner, which, rewards, terminated, illegal, reply):
    """Play the learner's action on the flagged boards.

    An illegal action scores -1 and ends the episode (``illegal``); a move that ends the
    game is scored; otherwise the board is flagged in ``reply`` for the opponent.
    """
    for i in range(states.shape[0]):
        if not which[i]:
            continue
        state = states[i]
        if check_action(params, state, actions[i]) != _OK:
            rewards[i] = -1.0
            terminated[i] = True
            illegal[i] = True
            continue
        apply_unchecked(params, state, actions[i])
        if state[S_OUTCOME] == _ONGOING:
            reply[i] = True
        else:
            rewards[i] = learner_reward(state, learner[i])
            terminated[i] = True


@njit(cache=True)
def random_legal_action(params, state, rng, scratch):
    """A uniformly random legal action of a non-terminal ``state``.

    A few draws over the whole action space, each kept if legal, then (if all were illegal)
    a draw from the list of legal actions: both stages are uniform over the legal actions,
    and the first usually succeeds without scanning the board.
    """
    num_actions = params[P_NUM_ACTIONS]
    for _ in range(_REJECTION_DRAWS):
        action = random_below(rng, num_actions)
        if check_action(params, state, action) == _OK:
            return action
    count = legal_action_list(params, state, scratch)
    return scratch[random_below(rng, count)]


@njit(cache=True)
def random_replies(params, states, which, rngs, scratch):
    """Play a uniformly random legal move on the flagged boards (``scratch``: int64 work
    array of length num_actions)."""
    for i in range(states.shape[0]):
        if which[i]:
            action = random_legal_action(params, states[i], rngs[i : i + 1], scratch)
            apply_unchecked(params, states[i], action)


@njit(cache=True)
def score_replies(states, learner, which, rewards, terminated):
    """Score the flagged boards where the opponent's reply ended the game."""
    for i in range(states.shape[0]):
        if which[i] and states[i, S_OUTCOME] != _ONGOING:
            rewards[i] = learner_reward(states[i], learner[i])
            terminated[i] = True


@njit(cache=True)
def observe(params, states, learner, over, obs, masks):
    """Write each board's planes [learner's stones, opponent's stones] into ``obs`` (N, cells
    * 2), the flat view of (N, rows, cols, 2), and the learner's legal actions into ``masks``
    (zeros where ``over``)."""
    cells = params[P_ROWS] * params[P_COLS]
    for i in range(states.shape[0]):
        own = learner[i] + 1
        board = states[i, HEADER : HEADER + cells]
        planes = obs[i]
        for cell in range(cells):
            value = board[cell]
            planes[2 * cell] = value == own
            planes[2 * cell + 1] = value != 0 and value != own
        if over[i]:
            masks[i, :] = 0
        else:
            fill_legal_mask(params, states[i], masks[i])
