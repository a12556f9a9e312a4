"""Training configs are checked before anything runs; a tiny run checkpoints, resumes and exports."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

import d2r_envs

pytest.importorskip("sb3_contrib")

from training import config as cfg  # noqa: E402
from training import train  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = sorted((ROOT / "configs").glob("*/ppo.yaml"))


def tiny(tmp_path: Path, **over) -> dict:
    data = yaml.safe_load(CONFIGS[0].read_text(encoding="utf-8"))
    data["env"].pop("player_weights", None)
    data["env"]["num_players"] = 4  # one count (the shipped configs train every count)
    data["algo"].update(n_envs=2, n_steps=32, batch_size=32, n_epochs=1, net_arch=[16])
    data["opponents"].update(pool=["random"], snapshot_every=64, max_snapshots=1)
    data["train"].update(total_timesteps=128, checkpoint_every=64, eval_every=64, eval_games=2,
                         eval_opponent="random", run_dir=str(tmp_path / "run"), torch_threads=1)
    data["export"] = {"name": "", "out_root": str(tmp_path / "models")}
    data["imitate"].update(games=2, epochs=1)  # the warm start's path, kept quick
    for key, value in over.items():
        section, _, field = key.partition("__")
        data[section][field] = value
    return data


def test_every_shipped_config_loads() -> None:
    shipped = sorted((ROOT / "configs").glob("*/ppo*.yaml"))  # each game's ppo.yaml and any ppo-vN.yaml
    assert {ROOT / "configs" / name / "ppo.yaml" for name in d2r_envs.names()} <= set(shipped)
    for path in shipped:
        cfg.load(path)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["algo"].update(learning_rat=0.1), "algo: unknown key.*learning_rat"),
        (lambda d: d.update(colour="red"), "unknown key.*colour"),
        (lambda d: d["algo"].update(n_steps="many"), "algo.n_steps: expected int"),
        (lambda d: d["algo"].update(n_envs=True), "algo.n_envs: expected int"),
        (lambda d: d["algo"].update(vec_env="threads"), "algo.vec_env.*allowed: dummy, subproc"),
        (lambda d: d["algo"].update(n_envs=0), "algo.n_envs: must be at least 1"),
        (lambda d: d["env"].update(num_players=9), "num_players.*3..6"),
        (lambda d: d["env"].update(options={"short": 1}), "unknown option.*'short'"),
        (lambda d: d["env"].update(observation={"views": True}),
         "env.observation: draco_and_co observation: unknown option.*'views'.*takes none"),
        (lambda d: d["env"].update(observation=["views"]), "env.observation: expected dict"),
        (lambda d: d["opponents"].update(pool=["grandmaster"]), "grandmaster"),
        (lambda d: d.pop("game"), "missing key.*game"),
    ],
)
def test_bad_configs_are_refused_naming_the_key(tmp_path: Path, edit, message: str) -> None:
    data = tiny(tmp_path)
    edit(data)
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.from_dict(data)


def test_cli_refuses_a_bad_config_before_training(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("game: draco_and_co\nalgo: {n_stepz: 3}\n", encoding="utf-8")
    assert train.main(["--config", str(path)]) == 2
    assert "n_stepz" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_tiny_run_logs_checkpoints_snapshots_resumes_and_exports(tmp_path: Path) -> None:
    data = tiny(tmp_path)
    c = cfg.from_dict(data)
    train.train(c)
    run = tmp_path / "run"
    assert (run / "final.zip").is_file() and (run / "checkpoints" / "step_64.zip").is_file()
    assert sorted(p.name for p in (run / "snapshots").iterdir()) == ["step_128.safetensors", "step_64.safetensors"]
    rows = list(csv.DictReader((run / "progress.csv").open()))
    assert rows and "eval/win_share" in rows[0] and int(float(rows[-1]["time/total_timesteps"])) >= 128
    assert any(list(run.glob("events.out.tfevents*")))
    # Resume from the first checkpoint up to a larger budget, then export.
    data["train"]["total_timesteps"] = 192
    data["export"]["name"] = "tiny-v1"
    resumed = cfg.from_dict(data)
    train.train(resumed, resume=str(run / "checkpoints" / "step_64.zip"), raw_config=data)
    assert json.loads((run / "summary.json").read_text())["timesteps"] >= 192
    import d2r_envs

    policy = d2r_envs.load_opponent(str(tmp_path / "models" / "draco_and_co" / "tiny-v1"))
    assert policy.manifest["training"]["config"]["train"]["total_timesteps"] == 192
    assert policy.manifest["training"]["player_counts"] == [4] and "player_weights" not in policy.manifest["training"]


def test_same_seed_same_weights(tmp_path: Path) -> None:
    from safetensors.numpy import load_file

    weights = []
    for run in ("a", "b"):
        data = tiny(tmp_path / run)
        data["train"].update(eval_every=0, checkpoint_every=0)
        train.train(cfg.from_dict(data))
        weights.append(load_file(str(tmp_path / run / "run" / "snapshots" / "step_128.safetensors")))
    assert weights[0].keys() == weights[1].keys()
    assert all((weights[0][k] == weights[1][k]).all() for k in weights[0])


@pytest.mark.parametrize(
    ("imitate", "message"),
    [
        ({"teacher": "grandmaster", "games": 2}, "grandmaster"),
        ({"teacher": "heuristic", "games": 0}, "imitate: games, epochs, batch_size, rounds and workers must be at least 1"),
        ({"teacher": "heuristic", "games": 2, "rounds": 0}, "imitate: games, epochs, batch_size, rounds and workers must be at least 1"),
        ({"teacher": "heuristic", "gamez": 2}, "imitate: unknown key.*gamez"),
    ],
)
def test_bad_imitation_configs_are_refused(tmp_path: Path, imitate: dict, message: str) -> None:
    data = tiny(tmp_path)
    data["imitate"] = imitate
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.from_dict(data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["train"].update(total_timesteps=-1), "train.total_timesteps: must be 0 .* or more, got -1"),
        (lambda d: d["train"].update(total_timesteps=0), "train.total_timesteps: 0 .* needs an imitate.teacher"),
        (lambda d: (d["train"].update(total_timesteps=0), d.update(backend="rllib"),
                    d["imitate"].update(teacher="heuristic", games=2)), "needs an imitate.teacher and backend: sb3"),
    ],
)
def test_no_ppo_steps_needs_a_warm_start_on_sb3(tmp_path: Path, edit, message: str) -> None:
    data = tiny(tmp_path)
    data["imitate"] = {}
    edit(data)
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.from_dict(data)


def test_no_ppo_steps_exports_the_warm_start_alone(tmp_path: Path, capsys) -> None:
    """train.total_timesteps: 0: the model is the imitation warm start, exported as it is, with no PPO."""
    from safetensors.numpy import load_file

    data = tiny(tmp_path)
    data["train"].update(total_timesteps=0)
    data["imitate"] = {"teacher": "heuristic", "games": 2, "epochs": 2}
    data["export"]["name"] = "warm"
    train.train(cfg.from_dict(data))
    run = tmp_path / "run"
    warm = train.MaskablePPO.load(run / "checkpoints" / "imitation.zip", device="cpu")
    final = train.MaskablePPO.load(run / "final.zip", device="cpu")
    assert final.num_timesteps == 0 and json.loads((run / "summary.json").read_text())["timesteps"] == 0
    assert all((a == b).all() for a, b in zip(warm.policy.parameters(), final.policy.parameters()))
    fresh = train.new_model(cfg.from_dict(data), train.make_vec_env(cfg.from_dict(data)))
    assert any((a != b).any() for a, b in zip(warm.policy.parameters(), fresh.policy.parameters()))
    exported = load_file(str(tmp_path / "models" / data["game"] / "warm" / "policy.safetensors"))
    manifest = json.loads((tmp_path / "models" / data["game"] / "warm" / "manifest.json").read_text())
    assert manifest["training"]["total_timesteps"] == 0 and exported
    assert not list(run.glob("snapshots/*")) and "exported to" in capsys.readouterr().out


def test_imitation_fits_the_teacher_and_is_deterministic(tmp_path: Path) -> None:
    """A warm start on a few heuristic games: the policy then picks the heuristic's move on most of
    those positions (a fresh policy agrees on few), and the same seed gives the same weights."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 6, "epochs": 30, "batch_size": 64, "learning_rate": 0.003}
    c = cfg.from_dict(data)
    env = train.make_env(c)
    teacher = imitate.make_agent("heuristic", c.game, env.engine)
    recorded = imitate.record(env, teacher, 6, c.algo.gamma, seed=1)
    assert len(recorded["actions"]) == len(recorded["obs"]) == len(recorded["targets"]) > 30
    assert recorded["masks"][np.arange(len(recorded["actions"])), recorded["actions"]].all()
    targets = np.abs(recorded["targets"])  # gamma ** decisions-left: each game ends at 1
    assert targets.max() == pytest.approx(1.0) and (targets > 0).all() and (targets <= 1 + 1e-6).all()

    fresh = train.new_model(c, train.make_vec_env(c))
    before = imitate.fit(fresh.policy, recorded, epochs=0, batch_size=64, learning_rate=0.0, vf_coef=0.5, seed=0)
    weights = []
    for _ in range(2):
        model = train.new_model(c, train.make_vec_env(c))
        result = imitate.warm_start(model, c, train.make_env)
        weights.append([p.detach().clone() for p in model.policy.parameters()])
    assert result["agreement"] > max(0.6, before["agreement"] + 0.3), (before, result)
    assert all((a == b).all() for a, b in zip(*weights))


def test_dagger_rounds_record_the_policys_games_labelled_by_the_teacher(tmp_path: Path) -> None:
    """With rounds: 2 the second round's positions come from games the fitted policy plays (the
    teacher's move recorded, the student's played), all of it is fitted again, and the same seed
    gives the same weights."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 4, "epochs": 10, "batch_size": 64, "learning_rate": 0.003,
                       "rounds": 2}
    c = cfg.from_dict(data)
    env = train.make_env(c)
    teacher = imitate.make_agent("heuristic", c.game, env.engine)
    model = train.new_model(c, train.make_vec_env(c))
    by_teacher = imitate.record(env, teacher, 3, c.algo.gamma, seed=5)
    by_student = imitate.record(env, teacher, 3, c.algo.gamma, seed=5, student=model.policy)
    assert by_student["masks"][np.arange(len(by_student["actions"])), by_student["actions"]].all()
    assert len(by_student["actions"]) != len(by_teacher["actions"]) or (by_student["obs"] != by_teacher["obs"]).any()

    weights, results = [], []
    for _ in range(2):
        model = train.new_model(c, train.make_vec_env(c))
        results.append(imitate.warm_start(model, c, train.make_env))
        weights.append([p.detach().clone() for p in model.policy.parameters()])
    first, second = results[0]["rounds"]
    assert second["samples"] > first["samples"] and 0.0 <= second["agreement_before"] <= 1.0
    assert results[0] == results[1] and all((a == b).all() for a, b in zip(*weights))


def test_imitation_records_the_same_games_on_several_workers(tmp_path: Path) -> None:
    """imitate.workers: 2 records the games on two forked processes, each a share of them: the same
    positions, moves and targets, in the same order, as one process; the student's games too."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 5, "rounds": 2}
    one = cfg.from_dict(data)
    data["imitate"]["workers"] = 2
    two = cfg.from_dict(data)
    model = train.new_model(one, train.make_vec_env(one))
    for student in (None, model.policy):
        a = imitate.record_games(one, train.make_env, 5, one.algo.gamma, seed=3, student=student)
        b = imitate.record_games(two, train.make_env, 5, two.algo.gamma, seed=3, student=student)
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    data["imitate"]["workers"] = 0
    with pytest.raises(cfg.ConfigError, match="rounds and workers must be at least 1"):
        cfg.from_dict(data)


def test_the_reward_key_is_checked_and_reaches_the_training_envs(tmp_path: Path) -> None:
    data = tiny(tmp_path)
    data["env"]["reward"] = "margin"
    c = cfg.from_dict(data)
    vec = train.make_vec_env(c)
    assert vec.get_attr("reward") == ["margin"] * c.algo.n_envs
    assert train.make_env(c).reward == "return"  # evaluations and imitation keep the return
    data["env"]["reward"] = "points"
    with pytest.raises(cfg.ConfigError, match="env.reward: 'points' is not allowed; allowed: return, margin"):
        cfg.from_dict(data)


def _write(tmp_path: Path, data: dict) -> str:
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def test_the_same_command_twice_refuses_up_front_then_force_overwrites(tmp_path: Path, capsys) -> None:
    """A taken export name and an earlier run in train.run_dir are found before the first step, with
    the ways out named; --force overwrites both; --export-name picks another name."""
    from d2r_envs.cli import main as d2r

    data = tiny(tmp_path)
    data["train"].update(eval_every=0, checkpoint_every=0)
    data["export"]["name"] = "tiny-v1"
    path = _write(tmp_path, data)
    assert d2r(["train", "--config", path]) == 0
    model = tmp_path / "models" / "draco_and_co" / "tiny-v1"
    first = (model / "manifest.json").read_bytes()
    final = (tmp_path / "run" / "final.zip").stat().st_mtime_ns
    capsys.readouterr()

    assert d2r(["train", "--config", path]) == 2
    err = capsys.readouterr().err
    assert "already holds a model" in err and "--force" in err and "--export-name" in err
    assert "train.run_dir" in err and "--resume" in err
    assert (model / "manifest.json").read_bytes() == first
    assert (tmp_path / "run" / "final.zip").stat().st_mtime_ns == final  # nothing ran

    written = (model / "manifest.json").stat().st_mtime_ns
    assert d2r(["train", "--config", path, "--force"]) == 0
    assert (model / "manifest.json").stat().st_mtime_ns > written  # exported again
    assert (tmp_path / "run" / "final.zip").stat().st_mtime_ns > final
    assert d2r(["train", "--config", path, "--force", "--export-name", "tiny-v2"]) == 0
    other = d2r_envs_load(tmp_path / "models" / "draco_and_co" / "tiny-v2")
    assert other.manifest["training"]["config"]["export"]["name"] == "tiny-v2"


def d2r_envs_load(folder: Path):
    import d2r_envs

    return d2r_envs.load_opponent(str(folder))


@pytest.mark.parametrize("name", ["a/b", "..", "-x", "my model", ".hidden"])
def test_an_invalid_export_name_is_a_config_error(tmp_path: Path, name: str) -> None:
    data = tiny(tmp_path)
    data["export"]["name"] = name
    with pytest.raises(cfg.ConfigError, match="export.name.*not allowed.*letters, digits"):
        cfg.from_dict(data)


def test_an_unwritable_export_place_is_refused_before_training(tmp_path: Path, capsys) -> None:
    from d2r_envs.cli import main as d2r

    data = tiny(tmp_path)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    data["export"].update(name="tiny-v1", out_root=str(blocker))
    assert d2r(["train", "--config", _write(tmp_path, data)]) == 2
    assert "cannot write the model folder" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_yaml_exponents_without_a_dot_are_floats(tmp_path: Path) -> None:
    data = tiny(tmp_path)
    data["algo"]["learning_rate"] = "3e-4"  # what YAML 1.1 makes of `learning_rate: 3e-4`
    assert yaml.safe_load("learning_rate: 3e-4")["learning_rate"] == "3e-4"
    assert cfg.from_dict(data).algo.learning_rate == pytest.approx(3e-4)
    data["algo"]["learning_rate"] = "fast"
    with pytest.raises(cfg.ConfigError, match="algo.learning_rate: expected float"):
        cfg.from_dict(data)


def test_planned_timesteps_round_up_to_whole_rollouts(tmp_path: Path) -> None:
    data = tiny(tmp_path)
    data["train"]["total_timesteps"] = 100  # rollouts of 2 envs x 32 steps
    c = cfg.from_dict(data)
    assert train.planned_timesteps(c) == 128 and train.planned_timesteps(c, start=64) == 128
    assert train.planned_timesteps(c, start=128) == 128


def test_evaluations_are_printed_and_snapshots_are_not_private(tmp_path: Path, capsys) -> None:
    import os

    data = tiny(tmp_path)
    train.train(cfg.from_dict(data))
    out = capsys.readouterr().out
    assert "step 64: 2 games against random: win share" in out
    # each result beside the bar it aims at: 4 players against random, twice random's win share per seat
    assert re.search(r"step 64: 2 games against random: win share \d+\.\d% \(bar \d+\.\d%: twice random's win "
                     r"share \d+\.\d%, (met|not met)\), mean return", out), out
    umask = os.umask(0)
    os.umask(umask)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "run" / "snapshots").iterdir()}
    assert modes and set(modes.values()) == {0o666 & ~umask}, modes


@pytest.mark.parametrize(
    ("imitate", "message"),
    [
        ({"teacher": "", "refine_teacher": "rollouts:2"}, "refine_teacher: needs imitate.teacher"),
        ({"teacher": "heuristic", "games": 2, "refine_teacher": "rollouts:2"}, "refine_games and refine_rounds must be at least 1"),
        ({"teacher": "heuristic", "games": 2, "refine_teacher": "rollouts:2", "refine_games": 2, "refine_rounds": 0},
         "refine_games and refine_rounds must be at least 1"),
        ({"teacher": "heuristic", "games": 2, "refine_teacher": "rollouts:2", "refine_games": 2, "refine_weight": 0},
         "refine_weight: expected a positive number"),
        ({"teacher": "heuristic", "games": 2, "refine_teacher": "rollouts:2:x", "refine_games": 2}, "guard"),
    ],
)
def test_bad_refining_configs_are_refused(tmp_path: Path, imitate: dict, message: str) -> None:
    data = tiny(tmp_path)
    data["imitate"] = imitate
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.from_dict(data)


def test_refining_rounds_label_the_policys_games_by_the_second_teacher(tmp_path: Path) -> None:
    """refine_teacher: after the first teacher's rounds, a round of the policy's games labelled by the
    second teacher (here random, whose labels the policy cannot have learnt), weighted in the fit by
    refine_weight; the same seed gives the same weights."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 4, "epochs": 10, "batch_size": 64, "learning_rate": 0.003,
                       "refine_teacher": "random", "refine_games": 3, "refine_weight": 2.5}
    c = cfg.from_dict(data)
    weights, results = [], []
    for _ in range(2):
        model = train.new_model(c, train.make_vec_env(c))
        results.append(imitate.warm_start(model, c, train.make_env))
        weights.append([p.detach().clone() for p in model.policy.parameters()])
    first, refined = results[0]["rounds"]
    assert "teacher" not in first and refined["teacher"] == "random"
    assert refined["samples"] > first["samples"] and refined["agreement_before"] < first["agreement"]
    assert results[0] == results[1] and all((a == b).all() for a, b in zip(*weights))


def test_a_weighted_fit_counts_each_label_by_its_weight(tmp_path: Path) -> None:
    """fit with `weights`: the same position labelled two ways, the heavier label wins."""
    import torch

    from training import imitate

    c = cfg.from_dict(tiny(tmp_path))
    env = train.make_env(c)
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    legal = np.flatnonzero(mask)
    assert len(legal) >= 2
    data = {"obs": np.repeat(obs[None], 4, 0).astype(np.float32), "masks": np.repeat(mask[None], 4, 0),
            "actions": np.array([legal[0]] * 3 + [legal[1]]), "targets": np.zeros(4, np.float32)}
    for heavy, expected in ((np.float32(1.0), legal[0]), (np.float32(9.0), legal[1])):
        model = train.new_model(c, train.make_vec_env(c))
        weighted = dict(data, weights=np.array([1, 1, 1, heavy], np.float32))
        imitate.fit(model.policy, weighted, epochs=60, batch_size=4, learning_rate=0.01, vf_coef=0.5, seed=0)
        dist = model.policy.get_distribution(torch.as_tensor(data["obs"][:1]), action_masks=data["masks"][:1])
        assert int(dist.distribution.probs.argmax()) == expected


@pytest.mark.parametrize(("text", "expected"), [("9e6", 9_000_000), ("9.0e+6", 9_000_000), ("1_000_000", 1_000_000),
                                                 ("9.5e6", 9_500_000), ("12", 12)])
def test_yaml_whole_numbers_are_taken_where_an_int_is_expected(tmp_path: Path, text: str, expected: int) -> None:
    """YAML 1.1 reads `9e6` as a string and `9.0e+6` as a float: a whole number either way."""
    data = tiny(tmp_path)
    data["train"]["total_timesteps"] = yaml.safe_load(f"n: {text}")["n"]
    value = cfg.from_dict(data).train.total_timesteps
    assert value == expected and type(value) is int


@pytest.mark.parametrize("text", ["2.5", "1e-3", "2.5e+0", ".nan", ".inf"])
def test_yaml_numbers_that_are_not_whole_are_refused_where_an_int_is_expected(tmp_path: Path, text: str) -> None:
    data = tiny(tmp_path)
    data["algo"]["n_steps"] = yaml.safe_load(f"n: {text}")["n"]
    with pytest.raises(cfg.ConfigError, match=r"algo.n_steps: .* is not a whole number; allowed: a whole number, such as"):
        cfg.from_dict(data)


def test_the_imitation_fit_shows_its_progress(tmp_path: Path, capsys) -> None:
    from training import imitate

    c = cfg.from_dict(tiny(tmp_path))
    env = train.make_env(c)
    data = imitate.record(env, imitate.make_agent("heuristic", env.engine), 2, c.algo.gamma, seed=1)
    model = train.new_model(c, train.make_vec_env(c))
    imitate.fit(model.policy, data, epochs=3, batch_size=64, learning_rate=1e-3, vf_coef=0.5, seed=0,
                progress="heuristic: fitting the policy")
    err = capsys.readouterr().err
    assert "heuristic: fitting the policy" in err and "3/3" in err and "epoch" in err and "loss " in err


def test_the_estimate_of_the_time_left_follows_the_recent_rate_and_counts_the_evaluations() -> None:
    eta = train.Eta(window=100.0, least=20.0)
    assert eta.text(0, 10_000, 0) == "estimating the time left"
    eta.record(1_000, 5.0)  # the first rollout's end: where measuring starts
    eta.record(2_000, 15.0)
    assert eta.seconds_left(2_000, 10_000, 0) is None  # under 20 s seen
    for k in range(3, 30):  # 1,000 steps every 10 s, then 1,000 steps every 20 s from step 10,000
        eta.record(k * 1_000, 15.0 + 10 * min(k - 2, 8) + 20 * max(0, k - 10))
    assert eta.seconds_left(29_000, 39_000, 0) == pytest.approx(10 * 20.0)  # the recent rate, not the whole run's
    eta.evaluated(30.0)
    eta.evaluated(50.0)
    eta.record(30_000, 15.0 + 80 + 20 * 20 + 80)  # 80 s of that in the evaluations: left out of the rate
    assert eta.seconds_left(30_000, 40_000, 2) == pytest.approx(10 * 20.0 + 2 * 40.0)
    assert eta.text(30_000, 40_000, 2) == "about 5 min left, estimated"


def test_write_atomic_keeps_the_old_file_when_stopped_mid_write(tmp_path: Path, monkeypatch) -> None:
    from training import run_folder

    path = tmp_path / "checkpoints" / "step_64.zip"
    run_folder.write_atomic(path, b"old")

    def stopped(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(run_folder.os, "fsync", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_folder.write_atomic(path, b"new, cut off")
    assert path.read_bytes() == b"old" and os.listdir(path.parent) == ["step_64.zip"]


def _signal_at(monkeypatch, step: int, *signums: int) -> None:
    """Send `signums` to this process when the learner reaches `step`."""
    on_step = train.SelfPlay._on_step

    def sending(self) -> bool:
        if self.num_timesteps == step:
            for signum in signums:
                os.kill(os.getpid(), signum)
        return on_step(self)

    monkeypatch.setattr(train.SelfPlay, "_on_step", sending)


def test_a_signal_stops_training_with_a_checkpoint_that_resumes(tmp_path: Path, monkeypatch, capsys) -> None:
    """SIGTERM (twice) at step 96: the run stops at the next step, saves the last whole rollout (step
    64) as a checkpoint, names it and the command that resumes it, exits 143 and restores the handlers;
    resuming adds the training time of both sessions and exports once."""
    data = tiny(tmp_path)
    data["train"].update(total_timesteps=256, checkpoint_every=0, eval_every=0)
    data["export"]["name"] = "tiny-v1"
    path = _write(tmp_path, data)
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    _signal_at(monkeypatch, 96, signal.SIGTERM, signal.SIGTERM)
    assert train.main(["--config", path]) == 143
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
    run = tmp_path / "run"
    checkpoint = run / "checkpoints" / "step_64.zip"
    err = capsys.readouterr().err
    assert "stopped by SIGTERM at step 64" in err and "Traceback" not in err
    assert f"to resume: python -m training.train --config {path} --resume {checkpoint}" in err
    assert not (run / "final.zip").exists() and not (tmp_path / "models").exists()
    assert [p.name for p in (run / "checkpoints").iterdir() if p.name.startswith(".")] == []
    first = train.MaskablePPO.load(checkpoint, device="cpu")
    assert first.num_timesteps == 64 and first.training_seconds > 0 and first.training_cpu_seconds > 0

    monkeypatch.undo()
    assert train.main(["--config", path, "--resume", str(checkpoint)]) == 0
    out = capsys.readouterr().out
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] == 256 and summary["session_timesteps"] == 192
    assert summary["seconds_before_resume"] == round(first.training_seconds, 1)
    assert summary["seconds"] == pytest.approx(first.training_seconds + summary["session_seconds"], abs=0.11)
    assert summary["cpu_seconds"] > round(first.training_cpu_seconds, 1)  # the CPU before the stop, and this session's
    assert "trained 192 steps in " in out and "resumed at step 64" in out and "the run in all: 256 steps in " in out
    assert out.count("exported to") == 1


def test_ctrl_c_in_a_terminal_stops_a_run_with_subprocess_envs(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it: the env workers ignore it,
    the run saves a checkpoint, says how to resume, exits 130 without a traceback; the checkpoint resumes."""
    data = tiny(tmp_path)
    data["algo"]["vec_env"] = "subproc"
    data["train"].update(total_timesteps=1_000_000, checkpoint_every=0, eval_every=64)
    path = _write(tmp_path, data)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "training.train", "--config", path], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        for line in proc.stdout:
            if line.startswith("step 64: "):
                break
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "stopped by SIGINT at step " in err
    checkpoint = Path(re.search(r"--resume (\S+)", err).group(1))
    step = int(re.search(r"step_(\d+)\.zip", checkpoint.name).group(1))
    assert checkpoint.is_file() and step >= 64
    data["algo"]["vec_env"] = "dummy"
    data["train"].update(total_timesteps=step + 64, eval_every=0)
    assert train.main(["--config", _write(tmp_path, data), "--resume", str(checkpoint)]) == 0
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["timesteps"] == step + 64


def test_a_signal_during_the_warm_start_stops_at_once(tmp_path: Path, monkeypatch, capsys) -> None:
    def interrupted(*args):
        os.kill(os.getpid(), signal.SIGINT)
        raise AssertionError("the signal did not stop the warm start")

    monkeypatch.setattr(train, "journalled_warm_start", interrupted)
    path = _write(tmp_path, tiny(tmp_path))
    assert train.main(["--config", path]) == 130
    err = capsys.readouterr().err
    assert "stopped by SIGINT before training began" in err and "Traceback" not in err
    assert f"to start again: python -m training.train --config {path} --force" in err


def test_recorded_games_are_journalled_in_chunks_and_read_back(tmp_path: Path, monkeypatch) -> None:
    """record_games with a journal writes each chunk of games when whole and, called again, reads them
    back instead of playing them: the same arrays as without a journal. A chunk is named by what made
    it, so another seed or another student's weights play their games afresh."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 12}
    c = cfg.from_dict(data)
    journal = tmp_path / "games"
    plain = imitate.record_games(c, train.make_env, 12, c.algo.gamma, seed=3)
    first = imitate.record_games(c, train.make_env, 12, c.algo.gamma, seed=3, journal=journal)
    files = sorted(journal.iterdir())
    assert [f.name.split("-games-")[1] for f in files] == ["0-9.npz", "10-11.npz"]
    played = []
    real = imitate.record
    monkeypatch.setattr(imitate, "record", lambda *a, **k: played.append(a[2]) or real(*a, **k))
    again = imitate.record_games(c, train.make_env, 12, c.algo.gamma, seed=3, journal=journal)
    assert played == []
    for other in (first, again):
        assert other.keys() == plain.keys() and all(np.array_equal(plain[k], other[k]) for k in plain)
    files[1].unlink()  # a chunk lost: only it is played again
    imitate.record_games(c, train.make_env, 12, c.algo.gamma, seed=3, journal=journal)
    assert played == [2]
    imitate.record_games(c, train.make_env, 12, c.algo.gamma, seed=4, journal=journal)
    student = train.new_model(c, train.make_vec_env(c)).policy
    imitate.record_games(c, train.make_env, 12, c.algo.gamma, seed=3, student=student, journal=journal)
    assert played == [2, 10, 2, 10, 2] and len(list(journal.iterdir())) == 6


def test_a_journalled_warm_start_keeps_each_fit_and_reads_it_back(tmp_path: Path, monkeypatch) -> None:
    """With a journal, each round's fitted weights are kept beside the games: the warm start run again
    (a fresh model, the same config) neither plays nor fits, and ends with the same weights and result;
    with a refining round added, it fits only that round."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"] = {"teacher": "heuristic", "games": 4, "epochs": 2, "batch_size": 64, "rounds": 2}
    c = cfg.from_dict(data)
    journal = tmp_path / "journal"
    runs = []
    for _ in range(2):
        model = train.new_model(c, train.make_vec_env(c))
        runs.append((imitate.warm_start(model, c, train.make_env, journal=journal),
                     [p.detach().clone() for p in model.policy.parameters()]))
        monkeypatch.setattr(imitate, "fit", lambda *a, **k: pytest.fail("fitted again"))
        monkeypatch.setattr(imitate, "record", lambda *a, **k: pytest.fail("played again"))
    assert len(list(journal.glob("*-fit.pt"))) == 2
    assert runs[0][0] == runs[1][0] and all((a == b).all() for a, b in zip(runs[0][1], runs[1][1]))
    monkeypatch.undo()
    data["imitate"].update(refine_teacher="random", refine_games=2)  # a refining round added: only it is new
    c = cfg.from_dict(data)
    fits = []
    real_fit = imitate.fit
    monkeypatch.setattr(imitate, "fit", lambda *a, **k: fits.append(1) or real_fit(*a, **k))
    imitate.warm_start(train.new_model(c, train.make_vec_env(c)), c, train.make_env, journal=journal)
    assert len(fits) == 1 and len(list(journal.glob("*-fit.pt"))) == 3


def test_a_warm_start_stopped_part_way_goes_on_from_the_games_it_recorded(tmp_path: Path, monkeypatch, capsys) -> None:
    """SIGINT while the warm start records: the chunks recorded are kept in the run folder, the message
    gives the same command (no --force), and that command plays only the rest; the warm start is then
    the same as one never stopped, and its games are deleted."""
    from training import imitate

    data = tiny(tmp_path)
    data["imitate"].update(games=25)
    data["train"].update(total_timesteps=64, eval_every=0)
    path = _write(tmp_path, data)
    games = tmp_path / "run" / "imitation-games"
    played, stop_at = [], [2]
    real = imitate.record

    def stopping(*args, **kwargs):
        played.append(args[2])
        if len(played) in stop_at:
            stop_at.clear()
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(imitate, "record", stopping)
    assert train.main(["--config", path]) == 130
    err = capsys.readouterr().err
    assert "stopped by SIGINT in the imitation warm start" in err and "Traceback" not in err
    assert f"kept in {games}\nto go on from them: python -m training.train --config {path}\n" in err
    assert len(list(games.iterdir())) == 1
    played.clear()
    assert train.main(["--config", path]) == 0
    assert played == [10, 5] and not games.exists()
    stopped = json.loads((tmp_path / "run" / "imitation.json").read_text())
    data["train"]["run_dir"] = str(tmp_path / "straight")
    assert train.main(["--config", _write(tmp_path, data)]) == 0
    straight = json.loads((tmp_path / "straight" / "imitation.json").read_text())
    clocks = ("seconds", "cpu_seconds")
    assert ({k: v for k, v in stopped.items() if k not in clocks}
            == {k: v for k, v in straight.items() if k not in clocks})


def _damaged(tmp_path: Path) -> dict[str, Path]:
    """A tiny run's checkpoint, and copies of it: truncated, with a flipped byte, of other spaces."""
    data = tiny(tmp_path)
    data["imitate"] = {}
    data["train"].update(total_timesteps=64, eval_every=0)
    train.train(cfg.from_dict(data))
    good = tmp_path / "run" / "checkpoints" / "step_64.zip"
    raw = good.read_bytes()
    paths = {"truncated": tmp_path / "truncated.zip", "flipped": tmp_path / "flipped.zip", "other": tmp_path / "other.zip"}
    paths["truncated"].write_bytes(raw[: len(raw) // 2])
    flipped = bytearray(raw)
    flipped[raw.find(b"policy.pth") + 300] ^= 0xFF
    paths["flipped"].write_bytes(bytes(flipped))
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(paths["other"], "w") as dst:
        for item in src.infolist():
            blob = src.read(item.filename)
            if item.filename == "data":
                meta = json.loads(blob)
                meta["observation_space"]["_shape"] = [7]
                blob = json.dumps(meta).encode()
            dst.writestr(item, blob)
    return paths


def test_a_damaged_checkpoint_is_refused_in_one_line_before_any_work(tmp_path: Path, capsys) -> None:
    from d2r_envs.cli import main as d2r

    paths = _damaged(tmp_path)
    path = _write(tmp_path, tiny(tmp_path))
    capsys.readouterr()
    before = sorted(os.listdir(tmp_path / "run"))
    for kind, message in (("truncated", "not a whole SB3 checkpoint"), ("flipped", "the checkpoint is damaged"),
                          ("other", "a checkpoint of another game or observation \\(7 observation values")):
        assert d2r(["train", "--config", path, "--resume", str(paths[kind])]) == 2
        err = capsys.readouterr().err
        assert re.fullmatch(f"error: --resume {re.escape(str(paths[kind]))}: {message}[^\n]*\n", err), err
    assert sorted(os.listdir(tmp_path / "run")) == before  # nothing ran
    assert d2r(["export", "--checkpoint", str(paths["truncated"]), "--game", "draco_and_co", "--name", "x",
                "--out-root", str(tmp_path / "models")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a whole SB3 checkpoint" in err


LOCK_HOLDER = """
import fcntl, json, os, socket, sys
f = open(sys.argv[1], "a+b")
fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
f.truncate(0)
f.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": "then"}).encode())
f.flush()
print("locked", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(importlib.util.find_spec("fcntl") is None, reason="the run folder's lock needs fcntl (POSIX)")
def test_a_run_folder_in_use_is_refused_even_with_force(tmp_path: Path, capsys) -> None:
    """Another process holding the run folder's lock: `d2r train --force` refuses, naming its pid, and
    deletes nothing; once that process is gone (killed: no stale lock), the run starts."""
    from d2r_envs.cli import main as d2r

    data = tiny(tmp_path)
    data["train"].update(eval_every=0, checkpoint_every=0)
    path = _write(tmp_path, data)
    run = tmp_path / "run"
    run.mkdir()
    (run / "progress.csv").write_text("a live run's log\n")
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(run / "train.lock")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        assert d2r(["train", "--config", path, "--force"]) == 2
        err = capsys.readouterr().err
        assert f"is in use by another training run (pid {holder.pid} on " in err and "--force does not override" in err
        assert f"kill -INT {holder.pid}" in err and "--force (its checkpoints" not in err
        assert (run / "progress.csv").read_text() == "a live run's log\n"
    finally:
        holder.kill()
        holder.wait()
    assert d2r(["train", "--config", path, "--force"]) == 0
    assert (run / "final.zip").is_file() and (run / "train.lock").read_bytes() == b""


def test_fine_tuning_starts_from_the_exported_actor(tmp_path: Path) -> None:
    from safetensors.numpy import load_file

    data = tiny(tmp_path / "a")
    data.pop("imitate")
    data["train"].update(eval_every=0, checkpoint_every=0)
    data["export"]["name"] = "tiny-v1"
    train.train(cfg.from_dict(data), raw_config=data)
    first = tmp_path / "a" / "models" / "draco_and_co" / "tiny-v1"
    # the same network, no learning: the fine-tuned export is the model it started from
    tuned = tiny(tmp_path / "b")
    tuned.pop("imitate")
    tuned["seed"] = 7
    tuned["algo"]["learning_rate"] = 0.0
    tuned["train"].update(init=str(first), eval_every=0, checkpoint_every=0)
    tuned["export"]["name"] = "tiny-v2"
    train.train(cfg.from_dict(tuned), raw_config=tuned)
    a = load_file(str(first / "policy.safetensors"))
    b = load_file(str(tmp_path / "b" / "models" / "draco_and_co" / "tiny-v2" / "policy.safetensors"))
    assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    # without init the other seed starts elsewhere
    tuned["train"]["init"] = ""
    tuned["train"]["run_dir"] = str(tmp_path / "c")
    tuned["export"].update(name="tiny-v3")
    train.train(cfg.from_dict(tuned), raw_config=tuned)
    c = load_file(str(tmp_path / "b" / "models" / "draco_and_co" / "tiny-v3" / "policy.safetensors"))
    assert not (a["layers.0.weight"] == c["layers.0.weight"]).all()


def test_a_model_to_fine_tune_must_fit_the_config(tmp_path: Path) -> None:
    data = tiny(tmp_path)
    data.pop("imitate")
    data["train"].update(eval_every=0, checkpoint_every=0)
    data["export"]["name"] = "tiny-v1"
    train.train(cfg.from_dict(data), raw_config=data)
    model = str(tmp_path / "models" / "draco_and_co" / "tiny-v1")
    wider = tiny(tmp_path, train__init=model)
    wider["algo"]["net_arch"] = [32]
    with pytest.raises(cfg.ConfigError, match=r"train.init: .*hidden layers \[16\] with tanh; algo asks for \[32\]"):
        cfg.from_dict(wider)
    with pytest.raises(cfg.ConfigError, match="train.init: .*nowhere"):
        cfg.from_dict(tiny(tmp_path, train__init=str(tmp_path / "nowhere")))
    other = tiny(tmp_path, train__init="rap_godz/ppo-v1")
    with pytest.raises(cfg.ConfigError, match="train.init: .*rap_godz"):
        cfg.from_dict(other)
    on_ray = tiny(tmp_path, train__init=model)
    on_ray["backend"] = "rllib"
    with pytest.raises(cfg.ConfigError, match="train.init: fine-tuning an exported model is SB3's"):
        cfg.from_dict(on_ray)
