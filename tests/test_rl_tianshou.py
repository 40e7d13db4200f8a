"""Tianshou 2.x multi-agent training on the PettingZoo AEC env: a DQN learner against a
random policy, through ``PettingZooEnv`` and ``MultiAgentOffPolicyAlgorithm``."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tianshou.algorithm import (
    DQN,
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from connectn_env import connect_n_v0
from connectn_env.games import REGISTRY

pytestmark = pytest.mark.slow


def tictactoe_env() -> PettingZooEnv:
    return PettingZooEnv(connect_n_v0.env(**REGISTRY["tictactoe"].fixed))


def test_dqn_against_random_policy_trains_and_evaluates():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    np.random.seed(0)
    env = tictactoe_env()
    net = Net(
        state_shape=env.observation_space["observation"].shape,
        action_shape=env.action_space.n,
        hidden_sizes=[64, 64],
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.9,
        target_update_freq=100,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)
    train_envs = DummyVectorEnv([tictactoe_env for _ in range(4)])
    test_envs = DummyVectorEnv([tictactoe_env for _ in range(4)])
    train_envs.seed(0)
    test_envs.seed(1)
    train_collector = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(5000, 4), exploration_noise=True
    )
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=256)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=2,
            epoch_num_steps=1000,
            collection_step_num_env_steps=16,
            test_step_num_episodes=20,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.25,
            multi_agent_return_reduction=lambda returns: returns[:, 0],
            verbose=False,
            show_progress=False,
        )
    )
    assert result.update_step > 0 and result.train_step >= 2000
    stats = test_collector.collect(n_episode=40, reset_before_collect=True)
    assert stats.n_collected_episodes == 40
    returns = stats.returns
    assert returns.shape == (40, 2)
    np.testing.assert_array_equal(returns.sum(axis=1), 0.0)  # zero-sum, +1 / -1 / 0
    assert set(np.unique(returns)) <= {-1.0, 0.0, 1.0}
