"""`backend: openspiel` (training/openspiel/train.py): OpenSpiel's NFSP and DQN in self-play, their configs,
checkpoints and exported models."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("torch")

import numpy as np  # noqa: E402

import d2r_envs  # noqa: E402
from training import config as cfg  # noqa: E402
from training.openspiel import checkpoint, train as os_train  # noqa: E402
from training.run_folder import RunError  # noqa: E402


def _config(tmp_path, algorithm: str, **train) -> cfg.Config:
    return cfg.from_dict(_raw(tmp_path, algorithm, **train))


def _raw(tmp_path, algorithm: str, **train) -> dict:
    return ({
        "game": "filthy_rich", "seed": 3, "backend": "openspiel", "env": {"num_players": 2},
        "train": {"total_timesteps": 1500, "checkpoint_every": 500, "eval_every": 0,
                  "run_dir": str(tmp_path / f"run-{algorithm}"), **train},
        "export": {"name": f"try-{algorithm}", "out_root": str(tmp_path / "models")},
        "openspiel": {"algorithm": algorithm, "hidden": [32], "min_buffer": 100, "learn_every": 8,
                      "batch_size": 16},
    })


@pytest.mark.parametrize(("data", "words"), [
    ({"openspiel": {"algorithm": "dqn"}}, "openspiel: this section is read only with backend: openspiel"),
    ({"backend": "openspiel", "env": {"num_players": 2}, "train": {"eval_every": 0}, "algo": {"n_envs": 2}},
     "algo: read only by backend sb3 and rllib"),
    ({"backend": "openspiel", "env": {"num_players": "all"}, "train": {"eval_every": 0}},
     "backend: openspiel trains at one player count"),
    ({"backend": "openspiel", "env": {"num_players": 2}}, "train.eval_every: backend: openspiel makes no quick"),
    ({"backend": "openspiel", "env": {"num_players": 2}, "train": {"eval_every": 0},
      "openspiel": {"algorithm": "ppo"}}, "openspiel.algorithm: 'ppo' is not allowed; allowed: nfsp, dqn"),
    ({"backend": "openspiel", "env": {"num_players": 2}, "train": {"eval_every": 0},
      "openspiel": {"hidden": []}}, "openspiel.hidden: expected a list of positive layer sizes"),
])
def test_a_bad_openspiel_config_is_refused_naming_the_key(data: dict, words: str) -> None:
    with pytest.raises(cfg.ConfigError, match=words.replace("(", r"\(")):
        cfg.from_dict({"game": "filthy_rich", **data})


def test_the_shipped_configs_load() -> None:
    for name in ("nfsp", "dqn"):
        c = cfg.load(f"configs/openspiel/{name}.yaml")
        assert c.backend == "openspiel" and c.openspiel.algorithm == name


@pytest.mark.parametrize("algorithm", ["nfsp", "dqn"])
def test_a_run_trains_checkpoints_exports_and_is_the_same_again(algorithm: str, tmp_path) -> None:
    c = _config(tmp_path, algorithm)
    final = os_train.train(c, force=True)
    checkpoints = sorted(p.name for p in (tmp_path / f"run-{algorithm}" / "checkpoints").iterdir())
    assert checkpoints == ["step_1000.pt", "step_500.pt"] and final.name == "final.pt"
    policy = d2r_envs.load_opponent(str(tmp_path / "models" / "filthy_rich" / f"try-{algorithm}"))
    assert policy.manifest["training"]["backend"] == "openspiel" and policy.hidden == [32]
    env = d2r_envs.make("filthy_rich", 2)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][policy.act(obs)]
    first = checkpoint.load_checkpoint(final)
    os_train.train(c, force=True)
    again = checkpoint.load_checkpoint(final)
    assert first["steps"] == again["steps"] >= 1500
    for key, value in first["state_dict"].items():
        assert np.array_equal(value.numpy(), again["state_dict"][key].numpy()), key


def test_a_run_is_not_resumed(tmp_path) -> None:
    with pytest.raises(RunError, match="trains from the start"):
        os_train.train(_config(tmp_path, "dqn"), resume=str(tmp_path / "x.pt"))


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not torch")
    with pytest.raises(ValueError, match="not a backend: openspiel checkpoint"):
        checkpoint.load_checkpoint(bad)


def test_d2r_export_exports_a_checkpoint_with_its_config(tmp_path, capsys) -> None:
    import yaml

    from d2r_envs import cli

    raw = _raw(tmp_path, "dqn", checkpoint_every=0)
    os_train.train(cfg.from_dict(raw), force=True)
    config = tmp_path / "dqn.yaml"
    config.write_text(yaml.safe_dump(raw))
    final = tmp_path / "run-dqn" / "final.pt"
    argv = ["export", "--checkpoint", str(final), "--game", "filthy_rich", "--name", "again", "--out-root",
            str(tmp_path / "out")]
    assert cli.main(argv) == 2 and "give the config it was trained with" in capsys.readouterr().err
    assert cli.main([*argv, "--config", str(config)]) == 0
    again = d2r_envs.load_opponent(str(tmp_path / "out" / "filthy_rich" / "again"))
    first = d2r_envs.load_opponent(str(tmp_path / "models" / "filthy_rich" / "try-dqn"))
    obs = np.random.default_rng(0).random((4, first.obs_size)).astype(np.float32)
    assert np.array_equal(again.logits(obs), first.logits(obs))


def test_d2r_train_without_openspiel_names_the_extra(monkeypatch, capsys) -> None:
    import sys

    from d2r_envs import cli

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    assert cli.main(["train", "--config", "configs/openspiel/nfsp.yaml"]) == 2
    assert "pip install -e '.[openspiel]'" in capsys.readouterr().err
