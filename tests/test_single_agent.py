"""The learner's gymnasium env: check_env, the opponent loop, masks, rewards, errors."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import d2r_envs
from d2r_envs.agents import RandomAgent
from d2r_envs.core.game import IllegalActionError
from d2r_envs.single_agent import SingleAgentEnv, gym_id
from d2r_envs.registry import package


@pytest.mark.parametrize("name", d2r_envs.names())
def test_registered_and_passes_check_env(name: str) -> None:
    env = gymnasium.make(f"d2r/{name}-v{package(name).VERSION}", opponents=["random"])
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
            assert mask.dtype == bool and mask.any() and np.array_equal(info["action_mask"], mask)
            assert np.array_equal(np.flatnonzero(mask), env.engine.legal_actions(env.state))
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            done = terminated or truncated
        assert terminated and total == env.engine.returns(env.state)[1] == info["returns"][1]
        assert env.action_masks().all() and info["action_mask"].all()  # no decision: every action (ignored)
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
    opponents all come from that engine (the heuristic and the opponents' checks from the engine's record,
    `registry.of`), not from the game's name again."""
    from d2r_envs import registry

    calls: list[str] = []
    for fn in ("package", "of", "make_game", "action_space", "obs_layout"):
        original = getattr(registry, fn)
        monkeypatch.setattr(registry, fn, lambda *a, _f=original, _n=fn, **k: (calls.append(_n), _f(*a, **k))[1])
    env = SingleAgentEnv("draco_and_co", 4, opponents=["random", "heuristic", "draco_and_co/ppo-v1"])
    env.reset(seed=0)
    by_name = [c for c in calls if c != "of"]
    assert by_name == ["make_game", "package"], calls  # make_game finds the package: one lookup by name in all
    assert "of" in calls


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


def test_num_players_all_is_every_count_the_game_allows() -> None:
    env = SingleAgentEnv("filthy_rich", "all", opponents=["random"])
    assert env.counts == [2, 3, 4, 5] and sorted(env.engines) == [2, 3, 4, 5]
    drawn = {env.reset(seed=s)[1]["num_players"] for s in range(40)}
    assert drawn == {2, 3, 4, 5}
    assert gymnasium.make("d2r/draco_and_co-v0", num_players="all").unwrapped.counts == [3, 4, 5, 6]
    with pytest.raises(ValueError, match=r"num_players 'every' is not allowed; allowed: .*'all'"):
        SingleAgentEnv("filthy_rich", "every")


# Filthy Rich at 2 players against random play: now and then the opponent goes bankrupt (or takes the
# learner out) before the learner's first turn, and that deal's game is over before the learner decides.
NO_TURN = {"game": "filthy_rich", "num_players": 2, "opponents": ["random"]}


def _redealt_seeds(env: SingleAgentEnv, seeds: range) -> list[int]:
    found = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        assert env.engine.current_player(env.state) == env.seat, "reset() left the learner no decision"
        assert info["action_mask"].any() and not env.engine.is_terminal(env.state)
        if info.get("redealt"):
            found.append(seed)
    return found


def test_a_deal_that_ends_before_the_learners_first_turn_is_dealt_again() -> None:
    """Every reset leaves the learner a decision: a deal whose game ends first is set aside (counted
    in info["redealt"]) and dealt again with the same count and seat; the same seed, the same deal."""
    env = SingleAgentEnv(**NO_TURN)
    found = _redealt_seeds(env, range(3000))
    assert found, "no deal without a learner's turn in 3000 seeds: pick another game or opponents for this test"
    seed = found[0]
    first, info = env.reset(seed=seed)
    again, info_again = SingleAgentEnv(**NO_TURN).reset(seed=seed)
    assert np.array_equal(first, again) and np.array_equal(info.pop("action_mask"), info_again.pop("action_mask"))
    assert info == info_again and info["redealt"] >= 1
    assert env.step(int(np.flatnonzero(env.action_masks())[0]))  # it plays on


def test_step_after_the_end_and_before_reset_is_refused_and_the_episode_ends_once() -> None:
    env = SingleAgentEnv("draco_and_co", 3, opponents=["random"])
    with pytest.raises(RuntimeError, match=r"before reset\(\)"):
        env.step(0)
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    *_, terminated, _, info = env.step(bad)  # illegal_action="lose": the episode ends here
    assert terminated and info["illegal_action"] and info["action_mask"].all()
    legal = int(np.flatnonzero(env._legal_mask())[0])  # the game itself could go on: the episode may not
    with pytest.raises(RuntimeError, match=r"after the episode ended.*call reset\(\)"):
        env.step(legal)
    for action in (True, 1.0, np.float64(1.0), "1", [1]):
        env.reset(seed=0)
        with pytest.raises(IllegalActionError, match="is not an integer action"):
            env.step(action)


def _masked_softmax(masks: np.ndarray) -> np.ndarray:
    """What a policy does with a mask: illegal logits at -inf, then softmax (NaN on an all-zero row)."""
    logits = np.where(masks, 0.0, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_gymnasium_vector_envs_in_every_autoreset_mode(mode: str) -> None:
    """SyncVectorEnv of learner envs, random masked moves: info["action_mask"] (and the Dict observation's
    mask, and call("action_masks")) is never all-zero, a masked softmax over it is always finite, every
    move taken where a decision is pending is legal (illegal_action="raise"), and episodes end and
    restart as the mode says, deals without a learner's turn among them."""
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    probe = SingleAgentEnv(**NO_TURN)
    seed = _redealt_seeds(probe, range(3000))[0]  # sub-env 0's first deal ends before the learner's turn
    n = 4
    envs = SyncVectorEnv([lambda: SingleAgentEnv(**NO_TURN, illegal_action="raise", mask_in_observation=True)
                          for _ in range(n)], autoreset_mode=AutoresetMode[mode.upper()])
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=seed)
    assert info["redealt"][0] >= 1
    masks = info["action_mask"]
    ended = np.zeros(n, bool)
    episodes = 0
    for _ in range(600):
        assert masks.shape == (n, probe.action_space.n) and masks.dtype == bool
        probs = _masked_softmax(masks)
        assert np.isfinite(probs).all()
        assert np.array_equal(obs["action_mask"], masks.astype(np.int8))
        if mode == "next_step":
            assert np.array_equal(np.stack(envs.call("action_masks")), masks)
        actions = np.array([rng.choice(len(p), p=p) for p in probs])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        done = terminated | truncated
        episodes += int(done.sum())
        if mode == "next_step":  # a done env restarts at the next step, which ignores its action
            assert np.array_equal(info["_action_mask"], np.ones(n, bool))
            assert not (ended & done).any()  # the autoreset step never ends an episode
            ended = done
        elif mode == "same_step":  # a done env restarts now: its final observation in info
            assert np.array_equal(info.get("_final_obs", np.zeros(n, bool)), done)
        masks = info["action_mask"]
        if mode == "disabled" and done.any():  # the user restarts the done envs
            obs_r, info_r = envs.reset(options={"reset_mask": done})
            masks[done] = info_r["action_mask"][done]
            obs["action_mask"][done] = obs_r["action_mask"][done]
    assert episodes >= 10
    envs.close()


def test_mask_in_observation_gives_the_aec_envs_dict_and_passes_check_env() -> None:
    env = gymnasium.make(gym_id("rap_godz"), num_players=2, opponents=["random"], mask_in_observation=True)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    aec = d2r_envs.make("rap_godz", 2).observation_space("player_0")
    assert env.observation_space == aec and aec.contains(obs)
    assert np.array_equal(obs["action_mask"], info["action_mask"].astype(np.int8))
    with pytest.raises(ValueError, match="mask_in_observation 'yes' is not allowed; allowed: True, False"):
        SingleAgentEnv("rap_godz", 2, mask_in_observation="yes")


def test_a_fresh_interpreter_makes_the_env_by_its_module_qualified_id() -> None:
    """gymnasium 1.x loads no plugins: "d2r_envs:<id>" imports d2r_envs, which registers every game,
    without torch, SB3 or Ray."""
    import subprocess
    import sys

    code = (
        "import sys, gymnasium\n"
        f"ids = {[gym_id(n) for n in d2r_envs.names()]!r}\n"
        "for i in ids:\n"
        "    env = gymnasium.make('d2r_envs:' + i, opponents=['random'])\n"
        "    obs, info = env.reset(seed=0)\n"
        "    assert env.observation_space.contains(obs) and info['action_mask'].any()\n"
        "vec = gymnasium.make_vec('d2r_envs:' + ids[0], num_envs=2, opponents=['random'])\n"
        "assert vec.reset(seed=0)[1]['action_mask'].shape == (2, vec.single_action_space.n)\n"
        "assert sorted(i for i in gymnasium.registry if i.startswith('d2r/')) == sorted(ids)\n"
        "heavy = [m for m in ('torch', 'stable_baselines3', 'ray') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_readme_lists_every_gymnasium_id() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for name in d2r_envs.names():
        assert f"| `{name}` | `{gym_id(name)}` |" in readme, f"README: the gymnasium id table lacks {gym_id(name)}"
