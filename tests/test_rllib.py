"""backend: rllib: the config's keys refused by name, a few PPO iterations on a local Ray instance (the
session's, started by the tests), the export loaded with numpy alone and its forward pass equal to
RLlib's own logits, the mask honoured, and `d2r train` running a self-play config end to end. About 40 s."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("ray.rllib")
pytest.importorskip("sb3_contrib")

import d2r_envs  # noqa: E402
from training import config as cfg  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAME = "drags_2_riches"


def tiny(tmp_path: Path, mode: str = "pool", **over) -> dict:
    data = yaml.safe_load((ROOT / "configs" / GAME / "rllib_ppo.yaml").read_text(encoding="utf-8"))
    data["env"] = {"num_players": [2, 3], "learner_seat": "random", "options": {}}
    data["algo"].update(n_envs=2, n_steps=32, batch_size=32, n_epochs=1, net_arch=[16])
    data["opponents"] = {"pool": ["random"], "snapshot_every": 64 if mode == "pool" else 0, "max_snapshots": 1}
    data["train"].update(total_timesteps=128, checkpoint_every=64, eval_every=64, eval_games=2, eval_opponent="random",
                         run_dir=str(tmp_path / "run"), torch_threads=1)
    data["export"] = {"name": "", "out_root": str(tmp_path / "models")}
    data["rllib"] = {"address": "", "num_env_runners": 1, "num_cpus": 0, "mode": mode}
    for key, value in over.items():
        section, _, field = key.partition("__")
        data[section][field] = value
    return data


def test_the_shipped_rllib_configs_load_and_name_the_backend() -> None:
    paths = sorted((ROOT / "configs").glob("*/rllib_ppo.yaml"))
    assert paths
    for path in paths:
        c = cfg.load(path)
        assert c.backend == "rllib" and c.rllib.mode in ("pool", "self_play")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["rllib"].update(num_env_runner=2), "rllib: unknown key.*num_env_runner.*allowed: address, num_env_runners"),
        (lambda d: d["rllib"].update(mode="league"), "rllib.mode: 'league' is not allowed; allowed: pool, self_play"),
        (lambda d: d.update(backend="tune"), "backend: 'tune' is not allowed; allowed: sb3, rllib"),
        (lambda d: d["rllib"].update(num_env_runners=-1), "rllib.num_env_runners: must be at least 0"),
        (lambda d: d["rllib"].update(num_env_runners="two"), "rllib.num_env_runners: expected int"),
        (lambda d: d["rllib"].update(address="auto", num_cpus=2), "rllib.num_cpus: only for a local Ray instance"),
        (lambda d: d["algo"].update(vec_env="subproc"), "algo.vec_env: 'subproc' is SB3's"),
        (lambda d: (d.update(imitate={"teacher": "heuristic", "games": 10}), d["rllib"].update(mode="self_play"),
                    d["opponents"].update(snapshot_every=0)), "imitate.teacher: .*needs rllib.mode: pool"),
        (lambda d: d.update(backend="sb3"), "rllib: this section is read only with backend: rllib"),
        (lambda d: (d["env"].update(reward="margin"), d["rllib"].update(mode="self_play"),
                    d["opponents"].update(snapshot_every=0)), "env.reward: 'margin' is the learner's env's"),
    ],
)
def test_bad_rllib_configs_are_refused_naming_the_key(tmp_path: Path, edit, message: str) -> None:
    data = tiny(tmp_path)
    edit(data)
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.from_dict(data)


def test_self_play_has_no_pool_to_snapshot_into(tmp_path: Path) -> None:
    with pytest.raises(cfg.ConfigError, match="opponents.snapshot_every: with rllib.mode self_play"):
        cfg.from_dict(tiny(tmp_path, mode="self_play", opponents__snapshot_every=64))


def test_a_few_iterations_export_and_numpy_matches_rllibs_logits(ray_local, tmp_path: Path) -> None:
    import torch
    from ray.rllib.core.columns import Columns

    from training.export import export_rllib
    from training.rllib import envs, train
    from training.rllib.module import MODULE_ID

    c = cfg.from_dict(tiny(tmp_path))
    envs.register()
    algo = train.ppo_config(c).build_algo()
    try:
        before = train.tensors(train.learner_module(algo, c))
        steps = 0
        for _ in range(2):
            steps = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
        assert steps >= 2 * train.train_batch_size(c)
        learner = train.learner_module(algo, c)
        after = train.tensors(learner)
        assert any(not np.array_equal(before[k], after[k]) for k in after if k != "obs_scale"), "nothing trained"
        folder = export_rllib(learner, c, "rllib-test", None, steps)
        rllib_module = algo.get_module(MODULE_ID)  # the module RLlib's env runner samples with
    finally:
        algo.stop()

    policy = d2r_envs.load_opponent(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["training"]["backend"] == "rllib" and manifest["library_versions"]["ray"]
    assert manifest["training"]["player_counts"] == [2, 3] and policy.hidden == [16]

    # observations and masks from real games, at both counts
    env = envs.make_learner_env({"config": c})
    obs, masks = [], []
    for seed in range(6):
        o, _ = env.reset(seed=seed)
        for _ in range(5):
            obs.append(o["observation"]), masks.append(o["action_mask"])
            o, _, done, cut, _ = env.step(int(np.flatnonzero(o["action_mask"])[0]))
            if done or cut:
                break
    obs, masks = np.stack(obs), np.stack(masks)
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    with torch.no_grad():
        theirs = rllib_module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()
    ours = policy.logits(obs, masks)
    legal = masks != 0
    np.testing.assert_allclose(ours[legal], theirs[legal], atol=1e-5)
    assert np.all(np.isneginf(ours[~legal])) and np.all(theirs[~legal] <= -1e38)
    # the same choice: numpy's best legal action is RLlib's greedy action
    assert np.array_equal(ours.argmax(1), theirs.argmax(1))
    # and RLlib's own action distribution never samples a masked action
    dist = rllib_module.get_exploration_action_dist_cls().from_logits(torch.as_tensor(theirs))
    draws = torch.stack([dist.sample() for _ in range(200)]).numpy()
    assert legal[np.arange(len(obs))[None, :].repeat(200, 0), draws].all()


def test_an_sb3_policys_weights_map_onto_the_module() -> None:
    """imitation_state: MaskedMLP given an SB3 policy's weights computes the same logits and values."""
    import torch
    from ray.rllib.core.columns import Columns

    from training.learner_env import make_env
    from training.ppo import make_vec_env, new_model
    from training.rllib import train
    from training.rllib.module import MaskedMLP

    c = cfg.from_dict(tiny(Path("/nonexistent"), algo__net_arch=[16, 8]))
    model = new_model(c, make_vec_env(c))
    env = make_env(c)
    module = MaskedMLP(observation_space=envs_space(c), action_space=env.action_space,
                       model_config={"hidden": [16, 8], "activation": "tanh"})
    module.set_state(train.imitation_state(model.policy))
    obs = np.stack([env.reset(seed=s)[0] for s in range(5)]).astype(np.float32)
    masks = np.ones((5, env.action_space.n), np.int8)
    with torch.no_grad():
        theirs = model.policy.get_distribution(torch.as_tensor(obs)).distribution.logits
        values = model.policy.predict_values(torch.as_tensor(obs)).flatten()
        batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
        ours = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        ours_v = module.compute_values(batch)
    np.testing.assert_allclose(torch.log_softmax(ours, 1).numpy(), theirs.numpy(), atol=1e-5)
    np.testing.assert_allclose(ours_v.numpy(), values.numpy(), atol=1e-5)


def test_the_learner_env_rewards_as_the_config_says(tmp_path: Path) -> None:
    """env.reward reaches RLlib's training envs as it reaches SB3's."""
    from training.rllib import envs

    for reward in ("return", "margin"):
        data = tiny(tmp_path)
        data["env"]["reward"] = reward
        assert envs.make_learner_env({"config": cfg.from_dict(data)}).unwrapped.reward == reward


def envs_space(c):
    from training.rllib import envs

    return envs.make_learner_env({"config": c}).observation_space


def test_the_imitation_warm_start_reaches_the_learner_and_the_env_runners(ray_local, tmp_path: Path) -> None:
    """imitate with backend rllib: the fitted policy goes into the learner's module and the remote env
    runner's before the first iteration, and it plays the heuristic's moves on most positions."""
    from training.rllib import envs, train

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 6, "epochs": 20, "batch_size": 64, "learning_rate": 0.003}
    c = cfg.from_dict(data)
    envs.register()
    algo = train.ppo_config(c).build_algo()
    try:
        before = train.tensors(train.learner_module(algo, c))
        result = train.warm_start(algo, c, tmp_path / "run")
        learner = train.tensors(train.learner_module(algo, c))
        remote = algo.env_runner_group.foreach_env_runner(
            lambda runner: runner.module.get_state()["pi.0.weight"], local_env_runner=False)
    finally:
        algo.stop()
    assert result["agreement"] > 0.6
    assert not np.array_equal(before["layers.0.weight"], learner["layers.0.weight"])
    assert remote and all(np.array_equal(np.asarray(w), learner["layers.0.weight"]) for w in remote)


def test_d2r_train_runs_a_self_play_config_end_to_end(ray_local, tmp_path: Path, capsys) -> None:
    from d2r_envs.cli import main

    data = tiny(tmp_path, mode="self_play")
    data["export"]["name"] = "self-play"
    path = tmp_path / "rllib.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["train", "--config", str(path)]) == 0
    run = tmp_path / "run"
    assert (run / "final" / "rllib_checkpoint.json").is_file() and (run / "checkpoints").is_dir()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["backend"] == "rllib" and summary["timesteps"] >= 128 and summary["env_runner_restarts"] == 0
    rows = (run / "progress.csv").read_text().splitlines()
    assert rows[0].startswith("time/total_timesteps") and "eval/2p/win_share" in rows[0]
    policy = d2r_envs.load_opponent(tmp_path / "models" / GAME / "self-play")
    assert policy.manifest["training"]["rllib"]["mode"] == "self_play"
    # it plays: a tournament against random through the usual agent specs
    from training import evaluate as ev

    result = ev.evaluate(GAME, [str(tmp_path / "models" / GAME / "self-play"), "random"], 2, 4, 0)
    assert result["games"] == 4
    # the same command again refuses up front, naming the way out
    assert main(["train", "--config", str(path)]) == 2
    assert "--force" in capsys.readouterr().err
    # d2r export reads the final checkpoint back, with its config: the same weights as the run's export
    out = ["--game", GAME, "--out-root", str(tmp_path / "again")]
    assert main(["export", "--checkpoint", str(run / "final"), "--name", "x", *out]) == 2
    assert "give the config it was trained with" in capsys.readouterr().err
    assert main(["export", "--checkpoint", str(run / "final"), "--name", "x", "--config", str(path), *out]) == 0
    again = d2r_envs.load_opponent(tmp_path / "again" / GAME / "x")
    assert again.manifest["training"]["total_timesteps"] == summary["timesteps"]
    from safetensors.numpy import load_file

    first = load_file(str(tmp_path / "models" / GAME / "self-play" / "policy.safetensors"))
    second = load_file(str(tmp_path / "again" / GAME / "x" / "policy.safetensors"))
    assert first.keys() == second.keys() and all(np.array_equal(first[k], second[k]) for k in first)
    sb3_config = tmp_path / "sb3.yaml"
    sb3_config.write_text(yaml.safe_dump({k: v for k, v in data.items() if k not in ("backend", "rllib")}), encoding="utf-8")
    assert main(["export", "--checkpoint", str(run / "final"), "--name", "y", "--config", str(sb3_config), *out]) == 2
    assert "needs its own config (backend: rllib" in capsys.readouterr().err


@pytest.mark.parametrize("game", d2r_envs.names())
def test_every_game_plays_through_both_rllib_envs_with_the_masked_module(game: str) -> None:
    """No Ray needed: the self-play env's whole games (each seat's rewards add up to its return, every
    seat that played gets the end) and the learner's env, acting by MaskedMLP's masked distribution."""
    import torch
    from ray.rllib.core.columns import Columns

    from training.rllib import envs
    from training.rllib.module import MaskedMLP

    c = cfg.from_dict({"game": game, "backend": "rllib", "env": {"num_players": "all"}, "rllib": {"mode": "self_play"},
                       "algo": {"net_arch": [8]}})
    env = envs.SelfPlayEnv(c)
    space = env.observation_spaces[env.possible_agents[0]]
    module = MaskedMLP(observation_space=space, action_space=env.action_spaces[env.possible_agents[0]],
                       model_config={"hidden": [8], "activation": "tanh"})
    dist_cls = module.get_exploration_action_dist_cls()
    torch.manual_seed(0)

    def act(o: dict) -> int:
        batch = {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in o.items()}}
        with torch.no_grad():
            out = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        a = int(dist_cls.from_logits(out).sample()[0])
        assert o["action_mask"][a] == 1
        return a

    counts = set()
    for seed in range(2):
        obs, _ = env.reset(seed=seed)
        counts.add(len(env.env.possible_agents))
        totals: dict[str, float] = {}
        for _ in range(20_000):
            (agent, o), = obs.items()
            assert space.contains(o)
            obs, rewards, done, cut, _ = env.step({agent: act(o)})
            for a, r in rewards.items():
                totals[a] = totals.get(a, 0.0) + r
            if done["__all__"] or cut["__all__"]:
                break
        assert done["__all__"] or cut["__all__"]
        assert set(obs) == set(rewards) and set(obs) <= set(env.env.possible_agents)
        if done["__all__"]:
            returns = env.env.game.returns(env.env.state)
            for a, total in totals.items():
                assert total == pytest.approx(returns[int(a.split("_")[1])])

    learner = envs.make_learner_env({"config": cfg.from_dict({"game": game, "backend": "rllib"})})
    o, _ = learner.reset(seed=0)
    for _ in range(30):
        assert learner.observation_space.contains(o)
        o, _, done, cut, _ = learner.step(act(o))
        if done or cut:
            o, _ = learner.reset()


def test_an_env_runner_killed_mid_training_is_restarted_and_reported(ray_local, tmp_path: Path, monkeypatch,
                                                                      capsys) -> None:
    """SIGKILL to the env runner's process before the second iteration: the run finishes, the restart is
    printed with what the iteration sampled, and counted in summary.json and progress.csv."""
    import os
    import signal

    from training.rllib import train

    real = train.ppo_config

    class Killing:
        def __init__(self, config) -> None:
            self.config = config

        def build_algo(self):
            algo = self.config.build_algo()
            plain, calls = algo.train, []

            def train_once_killed():
                calls.append(1)
                if len(calls) == 2:
                    pids = algo.env_runner_group.foreach_env_runner(lambda er: os.getpid(), local_env_runner=False)
                    assert pids and os.getpid() not in pids
                    os.kill(pids[0], signal.SIGKILL)
                return plain()

            algo.train = train_once_killed
            return algo

    monkeypatch.setattr(train, "ppo_config", lambda c: Killing(real(c)))
    data = tiny(tmp_path, train__total_timesteps=640, train__eval_every=0)
    train.train(cfg.from_dict(data))
    captured = capsys.readouterr()
    out = captured.out + captured.err
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["env_runner_restarts"] >= 1 and summary["timesteps"] >= 640
    assert "env runner(s)" in out and "planned" in out
    assert "ray/env_runner_restarts" in (tmp_path / "run" / "progress.csv").read_text().splitlines()[0]


def test_the_learner_env_runs_in_rllibs_env_runner_through_deals_set_aside() -> None:
    """RLlib's SingleAgentEnvRunner (its gymnasium vector env, autoreset at the next step) drives 32
    learner envs with the masked module for a few thousand steps, from a seed at which sub-env 0's first
    deal ends before the learner's turn (Filthy Rich at 2 players against random play): no error, every
    observed mask has a legal action, every action taken is legal (the env raises on one that is not)."""
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from training.learner_env import make_env
    from training.rllib import envs, train

    data = {"game": "filthy_rich", "backend": "rllib", "env": {"num_players": 2},
            "opponents": {"pool": ["random"], "snapshot_every": 0},
            "algo": {"n_envs": 32, "n_steps": 32, "net_arch": [8]}, "rllib": {"num_env_runners": 0}}
    probe = make_env(cfg.from_dict(data))

    def no_turn(seed: int) -> bool:  # the deal at `seed` was set aside (or, unfixed, left the learner no turn)
        info = probe.reset(seed=seed)[1]
        return bool(info.get("redealt")) or probe.engine.current_player(probe.state) != probe.seat

    seed = next((s for s in range(3000) if no_turn(s)), None)
    assert seed is not None, "no deal without a learner's turn in 3000 seeds: pick another game for this test"
    c = cfg.from_dict({**data, "seed": seed})
    envs.register()
    runner = SingleAgentEnvRunner(config=train.ppo_config(c))
    try:
        steps, episodes, redealt = 0, [], False
        while steps < 3000:
            sampled = runner.sample(num_timesteps=1024, explore=True)
            steps += sum(len(e) for e in sampled)
            episodes += [e for e in sampled if e.is_done]
            for e in sampled:
                masks = np.asarray(e.get_observations()["action_mask"])
                assert masks.any(axis=1).all()
                taken = np.asarray(e.get_actions())
                assert masks[np.arange(len(taken)), taken].all()
                redealt |= bool(e.get_infos(0).get("redealt")) if e.t_started == 0 else False
    finally:
        runner.stop()
    assert steps >= 3000 and len(episodes) >= 50 and redealt


def _signalling(train, monkeypatch, at_call: int, signum: int) -> None:
    """Send `signum` to this process as the `at_call`-th PPO iteration begins (it still runs whole)."""
    import os

    real = train.ppo_config

    class Signalling:
        def __init__(self, config) -> None:
            self.config = config

        def build_algo(self):
            algo = self.config.build_algo()
            plain, calls = algo.train, []

            def train_signalled():
                calls.append(1)
                if len(calls) == at_call:
                    os.kill(os.getpid(), signum)
                return plain()

            algo.train = train_signalled
            return algo

    monkeypatch.setattr(train, "ppo_config", lambda c: Signalling(real(c)))


def test_a_signal_stops_an_rllib_run_with_a_checkpoint_that_resumes(ray_local, tmp_path: Path, monkeypatch,
                                                                     capsys) -> None:
    """SIGTERM (twice) during the second iteration, with the SIGTERM handler that ray.init installs: the run
    ends that iteration, saves it as checkpoints/step_128/ with its training time, names it and the command
    that resumes it, exits 143 without a traceback and restores the handlers; the resume trains the rest,
    and summary.json adds up the time of both sessions."""
    import contextlib
    import signal
    import sys

    from d2r_envs.cli import main
    from training.rllib import train

    real_connected = train.connected

    @contextlib.contextmanager
    def connected_as_ray_init_does(*args):
        with real_connected(*args) as ray:
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(signum))
            yield ray

    monkeypatch.setattr(train, "connected", connected_as_ray_init_does)
    _signalling(train, monkeypatch, 2, signal.SIGTERM)
    _signalling(train, monkeypatch, 2, signal.SIGTERM)  # the second signal, in the same iteration
    data = tiny(tmp_path, train__total_timesteps=192, train__eval_every=64)
    path = tmp_path / "rllib.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    assert main(["train", "--config", str(path)]) == 143
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
    run = tmp_path / "run"
    captured = capsys.readouterr()
    stopped = re.search(r"stopped by SIGTERM at step (\d+) ", captured.err)
    assert stopped and "Traceback" not in captured.err
    step = int(stopped.group(1))  # after two iterations: at least 128 (an iteration samples whole fragments)
    checkpoint = run / "checkpoints" / f"step_{step}"
    assert 128 <= step < 192 and f"to resume: d2r train --config {path} --resume {checkpoint}" in captured.err
    assert re.search(r"step 6\d: 2 games against random at 2 players: win share .* \(bar 90%, (not )?met\)",
                     captured.out + captured.err)  # eval_line, with its bar
    assert not (run / "final").exists() and not (run / "summary.json").exists()
    assert sorted(p.name for p in (run / "checkpoints").iterdir())[0] == checkpoint.name  # no temporary left
    first = json.loads((checkpoint / "d2r_progress.json").read_text())
    assert first["steps"] == step and len(first["rows"]) == 2 and first["seconds"] > 0 and first["cpu_seconds"] > 0
    assert len((run / "progress.csv").read_text().splitlines()) == 3

    monkeypatch.undo()
    assert main(["train", "--config", str(path), "--resume", str(checkpoint)]) == 0
    out = capsys.readouterr().out
    summary = json.loads((run / "summary.json").read_text())
    assert summary["backend"] == "rllib" and summary["timesteps"] >= 192
    assert summary["session_timesteps"] == summary["timesteps"] - step and summary["resumed_from"] == str(checkpoint)
    assert summary["seconds_before_resume"] == round(first["seconds"], 1)
    assert summary["seconds"] == pytest.approx(first["seconds"] + summary["session_seconds"], abs=0.11)
    assert summary["cpu_seconds"] > round(first["cpu_seconds"], 1)  # the CPU before the stop, and this session's
    assert f"resumed at step {step}" in out and f"the run in all: {summary['timesteps']} steps in " in out
    rows = (run / "progress.csv").read_text().splitlines()
    assert len(rows) == 4 and [r.split(",")[1] for r in rows[1:]] == ["1", "2", "3"]


def test_a_signal_before_the_first_rllib_iteration_stops_at_once(ray_local, tmp_path: Path, monkeypatch,
                                                                 capsys) -> None:
    """SIGINT while the algorithm is built: nothing to resume from; the command to start again, exit 130."""
    import os
    import signal

    from d2r_envs.cli import main
    from training.rllib import train

    class Interrupted:
        def build_algo(self):
            os.kill(os.getpid(), signal.SIGINT)
            raise AssertionError("the signal did not stop the run")

    monkeypatch.setattr(train, "ppo_config", lambda c: Interrupted())
    path = tmp_path / "rllib.yaml"
    path.write_text(yaml.safe_dump(tiny(tmp_path)), encoding="utf-8")
    assert main(["train", "--config", str(path)]) == 130
    err = capsys.readouterr().err
    assert "stopped by SIGINT before training began" in err and "Traceback" not in err
    assert f"to start again: d2r train --config {path} --force" in err


def test_a_folder_that_is_no_rllib_checkpoint_is_refused_before_ray_starts(tmp_path: Path, capsys) -> None:
    from d2r_envs.cli import main

    path = tmp_path / "rllib.yaml"
    path.write_text(yaml.safe_dump(tiny(tmp_path)), encoding="utf-8")
    (tmp_path / "empty").mkdir()
    assert main(["train", "--config", str(path), "--resume", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert f"--resume {tmp_path / 'empty'}: not a checkpoint folder of a d2r RLlib run" in err
    assert err.count("\n") == 1 and not (tmp_path / "run").exists()
