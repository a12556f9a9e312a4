"""Training over several player counts: configs give the counts (and their weights) and are checked
before anything runs, a run evaluates each count, the exported manifest records them. A few seconds."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("sb3_contrib")

from training import config as cfg  # noqa: E402
from training import train  # noqa: E402
from training.learner_env import make_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


# Configs -----------------------------------------------------------------------------------------

def tiny(tmp_path: Path, **env) -> dict:
    data = yaml.safe_load((ROOT / "configs" / "draco_and_co" / "ppo.yaml").read_text(encoding="utf-8"))
    data["env"].pop("player_weights", None)
    data["env"].update({"num_players": 4, **env})
    data["algo"].update(n_envs=2, n_steps=32, batch_size=32, n_epochs=1, net_arch=[16])
    data["opponents"].update(pool=["random"], snapshot_every=64, max_snapshots=1)
    data["train"].update(total_timesteps=128, checkpoint_every=0, eval_every=64, eval_games=2,
                         eval_opponent="random", run_dir=str(tmp_path / "run"), torch_threads=1)
    data["export"] = {"name": "", "out_root": str(tmp_path / "models")}
    return data


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"num_players": [3, 7]}, r"env.num_players: 7 players is not allowed for draco_and_co; allowed: 3..6"),
        ({"num_players": 2}, r"env.num_players: .*num_players.*3..6"),
        ({"num_players": []}, r"env.num_players: an empty list; allowed: a count \(3..6\), a list of counts .*, or all"),
        ({"num_players": "most"}, r"env.num_players: 'most' is not allowed; allowed: a count \(3..6\)"),
        ({"num_players": [3, 4.5]}, r"env.num_players: 4.5 in the list is not a whole number"),
        ({"num_players": [4, 4]}, r"env.num_players: 4 listed twice"),
        ({"num_players": 4.5}, r"env.num_players: expected int \| list \| str"),
        ({"num_players": [3, 4], "player_weights": [1, 2, 3]}, r"env.player_weights: 3 weight\(s\) for 2 counts"),
        ({"num_players": "all", "player_weights": [1, 1]}, r"env.player_weights: 2 weight\(s\) for 4 counts \(\[3, 4, 5, 6\]\)"),
        ({"num_players": [3, 4], "player_weights": [1, 0]}, r"env.player_weights: 0 is not allowed; allowed: positive numbers"),
        ({"num_players": [3, 4], "player_weights": [1, "heavy"]}, r"env.player_weights: 'heavy' is not allowed"),
        ({"num_players": 4, "player_weights": [1]}, r"env.player_weights: weights need several counts"),
        ({"num_players": [3, 6], "learner_seat": 3}, r"env.learner_seat: 3 is not allowed; allowed: random or 0..2 \(a seat every count has"),
        ({"player_weight": [1]}, r"env: unknown key\(s\) player_weight"),
    ],
)
def test_bad_counts_in_a_config_are_refused_naming_the_key(tmp_path: Path, env: dict, message: str) -> None:
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.from_dict(tiny(tmp_path, **env))


def test_the_config_forms(tmp_path: Path) -> None:
    one = cfg.from_dict(tiny(tmp_path))
    assert one.env.num_players == 4 and one.player_counts() == [4] and one.player_weights() == [1.0]
    listed = cfg.from_dict(tiny(tmp_path, num_players=[3, 5], player_weights=[2, "1e0"]))
    assert listed.player_counts() == [3, 5] and listed.player_weights() == [2.0, 1.0]
    every = cfg.from_dict(tiny(tmp_path, num_players="all"))
    assert every.player_counts() == [3, 4, 5, 6] and every.player_weights() == [1.0] * 4
    env = make_env(listed)
    assert env.counts == [3, 5] and np.allclose(env.count_probabilities, [2 / 3, 1 / 3])
    assert make_env(one).counts == [4] and make_env(listed, num_players=5).counts == [5]
    for path in sorted((ROOT / "configs").glob("*/ppo.yaml")):  # the shipped ones: every count the game allows
        c = cfg.load(path)
        assert c.player_counts() == cfg.allowed_counts(c.game), path  # every count the game allows


def test_the_cli_refuses_a_bad_count_before_training(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(tiny(tmp_path, num_players=[3, 9])), encoding="utf-8")
    assert train.main(["--config", str(path)]) == 2
    assert "env.num_players: 9 players is not allowed for draco_and_co; allowed: 3..6" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


# Training ----------------------------------------------------------------------------------------


def test_a_run_over_two_counts_evaluates_each_and_records_them(tmp_path: Path, capsys) -> None:
    import d2r_envs

    data = tiny(tmp_path, num_players=[3, 5], player_weights=[1, 3])
    data["export"]["name"] = "tiny-v1"
    train.train(cfg.from_dict(data), raw_config=data)
    out = capsys.readouterr().out
    for n in (3, 5):
        assert f"step 64: 2 games against random at {n} players: win share" in out
    rows = list(csv.DictReader((tmp_path / "run" / "progress.csv").open()))
    columns = set(rows[0])
    assert {"eval/3p/win_share", "eval/5p/win_share", "eval/3p/mean_return", "eval/5p/mean_return"} <= columns
    assert "eval/win_share" not in columns
    assert sorted(p.name for p in (tmp_path / "run" / "snapshots").iterdir()) == ["step_128.safetensors", "step_64.safetensors"]
    policy = d2r_envs.load_opponent(str(tmp_path / "models" / "draco_and_co" / "tiny-v1"))
    training = policy.manifest["training"]
    assert training["player_counts"] == [3, 5] and training["player_weights"] == [1.0, 3.0]
    assert training["config"]["env"]["num_players"] == [3, 5]


def test_an_imitation_teacher_plays_every_count(tmp_path: Path, write_numpy_model) -> None:
    from training import imitate

    folder = write_numpy_model(tmp_path / "draco_and_co" / "teacher")
    c = cfg.from_dict(tiny(tmp_path, num_players=[3, 6]))
    env = make_env(c)
    teacher = env.make_agent(str(folder))
    assert {n: a.observer.game.spec.num_players for n, a in teacher.agents.items()} == {3: 3, 6: 6}
    recorded = imitate.record(env, teacher, 4, c.algo.gamma, seed=1)
    assert recorded["masks"][np.arange(len(recorded["actions"])), recorded["actions"]].all()


def test_the_manifest_names_the_counts_of_a_config_given_to_d2r_export() -> None:
    from training.export import _trained_counts

    assert _trained_counts("draco_and_co", {"env": {"num_players": "all"}}, None, None) == \
        {"player_counts": [3, 4, 5, 6], "player_weights": [1.0] * 4}
    assert _trained_counts("draco_and_co", {"env": {"num_players": [3, 5], "player_weights": [1, 2]}}, None, None) == \
        {"player_counts": [3, 5], "player_weights": [1.0, 2.0]}
    assert _trained_counts("draco_and_co", {"env": {}}, None, None) == {"player_counts": [4]}  # the default count
    assert _trained_counts("draco_and_co", {}, None, None) == {} == _trained_counts("draco_and_co", None, None, None)
    assert _trained_counts("draco_and_co", {"env": {"num_players": ["x"]}}, None, None) == {}


def test_a_run_over_two_variants_evaluates_each_and_records_them(tmp_path: Path, capsys) -> None:
    import d2r_envs

    data = tiny(tmp_path, num_players=[3, 5], variants=[{}, {"short_game": 10}], variant_weights=[1, 2])
    data["opponents"]["snapshot_every"] = 0
    data["export"]["name"] = "tiny-v1"
    c = cfg.from_dict(data)
    env = make_env(c)
    assert set(env.engines) == {(3, 0), (5, 0), (3, 1), (5, 1)} and np.allclose(env.variant_probabilities, [1 / 3, 2 / 3])
    assert make_env(c, num_players=3, variant=1).engine.config.short_game == 10
    train.train(c, raw_config=data)
    out = capsys.readouterr().out
    assert "step 64: 2 games against random at 5 players, variant 1 {'short_game': 10}: win share" in out
    columns = set(next(csv.DictReader((tmp_path / "run" / "progress.csv").open())))
    assert {f"eval/{n}p/v{v}/win_share" for n in (3, 5) for v in (0, 1)} <= columns
    training = d2r_envs.load_opponent(str(tmp_path / "models" / "draco_and_co" / "tiny-v1")).manifest["training"]
    assert training["variants"] == [{}, {"short_game": 10}] and training["variant_weights"] == [1, 2]
