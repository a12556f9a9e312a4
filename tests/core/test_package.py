"""The package record (core/package.py): what the core is given instead of finding a game's modules."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import d2r_envs
from d2r_envs import registry
from d2r_envs.core.aec import GameEnv
from d2r_envs.core.events import Log, plain_events, result_events


def test_a_copied_record_is_the_one_record_of_its_game() -> None:
    record = registry.package("draco_and_co")
    assert pickle.loads(pickle.dumps(record)) is record and copy.deepcopy(record) is record
    env = d2r_envs.raw_env("draco_and_co")
    env.reset(seed=0)
    twin = pickle.loads(pickle.dumps(env))
    assert twin._repr_svg_() == env._repr_svg_() == record.svg(env.game, env.state)


def test_the_engine_finds_no_presentation() -> None:
    game = d2r_envs.make_game("rap_godz")
    for gone in ("package", "narration", "_module", "events", "result_events", "result_headline", "svg", "explain"):
        assert not hasattr(game, gone), f"core.Game still has {gone}"


def test_an_env_given_no_picture_draws_none() -> None:
    game = d2r_envs.make_game("draco_and_co")
    env = GameEnv(game, game.make_observer())
    env.reset(seed=0)
    assert env._repr_svg_() is None
    with pytest.raises(ValueError, match="draws no pictures"):
        GameEnv(game, game.make_observer(), render_mode="rgb_array")


def test_a_log_given_no_narration_names_the_moves_and_the_result() -> None:
    game = d2r_envs.make_game("draco_and_co", 3)
    state, log, rng = game.new_initial_state(), Log(game, None), np.random.default_rng(0)
    while not game.is_terminal(state):
        if game.current_player(state) < 0:
            log.apply(state, game.sample_chance(state, rng))
        else:
            legal = game.legal_actions(state)
            before = game.clone(state)
            action = legal[int(rng.integers(len(legal)))]
            told = log.apply(state, action)
            assert told == plain_events(game, before, action, state)
            assert told[0].public == f"player_{game.current_player(before)}: {game.action_to_string(before, action)}"
    assert log.events[-1] == result_events(game, state)[0] and log.events[-1].public.startswith("game over: ")
