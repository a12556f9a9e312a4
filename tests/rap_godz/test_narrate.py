"""Rap Godz narration: draws seen only by the drawer, every decision narrated, nothing hidden leaks."""

from __future__ import annotations

import numpy as np

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import Task


def test_draws_and_draft_deals_are_seen_only_by_their_owner():
    g = d2r_envs.make_game("rap_godz", 3)
    s = g.new_initial_state()
    log = Log(g)
    rng = np.random.default_rng(1)
    checked = 0
    while g.current_player(s) != TERMINAL:
        if g.current_player(s) == CHANCE:
            task, seat = s.chance[0]
            a = g.sample_chance(s, rng)
            events = log.apply(s, a)
            if task in (Task.DRAW, Task.RAPPER, Task.CITY):
                name = C.KIND_NAMES[a]
                assert name in events[0].seen_by(seat)
                for q in range(3):
                    if q != seat:
                        assert name not in events[0].seen_by(q)
                checked += 1
        else:
            legal = g.legal_actions(s)
            events = log.apply(s, legal[int(rng.integers(len(legal)))])
            assert events and events[0].public.startswith("player_")  # every decision is narrated
    assert checked > 40
    assert "game over" in log.seen_by(0)[-1] and "final plaques" in log.seen_by(0)[-2]


def test_the_returned_draft_card_is_named_to_its_owner_only():
    g = d2r_envs.make_game("rap_godz", 2)
    s = g.new_initial_state()
    rng = np.random.default_rng(0)
    while g.current_player(s) == CHANCE:
        g.apply_action(s, g.sample_chance(s, rng))
    before = g.clone(s)
    keep, back = g.legal_actions(s)
    g.apply_action(s, keep)
    event = g.events(before, keep, s)[0]
    returned = C.RAPPERZ[back - 1].name
    assert returned in event.seen_by(0) and returned not in event.seen_by(1)
    assert C.RAPPERZ[keep - 1].name in event.seen_by(1)
