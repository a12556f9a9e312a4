"""Generic tests over every registered game and every allowed player count."""

from __future__ import annotations

import copy
from pathlib import Path
import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from d2r_envs.registry import package


def _counts(name: str) -> list[int]:
    spec = d2r_envs.make_game(name).spec
    return list(range(spec.min_players, spec.max_players + 1))


CASES = [(name, n) for name in d2r_envs.names() for n in _counts(name)]
IDS = [f"{name}-{n}p" for name, n in CASES]


def _random_playout(game, state, rng, on_decision=None, on_chance=None):
    """Play to the end (or the length cap) with uniform random legal actions."""
    decisions = 0
    while True:
        player = game.current_player(state)
        if player == TERMINAL or decisions >= game.spec.max_game_length:
            return decisions
        if player == CHANCE:
            if on_chance:
                on_chance(state)
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_actions(state)
        if on_decision:
            on_decision(state, legal)
        game.apply_action(state, legal[int(rng.integers(len(legal)))])
        decisions += 1


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_pettingzoo_api(name: str, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's notes on dict observations
        api_test(d2r_envs.make(name, n), num_cycles=300)
        api_test(d2r_envs.raw_env(name, n), num_cycles=300)


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_pettingzoo_seed(name: str, n: int) -> None:
    seed_test(lambda: d2r_envs.make(name, n), num_cycles=300)


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_random_play_invariants(name: str, n: int) -> None:
    """Masks never empty, conservation after every transition, games end within the cap,
    every legal action accepted and illegal ones refused with the state unchanged."""
    game = d2r_envs.make_game(name, n)
    check = package(name).invariants.violations
    rng = np.random.default_rng(n)
    lengths = []
    for _ in range(80):
        state = game.new_initial_state()

        def on_decision(s, legal):
            assert legal, f"empty mask at a player node:\n{game.state_to_string(s)}"
            assert legal == sorted(set(legal))
            flags = bytearray(game.spec.num_actions)  # the mask's bytes, as the default legal_flags makes them
            for a in legal:
                flags[a] = 1
            assert game.legal_flags(s) == flags, "legal_flags disagrees with legal_actions"
            assert not check(game, s), check(game, s)
            for a in legal[:3]:  # a few legal ones are accepted (on copies)
                game.apply_action(game.clone(s), a)
            illegal = [a for a in range(game.spec.num_actions) if a not in set(legal)]
            for a in rng.choice(illegal, size=min(4, len(illegal)), replace=False).tolist() + [-1, game.spec.num_actions]:
                before = game.clone(s)
                with pytest.raises(IllegalActionError):
                    game.apply_action(s, a)
                assert s == before, f"illegal action {a} changed the state"

        def on_chance(s):
            outcomes = game.chance_outcomes(s)
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert [o for o, _ in outcomes] == sorted(o for o, _ in outcomes)
            assert all(0 <= o < game.spec.max_chance_outcomes for o, _ in outcomes)  # OpenSpiel's outcome ids
            assert not check(game, s), check(game, s)

        lengths.append(_random_playout(game, state, rng, on_decision, on_chance))
        assert game.is_terminal(state), f"game not over after {game.spec.max_game_length} decisions"
        assert not check(game, state)
        returns = game.returns(state)
        assert all(game.spec.min_return <= r <= game.spec.max_return for r in returns)
    assert max(lengths) < game.spec.max_game_length


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_same_seed_same_game_and_clones_agree(name: str, n: int) -> None:
    game = d2r_envs.make_game(name, n)
    a, b = game.new_initial_state(), game.new_initial_state()
    _random_playout(game, a, np.random.default_rng(5))
    _random_playout(game, b, np.random.default_rng(5))
    assert a == b
    # A clone taken mid-game continues identically.
    s = game.new_initial_state()
    rng = np.random.default_rng(6)
    for _ in range(60):
        if game.is_terminal(s):
            break
        game.apply_action(s, game.sample_chance(s, rng) if game.current_player(s) == CHANCE else game.legal_actions(s)[0])
    t = game.clone(s)
    _random_playout(game, s, np.random.default_rng(7))
    _random_playout(game, t, np.random.default_rng(7))
    assert s == t


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_a_clone_shares_no_mutable_object_with_its_source(name: str, n: int) -> None:
    """At every node of a random game, and for redeterminised copies: the bug class where a forgotten
    field makes clones share state."""
    from d2r_envs.core.clone import shared_mutables

    game = d2r_envs.make_game(name, n)
    rng = np.random.default_rng(8)

    def check(state, *_):
        for copy_ in (game.clone(state), game.redeterminise(state, 0, np.random.default_rng(1))):
            shared = shared_mutables(state, copy_)
            assert not shared, f"the copy shares {shared} with its source"
        assert game.clone(state) == state

    _random_playout(game, game.new_initial_state(), rng, on_decision=check, on_chance=check)


def _spec(name: str):
    """The game's observation spec (its encode.py: `encode(game, state, seat)`, `string_from`)."""
    return package(name).encode


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_redeterminisation_hides_nothing_it_should_not(name: str, n: int) -> None:
    """For many states and every seat: resampling what that seat cannot see leaves its
    observation (as the spec defines it, and as the Observer gives it), its text view and (if it
    acts) its legal actions unchanged."""
    game = d2r_envs.make_game(name, n)
    observer = package(name).Observer(game)
    spec = _spec(name)
    rng = np.random.default_rng(11)
    changed = 0
    checked = 0
    for episode in range(6):
        state = game.new_initial_state()

        def on_decision(s, legal):
            nonlocal changed, checked
            for p in range(n):
                t = game.redeterminise(s, p, np.random.default_rng(checked))
                checked += 1
                seen = spec.encode(game, s, p)
                assert np.array_equal(spec.encode(game, t, p), seen), f"seat {p} sees a change"
                assert np.array_equal(observer.encode(t, p), seen) and np.array_equal(observer.encode(s, p), seen)
                assert spec.string_from(game, t, p) == spec.string_from(game, s, p) == observer.string_from(s, p)
                if game.current_player(s) == p:
                    assert game.legal_actions(t) == legal
                changed += t != s
            assert game.clone(s) == s

        _random_playout(game, state, rng, on_decision)
    assert checked > 100 and changed > checked // 4, "redeterminisation never changed hidden cards"


@pytest.mark.parametrize(("name", "n"), CASES[:1], ids=IDS[:1])
def test_other_seats_do_see_what_redeterminisation_changed(name: str, n: int) -> None:
    """The leak test above would pass with a blind encoder; here the owners see the change."""
    game = d2r_envs.make_game(name, n)
    observer = package(name).Observer(game)
    spec = _spec(name)
    rng = np.random.default_rng(3)
    s = game.new_initial_state()
    while game.current_player(s) == CHANCE:
        game.apply_action(s, game.sample_chance(s, rng))
    for p in range(n):
        t = game.redeterminise(s, p, np.random.default_rng(p))
        assert t != s
        assert any(not np.array_equal(spec.encode(game, t, q), spec.encode(game, s, q)) for q in range(n) if q != p)
        assert any(not np.array_equal(observer.encode(t, q), observer.encode(s, q)) for q in range(n) if q != p)


@pytest.mark.parametrize(("name", "n"), CASES[:1] + CASES[-1:], ids=IDS[:1] + IDS[-1:])
def test_sample_chance_matches_chance_outcomes(name: str, n: int) -> None:
    game = d2r_envs.make_game(name, n)
    rng = np.random.default_rng(0)
    s = game.new_initial_state()
    nodes = 0
    while not game.is_terminal(s) and nodes < 5:
        if game.current_player(s) == CHANCE:
            outcomes = dict(game.chance_outcomes(s))
            if len(outcomes) > 1:
                draws = 4000
                counts: dict[int, int] = {}
                for _ in range(draws):
                    o = game.sample_chance(s, rng)
                    counts[o] = counts.get(o, 0) + 1
                assert set(counts) <= set(outcomes)
                for o, p in outcomes.items():
                    sd = (p * (1 - p) / draws) ** 0.5
                    assert abs(counts.get(o, 0) / draws - p) < 5 * sd + 1e-3
                nodes += 1
            game.apply_action(s, game.sample_chance(s, rng))
        else:
            game.apply_action(s, game.legal_actions(s)[-1])
    assert nodes == 5


def _play_env(env, steps, seed):
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return seen
        seen.append((agent, obs["observation"].copy(), obs["action_mask"].copy()))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("wrapped", [True, False])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_env_copies_continue_the_same_game(wrapped: bool, how: str) -> None:
    for name in d2r_envs.names():
        env = (d2r_envs.make if wrapped else d2r_envs.raw_env)(name)
        env.reset(seed=3)
        _play_env(env, 25, seed=1)
        twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
        a, b = _play_env(env, 40, seed=2), _play_env(twin, 40, seed=2)
        assert len(a) == len(b) > 0
        for (ag1, o1, m1), (ag2, o2, m2) in zip(a, b):
            assert ag1 == ag2 and np.array_equal(o1, o2) and np.array_equal(m1, m2)


@pytest.mark.parametrize("name", d2r_envs.names())
def test_observations_fit_the_space_and_mask_marks_only_the_actor(name: str) -> None:
    env = d2r_envs.make(name)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(400):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        assert obs["action_mask"].any()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name", d2r_envs.names())
def test_illegal_action_on_raw_env_names_it_and_changes_nothing(name: str) -> None:
    env = d2r_envs.raw_env(name)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.game.clone(env.state)
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    assert f"illegal action {bad}" in str(err.value) and env.game.decision_name(env.state) in str(err.value)
    assert env.state == before
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(env.game.spec.num_actions)
    assert env.state == before


@pytest.mark.parametrize("name", d2r_envs.names())
def test_raw_env_refuses_a_non_integer_action_as_such_and_changes_nothing(name: str) -> None:
    env = d2r_envs.raw_env(name)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    before = env.game.clone(env.state)
    for bad in (float(legal), legal + 0.5, str(legal), True, np.float32(legal), np.array(float(legal)), None, [legal]):
        with pytest.raises(IllegalActionError, match="is not an integer action; pass an int") as err:
            env.step(bad)
        assert "illegal action" not in str(err.value)
        assert env.state == before
    env.step(np.int64(legal))  # numpy integers (and 0-d integer arrays) are integers
    env.reset(seed=0)
    env.step(np.array(legal))


@pytest.mark.parametrize("name", d2r_envs.names())
def test_raw_env_before_reset_says_to_call_reset(name: str) -> None:
    env = d2r_envs.raw_env(name)
    for use in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.last()):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            use()


@pytest.mark.parametrize("name", d2r_envs.names())
def test_illegal_action_on_made_env_ends_the_game_as_pettingzoo_does(name: str) -> None:
    env = d2r_envs.make(name)
    env.reset(seed=0)
    agent = env.agent_selection
    bad = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    EnvLogger.flush()
    env.step(bad)
    assert any("Illegal move" in m for m in EnvLogger.mqueue)
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env._cumulative_rewards[agent] == env.unwrapped.game.spec.min_return
    assert all(r == 0 for a, r in env._cumulative_rewards.items() if a != agent)
    with pytest.raises(AssertionError, match="action space"):
        env2 = d2r_envs.make(name)
        env2.reset(seed=0)
        env2.step(-1)


@pytest.mark.parametrize("name", d2r_envs.names())
def test_order_is_enforced_before_reset(name: str) -> None:
    env = d2r_envs.make(name)
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    with pytest.raises(AssertionError, match="reset"):
        env.observe("player_0")


@pytest.mark.parametrize("name", d2r_envs.names())
def test_bad_config_is_refused_with_a_clear_error(name: str) -> None:
    spec = d2r_envs.make_game(name).spec
    with pytest.raises(ValueError, match=rf"num_players.*{spec.min_players}\.\.{spec.max_players}"):
        d2r_envs.make(name, spec.max_players + 1)
    with pytest.raises(ValueError, match=rf"num_players.*{spec.min_players}\.\.{spec.max_players}"):
        d2r_envs.make(name, spec.min_players - 1)
    with pytest.raises(ValueError, match="must be an int"):
        d2r_envs.make(name, "4")
    with pytest.raises(ValueError, match="unknown option.*'colour'.*allowed options"):
        d2r_envs.make(name, colour="red")
    with pytest.raises(ValueError, match="render_mode"):
        d2r_envs.make(name, render_mode="video")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        d2r_envs.make("chess")


@pytest.mark.parametrize("name", d2r_envs.names())
def test_metadata_module_entry_points_and_render(name: str) -> None:
    pkg = package(name)
    env = pkg.env(render_mode="ansi")
    game = env.unwrapped.game
    assert env.metadata["name"] == f"{name}_v{game.spec.version}"
    assert env.possible_agents == [f"player_{i}" for i in range(pkg.DEFAULT_PLAYERS)]
    assert env.action_space("player_0").n == pkg.ACTIONS.size
    raw = pkg.raw_env(num_players=game.spec.max_players)
    assert raw.observation_space("player_0")["observation"].shape == env.observation_space("player_0")["observation"].shape
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and env.agent_selection in text
    # Padding: the same action space and observation size for every player count.
    for n in _counts(name):
        e = d2r_envs.make(name, n)
        assert e.action_space("player_0").n == pkg.ACTIONS.size
        assert e.observation_space("player_0")["observation"].shape == (pkg.LAYOUT.size,)


@pytest.mark.parametrize("name", d2r_envs.names())
def test_game_readme_has_the_current_tables_and_deviations(name: str) -> None:
    pkg = package(name)
    readme = (Path(d2r_envs.__file__).parent / "games" / name / "README.md").read_text(encoding="utf-8")
    assert pkg.ACTIONS.describe() in readme, "action table out of date: paste `d2r describe` output"
    assert pkg.LAYOUT.describe() in readme, "observation table out of date: paste `d2r describe` output"
    assert "## Deviations and reconstructions" in readme


@pytest.mark.parametrize("name", d2r_envs.names())
def test_redeterminisation_depends_only_on_what_the_seat_sees(name: str) -> None:
    """Two states a seat cannot tell apart give the same copy for the same rng: so a search
    agent's choice cannot depend on hidden cards."""
    game = d2r_envs.make_game(name)
    rng = np.random.default_rng(8)
    s = game.new_initial_state()
    for _ in range(40):
        game.apply_action(s, game.sample_chance(s, rng) if game.current_player(s) == CHANCE else game.legal_actions(s)[0])
    for p in range(game.spec.num_players):
        twin = game.redeterminise(s, p, np.random.default_rng(100))
        assert game.redeterminise(s, p, np.random.default_rng(5)) == game.redeterminise(twin, p, np.random.default_rng(5))


@pytest.mark.parametrize("name", d2r_envs.names())
def test_resolve_chance_draws_what_the_generic_loop_draws(name: str) -> None:
    """A game's own resolve_chance (a fast path) leaves the state the generic
    sample_chance + apply_legal loop leaves, from the same rng, and takes the same draws from the rng."""
    from d2r_envs.core.game import Game

    game = d2r_envs.make_game(name)
    rng = np.random.default_rng(4)
    s = game.new_initial_state()
    for step in range(400):
        a, b = game.clone(s), game.clone(s)
        generic, fast = np.random.default_rng(step), np.random.default_rng(step)
        Game.resolve_chance(game, a, generic)
        game.resolve_chance(b, fast)
        assert a == b
        assert generic.bit_generator.state == fast.bit_generator.state
        game.resolve_chance(s, rng)
        if game.is_terminal(s):
            break
        legal = game.legal_actions(s)
        game.apply_action(s, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", d2r_envs.names())
def test_the_engine_refuses_what_the_env_refuses_as_an_action(name: str) -> None:
    game = d2r_envs.make_game(name)
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(0))
    legal = game.legal_actions(state)[0]
    before = game.clone(state)
    for bad in (float(legal), legal + 0.5, str(legal), True, False, np.float64(legal), np.bool_(True),
                np.array(float(legal)), None, [legal]):
        with pytest.raises(IllegalActionError, match="is not an integer action id"):
            game.apply_action(state, bad)
        assert state == before
    for good in (np.int64(legal), np.array(legal)):  # numpy integers and 0-d integer arrays are integers
        game.apply_action(game.clone(state), good)


@pytest.mark.parametrize("make", [d2r_envs.raw_env, d2r_envs.make], ids=["raw_env", "make"])
def test_after_the_last_dead_step_the_env_says_the_game_is_over(make, caplog) -> None:
    """Once every agent has taken its dead step, step() and last() name the end and the way out
    (reset) instead of a KeyError of the last agent; reset() starts a new game."""
    env = make("draco_and_co", 3)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    if make is d2r_envs.make:  # the safe env logs a warning and ignores the step, as PettingZoo's wrappers do
        env.step(None)
        assert "step() called after all agents are terminated" in caplog.text
    else:
        with pytest.raises(RuntimeError, match=r"step\(\) after the game is over.*call reset\(\)"):
            env.step(None)
    with pytest.raises(RuntimeError, match=r"last\(\) after the game is over.*call reset\(\)"):
        env.last()
    env.reset(seed=1)
    assert env.agents and env.last()[2] is False
