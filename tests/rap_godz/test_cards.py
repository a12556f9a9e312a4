"""Rap Godz component counts: the rulebook's contents list and the reconstruction's shape."""

from __future__ import annotations

from collections import Counter

import pytest

from d2r_envs.games.rap_godz import cards as C


@pytest.mark.rules("RG-COMP-1", "RG-COMP-2", "RG-DATA-CARDS")
def test_the_contents_list():
    assert [C.deck_size(d) for d in range(3)] == [55, 50, 50] and sum(C.deck_size(d) for d in range(3)) == 155
    assert [C.deck_size(d, come=True) for d in range(3)] == [25, 20, 20] and sum(C.deck_size(d, True) for d in range(3)) == 65
    assert C.NUM_RAPPERZ == 25 and C.NUM_CITIEZ == 25 and C.NUM_GOALZ == 8
    assert C.PLAQUE_SUPPLY == (36, 33, 15) and sum(C.PLAQUE_SUPPLY) == 84 and C.PLAQUE_VALUES == (1, 5, 25)
    assert C.BEEF_CUBES == 12 and 4 * C.UPGRADE_CUBES == 8
    assert len(C.PICKUP_TYPES) * C.PICKUP_COPIES == 9 == C.NUM_PICKUP_SPACES
    for d in range(3):
        colours = Counter(C.CARDS[k].colour for k in C.ALBUM_KINDS[d] for _ in range(C.CARDS[k].copies))
        assert colours[C.NO_COLOUR] == 5 and {colours[c] for c in range(5)} == {(10, 9, 9)[d]}
    assert all(c.source for c in C.CARDS + C.RAPPERZ + C.CITIEZ)
    titles = {c.name for c in C.CARDS}
    assert {"Protest for Social Justice", "Make a Political Statement"} <= titles  # found


@pytest.mark.rules("RG-DATA-CARDS", "RG-DATA-BEEF")
def test_values_grow_by_album_and_locks_are_rarer_early():
    for d in range(3):
        cards = [C.CARDS[k] for k in C.ALBUM_KINDS[d] if not C.CARDS[k].beef]
        locked = sum(c.copies for c in cards if c.lock) / sum(c.copies for c in cards)
        assert locked == pytest.approx((0.2, 4 / 9, 6 / 9)[d], abs=0.01)
        assert all(c.lock[1] == (5, 10, 18)[d] for c in cards if c.lock)
    assert C.BEEF_STAKES == ((2, 1), (4, 2), (6, 3))  # plaques, resources in all
    assert all(C.CARDS[k].plaques == C.BEEF_STAKES[C.CARDS[k].deck][0] for k in C.BEEF_KINDS)
    assert "2 resources (from their highest)" in C.card_text(C.BEEF_KINDS[1])


@pytest.mark.rules("RG-DATA-RAPPERZ", "RG-RAP-3")
def test_rapperz():
    assert Counter(r.colour for r in C.RAPPERZ) == {c: 5 for c in range(5)}
    assert Counter(C.DIFFICULTY[r.difficulty] for r in C.RAPPERZ) == {"Easy": 9, "Medium": 9, "Hard": 7}
    assert all(5 <= r.goal_plaques <= 10 for r in C.RAPPERZ)


@pytest.mark.rules("RG-DATA-CITIEZ", "RG-DATA-GOALZ", "RG-DATA-TRACK")
def test_citiez_goalz_and_track():
    assert Counter(c.colour for c in C.CITIEZ) == {c: 5 for c in range(5)}
    assert all(sorted(c.start) == [1, 2, 3] and c.plaques == 10 for c in C.CITIEZ)
    new_orleans = next(c for c in C.CITIEZ if c.name == "New Orleans")
    assert C.COLOUR_NAMES[new_orleans.colour] == "Yellow"
    names = [g[0] for g in C.GOALZ]
    assert names[:3] == ["The Champ", "Platinum!", "Homeslice"] and len(names) == 8
    assert C.PICKUP_SPACES == (5, 12, 20) and C.TRACK_TOP == 30
