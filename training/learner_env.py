"""The learner's env of a training config, and frozen policies as the opponents in it.

`make_env` is the one place a config becomes a `d2r_envs.single_agent.SingleAgentEnv`: SB3's training
envs, RLlib's (training/rllib/envs.py), the imitation's recordings and the quick evaluations all use it.
"""

from __future__ import annotations

from d2r_envs.agents import PolicyAgent
from d2r_envs.opponents import numpy_policy
from d2r_envs.single_agent import SingleAgentEnv
from training import config as cfg


def make_env(c: cfg.Config, opponents: list | None = None, num_players: int | None = None,
             variant: int | None = None, reward: str = "return") -> SingleAgentEnv:
    """The learner's env of the config: its player counts and variants (one of each drawn per
    episode when there are several), or only `num_players` / the variant numbered `variant` when given."""
    counts = [num_players] if num_players is not None else c.player_counts()
    several = len(counts) > 1
    mixed = variant is None and len(c.variants()) > 1
    return SingleAgentEnv(
        c.game,
        counts if several else counts[0],
        learner_seat=c.env.learner_seat,
        opponents=opponents or list(c.opponents.pool),
        player_weights=c.player_weights() if several else None,
        variants=list(c.env.variants) if mixed else None,
        variant_weights=c.variant_weights() if mixed else None,
        reward=reward,
        observation=c.env.observation,
        **(c.env.options if mixed else c.variants()[variant or 0]),
    )


def pool_agent(tensors: dict, c: cfg.Config, name: str, engine) -> PolicyAgent:
    """A frozen numpy policy from exported-layout tensors, playable as an opponent."""
    policy = numpy_policy(tensors, c.algo.activation, name, observation=c.env.observation)
    return PolicyAgent(policy, engine.make_observer(**c.env.observation), name=name)
