"""The Drags 2 Riches event log (narrate.py): what each seat is told, and what each action is explained as.

Scenario tests build their states with the `table` fixture (conftest.py), every transition through a
`Log` (`table.start(log=True)`): every chance node takes its lowest outcome unless a test names another,
then hands and Looks are edited directly. The fuzz tests narrate random games through `Log` at every
transition and check that nothing a seat may not see reaches its texts.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.events import Log
from d2r_envs.core.game import CHANCE
from d2r_envs.games.drags_2_riches import Observer, narrate
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.rules import recount
from d2r_envs.games.drags_2_riches.state import Ask, Phase, Task

GAME = "drags_2_riches"
K = C.KIND
Ch = C.Character
OPTIONS = ("intro_game", "last_minute_additions", "category_is", "thrifting", "characters")


# Helpers ------------------------------------------------------------------------------------


def new_game(n=3, **options):
    return d2r_envs.make_game(GAME, n, **options)


def seen(log, seat, start=0):
    return log.seen_by(seat, start)


def text(log, seat, start=0):
    return "\n".join(log.seen_by(seat, start))


# Scenarios ----------------------------------------------------------------------------------


def test_game_delegates_to_narrate():
    g = new_game()
    s = g.new_initial_state()
    before = g.clone(s)
    g.apply_action(s, 1)
    assert d2r_envs.registry.package("drags_2_riches").events(g, before, 1, s) == narrate.events(g, before, 1, s)
    assert narrate.events(g, before, 1, s)[0].public == "player_1 takes the First Player token"


def test_a_draw_is_announced_with_its_count_and_shows_the_card_to_the_drawer_only(table):
    g, s, log = table.start(log=True, hands={0: ["Tuck Hair"]})
    mark = len(log)
    log.apply(s, A.ACTIVATE + K["Tuck Hair"])
    assert s.chance == [(Task.DRAW, 0)]
    activated = "player_0 activates Tuck Hair (+1 coin; Draw 1): 1 to spend; they draw 1 card"
    drawn = max(k for k, c in enumerate(s.wardrobes[0]) if c)
    name = C.KINDS[drawn].name
    log.apply(s, drawn)
    assert seen(log, 0, mark) == [activated, f"player_0 draws {name}"]
    for q in (1, 2):
        assert seen(log, q, mark) == [activated]  # the draw itself tells them nothing
        assert name not in text(log, q, mark + 1)


def test_a_dealt_hand_is_named_once_to_its_owner(table):
    g, s, log = table.start(log=True)
    for q in range(3):
        told = seen(log, q)
        deal = next(i for i, t in enumerate(told) if t.startswith("Round 1: "))
        assert told[deal].endswith("; everyone draws a hand of 5, from player_0")
        assert told[deal + 1:] == [f"player_{q} draws their hand: {C.counts_to_string(s.hands[q])}",
                                   "player_0's turn (Playing Phase)"]
    # Each deal draw tells the others nothing, and the owner nothing until the hand is complete.
    g = new_game()
    s = g.new_initial_state()
    log = Log(g, narrate)
    log.apply(s, 0)
    while g.current_player(s) == CHANCE and s.phase != Phase.DEAL:
        log.apply(s, g.chance_outcomes(s)[0][0])
    count = 0
    while s.phase == Phase.DEAL:
        drawer = s.chance[0][1]
        last = s.chance[1:2] != [(Task.DRAW, drawer)]
        new = log.apply(s, g.chance_outcomes(s)[-1][0])
        count += 1
        for q in range(3):
            private = [e.seen_by(q) for e in new if e.seen_by(q) != e.public]
            if q == drawer and last:
                assert private == [f"player_{q} draws their hand: {C.counts_to_string(s.hands[q])}"]
            else:
                assert private == []
    assert count == 3 * C.HAND_SIZE


def test_an_untucked_hand_is_announced_with_its_count_and_named_once_to_its_owner(table):
    g, s, log = table.start(log=True)
    mark = len(log)
    log.apply(s, A.END)
    table.settle(log, s)
    assert s.turn == 1
    hand = C.counts_to_string(s.hands[0])
    # Three cards were left in the Wardrobe: the Floordrobe (the old hand) is Dry Cleaned after the third draw.
    clean = "player_0's Wardrobe is empty: they Dry Clean, shuffling their Floordrobe (5 cards) into a new Wardrobe"
    for q in range(3):
        told = seen(log, q, mark)
        assert told[0].startswith("player_0 ends their turn; to their Floordrobe: hand ")
        assert told[0].endswith("; they Untuck and draw a new hand of 5 cards")
        mine = [f"player_0 draws a new hand: {hand}"] if q == 0 else []
        assert told[1:] == [clean] + mine + ["player_1's turn (Playing Phase)"]  # five draws, nothing else said


def test_a_run_of_draws_cut_short_says_what_was_drawn(table):
    g, s, log = table.start(log=True, hands={0: ["Silver"]})
    # player_0 keeps two Wardrobe cards; the rest go to the trash, out of the game.
    for k in range(C.NUM_KINDS):
        s.trash[k] += s.wardrobes[0][k]
        s.wardrobes[0].counts[k] = 0
    s.wardrobes[0].counts[K["Gold"]] = 1
    s.wardrobes[0].counts[K["Starter Hair"]] = 1
    s.trash[K["Gold"]] -= 1
    s.trash[K["Starter Hair"]] -= 1
    recount(s)
    table.check(g, s)
    mark = len(log)
    log.apply(s, A.END)  # the Silver goes to the Floordrobe: three cards for a hand of five
    untuck = ("player_0 ends their turn; to their Floordrobe: hand Silver; they Untuck and draw a new hand of"
              " 5 cards, but only 3 are left in their Wardrobe and Floordrobe")
    table.settle(log, s, "Gold", "Starter Hair", "Silver")
    clean = "player_0's Wardrobe is empty: they Dry Clean, shuffling their Floordrobe (1 card) into a new Wardrobe"
    cut = "player_0's Wardrobe and Floordrobe are empty: they draw 2 cards fewer than due, for a hand of 3 cards"
    assert seen(log, 1, mark) == [untuck, clean, cut, "player_1's turn (Playing Phase)"]
    assert seen(log, 0, mark) == [untuck, clean, "player_0 draws a new hand: Silver, Gold, Starter Hair", cut,
                                  "player_1's turn (Playing Phase)"]
    # A Draw with nothing left to draw says so.
    table.set_hand(s, 1, ["Tuck Hair"])
    for k in range(C.NUM_KINDS):
        s.trash[k] += s.wardrobes[1][k] + s.floors[1][k]
        s.wardrobes[1].counts[k] = s.floors[1][k] = 0
    recount(s)
    mark = len(log)
    log.apply(s, A.ACTIVATE + K["Tuck Hair"])
    assert seen(log, 2, mark) == ["player_1 activates Tuck Hair (+1 coin; Draw 1): 1 to spend; nothing left to draw"
                                  " (Wardrobe and Floordrobe empty)"]


def _event_phase_with_looks(table, **options):
    g, s, log = table.start(log=True, **options)
    table.dress(s, 0, "Luxe Hair")
    table.dress(s, 1, "Basic Heels")
    table.dress(s, 2, "Starter Makeup")
    table.to_event(log, s)
    assert (s.phase, s.actor) == (Phase.THUMBS, 0)
    return g, s, log


def test_thumbs_are_hidden_from_the_others_until_everyone_has_declared(table):
    g, s, log = _event_phase_with_looks(table)
    _check_indistinguishable(g, Observer(g), s)
    views = {}
    for choice in (A.DOWN, A.UP):
        t = g.clone(s)
        branch = Log(g, narrate)
        branch.apply(t, choice)
        views[choice] = [branch.seen_by(q) for q in range(3)]
    assert views[A.DOWN][0] == ["player_0 declares thumbs down (hidden until everyone has declared)"]
    assert views[A.UP][0] == ["player_0 declares thumbs up (hidden until everyone has declared)"]
    for q in (1, 2):
        assert views[A.DOWN][q] == views[A.UP][q] == ["player_0 declares their thumbs, face down"]
    mark = len(log)
    log.apply(s, A.UP)
    log.apply(s, A.DOWN)  # player_1
    assert seen(log, 2, mark) == ["player_0 declares their thumbs, face down",
                                  "player_1 declares their thumbs, face down"]
    assert seen(log, 0, mark)[1] == "player_1 declares their thumbs, face down"
    mark2 = len(log)
    log.apply(s, A.UP)  # player_2, the last: the thumbs and the Looks are revealed to all
    for q in range(3):
        told = seen(log, q, mark2)
        assert "everyone has declared; thumbs: player_0 up, player_1 down, player_2 up" in told
        assert "player_0 reveals their Look: Luxe Hair 4 = value 4" in told
        assert "player_2 reveals their Look: Starter Makeup 1 = value 1" in told
        assert "Basic Heels" not in "\n".join(told)  # player_1 kept theirs face down


def test_deathdrop_diva_with_the_thumbs_is_hidden_until_the_reveal(table):
    g, s, log = table.start(log=True, characters=[Ch.GLAM_STOKER, Ch.HO_COUTURE, Ch.KENYA_FEELIT])
    table.dress(s, 0, "Luxe Hair")
    table.dress(s, 1, "Basic Heels")
    table.to_event(log, s)
    mark = len(log)
    log.apply(s, A.UP_GLAM)
    assert "Deathdrop Diva" in text(log, 0, mark)
    assert seen(log, 1, mark) == seen(log, 2, mark) == ["player_0 declares their thumbs, face down"]
    log.apply(s, A.DOWN)
    assert "player_0 up with Deathdrop Diva" in text(log, 1, mark)
    assert "player_0 reveals their Look: Luxe Hair 4, +2 Deathdrop Diva = value 6" in seen(log, 2, mark)


def test_a_face_down_look_is_not_named_to_others_until_revealed(table):
    g, s, log = table.start(log=True, hands={0: ["Couture Hair", "Basic Hair", "Silver"]})
    table.dress(s, 0, "Starter Hair")
    _check_indistinguishable(g, Observer(g), s)  # Couture Hair or Basic Hair: the others are told the same
    mark = len(log)
    log.apply(s, A.WEAR + K["Couture Hair"])
    assert seen(log, 0, mark) == [
        "player_0 wears Couture Hair face down in their Hair slot, replacing Starter Hair, which goes to their"
        " Floordrobe face up (Look value now 6)"]
    for q in (1, 2):  # the slot and the replaced card (now face up) show; the new card does not
        assert seen(log, q, mark) == [
            "player_0 wears a card face down in their Hair slot, replacing Starter Hair, which goes to their"
            " Floordrobe face up"]
    mark = len(log)
    table.to_event(log, s)
    assert s.phase == Phase.THUMBS and s.actor == 0
    for q in (1, 2):
        assert "Couture Hair" not in text(log, q, mark)
    log.apply(s, A.UP)  # player_0 alone has a Look: the reveal follows at once
    for q in range(3):
        told = text(log, q, mark)
        assert "player_0 reveals their Look: Couture Hair 6 = value 6" in told
        assert "player_0 wins Drag Ball, with the best Look (value 6): +3 prestige (now 3, 1 Event)" in told


def test_coins_and_purchases_name_who_how_much_and_why(table):
    g, s, log = table.start(log=True, hands={0: ["Gold", "Silver", "Luxe Hair"]})
    mark = len(log)
    log.apply(s, A.ACTIVATE + K["Gold"])
    log.apply(s, A.ACTIVATE + K["Luxe Hair"])
    buy = max((a for a in g.legal_actions(s) if A.BUY <= a < A.ABILITY), key=lambda a: C.VALUE[a - A.BUY])
    name, cost = C.KINDS[buy - A.BUY].name, C.VALUE[buy - A.BUY]
    log.apply(s, buy)
    refill = g.chance_outcomes(s)[0][0]
    log.apply(s, refill)
    for q in range(3):
        assert seen(log, q, mark) == [
            "player_0 activates Gold (+2 coin): 2 to spend",
            "player_0 activates Luxe Hair (+2 coin): 4 to spend",
            f"player_0 buys {name} for {cost} coins ({4 - cost} left), into their Floordrobe; the Werk Phase begins:"
            " no more cards are played this turn",
            f"the Market is refilled with {C.KINDS[refill].name}",
        ]
    mark = len(log)
    log.apply(s, A.END)
    left = {0: "", 1: ", leaving 1 coin unspent", 2: ", leaving 2 coins unspent"}[4 - cost]
    assert seen(log, 1, mark) == [
        f"player_0 ends their turn{left}; to their Floordrobe: hand Silver; activated Gold, Luxe Hair;"
        " they Untuck and draw a new hand of 5 cards"]


def test_thrifting_says_the_card_is_free(table):
    g, s, log = table.start(log=True, thrifting=True, hands={0: ["Starter Hair"]})
    cheapest = [a for a in g.legal_actions(s) if A.BUY <= a < A.ABILITY]
    mark = len(log)
    log.apply(s, cheapest[0])
    name = C.KINDS[cheapest[0] - A.BUY].name
    assert seen(log, 1, mark)[0].startswith(f"player_0 takes {name} (value 2) free by Thrifting")


def test_prestige_on_a_tie_names_the_tie_break(table):
    g, s, log = table.start(log=True)
    table.dress(s, 1, "Basic Hair")
    table.dress(s, 2, "Basic Heels")
    table.to_event(log, s)
    mark = len(log)
    while s.phase == Phase.THUMBS:
        log.apply(s, A.UP)
    told = seen(log, 0, mark)
    assert "player_1 and player_2 tie at 2: player_1 wins it, nearest the first player (player_0) in seat order" in told
    assert "player_1 wins Drag Ball, with the best Look (value 2): +3 prestige (now 3, 1 Event)" in told
    assert s.prestige[1] == 3


def test_category_is_judging_shows_the_values_then_the_looks(table):
    g, s, log = table.start(log=True, category_is=True)
    table.dress(s, 1, "Basic Hair")
    table.dress(s, 2, "Basic Heels")
    table.to_event(log, s)
    mark = len(log)
    while s.phase == Phase.THUMBS:
        log.apply(s, A.UP)
    assert s.phase == Phase.JUDGE
    told = seen(log, 0, mark)
    assert "player_1 reveals their Look: value 2" in told
    assert "player_1 and player_2 tie at 2: player_0, the first player, judges (Category Is)" in told
    mark = len(log)
    log.apply(s, A.WINNER + 2)
    told = seen(log, 1, mark)
    assert told[0] == "player_0, the first player, awards Drag Ball (3 prestige) to player_2 (Category Is)"
    assert told[1].startswith("player_2 wins Drag Ball, chosen by the first player: +3 prestige (now 3")
    assert told[2] == "the revealed Looks go to their Floordrobes: player_1 (Basic Hair 2); player_2 (Basic Heels 2)"


def test_a_shade_names_the_attacker_and_the_target_and_a_random_discard_is_public(table):
    g, s, log = table.start(log=True, hands={0: ["Spill the Tea Hair"], 1: ["Silver", "Gold", "Starter Heels"]})
    mark = len(log)
    log.apply(s, A.ACTIVATE + K["Spill the Tea Hair"])
    log.apply(s, A.TARGET)  # player_1
    log.apply(s, A.TAKE)
    log.apply(s, K["Gold"])
    for q in range(3):
        assert seen(log, q, mark) == [
            "player_0 activates Spill the Tea Hair (+1 coin; SHADE: target player Discards 1 card at random):"
            " 1 to spend; they choose a target",
            "player_0 targets player_1 (3 cards in hand) with the Shade of Spill the Tea Hair (player_1 discards 1"
            " card at random); player_1 may block or reverse it",
            "player_1 takes the Shade",
            "player_1 discards Gold at random, into their Floordrobe (Shade)",
        ]


def test_block_and_reverse_are_told_to_all(table):
    g, s, log = table.start(log=True, hands={0: ["Spill the Tea Hair", "Silver"], 1: ["Clapback Hair"],
                                             2: ["Mirror Heels"]})
    log.apply(s, A.ACTIVATE + K["Spill the Tea Hair"])
    log.apply(s, A.TARGET)
    mark = len(log)
    log.apply(s, A.BLOCK)
    assert seen(log, 2, mark) == [
        "player_1 shows a Block Shade card from their hand (it stays there): the Shade is blocked"]
    g, s, log = table.start(log=True, hands={0: ["Spill the Tea Hair", "Silver"], 2: ["Mirror Heels"]})
    log.apply(s, A.ACTIVATE + K["Spill the Tea Hair"])
    log.apply(s, A.TARGET + 1)  # player_2
    mark = len(log)
    log.apply(s, A.REVERSE)
    assert seen(log, 1, mark) == ["player_2 reverses the Shade with a Reverse Shade card (Mirror) from their hand:"
                                  " it turns back on player_0"]
    log.apply(s, K["Silver"])
    assert seen(log, 1, mark)[-1] == "player_0 discards Silver at random, into their Floordrobe (Shade)"


def test_kelisha_keys_reversal_onto_an_empty_hand_waits_and_says_so(table):
    g, s, log = table.start(log=True, characters=[Ch.HO_COUTURE, Ch.KELISHA_KEYS, Ch.GLAM_STOKER],
                            hands={0: ["Read Hair"]})
    log.apply(s, A.ACTIVATE + K["Read Hair"])
    log.apply(s, A.TARGET)  # player_1, Kelisha Keys
    mark = len(log)
    log.apply(s, A.REVERSE)
    assert seen(log, 2, mark) == [
        "player_1 reverses the Shade with Kelisha Keys' All Tea No Shade: it turns back on player_0; player_0's hand"
        " is empty, so the reversed Shade waits for their next hand"]
    mark = len(log)
    log.apply(s, A.END)
    table.settle(log, s)
    assert (s.phase, s.ask, s.actor, s.victim) == (Phase.CARD, Ask.BORROW, 1, 0)
    told = seen(log, 2, mark)
    assert "the reversed Shade waiting for player_0's new hand resolves: player_1 peeks at player_0's hand," \
           " then Borrows 1 of those cards" in told
    assert told[-1] == "player_1 peeks at player_0's hand and will Borrow 1 of those cards"
    hand = C.counts_to_string(s.hands[0])
    assert seen(log, 1, mark)[-1] == f"player_1 peeks at player_0's hand: {hand}; they Borrow 1 of those cards"


def test_a_shade_taken_on_an_empty_hand_does_nothing_and_says_so(table):
    g, s, log = table.start(log=True, hands={0: ["Spill the Tea Hair"], 1: []})
    log.apply(s, A.ACTIVATE + K["Spill the Tea Hair"])
    log.apply(s, A.TARGET)  # player_1
    mark = len(log)
    log.apply(s, A.TAKE)
    for q in range(3):
        assert seen(log, q, mark) == ["player_1 takes the Shade: their hand is empty, so it does nothing"]


def test_waiting_reversed_shades_resolve_on_the_new_hand_until_it_is_empty(table):
    g, s, log = table.start(log=True, hands={0: ["Silver"]})
    for k in range(C.NUM_KINDS):  # the Silver alone is left to draw
        s.trash[k] += s.wardrobes[0][k] + s.floors[0][k]
        s.wardrobes[0].counts[k] = s.floors[0][k] = 0
    s.pending[0] = [(int(C.Op.DISCARD), 1), (int(C.Op.DISCARD), 2)]
    recount(s)
    mark = len(log)
    log.apply(s, A.END)
    table.settle(log, s)
    told = [
        "player_0 ends their turn; to their Floordrobe: hand Silver; they Untuck and draw a new hand of 5 cards,"
        " but only 1 is left in their Wardrobe and Floordrobe",
        "player_0's Wardrobe is empty: they Dry Clean, shuffling their Floordrobe (1 card) into a new Wardrobe",
        "player_0's Wardrobe and Floordrobe are empty: they draw 4 cards fewer than due, for a hand of 1 card",
        "the reversed Shade waiting for player_0's new hand resolves: player_0 discards 1 card at random",
        "player_0 discards Silver at random, into their Floordrobe (Shade)",
        "player_0's hand is empty: 1 waiting reversed Shade(s) dropped",
        "player_1's turn (Playing Phase)",
    ]
    assert seen(log, 1, mark) == told
    assert seen(log, 0, mark) == told[:2] + ["player_0 draws a new hand: Silver"] + told[2:]
    assert s.pending == [[], [], []]


def test_a_spree_queued_for_the_drawer_of_a_new_hand_joins_it(table):
    """Two players: the last draw of player_1's new hand ends the round (nobody has a Look), deck I is out,
    so its Shopping Spree comes at once, and player_1 plays first: its 2 draws join the run, and the hand is
    not named whole; each card after it is named as it comes."""
    g, s, log = table.start(n=2, log=True)
    s.decks[s.stages[s.stage]] = []
    log.apply(s, A.END)
    table.settle(log, s)
    mark = len(log)
    log.apply(s, A.END)
    table.settle(log, s)
    told = [
        "player_1 ends their turn; to their Floordrobe: hand 2x Silver, Gold, Starter Outfit, Starter Hair; they"
        " Untuck and draw a new hand of 5 cards",
        "player_1's Wardrobe is empty: they Dry Clean, shuffling their Floordrobe (5 cards) into a new Wardrobe",
        "nobody has a Look to compete with: Drag Ball (3 prestige) is trashed",
        "the First Player token passes to player_1",
        "Round 2: the Event is Shopping Spree: every player draws 2 extra cards at the start of their turn;"
        " no Event Phase",
        "player_1's turn (Playing Phase); Shopping Spree: they draw 2 extra cards first",
    ]
    assert seen(log, 0, mark) == told
    assert seen(log, 1, mark) == told + ["player_1 draws Gold", "player_1 draws Starter Outfit"]


def test_a_first_hand_dealt_short_is_announced_with_the_round(table):
    g = new_game(3)
    s = g.new_initial_state()
    log = Log(g, narrate)
    log.apply(s, 0)
    while s.chance:  # the Market is laid out
        log.apply(s, g.chance_outcomes(s)[0][0])
    for k in range(C.NUM_KINDS):  # player_1 keeps 3 cards
        while s.wardrobes[1][k] and s.wardrobes[1].n > 3:
            s.wardrobes[1].take(k)
            s.box[k] += 1
    mark = len(log)
    table.settle(log, s)
    head = ("Round 1: the Event is Drag Ball (3 prestige); everyone draws a hand of 5, from player_0"
            " (Wardrobe and Floordrobe short: player_1 only 3)")
    short = "player_1's Wardrobe and Floordrobe are empty: they draw 2 cards fewer than due, for a hand of 3 cards"
    assert seen(log, 1, mark) == [head, "player_1 draws their hand: Starter Heels, Starter Makeup, Starter Accessories",
                                  short, "player_0's turn (Playing Phase)"]
    assert seen(log, 2, mark) == [head, short, "player_2 draws their hand: 2x Silver, Gold, Starter Outfit,"
                                  " Starter Hair", "player_0's turn (Playing Phase)"]


def test_a_peek_shows_the_cards_to_the_peeker_alone(table):
    g, s, log = table.start(log=True, hands={0: ["Read Hair"], 1: ["Silver", "Starter Outfit", "Basic Heels"]})
    log.apply(s, A.ACTIVATE + K["Read Hair"])
    log.apply(s, A.TARGET)
    mark = len(log)
    log.apply(s, A.TAKE)
    assert seen(log, 0, mark)[-1] == ("player_0 peeks at player_1's hand: Silver, Starter Outfit, Basic Heels;"
                                      " they Borrow 1 of those cards")
    for q in (1, 2):
        assert seen(log, q, mark)[-1] == "player_0 peeks at player_1's hand and will Borrow 1 of those cards"
    assert narrate.explain(g, s, A.CARD + K["Basic Heels"]) == (
        "Into your Floordrobe from player_1's hand: value 2; +1 coin")
    mark = len(log)
    log.apply(s, A.CARD + K["Basic Heels"])
    assert seen(log, 2, mark) == ["player_0 borrows Basic Heels from player_1's hand, into their own Floordrobe"]


def test_lend_and_drag_mother_hide_the_first_choice_until_the_second(table):
    g, s, log = table.start(log=True, hands={0: ["Hand-me-down Hair", "Gold", "Silver"]})
    log.apply(s, A.ACTIVATE + K["Hand-me-down Hair"])
    _check_indistinguishable(g, Observer(g), s)  # Gold or Silver: the others are told the same
    mark = len(log)
    log.apply(s, A.CARD + K["Gold"])
    assert seen(log, 0, mark) == ["player_0 picks Gold to lend"]
    assert seen(log, 1, mark) == ["player_0 picks a card from their hand to lend"]
    log.apply(s, A.TARGET + 1)
    assert seen(log, 1, mark)[-1] == "player_0 lends Gold to player_2, into player_2's Floordrobe"
    g, s, log = table.start(log=True, characters=[Ch.SHESSICA, Ch.HO_COUTURE, Ch.GLAM_STOKER])
    log.apply(s, A.ABILITY)
    _check_indistinguishable(g, Observer(g), s)  # any type: the others are told the same
    mark = len(log)
    log.apply(s, A.LOOK_TYPE + C.TYPES.index("Heels"))
    assert seen(log, 0, mark) == ["player_0 chooses Heels for Drag Mother, and next the other player"]
    assert seen(log, 2, mark) == ["player_0 chooses a Look type for Drag Mother"]
    log.apply(s, A.TARGET + 1)
    assert seen(log, 2, mark)[-1] == ("player_0 (Drag Mother): Heels cards count double for player_0 and player_2"
                                      " this round")


def _play_out(g, s, log, rng):
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            log.apply(s, g.sample_chance(s, rng))
        else:
            legal = g.legal_actions(s)
            log.apply(s, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("n", [2, 5])
def test_the_end_announces_the_final_scores_and_the_winner(n):
    g = new_game(n, intro_game=True)
    s = g.new_initial_state()
    log = Log(g, narrate)
    _play_out(g, s, log, np.random.default_rng(n))
    last = log.events[-1]
    for q in range(n):
        assert last.seen_by(q) == last.public
        assert f"player_{q} {s.prestige[q]} prestige ({len(s.won[q])} Event" in last.public
    assert last.public.startswith("game over after the Sell-Out Tour")
    names = " and ".join(f"player_{w}" for w in s.winners)
    assert (names + " wins") in last.public or (names + " are joint winners") in last.public


def test_the_end_explains_a_tie_on_prestige():
    g = new_game(3)
    s = g.new_initial_state()
    for won, verdict in (
        ([[1], [2], [0, 4]], "player_2 wins with 8 prestige"),  # 4 / 4 / 3 + 5
        ([[5], [0, 3], []], "player_1 wins: tied on 6 prestige, with the most Event cards (2)"),  # 6 / 3 + 3 / 0
        ([[1], [2], [0]], "player_0 and player_1 are joint winners, tied on 4 prestige and 1 Event"),  # 4 / 4 / 3
    ):
        s.won = won
        recount(s)
        s.winners = g.winners(s)
        final = narrate.final_events(g, s)[0].public
        assert final.endswith(verdict), final
        assert "player_1 " + str(s.prestige[1]) + " prestige" in final


# Fuzz ---------------------------------------------------------------------------------------


def _configs():
    rng = np.random.default_rng(2024)
    out = []
    for n in range(2, 6):
        out.append((n, {}))
        out.append((n, {o: True for o in OPTIONS}))
        out.append((n, {o: bool(rng.integers(2)) for o in OPTIONS}))
    return out


CONFIGS = _configs()


def _fuzz_game(n, options, seed, indistinguishable_every=0):
    """One random game narrated at every transition, with the leak checks. Returns the Log."""
    g = new_game(n, **options)
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(seed)
    obs = Observer(g)
    step = 0
    while not g.is_terminal(s):
        player = g.current_player(s)
        if player == CHANCE:
            action = g.sample_chance(s, rng)
        else:
            legal = g.legal_actions(s)
            action = legal[int(rng.integers(len(legal)))]
            for a in legal:  # every legal action explains itself without raising
                assert isinstance(narrate.explain(g, s, a), str)
        if indistinguishable_every and step % indistinguishable_every == 0:
            _check_indistinguishable(g, obs, s)
        before = g.clone(s)
        mark = len(log)
        new = log.apply(s, action)
        texts = {q: [e.seen_by(q) for e in new if e.seen_by(q)] for q in range(n)}
        if player >= 0:  # every decision is told to every seat, the mover included
            assert all(texts[q] for q in range(n)), (g.action_to_string(before, action), texts)
        _check_no_leak(g, before, action, s, texts)
        _check_draws_announced(g, before, action, s, new)
        assert len(log) == mark + len(new)
        step += 1
    assert log.events[-1].public.startswith("game over")
    return log


def _check_no_leak(g, b, action, a, texts):
    n = g.n
    player = g.current_player(b)
    if player == CHANCE and b.chance and b.chance[0][0] == Task.DRAW:
        drawer, name = b.chance[0][1], C.KINDS[action].name
        if b.phase in (Phase.DEAL, Phase.UNTUCK):  # a new hand: named whole to its drawer, at its last draw
            if any(t == Task.DRAW and q == drawer for t, q in a.chance):
                assert not any(t.startswith(f"player_{drawer} draws") for t in texts[drawer]), texts[drawer]
            else:
                hand = "their hand" if b.phase == Phase.DEAL else "a new hand"
                assert texts[drawer][0] == f"player_{drawer} draws {hand}: {C.counts_to_string(a.hands[drawer])}"
        else:
            assert texts[drawer][0] == f"player_{drawer} draws {name}"
        for q in range(n):
            if q != drawer:
                assert not any(t.startswith(f"player_{drawer} draws") for t in texts[q]), texts[q]
                if a.peek[q] != drawer:  # a reversed Peek right after the draw may show it
                    assert name not in "\n".join(texts[q]), (q, texts[q])
    if player >= 0 and b.phase in (Phase.PLAY, Phase.WERK, Phase.LAST_MINUTE) and A.WEAR <= action < A.BUY:
        k = action - A.WEAR
        if b.looks[player][C.TYPE_OF[k]] != k:
            for q in range(n):
                if q != player:
                    assert C.KINDS[k].name not in "\n".join(texts[q])
    if player >= 0 and b.phase == Phase.THUMBS and a.phase == Phase.THUMBS:
        for q in range(n):
            if q != player:
                assert texts[q] == [f"player_{player} declares their thumbs, face down"]


def _check_draws_announced(g, b, action, a, new):
    """A run of draws is announced to all, with its count, by the transition that queues it; draws lost
    to an empty Wardrobe and Floordrobe are told, with how many."""
    drawer = b.chance[0][1] if g.current_player(b) == CHANCE and b.chance and b.chance[0][0] == Task.DRAW else -1
    said = [e.public for e in new if e.public]
    for q in range(g.n):
        due = sum(1 for t, r in b.chance if t == Task.DRAW and r == q) - (q == drawer)
        queued = sum(1 for t, r in a.chance if t == Task.DRAW and r == q) - max(0, due)
        if queued > 0:
            assert any("draw" in t and re.search(rf"\b{queued}\b", t) for t in said), (queued, said)
        if due > 0 and queued < 0:
            assert any(t.startswith(f"player_{q}'s Wardrobe and Floordrobe are empty: they draw {_cards(-queued)}"
                                    " fewer than due") for t in said), said


def _cards(n):
    return f"{n} card" + ("" if n == 1 else "s")


def _check_indistinguishable(g, obs, s):
    """Two chance outcomes, or two moves, here that leave a seat (other than the mover) the same
    observation must tell it the same texts."""
    player = g.current_player(s)
    options = [o for o, _ in g.chance_outcomes(s)] if player == CHANCE else g.legal_actions(s)
    if len(options) < 2:
        return
    told = {}
    for a in options:
        t = g.clone(s)
        g.apply_action(t, a)
        events = narrate.events(g, s, a, t)
        for q in range(g.n):
            if q == player:  # the mover knows its own choice, whatever the observation keeps of it
                continue
            key = (q, obs.encode(t, q).tobytes())
            texts = tuple(e.seen_by(q) for e in events)
            if key in told:
                assert told[key][1] == texts, (
                    f"player_{q} sees the same after {g.action_to_string(s, told[key][0])!r} and "
                    f"{g.action_to_string(s, a)!r} but is told {told[key][1]} vs {texts}")
            else:
                told[key] = (a, texts)


@pytest.mark.parametrize("n,options", CONFIGS, ids=[f"{n}p-" + ("+".join(o for o, v in opts.items() if v) or "plain")
                                                   for n, opts in CONFIGS])
def test_fuzz_random_games_narrate_without_leaks(n, options):
    """Random games at every player count, with the options: narrated at every transition without raising,
    every decision told to every seat, no drawn or worn card named to another seat, no thumbs shown early.
    In the first game, at every node, every chance outcome and every legal move is also tried: where a
    seat other than the mover cannot tell two of them apart by its observation, its texts must not tell
    them apart either (hidden draws, worn cards, thumbs, the card picked to Lend, Drag Mother's type)."""
    for seed in range(2):
        log = _fuzz_game(n, options, seed=100 * n + seed, indistinguishable_every=1 - seed)
        for q in range(n):
            assert log.seen_by(q)[-1].startswith("game over")


# The narration of seeded random games, word for word ------------------------------------------

NARRATION = Path(__file__).with_name("narration.txt")  # python tests/drags_2_riches/test_narrate.py rewrites it
OPTION_SETS = [{}, {"intro_game": True}, {"last_minute_additions": True, "category_is": True},
               {"thrifting": True, "characters": True}, {o: True for o in OPTIONS}]
# (players, option set, lean): every player count, option and option set, and with them every kind of event
# a random game reaches (a first hand dealt short, a Shade taken on an empty hand and waiting reversed Shades
# dropped aside, which tests above tell word for word)
FIXTURE_GAMES = [(2, 0, False), (2, 4, True), (3, 1, False), (3, 2, True), (3, 3, False), (4, 3, True),
                 (5, 2, False), (5, 3, False), (5, 3, True), (5, 4, True)]


def thin_out(s, n: int) -> None:
    """A lean table, to reach empty hands, Wardrobes and Floordrobes, short draws and an empty Market pile:
    every seat's Wardrobe goes back to the box, and its hand but for 2 cards, and the Market draw pile but
    for 3 cards."""
    for q in range(n):
        for k in range(C.NUM_KINDS):
            while s.wardrobes[q][k]:
                s.wardrobes[q].take(k)
                s.box[k] += 1
        while sum(s.hands[q]) > 2:
            k = next(k for k in range(C.NUM_KINDS) if s.hands[q][k])
            s.hands[q][k] -= 1
            s.box[k] += 1
    while s.pile.n > 3:
        k = next(k for k in range(C.NUM_KINDS) if s.pile[k])
        s.pile.take(k)
        s.box[k] += 1


def narrate_game(fixture, n: int, options: int, lean: bool, actions: list[int] | None = None) -> list[str]:
    """One game's actions and every event told of it, the actions given or random ones from a seed; in
    half the games, the explanation of every choice outside the Playing and Werk Phases."""
    seed = 1000 * n + 10 * options + lean
    g = new_game(n, **OPTION_SETS[options])
    s = g.new_initial_state()
    log = Log(g, narrate)
    rng = np.random.default_rng(seed)
    lines = [f"# {n} players {json.dumps(OPTION_SETS[options], sort_keys=True)}{' lean' if lean else ''}"
             f" (seed {seed})"]
    todo = iter(actions) if actions is not None else None
    thin = lean
    while not g.is_terminal(s):
        if thin and s.phase == Phase.PLAY:  # once the first hands are dealt
            thin_out(s, n)
            thin = False
        if g.current_player(s) >= 0 and (n + options) % 2 == lean and s.phase not in (Phase.PLAY, Phase.WERK):
            lines += [f"? {b}: {narrate.explain(g, s, b)}" for b in g.legal_actions(s)]
        lines += fixture.move(g, s, log, rng, todo)
    return lines


def test_every_event_of_seeded_games_is_told_word_for_word(narration_fixture):
    """The recorded actions of lean and ordinary random games, at every player count and option, told
    again: every event, public and private, and the explanations, as recorded."""
    narration_fixture.retell(NARRATION, FIXTURE_GAMES, narrate_game)


# Explain and names -------------------------------------------------------------------------


def _random_states(n, options, seed, every=4):
    g = new_game(n, **options)
    s = g.new_initial_state()
    rng = np.random.default_rng(seed)
    i = 0
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
            continue
        if i % every == 0:
            yield g, s
        legal = g.legal_actions(s)
        g.apply_action(s, legal[int(rng.integers(len(legal)))])
        i += 1


@pytest.mark.parametrize("n,options", [(2, {}), (5, {o: True for o in OPTIONS})], ids=["2p-plain", "5p-all"])
def test_explain_gives_each_card_action_its_text_and_value(n, options):
    seen_segments = set()
    for g, s in _random_states(n, options, seed=n, every=1):
        for a in g.legal_actions(s):
            seg, index = A.ACTIONS.decode(a)
            why = narrate.explain(g, s, a)
            if seg in ("activate", "wear", "buy", "card"):
                kind = C.KINDS[index[0]]
                effect = kind.text.strip("()")  # "(no action)" is told as "no action"
                if seg != "wear" or effect != "no action":  # a worn card without an action gives up nothing
                    assert effect in why, (seg, kind.name, why)
                low = why.lower()
                assert f"value {kind.value}" in low or f"worth {kind.value}" in low or f"{kind.value} coin" in low
                seen_segments.add(seg)
            elif seg in ("ability", "character"):
                ch = s.characters[s.actor] if seg == "ability" else index[0]
                assert C.CHARACTERS[ch][2] in why
                seen_segments.add(seg)
            elif seg in ("thumbs", "react", "look_type", "winner") or (seg == "target" and s.ask != Ask.NONE):
                assert why, (seg, g.action_to_string(s, a))
                seen_segments.add(seg)
    assert {"activate", "wear", "buy", "thumbs"} <= seen_segments


def test_explain_of_a_reaction_and_a_target_says_the_consequence(table):
    g, s, _ = table.start(log=True, hands={0: ["Spill the Tea Hair"], 1: ["Clapback Hair", "Mirror Heels", "Gold"]})
    g.apply_action(s, A.ACTIVATE + K["Spill the Tea Hair"])
    assert narrate.explain(g, s, A.TARGET) == ("Shade player_1 (3 cards in hand) with Spill the Tea Hair: player_1 discards"
                                      " 1 card at random, unless they block it")
    g.apply_action(s, A.TARGET)
    assert narrate.explain(g, s, A.TAKE) == "Take it: you discard 1 card from your hand at random"
    assert "the Shade does nothing to you" in narrate.explain(g, s, A.BLOCK)
    assert narrate.explain(g, s, A.REVERSE).endswith("turned back: player_0 discards 1 card at random (their hand is empty"
                                            " now, so it waits for their next hand)")


def test_card_names_in_the_hand_appear_in_the_actions_that_play_them():
    """The terminal matches a typed card name as a substring of the action's name."""
    names = [k.name for k in C.KINDS]
    for x, y in itertools.permutations(names, 2):
        assert x not in y, f"{x!r} is inside {y!r}: typing it would be ambiguous"
    for g, s in _random_states(4, {"characters": True, "thrifting": True}, seed=3):
        p = s.actor
        shown = C.counts_to_string(s.hands[p])
        parts = shown.split(", ") if any(s.hands[p]) else []
        hand_names = [part.split("x ", 1)[1] if part[0].isdigit() else part for part in parts]
        assert sorted(hand_names) == sorted(C.KINDS[k].name for k in range(C.NUM_KINDS) if s.hands[p][k])
        assert f"your hand: {shown}" in Observer(g).string_from(s, p)
        for a in g.legal_actions(s):
            seg, index = A.ACTIONS.decode(a)
            if seg in ("activate", "wear", "buy", "card"):
                assert C.KINDS[index[0]].name in g.action_to_string(s, a)
        if s.phase == Phase.PLAY:
            for name in hand_names:
                assert any(name in g.action_to_string(s, a) for a in g.legal_actions(s) if A.ACTIVATE <= a < A.WEAR)


if __name__ == "__main__":  # record the narration anew (after a change to its words)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' shared helpers
    from conftest import NarrationFixture

    NARRATION.write_text("\n".join(line for game in FIXTURE_GAMES for line in narrate_game(NarrationFixture, *game))
                         + "\n")
