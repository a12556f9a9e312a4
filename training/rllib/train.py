"""Training with RLlib's PPO on Ray (`backend: rllib`), from the same YAML as the SB3 path.

    d2r train --config configs/drags_2_riches/rllib_ppo.yaml [--resume RUN_DIR/checkpoints/step_N] [--force]

The config's keys mean what they mean for SB3 where both have them (training/config.py); `rllib` adds
where Ray runs and how the games are set up:

- `rllib.mode: pool`: the learner's env (`SingleAgentEnv`) against opponents.pool, with frozen snapshots
  of the learner added to every env runner's pool every opponents.snapshot_every steps; `self_play`: the
  AEC env, every seat played by one shared policy (training/rllib/envs.py);
- `rllib.num_env_runners` Ray actors collect games, `algo.n_envs` envs each, `algo.n_steps` steps per env
  per iteration: an iteration trains on n_steps x n_envs x max(1, num_env_runners) steps, in minibatches
  of algo.batch_size for algo.n_epochs epochs (SB3's rollout, scaled by the runners); the learner runs
  in the driver process;
- `rllib.address`: "" starts a local Ray instance (`rllib.num_cpus` CPUs, 0: all), "auto" or HOST:PORT
  joins a cluster.

PPO's settings: lr, gamma, lambda, clip_param, entropy_coeff, vf_loss_coeff and grad_clip (global norm)
from `algo`; no KL penalty (SB3 has none). The model is `training.rllib.module.MaskedMLP`.

Writes to train.run_dir: config.json, progress.csv (SB3's column names where they exist, so `d2r eval
--training-log` plots it), checkpoints/step_N/ (RLlib checkpoint folders, for --resume only), snapshots/,
final/ and summary.json; then exports to models/<game>/<export.name>/ in the format `load_opponent` reads.
Each checkpoint folder holds d2r_progress.json (the steps, the progress rows, the training seconds so far of
the wall clock and of the CPU), and is written under a temporary name and renamed when whole, as snapshots,
progress.csv and summary.json are (`training.run_folder.write_atomic`); summary.json adds up the training time
of every session.

SIGINT or SIGTERM stops a run as it stops an SB3 run (`training.session.StopSignals`): once the iteration
in progress has ended, that iteration's state is saved as checkpoints/step_N/ and `Stopped` raised, so
`d2r train` prints the command that resumes it and exits 130 or 143.

An `imitate` section (rllib.mode pool) warm-starts the module as on SB3 (training/imitate.py: the same
recording and fit, on a policy of the same shape), then copies the fitted actor and critic into the
learner's module and every env runner's before the first iteration (`warm_start`).

Reliability: a dead env runner is restarted (rllib.restart_failed_env_runners, the default) and the run
goes on; each restart, and each iteration with runners out of service, is printed with the steps the
iteration did sample and counted in progress.csv (ray/env_runner_restarts, ray/healthy_env_runners) and
summary.json, so a lost rollout is never silent. With restarts off, a dead
env runner stops the run with RLlib's error.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from safetensors.numpy import load_file
from safetensors.numpy import save as save_tensors
from tqdm import tqdm

from training import config as cfg
from training.export import RLLIB_PROGRESS, export_rllib
from training.imitate import describe, forget_games, journalled_warm_start
from training.learner_env import make_env, pool_agent
from training.ppo import make_vec_env, new_model
from training.quick_eval import eval_line, quick_evals
from training.ray_cluster import connected
from training.rllib import envs
from training.rllib.module import SHARED_POLICY, MaskedMLP, module_id, tensors
from training.run_folder import prepare_run, write_atomic
from training.session import Clock, Stopped, StopSignals, session_summary


def train_batch_size(c: cfg.Config) -> int:
    """Steps per iteration: algo.n_steps per env, algo.n_envs envs per runner, max(1, runners) runners."""
    return c.algo.n_steps * c.algo.n_envs * max(1, c.rllib.num_env_runners)


def module_spec(c: cfg.Config):
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(module_class=MaskedMLP, model_config={"hidden": list(c.algo.net_arch), "activation": c.algo.activation})


def ppo_config(c: cfg.Config):
    """RLlib's PPOConfig for the config (see the module docstring for the mapping)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    a, r = c.algo, c.rllib
    self_play = r.mode == "self_play"
    config = (
        PPOConfig()
        .environment(envs.SELF_PLAY_ENV if self_play else envs.LEARNER_ENV, env_config={"config": c},
                     disable_env_checking=True)
        .env_runners(num_env_runners=r.num_env_runners, num_envs_per_env_runner=a.n_envs,
                     rollout_fragment_length=a.n_steps, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .training(lr=a.learning_rate, gamma=a.gamma, lambda_=a.gae_lambda, clip_param=a.clip_range,
                  entropy_coeff=a.ent_coef, vf_loss_coeff=a.vf_coef, grad_clip=a.max_grad_norm,
                  grad_clip_by="global_norm", use_kl_loss=False, train_batch_size_per_learner=train_batch_size(c),
                  minibatch_size=a.batch_size, num_epochs=a.n_epochs)
        .debugging(seed=c.seed, log_level="ERROR")
        .fault_tolerance(restart_failed_env_runners=r.restart_failed_env_runners)
        .reporting(metrics_num_episodes_for_smoothing=20)
    )
    if self_play:
        config = config.multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=_shared)
        config = config.rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: module_spec(c)}))
    else:
        config = config.rl_module(rl_module_spec=module_spec(c))
    return config


def imitation_state(policy: Any) -> dict[str, torch.Tensor]:
    """An SB3 MlpPolicy's weights (pi and vf nets apart, as new_model builds it) as MaskedMLP's state:
    pi = mlp_extractor.policy_net then action_net, vf = mlp_extractor.value_net then value_net."""
    state: dict[str, torch.Tensor] = {}
    for name, body, head in (("pi", policy.mlp_extractor.policy_net, policy.action_net),
                             ("vf", policy.mlp_extractor.value_net, policy.value_net)):
        layers = [m for m in body if isinstance(m, torch.nn.Linear)] + [head]
        for i, layer in enumerate(layers):
            state[f"{name}.{2 * i}.weight"] = layer.weight.detach().clone()
            state[f"{name}.{2 * i}.bias"] = layer.bias.detach().clone()
    state["obs_scale"] = policy.features_extractor.scale.detach().clone()
    return state


def warm_start(algo: Any, c: cfg.Config, run_dir: Path) -> dict[str, Any]:
    """The imitation of training/imitate.py on an SB3 policy of the module's shape (its games recorded
    through the run folder), copied into the learner's module and sent to every env runner. Returns
    the imitation's result."""
    model = new_model(c, make_vec_env(c))
    result = journalled_warm_start(model, c, make_env, run_dir)
    mid = module_id(c)
    current = algo.learner_group.get_weights([mid])[mid]
    state = imitation_state(model.policy)
    if set(state) != set(current) or any(tuple(state[k].shape) != tuple(np.shape(current[k])) for k in state):
        raise RuntimeError(f"imitation: the fitted policy's tensors {sorted(state)} do not match the module's {sorted(current)}")
    algo.learner_group.set_weights({mid: {k: v.numpy() for k, v in state.items()}})
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, timeout_seconds=60.0,
                                       inference_only=True)
    return result


def _shared(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    return SHARED_POLICY


def learner_module(algo: Any, c: cfg.Config) -> MaskedMLP:
    """A copy of the learner's module with its current weights (the learner's own, not an env runner's)."""
    weights = algo.learner_group.get_weights([module_id(c)])[module_id(c)]
    probe = (envs.SelfPlayEnv(c) if c.rllib.mode == "self_play" else envs.make_learner_env({"config": c}))
    agent = probe.possible_agents[0] if c.rllib.mode == "self_play" else None
    obs_space = probe.observation_spaces[agent] if agent else probe.observation_space
    act_space = probe.action_spaces[agent] if agent else probe.action_space
    module = MaskedMLP(observation_space=obs_space, action_space=act_space,
                       model_config={"hidden": list(c.algo.net_arch), "activation": c.algo.activation})
    module.set_state({k: torch.as_tensor(np.asarray(v)) for k, v in weights.items()})
    module.eval()
    return module


# The pool ----------------------------------------------------------------------------------------


def _sync_pool(env_runner: Any, c: cfg.Config, snapshots: list[tuple[str, dict]]) -> int:
    """Make every learner's env in `env_runner` hold opponents.pool then `snapshots` (idempotent, so a
    restarted env runner gets them back too). Returns the envs synced."""
    found = envs.learner_envs(env_runner)
    keep = len(c.opponents.pool)
    for env in found:
        del env.pool[keep:]
        for name, weights in snapshots:
            env.add_opponent(pool_agent(weights, c, name, env.engine))
    return len(found)


def sync_pool(algo: Any, c: cfg.Config, snapshots: list[tuple[str, dict]]) -> None:
    algo.env_runner_group.foreach_env_runner(functools.partial(_sync_pool, c=c, snapshots=snapshots),
                                             local_env_runner=True)


# The run -----------------------------------------------------------------------------------------


def _due(step: int, every: int, last: int) -> bool:
    """Whether a schedule of `every` steps fired between `last` (exclusive) and `step` (inclusive)."""
    return every > 0 and step // every > last // every


def _write_progress(path: Path, rows: list[dict]) -> None:
    """progress.csv, every row so far (`write_atomic`)."""
    columns = list(dict.fromkeys(k for row in rows for k in row))
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, columns)
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, text.getvalue().encode("utf-8"))


def train(c: cfg.Config, resume: str | None = None, raw_config: dict | None = None, force: bool = False,
          stop: StopSignals | None = None) -> Path:
    """Train, then export if export.name is set; returns the final checkpoint folder. With `stop` (the
    run's `StopSignals`), SIGINT or SIGTERM during the iterations stops the run once the current one has
    ended: it saves checkpoints/step_N/ and raises `Stopped`; before the first iteration (Ray starting,
    the restore, the warm start) a signal stops it at once."""
    from ray.rllib.utils.metrics import (ENV_RUNNER_RESULTS, EPISODE_LEN_MEAN, EPISODE_RETURN_MEAN,
                                         NUM_ENV_STEPS_SAMPLED_LIFETIME)

    run_dir = prepare_run(c, resume, force)
    stop = stop or StopSignals()
    address = c.rllib.address or None
    with connected(address, c.rllib.num_cpus or None):
        stop.claim()  # ray.init installs its own SIGTERM handler
        envs.register()
        algo = ppo_config(c).build_algo()
        try:
            return _run(algo, c, run_dir, resume, raw_config, force, stop,
                        (ENV_RUNNER_RESULTS, EPISODE_LEN_MEAN, EPISODE_RETURN_MEAN, NUM_ENV_STEPS_SAMPLED_LIFETIME))
        finally:
            algo.stop()


def _restore(algo: Any, c: cfg.Config, run_dir: Path, resume: str) -> tuple[dict, list[tuple[str, dict]]]:
    """Resume from a checkpoint folder: the algorithm's state, the progress it saved (steps, rows, the
    training seconds), and the pool's snapshots put back into every env runner."""
    algo.restore_from_path(str(Path(resume).resolve()))
    state = json.loads((Path(resume) / RLLIB_PROGRESS).read_text(encoding="utf-8"))
    paths = sorted((run_dir / "snapshots").glob("step_*.safetensors"), key=lambda p: int(p.stem[5:]))
    snapshots = [(f"snapshot@{p.stem[5:]}", load_file(str(p))) for p in paths[-c.opponents.max_snapshots:]]
    if snapshots:
        sync_pool(algo, c, snapshots)
    return state, snapshots


def _run(algo: Any, c: cfg.Config, run_dir: Path, resume: str | None, raw_config: dict | None, force: bool,
         stop: StopSignals, keys: tuple) -> Path:
    RUNNERS, LEN, RET, SAMPLED = keys
    snapshots: list[tuple[str, dict]] = []
    rows: list[dict] = []
    steps, before, cpu_before = 0, 0.0, 0.0
    if resume:
        state, snapshots = _restore(algo, c, run_dir, resume)
        steps, rows = state["steps"], state["rows"]
        before, cpu_before = state.get("seconds"), state.get("cpu_seconds")  # None: not recorded
    elif c.imitate.teacher:
        warm = Clock(0.0, 0.0)
        result = warm_start(algo, c, run_dir)
        result["seconds"], result["cpu_seconds"] = round(warm.session(), 1), round(warm.cpu_total(), 1)
        write_atomic(run_dir / "imitation.json", json.dumps(result, indent=2).encode())
        forget_games(run_dir)
        print(describe(c, result))
    stop.at_once = False  # from here a signal stops the run after the current iteration, with a checkpoint
    group = algo.env_runner_group
    restarts = group.num_remote_worker_restarts() if group else 0
    start, clock = steps, Clock(before, cpu_before)
    bar = tqdm(total=c.train.total_timesteps, initial=steps, unit="step", dynamic_ncols=True, mininterval=1.0)
    iteration = len(rows)
    try:
        while steps < c.train.total_timesteps:
            t0 = time.perf_counter()
            result = algo.train()
            iteration += 1
            runners = result.get(RUNNERS, {})
            last, steps = steps, int(runners.get(SAMPLED, steps))
            bar.update(steps - last)
            row: dict[str, Any] = {"time/total_timesteps": steps, "time/iterations": iteration,
                                   "time/fps": round((steps - last) / max(time.perf_counter() - t0, 1e-9), 1),
                                   "rollout/ep_rew_mean": runners.get(RET), "rollout/ep_len_mean": runners.get(LEN)}
            now = group.num_remote_worker_restarts() if group else 0
            if now != restarts:
                tqdm.write(f"iteration {iteration}: {now - restarts} env runner(s) died and were restarted; the games "
                           f"they had not finished were lost (this iteration sampled {steps - last} steps, "
                           f"{train_batch_size(c)} planned)")
                if snapshots:
                    sync_pool(algo, c, snapshots)
            row["ray/env_runner_restarts"], restarts = now, now
            healthy = row["ray/healthy_env_runners"] = group.num_healthy_remote_workers() if group else 0
            if healthy < c.rllib.num_env_runners:
                tqdm.write(f"iteration {iteration}: {c.rllib.num_env_runners - healthy} of {c.rllib.num_env_runners} "
                           f"env runner(s) out of service (dead, being restarted); this iteration sampled "
                           f"{steps - last} of {train_batch_size(c)} planned steps")
            module = None
            if _due(steps, c.opponents.snapshot_every, last) and c.rllib.mode == "pool":
                module = module or learner_module(algo, c)
                weights = tensors(module)
                write_atomic(run_dir / "snapshots" / f"step_{steps}.safetensors", save_tensors(weights))
                snapshots = (snapshots + [(f"snapshot@{steps}", weights)])[-c.opponents.max_snapshots:]
                sync_pool(algo, c, snapshots)
            if _due(steps, c.train.eval_every, last) and stop.signum is None:
                module = module or learner_module(algo, c)
                _evaluate(tensors(module), c, steps, row, stop)
            rows.append(row)
            _write_progress(run_dir / "progress.csv", rows)
            if stop.signum is not None:
                folder = save_checkpoint(algo, run_dir / "checkpoints" / f"step_{steps}", steps, rows, clock)
                raise Stopped(stop.signum, folder, step=steps, session_steps=steps - start,
                              session_seconds=clock.session(), seconds=clock.total())
            if _due(steps, c.train.checkpoint_every, last):
                save_checkpoint(algo, run_dir / "checkpoints" / f"step_{steps}", steps, rows, clock)
    finally:
        bar.close()
    final = save_checkpoint(algo, run_dir / "final", steps, rows, clock)
    session_summary(run_dir, clock, start, steps, resume, backend="rllib", env_runners=c.rllib.num_env_runners,
                    env_runner_restarts=restarts)
    print(f"final checkpoint: {final}")
    if c.export.name:
        out = export_rllib(learner_module(algo, c), c, c.export.name, raw_config, steps, overwrite=force)
        print(f"exported to {out}")
    return final


def _evaluate(weights: dict, c: cfg.Config, steps: int, row: dict, stop: StopSignals) -> None:
    """The quick evaluations at `steps`: into the progress row and printed with their bars (`eval_line`);
    nothing when a signal comes before they end."""
    results = quick_evals(weights, c, c.train.eval_games, seed=10_000 + steps,
                          should_stop=lambda: stop.signum is not None)
    if results is None:
        return
    several = len(results) > 1
    for key, res in results.items():
        n, v = key if isinstance(key, tuple) else (key, None)
        prefix = (f"eval/{n}p/" if v is None else f"eval/{n}p/v{v}/") if several else "eval/"
        row[prefix + "win_share"], row[prefix + "mean_return"] = res["win_share"], res["mean_return"]
        tqdm.write(eval_line(c, steps, key, res, several))


def save_checkpoint(algo: Any, folder: Path, steps: int, rows: list[dict], clock: Clock) -> Path:
    """RLlib's checkpoint folder plus d2r_progress.json (the steps, the progress rows and the training
    seconds so far, of the wall clock and of the CPU, for --resume), written under a temporary name and
    renamed when whole: a stop or a crash mid-write leaves the earlier folder (or none), never a torn one."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    temporary = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(temporary, ignore_errors=True)
    try:
        algo.save_to_path(str(temporary.resolve()))
        progress = {"steps": steps, "rows": rows, "seconds": clock.total(), "cpu_seconds": clock.cpu_total()}
        write_atomic(temporary / RLLIB_PROGRESS, json.dumps(progress).encode())
        if folder.exists():  # the same step saved again (a resume from an earlier checkpoint): the new one wins
            old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
            os.replace(folder, old)
            os.replace(temporary, folder)
            shutil.rmtree(old)
        else:
            os.replace(temporary, folder)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    return folder
