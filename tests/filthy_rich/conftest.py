"""Scenario building for the Filthy Rich tests: the `table` fixture.

`table.start(n)` deals a game with player 0 first and every draw taking the first card kind left;
the helpers then put cards, signs, money and luxuries where a test needs them. Cards always come
from (and go back to) the deck, so every card stays accounted for.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.filthy_rich import actions as A
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import Phase

KIND = {name: k for k, name in enumerate(C.KIND_NAMES)}
LUX = {x.name: i for i, x in enumerate(C.LUXURIES)}


def start(n=4, first=0, **options):
    """(game, state) at player `first`'s first decision; hands are set by `hand`."""
    game = d2r_envs.make_game("filthy_rich", n, **options)
    s = game.new_initial_state()
    game.apply_action(s, first)
    settle(game, s)
    return game, s


def settle(game, s):
    """Resolve pending card draws with the first kind left in the deck (not dice)."""
    while game.current_player(s) == CHANCE and s.draws:
        game.apply_action(s, game.chance_outcomes(s)[0][0])


def hand(s, p, names):
    """Put player p's hand back in the deck, then give them the named cards from it."""
    for k, c in enumerate(s.hands[p]):
        s.deck.add(k, c)
    s.hands[p] = bytearray(C.NUM_KINDS)
    for name in names:
        k = KIND[name]
        assert s.deck[k], f"no {name} left in the deck"
        s.deck.take(k)
        s.hands[p][k] += 1


def sign(s, p, name, page, slots):
    """Open business `name` for player p by hand: its card from the deck, its sign at `slots` (1-9) of
    `page` (1-4), which must match its shape."""
    b = KIND[name]
    mask = sum(1 << (x - 1) for x in slots)
    assert mask in C.PLACEMENTS[b], f"{name}'s sign does not have the shape of slots {slots}"
    assert s.deck[b], f"no {name} card left in the deck"
    s.deck.take(b)
    s.owner[b] = p
    for x in slots:
        assert s.book[page - 1][x - 1] < 0, f"page {page} slot {x} is taken"
        s.book[page - 1][x - 1] = b


def asset(s, p, name):
    """Put an asset card from the deck on player p's table."""
    k = KIND[name]
    s.deck.take(k)
    s.assets[p][k] += 1


def luxury(s, p, name):
    s.lux_owner[LUX[name]] = p


def money(s, p, amount):
    """Set player p's money, booking the difference with the bank so the ledger still balances."""
    diff = amount - s.money[p]
    s.money[p] = amount
    if diff >= 0:
        s.from_bank += diff
    else:
        s.to_bank -= diff


def act(game, s, segment, *index):
    game.apply_action(s, A.ACTIONS.encode(segment, *index))


def roll(game, s, dice, page_die=5):
    """From the moment the dice are due: roll `dice`, answer `done` to every tax-time sale, roll
    `page_die` and settle the draws. Stops early at any other decision."""
    for d in dice:
        assert s.phase == Phase.DICE, game.decision_name(s)
        game.apply_action(s, d)
    while s.phase == Phase.TAX_SELL:
        game.apply_action(s, A.DONE)
    if s.phase == Phase.PAGE_DIE:
        game.apply_action(s, page_die)
        settle(game, s)


@pytest.fixture
def table():
    """The helpers above, with KIND (card name -> kind), LUX (luxury name -> index), A and C."""
    return SimpleNamespace(start=start, settle=settle, hand=hand, sign=sign, asset=asset, luxury=luxury,
                           money=money, act=act, roll=roll, KIND=KIND, LUX=LUX, A=A, C=C, Phase=Phase)
