"""Imitation warm start: before PPO, fit the policy to a teacher's moves and the value head to the
outcomes, from games the teacher plays in the learner's seat against the training pool.

A config's `imitate` section turns it on (teacher: an agent spec such as "heuristic"; games: how
many games to record; with several player counts, each game's count is drawn as in training). PPO then starts from a policy that already plays like the teacher, which
a sparse win/lose reward alone reaches slowly when the pool holds a strong heuristic.

With `rounds` above 1 it is DAgger (Ross et al., 2011): each further round records `games` more games
in which the policy fitted so far picks the moves and the teacher names its own move at every position,
then fits again on everything recorded. The policy so learns the teacher's answer in the positions its
own mistakes lead to, which games the teacher plays alone never show it.

A slow teacher (a search such as "rollouts:N") records on `workers` processes at once.

With a `refine_teacher` (a stronger and slower one, such as "rollouts:16:1"), `refine_rounds` more
DAgger rounds follow, of `refine_games` games each, in which that teacher labels the policy's own
positions: the cheap teacher's many games teach the policy to play, and the strong one's few correct it
where its play goes. A refining label counts `refine_weight` times a first teacher's in the fit.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys

import numpy as np
import torch
from tqdm import tqdm

from d2r_envs.agents import make_agent
from d2r_envs.single_agent import SingleAgentEnv


def record(env: SingleAgentEnv, teacher, games: int, gamma: float, seed: int, student=None,
           progress: str = "") -> dict[str, np.ndarray]:
    """The learner seat's observations, masks and the teacher's actions over `games` games, with
    each decision's discounted final return (gamma ** decisions-left * return) as the value target.
    With a `student` (a policy with SB3's `predict`), the student's moves are played instead and the
    teacher's are only recorded. With `progress`, a progress bar of that name on stderr."""
    obs, masks, actions, targets = [], [], [], []
    for g in tqdm(range(games), desc=progress, unit="game", file=sys.stderr, disable=not progress, mininterval=10):
        o, _ = env.reset(seed=seed + g)
        rng = np.random.default_rng(seed + g)  # each game from its own seed: the same games in any chunking
        start = len(obs)
        done = False
        reward = 0.0
        while not done:
            a = teacher.act(env.engine, env.state, env.seat, rng)
            mask = env.action_masks()
            obs.append(o)
            masks.append(mask)
            actions.append(a)
            if student is not None:
                a = int(student.predict(o, action_masks=mask, deterministic=True)[0])
            o, reward, terminated, truncated, _ = env.step(a)
            done = terminated or truncated
        steps = len(obs) - start
        final = env.engine.returns(env.state)[env.seat]
        targets += [final * gamma ** (steps - 1 - i) for i in range(steps)]
    return {"obs": np.asarray(obs, np.float32), "masks": np.asarray(masks, bool),
            "actions": np.asarray(actions, np.int64), "targets": np.asarray(targets, np.float32)}


_JOB: tuple | None = None  # what forked recording workers read: (config, make_env, gamma, student)


def record_games(c, make_env, games: int, gamma: float, seed: int, student=None,
                 teacher: str = "") -> dict[str, np.ndarray]:
    """`record` over c.imitate.workers processes (forked, each with its own env and teacher, a
    contiguous share of the games each); the same result as one process, in the same order.
    `teacher`: an agent spec other than c.imitate.teacher."""
    teacher = teacher or c.imitate.teacher
    workers = min(c.imitate.workers, games)
    if workers <= 1:
        return _record_share((0, games, seed, c, make_env, gamma, student, teacher))
    global _JOB
    share = -(-games // workers)
    jobs = [(start, min(share, games - start), seed) for start in range(0, games, share)]
    _JOB = (c, make_env, gamma, student, teacher)
    try:
        with multiprocessing.get_context("fork").Pool(len(jobs), initializer=_quiet_worker) as pool:
            parts = pool.map(_record_forked, jobs)
    finally:
        _JOB = None
    return {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}


def _quiet_worker() -> None:
    """A recording worker leaves stopping to the main process: Ctrl-C, which a terminal sends to every
    process of the command, is ignored, and SIGTERM (the main process ending the pool) ends it at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _record_forked(job: tuple) -> dict[str, np.ndarray]:
    torch.set_num_threads(1)
    return _record_share(job + _JOB)


def _record_share(job: tuple) -> dict[str, np.ndarray]:
    start, count, seed, c, make_env, gamma, student, spec = job
    env = make_env(c)
    teacher = env.make_agent(make_agent(spec, env.engine))  # for every player count the env draws
    what = "labelling the policy's games" if student is not None else "recording the teacher's games"
    share = f" (games {start + 1}-{start + count})" if c.imitate.workers > 1 else ""
    return record(env, teacher, count, gamma, seed=seed + start, student=student, progress=f"{spec}: {what}{share}")


def fit(policy, data: dict[str, np.ndarray], epochs: int, batch_size: int, learning_rate: float,
        vf_coef: float, seed: int, progress: str = "") -> dict[str, float]:
    """Cross-entropy on the teacher's actions (masked) plus vf_coef * MSE on the value targets; with
    `weights` in the data, both as means weighted by them. With `progress`, a progress bar of that name
    on stderr, over the epochs, with the last epoch's mean loss."""
    gen = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    targets = torch.as_tensor(data["targets"])
    weights = torch.as_tensor(data["weights"]) if "weights" in data else None
    n = len(actions)
    policy.set_training_mode(True)
    bar = tqdm(total=epochs, desc=progress, unit="epoch", file=sys.stderr, disable=not progress)
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        losses = []
        for i in range(0, n, batch_size):
            idx = order[i : i + batch_size]
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx])
            if weights is None:
                loss = -log_prob.mean() + vf_coef * torch.nn.functional.mse_loss(values.flatten(), targets[idx])
            else:
                w = weights[idx]
                loss = (w * (vf_coef * (values.flatten() - targets[idx]) ** 2 - log_prob)).sum() / w.sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        bar.set_postfix_str(f"loss {np.mean(losses):.4f}" if losses else "", refresh=False)
        bar.update()
    bar.close()
    policy.set_training_mode(False)
    return {"samples": n, "agreement": agreement(policy, data)}


def agreement(policy, data: dict[str, np.ndarray]) -> float:
    """The share of recorded positions where the policy's most likely legal move is the teacher's."""
    obs, masks, actions = torch.as_tensor(data["obs"]), data["masks"], torch.as_tensor(data["actions"])
    agree = 0
    with torch.no_grad():
        for i in range(0, len(actions), 4096):
            dist = policy.get_distribution(obs[i : i + 4096], action_masks=masks[i : i + 4096])
            agree += int((dist.distribution.probs.argmax(dim=1) == actions[i : i + 4096]).sum())
    return agree / max(len(actions), 1)


def warm_start(model, c, make_env) -> dict[str, float]:
    """Record c.imitate.games teacher games and fit the model's policy to them; then, for each further
    round, c.imitate.games games of the policy labelled by the teacher, fitting again on all of it;
    then the refining rounds, the same with c.imitate.refine_teacher and refine_games."""
    im = c.imitate
    seed = c.seed + 7_000_000
    data = record_games(c, make_env, im.games, c.algo.gamma, seed=seed)
    result = fit(model.policy, data, im.epochs, im.batch_size, im.learning_rate, c.algo.vf_coef, seed=c.seed,
                 progress=_fitting(im.teacher, 0, im.rounds))
    rounds = [result]
    for r in range(1, im.rounds):
        more = record_games(c, make_env, im.games, c.algo.gamma, seed=seed + r * im.games, student=model.policy)
        held_out = agreement(model.policy, more)  # on positions the fit has not seen
        data = {k: np.concatenate([data[k], more[k]]) for k in data}
        result = fit(model.policy, data, im.epochs, im.batch_size, im.learning_rate, c.algo.vf_coef, seed=c.seed + r,
                     progress=_fitting(im.teacher, r, im.rounds))
        rounds.append(result | {"agreement_before": held_out})
    if im.refine_teacher:
        data["weights"] = np.ones(len(data["actions"]), np.float32)
        for r in range(im.refine_rounds):
            more = record_games(c, make_env, im.refine_games, c.algo.gamma, seed=seed + 5_000_000 + r * im.refine_games,
                                student=model.policy, teacher=im.refine_teacher)
            held_out = agreement(model.policy, more)  # how often the policy already plays the strong teacher's move
            more["weights"] = np.full(len(more["actions"]), im.refine_weight, np.float32)
            data = {k: np.concatenate([data[k], more[k]]) for k in data}
            result = fit(model.policy, data, im.epochs, im.batch_size, im.learning_rate, c.algo.vf_coef,
                         seed=c.seed + im.rounds + r, progress=_fitting(im.refine_teacher, r, im.refine_rounds))
            rounds.append(result | {"agreement_before": held_out, "teacher": im.refine_teacher})
    if len(rounds) > 1:
        result = result | {"rounds": rounds}
    return result


def _fitting(teacher: str, round_: int, rounds: int) -> str:
    """The fit's progress bar name: the teacher, and the round when there are several."""
    return f"{teacher}: fitting the policy" + (f" (round {round_ + 1} of {rounds})" if rounds > 1 else "")


def describe(c, result: dict) -> str:
    """The line `d2r train` prints after the warm start."""
    refined = f", refined by {c.imitate.refine_teacher}" if c.imitate.refine_teacher else ""
    return (f"imitated {c.imitate.teacher}{refined} on {result['samples']} moves in {result['seconds']} s: "
            f"the policy's choice agrees on {result['agreement']:.1%}")
