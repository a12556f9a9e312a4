"""Scenario tests for the rule IDs of d2r_envs/games/drags_2_riches/rulebook.py: components, set-up,
rounds, the Playing, Werk and Untucking Phases, the Event Phase, the special Events and the end.

Chance is explicit: `start` picks the first player and lays out a fixed Market (MARKET); every other
chance event takes its lowest outcome (`settle`). Tests then put the cards they need where they need
them (`deal`, `wear`): cards come from and go back to the Market draw pile (Wardrobe cards) or the
box (starters and coins), so every card stays accounted for.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from d2r_envs.core.zones import Deck
from d2r_envs.games.drags_2_riches import LAYOUT, Observer, invariants
from d2r_envs.games.drags_2_riches import actions as A
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.rules import recount
from d2r_envs.games.drags_2_riches.state import Phase, Task

GAME = "drags_2_riches"
K = C.KIND
DECK_I, DECK_II, DECK_III = C.DECK_REGULARS
EXTRAVAGANZA = next(e for e, ev in enumerate(C.EVENTS) if ev.name == "Extravaganza")
# The Market of every test: costs 2, 2, 2, 3, 4, 5, 5, 6.
MARKET = ["Basic Outfit", "Basic Hair", "Quick Change Hair", "Tuck Heels", "Luxe Makeup",
          "Hand-me-down Accessories", "Mirror Heels", "Couture Outfit"]


# Helpers ------------------------------------------------------------------------------------


class Counts(Deck):
    """Counts per card kind equal to any pile with the same counts, a bytearray or a Deck."""

    def __eq__(self, other):
        return self.counts == (other.counts if isinstance(other, Deck) else other)

    __hash__ = None


def counts(names):
    """The count per card kind of the named cards, comparable with any of the engine's piles."""
    out = bytearray(C.NUM_KINDS)
    for name in names:
        out[K[name]] += 1
    return Counts(out)


def _source(s, k):
    return s.pile.counts if C.KINDS[k].group == "wardrobe" else s.box


def fill(s, zone, names):
    """Empty the pile `zone` (counts, or a Deck; back to the draw pile / box), then put the named cards in it
    from there."""
    zone = zone.counts if isinstance(zone, Deck) else zone
    for k, c in enumerate(zone):
        zone[k] = 0
        _source(s, k)[k] += c
    for name in names:
        k = K[name]
        assert _source(s, k)[k] > 0, f"no {name} left"
        _source(s, k)[k] -= 1
        zone[k] += 1
    recount(s)


def deal(g, s, p, hand=None, wardrobe=None, floor=None):
    """Seat p's named zones become exactly those cards."""
    zones = [(z, names) for z, names in ((s.hands[p], hand), (s.wardrobes[p], wardrobe), (s.floors[p], floor))
             if names is not None]
    for zone, _ in zones:
        fill(s, zone, [])
    for zone, names in zones:
        fill(s, zone, names)
    assert invariants.violations(g, s) == []


def wear(g, s, p, names):
    """Seat p's Look becomes exactly the named cards (as if worn in an earlier round)."""
    for t, k in enumerate(s.looks[p]):
        if k >= 0:
            _source(s, k)[k] += 1
            s.looks[p][t] = -1
    for name in names:
        k = K[name]
        assert _source(s, k)[k] > 0, f"no {name} left"
        _source(s, k)[k] -= 1
        s.looks[p][C.TYPE_OF[k]] = k
    recount(s)
    assert invariants.violations(g, s) == []


def settle(g, s):
    """Resolve the due chance events (draws, Market refills) with their lowest outcome; stops at the
    first-player and Event-reveal chance nodes."""
    while s.chance:
        g.apply_action(s, g.chance_outcomes(s)[0][0])


def reveal(g, s):
    """Reveal the lowest Event left in the deck, if a reveal is due."""
    if s.phase == Phase.REVEAL and not s.chance:
        g.apply_action(s, g.chance_outcomes(s)[0][0])


def start(n=4, first=0, event=None, **options):
    """A game at the first turn of round 1: `first` holds the token, the Market is MARKET, the hands are
    the lowest kinds, the Event is `event` (default: the lowest of deck I)."""
    g = d2r_envs.make_game(GAME, n, **options)
    s = g.new_initial_state()
    g.apply_action(s, first)
    settle(g, s)
    fill(s, s.market, MARKET)
    reveal(g, s)
    settle(g, s)
    if event is not None:  # swap it with the revealed one
        s.decks[C.EVENTS[s.event].deck].append(s.event)
        s.decks[C.EVENTS[event].deck].remove(event)
        s.event = event
    assert s.phase == Phase.PLAY and s.turn == first and invariants.violations(g, s) == []
    return g, s


def end_turn(g, s):
    """The player whose turn it is ends it; the Untucking draws take the lowest kinds."""
    g.apply_action(s, A.END)
    settle(g, s)


def end_turns(g, s):
    """Every player still to play this round ends their turn at once."""
    r = s.round
    while s.phase in (Phase.PLAY, Phase.WERK) and s.round == r:
        end_turn(g, s)


def declare(g, s, choices):
    """Event Phase: each competitor, when asked, shows the thumbs of `choices` (seat -> action).
    Returns the seats in the order they were asked."""
    asked = []
    while s.phase == Phase.THUMBS:
        asked.append(s.actor)
        g.apply_action(s, choices[s.actor])
    return asked


def finish_round(g, s, thumbs=A.DOWN):
    """Everyone ends their turn at once and competitors show `thumbs`; stops when the next Event is due
    (at its reveal node, or revealed if it is a Spree or the Sell-Out) or at the end of the game."""
    r = s.round
    while g.current_player(s) != TERMINAL and s.round == r and not (s.phase == Phase.REVEAL and not s.chance):
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.chance_outcomes(s)[0][0])
        else:
            g.apply_action(s, thumbs if s.phase == Phase.THUMBS else A.END)
    assert invariants.violations(g, s) == []


def play_round(g, s, thumbs=A.DOWN):
    """Reveal the Event if due, play the round out (finish_round), reveal the next Event."""
    reveal(g, s)
    finish_round(g, s, thumbs)
    reveal(g, s)


def legal(g, s):
    return set(g.legal_actions(s))


def buys(g, s):
    return {C.KINDS[a - A.BUY].name for a in g.legal_actions(s) if A.BUY <= a < A.ABILITY}


def gained(before, after):
    """Cards per kind that each seat's zone gained."""
    return [bytearray(b - a for a, b in zip(x, y)) for x, y in zip(before, after)]


def assert_illegal(g, s, action):
    """The action raises IllegalActionError and leaves the state exactly as it was."""
    before, text = copy.deepcopy(s), g.state_to_string(s)
    with pytest.raises(IllegalActionError):
        g.apply_action(s, action)
    assert s == before and g.state_to_string(s) == text


# Components and set-up ---------------------------------------------------------------------


@pytest.mark.rules("D2R-COMP-1", "D2R-COMP-2")
def test_components():
    """75 Wardrobe, 25 Starters (value 1, 5 per type), 15 Coins (10 Silver 1, 5 Gold 2), 15 Events, 8 Characters."""
    by_group = Counter()
    for kind in C.KINDS:
        by_group[kind.group] += kind.copies
    assert by_group == {"wardrobe": 75, "starter": 25, "coin": 15}
    assert [(C.KINDS[k].type, C.KINDS[k].value, C.KINDS[k].copies) for k in C.STARTERS] == [(t, 1, 5) for t in range(5)]
    silver, gold = C.KINDS[K["Silver"]], C.KINDS[K["Gold"]]
    assert (silver.copies, silver.coins, gold.copies, gold.coins) == (10, 1, 5, 2)
    assert len(C.EVENTS) == 15 and len(C.CHARACTERS) == C.NUM_CHARACTERS == 8


@pytest.mark.rules("D2R-DATA-WARDROBE")
def test_wardrobe_template():
    """Each type: 15 cards, values 2x5 3x4 4x3 5x2 6x1, with coins, Draw, Return, Lend, 2 Shades, a Block, a Reverse."""
    for t in range(C.NUM_TYPES):
        kinds = [C.KINDS[k] for k in C.WARDROBE if C.TYPE_OF[k] == t]
        values = Counter()
        for kind in kinds:
            values[kind.value] += kind.copies
        assert values == {2: 5, 3: 4, 4: 3, 5: 2, 6: 1}
        ops = Counter(kind.op for kind in kinds)
        assert ops[C.Op.RETURN] == ops[C.Op.LEND] == 1 and ops[C.Op.DRAW] >= 1
        assert sorted(kind.op for kind in kinds if kind.shade) == [C.Op.PEEK_BORROW, C.Op.DISCARD]
        assert sum(kind.block for kind in kinds) == sum(kind.reverse for kind in kinds) == 1
        assert any(kind.coins for kind in kinds)


@pytest.mark.rules("D2R-DATA-EVENTS")
def test_event_cards():
    """12 contests, 4 per deck, prestige 3..11; Sprees at the bottom of I and II; the Sell-Out (12) ends III."""
    contests = [e for e in C.EVENTS if e.kind == C.EventKind.CONTEST]
    assert Counter(e.deck for e in contests) == {0: 4, 1: 4, 2: 4}
    assert min(e.prestige for e in contests) == 3 and max(e.prestige for e in contests) == 11
    assert [(C.EVENTS[e].kind, C.EVENTS[e].deck) for e in C.DECK_SPECIAL] == [
        (C.EventKind.SPREE, 0), (C.EventKind.SPREE, 1), (C.EventKind.SELL_OUT, 2)]
    assert C.EVENTS[C.SELL_OUT].prestige == 12


@pytest.mark.rules("D2R-SETUP-1")
@pytest.mark.parametrize("n", [2, 5])
def test_starting_decks_and_box(n):
    """8 cards each (a starter per type, 1 Gold, 2 Silver), dealt from shuffled; the unused ones stay in the box."""
    g = d2r_envs.make_game(GAME, n)
    s = g.new_initial_state()
    deck = counts(["Silver", "Silver", "Gold"] + [C.KINDS[k].name for k in C.STARTERS])
    assert s.wardrobes == [deck] * n and not any(map(any, s.hands))
    assert list(s.box) == [C.KINDS[k].copies - n * c if c else 0 for k, c in enumerate(deck)]
    g.apply_action(s, 0)
    settle(g, s)
    reveal(g, s)
    assert g.chance_outcomes(s) == [(k, c / 8) for k, c in enumerate(deck) if c]


@pytest.mark.rules("D2R-SETUP-2")
def test_market_laid_out_from_shuffled_pile():
    g = d2r_envs.make_game(GAME, 3)
    s = g.new_initial_state()
    g.apply_action(s, 0)
    assert s.chance == [(Task.MARKET, -1)] * 8
    assert g.chance_outcomes(s) == [(k, C.KINDS[k].copies / 75) for k in C.WARDROBE]
    settle(g, s)
    assert sum(s.market) == 8 and sum(s.pile) == 67
    assert s.phase == Phase.REVEAL and g.current_player(s) == CHANCE


@pytest.mark.rules("D2R-SETUP-3", "D2R-ROUND-1", "D2R-END-1")
def test_event_order_full_game():
    """Deck I (shuffled), its Spree, deck II, its Spree, deck III, the Sell-Out Tour: 15 rounds, then the end."""
    g = d2r_envs.make_game(GAME, 3)
    s = g.new_initial_state()
    g.apply_action(s, 0)
    settle(g, s)
    events = []
    while g.current_player(s) != TERMINAL:
        if s.phase == Phase.REVEAL and not s.chance:  # each round starts with a new Event, drawn at random
            deck = sorted(s.decks[s.stages[s.stage]])
            assert g.chance_outcomes(s) == [(e, 1 / len(deck)) for e in deck]
            g.apply_action(s, deck[-1])
        events.append(s.event)
        assert s.round == len(events)
        finish_round(g, s)
    assert len(events) == 15
    assert set(events[0:4]) == set(DECK_I) and events[4] == C.SPREE_I
    assert set(events[5:9]) == set(DECK_II) and events[9] == C.SPREE_II
    assert set(events[10:14]) == set(DECK_III) and events[14] == C.SELL_OUT


@pytest.mark.rules("D2R-SETUP-4", "D2R-DECIDE-INTRO", "D2R-END-1")
def test_intro_game_is_decks_one_and_two_ending_with_the_sell_out():
    g, s = start(3, intro_game=True)
    events = [s.event]
    while True:
        play_round(g, s)
        if g.current_player(s) == TERMINAL:
            break
        events.append(s.event)
    assert s.round == 10 and len(events) == 10
    assert set(events[0:4]) == set(DECK_I) and events[4] == C.SPREE_I
    assert set(events[5:9]) == set(DECK_II) and events[9] == C.SELL_OUT
    assert s.decks[2] == list(DECK_III)  # deck III is never used
    assert g.legal_actions(s) == []


@pytest.mark.rules("D2R-SETUP-5")
@pytest.mark.parametrize("n, first", [(2, 1), (5, 3)])
def test_first_player_is_random(n, first):
    g = d2r_envs.make_game(GAME, n)
    s = g.new_initial_state()
    assert g.current_player(s) == CHANCE
    assert g.chance_outcomes(s) == [(p, 1 / n) for p in range(n)]
    g, s = start(n, first=first)
    assert s.first == first and s.turn == s.actor == first


# Rounds -------------------------------------------------------------------------------------


@pytest.mark.rules("D2R-ROUND-1", "D2R-ROUND-2")
def test_event_revealed_then_first_hands_dealt():
    g = d2r_envs.make_game(GAME, 4)
    s = g.new_initial_state()
    g.apply_action(s, 2)
    settle(g, s)
    assert s.event == -1 and s.phase == Phase.REVEAL
    g.apply_action(s, DECK_I[1])
    assert s.event == DECK_I[1] and s.round == 1
    assert [seat for _, seat in s.chance] == [2] * 5 + [3] * 5 + [0] * 5 + [1] * 5  # from the first player
    settle(g, s)
    assert [sum(h) for h in s.hands] == [5] * 4 and [sum(w) for w in s.wardrobes] == [3] * 4
    assert s.phase == Phase.PLAY and s.turn == 2


@pytest.mark.rules("D2R-ROUND-3")
def test_turns_in_seat_order_from_the_first_player():
    """Each turn: Playing, Werk once a card is bought, Untucking (5 draws); then the next seat to the left."""
    g, s = start(4, first=2)
    deal(g, s, 2, hand=["Gold", "Silver", "Starter Hair", "Starter Outfit", "Starter Heels"])
    assert s.phase == Phase.PLAY
    g.apply_action(s, A.ACTIVATE + K["Gold"])
    g.apply_action(s, A.BUY + K["Basic Hair"])
    settle(g, s)
    assert (s.phase, s.turn) == (Phase.WERK, 2)
    g.apply_action(s, A.END)
    assert s.phase == Phase.UNTUCK and s.chance == [(Task.DRAW, 2)] * 5
    settle(g, s)
    turns = []
    while s.phase in (Phase.PLAY, Phase.WERK):
        turns.append(s.turn)
        end_turn(g, s)
    assert turns == [3, 0, 1]
    assert s.phase == Phase.REVEAL and s.round == 1  # nobody wore a Look: the round is over


@pytest.mark.rules("D2R-ROUND-4")
def test_first_player_token_passes_left():
    g, s = start(4, first=2)
    firsts = [s.first]
    for _ in range(5):
        play_round(g, s)
        firsts.append(s.first)
        assert s.turn == s.first  # the new first player plays first
    assert firsts == [2, 3, 0, 1, 2, 3]


# Playing Phase ------------------------------------------------------------------------------


@pytest.mark.rules("D2R-PLAY-1", "D2R-PLAY-2")
def test_play_options_and_coins_cannot_be_worn():
    """Exactly: end, activate any card, wear any Look card; a card played one way can't be played again."""
    g, s = start(4)
    names = ["Gold", "Silver", "Starter Hair", "Basic Makeup", "Tuck Heels"]
    deal(g, s, 0, hand=names)
    kinds = [K[x] for x in names]
    assert legal(g, s) == {A.END} | {A.ACTIVATE + k for k in kinds} | {A.WEAR + k for k in kinds[2:]}
    assert_illegal(g, s, A.WEAR + K["Gold"])
    assert_illegal(g, s, A.WEAR + K["Silver"])
    g.apply_action(s, A.WEAR + K["Basic Makeup"])
    g.apply_action(s, A.ACTIVATE + K["Starter Hair"])
    played = {A.ACTIVATE + K["Basic Makeup"], A.WEAR + K["Basic Makeup"],
              A.ACTIVATE + K["Starter Hair"], A.WEAR + K["Starter Hair"]}
    assert not legal(g, s) & played
    assert_illegal(g, s, A.WEAR + K["Starter Hair"])


@pytest.mark.rules("D2R-PLAY-3", "D2R-PLAY-4")
def test_look_holds_one_card_per_type_and_replaced_card_goes_to_floordrobe():
    g, s = start(4)
    names = ["Starter Hair", "Basic Hair", "Tuck Outfit", "Starter Heels", "Basic Makeup"]
    deal(g, s, 0, hand=names, floor=[])
    for name in names:
        g.apply_action(s, A.WEAR + K[name])
    assert s.looks[0] == [K["Tuck Outfit"], K["Basic Hair"], K["Starter Heels"], K["Basic Makeup"], -1]
    assert s.floors[0] == counts(["Starter Hair"])  # replaced by Basic Hair
    assert not any(s.hands[0]) and invariants.violations(g, s) == []


@pytest.mark.rules("D2R-PLAY-5")
def test_activated_card_action_performed_in_full():
    """Tuck: +1 coin and Draw 1, both at once (the draw is due before anything else)."""
    g, s = start(4)
    deal(g, s, 0, hand=["Tuck Hair", "Starter Outfit"], wardrobe=["Gold"])
    g.apply_action(s, A.ACTIVATE + K["Tuck Hair"])
    assert s.coins == 1 and s.chance == [(Task.DRAW, 0)]
    assert g.current_player(s) == CHANCE and g.chance_outcomes(s) == [(K["Gold"], 1.0)]
    settle(g, s)
    assert s.hands[0] == counts(["Starter Outfit", "Gold"]) and s.active[0] == counts(["Tuck Hair"])


@pytest.mark.rules("D2R-PLAY-6", "D2R-WERK-1")
def test_only_activated_cards_give_coins():
    """Coins = coin symbols of the activated cards: Gold 2 + Silver 1 + Basic 1 + Starter 0; a worn Luxe gives 0."""
    g, s = start(4)
    deal(g, s, 0, hand=["Gold", "Silver", "Basic Hair", "Starter Outfit", "Luxe Hair"])
    g.apply_action(s, A.WEAR + K["Luxe Hair"])
    assert s.coins == 0 and buys(g, s) == set()
    for name in ["Gold", "Silver", "Basic Hair", "Starter Outfit"]:
        g.apply_action(s, A.ACTIVATE + K[name])
    assert s.coins == 4


# Werk Phase ---------------------------------------------------------------------------------


def werk(*coin_cards):
    """Seat 0 (first) has activated `coin_cards` and still holds a Basic Heels."""
    g, s = start(4)
    deal(g, s, 0, hand=list(coin_cards) + ["Basic Heels"])
    for name in coin_cards:
        g.apply_action(s, A.ACTIVATE + K[name])
    return g, s


@pytest.mark.rules("D2R-WERK-2")
def test_buy_any_number_of_affordable_cards():
    g, s = werk("Gold", "Silver", "Silver")
    assert s.coins == 4
    assert buys(g, s) == {"Basic Outfit", "Basic Hair", "Quick Change Hair", "Tuck Heels", "Luxe Makeup"}
    g.apply_action(s, A.BUY + K["Basic Outfit"])
    settle(g, s)
    assert s.coins == 2 and {"Basic Hair", "Quick Change Hair"} <= buys(g, s)
    g.apply_action(s, A.BUY + K["Basic Hair"])
    settle(g, s)
    assert s.coins == 0 and legal(g, s) == {A.END}
    assert_illegal(g, s, A.BUY + K["Quick Change Hair"])
    assert s.floors[0][K["Basic Outfit"]] == s.floors[0][K["Basic Hair"]] == 1


@pytest.mark.rules("D2R-WERK-3")
def test_market_space_refilled_from_pile_at_once():
    g, s = werk("Gold", "Luxe Outfit", "Luxe Hair")
    pile = s.pile[:]
    g.apply_action(s, A.BUY + K["Couture Outfit"])
    assert s.chance == [(Task.MARKET, -1)] and g.current_player(s) == CHANCE
    assert g.chance_outcomes(s) == [(k, c / sum(pile)) for k, c in enumerate(pile) if c]
    g.apply_action(s, K["Mirror Hair"])
    assert s.market == counts(MARKET[:-1] + ["Mirror Hair"])
    assert list(s.pile) == [c - (k == K["Mirror Hair"]) for k, c in enumerate(pile)]
    assert g.current_player(s) == 0


@pytest.mark.rules("D2R-WERK-3")
def test_empty_pile_leaves_the_market_space_empty():
    g, s = werk("Gold", "Silver", "Silver")
    for k, c in enumerate(s.pile):  # (set the draw pile aside)
        s.box[k] += c
        s.pile.counts[k] = 0
    recount(s)
    g.apply_action(s, A.BUY + K["Luxe Makeup"])
    assert not s.chance and g.current_player(s) == 0
    assert s.market == counts(MARKET[:4] + MARKET[5:])


@pytest.mark.rules("D2R-WERK-4")
def test_purchases_go_to_floordrobe_not_hand():
    g, s = werk("Gold", "Silver", "Silver")
    hand, floor = s.hands[0][:], s.floors[0][:]
    g.apply_action(s, A.BUY + K["Luxe Makeup"])
    settle(g, s)
    assert s.hands[0] == hand and gained([floor], [s.floors[0]]) == [counts(["Luxe Makeup"])]
    assert not legal(g, s) & {A.ACTIVATE + K["Luxe Makeup"], A.WEAR + K["Luxe Makeup"]}


@pytest.mark.rules("D2R-WERK-5")
def test_buying_ends_playing():
    g, s = werk("Gold", "Silver", "Silver")
    assert {A.ACTIVATE + K["Basic Heels"], A.WEAR + K["Basic Heels"]} <= legal(g, s)
    g.apply_action(s, A.BUY + K["Basic Hair"])
    settle(g, s)
    assert s.phase == Phase.WERK
    assert s.market[K["Basic Outfit"]] == 2  # the space was refilled (the lowest kind in the pile)
    assert legal(g, s) == {A.END} | {A.BUY + K[x] for x in ["Basic Outfit", "Quick Change Hair"]}
    assert_illegal(g, s, A.ACTIVATE + K["Basic Heels"])
    assert_illegal(g, s, A.WEAR + K["Basic Heels"])


# Untucking ----------------------------------------------------------------------------------


@pytest.mark.rules("D2R-UNTUCK-1", "D2R-UNTUCK-2", "D2R-UNTUCK-4", "D2R-PLAY-1")
def test_untuck_discards_played_and_unplayed_cards_and_draws_five():
    g, s = start(4)
    deal(g, s, 0, hand=["Gold", "Silver", "Basic Hair", "Tuck Makeup", "Starter Heels"],
         wardrobe=["Starter Outfit", "Starter Hair", "Starter Makeup", "Starter Accessories", "Silver", "Basic Outfit"],
         floor=[])
    g.apply_action(s, A.ACTIVATE + K["Gold"])
    g.apply_action(s, A.WEAR + K["Tuck Makeup"])
    g.apply_action(s, A.END)
    assert s.floors[0] == counts(["Gold", "Silver", "Basic Hair", "Starter Heels"])
    assert not any(s.active[0]) and not any(s.hands[0]) and s.chance == [(Task.DRAW, 0)] * 5
    settle(g, s)
    assert sum(s.hands[0]) == 5 and sum(s.wardrobes[0]) == 1
    assert s.looks[0] == [-1, -1, -1, K["Tuck Makeup"], -1]  # the Look stays
    assert s.turn == 1


@pytest.mark.rules("D2R-WERK-1", "D2R-UNTUCK-1")
def test_coins_left_unspent_are_gone_when_the_turn_ends():
    """Coins are the turn's: those not spent are gone at Untucking, and none are left once the last turn
    of the round ends."""
    g, s = start(2)
    deal(g, s, 0, hand=["Gold", "Silver"])
    g.apply_action(s, A.ACTIVATE + K["Gold"])
    assert s.coins == 2
    g.apply_action(s, A.END)
    assert (s.phase, s.coins) == (Phase.UNTUCK, 0)
    settle(g, s)
    assert s.turn == 1
    deal(g, s, 1, hand=["Silver"])
    g.apply_action(s, A.ACTIVATE + K["Silver"])
    g.apply_action(s, A.END)
    settle(g, s)
    assert s.turn == -1 and s.coins == 0  # past the round's turns


@pytest.mark.rules("D2R-UNTUCK-2", "D2R-UNTUCK-3")
def test_dry_clean_only_once_the_wardrobe_is_empty():
    """2 cards in the Wardrobe: draw both (Floordrobe untouched), then Dry Clean and draw 3 more."""
    g, s = start(4)
    deal(g, s, 0, hand=["Silver", "Starter Outfit"], wardrobe=["Gold", "Silver"],
         floor=["Starter Hair", "Starter Heels", "Starter Makeup", "Starter Accessories"])
    g.apply_action(s, A.ACTIVATE + K["Silver"])
    g.apply_action(s, A.END)
    floor = counts(["Starter Hair", "Starter Heels", "Starter Makeup", "Starter Accessories", "Silver",
                    "Starter Outfit"])
    assert s.floors[0] == floor and g.chance_outcomes(s) == [(K["Silver"], 0.5), (K["Gold"], 0.5)]
    g.apply_action(s, K["Silver"])
    assert s.floors[0] == floor and g.chance_outcomes(s) == [(K["Gold"], 1.0)]
    g.apply_action(s, K["Gold"])
    assert s.wardrobes[0] == floor and not any(s.floors[0])  # Dry Cleaned: the Floordrobe is the Wardrobe
    assert s.chance == [(Task.DRAW, 0)] * 3
    settle(g, s)
    assert sum(s.hands[0]) == 5 and sum(s.wardrobes[0]) == 3 and not any(s.floors[0])


@pytest.mark.rules("D2R-UNTUCK-3")
def test_no_dry_clean_when_the_wardrobe_has_enough():
    g, s = start(4)
    deal(g, s, 0, hand=["Silver"], wardrobe=["Gold", "Silver", "Starter Hair", "Starter Heels", "Starter Makeup"],
         floor=["Starter Outfit", "Starter Accessories"])
    end_turn(g, s)
    assert s.hands[0] == counts(["Gold", "Silver", "Starter Hair", "Starter Heels", "Starter Makeup"])
    assert not any(s.wardrobes[0]) and s.floors[0] == counts(["Starter Outfit", "Starter Accessories", "Silver"])


@pytest.mark.rules("D2R-GLOSS-DRAW")
def test_draw_takes_from_the_wardrobe_dry_cleaning_if_empty():
    g, s = start(4)
    deal(g, s, 0, hand=["Tuck Hair", "Tuck Heels"], wardrobe=["Gold"], floor=["Starter Makeup", "Silver"])
    g.apply_action(s, A.ACTIVATE + K["Tuck Hair"])
    assert g.chance_outcomes(s) == [(K["Gold"], 1.0)]
    settle(g, s)
    assert s.hands[0] == counts(["Tuck Heels", "Gold"]) and s.floors[0] == counts(["Starter Makeup", "Silver"])
    g.apply_action(s, A.ACTIVATE + K["Tuck Heels"])  # the Wardrobe is empty: Dry Clean first
    assert s.wardrobes[0] == counts(["Starter Makeup", "Silver"]) and not any(s.floors[0])
    assert g.chance_outcomes(s) == [(K["Silver"], 0.5), (K["Starter Makeup"], 0.5)]
    g.apply_action(s, K["Starter Makeup"])
    assert s.hands[0] == counts(["Gold", "Starter Makeup"]) and s.wardrobes[0] == counts(["Silver"])


# Event Phase --------------------------------------------------------------------------------


@pytest.mark.rules("D2R-EVENT-1")
def test_only_players_with_a_look_declare():
    g, s = start(4, first=2)
    wear(g, s, 1, ["Basic Hair"])
    wear(g, s, 3, ["Starter Outfit"])
    end_turns(g, s)
    assert s.phase == Phase.THUMBS and legal(g, s) == {A.DOWN, A.UP}
    assert declare(g, s, {1: A.UP, 3: A.UP}) == [3, 1]  # in seat order from the first player
    assert s.thumbs == [-1, 1, -1, 1] and s.last_values == [-1, 2, -1, 1]
    assert s.won == [[], [DECK_I[0]], [], []]


@pytest.mark.rules("D2R-EVENT-2")
def test_thumbs_hidden_until_everyone_has_chosen():
    g, s = start(4, first=0)
    wear(g, s, 1, ["Basic Hair"])
    wear(g, s, 3, ["Luxe Hair"])
    end_turns(g, s)
    obs = Observer(g)
    up, down = copy.deepcopy(s), copy.deepcopy(s)
    g.apply_action(up, A.UP)
    g.apply_action(down, A.DOWN)
    assert up.actor == down.actor == 3
    assert (obs.encode(up, 3) == obs.encode(down, 3)).all()  # seat 3 can't tell
    assert (obs.encode(up, 1) != obs.encode(down, 1)).any()  # seat 1 knows its own choice
    g.apply_action(up, A.UP)  # everyone has chosen: who competed, and with what, is shown
    seen = LAYOUT.views(obs.encode(up, 3))["revealed"]  # 1 + the Look value revealed
    assert seen[(1 - 3) % 4] == 1 + 2 and seen[0] == 1 + 4 and seen[(0 - 3) % 4] == seen[(2 - 3) % 4] == 0


@pytest.mark.rules("D2R-EVENT-3")
def test_highest_look_value_wins():
    g, s = start(4, first=0)
    wear(g, s, 0, ["Tuck Outfit", "Starter Hair"])  # 3 + 1
    wear(g, s, 1, ["Couture Heels", "Basic Makeup"])  # 6 + 2
    wear(g, s, 2, ["Luxe Accessories", "Tuck Hair"])  # 4 + 3
    end_turns(g, s)
    declare(g, s, {0: A.UP, 1: A.UP, 2: A.UP})
    assert s.last_values == [4, 8, 7, -1]
    assert s.won == [[], [DECK_I[0]], [], []]
    assert g.prestige(s, 1) == C.EVENTS[DECK_I[0]].prestige


@pytest.mark.rules("D2R-EVENT-8", "D2R-EVENT-3", "D2R-EVENT-5")
def test_worked_example_eight_beats_five():
    """Rival: Hair 1 + Makeup 2 + Accessories 2 = 5; you: Makeup 3 + Outfit 3 + Hair 2 = 8. You win
    Extravaganza (10) and both Looks go to the Floordrobes. The Looks are worn with Wear actions."""
    g, s = start(2, first=0, event=EXTRAVAGANZA)
    rival = ["Starter Hair", "Basic Makeup", "Basic Accessories"]
    mine = ["Tuck Makeup", "Tuck Outfit", "Basic Hair"]
    deal(g, s, 0, hand=rival + ["Silver", "Gold"])
    deal(g, s, 1, hand=mine + ["Silver", "Starter Heels"])
    for p, look in enumerate([rival, mine]):
        assert s.turn == p
        for name in look:
            g.apply_action(s, A.WEAR + K[name])
        end_turn(g, s)
    assert [g.look_value(s, p) for p in (0, 1)] == [5, 8]
    floors = copy.deepcopy(s.floors)
    declare(g, s, {0: A.UP, 1: A.UP})
    assert s.last_values == [5, 8]
    assert s.won == [[], [EXTRAVAGANZA]] and g.prestige(s, 1) == 10 and g.prestige(s, 0) == 0
    assert s.looks == [[-1] * 5, [-1] * 5]
    assert gained(floors, s.floors) == [counts(rival), counts(mine)]


@pytest.mark.rules("D2R-EVENT-4", "D2R-DECIDE-TIE")
@pytest.mark.parametrize("first, winner", [(0, 1), (1, 1), (2, 3), (3, 3)])
def test_tie_goes_to_the_tied_player_nearest_the_first_player(first, winner):
    g, s = start(4, first=first)
    wear(g, s, 1, ["Luxe Hair"])  # 4
    wear(g, s, 2, ["Tuck Makeup"])  # 3
    wear(g, s, 3, ["Basic Outfit", "Basic Heels"])  # 4
    end_turns(g, s)
    declare(g, s, {1: A.UP, 2: A.UP, 3: A.UP})
    assert s.last_values == [-1, 4, 3, 4]
    assert s.won == [[DECK_I[0]] if p == winner else [] for p in range(4)]


@pytest.mark.rules("D2R-EVENT-5", "D2R-EVENT-6", "D2R-UNTUCK-4")
def test_revealed_looks_discarded_hidden_looks_kept():
    g, s = start(4, first=0)
    wear(g, s, 0, ["Basic Hair"])  # loses
    wear(g, s, 1, ["Couture Hair", "Starter Heels"])  # wins
    wear(g, s, 2, ["Couture Accessories", "Couture Makeup"])  # the best Look, kept back
    end_turns(g, s)
    floors = copy.deepcopy(s.floors)
    declare(g, s, {0: A.UP, 1: A.UP, 2: A.DOWN})
    assert s.last_values == [2, 7, -1, -1] and s.won == [[], [DECK_I[0]], [], []]
    assert s.looks[0] == s.looks[1] == [-1] * 5
    assert gained(floors, s.floors) == [counts(["Basic Hair"]), counts(["Couture Hair", "Starter Heels"]),
                                        counts([]), counts([])]
    kept = [-1, -1, -1, K["Couture Makeup"], K["Couture Accessories"]]
    assert s.looks[2] == kept
    play_round(g, s)  # still worn a round later
    assert s.looks[2] == kept


@pytest.mark.rules("D2R-EVENT-7", "D2R-GLOSS-TRASH")
def test_event_nobody_competes_for_is_trashed():
    g, s = start(4, first=0)
    event = s.event
    wear(g, s, 1, ["Basic Hair"])
    end_turns(g, s)
    declare(g, s, {1: A.DOWN})
    assert s.gone == [event] and not any(s.won)
    assert event not in [e for d in s.decks for e in d]
    assert g.chance_outcomes(s) == [(e, 1 / 3) for e in DECK_I if e != event]  # never revealed again
    assert s.looks[1] == [-1, K["Basic Hair"], -1, -1, -1]
    # with nobody wearing a Look there is no Event Phase: the Event is trashed at once
    reveal(g, s)
    nxt = s.event
    wear(g, s, 1, [])
    end_turns(g, s)
    assert s.phase == Phase.REVEAL and s.gone == [event, nxt] and not any(s.won)


# Special Events and the end ------------------------------------------------------------------


@pytest.mark.rules("D2R-SPREE-1")
def test_shopping_spree():
    """Round 5 (bottom of deck I): each turn starts with 2 extra draws; no Event Phase even with Looks;
    the Spree is discarded, not won; the token passes; then deck II."""
    g, s = start(4, first=0)
    for _ in range(4):
        play_round(g, s)
    assert s.event == C.SPREE_I and s.round == 5 and s.first == 0
    looks = [["Basic Outfit"], ["Basic Hair"], ["Luxe Outfit"], ["Luxe Hair"]]
    for p, look in enumerate(looks):
        wear(g, s, p, look)
    sizes = []
    while s.phase != Phase.REVEAL:
        assert s.chance == [(Task.DRAW, s.turn)] * 2 and sum(s.hands[s.turn]) == 5
        settle(g, s)
        sizes.append((s.turn, sum(s.hands[s.turn])))
        g.apply_action(s, A.END)
        while s.phase == Phase.UNTUCK:  # the Untucking draws only
            g.apply_action(s, g.chance_outcomes(s)[0][0])
        assert s.phase != Phase.THUMBS
    assert sizes == [(0, 7), (1, 7), (2, 7), (3, 7)]
    assert s.gone == [*DECK_I, C.SPREE_I] and not any(s.won)
    assert [[K[x] for x in look] for look in looks] == [[k for k in lk if k >= 0] for lk in s.looks]
    assert s.first == 1 and g.chance_outcomes(s) == [(e, 0.25) for e in DECK_II]


def sell_out(n=4):
    """An intro game at its last round, the Sell-Out Tour (round 10)."""
    g, s = start(n, first=0, intro_game=True)
    for _ in range(9):
        play_round(g, s)
    assert s.event == C.SELL_OUT and s.round == 10 and s.first == 9 % n
    return g, s


@pytest.mark.rules("D2R-SELLOUT-1", "D2R-DECIDE-SELLOUT")
def test_sell_out_purchases_go_to_the_hand_and_can_be_played():
    g, s = sell_out()
    p = s.turn
    deal(g, s, p, hand=["Gold", "Luxe Outfit", "Silver"])
    floor = s.floors[p][:]
    g.apply_action(s, A.ACTIVATE + K["Gold"])
    g.apply_action(s, A.ACTIVATE + K["Luxe Outfit"])
    g.apply_action(s, A.BUY + K["Basic Hair"])
    settle(g, s)
    assert s.hands[p] == counts(["Silver", "Basic Hair"]) and s.floors[p] == floor
    assert s.phase == Phase.PLAY and s.coins == 2
    assert {A.ACTIVATE + K["Basic Hair"], A.WEAR + K["Basic Hair"], A.ACTIVATE + K["Silver"]} <= legal(g, s)
    g.apply_action(s, A.ACTIVATE + K["Basic Hair"])  # its coin can be spent at once
    g.apply_action(s, A.BUY + K["Tuck Heels"])
    settle(g, s)
    g.apply_action(s, A.WEAR + K["Tuck Heels"])
    assert s.coins == 0 and s.looks[p] == [-1, -1, K["Tuck Heels"], -1, -1]


@pytest.mark.rules("D2R-END-1", "D2R-SELLOUT-1")
def test_game_ends_when_the_sell_out_is_resolved():
    g, s = sell_out()
    wear(g, s, 2, ["Starter Makeup"])
    end_turns(g, s)
    declare(g, s, {2: A.UP})
    assert s.won[2] == [C.SELL_OUT] and g.prestige(s, 2) == 12
    assert g.current_player(s) == TERMINAL and g.legal_actions(s) == []
    assert s.winners == [2] and g.returns(s) == [-1.0, -1.0, 1.0, -1.0]
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.END)


@pytest.mark.rules("D2R-END-2")
@pytest.mark.parametrize(
    "won, winners",
    [
        ({0: [3], 1: [2]}, [1]),  # 3 < 4 prestige
        ({0: [3, 1], 1: [7]}, [0]),  # 3 + 4 = 7: two Event cards beat one
        ({0: [1], 2: [2], 3: [3]}, [0, 2]),  # 4 = 4 with one card each: joint winners
        ({}, [0, 1, 2, 3]),  # nobody won anything
    ],
)
def test_victory_prestige_then_event_count_then_joint_winners(won, winners):
    """Event ids: 1 = Drag Ball 4, 2 = Pageant 4, 3 = Event I-d 3, 7 = Event II-d 7; nobody competes later."""
    g, s = start(4, first=0, intro_game=True)
    assert s.event == 0
    for p, events in won.items():
        for e in events:
            s.decks[C.EVENTS[e].deck].remove(e)
            s.won[p].append(e)
    recount(s)
    while g.current_player(s) != TERMINAL:
        play_round(g, s)
    assert s.winners == winners
    assert g.returns(s) == [1.0 if p in winners else -1.0 for p in range(4)]


@pytest.mark.rules("D2R-GLOSS-FLOOR")
def test_floordrobes_are_seen_by_everyone():
    g, s = start(4, first=0)
    deal(g, s, 0, hand=["Couture Hair", "Silver", "Gold"], wardrobe=[C.KINDS[k].name for k in C.STARTERS])
    end_turn(g, s)
    assert s.floors[0] == counts(["Couture Hair", "Silver", "Gold"])
    obs = Observer(g)
    for me in range(4):
        assert LAYOUT.views(obs.encode(s, me))["floors"][(0 - me) % 4].tolist() == list(s.floors[0])
        assert "Couture Hair" in obs.string_from(s, me)
