"""Every game as an OpenSpiel game (d2r_envs/openspiel.py): OpenSpiel's own random simulation test at every
count, the same game through pyspiel and through the AEC env, clone and resampling, and the parameters."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils import seeding  # noqa: E402

import d2r_envs  # noqa: E402
from d2r_envs import openspiel  # noqa: E402

COUNTS = [(name, n) for name in d2r_envs.names()
          for n in range(d2r_envs.make_game(name).spec.min_players, d2r_envs.make_game(name).spec.max_players + 1)]


@pytest.mark.parametrize(("name", "n"), COUNTS, ids=[f"{g}-{n}p" for g, n in COUNTS])
def test_openspiels_random_simulation_test_passes_at_every_count(name: str, n: int) -> None:
    game = pyspiel.load_game(f"d2r_{name}(players={n})")
    assert game.num_players() == n and game.get_type().short_name == f"d2r_{name}"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_game_type_and_info_are_the_engines() -> None:
    game = pyspiel.load_game("d2r_extravaganza", {"players": 3, "level": "legendary"})
    engine = d2r_envs.make_game("extravaganza", 3, level="legendary")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert kind.provides_observation_tensor and not kind.provides_information_state_tensor
    assert kind.parameter_specification["level"] == "basic" and kind.parameter_specification["players"] == 2
    spec = engine.spec
    assert (game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()) == (
        spec.num_actions, spec.max_chance_outcomes, spec.max_game_length)
    assert (game.min_utility(), game.max_utility()) == (spec.min_return, spec.max_return)
    assert game.observation_tensor_size() == engine.make_observer().layout.size
    assert game.get_parameters()["level"] == "legendary"


def test_a_bad_parameter_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match=r"d2r_rap_godz: players = 7 is not allowed; allowed: 2\.\.4"):
        pyspiel.load_game("d2r_rap_godz(players=7)")
    with pytest.raises(Exception, match="level"):
        pyspiel.load_game("d2r_extravaganza(level=grand)")


@pytest.mark.parametrize("name", d2r_envs.names())
def test_the_same_actions_and_chance_give_the_same_game_as_the_aec_env(name: str) -> None:
    """Chance drawn by the engine's sampler from one seeded generator on both paths, the AEC env's moves
    played through pyspiel: every seat's observation bytes and the returns are the same."""
    env = d2r_envs.make(name)
    env.reset(seed=3)
    game = pyspiel.load_game(f"d2r_{name}")
    state = game.new_initial_state()
    rng, _ = seeding.np_random(3)
    moves = np.random.default_rng(0)

    def resolve() -> None:
        while state.is_chance_node():
            outcome = game.engine.sample_chance(state.held.state, rng)
            assert outcome in dict(state.chance_outcomes())
            state.apply_action(outcome)

    resolve()
    final = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert state.current_player() == seat
        for other, who in enumerate(env.possible_agents):
            assert np.asarray(state.observation_tensor(other), np.float32).tobytes() == \
                env.observe(who)["observation"].tobytes()
        assert state.legal_actions() == np.flatnonzero(obs["action_mask"]).tolist()
        action = int(moves.choice(state.legal_actions()))
        env.step(action)
        state.apply_action(action)
        resolve()
    assert state.is_terminal()
    assert state.returns() == [final[a] for a in env.possible_agents]


@pytest.mark.parametrize("name", d2r_envs.names())
def test_a_clone_goes_its_own_way_and_a_resample_looks_the_same_to_the_seat(name: str) -> None:
    game = pyspiel.load_game(f"d2r_{name}")
    state, rng = game.new_initial_state(), np.random.default_rng(1)
    for _ in range(60):  # some way into the game
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and len(state.history()) + 1 == len(clone.history())
    seen = state.observation_tensor(seat)
    others = []
    for k in range(4):
        drawn = state.resample_from_infostate(seat, lambda k=k: (k + 0.5) / 4)
        assert drawn.current_player() == seat and drawn.legal_actions() == state.legal_actions()
        assert drawn.observation_tensor(seat) == seen, "the seat can tell the resampled state apart"
        others.append(drawn.held.state)
    assert state.resample_from_infostate(seat, lambda: 0.125).held.state == others[0]  # the same sampler, the same draw


def test_observation_options_are_observer_parameters_and_an_information_state_is_refused() -> None:
    game = pyspiel.load_game("d2r_extravaganza")
    plain = game.make_py_observer()
    views = game.make_py_observer(params={"views": True})
    assert views.tensor.size > plain.tensor.size and list(plain.dict) == ["observation"]
    assert "song_colour" in plain.layout.views(plain.tensor)
    with pytest.raises(ValueError, match="one seat's observation only"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))


def test_a_game_longer_than_its_cap_ends_there_as_in_the_aec_env() -> None:
    game = pyspiel.load_game("d2r_draco_and_co(players=3)")
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    state.held.decisions = game.max_game_length() - 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_terminal() and state.returns() == game.engine.returns(state.held.state)


def test_the_environments_need_no_openspiel_and_the_adapter_names_its_extra() -> None:
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "import d2r_envs; env = d2r_envs.make('rap_godz'); env.reset(seed=0)\n"
            "try:\n    import d2r_envs.openspiel\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install -e '.[openspiel]'" in out.stdout, out.stdout + out.stderr
    assert openspiel.short_name("rap_godz") in pyspiel.registered_names()


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("d2r_filthy_rich(players=2)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before, history = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="not legal|illegal"):
        state.apply_action(illegal)
    assert str(state) == before and state.history() == history and state.held.decisions == 0


def test_openspiels_ismcts_and_ours_meet_at_equal_simulations_the_same_way_twice() -> None:
    from training.openspiel import ismcts as openspiel_ismcts

    first = openspiel_ismcts.play("filthy_rich", 2, simulations=5, deals=2, seed=4)
    again = openspiel_ismcts.play("filthy_rich", 2, simulations=5, deals=2, seed=4)
    first.pop("cpu_seconds"), again.pop("cpu_seconds")
    assert first == again
    for side in ("openspiel", "ours"):
        assert 0.0 <= first[side]["low"] <= first[side]["mean"] <= first[side]["high"] <= 1.0
    assert first["difference"]["mean"] == round(first["openspiel"]["mean"] - first["ours"]["mean"], 4)
