"""Observation options (core/obs.py, `Game.make_observer`): checked before anything is built, kept by
copies of an observer, recorded by an exported model and used wherever the model is seated."""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.opponents import OpponentError, load_opponent
from d2r_envs.single_agent import SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "models" / "extravaganza" / "ppo-v1"


@pytest.mark.parametrize("name", d2r_envs.names())
def test_a_game_refuses_options_its_observation_does_not_take(name: str) -> None:
    game = d2r_envs.make_game(name)
    allowed = [f.name for f in d2r_envs.registry.package(name).Observer.Options.__dataclass_fields__.values()]
    with pytest.raises(ValueError, match=f"{name} observation: unknown option.*'colour'"):
        game.make_observer(colour=True)
    with pytest.raises(ValueError, match="observation: unknown option.*'colour'"):
        d2r_envs.make(name, observation={"colour": True})
    with pytest.raises(ValueError, match="observation must be a dict of observation options"):
        d2r_envs.raw_env(name, observation=["views"])
    assert sorted(game.make_observer().options) == sorted(allowed)


def test_a_copied_observer_keeps_its_options() -> None:
    game = d2r_envs.make_game("extravaganza", 3, level="legendary")
    for views in (False, True):
        observer = game.make_observer(views=views)
        copy = pickle.loads(pickle.dumps(observer))
        assert copy.options == {"views": views, "outlook": False} and copy.layout is observer.layout
        state = game.new_initial_state()
        game.resolve_chance(state, np.random.default_rng(0))
        assert np.array_equal(copy.encode(state, 1), observer.encode(state, 1))


@pytest.mark.parametrize(("model", "options"), [("extravaganza/ppo-v1", {"views": True, "outlook": False}),
                                              ("extravaganza/ppo-v2", {"views": True, "outlook": True}),
                                              ("rap_godz/ppo-v2", {"outlook": True})])
def test_a_shipped_model_reads_its_options_wherever_it_is_seated(model: str, options: dict) -> None:
    game = model.split("/")[0]
    policy = load_opponent(model)
    assert policy.observation == {k: v for k, v in options.items() if v}
    engine = d2r_envs.make_game(game, 2)
    agent = make_agent(model, engine)
    assert agent.observer.options == options and agent.observer.layout.size == policy.obs_size
    # a learner without them against it: each keeps its own observation
    env = SingleAgentEnv(game, [2, 3], opponents=[model], illegal_action="raise")
    obs, _ = env.reset(seed=3)
    assert obs.shape == (d2r_envs.make_game(game).make_observer().layout.size,)
    for _ in range(60):
        obs, _, done, cut, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if done or cut:
            obs, _ = env.reset()
    assert all(a.observer.options == options for a in env.pool[0].agents.values())


def test_describe_lists_the_options_and_what_views_add() -> None:
    from d2r_envs.games.extravaganza.encode import LAYOUT, LAYOUT_VIEWS

    out = subprocess.run([sys.executable, "-m", "d2r_envs.cli", "describe", "extravaganza"], capture_output=True,
                         text=True, check=True).stdout
    extra = [p.name for p in LAYOUT_VIEWS.pieces[len(LAYOUT.pieces):]]
    assert "## Observation options" in out and "| `views` | false | false, true |" in out
    assert f"fingerprint {LAYOUT_VIEWS.fingerprint()}" in out and LAYOUT_VIEWS.describe(extra) in out
    readme = (ROOT / "d2r_envs" / "games" / "extravaganza" / "README.md").read_text(encoding="utf-8")
    assert LAYOUT_VIEWS.describe(extra) in readme, "the views table is out of date: paste `d2r describe` output"
    assert "## Observation options" not in subprocess.run(
        [sys.executable, "-m", "d2r_envs.cli", "describe", "draco_and_co"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize(("config", "model", "observation", "size"), [
    ("ppo.yaml", "extravaganza/ppo-v1", {"views": True}, 2881),
    ("ppo-v2.yaml", "extravaganza/ppo-v2", {"views": True, "outlook": True}, 2912)])
def test_the_training_config_reads_with_its_observation_options(config: str, model: str, observation: dict,
                                                                size: int) -> None:
    pytest.importorskip("sb3_contrib")
    from training import config as cfg
    from training.learner_env import make_env, pool_agent

    c = cfg.load(ROOT / "configs" / "extravaganza" / config)
    assert c.env.observation == observation
    env = make_env(c, opponents=["random"])
    shipped = load_opponent(model)
    assert env.observation_space.shape == (shipped.obs_size,) == (size,)
    agent = pool_agent(shipped.tensors(), c, "snapshot", env.engine)  # a snapshot of the learner
    assert agent.policy.observation == agent.policy.manifest["observation"] == observation
    assert agent.observer.options == {"views": True, "outlook": False, **observation}  # every option, the rest at its default


def test_the_errors_say_where_an_observation_option_goes() -> None:
    with pytest.raises(ValueError, match="unknown option.*'views' is an observation option: pass observation="):
        d2r_envs.make("extravaganza", views=True)
    policy = load_opponent("extravaganza/ppo-v1")
    env = d2r_envs.make("extravaganza")  # without the views it reads
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"expected \[2881\].*make the env with observation=policy.observation"):
        policy.act(env.last()[0])


def _copy_shipped(tmp_path: Path, **changes) -> Path:
    folder = tmp_path / "extravaganza" / "ppo-v1"
    shutil.copytree(SHIPPED, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    for key, value in changes.items():
        if value is None:
            manifest.pop(key)
        else:
            manifest[key] = value
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


@pytest.mark.parametrize(("observation", "message"), [
    ({"views": "yes"}, "observation options: extravaganza observation: option 'views' must be true or false"),
    ({"colour": True}, "observation options: extravaganza observation: unknown option.*'colour'.*allowed options: outlook, views"),
    (["views"], "the manifest's observation is a list, expected an object"),
    (None, "observation layout fingerprint 755230ca430d0939 != installed"),  # read without the views it was made with
])
def test_a_manifest_with_other_observation_options_is_refused(tmp_path: Path, observation, message: str) -> None:
    with pytest.raises(OpponentError, match=message):
        load_opponent(_copy_shipped(tmp_path, observation=observation))
