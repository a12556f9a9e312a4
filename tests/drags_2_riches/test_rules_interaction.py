"""Scenario tests for Shade, the glossary verbs, hidden information, the optional rules and the
Characters of Drags 2 Riches (rule IDs in d2r_envs/games/drags_2_riches/rulebook.py).

Chance is explicit: each test builds its state with the `table` fixture (conftest.py), choosing chance
outcomes (the lowest one unless it names another), then edits hands, Floordrobes and Looks directly. Seats in a 3-player game;
`A.TARGET + k` is the player k+1 seats to the left of the actor.
"""

from __future__ import annotations

from copy import copy

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import IllegalActionError
from d2r_envs.games.drags_2_riches import LAYOUT, Observer
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.rules import recount
from d2r_envs.games.drags_2_riches.state import Ask, Phase, Task

GAME = "drags_2_riches"
K = C.KIND
Ch = C.Character
HAIR, HEELS = C.TYPES.index("Hair"), C.TYPES.index("Heels")


# Helpers ------------------------------------------------------------------------------------


def act(g, s, *actions):
    for a in actions:
        g.apply_action(s, a)


def activate(g, s, name):
    g.apply_action(s, A.ACTIVATE + K[name])


def card(name):
    return A.CARD + K[name]


def thumbs_all_up(table, g, s):
    table.to_event(g, s)
    while s.phase == Phase.THUMBS:
        g.apply_action(s, A.UP)


def view(g, s, p):
    obs = Observer(g)
    return obs.encode(s, p), obs.string_from(s, p)


def piece(g, s, p, name):
    return LAYOUT.views(Observer(g).encode(s, p))[name]


def same_view(a, b):
    return np.array_equal(a[0], b[0]) and a[1] == b[1]


def hand_of(s, p):
    return {C.KINDS[k].name: c for k, c in enumerate(s.hands[p]) if c}


# Shade ---------------------------------------------------------------------------------------


@pytest.mark.rules("D2R-SHADE-1")
def test_shade_card_is_shown_then_the_attacker_picks_any_other_player(table):
    g, s = table.start(hands={0: ["Read Hair", "Gold"]})
    activate(g, s, "Read Hair")
    assert (s.phase, s.ask, s.actor) == (Phase.CARD, Ask.SHADE_TARGET, 0)
    assert g.legal_actions(s) == [A.TARGET, A.TARGET + 1]
    for p in (1, 2):  # everyone sees the Shade card before the target is named
        assert piece(g, s, p, "card")[K["Read Hair"]] == 1
        assert piece(g, s, p, "active")[K["Read Hair"]] == 1
    g.apply_action(s, A.TARGET + 1)
    g.apply_action(s, A.TAKE)  # the target is always asked; nothing to show
    assert (s.ask, s.victim) == (Ask.BORROW, 2)


@pytest.mark.rules("D2R-SHADE-2", "D2R-SHADE-3", "D2R-DECIDE-REACT")
def test_block_shade_stays_in_hand_and_the_attacker_keeps_the_coin(table):
    g, s = table.start(hands={0: ["Spill the Tea Hair", "Silver"], 1: ["Clapback Hair", "Starter Outfit", "Silver"]})
    activate(g, s, "Spill the Tea Hair")
    g.apply_action(s, A.TARGET)  # player_1
    assert (s.phase, s.actor) == (Phase.REACT, 1)
    assert g.legal_actions(s) == [A.TAKE, A.BLOCK]
    before = s.hands[1][:]
    g.apply_action(s, A.BLOCK)
    assert s.hands[1] == before and not any(s.floors[1])  # nothing discarded, Clapback not played
    assert not s.chance and (s.phase, s.actor) == (Phase.PLAY, 0)
    assert s.coins == 1  # Spill the Tea's +1 coin still counts for the attacker
    g.apply_action(s, A.END)
    table.settle(g, s)
    assert s.turn == 1 and A.ACTIVATE + K["Clapback Hair"] in g.legal_actions(s)  # usable as normal
    table.check(g, s)


@pytest.mark.rules("D2R-SHADE-4", "D2R-GLOSS-DISCARD")
@pytest.mark.parametrize("target", [1, 2])
def test_unblocked_spill_the_tea_discards_a_target_card_at_random(table, target):
    """player_1 could block but takes it; player_2 has no Block Shade and is still asked (so that
    being asked gives nothing away), with taking it the only choice."""
    g, s = table.start(hands={0: ["Spill the Tea Hair"], 1: ["Clapback Hair", "Silver", "Gold"],
                              2: ["Silver", "Silver", "Starter Heels"]})
    activate(g, s, "Spill the Tea Hair")
    g.apply_action(s, A.TARGET + target - 1)
    assert (s.phase, s.actor) == (Phase.REACT, target)
    assert g.legal_actions(s) == ([A.TAKE, A.BLOCK] if target == 1 else [A.TAKE])
    g.apply_action(s, A.TAKE)
    assert s.chance == [(Task.DISCARD, target)]
    hand = s.hands[target][:]
    assert g.chance_outcomes(s) == [(k, c / 3) for k, c in enumerate(hand) if c]
    kind = max(k for k, c in enumerate(hand) if c)
    g.apply_action(s, kind)
    assert s.hands[target][kind] == hand[kind] - 1 and s.floors[target][kind] == 1
    assert (s.phase, s.actor, s.coins) == (Phase.PLAY, 0, 1)
    table.check(g, s)


@pytest.mark.rules("D2R-SHADE-4", "D2R-GLOSS-PEEK", "D2R-GLOSS-BORROW")
def test_read_peeks_at_the_hand_then_borrows_a_chosen_card_into_the_floordrobe(table):
    g, s = table.start(hands={0: ["Read Hair"], 1: ["Silver", "Gold", "Starter Heels"]})
    activate(g, s, "Read Hair")
    g.apply_action(s, A.TARGET)
    g.apply_action(s, A.TAKE)  # the target is always asked; nothing to show
    assert (s.phase, s.ask, s.actor) == (Phase.CARD, Ask.BORROW, 0)
    assert s.peek[0] == 1 and s.peek_hand[0] == s.hands[1]
    assert g.legal_actions(s) == [card("Silver"), card("Gold"), card("Starter Heels")]
    g.apply_action(s, card("Gold"))
    assert hand_of(s, 1) == {"Silver": 1, "Starter Heels": 1}
    assert s.floors[0][K["Gold"]] == 1 and not any(s.hands[0])
    assert (s.phase, s.actor) == (Phase.PLAY, 0)
    table.check(g, s)


@pytest.mark.rules("D2R-SHADE-5", "D2R-DECIDE-REACT", "D2R-GLOSS-DISCARD")
def test_reverse_shade_makes_the_attacker_discard_at_random(table):
    g, s = table.start(hands={0: ["Spill the Tea Hair", "Silver", "Starter Heels"], 1: ["Mirror Hair", "Gold"]})
    activate(g, s, "Spill the Tea Hair")
    g.apply_action(s, A.TARGET)
    assert g.legal_actions(s) == [A.TAKE, A.REVERSE]
    g.apply_action(s, A.REVERSE)
    assert hand_of(s, 1) == {"Mirror Hair": 1, "Gold": 1}  # the Mirror is shown, not played
    assert s.chance == [(Task.DISCARD, 0)]
    assert g.chance_outcomes(s) == [(K["Silver"], 0.5), (K["Starter Heels"], 0.5)]
    g.apply_action(s, K["Starter Heels"])
    assert hand_of(s, 0) == {"Silver": 1} and s.floors[0][K["Starter Heels"]] == 1
    assert not any(s.floors[1])
    assert (s.phase, s.actor, s.coins) == (Phase.PLAY, 0, 1)  # the coin is the attacker's still
    table.check(g, s)


@pytest.mark.rules("D2R-SHADE-5", "D2R-DECIDE-REACT", "D2R-GLOSS-PEEK", "D2R-GLOSS-BORROW")
def test_reversed_read_lets_the_target_choose_from_the_attacker_hand(table):
    g, s = table.start(hands={0: ["Read Hair", "Gold", "Starter Heels"], 1: ["Mirror Hair", "Silver"]})
    activate(g, s, "Read Hair")
    g.apply_action(s, A.TARGET)
    g.apply_action(s, A.REVERSE)
    assert (s.phase, s.ask, s.actor, s.victim) == (Phase.CARD, Ask.BORROW, 1, 0)
    assert s.peek[1] == 0 and s.peek[0] == -1  # the target sees the attacker's hand, not the reverse
    assert g.legal_actions(s) == [card("Gold"), card("Starter Heels")]
    g.apply_action(s, card("Gold"))
    assert s.floors[1][K["Gold"]] == 1 and hand_of(s, 0) == {"Starter Heels": 1}
    assert hand_of(s, 1) == {"Mirror Hair": 1, "Silver": 1}
    assert (s.phase, s.actor) == (Phase.PLAY, 0)
    table.check(g, s)


@pytest.mark.rules("D2R-SHADE-6", "D2R-SHADE-5")
@pytest.mark.parametrize("shade", ["Spill the Tea Hair", "Read Hair"])
def test_reversed_shade_on_an_empty_hand_waits_for_the_untucking_draw(table, shade):
    g, s = table.start(hands={0: [shade], 1: ["Mirror Hair"]})
    activate(g, s, shade)
    g.apply_action(s, A.TARGET)
    g.apply_action(s, A.REVERSE)
    assert s.pending[0] == [(C.KINDS[K[shade]].op, 1)]
    assert not s.chance and (s.phase, s.actor) == (Phase.PLAY, 0)
    assert [piece(g, s, p, "pending")[(0 - p) % 3] for p in range(3)] == [1, 1, 1]  # public
    g.apply_action(s, A.END)
    assert s.chance == [(Task.DRAW, 0)] * C.HAND_SIZE  # the new hand is drawn first
    for _ in range(C.HAND_SIZE):
        g.apply_action(s, g.chance_outcomes(s)[0][0])
    new_hand = s.hands[0][:]
    assert sum(new_hand) == C.HAND_SIZE and s.pending[0] == []
    if shade == "Spill the Tea Hair":
        assert s.chance == [(Task.DISCARD, 0)]
        g.apply_action(s, K["Gold"])
        assert s.hands[0][K["Gold"]] == new_hand[K["Gold"]] - 1 and s.floors[0][K["Gold"]] == 1
    else:
        assert (s.phase, s.ask, s.actor, s.peek[1]) == (Phase.CARD, Ask.BORROW, 1, 0)
        assert s.peek_hand[1] == new_hand
        assert g.decision_name(s) == "player_1 borrow for a reversed Shade"
        g.apply_action(s, card("Gold"))
        assert s.floors[1][K["Gold"]] == 1 and s.hands[0][K["Gold"]] == new_hand[K["Gold"]] - 1
    assert (s.phase, s.turn, s.actor) == (Phase.PLAY, 1, 1)  # then player_1's turn
    table.check(g, s)


@pytest.mark.rules("D2R-CHAR-KELISHA", "D2R-OPT-CHAR")
def test_kelisha_keys_reverses_one_shade_per_game(table):
    g, s = table.start(characters=[Ch.CHEEKS_ILLUSTRA, Ch.KELISHA_KEYS, Ch.HO_COUTURE],
                       hands={0: ["Spill the Tea Hair", "Read Hair", "Gold"], 1: ["Silver", "Starter Outfit"]})
    activate(g, s, "Spill the Tea Hair")
    g.apply_action(s, A.TARGET)
    assert (s.phase, s.actor) == (Phase.REACT, 1)
    assert g.legal_actions(s) == [A.TAKE, A.REVERSE]  # no card needed, and no other ability now
    g.apply_action(s, A.REVERSE)
    assert s.used[1] and all(piece(g, s, p, "used")[(1 - p) % 3] for p in range(3))
    assert s.chance == [(Task.DISCARD, 0)]
    g.apply_action(s, K["Gold"])
    activate(g, s, "Read Hair")
    g.apply_action(s, A.TARGET)  # the second Shade: no reaction left, the Read goes through
    g.apply_action(s, A.TAKE)  # the target is always asked; nothing to show
    assert (s.phase, s.ask, s.actor, s.victim) == (Phase.CARD, Ask.BORROW, 0, 1)
    g.apply_action(s, card("Silver"))
    table.check(g, s)


@pytest.mark.rules("D2R-CHAR-KELISHA")
def test_kelisha_keys_is_never_an_action_on_her_own_turn(table):
    g, s = table.start(first=1, characters=[Ch.CHEEKS_ILLUSTRA, Ch.KELISHA_KEYS, Ch.HO_COUTURE])
    assert s.actor == 1 and A.ABILITY not in g.legal_actions(s)


# Glossary ------------------------------------------------------------------------------------


@pytest.mark.rules("D2R-GLOSS-LEND")
def test_lend_gives_a_chosen_hand_card_to_another_players_floordrobe(table):
    g, s = table.start(hands={0: ["Hand-me-down Hair", "Gold", "Silver"], 2: ["Clapback Hair"]})
    activate(g, s, "Hand-me-down Hair")
    assert s.coins == 1 and (s.ask, s.actor) == (Ask.LEND_CARD, 0)
    assert g.legal_actions(s) == [card("Silver"), card("Gold")]
    g.apply_action(s, card("Gold"))
    assert s.ask == Ask.LEND_TARGET and g.legal_actions(s) == [A.TARGET, A.TARGET + 1]
    g.apply_action(s, A.TARGET + 1)  # not a Shade: player_2's Clapback is no use
    assert s.floors[2][K["Gold"]] == 1 and hand_of(s, 0) == {"Silver": 1}
    assert (s.phase, s.actor) == (Phase.PLAY, 0)
    table.check(g, s)


@pytest.mark.rules("D2R-GLOSS-RETURN")
def test_return_brings_a_floordrobe_card_of_value_2_or_less_to_the_hand(table):
    g, s = table.start(hands={0: ["Vintage Hair"]})
    table.floor(s, 0, "Gold", "Basic Heels", "Luxe Hair", "Starter Makeup")
    activate(g, s, "Vintage Hair")
    assert (s.ask, s.actor) == (Ask.RETURN, 0)
    assert g.legal_actions(s) == sorted([card("Gold"), card("Basic Heels"), card("Starter Makeup")])
    g.apply_action(s, card("Basic Heels"))
    assert hand_of(s, 0) == {"Basic Heels": 1} and s.floors[0][K["Basic Heels"]] == 0
    assert A.WEAR + K["Basic Heels"] in g.legal_actions(s)  # playable this turn
    table.check(g, s)


# Hidden information --------------------------------------------------------------------------


def _midgame(table, characters=None):
    """player_0 to play; everyone holds a hand and wears one or two cards."""
    hands = {0: ["Gold", "Basic Hair"], 1: ["Silver", "Gold", "Tuck Heels"], 2: ["Silver"]}
    g, s = table.start(characters=characters, hands=hands)
    for p, look in enumerate((["Starter Outfit", "Luxe Hair"], ["Basic Hair", "Basic Heels"], ["Tuck Hair"])):
        table.dress(s, p, *look)
    table.check(g, s)
    return g, s


def _swap(s, a, x, b, y):
    """Card x of the counts `a` changes places with card y of the counts `b` (a Deck's counts included)."""
    a[K[x]] -= 1
    b[K[x]] += 1
    b[K[y]] -= 1
    a[K[y]] += 1
    recount(s)


@pytest.mark.rules("D2R-HIDDEN-1")
@pytest.mark.parametrize("zone", ["hand", "wardrobe", "look"])
def test_others_hand_wardrobe_and_worn_cards_do_not_show(table, zone):
    g, s = _midgame(table)
    q = 1
    before = {p: view(g, s, p) for p in range(3)}
    if zone == "hand":  # same size, other cards: Gold in hand <-> Starter Heels in Wardrobe
        _swap(s, s.hands[q], "Gold", s.wardrobes[q].counts, "Starter Heels")
    elif zone == "wardrobe":  # a Wardrobe card swapped with one of the Market draw pile
        old = copy(s.wardrobes[q])
        _swap(s, s.wardrobes[q].counts, "Starter Heels", s.pile.counts, "Couture Heels")
        assert s.wardrobes[q] != old
    else:  # the face-down Hair replaced by another Hair
        s.pile.counts[K["Basic Hair"]] += 1
        recount(s)
        s.looks[q][HAIR] = table.take(s, q, "Couture Hair")
    table.check(g, s)
    for p in (0, 2):
        assert same_view(view(g, s, p), before[p]), f"player_{p} sees player_{q}'s {zone}"
    if zone != "wardrobe":  # nobody sees a Wardrobe's contents, not even its owner
        assert not same_view(view(g, s, q), before[q])


@pytest.mark.rules("D2R-HIDDEN-1")
def test_thumbs_are_hidden_until_everyone_has_chosen_then_shown_to_all(table):
    g, s = _midgame(table, [Ch.GLAM_STOKER, Ch.HO_COUTURE, Ch.KENYA_FEELIT])
    table.to_event(g, s)
    assert (s.phase, s.actor) == (Phase.THUMBS, 0)
    branches = {}
    for choice in (A.DOWN, A.UP, A.UP_GLAM):
        t = g.clone(s)
        g.apply_action(t, choice)
        branches[choice] = t
    for p in (1, 2):  # player_0 declared: what is hidden from the others
        views = [view(g, t, p) for t in branches.values()]
        assert all(same_view(v, views[0]) for v in views)
    own = [view(g, t, 0) for t in branches.values()]
    assert not same_view(own[0], own[1]) and not same_view(own[1], own[2])
    t = branches[A.UP_GLAM]
    seen = view(g, t, 0)
    for undeclared in (0, 1, 2):  # player_2 has not chosen: any value looks the same to the others
        u = g.clone(t)
        u.thumbs[2] = undeclared
        assert same_view(view(g, u, 0), seen) and same_view(view(g, u, 1), view(g, t, 1))
    g.apply_action(t, A.UP)  # player_1
    seen = view(g, t, 2)
    t.thumbs[0] = 1
    assert same_view(view(g, t, 2), seen)  # two declared, one to go: still hidden
    t.thumbs[0] = 2
    g.apply_action(t, A.DOWN)  # player_2: everyone has chosen, the Looks are revealed
    assert t.phase != Phase.THUMBS
    for p in range(3):  # all see who revealed (player_2 did not) and Deathdrop Diva spent at the reveal
        shown = piece(g, t, p, "revealed")
        assert [shown[(q - p) % 3] > 0 for q in range(3)] == [True, True, False]
        assert piece(g, t, p, "used")[(0 - p) % 3] == 1


@pytest.mark.rules("D2R-HIDDEN-2", "D2R-GLOSS-PEEK")
def test_a_peek_is_seen_by_the_peeker_alone_and_only_while_the_hand_is_unchanged(table):
    g, s = table.start(hands={0: ["Read Hair"], 1: ["Silver", "Starter Outfit", "Basic Heels"]})
    activate(g, s, "Read Hair")
    g.apply_action(s, A.TARGET)
    g.apply_action(s, A.TAKE)  # the target is always asked; nothing to show
    assert list(piece(g, s, 0, "peek")) == list(s.hands[1]) and piece(g, s, 0, "peeked")[1] == 1
    assert "your peek at player_1: Silver, Starter Outfit, Basic Heels" in view(g, s, 0)[1]
    for p in (1, 2):
        assert not piece(g, s, p, "peek").any() and not piece(g, s, p, "peeked").any()
        assert "peek" not in view(g, s, p)[1]
    g.apply_action(s, card("Basic Heels"))
    assert list(piece(g, s, 0, "peek")) == list(s.hands[1])  # the borrow left face up: still known
    g.apply_action(s, A.END)
    table.settle(g, s)  # player_0's own new hand does not touch the Peek at player_1
    assert s.turn == 1 and "your peek at player_1: Silver, Starter Outfit" in view(g, s, 0)[1]
    activate(g, s, "Silver")  # face up: the Peek keeps in step
    assert "your peek at player_1: Starter Outfit\n" in view(g, s, 0)[1]
    g.apply_action(s, A.WEAR + K["Starter Outfit"])  # a face-down change: the Peek is out of date
    assert not piece(g, s, 0, "peek").any() and "peek" not in view(g, s, 0)[1]
    table.check(g, s)


@pytest.mark.rules("D2R-HIDDEN-1", "D2R-HIDDEN-2")
def test_redeterminise_keeps_what_the_player_sees(table):
    g, s = _midgame(table)
    table.set_hand(s, 0, ["Read Hair", "Silver"])
    activate(g, s, "Read Hair")
    g.apply_action(s, A.TARGET)  # player_0 peeks at player_1's hand
    g.apply_action(s, A.TAKE)  # the target is always asked; nothing to show
    rng = np.random.default_rng(0)
    for p in range(3):
        for _ in range(5):
            t = g.redeterminise(s, p, rng)
            assert same_view(view(g, t, p), view(g, s, p))
            table.check(g, t)
    assert g.redeterminise(s, 0, rng).hands[1] == s.hands[1]  # the peeked hand is known


# Optional rules ------------------------------------------------------------------------------


@pytest.mark.rules("D2R-OPT-LMA")
def test_last_minute_additions_in_turn_order_from_the_first_player_without_refill(table):
    g, s = table.start(first=1, last_minute_additions=True)
    table.to_event(g, s)
    assert (s.phase, s.actor) == (Phase.LAST_MINUTE, 1)
    hand = s.hands[1][:]
    assert g.legal_actions(s) == [A.END] + [A.WEAR + k for k in range(2, C.NUM_KINDS) if hand[k]]
    g.apply_action(s, A.WEAR + K["Starter Heels"])
    assert sum(s.hands[1]) == C.HAND_SIZE - 1 and not s.chance  # not replaced
    assert s.looks[1][HEELS] == K["Starter Heels"]
    g.apply_action(s, A.END)
    assert s.actor == 2
    g.apply_action(s, A.END)
    assert s.actor == 0
    g.apply_action(s, A.END)
    assert (s.phase, s.actor) == (Phase.THUMBS, 1)  # the added card lets player_1 compete
    g.apply_action(s, A.UP)
    table.settle(g, s)
    assert s.won[1] == [0] and s.turn == 2 and sum(s.hands[1]) == C.HAND_SIZE - 1
    g2, s2 = table.start(first=1)  # without the option: straight to the Event Phase (nobody can compete)
    table.to_event(g2, s2)
    assert s2.phase == Phase.PLAY and s2.round == 2 and s2.gone == [0]


def _tie(table, category_is):
    """player_1 and player_2 tie at 2; player_0 (first player) wears nothing."""
    g, s = table.start(category_is=category_is)
    table.dress(s, 1, "Basic Hair")
    table.dress(s, 2, "Basic Heels")
    thumbs_all_up(table, g, s)
    return g, s


@pytest.mark.rules("D2R-OPT-CATEGORY")
def test_category_is_lets_the_first_player_award_a_tie(table):
    g, s = _tie(table, True)
    assert (s.phase, s.actor) == (Phase.JUDGE, 0)
    assert g.legal_actions(s) == [A.WINNER + 1, A.WINNER + 2]
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.WINNER)  # only a tied player can win
    g.apply_action(s, A.WINNER + 2)
    assert s.won == [[], [], [0]]
    g, s = _tie(table, False)  # without the option: no judging, the default tie-break
    assert s.phase != Phase.JUDGE and s.won == [[], [0], []]


@pytest.mark.rules("D2R-OPT-THRIFT")
def test_thrifting_takes_a_cheapest_card_free_once_per_turn_when_nothing_is_affordable(table):
    cheapest = [A.BUY + K["Basic Outfit"], A.BUY + K["Quick Change Outfit"]]  # value 2; Tuck/Read are 3
    g, s = table.start(thrifting=True, hands={0: ["Silver", "Starter Hair"], 1: ["Gold", "Starter Hair"]})
    activate(g, s, "Silver")
    assert [a for a in g.legal_actions(s) if a >= A.BUY and a < A.ABILITY] == cheapest
    g.apply_action(s, cheapest[0])
    assert s.floors[0][K["Basic Outfit"]] == 1 and s.coins == 1 and s.thrifted and s.phase == Phase.WERK
    table.settle(g, s)  # the Market refills
    assert sum(s.market) == C.MARKET_SIZE and g.legal_actions(s) == [A.END]  # once per turn
    g.apply_action(s, A.END)
    table.settle(g, s)
    activate(g, s, "Gold")  # player_1 can afford a card: an ordinary buy, then no Thrifting
    assert [a for a in g.legal_actions(s) if a >= A.BUY and a < A.ABILITY] == cheapest
    g.apply_action(s, cheapest[1])
    table.settle(g, s)
    assert s.coins == 0 and not s.thrifted and g.legal_actions(s) == [A.END]
    g, s = table.start(hands={0: ["Silver"]})  # without the option nothing can be taken
    activate(g, s, "Silver")
    assert g.legal_actions(s) == [A.END]


# Characters ----------------------------------------------------------------------------------


@pytest.mark.rules("D2R-OPT-CHAR")
def test_characters_are_chosen_in_seat_order_from_the_first_player(table):
    g = d2r_envs.make_game(GAME, 3, characters=True)
    s = g.new_initial_state()
    g.apply_action(s, 1)
    assert (s.phase, s.actor) == (Phase.CHARACTERS, 1)
    assert g.legal_actions(s) == [A.CHARACTER + c for c in range(C.NUM_CHARACTERS)]
    g.apply_action(s, A.CHARACTER + Ch.GLAM_STOKER)
    assert s.actor == 2 and A.CHARACTER + Ch.GLAM_STOKER not in g.legal_actions(s)
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.CHARACTER + Ch.GLAM_STOKER)
    g.apply_action(s, A.CHARACTER + Ch.HO_COUTURE)
    assert s.actor == 0
    g.apply_action(s, A.CHARACTER + Ch.KENYA_FEELIT)
    table.settle(g, s)
    assert s.characters == [Ch.KENYA_FEELIT, Ch.GLAM_STOKER, Ch.HO_COUTURE]
    assert (s.phase, s.actor) == (Phase.PLAY, 1) and A.ABILITY in g.legal_actions(s)
    assert A.ABILITY not in d2r_envs.make_game(GAME, 3).legal_actions(table.start()[1])  # option off


@pytest.mark.rules("D2R-CHAR-CHEEKS", "D2R-OPT-CHAR")
def test_cheeks_illustra_draws_3_once_per_game(table):
    g, s = table.start(characters=[Ch.CHEEKS_ILLUSTRA, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    hand, wardrobe = sum(s.hands[0]), sum(s.wardrobes[0])
    g.apply_action(s, A.ABILITY)
    assert s.chance == [(Task.DRAW, 0)] * C.CHEEKS_DRAW
    table.settle(g, s)
    assert sum(s.hands[0]) == hand + 3 and sum(s.wardrobes[0]) == wardrobe - 3
    assert s.used[0] and A.ABILITY not in g.legal_actions(s)
    table.to_event(g, s)  # nobody wears anything: the Event is trashed, round 2 begins
    assert s.round == 2 and s.first == 1
    while s.actor != 0:  # player_0's next turn: still used up
        act(g, s, A.END)
        table.settle(g, s)
    assert A.ABILITY not in g.legal_actions(s)


@pytest.mark.rules("D2R-CHAR-SHESSICA")
def test_shessica_doubles_a_type_for_herself_and_one_chosen_player(table):
    g, s = table.start(characters=[Ch.SHESSICA, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    table.dress(s, 0, "Basic Hair", "Starter Outfit")  # 2*2 + 1 = 5
    table.dress(s, 1, "Luxe Hair")  # 4, not doubled
    table.dress(s, 2, "Tuck Hair")  # 3*2 = 6
    g.apply_action(s, A.ABILITY)
    assert s.ask == Ask.SHESSICA_TYPE and g.legal_actions(s) == [A.LOOK_TYPE + t for t in range(C.NUM_TYPES)]
    g.apply_action(s, A.LOOK_TYPE + HAIR)
    assert s.ask == Ask.SHESSICA_TARGET and g.legal_actions(s) == [A.TARGET, A.TARGET + 1]
    g.apply_action(s, A.TARGET + 1)
    assert s.doubled == [1 << HAIR, 0, 1 << HAIR] and (s.phase, s.actor) == (Phase.PLAY, 0)
    thumbs_all_up(table, g, s)
    assert s.last_values == [5, 4, 6] and s.won[2] == [0]
    assert s.doubled == [0, 0, 0]  # this round only


@pytest.mark.rules("D2R-CHAR-KENYA")
def test_kenya_feelit_zeroes_a_type_for_every_other_player(table):
    g, s = table.start(characters=[Ch.KENYA_FEELIT, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    table.dress(s, 0, "Basic Hair")  # 2: her own Hair counts
    table.dress(s, 1, "Couture Hair", "Starter Outfit")  # 0 + 1
    table.dress(s, 2, "Tuck Heels")  # 3
    g.apply_action(s, A.ABILITY)
    assert s.ask == Ask.KENYA_TYPE
    g.apply_action(s, A.LOOK_TYPE + HAIR)
    assert s.zeroed == [0, 1 << HAIR, 1 << HAIR] and s.used[0]
    thumbs_all_up(table, g, s)
    assert s.last_values == [2, 1, 3] and s.zeroed == [0, 0, 0]


@pytest.mark.rules("D2R-CHAR-GLAM", "D2R-OPT-CHAR")
@pytest.mark.parametrize("when", ["playing", "thumbs"])
def test_glam_stoker_adds_2_once_in_the_playing_phase_or_with_the_thumbs(table, when):
    g, s = table.start(characters=[Ch.GLAM_STOKER, Ch.HO_COUTURE, Ch.KENYA_FEELIT])
    table.dress(s, 0, "Basic Hair")  # 2 (+2 = 4)
    table.dress(s, 1, "Tuck Hair")  # 3
    if when == "playing":
        g.apply_action(s, A.ABILITY)
        assert s.bonus == [2, 0, 0] and s.used[0] and A.ABILITY not in g.legal_actions(s)
    table.to_event(g, s)
    assert (s.phase, s.actor) == (Phase.THUMBS, 0)
    if when == "playing":
        assert g.legal_actions(s) == [A.DOWN, A.UP]
        g.apply_action(s, A.UP)
    else:
        assert g.legal_actions(s) == [A.DOWN, A.UP, A.UP_GLAM] and not s.used[0]
        g.apply_action(s, A.UP_GLAM)
    assert g.legal_actions(s) == [A.DOWN, A.UP]  # player_1 is no Glam Stoker
    g.apply_action(s, A.UP)
    assert s.last_values == [4, 3, -1] and s.won[0] == [0] and s.used[0]
    assert s.bonus == [0, 0, 0]


@pytest.mark.rules("D2R-CHAR-HO")
def test_ho_couture_adds_1_per_look_card_this_round(table):
    g, s = table.start(characters=[Ch.HO_COUTURE, Ch.KENYA_FEELIT, Ch.GLAM_STOKER])
    table.dress(s, 0, "Basic Hair", "Starter Outfit", "Basic Heels")  # 5 + 3
    table.dress(s, 1, "Couture Hair", "Starter Outfit")  # 7
    g.apply_action(s, A.ABILITY)
    assert s.ho == [True, False, False] and s.used[0]
    thumbs_all_up(table, g, s)
    assert s.last_values == [8, 7, -1] and s.won[0] == [0] and s.ho == [False] * 3


@pytest.mark.rules("D2R-CHAR-FELICIA", "D2R-GLOSS-TRASH", "D2R-OPT-CHAR")
@pytest.mark.parametrize("cards", [["Silver", "Gold", "Basic Hair", "Basic Heels", "Starter Heels"],
                                   ["Gold", "Basic Hair"]])
def test_bi_felicia_trashes_3_floordrobe_cards_or_all_if_fewer(table, cards):
    g, s = table.start(characters=[Ch.BI_FELICIA, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    assert A.ABILITY not in g.legal_actions(s)  # nothing to trash yet
    table.floor(s, 0, *cards)
    g.apply_action(s, A.ABILITY)
    trashed = []
    while s.phase == Phase.CARD:
        assert (s.ask, s.actor) == (Ask.TRASH, 0)
        assert g.legal_actions(s) == [A.CARD + k for k, c in enumerate(s.floors[0]) if c]
        a = g.legal_actions(s)[-1]
        g.apply_action(s, a)
        trashed.append(a - A.CARD)
    assert len(trashed) == min(3, len(cards)) and sum(s.floors[0]) == len(cards) - len(trashed)
    for p in range(3):  # out of the game, in plain view
        assert list(piece(g, s, p, "trash")) == [trashed.count(k) for k in range(C.NUM_KINDS)]
    assert (s.phase, s.actor) == (Phase.PLAY, 0) and A.ABILITY not in g.legal_actions(s)
    table.check(g, s)


@pytest.mark.rules("D2R-CHAR-CATASTROPHOEBE")
def test_catastrophoebe_takes_the_highest_value_market_card_and_the_market_refills(table):
    g, s = table.start(characters=[Ch.CATASTROPHOEBE, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    s.market[K["Basic Outfit"]] -= 1
    s.pile.counts[K["Basic Outfit"]] += 1
    recount(s)
    s.market[table.take(s, 0, "Couture Hair")] += 1
    g.apply_action(s, A.ABILITY)
    assert s.floors[0][K["Couture Hair"]] == 1 and s.market[K["Couture Hair"]] == 0
    assert s.chance == [(Task.MARKET, -1)] and s.coins == 0
    table.settle(g, s, "Luxe Heels")
    assert sum(s.market) == C.MARKET_SIZE and s.market[K["Luxe Heels"]] == 1
    assert (s.phase, s.actor) == (Phase.PLAY, 0) and A.ABILITY not in g.legal_actions(s)
    table.check(g, s)


@pytest.mark.rules("D2R-CHAR-CATASTROPHOEBE")
def test_catastrophoebe_chooses_among_tied_highest_kinds(table):
    g, s = table.start(characters=[Ch.CATASTROPHOEBE, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    g.apply_action(s, A.ABILITY)  # the set-up Market's best: Tuck Outfit and Read Outfit (3)
    assert (s.phase, s.ask) == (Phase.CARD, Ask.TAKE)
    assert g.legal_actions(s) == [card("Tuck Outfit"), card("Read Outfit")]
    g.apply_action(s, card("Read Outfit"))
    table.settle(g, s)
    assert s.floors[0][K["Read Outfit"]] == 1 and sum(s.market) == C.MARKET_SIZE
    table.check(g, s)
