"""Several player counts in the learner's env: one count drawn per episode from a seeded stream of its
own, following the weights; each episode played at its count, opponents included. A few seconds."""

from __future__ import annotations

import collections
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from d2r_envs import registry
from d2r_envs.agents import PolicyAgent, RandomAgent
from d2r_envs.single_agent import PerCount, SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent


def counts_drawn(env: SingleAgentEnv, seed: int, episodes: int, play: int = 0) -> list[int]:
    """The count of each of `episodes` episodes after reset(seed=seed), playing `play` moves of each."""
    out = []
    for e in range(episodes):
        obs, info = env.reset(seed=seed if e == 0 else None)
        assert info["num_players"] == env.engine.spec.num_players
        out.append(info["num_players"])
        for _ in range(play):
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            if terminated or truncated:
                break
    return out


# The learner's env -------------------------------------------------------------------------------


def test_the_draw_is_seeded_follows_the_weights_and_ignores_how_the_games_went() -> None:
    env = SingleAgentEnv("filthy_rich", [2, 5], opponents=["random"], player_weights=[3, 1])
    first = counts_drawn(env, seed=11, episodes=400)
    assert set(first) == {2, 5}
    assert 0.68 < first.count(2) / len(first) < 0.82  # weight 3 of 4
    again = SingleAgentEnv("filthy_rich", [2, 5], opponents=["random"], player_weights=[3, 1])
    assert counts_drawn(again, seed=11, episodes=40, play=5) == first[:40]  # moves played change nothing
    assert counts_drawn(again, seed=12, episodes=40) != first[:40]
    equal = counts_drawn(SingleAgentEnv("filthy_rich", [2, 3, 4, 5], opponents=["random"]), seed=0, episodes=400)
    assert all(70 < equal.count(n) < 130 for n in (2, 3, 4, 5)), collections.Counter(equal)


class Spy(RandomAgent):
    """A random agent noting (player count, seat) of every move it is asked for."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []

    def act(self, game, state, seat, rng):
        self.seen.append((game.spec.num_players, seat))
        return super().act(game, state, seat, rng)


def test_each_episode_is_played_at_its_count_with_opponents_in_every_other_seat() -> None:
    spy = Spy()
    env = SingleAgentEnv("draco_and_co", [3, 6], opponents=[spy])
    assert env.counts == [3, 6] and set(env.engines) == {3, 6}
    assert env.observation_space.shape == (registry.obs_layout("draco_and_co").size,)
    rng = np.random.default_rng(0)
    played = set()
    for episode in range(6):
        obs, info = env.reset(seed=100 + episode)
        n = info["num_players"]
        assert env.engine is env.engines[n] and env.state.num_players == n
        assert env.observation_space.contains(obs) and env.action_masks().shape == (env.action_space.n,)
        spy.seen.clear()
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        assert {count for count, _ in spy.seen} == {n}
        assert {seat for _, seat in spy.seen} == set(range(n)) - {info["seat"]}
        assert len(info["returns"]) == n
        played.add(n)
    assert played == {3, 6}


def test_an_exported_model_in_the_pool_plays_every_count_on_that_counts_observer(tmp_path: Path, write_numpy_model) -> None:
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    env = SingleAgentEnv("draco_and_co", [3, 5], opponents=[str(folder)])
    agent = env.pool[0]
    assert isinstance(agent, PerCount) and agent.name == str(folder)
    for n in (3, 5):
        assert isinstance(agent.agents[n], PolicyAgent) and agent.agents[n].observer.game is not None
        assert agent.agents[n].observer.game.spec.num_players == n
    # a snapshot added later (made on one count's engine, as training does) is spread over the counts too
    snapshot = PolicyAgent(agent.agents[3].policy, env.engines[3].make_observer(), name="snapshot@1")
    env.add_opponent(snapshot, max_pool=2, keep=1)
    assert env.pool_names() == [str(folder), "snapshot@1"]
    assert env.pool[1].agents[3] is snapshot and env.pool[1].agents[5].observer.game.spec.num_players == 5
    assert counts_drawn(env, seed=3, episodes=6, play=40)


@pytest.mark.parametrize("spec", ["search:{}:4", "rollouts:1:{}", "mcts:4:1:{}"])
def test_a_search_guided_by_a_model_plays_every_count_on_that_counts_observer(tmp_path: Path, write_numpy_model,
                                                                             spec: str) -> None:
    """A search, rollouts or a guarded MCTS over a model reads each count's observations, as the model does:
    encoding one count's state with another count's observer would fail."""
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    env = SingleAgentEnv("draco_and_co", [3, 5], opponents=[spec.format(folder)])
    agent = env.pool[0]
    for n in (3, 5):
        bound = agent.agents[n]
        guide = {"search": bound, "rollouts": getattr(bound, "heuristic", None), "mcts": getattr(bound, "model", None)}
        assert guide[spec.partition(":")[0]].observer.game is env.engines[n]
        game = env.engines[n]
        s = game.new_initial_state()
        game.resolve_chance(s, np.random.default_rng(n))
        assert agent.act(game, s, game.current_player(s), np.random.default_rng(0)) in game.legal_actions(s)


def test_one_count_is_todays_env() -> None:
    """An int (or a one-count list) draws nothing: the same episode, the pool's agents themselves."""
    spy = Spy()
    env = SingleAgentEnv("draco_and_co", 4, opponents=[spy])
    assert env.counts == [4] and env.pool[0] is spy

    def episode(num_players):
        e = SingleAgentEnv("draco_and_co", num_players, opponents=["random"])
        out = [e.reset(seed=5)[0]]
        done = False
        while not done:
            obs, r, term, trunc, _ = e.step(int(np.flatnonzero(e.action_masks())[-1]))
            out.append(obs)
            done = term or trunc
        return out

    a, b = episode(4), episode([4])
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": [3, 7]}, "num_players.*7.*3..6"),
        ({"num_players": []}, "num_players"),
        ({"num_players": [3, 3]}, "once"),
        ({"num_players": [3, "4"]}, "whole number"),
        ({"num_players": [3, 4], "player_weights": [1]}, "1 weight.*2 counts"),
        ({"num_players": [3, 4], "player_weights": [1, 0]}, "positive"),
        ({"num_players": 4, "player_weights": [1]}, "several counts"),
        ({"num_players": [3, 6], "learner_seat": 4}, "learner_seat.*0..2.*every count"),
    ],
)
def test_bad_counts_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv("draco_and_co", opponents=["random"], **kwargs)


def test_counts_whose_spaces_differ_are_refused(monkeypatch) -> None:
    from d2r_envs import single_agent

    original = registry.make_game

    def make_game(name, num_players=None, **options):
        engine = original(name, num_players, **options)
        if num_players == 5:
            engine.spec = dataclasses.replace(engine.spec, num_actions=engine.spec.num_actions + 1)
        return engine

    monkeypatch.setattr(single_agent.registry, "make_game", make_game)
    with pytest.raises(ValueError, match="padded to its maximum player count"):
        SingleAgentEnv("draco_and_co", [4, 5], opponents=["random"])
