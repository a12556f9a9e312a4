"""Every game's heuristic variants (`heuristic:<name>`, the game's heuristic.VARIANTS): made by name,
legal, blind to what their seat cannot see, and stronger than the heuristic they vary."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core.game import CHANCE

VARIANTS = [(game, name) for game in d2r_envs.names()
            for name in d2r_envs.registry.package(game).variants]
# (game, variant) -> per duel: players, game options, deals, the variant's win share at least (each
# measured far above it over hundreds of games: the game's README)
DUELS = {
    ("rap_godz", "tuned"): [(2, {}, 60, 0.53), (4, {}, 15, 0.28)],
    ("extravaganza", "tuned"): [(2, {"level": "basic"}, 15, 0.6), (4, {"level": "legendary"}, 4, 0.4)],
    ("extravaganza", "plan"): [(2, {"level": "basic"}, 15, 0.6), (4, {"level": "legendary"}, 4, 0.35)],
}


def _duel(game, first, second, n, options, deals):
    """first's win share (a shared win split) over `deals` deals, first in every seat in turn."""
    g = d2r_envs.make_game(game, n, **options)
    won = 0.0
    for deal in range(deals):
        for seat in range(n):
            agents = [second] * n
            agents[seat] = first
            s = g.new_initial_state()
            rng, arng = np.random.default_rng(deal), np.random.default_rng(deal + 7)
            while not g.is_terminal(s):
                p = g.current_player(s)
                if p == CHANCE:
                    g.apply_action(s, g.sample_chance(s, rng))
                else:
                    g.apply_action(s, agents[p].act(g, s, p, arng))
            returns = g.returns(s)
            if returns[seat] == max(returns):
                won += 1 / returns.count(max(returns))
    return won / (deals * n)


def test_every_variant_has_its_duels():
    assert sorted(DUELS) == sorted(VARIANTS)


@pytest.mark.parametrize(("game", "name"), VARIANTS)
def test_a_variant_is_made_by_name_plays_legally_and_is_blind_to_hidden_cards(game, name):
    agent = make_agent(f"heuristic:{name}", game)
    assert agent.name == f"heuristic:{name}"
    g = d2r_envs.make_game(game, 3)
    rng = np.random.default_rng(5)
    s = g.new_initial_state()
    checked = 0
    while not g.is_terminal(s) and checked < 150:
        p = g.current_player(s)
        if p == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
            continue
        a = agent.act(g, s, p, rng)
        assert a in g.legal_actions(s)
        twin = g.redeterminise(s, p, np.random.default_rng(checked))  # what the seat cannot see, dealt anew
        fresh = type(agent)
        assert fresh().act(g, twin, p, np.random.default_rng(0)) == fresh().act(g, s, p, np.random.default_rng(0))
        checked += 1
        g.apply_action(s, a)
    assert checked > 100


@pytest.mark.parametrize(("game", "name"), VARIANTS)
def test_a_variant_beats_the_heuristic(game, name):
    variant, heuristic = make_agent(f"heuristic:{name}", game), make_agent("heuristic", game)
    for n, options, deals, bar in DUELS[game, name]:
        assert _duel(game, variant, heuristic, n, options, deals) >= bar, (n, options)
    assert _duel(game, heuristic, heuristic, 2, {}, 5) == 0.5  # the same player in both seats of each deal


@pytest.mark.parametrize("game", d2r_envs.names())
def test_an_unknown_variant_names_the_allowed_ones(game):
    allowed = [name for g, name in VARIANTS if g == game]
    with pytest.raises(ValueError, match=(r"heuristic:best.*allowed: " + ", ".join(f"heuristic:{v}" for v in allowed)
                                          if allowed else "has only the heuristic")):
        make_agent("heuristic:best", game)
