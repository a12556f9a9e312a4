"""`d2r train`, and self-play training with sb3-contrib's MaskablePPO (a config with `backend: rllib` is
trained by training/rllib/train.py, one with `backend: openspiel` by training/openspiel/train.py).

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

What both backends share lives below this module: the run folder's checks, lock and atomic writes
(run_folder.py), the session's clock, stop and summary (session.py), the learner's env (learner_env.py)
and the quick evaluations (quick_eval.py); the SB3 model and its envs are ppo.py.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import time
from collections import deque
from pathlib import Path

import yaml
from safetensors.numpy import load_file
from safetensors.numpy import save as save_tensors
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import configure
from stable_baselines3.common.utils import set_random_seed
from tqdm import tqdm

from d2r_envs.opponents import load_opponent
from training import commands
from training import config as cfg
from training.export import export, load_actor, tensors_from_sb3
from training.imitate import describe, forget_games, journalled_warm_start
from training.learner_env import make_env, pool_agent
from training.ppo import make_vec_env, new_model, snapshot_agent
from training.quick_eval import eval_line, quick_evals
from training.run_folder import RunError, preflight, prepare_run, run_lock, write_atomic
from training.session import Clock, Stopped, StopSignals, session_summary, stopped_message


def planned_timesteps(c: cfg.Config, start: int = 0) -> int:
    """Where a run from `start` ends: SB3 collects whole rollouts of n_envs * n_steps steps until it
    reaches train.total_timesteps, so the total rounds up to the next whole rollout."""
    rollout = c.algo.n_envs * c.algo.n_steps
    remaining = max(0, c.train.total_timesteps - start)
    return start + math.ceil(remaining / rollout) * rollout


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
            save_checkpoint(self.model, self.run_dir / "checkpoints" / f"step_{t}.zip", self.clock)
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


def save_checkpoint(model: MaskablePPO, path: Path, clock: Clock | None) -> Path:
    """`model` as an SB3 zip at `path` (`write_atomic`), recording the training time so far, of the wall
    clock and of the CPU (`clock`'s totals; None: the warm start alone, no PPO yet), read back on resume as
    `model.training_seconds` and `model.training_cpu_seconds`."""
    model.training_seconds = 0.0 if clock is None else clock.total()
    model.training_cpu_seconds = 0.0 if clock is None else clock.cpu_total()
    buffer = io.BytesIO()
    model.save(buffer)
    write_atomic(path, buffer.getvalue())
    return path


def add_snapshot(model: MaskablePPO, c: cfg.Config, run_dir: Path, step: int, engine) -> None:
    """Save the learner's weights and put a frozen copy into every env's pool."""
    folder = run_dir / "snapshots"
    # bytes written by Python, so the file gets the umask's mode like every other output (save_file: 0600)
    write_atomic(folder / f"step_{step}.safetensors", save_tensors(tensors_from_sb3(model.policy)))
    agent = snapshot_agent(model, c, f"snapshot@{step}", engine)
    keep = len(c.opponents.pool)
    model.get_env().env_method("add_opponent", agent, max_pool=keep + c.opponents.max_snapshots, keep=keep)


def restore_snapshots(model: MaskablePPO, c: cfg.Config, run_dir: Path, engine) -> None:
    """On resume, put the saved snapshots back into the pool, oldest first."""
    paths = sorted((run_dir / "snapshots").glob("step_*.safetensors"), key=lambda p: int(p.stem[5:]))
    keep = len(c.opponents.pool)
    for path in paths[-c.opponents.max_snapshots :]:
        agent = pool_agent(load_file(str(path)), c, f"snapshot@{path.stem[5:]}", engine)
        model.get_env().env_method("add_opponent", agent, max_pool=keep + c.opponents.max_snapshots, keep=keep)


def train(c: cfg.Config, resume: str | None = None, raw_config: dict | None = None, force: bool = False) -> Path:
    """Train, then export if export.name is set. Every output check (`preflight`) runs first, then the
    run folder is locked for the run (`run_lock`); `force` overwrites an exported model of the same
    name and clears an earlier run's outputs. SIGINT or SIGTERM stops a run: it saves a checkpoint
    and raises `Stopped`. A config with `backend: rllib` is trained by `training.rllib.train.train`
    (its checkpoints folders)."""
    preflight(c, resume, force)
    with run_lock(Path(c.train.run_dir)), StopSignals() as stop:
        if c.backend == "rllib":
            from training.rllib import train as rllib_train  # Ray: an optional extra, loaded for this backend only

            return rllib_train.train(c, resume=resume, raw_config=raw_config, force=force, stop=stop)
        if c.backend == "openspiel":
            from training.openspiel import train as openspiel_train  # OpenSpiel: an optional extra

            return openspiel_train.train(c, resume=resume, raw_config=raw_config, force=force, stop=stop)
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
            model.training_seconds, model.training_cpu_seconds = 0.0, 0.0
            if c.train.init:
                load_actor(model, load_opponent(c.train.init, engine).tensors(), c.train.init)
            if c.imitate.teacher:
                warm = Clock(0.0, 0.0)
                result = journalled_warm_start(model, c, make_env, run_dir)
                stop.at_once = False  # from here a signal stops at the next step, with a checkpoint
                result["seconds"], result["cpu_seconds"] = round(warm.session(), 1), round(warm.cpu_total(), 1)
                write_atomic(run_dir / "imitation.json", json.dumps(result, indent=2).encode())
                save_checkpoint(model, run_dir / "checkpoints" / "imitation.zip", None)  # the warm start alone
                forget_games(run_dir)
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
    clock = Clock(getattr(model, "training_seconds", None), getattr(model, "training_cpu_seconds", None))
    eta = Eta()
    selfplay = SelfPlay(c, run_dir, engine, stop, clock, eta)
    model.learn(
        total_timesteps=remaining,
        callback=CallbackList([Progress(planned_timesteps(c, start), start, eta, c.train.eval_every), selfplay]),
        reset_num_timesteps=not resume,
    )
    if selfplay.stopped_at is not None:
        model.num_timesteps = selfplay.stopped_at  # the last whole rollout: the policy the model holds
        session, seconds = clock.session(), clock.total()
        checkpoint = save_checkpoint(model, run_dir / "checkpoints" / f"step_{model.num_timesteps}.zip", clock)
        raise Stopped(stop.signum, checkpoint, step=model.num_timesteps, session_steps=model.num_timesteps - start,
                      session_seconds=session, seconds=seconds)
    final = save_checkpoint(model, run_dir / "final.zip", clock)
    session_summary(run_dir, clock, start, model.num_timesteps, resume)
    print(f"final model: {final}")
    if c.export.name:
        out = export(model, c.game, c.export.name, config=raw_config or cfg.to_dict(c), seed=c.seed,
                     out_root=c.export.out_root, overwrite=force,
                     player_counts=c.player_counts(), player_weights=c.player_weights())
        print(f"exported to {out}")
    return final


def run(args: argparse.Namespace) -> int:
    """Load and check the config and every output before the first step; then train. The exit status:
    0 when the run finished, 2 when it was refused, 130 or 143 when SIGINT or SIGTERM stopped it."""
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
            from training.rllib import train as rllib_train  # noqa: F401  (Ray: an optional extra)
        except ImportError as err:
            from training.ray_cluster import INSTALL_RLLIB

            print(f"error: {args.config}: backend: rllib needs Ray RLlib ({err}); install it with: {INSTALL_RLLIB}",
                  file=sys.stderr)
            return 2
    if c.backend == "openspiel":
        try:
            import pyspiel  # noqa: F401  (OpenSpiel: an optional extra)
        except ImportError as err:
            print(f"error: {args.config}: backend: openspiel needs OpenSpiel ({err}); install it with: "
                  "pip install -e '.[openspiel]'", file=sys.stderr)
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
    p = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
    commands.add_train_arguments(p)
    args = p.parse_args(argv)
    args.train_prog = "python -m training.train"
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
