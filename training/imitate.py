"""Imitation warm start: before PPO, fit the policy to a teacher's moves and the value head to the
outcomes, from games the teacher plays in the learner's seat against the training pool.

A config's `imitate` section turns it on (teacher: an agent spec such as "heuristic"; games: how
many games to record; with several player counts, each game's count is drawn as in training). PPO then starts from a policy that already plays like the teacher, which
a sparse win/lose reward alone reaches slowly when the pool holds a strong heuristic.
"""

from __future__ import annotations

import numpy as np
import torch

from d2r_envs.agents import make_agent
from d2r_envs.single_agent import SingleAgentEnv


def record(env: SingleAgentEnv, teacher, games: int, gamma: float, seed: int) -> dict[str, np.ndarray]:
    """The learner seat's observations, masks and the teacher's actions over `games` games, with
    each decision's discounted final return (gamma ** decisions-left * return) as the value target."""
    rng = np.random.default_rng(seed)
    obs, masks, actions, targets = [], [], [], []
    for g in range(games):
        o, _ = env.reset(seed=seed + g)
        start = len(obs)
        done = False
        reward = 0.0
        while not done:
            a = teacher.act(env.engine, env.state, env.seat, rng)
            obs.append(o)
            masks.append(env.action_masks())
            actions.append(a)
            o, reward, terminated, truncated, _ = env.step(a)
            done = terminated or truncated
        steps = len(obs) - start
        final = env.engine.returns(env.state)[env.seat]
        targets += [final * gamma ** (steps - 1 - i) for i in range(steps)]
    return {"obs": np.asarray(obs, np.float32), "masks": np.asarray(masks, bool),
            "actions": np.asarray(actions, np.int64), "targets": np.asarray(targets, np.float32)}


def fit(policy, data: dict[str, np.ndarray], epochs: int, batch_size: int, learning_rate: float,
        vf_coef: float, seed: int) -> dict[str, float]:
    """Cross-entropy on the teacher's actions (masked) plus vf_coef * MSE on the value targets."""
    gen = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    targets = torch.as_tensor(data["targets"])
    n = len(actions)
    policy.set_training_mode(True)
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        for i in range(0, n, batch_size):
            idx = order[i : i + batch_size]
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx])
            loss = -log_prob.mean() + vf_coef * torch.nn.functional.mse_loss(values.flatten(), targets[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        agree = 0
        for i in range(0, n, 4096):
            dist = policy.get_distribution(obs[i : i + 4096], action_masks=masks[i : i + 4096].numpy())
            agree += int((dist.distribution.probs.argmax(dim=1) == actions[i : i + 4096]).sum())
    return {"samples": n, "agreement": agree / max(n, 1)}


def warm_start(model, c, make_env) -> dict[str, float]:
    """Record c.imitate.games teacher games and fit the model's policy to them."""
    im = c.imitate
    env = make_env(c)
    teacher = env.make_agent(make_agent(im.teacher, env.engine))  # for every player count the env draws
    data = record(env, teacher, im.games, c.algo.gamma, seed=c.seed + 7_000_000)
    return fit(model.policy, data, im.epochs, im.batch_size, im.learning_rate, c.algo.vf_coef, seed=c.seed)
