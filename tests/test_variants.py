"""One network for several option sets: the learner's env draws a variant per episode, the training
config names the variants, and the bars check a model in each."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from d2r_envs.agents import PolicyAgent
from d2r_envs.core import config as game_config
from d2r_envs.single_agent import PerCount, SingleAgentEnv
from training import config as cfg

GAME = "drags_2_riches"
VARIANTS = [{}, {"characters": True, "thrifting": True}]


def _episodes(env: SingleAgentEnv, seed: int, episodes: int) -> list[tuple[int, int]]:
    drawn = []
    for e in range(episodes):
        _, info = env.reset(seed=seed + e)
        drawn.append((info["num_players"], info["variant"]))
    return drawn


def test_each_episode_draws_a_variant_and_plays_that_variants_game() -> None:
    env = SingleAgentEnv(GAME, [2, 4], variants=VARIANTS, opponents=["random"])
    assert set(env.engines) == {(2, 0), (4, 0), (2, 1), (4, 1)}
    assert env.engines[(4, 1)].config.characters and not env.engines[(4, 0)].config.characters
    seen = set()
    for e in range(12):
        _, info = env.reset(seed=e)
        key = (info["num_players"], info["variant"])
        assert env.engine is env.engines[key] and env.observer.game is env.engine
        seen.add(key)
    assert seen == set(env.engines)
    again = SingleAgentEnv(GAME, [2, 4], variants=VARIANTS, opponents=["random"])
    assert _episodes(again, 50, 8) == _episodes(env, 50, 8)  # the seed alone decides the draws


def test_variant_weights_set_how_often_each_is_drawn() -> None:
    env = SingleAgentEnv(GAME, 2, variants=VARIANTS, variant_weights=[1, 9], opponents=["random"])
    drawn = [v for _, v in _episodes(env, 0, 200)]
    assert 150 < drawn.count(1) < 200


def test_without_variants_nothing_changes() -> None:
    env = SingleAgentEnv(GAME, [2, 4], opponents=["random"], characters=True)
    assert set(env.engines) == {2, 4} and env.variants == [{"characters": True}]
    _, info = env.reset(seed=0)
    assert "variant" not in info


@pytest.mark.parametrize(
    "variants, weights, message",
    [
        ([{}, {"characterz": True}], None, "variants[1]"),
        ([{}, "characters"], None, "variants[1]"),
        ({"characters": True}, None, "non-empty list of option dicts"),
        (VARIANTS, [1, 2, 3], "variant_weights: 3 weight(s) for 2 variants"),
        (VARIANTS, [1, 0], "positive"),
        ([{}], [1], "variant_weights needs several variants"),
    ],
)
def test_bad_variants_are_refused_naming_what_is_wrong(variants, weights, message) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        SingleAgentEnv(GAME, 2, variants=variants, variant_weights=weights, opponents=["random"])


def test_a_model_in_the_pool_encodes_with_each_variants_observer(tmp_path: Path, write_numpy_model) -> None:
    folder = write_numpy_model(tmp_path / GAME / "tiny", GAME)
    env = SingleAgentEnv(GAME, [2, 3], variants=VARIANTS, opponents=[str(folder)])
    agent = env.pool[0]
    assert isinstance(agent, PerCount)
    for key, engine in env.engines.items():
        assert isinstance(agent.agents[key], PolicyAgent) and agent.agents[key].observer.game is engine
    rng = np.random.default_rng(0)
    for e in range(4):
        env.reset(seed=e)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated


def _config(**env) -> dict:
    return {"game": GAME, "env": {"num_players": 2, **env}, "algo": {"n_envs": 1}}


def test_the_training_config_names_its_variants_and_refuses_bad_ones() -> None:
    c = cfg.from_dict(_config(options={"thrifting": True}, variants=[{}, {"characters": True}], variant_weights=[1, 3]))
    assert c.variants() == [{"thrifting": True}, {"thrifting": True, "characters": True}]
    assert c.variant_weights() == [1.0, 3.0]
    with pytest.raises(cfg.ConfigError, match=r"env.variants\[1\]: .*characterz"):
        cfg.from_dict(_config(variants=[{}, {"characterz": True}]))
    with pytest.raises(cfg.ConfigError, match=r"env.variants\[0\]: expected a mapping"):
        cfg.from_dict(_config(variants=["legendary"]))
    with pytest.raises(cfg.ConfigError, match="env.variant_weights: 1 weight"):
        cfg.from_dict(_config(variants=[{}, {"characters": True}], variant_weights=[1]))
    with pytest.raises(cfg.ConfigError, match="env.variant_weights: weights need several"):
        cfg.from_dict(_config(variant_weights=[1]))


def test_option_items_and_labels() -> None:
    assert game_config.parse_items(["level=legendary", "short_game=10", "flag=true"]) == {
        "level": "legendary", "short_game": 10, "flag": True}
    with pytest.raises(ValueError, match="expected key=value"):
        game_config.parse_items(["legendary"])
    with pytest.raises(ValueError, match="give it with --players"):  # a count is never an --option
        game_config.parse_items(["num_players=3"])
    assert game_config.label({}) == ""
    assert game_config.label({"short_game": 10, "level": "legendary"}) == "[level=legendary,short_game=10]"
