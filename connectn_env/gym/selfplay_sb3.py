"""Self-play with stable-baselines3: a callback that adds snapshots of the learner's policy
to a :class:`~connectn_env.gym.selfplay.SelfPlayOpponent` every N steps.

This module imports stable-baselines3 and torch (``pip install ".[rl]"``); the envs and the
pool do not. It works with the actor-critic policies of a Discrete action space: PPO, A2C
and sb3-contrib's MaskablePPO.

A snapshot is a copy of the actor's tensors of the policy's ``state_dict`` (no critic, no
optimizer); every snapshot of one callback is evaluated by a single private copy of the
policy, which loads the snapshot's weights when another one was loaded last.
"""

from __future__ import annotations

import copy

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.policies import BaseModel, BasePolicy
from stable_baselines3.common.vec_env import SubprocVecEnv, VecEnv

from connectn_env.games.validation import require_int
from connectn_env.gym.selfplay import SelfPlayOpponent

# state_dict keys of the critic of SB3's actor-critic policies: a snapshot leaves them out.
CRITIC_PREFIXES = ("value_net.", "mlp_extractor.value_net.", "vf_features_extractor.")


class _Evaluator:
    """The policy copy that evaluates the snapshots of one callback."""

    def __init__(self, policy: BasePolicy) -> None:
        # Left out of the copy: the optimizer and its state (the copy never trains) and the
        # last distribution the policy made (its tensors may hold a graph: not copyable).
        dist = getattr(getattr(policy, "action_dist", None), "distribution", None)
        skip = (getattr(policy, "optimizer", None), dist)
        self.policy = copy.deepcopy(policy, memo={id(x): None for x in skip if x is not None})
        self.policy.set_training_mode(False)
        # The actor's tensors of the copy (they share the parameters' storage).
        state = self.policy.state_dict()
        self.keys = [key for key in state if not key.startswith(CRITIC_PREFIXES)]
        self.tensors = [state[key] for key in self.keys]
        self.loaded: SB3PolicySnapshot | None = None

    def load(self, snapshot: SB3PolicySnapshot) -> None:
        """Copy ``snapshot``'s weights into the policy copy, unless they are there already
        (tensor by tensor: ``load_state_dict`` took five times as long)."""
        if self.loaded is not snapshot:
            with torch.no_grad():
                for tensor, weights in zip(self.tensors, snapshot.weights, strict=True):
                    tensor.copy_(weights)
            self.loaded = snapshot


class SB3PolicySnapshot:
    """A frozen copy of the actor's weights of an SB3 policy (``state_dict`` tensors, cloned).

    Attributes:
        weights: The cloned tensors, in the order of the evaluator's keys.
        step: The learner's ``num_timesteps`` when the copy was made.
    """

    def __init__(self, evaluator: _Evaluator, policy: BasePolicy, step: int) -> None:
        self._evaluator = evaluator
        state = policy.state_dict()
        self.weights = [state[key].detach().clone() for key in evaluator.keys]
        self.step = step

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The policy's unnormalised scores of every action, shape (batch, num_actions)
        (the opponent masks them with ``action_masks``).

        The actor's path of ``get_distribution`` (features, actor network, action head)
        without building a distribution, which took half the time of a one-board call.
        """
        self._evaluator.load(self)
        policy = self._evaluator.policy
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(observations)
            features = BaseModel.extract_features(policy, tensor, policy.pi_features_extractor)
            scores = policy.action_net(policy.mlp_extractor.forward_actor(features))
            return scores.cpu().numpy()

    def __repr__(self) -> str:
        return f"SB3PolicySnapshot(step={self.step})"


class SelfPlayCallback(BaseCallback):
    """Add a snapshot of the model's policy to the self-play pool every ``every_steps`` steps.

    The snapshot is taken at the first step where ``model.num_timesteps`` reaches the next
    multiple of ``every_steps`` (steps count every sub-env, as ``num_timesteps`` does). None
    is taken at the start: until the first one, the opponent plays random legal moves.

    Args:
        opponent: The pool to fill; None: every distinct pool of the model's envs
            (``env.self_play`` of each sub-env, e.g. envs made with ``opponent="self"``).
        every_steps: Steps between snapshots, at least 1.
        verbose: SB3's verbosity; 1 prints a line per snapshot.

    Raises:
        TypeError: ``opponent`` is not a SelfPlayOpponent or None, ``every_steps`` not an int;
            at ``learn``, envs in subprocesses (``SubprocVecEnv``: their opponents are copies
            the callback cannot reach), a policy that is not an actor-critic one (features
            extractor, ``mlp_extractor``, ``action_net``) or an action space that is not
            Discrete.
        ValueError: ``every_steps`` below 1; at ``learn``, no env of the model plays
            against ``opponent`` (or, with None, against any self-play pool).

    Attributes:
        snapshot_steps: ``num_timesteps`` of every snapshot taken, in order.
    """

    def __init__(
        self, opponent: SelfPlayOpponent | None = None, *, every_steps: int, verbose: int = 0
    ) -> None:
        if opponent is not None and not isinstance(opponent, SelfPlayOpponent):
            raise TypeError(
                f"opponent must be a SelfPlayOpponent or None, got {opponent!r} of type "
                f"{type(opponent).__name__}"
            )
        self.every_steps = require_int("every_steps", every_steps, 1)
        super().__init__(verbose)
        self.opponent = opponent
        self.pools: list[SelfPlayOpponent] = []
        self.snapshot_steps: list[int] = []
        self._evaluator: _Evaluator | None = None
        self._next_step = self.every_steps

    def _init_callback(self) -> None:
        policy = self.model.policy
        actor = ("pi_features_extractor", "mlp_extractor", "action_net")
        if not isinstance(self.model.action_space, spaces.Discrete) or not all(
            hasattr(policy, name) for name in actor
        ):
            raise TypeError(
                "SelfPlayCallback needs an actor-critic policy (PPO, A2C, MaskablePPO) over a "
                f"Discrete action space, got {type(policy).__name__} over "
                f"{self.model.action_space}"
            )
        env = self.training_env
        while not isinstance(env, SubprocVecEnv) and hasattr(env, "venv"):
            env = env.venv  # a VecEnvWrapper (VecNormalize...)
        if isinstance(env, SubprocVecEnv):
            raise TypeError(
                "SelfPlayCallback cannot reach the opponents of a SubprocVecEnv (each "
                "subprocess holds a copy of the pool): use a DummyVecEnv (make_vec_env's "
                "default)"
            )
        self.pools = self._find_pools(self.training_env)

    def _find_pools(self, env: VecEnv) -> list[SelfPlayOpponent]:
        found: dict[int, SelfPlayOpponent] = {}
        for pool in env.get_attr("self_play"):
            if pool is not None:
                found.setdefault(id(pool), pool)
        if self.opponent is None:
            if not found:
                raise ValueError(
                    "no env of the model plays self-play: make the envs with opponent='self' "
                    "or opponent=SelfPlayOpponent(...)"
                )
            return list(found.values())
        if id(self.opponent) not in found:
            raise ValueError(
                f"no env of the model plays against {self.opponent!r}: pass it as the envs' "
                "opponent (env_kwargs={'opponent': pool})"
            )
        return [self.opponent]

    def _on_training_start(self) -> None:
        self._next_step = (self.num_timesteps // self.every_steps + 1) * self.every_steps

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next_step:
            self.take_snapshot()
            self._next_step = (self.num_timesteps // self.every_steps + 1) * self.every_steps
        return True

    def take_snapshot(self) -> SB3PolicySnapshot:
        """Add a snapshot of the policy's current weights to the pools now and return it
        (``learn`` must have started once, so that the callback knows its model)."""
        policy = self.model.policy
        if self._evaluator is None:
            self._evaluator = _Evaluator(policy)
        snapshot = SB3PolicySnapshot(self._evaluator, policy, self.model.num_timesteps)
        for pool in self.pools:
            pool.add(snapshot)
        self.snapshot_steps.append(snapshot.step)
        if self.verbose >= 1:
            print(f"self-play snapshot at step {snapshot.step} ({len(self.pools)} pools)")
        return snapshot

    def __repr__(self) -> str:
        return f"SelfPlayCallback({self.opponent!r}, every_steps={self.every_steps})"
