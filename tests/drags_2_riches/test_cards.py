"""The component data (cards.py) against the rulebook's component list and our reconstructions."""

from __future__ import annotations

from collections import Counter

import pytest

import d2r_envs
from d2r_envs.games.drags_2_riches import cards as C

SOURCES = {"rulebook", "found", "reconstructed", "rulebook + found", "rulebook + reconstructed"}


def _copies(group: str) -> int:
    return sum(k.copies for k in C.KINDS if k.group == group)


@pytest.mark.rules("D2R-COMP-1")
def test_component_counts():
    assert _copies("wardrobe") == 75
    assert _copies("starter") == 25
    assert _copies("coin") == 15
    assert C.NUM_EVENTS == len(C.EVENTS) == 15
    assert C.NUM_CHARACTERS == len(C.CHARACTERS) == 8
    assert {k.group for k in C.KINDS} == {"wardrobe", "starter", "coin"}
    assert len({k.name for k in C.KINDS}) == C.NUM_KINDS  # names are unique
    assert C.KIND == {k.name: i for i, k in enumerate(C.KINDS)}
    assert (C.MIN_PLAYERS, C.MAX_PLAYERS, C.HAND_SIZE, C.MARKET_SIZE) == (2, 5, 5, 8)


@pytest.mark.rules("D2R-COMP-1", "D2R-DATA-WARDROBE")
def test_fifteen_wardrobe_cards_per_type():
    per_type = Counter()
    for k in C.KINDS:
        if k.group == "wardrobe":
            per_type[k.type] += k.copies
    assert per_type == {t: 15 for t in range(C.NUM_TYPES)}
    assert C.TYPES == ("Outfit", "Hair", "Heels", "Makeup", "Accessories")


@pytest.mark.rules("D2R-DATA-WARDROBE")
def test_value_triangle_per_type():
    for t in range(C.NUM_TYPES):
        values = Counter()
        for k in C.KINDS:
            if k.group == "wardrobe" and k.type == t:
                values[k.value] += k.copies
        assert values == {2: 5, 3: 4, 4: 3, 5: 2, 6: 1}, C.TYPES[t]


@pytest.mark.rules("D2R-DATA-WARDROBE")
def test_every_type_follows_one_template():
    def template(t: int) -> list[tuple]:
        return sorted(
            (k.name.rsplit(" ", 1)[0], k.value, k.coins, k.op, k.amount, k.block, k.reverse, k.copies)
            for k in C.KINDS
            if k.group == "wardrobe" and k.type == t
        )

    assert all(template(t) == template(0) for t in range(C.NUM_TYPES))
    for k in C.KINDS:
        if k.group == "wardrobe":
            assert k.name.endswith(" " + C.TYPES[k.type]), k.name


@pytest.mark.rules("D2R-DATA-WARDROBE")
def test_shade_block_and_reverse_totals():
    wardrobe = [k for k in C.KINDS if k.group == "wardrobe"]
    assert sum(k.copies for k in wardrobe if k.shade) == 10
    assert sum(k.copies for k in wardrobe if k.block) == 5
    assert sum(k.copies for k in wardrobe if k.reverse) == 5
    assert sum(k.copies for k in wardrobe if k.op == C.Op.PEEK_BORROW) == 5
    assert sum(k.copies for k in wardrobe if k.op == C.Op.DISCARD) == 5
    # Flags are separate: no card is two of Shade, Block Shade and Reverse Shade.
    assert all(k.shade + k.block + k.reverse <= 1 for k in C.KINDS)
    # Only Wardrobe cards carry them.
    assert not any(k.shade or k.block or k.reverse for k in C.KINDS if k.group != "wardrobe")
    assert set(C.BLOCKERS) == {i for i, k in enumerate(C.KINDS) if k.block}
    assert set(C.REVERSERS) == {i for i, k in enumerate(C.KINDS) if k.reverse}


@pytest.mark.rules("D2R-DATA-WARDROBE", "D2R-SHADE-3")
def test_the_four_value_shade_pays_a_coin_and_the_reverse_card_does_nothing():
    for t in C.TYPES:
        spill = C.KINDS[C.KIND[f"Spill the Tea {t}"]]
        assert (spill.value, spill.coins, spill.op, spill.shade) == (4, 1, C.Op.DISCARD, True)
        mirror = C.KINDS[C.KIND[f"Mirror {t}"]]
        assert (mirror.value, mirror.coins, mirror.op, mirror.reverse) == (5, 0, C.Op.NONE, True)
        assert mirror.text == "REVERSE SHADE"
        clapback = C.KINDS[C.KIND[f"Clapback {t}"]]
        assert (clapback.op, clapback.amount, clapback.block) == (C.Op.DRAW, 1, True)


@pytest.mark.rules("D2R-DATA-WARDROBE")
def test_every_wardrobe_card_has_a_text_and_sane_numbers():
    for k in C.KINDS:
        assert k.copies >= 1 and k.value >= 1 and k.coins >= 0, k.name
        assert k.text, k.name
        if k.op in (C.Op.DRAW, C.Op.RETURN, C.Op.LEND):
            assert k.amount >= 1, k.name


@pytest.mark.rules("D2R-COMP-1", "D2R-COMP-2", "D2R-DATA-WARDROBE", "D2R-DATA-EVENTS")
def test_every_entry_has_a_provenance():
    assert {k.source for k in C.KINDS} <= SOURCES
    assert {e.source for e in C.EVENTS} <= SOURCES
    assert {c[3] for c in C.CHARACTERS} <= SOURCES
    assert all(k.source == "reconstructed" for k in C.KINDS if k.group == "wardrobe")
    assert all(k.source == "rulebook" for k in C.KINDS if k.group in ("starter", "coin"))
    sources = {name: source for name, _, _, source in C.CHARACTERS}
    assert sources["Glam Stoker"] == sources["Bi Felicia"] == "rulebook"
    assert sources["Shessica"] == "found"
    assert sources["Kelisha Keys"] == "rulebook + found"
    assert sources["Ho Couture"] == sources["Cheeks Illustra"] == "reconstructed"
    assert sources["Kenya Feelit"] == sources["Catastrophoebe"] == "rulebook + reconstructed"


@pytest.mark.rules("D2R-COMP-2")
def test_starters_and_coins():
    for i, t in enumerate(C.TYPES):
        k = C.KINDS[C.STARTERS[i]]
        assert k.name == f"Starter {t}"
        assert (k.group, k.type, k.value, k.copies) == ("starter", i, 1, C.MAX_PLAYERS)
        assert (k.coins, k.op) == (0, C.Op.NONE)  # our reading: no coin and no action
    silver, gold = C.KINDS[C.SILVER], C.KINDS[C.GOLD]
    assert (silver.name, silver.value, silver.coins, silver.copies) == ("Silver", 1, 1, 10)
    assert (gold.name, gold.value, gold.coins, gold.copies) == ("Gold", 2, 2, 5)


@pytest.mark.rules("D2R-COMP-2", "D2R-PLAY-2")
def test_every_coin_kind_is_unwearable():
    coins = [i for i, k in enumerate(C.KINDS) if k.group == "coin"]
    assert coins == [C.SILVER, C.GOLD]
    for i in coins:
        assert C.KINDS[i].type == C.NO_TYPE == C.TYPE_OF[i] == -1
        assert C.SLOT_INDEX[i] == -1
        assert all(i not in slot for slot in C.SLOT_KINDS)
    # Everything else fits exactly one slot, the Starter first.
    for t, slot in enumerate(C.SLOT_KINDS):
        assert slot[0] == C.STARTERS[t]
        assert all(C.TYPE_OF[k] == t for k in slot)
        assert len(slot) == C.SLOT_WIDTH


@pytest.mark.rules("D2R-SETUP-1", "D2R-COMP-2")
def test_starting_deck_composition():
    deck = Counter(C.STARTING_DECK)
    assert sum(deck.values()) == 8
    assert deck == {C.SILVER: 2, C.GOLD: 1, **{k: 1 for k in C.STARTERS}}
    # Five starting decks use every Starter and Coin card.
    for k, kind in enumerate(C.KINDS):
        if kind.group != "wardrobe":
            assert C.MAX_PLAYERS * deck[k] == kind.copies, kind.name


@pytest.mark.rules("D2R-SETUP-1")
@pytest.mark.parametrize("n", range(2, 6))
def test_starting_cards_of_missing_players_stay_in_the_box(n: int):
    s = d2r_envs.make_game("drags_2_riches", n).new_initial_state()
    deck = Counter(C.STARTING_DECK)
    for k, kind in enumerate(C.KINDS):
        assert all(w[k] == deck[k] for w in s.wardrobes)
        if kind.group == "wardrobe":
            assert (s.pile[k], s.box[k]) == (kind.copies, 0)
        else:
            assert s.box[k] == (C.MAX_PLAYERS - n) * deck[k]


@pytest.mark.rules("D2R-DATA-EVENTS")
def test_rulebook_events_are_present_with_their_prestige():
    named = Counter((e.name, e.prestige) for e in C.EVENTS if e.source == "rulebook")
    examples = [("Drag Ball", 3), ("Drag Ball", 4), ("Pageant", 4), ("Extravaganza", 10), ("Sell-Out Tour", 12)]
    for name, prestige in examples:
        assert named[(name, prestige)] == 1, (name, prestige)
    assert named[("Shopping Spree", 0)] == 2
    assert sum(named.values()) == 7
    assert sum(e.source == "reconstructed" for e in C.EVENTS) == 8


@pytest.mark.rules("D2R-DATA-EVENTS", "D2R-SETUP-3")
def test_twelve_contests_four_per_deck_and_the_specials():
    contests = [e for e in C.EVENTS if e.kind == C.EventKind.CONTEST]
    assert len(contests) == 12
    assert Counter(e.deck for e in contests) == {0: 4, 1: 4, 2: 4}
    assert all(3 <= e.prestige <= 11 for e in contests)
    assert Counter(e.deck for e in C.EVENTS) == {0: 5, 1: 5, 2: 5}
    assert [(e.name, e.deck, e.kind) for e in (C.EVENTS[i] for i in C.DECK_SPECIAL)] == [
        ("Shopping Spree", 0, C.EventKind.SPREE),
        ("Shopping Spree", 1, C.EventKind.SPREE),
        ("Sell-Out Tour", 2, C.EventKind.SELL_OUT),
    ]
    assert (C.SPREE_I, C.SPREE_II, C.SELL_OUT) == C.DECK_SPECIAL
    # Each deck's shuffled part holds only its regular Events; the special goes to the bottom.
    for d in range(3):
        regulars = {i for i, e in enumerate(C.EVENTS) if e.deck == d and e.kind == C.EventKind.CONTEST}
        assert set(C.DECK_REGULARS[d]) == regulars
        assert C.DECK_SPECIAL[d] not in C.DECK_REGULARS[d]
    assert {C.EVENTS[i].name for i in C.DECK_REGULARS[0]} >= {"Drag Ball", "Pageant"}
    assert "Extravaganza" in {C.EVENTS[i].name for i in C.DECK_REGULARS[2]}


@pytest.mark.rules("D2R-DATA-EVENTS", "D2R-SETUP-3")
def test_specials_come_out_last_of_their_decks():
    """Play the Event reveals: each deck's regulars come first, then its special."""
    game = d2r_envs.make_game("drags_2_riches", 2)
    s = game.new_initial_state()
    s.first = 0
    for d in range(3):
        for e in sorted(s.decks[d]):
            s.decks[d].remove(e)
        game._start_round(s)  # the deck is empty: the special is revealed, no chance
        assert s.event == C.DECK_SPECIAL[d]
    intro = d2r_envs.make_game("drags_2_riches", 2, intro_game=True)
    s = intro.new_initial_state()
    s.first = 0
    revealed = []
    for d in range(2):
        s.decks[d] = []
        intro._start_round(s)
        revealed.append(s.event)
    assert revealed == [C.SPREE_I, C.SELL_OUT]  # D2R-DECIDE-INTRO: the Sell-Out Tour ends deck II


@pytest.mark.rules("D2R-COMP-1")
def test_characters():
    names = [c[0] for c in C.CHARACTERS]
    assert names == ["Kelisha Keys", "Ho Couture", "Glam Stoker", "Kenya Feelit", "Bi Felicia", "Catastrophoebe",
                     "Shessica", "Cheeks Illustra"]
    assert [C.Character(i).name for i in range(C.NUM_CHARACTERS)] == [n.upper().replace(" ", "_") for n in names]
    assert all(len(c) == 4 and c[2] for c in C.CHARACTERS)
    assert (C.CHEEKS_DRAW, C.FELICIA_TRASH, C.GLAM_BONUS, C.HO_BONUS) == (3, 3, 2, 1)
