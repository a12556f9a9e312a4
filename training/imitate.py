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

import hashlib
import io
import json
import multiprocessing
import shutil
import signal
import sys
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.opponents import OpponentError, resolve_model, shipped_model
from d2r_envs.registry import make_game
from d2r_envs.single_agent import SingleAgentEnv
from training.config import to_dict
from training.run_folder import IMITATION_GAMES, write_atomic
from training.session import Stopped


def record(env: SingleAgentEnv, teacher, games: int, gamma: float, seed: int, student=None) -> dict[str, np.ndarray]:
    """The learner seat's observations, masks and the teacher's actions over `games` games, with
    each decision's discounted final return (gamma ** decisions-left * return) as the value target.
    With a `student` (a policy with SB3's `predict`), the student's moves are played instead and the
    teacher's are only recorded."""
    obs, masks, actions, targets = [], [], [], []
    for g in range(games):
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


CHUNK = 10  # games per recorded chunk: what a journal keeps, and a worker's unit of work

_JOB: tuple | None = None  # what forked recording workers read: (config, make_env, gamma, student, teacher)
_MADE: dict = {}  # a recording process's env and teacher, made once for its chunks


def record_games(c, make_env, games: int, gamma: float, seed: int, student=None, teacher: str = "",
                 journal: Path | None = None) -> dict[str, np.ndarray]:
    """`record` over c.imitate.workers processes (forked, each with its own env and teacher), in
    chunks of CHUNK games: the same result as one process, in the same order. `teacher`: an agent spec
    other than c.imitate.teacher. With a `journal` folder, each chunk is written there when whole and
    a chunk already there is read back instead of played again: a stopped recording loses at most
    a chunk a worker. A chunk's file is named by everything that makes it (`journal_key`)."""
    teacher = teacher or c.imitate.teacher
    chunks = [(start, min(CHUNK, games - start)) for start in range(0, games, CHUNK)]
    key = journal_key(c, teacher, seed, gamma, student) if journal is not None else ""
    parts = {start: _read(_chunk_path(journal, key, start, count)) for start, count in chunks
             if journal is not None and _chunk_path(journal, key, start, count).is_file()}
    todo = [(start, count, seed) for start, count in chunks if start not in parts]
    what = "labelling the policy's games" if student is not None else "recording the teacher's games"
    bar = tqdm(total=games, initial=sum(count for start, count in chunks if start in parts), unit="game",
               desc=f"{teacher}: {what}", file=sys.stderr, mininterval=10)
    global _JOB
    _JOB = (c, make_env, gamma, student, teacher)
    try:
        workers = min(c.imitate.workers, len(todo))
        if workers <= 1:
            done = map(_record_chunk, todo)
            for (start, count, _), part in zip(todo, done):
                _keep(parts, journal, key, start, count, part, bar)
        else:
            with multiprocessing.get_context("fork").Pool(workers, initializer=_quiet_worker) as pool:
                for (start, count, _), part in zip(todo, pool.imap(_record_forked, todo)):
                    _keep(parts, journal, key, start, count, part, bar)
    finally:
        _JOB = None
        _MADE.clear()
        bar.close()
    return {k: np.concatenate([parts[start][k] for start, _ in chunks]) for k in parts[chunks[0][0]]}


def journal_key(c, teacher: str, seed: int, gamma: float, student=None) -> str:
    """What decides a chunk of recorded games, hashed: the teacher, the seed and gamma, the env's
    config (game, player counts, seats, options, the pool), the manifests of the models the teacher and
    the pool name, the installed game's and package's versions, and the student's weights (when a
    student plays)."""
    env = {k: v for k, v in to_dict(c).items() if k in ("game", "env", "opponents")}
    named = [teacher, *(p for p in c.opponents.pool if isinstance(p, str))]
    facts = {"teacher": teacher, "seed": seed, "gamma": gamma, "env": env, "d2r_envs": d2r_envs.__version__,
             "game_version": make_game(c.game).spec.version, "models": [_manifest_digest(s, c.game) for s in named]}
    digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode())
    if student is not None:
        _feed_weights(digest, student)
    return digest.hexdigest()[:16]


def _feed_weights(digest, policy) -> None:
    """Feed a policy's tensors, by name, to a hash."""
    for name, tensor in sorted(policy.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().numpy().tobytes())


def _manifest_digest(spec: str, game: str) -> list[str]:
    """The SHA-256 of the manifest of each exported model an agent spec names (an id such as
    rap_godz/ppo-v1, or "shipped"): a manifest holds its files' hashes, so a model exported again
    under the same name changes it."""
    digests = []
    for word in spec.split(":"):
        if word != "shipped" and "/" not in word:
            continue
        try:
            folder = resolve_model(shipped_model(game) if word == "shipped" else word)
        except (OpponentError, OSError, ValueError):
            continue
        digests.append(hashlib.sha256((folder / "manifest.json").read_bytes()).hexdigest())
    return digests


def _chunk_path(journal: Path, key: str, start: int, count: int) -> Path:
    return journal / f"{key}-games-{start}-{start + count - 1}.npz"


def _read(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


def _keep(parts: dict, journal: Path | None, key: str, start: int, count: int, part: dict, bar) -> None:
    """A chunk just recorded: kept in `parts`, and written to the journal (whole, or not at all)."""
    parts[start] = part
    if journal is not None:
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **part)
        write_atomic(_chunk_path(journal, key, start, count), buffer.getvalue())
    bar.update(count)


def _quiet_worker() -> None:
    """A recording worker leaves stopping to the main process: Ctrl-C, which a terminal sends to every
    process of the command, is ignored, and SIGTERM (the main process ending the pool) ends it at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _record_forked(job: tuple) -> dict[str, np.ndarray]:
    torch.set_num_threads(1)
    return _record_chunk(job)


def _record_chunk(job: tuple) -> dict[str, np.ndarray]:
    """`count` games from game `start` of the recording `_JOB` describes."""
    start, count, seed = job
    c, make_env, gamma, student, spec = _JOB
    if spec not in _MADE:
        env = make_env(c)
        _MADE[spec] = (env, env.make_agent(make_agent(spec, env.engine)))  # for every player count the env draws
    env, teacher = _MADE[spec]
    return record(env, teacher, count, gamma, seed=seed + start, student=student)


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


def warm_start(model, c, make_env, journal: Path | None = None) -> dict[str, float]:
    """Record c.imitate.games teacher games and fit the model's policy to them; then, for each further
    round, c.imitate.games games of the policy labelled by the teacher, fitting again on all of it;
    then the refining rounds, the same with c.imitate.refine_teacher and refine_games. With a `journal`
    folder, the games are recorded through it (`record_games`) and each fit's weights are kept there
    (`_fit_kept`): the same command, run again after a stop, reads back what was done and goes on."""
    im = c.imitate
    seed = c.seed + 7_000_000
    recordings: list[str] = []  # what each recording in the data was, for naming the fits (with a journal)

    def recorded(games: int, first: int, student=None, teacher: str = "") -> dict[str, np.ndarray]:
        if journal is not None:
            recordings.append(journal_key(c, teacher or im.teacher, first, c.algo.gamma, student))
        return record_games(c, make_env, games, c.algo.gamma, seed=first, student=student, teacher=teacher,
                            journal=journal)

    def fitted(data: dict[str, np.ndarray], fit_seed: int, progress: str) -> dict[str, float]:
        return _fit_kept(model.policy, data, c, fit_seed, progress, journal, recordings)

    data = recorded(im.games, seed)
    result = fitted(data, c.seed, _fitting(im.teacher, 0, im.rounds))
    rounds = [result]
    for r in range(1, im.rounds):
        more = recorded(im.games, seed + r * im.games, student=model.policy)
        held_out = agreement(model.policy, more)  # on positions the fit has not seen
        data = {k: np.concatenate([data[k], more[k]]) for k in data}
        result = fitted(data, c.seed + r, _fitting(im.teacher, r, im.rounds))
        rounds.append(result | {"agreement_before": held_out})
    if im.refine_teacher:
        data["weights"] = np.ones(len(data["actions"]), np.float32)
        for r in range(im.refine_rounds):
            more = recorded(im.refine_games, seed + 5_000_000 + r * im.refine_games, student=model.policy,
                            teacher=im.refine_teacher)
            held_out = agreement(model.policy, more)  # how often the policy already plays the strong teacher's move
            more["weights"] = np.full(len(more["actions"]), im.refine_weight, np.float32)
            data = {k: np.concatenate([data[k], more[k]]) for k in data}
            result = fitted(data, c.seed + im.rounds + r, _fitting(im.refine_teacher, r, im.refine_rounds))
            rounds.append(result | {"agreement_before": held_out, "teacher": im.refine_teacher})
    if len(rounds) > 1:
        result = result | {"rounds": rounds}
    return result


def _fit_kept(policy, data: dict[str, np.ndarray], c, seed: int, progress: str, journal: Path | None,
              recordings: list[str]) -> dict[str, float]:
    """`fit` with c.imitate's settings; with a `journal`, the fitted weights and the fit's result are kept
    there, named by the weights fitted from, the recordings fitted on and the settings that shape the fit
    (so a change to the refining rounds leaves the first rounds' fits usable), and read back instead of
    fitting again."""
    im = c.imitate
    path = None
    if journal is not None:
        settings = [im.epochs, im.batch_size, im.learning_rate, c.algo.vf_coef, seed]
        if "weights" in data:  # a refining fit: the refining labels' weight is part of what was fitted
            settings.append(im.refine_weight)
        digest = hashlib.sha256(json.dumps([recordings, settings]).encode())
        _feed_weights(digest, policy)
        path = journal / f"{digest.hexdigest()[:16]}-fit.pt"
        if path.is_file():
            kept = torch.load(path, weights_only=True)
            policy.load_state_dict(kept["weights"])
            return kept["result"]
    result = fit(policy, data, im.epochs, im.batch_size, im.learning_rate, c.algo.vf_coef, seed=seed, progress=progress)
    if path is not None:
        buffer = io.BytesIO()
        torch.save({"weights": policy.state_dict(), "result": result}, buffer)
        write_atomic(path, buffer.getvalue())
    return result


def journalled_warm_start(model, c, make_env, run_dir: Path) -> dict[str, float]:
    """`warm_start` recording through the run folder's IMITATION_GAMES: a stop there (`Stopped`) names
    that folder, from which the same command goes on. `forget_games` deletes it once the warm start is kept."""
    games = run_dir / IMITATION_GAMES
    try:
        return warm_start(model, c, make_env, journal=games)
    except Stopped as stopped:
        stopped.recorded = games if games.is_dir() else None
        raise


def forget_games(run_dir: Path) -> None:
    """Delete the warm start's recorded games (once its result is saved: nothing goes on from them)."""
    shutil.rmtree(run_dir / IMITATION_GAMES, ignore_errors=True)


def _fitting(teacher: str, round_: int, rounds: int) -> str:
    """The fit's progress bar name: the teacher, and the round when there are several."""
    return f"{teacher}: fitting the policy" + (f" (round {round_ + 1} of {rounds})" if rounds > 1 else "")


def describe(c, result: dict) -> str:
    """The line `d2r train` prints after the warm start."""
    refined = f", refined by {c.imitate.refine_teacher}" if c.imitate.refine_teacher else ""
    return (f"imitated {c.imitate.teacher}{refined} on {result['samples']} moves in {result['seconds']} s: "
            f"the policy's choice agrees on {result['agreement']:.1%}")
