"""Scenario building for the Drags 2 Riches interaction and narration tests: the `table` fixture.

`table.start(n)` plays a game to the first player's Playing Phase of round 1, every chance node taking
its lowest outcome; with `log=True` every transition goes through a core `Log` (the narration tests) and
the Log comes back too. The helpers then edit hands, Floordrobes and Looks directly, taking every card
from the Market draw pile, the seat's Wardrobe or the box, so that every card stays accounted for; a
Deck's counts are edited directly and `rules.recount` brings it back in step. `settle` and `to_event`
take the game, or the Log to go through.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE
from d2r_envs.games.drags_2_riches import narrate
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches import invariants
from d2r_envs.games.drags_2_riches.rules import recount
from d2r_envs.games.drags_2_riches.state import Phase

K = C.KIND


def _game_and_apply(via):
    """(the game, how to apply an action) for a Game or a Log over one."""
    if isinstance(via, Log):
        return via.game, via.apply
    return via, via.apply_action


def start(n=3, first=0, characters=None, hands=None, log=False, **options):
    """A game at the first player's Playing Phase of round 1 (every chance node takes its lowest
    outcome): (game, state), or (game, state, log) with `log`. characters: one per seat, chosen in seat
    order from `first`; hands: {seat: [names]} replace those seats' dealt hands."""
    g = d2r_envs.make_game("drags_2_riches", n, characters=characters is not None, **options)
    s = g.new_initial_state()
    via = Log(g, narrate) if log else g
    _, apply = _game_and_apply(via)
    apply(s, first)
    for i in range(n if characters else 0):
        apply(s, A.CHARACTER + characters[(first + i) % n])
    settle(via, s)
    for p, names in (hands or {}).items():
        set_hand(s, p, names)
    check(g, s)
    return (g, s, via) if log else (g, s)


def settle(via, s, *outcomes):
    """Resolve chance nodes: the named outcomes first (card names or ids), then the lowest ones."""
    g, apply = _game_and_apply(via)
    todo = [K[o] if isinstance(o, str) else o for o in outcomes]
    while g.current_player(s) == CHANCE:
        apply(s, todo.pop(0) if todo else g.chance_outcomes(s)[0][0])
    assert not todo, "unused chance outcomes"


def to_event(via, s):
    """The round's remaining turns end at once (lowest draws), up to the next decision outside
    turns or the next round's first turn."""
    g, apply = _game_and_apply(via)
    r = s.round
    while s.round == r:
        if g.current_player(s) == CHANCE:
            apply(s, g.chance_outcomes(s)[0][0])
        elif s.phase in (Phase.PLAY, Phase.WERK):
            apply(s, A.END)
        else:
            return
    settle(via, s)


def check(g, s):
    assert invariants.violations(g, s) == []


def take(s, p, name):
    """One card of this kind out of the Market draw pile, else seat p's Wardrobe, else the box."""
    k = K[name]
    for pile in (s.pile.counts, s.wardrobes[p].counts, s.box):
        if pile[k]:
            pile[k] -= 1
            recount(s)
            return k
    raise AssertionError(f"no {name} left")


def set_hand(s, p, names):
    """Seat p's hand goes back into their Wardrobe, then becomes the named cards."""
    wardrobe = s.wardrobes[p].counts
    for k, c in enumerate(s.hands[p]):
        wardrobe[k] += c
        s.hands[p][k] = 0
    for name in names:
        s.hands[p][take(s, p, name)] += 1
    recount(s)


def floor(s, p, *names):
    for name in names:
        s.floors[p][take(s, p, name)] += 1


def dress(s, p, *names):
    """Seat p wears these cards face down (their slots must be empty)."""
    for name in names:
        k = take(s, p, name)
        assert s.looks[p][C.TYPE_OF[k]] < 0
        s.looks[p][C.TYPE_OF[k]] = k
    recount(s)


@pytest.fixture
def table():
    """The helpers above."""
    return SimpleNamespace(start=start, settle=settle, to_event=to_event, check=check, take=take,
                           set_hand=set_hand, floor=floor, dress=dress)
