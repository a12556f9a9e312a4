"""Training speed, side by side: our default set-up against MaskablePPO on PettingZoo's
connect_four_v3 through the SB3 tutorial's single-env action-mask wrapper; with `--rllib`, RLlib's PPO
(backend: rllib) with 1 and 2 env runners beside the SB3 path on the same game and config.

Both run whole PPO iterations (rollout + update); steps/s counts env steps the learner takes.
Our split: time inside the engine and encoder, inside opponents' decisions, and the rest
(the learner: policy inference, PPO updates, SB3 bookkeeping).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch

from training import config as cfg
from training.ppo import make_vec_env, new_model, snapshot_agent

BAR = 3.0  # ours over the reference


def reference_connect_four(iterations: int = 2, seed: int = 0, threads: int = 1) -> dict:
    """MaskablePPO with its defaults on connect_four_v3, one env, masks through ActionMasker.

    torch runs with `threads` threads, as ours does: on this 2-core machine a second torch thread
    makes small networks many times slower whenever another process is busy."""
    import gymnasium
    import pettingzoo.utils
    from pettingzoo.classic import connect_four_v3
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    class AsGymnasium(pettingzoo.utils.BaseWrapper, gymnasium.Env):
        """The tutorial's idea: the acting seat always learns; obs without the mask."""

        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            mover = self.agent_selection
            super().step(action)
            return (self.observe(self.agent_selection), self._cumulative_rewards[mover],
                    self.terminations[mover], self.truncations[mover], self.infos[mover])

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    torch.set_num_threads(threads)
    env = AsGymnasium(connect_four_v3.env())
    env.reset(seed=seed)
    env = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=0, seed=seed, device="cpu")
    steps = iterations * model.n_steps
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    seconds = time.perf_counter() - start
    return {"name": "connect_four_v3 (SB3 tutorial set-up)", "steps": steps, "seconds": seconds}


def ours(config_path: str | Path, iterations: int = 2) -> dict:
    c = cfg.load(config_path)
    torch.set_num_threads(c.train.torch_threads)
    vec = make_vec_env(c)
    model = new_model(c, vec)
    if c.opponents.snapshot_every:  # steady state: the pool already holds its snapshots
        engine = vec.get_attr("engine", [0])[0]
        for i in range(c.opponents.max_snapshots):
            vec.env_method("add_opponent", snapshot_agent(model, c, f"snapshot{i}", engine))
    steps = iterations * c.algo.n_steps * c.algo.n_envs
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    seconds = time.perf_counter() - start
    env_s = float(np.sum(vec.get_attr("env_seconds")))
    opp_s = float(np.sum(vec.get_attr("opponent_seconds")))
    vec.close()
    return {"name": f"{c.game} ({Path(config_path)}, {c.algo.n_envs} envs, {c.algo.vec_env})", "steps": steps,
            "seconds": seconds, "split": {"env": env_s, "opponents": opp_s, "learner": max(0.0, seconds - env_s - opp_s)},
            "vec_env": c.algo.vec_env}


def table(ref: dict, results: list[dict]) -> str:
    base = ref["steps"] / ref["seconds"]
    rows = ["| training set-up | steps | steps/s | vs reference | env | opponents | learner |",
            "|---|---:|---:|---:|---:|---:|---:|",
            f"| {ref['name']} | {ref['steps']:,} | {base:,.0f} | 1.00x | - | - | - |"]
    for r in results:
        rate = r["steps"] / r["seconds"]
        split = r["split"]
        share = " | ".join(f"{100 * split[k] / r['seconds']:.0f}%" for k in ("env", "opponents", "learner"))
        if r["vec_env"] == "subproc":
            share = "(subprocesses) | - | -"
        rows.append(f"| {r['name']} | {r['steps']:,} | {rate:,.0f} | {rate / base:.2f}x | {share} |")
    return "\n".join(rows)


def run(games: list[str], iterations: int = 3, check: bool = True) -> int:
    """Print the side-by-side table for each game's configs/<game>/ppo.yaml; 1 if a bar fails."""
    results = [ours(Path("configs") / g / "ppo.yaml", iterations) for g in games]
    ref = reference_connect_four(iterations=2, threads=cfg.load(Path("configs") / games[0] / "ppo.yaml").train.torch_threads)
    print("## Training speed: MaskablePPO, whole rollouts and updates\n")
    print(table(ref, results))
    base = ref["steps"] / ref["seconds"]
    failed = False
    print()
    for r in results:
        ratio = r["steps"] / r["seconds"] / base
        ok = ratio >= BAR
        failed |= not ok
        print(f"- {'PASS' if ok else 'FAIL'}: {r['name']} {ratio:.2f}x the reference (bar {BAR:.1f}x)")
    return 1 if failed and check else 0


# RLlib beside SB3 ----------------------------------------------------------------------------------


def rllib_config(config_path: str | Path, runners: int, address: str = "") -> cfg.Config:
    """The game's SB3 config as an RLlib one: the same env, pool and algo keys (no warm start), with
    `runners` env runners of algo.n_envs envs each."""
    import yaml

    data = yaml.safe_load(Path(config_path).read_text(encoding="utf-8"))
    data.pop("imitate", None)
    data["backend"] = "rllib"
    data["algo"].pop("vec_env", None)
    data["rllib"] = {"address": address, "num_env_runners": runners}
    data["export"] = {"name": ""}
    return cfg.from_dict(data)


def rllib(config_path: str | Path, runners: int, steps: int, address: str = "") -> dict:
    """RLlib PPO on the game of `config_path` with `runners` env runners: whole iterations (sampling on the
    runners, the update in the driver) until `steps` env steps, timed after one untimed warm-up iteration
    (Ray's start, the actors' start and the first weights' sync are not counted)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    from training.ray_cluster import connected
    from training.rllib import envs
    from training.rllib.train import ppo_config, train_batch_size

    c = rllib_config(config_path, runners, address)
    torch.set_num_threads(c.train.torch_threads)
    with connected(address or None, None):
        envs.register()
        algo = ppo_config(c).build_algo()
        try:
            first = algo.train()[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
            done, start = first, time.perf_counter()
            while done - first < steps:
                done = algo.train()[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
            seconds = time.perf_counter() - start
        finally:
            algo.stop()
    return {"name": f"{c.game} RLlib PPO, {runners} env runner{'s' if runners != 1 else ''} x {c.algo.n_envs} envs",
            "steps": int(done - first), "seconds": seconds, "batch": train_batch_size(c)}


def run_rllib(game: str, runners: list[int], steps: int, address: str = "") -> int:
    """RLlib with each count of env runners beside SB3's MaskablePPO on configs/<game>/ppo.yaml, in one run,
    each for about `steps` env steps (whole iterations); printed as a table, for information (no bar)."""
    import os

    path = Path("configs") / game / "ppo.yaml"
    c = cfg.load(path)
    sb3 = ours(path, iterations=max(1, -(-steps // (c.algo.n_steps * c.algo.n_envs))))
    sb3["name"] = f"{game} SB3 MaskablePPO, 1 process x {c.algo.n_envs} envs"
    rows = [sb3] + [rllib(path, r, steps, address) for r in runners]
    base = sb3["steps"] / sb3["seconds"]
    where = address or f"a local Ray instance, {os.cpu_count()} CPUs"
    print(f"## Training speed: RLlib PPO beside SB3 MaskablePPO, {game} ({path}), on {where}\n")
    print("| training set-up | steps | seconds | steps/s | vs SB3 |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        rate = r["steps"] / r["seconds"]
        print(f"| {r['name']} | {r['steps']:,} | {r['seconds']:.1f} | {rate:,.0f} | {rate / base:.2f}x |")
    print("\nRLlib: whole iterations after one untimed warm-up (Ray and its actors' start excluded); SB3: whole "
          "rollouts and updates from the first step. Each env runner is a process; the learner runs in the driver.")
    return 0
