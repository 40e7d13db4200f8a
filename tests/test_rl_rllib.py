"""RLlib (new API stack) multi-agent PPO on the PettingZoo AEC env, through RLlib's
``PettingZooEnv``, with action masking as RLlib documents it (``ActionMaskingTorchRLModule``,
whose Dict observation holds ``"observations"`` and ``"action_mask"``).

Needs the ``rllib`` extra (``pip install ".[rllib]"``)."""

from __future__ import annotations

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib", reason='the rllib extra is not installed: pip install ".[rllib]"')

import gymnasium as gym  # noqa: E402
import torch  # noqa: E402
from pettingzoo.utils.wrappers import BaseWrapper  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (  # noqa: E402
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env  # noqa: E402

from connectn_env import connect_n_v0  # noqa: E402
from connectn_env.registration import TICTACTOE  # noqa: E402

pytestmark = pytest.mark.slow

ENV_NAME = "connectn_tictactoe_masked"
SHARED = "shared_policy"


class RLlibMaskedObservation(BaseWrapper):
    """Our ``{"observation", "action_mask"}`` as RLlib's masking module reads it:
    ``{"observations": float32 planes, flattened, "action_mask": float32}``."""

    def __init__(self, env):
        super().__init__(env)
        self._spaces = {}
        for agent in env.possible_agents:
            inner = env.observation_space(agent)
            size = int(np.prod(inner["observation"].shape))
            self._spaces[agent] = gym.spaces.Dict(
                {
                    "observations": gym.spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": gym.spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
                }
            )

    def observation_space(self, agent):
        return self._spaces[agent]

    def observe(self, agent):
        observation = self.env.observe(agent)
        return {
            "observations": observation["observation"].astype(np.float32).ravel(),
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def make_env(_config=None) -> PettingZooEnv:
    # raw_env raises IllegalActionError on an illegal move, so a masking failure fails the run.
    return PettingZooEnv(RLlibMaskedObservation(connect_n_v0.raw_env(**TICTACTOE)))


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ppo_self_play_with_action_masking_trains(local_ray):
    torch.set_num_threads(1)
    register_env(ENV_NAME, make_env)
    config = (
        PPOConfig()
        .environment(ENV_NAME)
        .multi_agent(
            policies={SHARED},  # both seats share one policy: self-play
            policy_mapping_fn=lambda agent_id, episode, **kwargs: SHARED,
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    SHARED: RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [64, 64]},
                    )
                }
            )
        )
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=2, lr=1e-3)
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        results = [algo.train() for _ in range(3)]
        module = algo.get_module(SHARED)
    finally:
        algo.stop()
    steps = results[-1]["num_env_steps_sampled_lifetime"]
    assert steps >= 3 * 512
    learner = results[-1]["learners"][SHARED]
    assert np.isfinite(learner["policy_loss"]) and np.isfinite(learner["vf_loss"])
    assert results[-1]["env_runners"]["num_episodes"] > 0

    # The trained module, masked, only ever chooses legal moves, from either seat.
    env = make_env()
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        (agent, observation), *_ = observations.items()
        batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in observation.items()}}
        logits = module.forward_inference(batch)["action_dist_inputs"][0]
        mask = observation["action_mask"] > 0
        assert torch.all(logits[~torch.as_tensor(mask)] < -1e30)
        probabilities = torch.softmax(logits, dim=0).numpy().astype(np.float64)
        action = int(rng.choice(len(probabilities), p=probabilities / probabilities.sum()))
        assert mask[action]
        observations, rewards, terminations, _, _ = env.step({agent: action})
        done = terminations["__all__"]
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
