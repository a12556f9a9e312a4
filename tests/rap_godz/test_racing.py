"""The racing heuristic (`heuristic:racing`): a card's worth gains the in-game Goal it wins now, or a
step toward it while the Goal is open; a +3 Resources goes where it wins Mogul."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.cards import Goal
from d2r_envs.games.rap_godz.heuristic import Racing, Tuned
from d2r_envs.games.rap_godz.state import Phase


def _turn(n=2, seed=3):
    """A state at the first play of a game, every Goal kind in play and none won."""
    g = d2r_envs.make_game("rap_godz", n)
    rng = np.random.default_rng(seed)
    s = g.new_initial_state()
    while g.current_player(s) == CHANCE or s.phase != Phase.PLAY:
        p = g.current_player(s)
        g.apply_action(s, g.sample_chance(s, rng) if p == CHANCE else g.legal_actions(s)[0])
    s.goals = list(range(C.NUM_GOALZ))
    return g, s, g.current_player(s)


def _points(s, p, total):
    s.plaques[p] = [0, 0, 0]
    s.owed[p] = total


def test_a_play_that_wins_platinum_is_worth_the_goal_more():
    g, s, me = _turn()
    racing, tuned = Racing(), Tuned()
    s.goal_won[Goal.MOGUL] = me  # the other race closed
    k = next(k for k in range(C.NUM_PLAY) if C.CARDS[k].plaques and not C.CARDS[k].beef)
    pl = C.CARDS[k].plaques
    _points(s, me, C.PLATINUM_AT - pl)  # this card reaches 25
    claim = racing.worth(g, s, me, k) - tuned.worth(g, s, me, k)
    assert claim == pytest.approx(C.GOAL_PLAQUES)  # the Goal's plaques
    _points(s, me, C.PLATINUM_AT - pl - 1)  # one short: a step
    step = racing.worth(g, s, me, k) - tuned.worth(g, s, me, k)
    assert 0 < step < claim
    s.goal_won[Goal.PLATINUM] = (me + 1) % g.n  # won already: nothing
    assert racing.worth(g, s, me, k) == pytest.approx(tuned.worth(g, s, me, k))


def test_a_play_or_a_pickup_that_wins_mogul():
    g, s, me = _turn()
    racing, tuned = Racing(), Tuned()
    s.goal_won[Goal.PLATINUM] = me  # the other race closed
    k = next(k for k in range(C.NUM_PLAY) if any(C.CARDS[k].gains) and not C.CARDS[k].beef)
    r = max(range(C.NUM_RES), key=lambda i: C.CARDS[k].gains[i])
    s.res[me] = [1, 1, 1]
    s.res[me][r] = C.MOGUL_AT - C.CARDS[k].gains[r]
    assert racing.worth(g, s, me, k) - tuned.worth(g, s, me, k) == pytest.approx(C.GOAL_PLAQUES)
    s.res[me][r] -= 1  # one short, my highest resource: a step
    assert 0 < racing.worth(g, s, me, k) - tuned.worth(g, s, me, k) < C.GOAL_PLAQUES
    s.res[me] = [C.MOGUL_AT - 2, 5, 5]  # +3 on Streetz wins it, though Skillz and Swag are lower
    uses = [A.RES_PICKUP + i for i in range(C.NUM_RES)]
    assert racing._res_pickup(g, s, me, uses) == A.RES_PICKUP
    assert tuned._res_pickup(g, s, me, uses) != A.RES_PICKUP
    s.goal_won[Goal.MOGUL] = me
    assert racing._res_pickup(g, s, me, uses) == tuned._res_pickup(g, s, me, uses)
