"""Our envs as RLlib envs, with the observation RLlib's module reads: {"observation", "action_mask"}.

- `LearnerEnv` (rllib.mode: pool): the learner's env of the config (`training.learner_env.make_env`, a
  `d2r_envs.single_agent.SingleAgentEnv` against opponents.pool), its mask put beside the observation.
  It is a single-agent env, so RLlib's single-agent env runners run `algo.n_envs` of them vectorised.
- `SelfPlayEnv` (rllib.mode: self_play): the AEC env (`d2r_envs.raw_env`) as an RLlib `MultiAgentEnv`,
  every seat an agent (`player_0`...), all mapped to one shared policy. Turn-based: each step returns the
  observation of the seat to move only; a seat's rewards wait until it next observes (PettingZoo's
  cumulative rewards), and when the game ends every seat that played gets its last observation, its
  reward and the end.

Neither holds game logic: both drive the engines through the envs `d2r_envs` already has. The config
travels to the env runners as the frozen `training.config.Config` in `env_config["config"]`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import d2r_envs
from training import config as cfg
from training.learner_env import make_env

LEARNER_ENV = "d2r_learner"
SELF_PLAY_ENV = "d2r_self_play"


def masked_space(box: spaces.Box, num_actions: int) -> spaces.Dict:
    """The AEC env's own observation space: the same Dict `d2r_envs.make` gives."""
    return spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (num_actions,), np.int8)})


class LearnerEnv(gymnasium.Wrapper):
    """`SingleAgentEnv` with Dict observations; `unwrapped` is the SingleAgentEnv (its pool, its engine)."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = masked_space(env.observation_space, int(env.action_space.n))

    def _obs(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": obs, "action_mask": self.env.unwrapped.action_masks().astype(np.int8)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        return self._obs(obs), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._obs(obs), float(reward), terminated, truncated, info


def make_learner_env(env_config: dict) -> LearnerEnv:
    c = env_config["config"]
    env = make_env(c, reward=c.env.reward)  # the training env: it rewards as env.reward says, as SB3's do
    env.illegal_action = "raise"  # a sampled illegal action would be a broken mask: an error, never a quiet loss
    return LearnerEnv(env)


class SelfPlayEnv(MultiAgentEnv):
    """Every seat of the config's game is an agent of one shared policy. Player counts and variants
    are drawn per episode as the learner's env draws them (weights from the config), from a stream
    seeded by `reset(seed=...)`; each game is one AEC env, reset with a seed from that stream."""

    def __init__(self, c: cfg.Config) -> None:
        super().__init__()
        self.counts, self.variants = c.player_counts(), c.variants()
        self.count_p = np.asarray(c.player_weights()) / sum(c.player_weights())
        self.variant_p = np.asarray(c.variant_weights()) / sum(c.variant_weights())
        self.envs = {(n, v): d2r_envs.raw_env(c.game, num_players=n, observation=c.env.observation, **opts)
                     for v, opts in enumerate(self.variants) for n in self.counts}
        widest = max(self.counts)
        first = self.envs[(widest, 0)]
        self.possible_agents = list(first.possible_agents)
        space = first.observation_space(self.possible_agents[0])
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: first.action_space(self.possible_agents[0]) for a in self.possible_agents}
        self.observation_space = spaces.Dict(self.observation_spaces)
        self.action_space = spaces.Dict(self.action_spaces)
        self.agents: list[str] = []
        self.env = first
        self._rng = np.random.default_rng(c.seed)
        self._pending: dict[str, float] = {}
        self._seen: set[str] = set()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        n = self.counts[int(self._rng.choice(len(self.counts), p=self.count_p))]
        v = int(self._rng.choice(len(self.variants), p=self.variant_p))
        self.env = self.envs[(n, v)]
        self.env.reset(seed=int(self._rng.integers(2**31)))
        self.agents = list(self.env.agents)
        self._pending = dict.fromkeys(self.agents, 0.0)
        self._seen = set()
        return self._observe_mover(), {}

    def _observe_mover(self) -> dict[str, Any]:
        agent = self.env.agent_selection
        self._seen.add(agent)
        return {agent: self.env.observe(agent)}

    def step(self, action_dict: dict[str, Any]):
        env = self.env
        mover = env.agent_selection
        env.step(int(action_dict[mover]))
        for agent, r in env.rewards.items():
            self._pending[agent] += float(r)
        ended = env.terminations[mover] or env.truncations[mover]
        if not ended:
            obs = self._observe_mover()
            agent = next(iter(obs))
            rewards = {agent: self._pending[agent]}
            self._pending[agent] = 0.0
            return obs, rewards, {"__all__": False}, {"__all__": False}, {}
        truncated = bool(env.truncations[mover])
        players = [a for a in self.agents if a in self._seen]
        obs = {a: env.observe(a) for a in players}
        rewards = {a: self._pending[a] for a in players}
        done = {a: not truncated for a in players}
        cut = {a: truncated for a in players}
        self.agents = []
        return obs, rewards, {**done, "__all__": not truncated}, {**cut, "__all__": truncated}, {}


def make_self_play_env(env_config: dict) -> SelfPlayEnv:
    return SelfPlayEnv(env_config["config"])


def register() -> None:
    """Register both envs with Ray Tune's registry (the names PPOConfig.environment takes)."""
    from ray.tune.registry import register_env

    register_env(LEARNER_ENV, make_learner_env)
    register_env(SELF_PLAY_ENV, make_self_play_env)


def learner_envs(env_runner: Any) -> list:
    """The SingleAgentEnvs inside an env runner (its vector env's sub-envs, unwrapped)."""
    env = getattr(env_runner, "env", None)
    if env is None:
        return []
    subs = getattr(env, "envs", None) or getattr(getattr(env, "unwrapped", None), "envs", None) or [env]
    out = []
    for sub in subs:
        inner = getattr(sub, "unwrapped", sub)
        if hasattr(inner, "add_opponent"):
            out.append(inner)
    return out
