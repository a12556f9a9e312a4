"""Every built-in agent, on every registered game: legal moves, determinism, no peeking."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.agents import PolicyAgent, make_agent
from d2r_envs.core.game import CHANCE, TERMINAL, Game
from d2r_envs.registry import package

AGENTS = ["random", "heuristic", "mcts:30", "rollouts:1", "search:shipped:12", "mcts:30:1:shipped"]
CASES = [(game, agent) for game in d2r_envs.names() for agent in AGENTS]


def _players(game: str) -> list[int]:
    """The default player count, and the smallest and largest."""
    spec = d2r_envs.make_game(game).spec
    return sorted({package(game).DEFAULT_PLAYERS, spec.min_players, spec.max_players})


def _play(game, seats, seed: int, on_decision=None) -> list[float]:
    """One game; seats[i] is seat i's agent (None: uniformly random); chance from `seed`."""
    s = game.new_initial_state()
    rng = np.random.default_rng(seed)
    rngs = [np.random.default_rng([seed, i]) for i in range(len(seats))]
    for _ in range(game.spec.max_game_length):
        p = game.current_player(s)
        while p == CHANCE:
            game.apply_legal(s, game.sample_chance(s, rng))
            p = game.current_player(s)
        if p == TERMINAL:
            break
        legal = game.legal_actions(s)
        if seats[p] is None:
            a = legal[int(rng.random() * len(legal))]
        else:
            if on_decision is not None:
                on_decision(s, p)
            a = seats[p].act(game, s, p, rngs[p])
            assert a in legal, f"{seats[p].name} chose illegal action {a} at {game.decision_name(s)}; legal: {legal}"
        game.apply_action(s, a)
    return game.returns(s)


def _decision_states(game, count: int, seed: int) -> list:
    """Up to `count` player-decision states with more than one legal action, from random play."""
    out = []
    rng = np.random.default_rng(seed)
    while len(out) < count:
        s = game.new_initial_state()
        while True:
            p = game.current_player(s)
            if p == TERMINAL:
                break
            if p == CHANCE:
                game.apply_legal(s, game.sample_chance(s, rng))
                continue
            legal = game.legal_actions(s)
            if len(legal) > 1 and rng.random() < 0.1 and len(out) < count:
                out.append(game.clone(s))
            game.apply_legal(s, legal[int(rng.random() * len(legal))])
    return out


@pytest.mark.parametrize("game_name,spec", CASES)
def test_agent_plays_only_legal_actions(game_name: str, spec: str) -> None:
    # A whole game of play-outs at every decision is slow: rollouts play at the fewest players only.
    for n in _players(game_name)[:1] if spec.startswith(("rollouts", "search")) else _players(game_name):
        game = d2r_envs.make_game(game_name, n)
        agent = make_agent(spec, game)  # a model reads its observation through this engine's observer
        # Cheap agents take every seat; a search plays one seat among random players.
        seats = [agent] * n if not spec.startswith(("mcts", "rollouts", "search")) else [agent] + [None] * (n - 1)
        returns = _play(game, seats, seed=n)
        assert game.spec.min_return <= min(returns) <= max(returns) <= game.spec.max_return


@pytest.mark.parametrize("game_name,spec", CASES)
def test_agent_is_deterministic_given_its_rng(game_name: str, spec: str) -> None:
    game = d2r_envs.make_game(game_name)
    agent = make_agent(spec, game_name)
    for i, s in enumerate(_decision_states(game, 12, seed=1)):
        seat = game.current_player(s)
        before = game.state_to_string(s)
        a = agent.act(game, s, seat, np.random.default_rng(i))
        b = agent.act(game, s, seat, np.random.default_rng(i))
        assert a == b
        assert game.state_to_string(s) == before, "the agent changed the state"


@pytest.mark.parametrize("game_name,spec", CASES)
def test_agent_does_not_peek_at_hidden_information(game_name: str, spec: str) -> None:
    """Redeterminising for the acting seat changes only what it cannot see: same rng, same move."""
    game = d2r_envs.make_game(game_name)
    agent = make_agent(spec, game_name)
    checked = 0
    for i, s in enumerate(_decision_states(game, 24, seed=2)):
        seat = game.current_player(s)
        other = game.redeterminise(s, seat, np.random.default_rng(1000 + i))
        a = agent.act(game, s, seat, np.random.default_rng(i))
        b = agent.act(game, other, seat, np.random.default_rng(i))
        assert a == b, f"{spec} at {game.decision_name(s)}: {a} on the true state, {b} on a redeterminised one"
        checked += game.state_to_string(other) != game.state_to_string(s)
    assert checked > 0, "no state had anything hidden to resample"


@pytest.mark.parametrize("game_name", d2r_envs.names())
@pytest.mark.parametrize("spec", ["search:shipped:2:policy", "search:shipped:2:heuristic", "rollouts:1:shipped"])
def test_searches_with_dearer_playouts(game_name: str, spec: str) -> None:
    """Play-outs by the network or the heuristic: legal moves, the same move for the same rng, no peeking,
    a few states each."""
    game = d2r_envs.make_game(game_name)
    agent = make_agent(spec, game)
    for i, s in enumerate(_decision_states(game, 3, seed=5)):
        seat = game.current_player(s)
        other = game.redeterminise(s, seat, np.random.default_rng(1000 + i))
        a = agent.act(game, s, seat, np.random.default_rng(i))
        assert a in game.legal_actions(s)
        assert agent.act(game, other, seat, np.random.default_rng(i)) == a


@pytest.mark.parametrize("spec", ["search:shipped", "search:shipped:0", "search:shipped:x", "search::10",
                                  "search:shipped:10:greedy", "search:heuristic:10", "search:nope/none:10",
                                  "search:shipped:10:temperature=0", "search:shipped:10:temperature=x",
                                  "search:shipped:10:depth=3", "search:shipped:10:exploration=1:exploration=2",
                                  "search:shipped:10:temperature=inf"])
def test_search_refuses_a_bad_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="search|model|unknown"):
        make_agent(spec, "rap_godz")


def test_search_names_its_model_and_playout() -> None:
    assert make_agent("search:shipped:50", "rap_godz").name == "search:rap_godz/ppo-v2:50"
    assert make_agent("search:rap_godz/ppo-v1:7:policy", "rap_godz").name == "search:rap_godz/ppo-v1:7:policy"
    tuned = make_agent("search:shipped:7:exploration=2:temperature=3", "rap_godz")
    assert (tuned.temperature, tuned.exploration) == (3.0, 2.0)
    assert tuned.name == "search:rap_godz/ppo-v2:7:temperature=3:exploration=2"
    assert make_agent("search:shipped:7:temperature=1", "rap_godz").name == "search:rap_godz/ppo-v2:7"


def test_a_prior_temperature_flattens_the_networks_probabilities() -> None:
    """Above 1 the priors are flatter, in the same order; the search at temperature 1 is the default."""
    game = d2r_envs.make_game("rap_godz")
    agent = make_agent("search:shipped:4", game)
    s = _decision_states(game, 1, seed=2)[0]
    seat, legal = game.current_player(s), game.legal_actions(s)
    sure, flat = agent.probabilities(game, s, seat, legal), agent.probabilities(game, s, seat, legal, 3.0)
    assert np.allclose(sure.sum(), 1) and np.allclose(flat.sum(), 1)
    assert flat.max() < sure.max() and np.array_equal(np.argsort(sure, kind="stable"), np.argsort(flat, kind="stable"))
    a = make_agent("search:shipped:40:temperature=3", game).act(game, s, seat, np.random.default_rng(0))
    assert a in legal


def test_mcts_prefers_what_wins() -> None:
    """A sanity check of the search on a real game: it beats random play clearly."""
    game_name = d2r_envs.names()[0]
    game = d2r_envs.make_game(game_name)
    n = game.spec.num_players
    agent = make_agent("mcts:30", game_name)
    wins = sum(_play(game, [agent] + [None] * (n - 1), seed=100 + g)[0] > 0 for g in range(6))
    assert wins >= 3, f"mcts:30 won {wins} of 6 against random"


@pytest.mark.parametrize("game_name", d2r_envs.names())
def test_mcts_with_a_rollout_cap(game_name: str) -> None:
    from d2r_envs.agents.mcts import ISMCTS

    game = d2r_envs.make_game(game_name)
    agent = ISMCTS(simulations=20, rollout_cap=3)
    for i, s in enumerate(_decision_states(game, 6, seed=3)):
        seat = game.current_player(s)
        assert agent.act(game, s, seat, np.random.default_rng(i)) in game.legal_actions(s)
    with pytest.raises(ValueError):
        ISMCTS(simulations=0)


@pytest.mark.parametrize("game_name", d2r_envs.names())
def test_mcts_does_not_search_a_forced_move(game_name: str) -> None:
    real = d2r_envs.make_game(game_name)
    s = _decision_states(real, 1, seed=4)[0]
    only = real.legal_actions(s)[-1]
    game = _OneMove(real, only)
    agent = make_agent("mcts:1000000", game_name)  # a search would take hours
    assert agent.act(game, s, game.current_player(s), np.random.default_rng(0)) == only


class _OneMove(Game):
    """`game`, offering only `only` at every decision (a subclass: a compiled search calls the class's
    methods, never an instance's)."""

    def __init__(self, game: Game, only: int) -> None:
        self.game, self.only, self.spec, self.config = game, only, game.spec, game.config

    def legal_actions(self, state):
        return [self.only]

    def new_initial_state(self):
        return self.game.new_initial_state()

    def current_player(self, state):
        return self.game.current_player(state)

    def chance_outcomes(self, state):
        return self.game.chance_outcomes(state)

    def apply_legal(self, state, action):
        self.game.apply_legal(state, action)

    def returns(self, state):
        return self.game.returns(state)

    def action_to_string(self, state, action):
        return self.game.action_to_string(state, action)

    def state_to_string(self, state):
        return self.game.state_to_string(state)

    def decision_name(self, state):
        return self.game.decision_name(state)


@pytest.mark.parametrize("game_name", d2r_envs.names())
def test_scores_name_the_winners(game_name: str) -> None:
    """Where a game keeps points (Game.scores), the seats with the best return have the most points,
    and there are none before the end."""
    game = d2r_envs.make_game(game_name)
    assert game.scores(game.new_initial_state()) is None
    for seed in range(4):
        game = d2r_envs.make_game(game_name)
        s = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while game.current_player(s) != TERMINAL:
            if game.current_player(s) == CHANCE:
                game.apply_legal(s, game.sample_chance(s, rng))
            else:
                legal = game.legal_actions(s)
                game.apply_legal(s, legal[int(rng.random() * len(legal))])
        scores, returns = game.scores(s), game.returns(s)
        if scores is None:
            continue
        assert len(scores) == len(returns)
        best = max(returns)
        assert all(scores[p] == max(scores) for p, r in enumerate(returns) if r == best)


def test_rollouts_value_adds_the_margin() -> None:
    from d2r_envs.core.game import margin_return as value

    class Fake:
        def __init__(self, scores):
            self._scores = scores

        def returns(self, state):
            best = max(self._scores)
            return [1.0 if x == best else -1.0 for x in self._scores]

        def scores(self, state):
            return self._scores

    assert value(Fake([60.0, 40.0, 30.0]), None, 0) == pytest.approx(1 + 20 / 60)
    assert value(Fake([60.0, 40.0, 30.0]), None, 2) == pytest.approx(-1 - 30 / 60)
    assert value(Fake([50.0, 49.0]), None, 1) < value(Fake([50.0, 49.0]), None, 0)
    Fake.scores = lambda self, state: None
    assert value(Fake([50.0, 49.0]), None, 1) == -1.0


@pytest.mark.parametrize("spec", ["rollouts:0", "rollouts:x", "rollouts:-3"])
def test_rollouts_refuses_a_bad_count(spec: str) -> None:
    with pytest.raises(ValueError, match="rollouts per move must be a whole number"):
        make_agent(spec, d2r_envs.names()[0])


def test_rollouts_beats_random_play() -> None:
    """A sanity check on a real game: two play-outs a move beat random players clearly."""
    game_name = "rap_godz"
    game = d2r_envs.make_game(game_name, 2)
    agent = make_agent("rollouts:2", game)
    wins = sum(_play(game, [agent, None], seed=200 + g)[0] > 0 for g in range(4))
    assert wins >= 3, f"rollouts:2 won {wins} of 4 against random"


@pytest.mark.parametrize("spec", ["rollouts:4:x", "rollouts:1:1", "rollouts:4:-1", "rollouts:4:inf", "rollouts:4:1:2",
                                  "rollouts:4:1:heuristic", "rollouts:4:1:rap_godz/nope", "rollouts:4:1:2:shipped"])
def test_rollouts_refuses_a_bad_guard_or_model(spec: str) -> None:
    with pytest.raises(ValueError, match=r"guard|at most two numbers|not a model"):
        make_agent(spec, "rap_godz")


def test_rollouts_over_a_model_play_out_with_it() -> None:
    """rollouts:N:G:<model>: the model plays the play-outs and is the move a guard keeps; with a guard no
    gain can clear, the model's own move every time."""
    game = d2r_envs.make_game("rap_godz")
    network, sure = make_agent("shipped", game), make_agent("rollouts:2:1e9:shipped", game)
    assert sure.name == "rollouts:2:1e+09:rap_godz/ppo-v2" and isinstance(sure.heuristic, PolicyAgent)
    assert make_agent("rollouts:2:rap_godz/ppo-v1", game).name == "rollouts:2:rap_godz/ppo-v1"
    for i, s in enumerate(_decision_states(game, 4, seed=6)):
        seat = game.current_player(s)
        rng = np.random.default_rng(i)
        assert sure.act(game, s, seat, rng) == network.act(game, s, seat, np.random.default_rng(i))


def test_a_guarded_search_keeps_the_heuristics_move_unless_the_playouts_are_sure() -> None:
    """rollouts:N:G: with a guard no gain can clear, the heuristic's own move every time; with a guard
    of 0 (any gain), the search's best move, which departs from the heuristic's in some positions."""
    game = d2r_envs.make_game("rap_godz", 2)
    heuristic, sure, keen = make_agent("heuristic", game), make_agent("rollouts:3:1e9", game), make_agent("rollouts:3:0", game)
    assert keen.name == "rollouts:3:0" and sure.name == "rollouts:3:1e+09"
    rng = np.random.default_rng(4)
    s = game.new_initial_state()
    game.resolve_chance(s, rng)
    compared = departed = 0
    while game.current_player(s) != TERMINAL and compared < 25:
        p = game.current_player(s)
        if len(game.legal_actions(s)) > 1:
            mine = heuristic.act(game, s, p, np.random.default_rng(0))
            assert sure.act(game, s, p, np.random.default_rng(compared)) == mine
            departed += keen.act(game, s, p, np.random.default_rng(compared)) != mine
            compared += 1
        game.apply_legal(s, heuristic.act(game, s, p, rng))
        game.resolve_chance(s, rng)
    assert compared == 25 and departed > 0


@pytest.mark.parametrize("spec", ["mcts:x", "mcts:0", "mcts:40:2", "mcts:40:x:shipped", "mcts:40:-1:shipped",
                                  "mcts:40:inf:shipped", "mcts:40:2:heuristic", "mcts:40:2:rap_godz/nope"])
def test_mcts_refuses_a_bad_budget_guard_or_model(spec: str) -> None:
    with pytest.raises(ValueError, match=r"budget|guard|not a model|rap_godz/nope"):
        make_agent(spec, "rap_godz")


class _Child:
    def __init__(self, action: int, visits: int, total: float) -> None:
        self.action, self.visits, self.total = action, visits, total


class _Root:
    """A search whose root is given: move 3 visited 400 times at a mean of 0.5, move 7 100 times at 0.2."""

    def search(self, game, state, seat, rng):
        root = _Child(-1, 500, 0.0)
        root.children = {3: _Child(3, 400, 200.0), 7: _Child(7, 100, 20.0), 9: _Child(9, 0, 0.0)}
        return root


class _Plays:
    def __init__(self, action: int) -> None:
        self.action = action

    def act(self, game, state, seat, rng) -> int:
        return self.action


def test_a_guarded_mcts_gives_way_only_by_more_than_g_standard_errors() -> None:
    """Move 3 beats move 7 by 0.3, with a standard error of sqrt((1 - 0.5**2) / 400 + (1 - 0.2**2) / 100)
    = 0.1071 (each variance at its largest for its mean on [-1, 1]): 2.80 standard errors."""
    from d2r_envs.agents.guarded import Guarded

    game = d2r_envs.make_game("rap_godz", 2)
    s = _decision_states(game, 1, seed=2)[0]
    seat = game.current_player(s)
    rng = np.random.default_rng(0)
    assert Guarded(_Plays(7), _Root(), 2.7, "g").act(game, s, seat, rng) == 3
    assert Guarded(_Plays(7), _Root(), 2.9, "g").act(game, s, seat, rng) == 7
    assert Guarded(_Plays(3), _Root(), 0.0, "g").act(game, s, seat, rng) == 3  # the model's move is the search's
    assert Guarded(_Plays(9), _Root(), 0.0, "g").act(game, s, seat, rng) == 9  # never visited: no evidence against it


def test_a_guarded_mcts_keeps_the_models_move_unless_the_search_is_sure() -> None:
    """mcts:N:G:<model>: with a guard no gain can clear, the model's own move every time; with a guard of
    0, the search's most visited move wherever it has the higher mean, which departs from the model's."""
    from d2r_envs.agents.mcts import ISMCTS

    game = d2r_envs.make_game("rap_godz", 2)
    network, sure = make_agent("shipped", game), make_agent("mcts:40:1e9:shipped", game)
    keen = make_agent("mcts:40:0:rap_godz/ppo-v2", game)
    assert sure.name == "mcts:40:1e+09:rap_godz/ppo-v2" and keen.name == "mcts:40:0:rap_godz/ppo-v2"
    departed = 0
    for i, s in enumerate(_decision_states(game, 12, seed=6)):
        seat = game.current_player(s)
        mine = network.act(game, s, seat, np.random.default_rng(i))
        assert sure.act(game, s, seat, np.random.default_rng(i)) == mine
        move = keen.act(game, s, seat, np.random.default_rng(i))
        assert move in (mine, ISMCTS(40).act(game, s, seat, np.random.default_rng(i)))
        departed += move != mine
    assert departed > 0
