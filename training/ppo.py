"""SB3's MaskablePPO as the config says: the vectorised training envs and the model."""

from __future__ import annotations

import signal

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

from d2r_envs.agents import PolicyAgent
from d2r_envs.single_agent import SingleAgentEnv
from training import config as cfg
from training.export import tensors_from_sb3
from training.learner_env import make_env, pool_agent
from training.networks import ScaledFlatten
from training.session import STOP_SIGNALS

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


def make_vec_env(c: cfg.Config):
    """The training envs: the config's learner env, each rewarding as `env.reward` says (quick
    evaluations and imitation keep the plain return)."""
    if c.algo.vec_env == "subproc":
        vec = SubprocVecEnv([lambda: _worker_env(c) for _ in range(c.algo.n_envs)])
    else:
        vec = DummyVecEnv([lambda: make_env(c, reward=c.env.reward) for _ in range(c.algo.n_envs)])
    vec.seed(c.seed)
    return VecMonitor(vec)


def _worker_env(c: cfg.Config) -> SingleAgentEnv:
    """A training env in a SubprocVecEnv worker, which ignores SIGINT and SIGTERM: the main process
    stops the run and closes the workers (a terminal's Ctrl-C reaches every process of the command)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    return make_env(c, reward=c.env.reward)


def new_model(c: cfg.Config, vec_env) -> MaskablePPO:
    a = c.algo
    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=a.learning_rate,
        n_steps=a.n_steps,
        batch_size=a.batch_size,
        n_epochs=a.n_epochs,
        gamma=a.gamma,
        gae_lambda=a.gae_lambda,
        clip_range=a.clip_range,
        ent_coef=a.ent_coef,
        vf_coef=a.vf_coef,
        max_grad_norm=a.max_grad_norm,
        policy_kwargs=dict(
            features_extractor_class=ScaledFlatten,
            net_arch=dict(pi=list(a.net_arch), vf=list(a.net_arch)),
            activation_fn=ACTIVATIONS[a.activation],
        ),
        seed=c.seed,
        device="cpu",
        verbose=0,
    )


def snapshot_agent(model: MaskablePPO, c: cfg.Config, name: str, engine) -> PolicyAgent:
    """A frozen numpy copy of the learner, playable as an opponent."""
    return pool_agent(tensors_from_sb3(model.policy), c, name, engine)
