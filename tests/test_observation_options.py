"""Observation options (core/obs.py, `Game.make_observer`): checked before anything is built, kept by
copies of an observer, recorded by an exported model and used wherever the model is seated."""

from __future__ import annotations

import json
import pickle
import shutil
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
    allowed = [f.name for f in game.package.Observer.Options.__dataclass_fields__.values()]
    with pytest.raises(ValueError, match=f"{name} observation: unknown option.*'colour'"):
        game.make_observer(colour=True)
    with pytest.raises(ValueError, match="observation: unknown option.*'colour'"):
        d2r_envs.make(name, observation={"colour": True})
    with pytest.raises(ValueError, match="observation must be a mapping"):
        d2r_envs.raw_env(name, observation=["views"])
    assert sorted(game.make_observer().options) == sorted(allowed)


def test_a_copied_observer_keeps_its_options() -> None:
    game = d2r_envs.make_game("extravaganza", 3, level="legendary")
    for views in (False, True):
        observer = game.make_observer(views=views)
        copy = pickle.loads(pickle.dumps(observer))
        assert copy.options == {"views": views} and copy.layout is observer.layout
        state = game.new_initial_state()
        game.resolve_chance(state, np.random.default_rng(0))
        assert np.array_equal(copy.encode(state, 1), observer.encode(state, 1))


def test_the_shipped_model_reads_the_views_wherever_it_is_seated() -> None:
    policy = load_opponent("extravaganza/ppo-v1")
    assert policy.observation == {"views": True}
    engine = d2r_envs.make_game("extravaganza", 2)
    agent = make_agent("extravaganza/ppo-v1", engine)
    assert agent.observer.options == {"views": True} and agent.observer.layout.size == policy.obs_size
    # a learner without the views against it: each keeps its own observation
    env = SingleAgentEnv("extravaganza", [2, 3], opponents=["extravaganza/ppo-v1"], illegal_action="raise")
    obs, _ = env.reset(seed=3)
    assert obs.shape == (d2r_envs.make_game("extravaganza").make_observer().layout.size,)
    for _ in range(60):
        obs, _, done, cut, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if done or cut:
            obs, _ = env.reset()
    assert all(a.observer.options == {"views": True} for a in env.pool[0].agents.values())


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
    ({"colour": True}, "observation options: extravaganza observation: unknown option.*'colour'.*allowed options: views"),
    (["views"], "the manifest's observation is a list, expected an object"),
    (None, "observation layout fingerprint 755230ca430d0939 != installed"),  # read without the views it was made with
])
def test_a_manifest_with_other_observation_options_is_refused(tmp_path: Path, observation, message: str) -> None:
    with pytest.raises(OpponentError, match=message):
        load_opponent(_copy_shipped(tmp_path, observation=observation))
