"""Rap Godz seat facts (`d2r balance`): what each seat had, and its final plaques by source."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.heuristic import Heuristic

SOURCES = ("plaques timeline cards", "plaques Goalz", "plaques Citiez", "plaques Category Bonus",
           "plaques Rapper Goal", "plaques Beef won")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_sources_add_up_to_the_final_plaques(n):
    g = d2r_envs.make_game("rap_godz", n)
    h = Heuristic()
    started = won_as_starter = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        s = g.new_initial_state()
        while not g.is_terminal(s):
            p = g.current_player(s)
            g.apply_action(s, g.sample_chance(s, rng) if p == CHANCE else h.act(g, s, p, rng))
        facts = g.seat_facts(s)
        assert len(facts) == n
        for p, f in enumerate(facts):
            assert f["rapper"] == C.KIND_NAMES[s.rappers[p]] and f["city"] == C.KIND_NAMES[s.cities[p]]
            assert f["difficulty"] in C.DIFFICULTY and f["ability"] in C.ABILITY_NAMES
            assert sum(f[k] for k in SOURCES) - f["plaques Beef lost"] == f["plaques final"] == s.final[p]
            assert f["Beef won as starter"] <= min(f["Beef started"], f["Beef won"])
            assert f["Beef lost"] == sum(s.timelines[p][k] for k in C.BEEF_KINDS)
            started += f["Beef started"]
            won_as_starter += f["Beef won as starter"]
        assert sum(f["Beef won"] for f in facts) == sum(f["Beef lost"] for f in facts)  # every Beef has one loser
        assert sum(f["Beef started"] for f in facts) == sum(f["Beef won"] for f in facts)  # and one winner
        assert sum(f["plaques Beef won"] for f in facts) == sum(f["plaques Beef lost"] for f in facts)
    assert started >= won_as_starter > 0
