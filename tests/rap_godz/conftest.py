"""Scenario building for the Rap Godz rule tests: the `rg` fixture.

`rg.start(n)` plays the set-up to the Medallion holder's first get, every chance node taking its lowest
outcome and every draft choice its first legal one (or those given). The helpers then move cards from
their decks into hands, held Come Upz or timelines, so every card stays accounted for, and `rg.check`
runs the invariants.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import invariants
from d2r_envs.games.rap_godz.state import Phase

KIND = {name: k for k, name in enumerate(C.KIND_NAMES)}


def check(g, s):
    assert not invariants.violations(g, s), invariants.violations(g, s)


def settle(g, s, outcomes=()):
    """Resolve chance: the given outcomes first (in order), then the lowest outcome each time."""
    outcomes = list(outcomes)
    while g.current_player(s) == CHANCE:
        g.apply_action(s, outcomes.pop(0) if outcomes else g.chance_outcomes(s)[0][0])
    assert not outcomes, f"chance outcomes left unused: {outcomes}"


def start(n=2, rappers=None, cities=None):
    """A game at the first player's get. rappers / cities: the Rapper / City index each seat keeps
    (it is dealt to the seat first, instead of the lowest)."""
    g = d2r_envs.make_game("rap_godz", n)
    s = g.new_initial_state()
    while s.phase == Phase.SETUP:
        task, p = s.chance[0]
        want = None
        if task == 1 and rappers and sum(s.offers[p][C.RAPPER_FIRST:C.CITY_FIRST]) == 0:
            want = C.RAPPER_FIRST + rappers[p]
        if task == 2 and cities and sum(s.offers[p][C.CITY_FIRST:]) == 0:
            want = C.CITY_FIRST + cities[p]
        if want is None:  # the lowest card nobody wants
            wanted = {C.RAPPER_FIRST + r for r in rappers or []} | {C.CITY_FIRST + c for c in cities or []}
            want = next(o for o, _ in g.chance_outcomes(s) if o not in wanted)
        g.apply_action(s, want)
    for p in range(n):
        g.apply_action(s, A.RAPPER + (rappers[p] if rappers else g.legal_actions(s)[0] - A.RAPPER))
        g.apply_action(s, A.CITY + (cities[p] if cities else g.legal_actions(s)[0] - A.CITY))
    settle(g, s)
    check(g, s)
    return g, s


def take(s, k):
    """Remove one card of kind k from its deck (Album or Come Upz)."""
    card = C.CARDS[k]
    deck = (s.come_decks if card.come else s.decks)[card.deck]
    assert deck[k] > 0, f"no {C.KIND_NAMES[k]} left in its deck"
    deck.take(k)


def give(s, p, name, to="hand"):
    """Give player p a card by name from its deck: into the hand (Album cards), held (Come Upz) or timeline."""
    k = KIND[name]
    take(s, k)
    pile = {"hand": s.hands, "held": s.held, "timeline": s.timelines}[to][p]
    pile[k] += 1
    return k


def empty_hand(s, p):
    """Put p's hand back into its decks."""
    for k, c in enumerate(s.hands[p]):
        if c:
            card = C.CARDS[k]
            (s.come_decks if card.come else s.decks)[card.deck].add(k, c)
            s.hands[p][k] = 0


@pytest.fixture
def rg():
    return SimpleNamespace(start=start, settle=settle, check=check, give=give, take=take, empty_hand=empty_hand,
                           KIND=KIND, A=A, C=C, Phase=Phase)
