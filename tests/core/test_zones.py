"""core/zones.py: the census and the pool-and-deal derived from a game's declared card containers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from d2r_envs.core.zones import Deck, Held, Pile, Zones, deal_anew


@dataclass
class Table:
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    card: int = -1


ZONES = Zones(["A", "B", "C"], [3, 2, 1], Pile("hands", per_seat=True, seen_by="owner"),
              Pile("deck", seen_by="nobody"), Pile("discard"), Held("card"))


def _table() -> Table:
    return Table(hands=[[1, 0, 0], [0, 1, 1]], deck=[1, 1, 0], discard=[0, 0, 0], card=0)


def test_the_census_names_each_kind_out_of_place() -> None:
    t = _table()
    assert ZONES.census(t) == []
    t.hands[1][2] = 0  # a C lost
    t.deck[0] += 1  # an A too many
    assert ZONES.census(t) == ["A: 4 copies in play, the box has 3", "C: 0 copies in play, the box has 1"]


def test_a_seat_pools_what_it_cannot_see_and_each_pile_keeps_its_size() -> None:
    t = _table()
    assert ZONES.hidden_piles(t, 0) == [t.hands[1], t.deck]
    mine, discard = list(t.hands[0]), list(t.discard)
    seen = set()
    for seed in range(40):
        u = _table()
        ZONES.deal_hidden(u, 0, np.random.default_rng(seed))
        assert u.hands[0] == mine and u.discard == discard and ZONES.census(u) == []
        assert sum(u.hands[1]) == 2 and sum(u.deck) == 2
        seen.add(tuple(u.hands[1]))
    assert len(seen) > 2  # the other hand really is dealt anew


def test_the_deal_depends_only_on_what_the_piles_hold_together() -> None:
    a, b = [[1, 1, 0], [0, 0, 2]], [[0, 0, 2], [1, 1, 0]]
    deal_anew(a, np.random.default_rng(3))
    deal_anew(b, np.random.default_rng(3))
    assert a == b


def test_a_bad_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="seen_by 'owner' needs a per-seat field"):
        Zones(["A"], [1], Pile("deck", seen_by="owner"))
    with pytest.raises(ValueError, match="seen_by 'me' is not one of all, owner, nobody"):
        Zones(["A"], [1], Pile("deck", seen_by="me"))


def test_a_deck_names_the_same_card_for_the_same_draw_every_way() -> None:
    from d2r_envs.core.clone import clone, shared_mutables

    deck = Deck([2, 0, 3, 1])
    assert deck.outcomes() == [(0, 2 / 6), (2, 3 / 6), (3, 1 / 6)]
    for u in np.linspace(0, 0.999, 50):
        cumulative = [2, 2, 5, 6]
        expected = next(k for k, c in enumerate(cumulative) if int(u * 6) < c)
        assert deck.kind_at(u) == expected
        copy_ = deck.__copy__()
        assert copy_.draw(u) == expected and copy_.n == 5 and sum(copy_.counts) == 5
        other = deck.__copy__()
        other.take(expected)
        assert other == copy_ and other.cards == copy_.cards
    deck.add(1, 2)
    assert list(deck.cards) == [0, 0, 1, 1, 2, 2, 2, 3] and deck.n == 8
    deck.refill([0, 1])
    assert list(deck.cards) == [1] and deck.n == 1

    @dataclass
    class WithDeck:
        deck: Deck

    a = WithDeck(Deck([1, 1]))
    b = clone(a)
    assert b == a and b.deck is not a.deck and b.deck.cards is not a.deck.cards and not shared_mutables(a, b)
    assert shared_mutables(a, WithDeck(a.deck)) == ["deck"]


def test_a_deck_lists_its_cards_in_kind_order_whatever_its_counts() -> None:
    rng = np.random.default_rng(0)
    for width in (0, 1, 5, 62, 256):
        for _ in range(20):
            counts = [int(c) for c in rng.integers(0, 4, width) * (rng.random(width) < 0.4)]
            if width:
                counts[int(rng.integers(width))] = 255
            listed = [k for k, c in enumerate(counts) for _ in range(c)]
            deck = Deck(counts)
            assert list(deck.cards) == listed and deck.n == len(listed)
            deck.counts[:] = bytes(width)
            deck.recount()
            assert not deck.cards and deck.n == 0
            deck.refill(counts)
            assert list(deck.cards) == listed and deck.n == len(listed) and list(deck.counts) == counts


def test_card_count_is_the_sum_of_a_piles_counts():
    from d2r_envs.core.zones import card_count

    rng = np.random.default_rng(0)
    for size in (0, 1, 36, 80):
        for _ in range(50):
            pile = bytearray(rng.integers(0, 12, size).tolist())
            assert card_count(pile) == sum(pile)
    assert card_count(bytearray([255] * 250)) == 255 * 250  # exact up to 65,520 cards
