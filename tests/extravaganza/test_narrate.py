"""The Extravaganza event log: cards taken into a hand are named to the taker only, every decision is
narrated, and no seat reads another's hidden cards."""

from __future__ import annotations

import numpy as np

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.state import Op


def test_a_drawn_card_is_named_to_the_drawer_only(ex):
    g, s = ex.start(2)
    ex.at(g, s, 0, Op.DRAW)
    k = s.display[0]
    log = Log(g)
    log.apply(s, A.DRAW + 0)
    mine, theirs = "\n".join(log.seen_by(0)), "\n".join(log.seen_by(1))
    assert C.CARD_NAMES[k] in mine and C.CARD_NAMES[k] not in theirs
    assert "player_0: takes a card from the display" in theirs


def test_reveal_cards_are_dealt_secretly():
    g = d2r_envs.make_game("extravaganza", 2, level="legendary")
    s = g.new_initial_state()
    log = Log(g)
    rng = np.random.default_rng(0)
    while s.first < 0:
        log.apply(s, g.sample_chance(s, rng))
    for p in range(2):
        text = "\n".join(log.seen_by(1 - p))
        for r in range(24):
            if s.reveal_hands[p][r]:
                assert f"player_{p} is dealt {C.reveal_name(r)}" not in text


def test_every_decision_is_narrated_and_hands_never_leak():
    g = d2r_envs.make_game("extravaganza", 3, level="legendary")
    s = g.new_initial_state()
    log = Log(g)
    rng = np.random.default_rng(2)
    decisions = 0
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            log.apply(s, g.sample_chance(s, rng))
            continue
        p = g.current_player(s)
        legal = g.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        new = log.apply(s, a)
        decisions += 1
        assert new and new[0].seen_by(p).startswith(f"player_{p}:")
        for q in range(3):
            if q != p:
                text = new[0].seen_by(q)
                assert text.startswith(f"player_{p}:")
                if A.DRAW <= a < A.DANCE:
                    assert "takes a card from the display" in text
    assert decisions > 100
    assert "game over" in log.seen_by(0)[-1]
