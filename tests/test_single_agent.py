"""The learner's gymnasium env: check_env, the opponent loop, masks, rewards, errors."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import d2r_envs
from d2r_envs.agents import RandomAgent
from d2r_envs.core.game import IllegalActionError
from d2r_envs.single_agent import SingleAgentEnv
from d2r_envs.registry import game_package


@pytest.mark.parametrize("name", d2r_envs.names())
def test_registered_and_passes_check_env(name: str) -> None:
    env = gymnasium.make(f"d2r/{name}-v{game_package(name).VERSION}", opponents=["random"])
    check_env(env.unwrapped, skip_render_check=True)


class Recording(RandomAgent):
    """A random agent that notes every state it was asked about."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def act(self, game, state, seat, rng):
        self.seen.append(seat)
        assert game.current_player(state) == seat
        return super().act(game, state, seat, rng)


@pytest.mark.parametrize("name", d2r_envs.names())
def test_learner_plays_only_its_seat_and_gets_its_return(name: str) -> None:
    spy = Recording()
    env = SingleAgentEnv(name, learner_seat=1, opponents=[spy])
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        assert info["seat"] == 1 and env.observation_space.contains(obs)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            assert np.array_equal(np.flatnonzero(mask), env.engine.legal_actions(env.state))
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            done = terminated or truncated
        assert terminated and total == env.engine.returns(env.state)[1] == info["returns"][1]
        assert not env.action_masks().any()
    assert spy.seen and 1 not in spy.seen


def test_random_seat_and_seeded_episodes_repeat() -> None:
    env = SingleAgentEnv("draco_and_co", opponents=["random"])
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
    assert len(seats) > 1

    def episode(seed):
        e = SingleAgentEnv("draco_and_co", opponents=["random"])
        obs, _ = e.reset(seed=seed)
        out = [obs]
        done = False
        while not done:
            obs, r, term, trunc, _ = e.step(int(np.flatnonzero(e.action_masks())[0]))
            out.append(obs)
            done = term or trunc
        return out

    a, b = episode(7), episode(7)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_illegal_action_raise_changes_nothing_and_lose_ends_the_episode() -> None:
    env = SingleAgentEnv("draco_and_co", opponents=["random"], illegal_action="raise")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    before = env.engine.clone(env.state)
    with pytest.raises(IllegalActionError, match=f"illegal action {bad}"):
        env.step(bad)
    assert env.state == before
    env = SingleAgentEnv("draco_and_co", opponents=["random"])
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and reward == env.engine.spec.min_return and info["illegal_action"]


def test_pool_grows_and_drops_the_oldest_snapshot_only() -> None:
    env = SingleAgentEnv("draco_and_co", opponents=["random", "random"])
    for i in range(5):
        agent = RandomAgent()
        agent.name = f"snap{i}"
        env.add_opponent(agent, max_pool=4, keep=2)
    assert env.pool_names() == ["random", "random", "snap3", "snap4"]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv("draco_and_co", learner_seat=9)
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv("draco_and_co", illegal_action="ignore")
    with pytest.raises(ValueError, match="opponents"):
        SingleAgentEnv("draco_and_co", opponents=[])
    with pytest.raises(ValueError, match="num_players"):
        SingleAgentEnv("draco_and_co", num_players=2)


def test_maskable_ppo_runs_on_subprocess_envs() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = SubprocVecEnv([lambda: SingleAgentEnv("draco_and_co", opponents=["random"]) for _ in range(2)])
    try:
        model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
        model.learn(64)
        assert model.num_timesteps >= 64
    finally:
        vec.close()


def test_the_game_is_looked_up_once_and_travels_as_an_object(monkeypatch) -> None:
    """The learner's env makes its engine from the registry once; its observer, heuristic and exported
    opponents all come from that engine, not from the game's name again."""
    from d2r_envs import registry

    calls: list[str] = []
    for fn in ("game_package", "make_game", "action_space", "obs_layout"):
        original = getattr(registry, fn)
        monkeypatch.setattr(registry, fn, lambda *a, _f=original, _n=fn, **k: (calls.append(_n), _f(*a, **k))[1])
    env = SingleAgentEnv("draco_and_co", 4, opponents=["random", "heuristic", "draco_and_co/ppo-v1"])
    env.reset(seed=0)
    assert calls == ["make_game", "game_package"], calls  # make_game finds the package: one lookup in all


def test_the_margin_reward_adds_the_margin_in_points_at_the_end() -> None:
    """reward="margin": the same game as reward="return", step for step, and the final reward is the
    return plus the margin over the best other seat relative to the leader's points (Rap Godz keeps
    points); an unknown reward is refused."""
    from d2r_envs.core.game import margin_return

    plain = SingleAgentEnv("rap_godz", 2, learner_seat=0, opponents=["heuristic"])
    margin = SingleAgentEnv("rap_godz", 2, learner_seat=0, opponents=["heuristic"], reward="margin")
    totals = []
    for env in (plain, margin):
        obs, _ = env.reset(seed=4)
        total, done, rewards = 0.0, False, []
        while not done:
            a = int(np.flatnonzero(env.action_masks())[0])
            obs, r, terminated, truncated, _ = env.step(a)
            rewards.append(r)
            total += r
            done = terminated or truncated
        totals.append((total, rewards))
    (plain_total, plain_rewards), (margin_total, margin_rewards) = totals
    assert len(plain_rewards) == len(margin_rewards) and all(r == 0 for r in margin_rewards[:-1])
    assert plain_total == plain.engine.returns(plain.state)[0]
    expected = margin_return(margin.engine, margin.state, 0)
    assert margin_total == pytest.approx(expected) and expected != plain_total
    with pytest.raises(ValueError, match="reward 'points' is not allowed; allowed: return, margin"):
        SingleAgentEnv("rap_godz", 2, reward="points")
