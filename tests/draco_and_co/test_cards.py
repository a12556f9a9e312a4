"""The component catalogue (cards.py) against the rulebook's component list."""

from __future__ import annotations

from collections import Counter

import pytest

from d2r_envs.games.draco_and_co import cards as C

MOVES = {C.Op.MOVE, C.Op.MOVE_DIE, C.Op.MOVE_GROUP, C.Op.SWAP, C.Op.SHUFFLE_ALL, C.Op.MONTE, C.Op.REARRANGE_SPECIALS}
DRACO_OPS = {C.Op.DRACO_FLIP, C.Op.DRACO_MOVE}


@pytest.mark.rules("DRACO-COMP-1", "DRACO-CARD-CATALOGUE")
def test_74_action_cards():
    assert C.DECK_SIZE == 74 == sum(k.copies for k in C.CATALOGUE)
    assert all(k.copies >= 1 for k in C.CATALOGUE)
    assert len({k.name for k in C.CATALOGUE}) == C.NUM_KINDS  # names are unique
    assert C.KIND == {k.name: i for i, k in enumerate(C.CATALOGUE)}


@pytest.mark.rules("DRACO-COMP-1")
def test_characters_colours_coins_die():
    assert len(C.COLOURS) == 6
    assert C.NUM_CHARACTERS == 15
    player_characters = [c for c in range(C.NUM_CHARACTERS) if c not in C.SPECIALS]
    assert len(player_characters) == 12
    assert Counter(c // 2 for c in player_characters) == {colour: 2 for colour in range(6)}
    assert sorted(C.character_name(c) for c in C.SPECIALS) == ["Aunt Sarah", "Brother John", "Zork"]
    assert (C.SILVER_COINS, C.GOLD_COINS) == (20, 25)
    assert C.DIE_SIDES == 6
    assert (C.MIN_PLAYERS, C.MAX_PLAYERS, C.HAND_SIZE, C.START_MONEY) == (3, 6, 5, 3)
    assert (C.TOAST_GAINS, C.TOAST_CHARGES) == ((4, 3, 2, 1), (2, 1))


@pytest.mark.rules("DRACO-SETUP-1")
def test_colour_order_is_the_rulebook_order():
    assert C.COLOURS == ("green", "purple", "yellow", "red", "blue", "black")


@pytest.mark.rules("DRACO-CARD-CLASSES")
def test_classes_per_colour_are_the_found_ones():
    A, G, R, D = C.Class.AMAZON, C.Class.GOBLIN, C.Class.ROGUE, C.Class.DWARF
    found = {  # German Wikipedia, see shared/research/facts_filthy_rich_draco.md
        "yellow": {A, R},
        "red": {A, D},
        "black": {A, G},
        "green": {G, D},
        "purple": {G, R},
        "blue": {R, D},
    }
    for i, colour in enumerate(C.COLOURS):
        assert set(C.COLOUR_CLASSES[i]) == found[colour]
        assert {C.CHARACTER_CLASS[2 * i], C.CHARACTER_CLASS[2 * i + 1]} == found[colour]
    assert Counter(C.CHARACTER_CLASS[:12]) == {A: 3, G: 3, R: 3, D: 3}
    assert C.CHARACTER_CLASS[12:] == (C.Class.AUNT_SARAH, C.Class.BROTHER_JOHN, C.Class.ZORK)


@pytest.mark.rules("DRACO-CARD-CATALOGUE")
def test_every_card_has_a_provenance():
    assert {k.provenance for k in C.CATALOGUE} <= {"rulebook", "found", "reconstructed"}
    assert C.CATALOGUE[C.KIND["Old Friendship"]].provenance == "rulebook"
    assert C.CATALOGUE[C.KIND["Old Friendship"]].copies == 1
    assert C.CATALOGUE[C.KIND["Three-Card Monte"]].provenance == "found"
    assert all(k.text and k.steps for k in C.CATALOGUE)


@pytest.mark.rules("DRACO-PLAY-2", "DRACO-CARD-DRACO-FLIP", "DRACO-CARD-DRACO-MOVE")
def test_only_dragon_cards_touch_draco():
    for k in C.CATALOGUE:
        touches = any(st.op in DRACO_OPS for st in k.steps)
        assert touches == k.dragon, k.name
    assert sum(k.copies for k in C.CATALOGUE if k.dragon) == 6


@pytest.mark.rules("DRACO-CARD-CATALOGUE")
def test_movement_dominates():
    moving = sum(k.copies for k in C.CATALOGUE if any(st.op in MOVES for st in k.steps))
    assert moving > C.DECK_SIZE // 2
    assert moving == 59  # the other 15: dragon, money, Gossip and Old Friendship cards


@pytest.mark.rules("DRACO-CARD-CATALOGUE")
def test_every_op_is_used():
    used = {st.op for k in C.CATALOGUE for st in k.steps}
    assert used == set(C.Op)


@pytest.mark.rules("DRACO-CARD-MOVE", "DRACO-CARD-MOVE-DIE", "DRACO-CARD-MOVE-GROUP")
def test_steps_are_well_formed():
    for k in C.CATALOGUE:
        for st in k.steps:
            if st.op in (C.Op.MOVE, C.Op.MOVE_DIE):
                assert st.amount != 0 and st.who is not None, k.name
            if st.op == C.Op.MOVE_DIE:
                assert st.amount in (1, -1), k.name  # the sign of the die move
            if st.op == C.Op.MOVE_GROUP:
                assert st.group is not None and st.amount != 0, k.name
            if st.op == C.Op.SWAP:
                assert st.who is not None and st.who2 in (C.Who.ANY_OTHER, C.Who.OWN_OTHER), k.name
            if st.who in (C.Who.OWN_OTHER, C.Who.ANY_OTHER):
                assert k.steps.index(st) > 0 or st.op == C.Op.SWAP, k.name
