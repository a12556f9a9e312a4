"""Self-play training with sb3-contrib's MaskablePPO.

    python -m training.train --config configs/draco_and_co/ppo.yaml [--resume CHECKPOINT.zip] [--force]

Every hyperparameter comes from the YAML (training/config.py). The learner plays one seat of
SingleAgentEnv; the other seats draw from an opponent pool that grows with frozen snapshots of
the learner. With several player counts (env.num_players a list, or all), each episode draws one
and the quick evaluations report each count. Writes to train.run_dir: progress.csv and TensorBoard
logs, checkpoints, snapshots, the final model; then exports it to models/<game>/<export.name>/ if a
name is given. An `imitate` section first fits the policy to a teacher's games (training/imitate.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

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
from training.export import export, export_target, tensors_from_sb3
from training.imitate import describe, warm_start
from training.networks import ScaledFlatten

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


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
    fns = [lambda: make_env(c, reward=c.env.reward) for _ in range(c.algo.n_envs)]
    vec = SubprocVecEnv(fns) if c.algo.vec_env == "subproc" else DummyVecEnv(fns)
    vec.seed(c.seed)
    return VecMonitor(vec)


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
               variant: int = 0) -> dict:
    """The learner's current policy (deterministic) against train.eval_opponent in every other seat,
    at `num_players` (default: the config's first count) in the variant numbered `variant`. `model`: a
    MaskablePPO, or the actor's tensors in the exported layout (another backend's learner)."""
    env = make_env(c, [c.train.eval_opponent], num_players=num_players or c.player_counts()[0], variant=variant)
    tensors = model if isinstance(model, dict) else tensors_from_sb3(model.policy)
    agent = pool_agent(tensors, c, "learner", env.engine)
    rng = np.random.default_rng(seed)
    wins = 0
    total = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            action = agent.act(env.engine, env.state, env.seat, rng)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        wins += env.engine.returns(env.state)[env.seat] == env.engine.spec.max_return
    return {"win_share": wins / games, "mean_return": total / games}


def quick_evals(model: MaskablePPO | dict, c: cfg.Config, games: int, seed: int) -> dict[Any, dict]:
    """`quick_eval` at each player count of the config, `games` games each: {count: result}; with
    several variants, at each count in each variant: {(count, variant): result}."""
    if len(c.env.variants) > 1:
        return {(n, v): quick_eval(model, c, games, seed, num_players=n, variant=v)
                for v in range(len(c.env.variants)) for n in c.player_counts()}
    return {n: quick_eval(model, c, games, seed, num_players=n) for n in c.player_counts()}


def planned_timesteps(c: cfg.Config, start: int = 0) -> int:
    """Where a run from `start` ends: SB3 collects whole rollouts of n_envs * n_steps steps until it
    reaches train.total_timesteps, so the total rounds up to the next whole rollout."""
    rollout = c.algo.n_envs * c.algo.n_steps
    remaining = max(0, c.train.total_timesteps - start)
    return start + math.ceil(remaining / rollout) * rollout


class Progress(BaseCallback):
    """A tqdm bar over the timesteps, ending where the run ends (`planned_timesteps`)."""

    def __init__(self, total: int, start: int) -> None:
        super().__init__()
        self.bar = tqdm(total=total, initial=start, unit="step", dynamic_ncols=True, smoothing=0.1, mininterval=1.0)

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


class SelfPlay(BaseCallback):
    """Checkpoints, snapshots into the opponent pool, and quick evaluations, on step schedules."""

    def __init__(self, c: cfg.Config, run_dir: Path, engine) -> None:
        super().__init__()
        self.c, self.run_dir, self.engine = c, run_dir, engine
        self.next = {}

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

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if self._due("checkpoint", self.c.train.checkpoint_every):
            (self.run_dir / "checkpoints").mkdir(exist_ok=True)
            self.model.save(self.run_dir / "checkpoints" / f"step_{t}.zip")
        if self._due("snapshot", self.c.opponents.snapshot_every):
            add_snapshot(self.model, self.c, self.run_dir, t, self.engine)
        if self._due("eval", self.c.train.eval_every):
            results = quick_evals(self.model, self.c, self.c.train.eval_games, seed=10_000 + t)
            several = len(results) > 1
            for key, result in results.items():  # one count: eval/win_share; several: eval/<n>p[/v<i>]/win_share
                n, v = key if isinstance(key, tuple) else (key, None)
                where = f"{n}p" if v is None else f"{n}p/v{v}"
                prefix = f"eval/{where}/" if several else "eval/"
                self.logger.record(prefix + "win_share", result["win_share"])
                self.logger.record(prefix + "mean_return", result["mean_return"])
                at = f" at {n} players" + ("" if v is None else f", variant {v} {self.c.env.variants[v]}")
                tqdm.write(f"step {t:,}: {self.c.train.eval_games} games against {self.c.train.eval_opponent}"
                           f"{at if several else ''}: "
                           f"win share {result['win_share']:.1%}, mean return {result['mean_return']:+.3f}")
        return True


def add_snapshot(model: MaskablePPO, c: cfg.Config, run_dir: Path, step: int, engine) -> None:
    """Save the learner's weights and put a frozen copy into every env's pool."""
    from safetensors.numpy import save

    folder = run_dir / "snapshots"
    folder.mkdir(parents=True, exist_ok=True)
    # bytes written by Python, so the file gets the umask's mode like every other output (save_file: 0600)
    (folder / f"step_{step}.safetensors").write_bytes(save(tensors_from_sb3(model.policy)))
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
    once: the checkpoint to resume, the export's name and folder (a model already there is refused
    unless `force`), and a run folder that already holds an earlier run (refused for a fresh run
    unless `force`) or cannot be written."""
    problems = []
    if resume is not None and not (Path(resume).is_dir() if c.backend == "rllib" else Path(resume).is_file()):
        kind = "RLlib checkpoint folder" if c.backend == "rllib" else "checkpoint"
        problems.append(f"--resume {resume}: no such {kind}")
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
        if earlier and resume is None and not force:
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


def train(c: cfg.Config, resume: str | None = None, raw_config: dict | None = None, force: bool = False) -> Path:
    """Train, then export if export.name is set. Every output check (`preflight`) runs first;
    `force` overwrites an exported model of the same name and clears an earlier run's outputs.
    A config with `backend: rllib` is trained by `training.rllib.train.train` (its final checkpoint a folder)."""
    if c.backend == "rllib":
        from training.rllib import train as rllib_train

        return rllib_train.train(c, resume=resume, raw_config=raw_config, force=force)
    run_dir = prepare_run(c, resume, force)
    set_random_seed(c.seed)
    vec_env = make_vec_env(c)
    engine = make_env(c).engine
    if resume:
        model = MaskablePPO.load(resume, env=vec_env, device="cpu")
        restore_snapshots(model, c, run_dir, engine)
    else:
        model = new_model(c, vec_env)
        if c.imitate.teacher:
            began = time.perf_counter()
            result = warm_start(model, c, make_env)
            result["seconds"] = round(time.perf_counter() - began, 1)
            (run_dir / "imitation.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
            (run_dir / "checkpoints").mkdir(exist_ok=True)
            model.save(run_dir / "checkpoints" / "imitation.zip")  # the warm start alone, before PPO
            print(describe(c, result))
    model.set_logger(configure(str(run_dir), ["csv", "tensorboard"]))
    start = model.num_timesteps
    remaining = max(0, c.train.total_timesteps - start)
    began = time.perf_counter()
    model.learn(
        total_timesteps=remaining,
        callback=CallbackList([Progress(planned_timesteps(c, start), start), SelfPlay(c, run_dir, engine)]),
        reset_num_timesteps=not resume,
    )
    elapsed = time.perf_counter() - began
    final = run_dir / "final.zip"
    model.save(final)
    summary = {"timesteps": model.num_timesteps, "seconds": round(elapsed, 1),
               "steps_per_second": round((model.num_timesteps - start) / max(elapsed, 1e-9), 1)}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(f"trained {summary['timesteps']} steps in {summary['seconds']} s ({summary['steps_per_second']} steps/s): {final}")
    if c.export.name:
        out = export(model, c.game, c.export.name, config=raw_config or cfg.to_dict(c), seed=c.seed,
                     out_root=c.export.out_root, overwrite=force,
                     player_counts=c.player_counts(), player_weights=c.player_weights())
        print(f"exported to {out}")
    vec_env.close()
    return final


def run(args: argparse.Namespace) -> int:
    """Load and check the config and every output before the first step; then train. The exit status."""
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
            from training.rllib import train as rllib_train
        except ImportError as err:
            from training.ray_cluster import INSTALL_RLLIB

            print(f"error: {args.config}: backend: rllib needs Ray RLlib ({err}); install it with: {INSTALL_RLLIB}",
                  file=sys.stderr)
            return 2
        rllib_train.train(c, resume=args.resume, raw_config=raw, force=args.force)
        return 0
    train(c, resume=args.resume, raw_config=raw, force=args.force)
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m training.train ARGS`, the same command as `d2r train ARGS`."""
    from training import commands

    p = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
    commands.add_train_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
