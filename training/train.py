"""Self-play training with sb3-contrib's MaskablePPO.

    python -m training.train --config configs/draco_and_co/ppo.yaml [--resume CHECKPOINT.zip] [--force]

Every hyperparameter comes from the YAML (training/config.py). The learner plays one seat of
SingleAgentEnv; the other seats draw from an opponent pool that grows with frozen snapshots of
the learner. With several player counts (env.num_players a list, or all), each episode draws one
and the quick evaluations report each count. Writes to train.run_dir: progress.csv and TensorBoard
logs, checkpoints, snapshots, the final model; then exports it to models/<game>/<export.name>/ if a
name is given. An `imitate` section first fits the policy to a teacher's games (training/imitate.py).

SIGINT (Ctrl-C) or SIGTERM stops a run at the next step: it saves a checkpoint of the last whole rollout,
prints the command that resumes it and exits 130 or 143. The run folder is locked (train.lock) while
a run writes there, so a second run cannot start in it, not even with --force.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import shlex
import shutil
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # not POSIX: no lock on the run folder (two runs in one folder are then the user's to avoid)
    fcntl = None  # type: ignore[assignment]

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import configure
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor
from tqdm import tqdm

from d2r_envs.agents import PolicyAgent
from d2r_envs.single_agent import SingleAgentEnv
from d2r_envs.opponents import numpy_policy
from training import config as cfg
from training.bars import bar_note
from training.export import checkpoint_facts, export, export_target, tensors_from_sb3
from training.imitate import describe, warm_start
from training.networks import ScaledFlatten

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # stop a run with a checkpoint (train.StopSignals)


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


def pool_agent(tensors: dict, c: cfg.Config, name: str, engine) -> PolicyAgent:
    """A frozen numpy policy from exported-layout tensors, playable as an opponent."""
    policy = numpy_policy(tensors, c.algo.activation, name, observation=c.env.observation)
    return PolicyAgent(policy, engine.make_observer(**c.env.observation), name=name)


def snapshot_agent(model: MaskablePPO, c: cfg.Config, name: str, engine) -> PolicyAgent:
    """A frozen numpy copy of the learner, playable as an opponent."""
    return pool_agent(tensors_from_sb3(model.policy), c, name, engine)


def quick_eval(model: MaskablePPO | dict, c: cfg.Config, games: int, seed: int, num_players: int | None = None,
               variant: int = 0, should_stop: Callable[[], bool] | None = None) -> dict | None:
    """The learner's current policy (deterministic) against train.eval_opponent in every other seat,
    at `num_players` (default: the config's first count) in the variant numbered `variant`: its win
    share and mean return, and the opponents' win share per seat. `model`: a MaskablePPO, or the
    actor's tensors in the exported layout (another backend's learner). None when `should_stop()`
    turns true before the last game."""
    env = make_env(c, [c.train.eval_opponent], num_players=num_players or c.player_counts()[0], variant=variant)
    tensors = model if isinstance(model, dict) else tensors_from_sb3(model.policy)
    agent = pool_agent(tensors, c, "learner", env.engine)
    rng = np.random.default_rng(seed)
    wins = 0
    theirs = 0.0
    total = 0.0
    for g in range(games):
        if should_stop is not None and should_stop():
            return None
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            action = agent.act(env.engine, env.state, env.seat, rng)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        returns, best = env.engine.returns(env.state), env.engine.spec.max_return
        wins += returns[env.seat] == best
        theirs += sum(r == best for q, r in enumerate(returns) if q != env.seat) / (len(returns) - 1)
    return {"win_share": wins / games, "mean_return": total / games, "opponent_win_share": theirs / games}


def quick_evals(model: MaskablePPO | dict, c: cfg.Config, games: int, seed: int,
                should_stop: Callable[[], bool] | None = None) -> dict[Any, dict] | None:
    """`quick_eval` at each player count of the config, `games` games each: {count: result}; with
    several variants, at each count in each variant: {(count, variant): result}. None when
    `should_stop()` turns true first."""
    keys = ([(n, v) for v in range(len(c.env.variants)) for n in c.player_counts()] if len(c.env.variants) > 1
            else c.player_counts())
    results = {}
    for key in keys:
        n, v = key if isinstance(key, tuple) else (key, 0)
        results[key] = quick_eval(model, c, games, seed, num_players=n, variant=v, should_stop=should_stop)
        if results[key] is None:
            return None
    return results


def eval_line(c: cfg.Config, step: int, key: Any, result: dict, several: bool) -> str:
    """A quick evaluation's line: the games, the learner's win share beside the bar it aims at
    (training/bars.py) where the project has one against train.eval_opponent, the mean return."""
    n, v = key if isinstance(key, tuple) else (key, None)
    at = f" at {n} players" + ("" if v is None else f", variant {v} {c.env.variants[v]}") if several else ""
    note = bar_note(n, c.train.eval_opponent, result["win_share"], result["opponent_win_share"])
    return (f"step {step:,}: {c.train.eval_games} games against {c.train.eval_opponent}{at}: "
            f"win share {result['win_share']:.1%}{f' ({note})' if note else ''}, "
            f"mean return {result['mean_return']:+.3f}")


def planned_timesteps(c: cfg.Config, start: int = 0) -> int:
    """Where a run from `start` ends: SB3 collects whole rollouts of n_envs * n_steps steps until it
    reaches train.total_timesteps, so the total rounds up to the next whole rollout."""
    rollout = c.algo.n_envs * c.algo.n_steps
    remaining = max(0, c.train.total_timesteps - start)
    return start + math.ceil(remaining / rollout) * rollout


def duration(seconds: float) -> str:
    """A time span for people: "48.2 s", "2 min 19 s", "1 h 04 min"."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Eta:
    """The time a run has left, estimated: the steps left at the recent rate (over the last `window`
    seconds of training, the quick evaluations' time left out), plus the evaluations still due at the
    mean time one took. Points are rollout ends, so the first rollout (the envs and opponents warming
    up) never counts; there is no estimate before `least` seconds of rollouts are seen."""

    def __init__(self, window: float = 300.0, least: float = 20.0) -> None:
        self.window, self.least = window, least
        self.points: deque[tuple[int, float]] = deque()  # (step, training time) at rollout ends
        self.paused = 0.0  # seconds spent in quick evaluations
        self.evals: list[float] = []

    def record(self, step: int, now: float) -> None:
        """A rollout ended at `step`, at clock time `now` (seconds)."""
        t = now - self.paused
        self.points.append((step, t))
        while len(self.points) > 2 and self.points[1][1] <= t - self.window:
            self.points.popleft()

    def evaluated(self, seconds: float) -> None:
        """A quick evaluation took `seconds`."""
        self.paused += seconds
        self.evals.append(seconds)

    def seconds_left(self, step: int, total: int, evals_left: int) -> float | None:
        if len(self.points) < 2:
            return None
        (s0, t0), (s1, t1) = self.points[0], self.points[-1]
        if t1 - t0 < self.least or s1 <= s0:
            return None
        left = max(0, total - step) * (t1 - t0) / (s1 - s0)
        return left + (evals_left * sum(self.evals) / len(self.evals) if self.evals else 0.0)

    def text(self, step: int, total: int, evals_left: int) -> str:
        left = self.seconds_left(step, total, evals_left)
        if left is None:
            return "estimating the time left"
        if left < 60:
            return "under a minute left, estimated"
        minutes = int(round(left / 60))
        return f"about {minutes} min left, estimated" if minutes < 60 else \
            f"about {minutes // 60} h {minutes % 60:02d} min left, estimated"


class Progress(BaseCallback):
    """A tqdm bar over the timesteps, ending where the run ends (`planned_timesteps`), with the time
    left as `Eta` estimates it (tqdm's own, from its smoothed rate, leaves out the evaluations)."""

    FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}, {rate_fmt}{postfix}]"

    def __init__(self, total: int, start: int, eta: Eta, eval_every: int = 0) -> None:
        super().__init__()
        self.eta, self.eval_every = eta, eval_every
        self.bar = tqdm(total=total, initial=start, unit="step", dynamic_ncols=True, smoothing=0.1, mininterval=1.0,
                        bar_format=self.FORMAT, postfix="estimating the time left")

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_rollout_end(self) -> None:
        t, total = self.num_timesteps, self.bar.total
        self.eta.record(t, time.perf_counter())
        evals = total // self.eval_every - t // self.eval_every if self.eval_every > 0 else 0
        self.bar.set_postfix_str(self.eta.text(t, total, evals), refresh=False)

    def _on_training_end(self) -> None:
        self.bar.close()


class Clock:
    """A run's training time: what the checkpoint it resumed from had trained (`before`; None when the
    checkpoint does not say) plus this session's."""

    def __init__(self, before: float | None) -> None:
        self.before = before
        self.began = time.perf_counter()

    def session(self) -> float:
        return time.perf_counter() - self.began

    def total(self) -> float | None:
        return None if self.before is None else self.before + self.session()


class SelfPlay(BaseCallback):
    """Checkpoints, snapshots into the opponent pool, and quick evaluations, on step schedules; and the
    stop a signal asks for (`stop`), at the next step: `stopped_at` is then the step of the last whole
    rollout, whose policy the model still holds (the unfinished rollout is dropped)."""

    def __init__(self, c: cfg.Config, run_dir: Path, engine, stop: StopSignals, clock: Clock, eta: Eta) -> None:
        super().__init__()
        self.c, self.run_dir, self.engine = c, run_dir, engine
        self.stop, self.clock, self.eta = stop, clock, eta
        self.next = {}
        self.rollout_start = 0
        self.stopped_at: int | None = None

    def _init_callback(self) -> None:
        t = self.model.num_timesteps
        for key, every in (("checkpoint", self.c.train.checkpoint_every), ("snapshot", self.c.opponents.snapshot_every),
                           ("eval", self.c.train.eval_every)):
            self.next[key] = (t // every + 1) * every if every > 0 else None

    def _due(self, key: str, every: int) -> bool:
        if self.next[key] is None or self.num_timesteps < self.next[key]:
            return False
        self.next[key] += every
        return True

    def _on_rollout_start(self) -> None:
        self.rollout_start = self.model.num_timesteps

    def _stopping(self) -> bool:
        if self.stop.signum is None:
            return False
        self.stopped_at = self.rollout_start
        return True

    def _on_step(self) -> bool:
        if self._stopping():
            return False
        t = self.num_timesteps
        if self._due("checkpoint", self.c.train.checkpoint_every):
            save_checkpoint(self.model, self.run_dir / "checkpoints" / f"step_{t}.zip", self.clock.total())
        if self._due("snapshot", self.c.opponents.snapshot_every):
            add_snapshot(self.model, self.c, self.run_dir, t, self.engine)
        if self._due("eval", self.c.train.eval_every):
            began = time.perf_counter()
            results = quick_evals(self.model, self.c, self.c.train.eval_games, seed=10_000 + t,
                                  should_stop=lambda: self.stop.signum is not None)
            self.eta.evaluated(time.perf_counter() - began)
            if results is None:
                return not self._stopping()
            several = len(results) > 1
            for key, result in results.items():  # one count: eval/win_share; several: eval/<n>p[/v<i>]/win_share
                n, v = key if isinstance(key, tuple) else (key, None)
                where = f"{n}p" if v is None else f"{n}p/v{v}"
                prefix = f"eval/{where}/" if several else "eval/"
                self.logger.record(prefix + "win_share", result["win_share"])
                self.logger.record(prefix + "mean_return", result["mean_return"])
                tqdm.write(eval_line(self.c, t, key, result, several))
        return True


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary name in the same folder, renamed over `path` once
    whole: a stop, a crash or a full disk mid-write leaves the earlier file (or none), never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as f:  # open(): the umask's mode, like every other output
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def save_checkpoint(model: MaskablePPO, path: Path, seconds: float | None) -> Path:
    """`model` as an SB3 zip at `path` (`write_atomic`), recording the training time so far (`seconds`,
    read back on resume as `model.training_seconds`)."""
    model.training_seconds = seconds
    buffer = io.BytesIO()
    model.save(buffer)
    write_atomic(path, buffer.getvalue())
    return path


def add_snapshot(model: MaskablePPO, c: cfg.Config, run_dir: Path, step: int, engine) -> None:
    """Save the learner's weights and put a frozen copy into every env's pool."""
    from safetensors.numpy import save

    folder = run_dir / "snapshots"
    # bytes written by Python, so the file gets the umask's mode like every other output (save_file: 0600)
    write_atomic(folder / f"step_{step}.safetensors", save(tensors_from_sb3(model.policy)))
    agent = snapshot_agent(model, c, f"snapshot@{step}", engine)
    keep = len(c.opponents.pool)
    model.get_env().env_method("add_opponent", agent, max_pool=keep + c.opponents.max_snapshots, keep=keep)


def restore_snapshots(model: MaskablePPO, c: cfg.Config, run_dir: Path, engine) -> None:
    """On resume, put the saved snapshots back into the pool, oldest first."""
    from safetensors.numpy import load_file

    paths = sorted((run_dir / "snapshots").glob("step_*.safetensors"), key=lambda p: int(p.stem[5:]))
    keep = len(c.opponents.pool)
    for path in paths[-c.opponents.max_snapshots :]:
        agent = pool_agent(load_file(str(path)), c, f"snapshot@{path.stem[5:]}", engine)
        model.get_env().env_method("add_opponent", agent, max_pool=keep + c.opponents.max_snapshots, keep=keep)


# What a run writes into train.run_dir; a fresh run with force=True clears these (and nothing else).
# (`final`: an RLlib run's final checkpoint, a folder.)
RUN_OUTPUTS = ("config.json", "progress.csv", "summary.json", "imitation.json", "final.zip", "final", "checkpoints",
               "snapshots")


class RunError(ValueError):
    """A run that cannot start: its outputs would overwrite or mix with earlier ones, or cannot be written."""


def preflight(c: cfg.Config, resume: str | None = None, force: bool = False) -> None:
    """Every check on the run's outputs that can fail, made before the first step, all reported at
    once: the checkpoint to resume (there, whole, and of this config's spaces), the export's name and
    folder (a model already there is refused unless `force`), and a run folder that another run is
    writing (refused even with `force`), that already holds an earlier run (refused for a fresh run
    unless `force`) or that cannot be written."""
    problems = []
    if resume is not None and not (Path(resume).is_dir() if c.backend == "rllib" else Path(resume).is_file()):
        kind = "RLlib checkpoint folder" if c.backend == "rllib" else "checkpoint"
        problems.append(f"--resume {resume}: no such {kind}")
    elif resume is not None and c.backend == "sb3":
        problem = checkpoint_problem(c, resume)
        if problem:
            problems.append(f"--resume {problem}")
    if c.export.name:
        try:
            export_target(c.game, c.export.name, c.export.out_root, overwrite=force,
                          how="overwrite it with --force, or export under another name with --export-name NAME "
                          "(or export.name in the config)")
        except (ValueError, OSError) as err:
            problems.append(f"export: {err}")
    run_dir = Path(c.train.run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        problems.append(f"train.run_dir {run_dir} exists and is not a folder")
    else:
        earlier = sorted([name for name in RUN_OUTPUTS if (run_dir / name).exists()]
                         + [p.name for p in run_dir.glob("events.out.tfevents*")])
        holder = lock_holder(run_dir)
        if holder is not None:
            problems.append(in_use(run_dir, holder))
        elif earlier and resume is None and not force:
            problems.append(
                f"train.run_dir {run_dir} already holds a run ({', '.join(earlier[:4])}{', ...' if len(earlier) > 4 else ''}); "
                "continue it with --resume CHECKPOINT, start afresh there with --force (its checkpoints, snapshots "
                "and logs are deleted), or set another train.run_dir"
            )
        existing = run_dir
        while not existing.exists():
            existing = existing.parent
        if not os.access(existing, os.W_OK | os.X_OK):
            problems.append(f"train.run_dir {run_dir}: {existing} is not writable")
    if problems:
        raise RunError("; and ".join(problems) if len(problems) < 2 else
                       "the run cannot start:\n  - " + "\n  - ".join(problems))


def clear_run_dir(run_dir: Path) -> None:
    """Delete an earlier run's outputs (RUN_OUTPUTS and TensorBoard files) from `run_dir`."""
    for name in RUN_OUTPUTS:
        path = run_dir / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for path in run_dir.glob("events.out.tfevents*"):
        path.unlink()


def prepare_run(c: cfg.Config, resume: str | None, force: bool) -> Path:
    """Every output check first (`preflight`), then the run folder (cleared with `force`, unless
    resuming) with the config in it, and torch's threads: what each backend does before training."""
    preflight(c, resume, force)
    run_dir = Path(c.train.run_dir)
    if force and resume is None:
        clear_run_dir(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(cfg.to_dict(c), indent=2), encoding="utf-8")
    torch.set_num_threads(c.train.torch_threads)
    return run_dir


def checkpoint_problem(c: cfg.Config, path: str) -> str | None:
    """What makes `path` unfit to resume `c` from, in one line (None: nothing): a file that is not a
    whole SB3 checkpoint (`checkpoint_facts`), or one whose observation or actions are not this config's."""
    try:
        facts = checkpoint_facts(path)
    except ValueError as err:
        return str(err)
    env = make_env(c)
    size, actions = int(env.observation_space.shape[0]), int(env.action_space.n)
    if (facts["obs_size"], facts["num_actions"]) != (size, actions):
        return (f"{path}: a checkpoint of another game or observation ({facts['obs_size']} observation values, "
                f"{facts['num_actions']} actions; this config's env has {size} and {actions}); resume with a "
                "checkpoint of this config's run")
    return None


LOCK_FILE = "train.lock"  # in train.run_dir: flock'ed while a run writes there, naming its process


def lock_holder(run_dir: Path) -> dict | None:
    """The process holding `run_dir`'s lock, as it wrote itself there ({"pid", "host", "started"}, {}
    when it has not yet), or None when no other process holds it. The OS releases a lock with its
    process, so a run that crashed or was killed leaves none."""
    path = run_dir / LOCK_FILE
    if fcntl is None or not path.is_file():
        return None
    with open(path, "rb") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            return None
        except OSError:
            pass
        try:
            holder = json.loads(f.read() or b"{}")
        except ValueError:
            holder = {}
    holder = holder if isinstance(holder, dict) else {}
    if holder.get("pid") == os.getpid() and holder.get("host") == socket.gethostname():
        return None  # this process: the run in hand
    return holder


def in_use(run_dir: Path, holder: dict) -> str:
    """Why a run cannot start in `run_dir` while `holder` (`lock_holder`) writes there."""
    pid, host, started = holder.get("pid"), holder.get("host"), holder.get("started")
    who = (f"pid {pid}" if pid else "a process") + (f" on {host}" if host else "") + (f", started {started}" if started else "")
    stop = f"kill -INT {pid}" + (f" on {host}" if host and host != socket.gethostname() else "") if pid else "stopping it"
    return (f"train.run_dir {run_dir} is in use by another training run ({who}); wait for it to end, stop it "
            f"({stop}: it saves a checkpoint first), or set another train.run_dir; --force does not override this")


@contextlib.contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold `run_dir`'s lock for the block: an OS lock (fcntl.flock) on train.lock, which names this
    process while it holds it. RunError when another process holds it."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir / LOCK_FILE, "a+b") as f:
        if fcntl is not None:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.seek(0)
                try:
                    holder = json.loads(f.read() or b"{}")
                except ValueError:
                    holder = {}
                raise RunError(in_use(run_dir, holder if isinstance(holder, dict) else {})) from None
        me = {"pid": os.getpid(), "host": socket.gethostname(),
              "started": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        f.truncate(0)  # appending from an empty file: the lock file holds this process alone
        f.write(json.dumps(me).encode() + b"\n")
        f.flush()
        try:
            yield
        finally:
            f.truncate(0)


class Stopped(Exception):
    """A run stopped by the signal `signum`. `checkpoint`: the checkpoint saved to resume from, at `step`
    (None when it stopped before PPO began: nothing to resume from); `session_steps` and
    `session_seconds`: what this session trained; `seconds`: the run's training time in all (None: unknown)."""

    def __init__(self, signum: int, checkpoint: Path | None = None, step: int = 0, session_steps: int = 0,
                 session_seconds: float = 0.0, seconds: float | None = None) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum, self.checkpoint, self.step = signum, checkpoint, step
        self.session_steps, self.session_seconds, self.seconds = session_steps, session_seconds, seconds

    @property
    def exit_status(self) -> int:
        """The shell's status for a command a signal ended: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum


class StopSignals:
    """SIGINT and SIGTERM while a run trains (in the main thread; the handlers before it are restored
    after). Before PPO begins (`at_once`: loading, the imitation warm start) a signal stops the run at
    once by raising `Stopped`, as nothing there can be resumed; then the first one only sets `signum`,
    and training stops at its next step (`SelfPlay`) to save a checkpoint. Later ones are noted and
    otherwise ignored, so the checkpoint is written whole."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.at_once = True
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)

    def claim(self) -> None:
        """Install the handlers again, in the main thread: a library may replace them while it starts
        (`ray.init` sets its own SIGTERM handler, which would end the run without a checkpoint)."""
        if self._previous:
            for signum in STOP_SIGNALS:
                signal.signal(signum, self._handle)

    def _handle(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        if self.signum is not None:
            _notice(f"{name}: already stopping (a checkpoint is written to a temporary name and renamed when whole; "
                    f"kill -9 {os.getpid()} ends the run now and keeps the checkpoints already written)")
            return
        self.signum = signum
        if self.at_once:
            self.at_once = False
            raise Stopped(signum)
        _notice(f"{name}: stopping after the current step, then saving a checkpoint to resume from")


def _notice(text: str) -> None:
    """A line on stderr from a signal handler: os.write, as print may be in the middle of a write."""
    try:
        os.write(sys.stderr.fileno(), f"\n{text}\n".encode())
    except (OSError, ValueError, AttributeError):
        pass


def train(c: cfg.Config, resume: str | None = None, raw_config: dict | None = None, force: bool = False) -> Path:
    """Train, then export if export.name is set. Every output check (`preflight`) runs first, then the
    run folder is locked for the run (`run_lock`); `force` overwrites an exported model of the same
    name and clears an earlier run's outputs. SIGINT or SIGTERM stops a run: it saves a checkpoint
    and raises `Stopped`. A config with `backend: rllib` is trained by `training.rllib.train.train`
    (its checkpoints folders)."""
    preflight(c, resume, force)
    with run_lock(Path(c.train.run_dir)), StopSignals() as stop:
        if c.backend == "rllib":
            from training.rllib import train as rllib_train

            return rllib_train.train(c, resume=resume, raw_config=raw_config, force=force, stop=stop)
        return _train_sb3(c, resume, raw_config, force, stop)


def _train_sb3(c: cfg.Config, resume: str | None, raw_config: dict | None, force: bool, stop: StopSignals) -> Path:
    run_dir = prepare_run(c, resume, force)
    set_random_seed(c.seed)
    vec_env = make_vec_env(c)
    try:
        engine = make_env(c).engine
        if resume:
            try:
                model = MaskablePPO.load(resume, env=vec_env, device="cpu")
            except Exception as err:  # SB3 raises what its parts raise (pickle, torch, its own asserts)
                raise RunError(f"--resume {resume}: cannot load the checkpoint: {type(err).__name__}: {err}") from None
            restore_snapshots(model, c, run_dir, engine)
        else:
            model = new_model(c, vec_env)
            model.training_seconds = 0.0
            if c.imitate.teacher:
                began = time.perf_counter()
                result = warm_start(model, c, make_env)
                stop.at_once = False  # from here a signal stops at the next step, with a checkpoint
                result["seconds"] = round(time.perf_counter() - began, 1)
                write_atomic(run_dir / "imitation.json", json.dumps(result, indent=2).encode())
                save_checkpoint(model, run_dir / "checkpoints" / "imitation.zip", 0.0)  # the warm start alone, before PPO
                print(describe(c, result))
        stop.at_once = False
        return _learn(model, c, run_dir, engine, resume, raw_config, force, stop)
    finally:
        vec_env.close()


def _learn(model: MaskablePPO, c: cfg.Config, run_dir: Path, engine, resume: str | None, raw_config: dict | None,
           force: bool, stop: StopSignals) -> Path:
    """PPO from the model's step to train.total_timesteps; then final.zip, summary.json and the export.
    The training time adds up across sessions: the checkpoint resumed from records the time before."""
    model.set_logger(configure(str(run_dir), ["csv", "tensorboard"]))
    start = model.num_timesteps
    remaining = max(0, c.train.total_timesteps - start)
    clock, eta = Clock(getattr(model, "training_seconds", None)), Eta()
    selfplay = SelfPlay(c, run_dir, engine, stop, clock, eta)
    model.learn(
        total_timesteps=remaining,
        callback=CallbackList([Progress(planned_timesteps(c, start), start, eta, c.train.eval_every), selfplay]),
        reset_num_timesteps=not resume,
    )
    if selfplay.stopped_at is not None:
        model.num_timesteps = selfplay.stopped_at  # the last whole rollout: the policy the model holds
        session, seconds = clock.session(), clock.total()
        checkpoint = save_checkpoint(model, run_dir / "checkpoints" / f"step_{model.num_timesteps}.zip", seconds)
        raise Stopped(stop.signum, checkpoint, step=model.num_timesteps, session_steps=model.num_timesteps - start,
                      session_seconds=session, seconds=seconds)
    final = save_checkpoint(model, run_dir / "final.zip", clock.total())
    session_summary(run_dir, clock, start, model.num_timesteps, resume)
    print(f"final model: {final}")
    if c.export.name:
        out = export(model, c.game, c.export.name, config=raw_config or cfg.to_dict(c), seed=c.seed,
                     out_root=c.export.out_root, overwrite=force,
                     player_counts=c.player_counts(), player_weights=c.player_weights())
        print(f"exported to {out}")
    return final


def session_summary(run_dir: Path, clock: Clock, start: int, end: int, resume: str | None, **extra: Any) -> dict:
    """Write summary.json (`write_atomic`) for a session that trained from step `start` to `end`: the
    run's steps and training time in all (None: unknown), this session's, the checkpoint it resumed
    from, then `extra`; and print this session's, and after a resume the whole run's."""
    session, seconds = clock.session(), clock.total()
    steps = end - start
    summary = {"timesteps": end, "seconds": None if seconds is None else round(seconds, 1),
               "session_timesteps": steps, "session_seconds": round(session, 1),
               "steps_per_second": round(steps / max(session, 1e-9), 1), "resumed_from": resume,
               "seconds_before_resume": None if clock.before is None or not resume else round(clock.before, 1),
               **extra}
    write_atomic(run_dir / "summary.json", json.dumps(summary, indent=2).encode())
    print(f"trained {steps:,} steps in {duration(session)} ({summary['steps_per_second']:,.0f} steps/s)"
          + (f", resumed at step {start:,}" if resume else ""))
    if resume:
        before = ("the time before this session is unknown: its checkpoint does not record it" if seconds is None
                  else f"{duration(clock.before)} of it before this session")
        took = "" if seconds is None else f" in {duration(seconds)}"
        print(f"the run in all: {end:,} steps{took} ({before})")
    return summary


def resume_command(args: argparse.Namespace, checkpoint: Path | str | None) -> str:
    """The command that continues a stopped run from `checkpoint` (None: that starts it again)."""
    parts = [*shlex.split(getattr(args, "train_prog", None) or "d2r train"), "--config", args.config]
    parts += ["--resume", str(checkpoint)] if checkpoint is not None else []
    parts += ["--export-name", args.export_name] if args.export_name is not None else []
    parts += ["--force"] if args.force or checkpoint is None else []
    return shlex.join(parts)


def stopped_message(stop: Stopped, args: argparse.Namespace) -> str:
    """What `d2r train` says when a signal stopped it: where the checkpoint is and how to resume."""
    name = signal.Signals(stop.signum).name
    if stop.checkpoint is None:
        again = resume_command(args, args.resume)
        return (f"\nstopped by {name} before training began: nothing new to resume from\n"  # a bar may be open
                f"to start again: {again}")
    total = "" if stop.seconds is None else f"; {duration(stop.seconds)} of training in all"
    return (f"stopped by {name} at step {stop.step:,} (this session: {stop.session_steps:,} steps in "
            f"{duration(stop.session_seconds)}{total}); checkpoint: {stop.checkpoint}\n"
            f"to resume: {resume_command(args, stop.checkpoint)}")


def run(args: argparse.Namespace) -> int:
    """Load and check the config and every output before the first step; then train. The exit status:
    0 when the run finished, 2 when it was refused, 130 or 143 when SIGINT or SIGTERM stopped it."""
    import yaml

    try:
        raw = yaml.safe_load(Path(args.config).read_text(encoding="utf-8"))
        if args.export_name is not None and isinstance(raw, dict):
            raw = {**raw, "export": {**(raw.get("export") or {}), "name": args.export_name}}
        c = cfg.from_dict(raw or {})
    except FileNotFoundError:
        print(f"error: {args.config}: no such config file", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as err:
        print(f"error: {args.config}: cannot read the config: {err}", file=sys.stderr)
        return 2
    except yaml.YAMLError as err:
        print(f"error: {args.config}: not valid YAML: {err}", file=sys.stderr)
        return 2
    except cfg.ConfigError as err:
        print(f"error: {args.config}: {err}", file=sys.stderr)
        return 2
    try:
        preflight(c, args.resume, args.force)
    except RunError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if c.backend == "rllib":
        try:
            from training.rllib import train as rllib_train  # noqa: F401
        except ImportError as err:
            from training.ray_cluster import INSTALL_RLLIB

            print(f"error: {args.config}: backend: rllib needs Ray RLlib ({err}); install it with: {INSTALL_RLLIB}",
                  file=sys.stderr)
            return 2
    try:
        train(c, resume=args.resume, raw_config=raw, force=args.force)
    except RunError as err:  # found only at the start: another run took the folder, a checkpoint that does not load
        print(f"error: {err}", file=sys.stderr)
        return 2
    except Stopped as stop:
        print(stopped_message(stop, args), file=sys.stderr)
        return stop.exit_status
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m training.train ARGS`, the same command as `d2r train ARGS`."""
    from training import commands

    p = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
    commands.add_train_arguments(p)
    args = p.parse_args(argv)
    args.train_prog = "python -m training.train"
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
