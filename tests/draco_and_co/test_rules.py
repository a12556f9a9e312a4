"""Scenario tests, one or more per rule ID of d2r_envs/games/draco_and_co/rulebook.py.

Chance is explicit, so each test picks the first player, the circle, the draws and the dice.
Character ids in a 4-player game: green 0, 1 (seat 0), purple 2, 3 (seat 1), yellow 4, 5 (seat 2),
red 6, 7 (seat 3), Aunt Sarah 12, Brother John 13, Zork 14. Index 0 of `order` is first place.
"""

from __future__ import annotations

import copy

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from d2r_envs.core.zones import Deck
from d2r_envs.games.draco_and_co import LAYOUT, Observer, invariants
from d2r_envs.games.draco_and_co import actions as A
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co.rules import MAX_GAME_LENGTH
from d2r_envs.games.draco_and_co.state import Ask, Phase

GAME = "draco_and_co"
SARAH, JOHN, ZORK = C.AUNT_SARAH, C.BROTHER_JOHN, C.ZORK
TOTAL = C.SILVER_COINS + 3 * C.GOLD_COINS  # all the money, in silver
BASE4 = [0, 1, 2, 3, 4, 5, 6, 7, SARAH, JOHN, ZORK]  # the default 4-player circle
K = C.KIND


# Helpers ------------------------------------------------------------------------------------


def lowest(s) -> int:
    """The lowest card kind left in the draw pile (a fixed choice for chance draws)."""
    return min(k for k, c in enumerate(s.draw_pile) if c)


def start(n=4, first=0, order=None, hands=None, **options):
    """A game after set-up: first player `first`, circle `order` (default: ids in order),
    hands: {seat: [card names]}; seats not named get the lowest kinds left."""
    g = d2r_envs.make_game(GAME, n, **options)
    s = g.new_initial_state()
    g.apply_action(s, first)
    for c in order or sorted(g.characters):
        if s.phase != Phase.CIRCLE:
            break
        g.apply_action(s, c)
    while s.phase == Phase.DEAL:
        g.apply_action(s, lowest(s))
    if hands is not None:
        for p in range(n):  # everything back into the draw pile
            for k, c in enumerate(s.hands[p]):
                s.draw_pile.add(k, c)
                s.hands[p][k] = 0
        wanted = {p: [K[x] for x in names] for p, names in hands.items()}
        for p in range(n):  # the named hands first, from the draw pile
            for k in wanted.get(p, []):
                assert s.draw_pile[k] > 0, C.CATALOGUE[k].name
                s.draw_pile.take(k)
                s.hands[p][k] += 1
        for p in range(n):  # then 5 cards for each seat not named
            if p not in wanted:
                for _ in range(C.HAND_SIZE):
                    k = lowest(s)
                    s.draw_pile.take(k)
                    s.hands[p][k] += 1
    return g, s


def set_money(s, money):
    s.money = list(money)
    s.bank = TOTAL - sum(money)


def ready_to_toast(s, seat=0, order=None, money=None):
    """Seat `seat` is at its toast decision with the cup in the centre."""
    if order is not None:
        s.order = list(order)
    if money is not None:
        set_money(s, money)
    s.turn, s.phase, s.cup, s.cup_initial, s.draws = seat, Phase.TOAST, -1, False, []


def toast(g, s, seat=0, order=None, money=None):
    ready_to_toast(s, seat, order, money)
    g.apply_action(s, A.TOAST)
    assert invariants.violations(g, s) == []  # cards and money are conserved


def again(s):
    """Skip the pending draws: the same seat plays another card now."""
    s.draws, s.phase = [], Phase.PLAY


def play(g, s, name):
    g.apply_action(s, A.PLAY + K[name])


def pick(g, s, c):
    """Choose character c (absolute id) as the player whose turn it is."""
    g.apply_action(s, A.CHARACTER + A.relative_character(c, s.turn, g.n))


def legal_characters(g, s):
    return sorted(A.absolute_character(a - A.CHARACTER, s.turn, g.n) for a in g.legal_actions(s))


def finish_turn(g, s):
    """Decline the toast if offered, then draw the lowest kinds until the next turn starts."""
    if s.phase == Phase.TOAST:
        g.apply_action(s, A.DECLINE)
    while g.current_player(s) == CHANCE and s.draws:
        g.apply_action(s, lowest(s))
    assert invariants.violations(g, s) == []


def lowest_in_hand(s, p):
    return min(k for k, c in enumerate(s.hands[p]) if c)


def resolve_card(g, s):
    """Answer the card's questions with the first legal choice and the first chance outcome."""
    while s.phase == Phase.CARD or (s.draws and s.phase != Phase.DRAW):
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.chance_outcomes(s)[0][0])
        else:
            g.apply_action(s, g.legal_actions(s)[0])


def hand_size(s, p):
    return sum(s.hands[p])


def pile_to_discard(s, keep):
    """Move the whole draw pile to the discard pile but for the kinds named in `keep`."""
    stays = [keep.count(C.CATALOGUE[k].name) for k in range(C.NUM_KINDS)]
    for k in range(C.NUM_KINDS):
        s.discard[k] += s.draw_pile[k] - stays[k]
    s.draw_pile = Deck(stays)


def assert_unchanged_by_illegal(g, s, action):
    before_text, before = g.state_to_string(s), copy.deepcopy(s)
    with pytest.raises(IllegalActionError):
        g.apply_action(s, action)
    assert g.state_to_string(s) == before_text
    assert s == before


# Components and set-up ---------------------------------------------------------------------


@pytest.mark.rules("DRACO-SETUP-1")
@pytest.mark.parametrize(
    "n, colours",
    [
        (3, ["green", "purple", "yellow"]),
        (4, ["green", "purple", "yellow", "red"]),
        (5, ["green", "purple", "yellow", "red", "blue"]),
        (6, ["green", "purple", "yellow", "red", "blue", "black"]),
    ],
)
def test_colours_per_player_count(n, colours):
    g, s = start(n)
    for seat, colour in enumerate(colours):
        # seat i plays colour i and controls its two characters
        assert C.COLOURS[seat] == colour
        assert [g.controller(s, 2 * seat), g.controller(s, 2 * seat + 1)] == [seat, seat]
        assert C.character_name(2 * seat).startswith(colour)


@pytest.mark.rules("DRACO-SETUP-1")
@pytest.mark.parametrize("n", [2, 7])
def test_player_count_outside_3_to_6_is_refused(n):
    with pytest.raises(ValueError, match=r"num_players.*3\.\.6"):
        d2r_envs.make_game(GAME, n)


@pytest.mark.rules("DRACO-SETUP-2")
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_unused_colours_removed(n):
    g, s = start(n)
    assert sorted(s.order) == list(range(2 * n)) + [SARAH, JOHN, ZORK]
    assert len(s.order) == 2 * n + 3


@pytest.mark.rules("DRACO-SETUP-3", "DRACO-COMP-1")
def test_circle_is_shuffled_by_chance_after_draco():
    g = d2r_envs.make_game(GAME, 4)
    s = g.new_initial_state()
    assert g.current_player(s) == CHANCE
    g.apply_action(s, 0)
    assert s.phase == Phase.CIRCLE
    # every character is equally likely for first place (the one next to Draco's cup side)
    assert g.chance_outcomes(s) == [(c, 1 / 11) for c in BASE4]
    g.apply_action(s, ZORK)
    assert g.chance_outcomes(s) == [(c, 1 / 10) for c in BASE4 if c != ZORK]
    for c in [JOHN, 7, 0, 1, 2, 3, 4, 5]:
        g.apply_action(s, c)
    g.apply_action(s, 6)  # the last but one; the last (Aunt Sarah) is laid out without a choice
    assert s.order == [ZORK, JOHN, 7, 0, 1, 2, 3, 4, 5, 6, SARAH]
    assert s.phase == Phase.DEAL


@pytest.mark.rules("DRACO-SETUP-4", "DRACO-COMP-1")
@pytest.mark.parametrize("n", [3, 6])
def test_five_cards_dealt_each(n):
    g = d2r_envs.make_game(GAME, n)
    s = g.new_initial_state()
    g.apply_action(s, 0)
    while s.phase == Phase.CIRCLE:
        g.apply_action(s, min(s.todo))
    # the deal draws from the shuffled deck: each kind in proportion to its copies
    assert g.chance_outcomes(s)[0] == (K["Step Forward"], 5 / 74)
    while s.phase == Phase.DEAL:
        g.apply_action(s, lowest(s))
    assert [hand_size(s, p) for p in range(n)] == [5] * n
    assert s.draw_pile.n == 74 - 5 * n == sum(s.draw_pile)


@pytest.mark.rules("DRACO-SETUP-5", "DRACO-WEALTH-2", "DRACO-COMP-1")
@pytest.mark.parametrize("n", [3, 4, 6])
def test_one_gold_each_rest_is_bank(n):
    g, s = start(n)
    assert s.money == [3] * n  # one gold = 3 silver
    assert s.bank == 20 + 3 * 25 - 3 * n


@pytest.mark.rules("DRACO-SETUP-6")
@pytest.mark.parametrize("n, first, cup", [(3, 0, 2), (4, 2, 1), (6, 5, 4)])
def test_random_first_player_and_last_player_takes_cup(n, first, cup):
    g = d2r_envs.make_game(GAME, n)
    s = g.new_initial_state()
    assert g.chance_outcomes(s) == [(p, 1 / n) for p in range(n)]
    g, s = start(n, first=first)
    assert s.turn == first and s.phase == Phase.PLAY
    assert s.cup == cup  # the player to the first player's right


@pytest.mark.rules("DRACO-HIDDEN-1")
def test_hands_hidden_from_others():
    g, s = start(4, hands={0: ["Shove", "Shove", "Gossip", "Sprint", "Tumble"], 1: ["Tavern Tip"]})
    obs = Observer(g)
    seen_by_1 = obs.encode(s, 1).copy()
    seen_by_0 = obs.encode(s, 0).copy()
    t = copy.deepcopy(s)  # same sizes, other cards in seat 0's hand
    t.hands[0] = [0] * C.NUM_KINDS
    for name in ["Backstab", "Kick Out", "Pickpocket", "Brawl", "Musical Chairs"]:
        t.hands[0][K[name]] += 1
    assert (obs.encode(t, 1) == seen_by_1).all()
    assert (obs.encode(t, 0) != seen_by_0).any()  # the owner sees the difference
    assert "Shove" not in obs.string_from(s, 1) and "Shove" in obs.string_from(s, 0)


@pytest.mark.rules("DRACO-WEALTH-1")
def test_fortunes_visible():
    g, s = start(4)
    set_money(s, [7, 3, 0, 11])
    obs = Observer(g)
    money_seen_by_2 = LAYOUT.views(obs.encode(s, 2))["money"]
    assert list(money_seen_by_2[:4]) == [0, 11, 7, 3]  # seat 2, then the seats to its left
    assert "p0=7 p1=3 p2=0 p3=11" in obs.string_from(s, 2)


@pytest.mark.rules("DRACO-WEALTH-2")
def test_bank_makes_change():
    # money is kept in silver; a toast pays 4 silver to a player holding one gold
    g, s = start(4)
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    assert s.money == [7, 6, 5, 4]
    assert s.bank == TOTAL - 22


@pytest.mark.rules("DRACO-WEALTH-3")
def test_pay_what_you_can():
    g, s = start(4, hands={0: ["Bribe the Guard"]})
    set_money(s, [0, 3, 3, 3])
    s.order = [1, 2, 3, 4, 5, 6, 0, 7, SARAH, JOHN, ZORK]
    play(g, s, "Bribe the Guard")  # pay 1 (has 0), then move 3 forward
    pick(g, s, 0)
    assert s.money == [0, 3, 3, 3] and s.bank == TOTAL - 9
    assert s.order == [1, 2, 3, 0, 4, 5, 6, 7, SARAH, JOHN, ZORK]


@pytest.mark.rules("DRACO-WEALTH-3")
def test_pay_what_you_can_at_a_toast():
    g, s = start(4)
    # last: green 0 (seat 0, has 1 silver) owes 2; second-to-last: red 7 (seat 3) owes 1
    toast(g, s, order=[SARAH, JOHN, ZORK, 2, 1, 3, 4, 5, 6, 7, 0], money=[1, 3, 3, 3])
    assert s.money == [0, 4, 3, 2]
    assert s.bank == TOTAL - 9


@pytest.mark.rules("DRACO-WEALTH-3")
def test_toast_pays_net_amounts():
    # decision: a player who both receives and pays at a toast settles the net amount
    g, s = start(4)
    # green 0 (seat 0, no money) 4th: +1; green 1 last: -2; John second-to-last after Sarah: nobody
    toast(g, s, order=[2, 4, 6, 0, 3, 5, 7, ZORK, SARAH, JOHN, 1], money=[0, 3, 3, 3])
    assert s.money == [0, 7, 6, 5]
    assert sum(s.money) + s.bank == TOTAL


# Characters ---------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-CHAR-1")
def test_any_character_means_every_character_but_draco():
    g, s = start(4, hands={0: ["Backstab"]})
    play(g, s, "Backstab")
    assert legal_characters(g, s) == BASE4  # 11 characters; Draco is not one of them
    assert len(g.legal_actions(s)) == 11


@pytest.mark.rules("DRACO-CHAR-2")
def test_own_characters_are_the_colour_pair():
    g, s = start(4, first=1, hands={1: ["Step Forward"]})
    play(g, s, "Step Forward")
    assert legal_characters(g, s) == [2, 3]
    assert [g.controller(s, c) for c in [2, 3, SARAH, JOHN, ZORK]] == [1, 1, -1, -1, -1]


# Turn ------------------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-TURN-1")
def test_turns_go_clockwise_from_first_player():
    g, s = start(4, first=2)
    seen = []
    for _ in range(6):
        seen.append(s.turn)
        play(g, s, C.CATALOGUE[lowest_in_hand(s, s.turn)].name)
        resolve_card(g, s)
        finish_turn(g, s)
    assert seen == [2, 3, 0, 1, 2, 3]


@pytest.mark.rules("DRACO-TURN-2")
def test_turn_is_play_then_optional_toast_then_draw():
    g, s = start(4, hands={0: ["Tavern Tip", "Shove", "Shove", "Shove", "Shove"]})
    s.cup, s.cup_initial = -1, False
    # 1) play is mandatory: only play actions are legal
    assert g.legal_actions(s) == sorted([A.PLAY + K["Tavern Tip"], A.PLAY + K["Shove"]])
    play(g, s, "Tavern Tip")
    assert hand_size(s, 0) == 4
    # 2) the toast is optional
    assert s.phase == Phase.TOAST and g.legal_actions(s) == [A.DECLINE, A.TOAST]
    g.apply_action(s, A.DECLINE)
    # 3) the draw is mandatory: a chance draw for seat 0 comes before seat 1's turn
    assert g.current_player(s) == CHANCE and s.draws == [0]
    g.apply_action(s, K["Gossip"])
    assert hand_size(s, 0) == 5 and s.hands[0][K["Gossip"]] == 1
    assert s.turn == 1 and s.phase == Phase.PLAY


# Playing a card -----------------------------------------------------------------------------


@pytest.mark.rules("DRACO-PLAY-1")
def test_played_card_goes_face_up_to_discard():
    g, s = start(4, hands={0: ["Tavern Tip"]})
    assert s.discard[K["Tavern Tip"]] == 0
    play(g, s, "Tavern Tip")
    assert s.discard[K["Tavern Tip"]] == 1 and sum(s.discard) == 1
    assert s.hands[0][K["Tavern Tip"]] == 0
    # face up: every player sees it
    for p in range(4):
        assert LAYOUT.views(Observer(g).encode(s, p))["discard"][K["Tavern Tip"]] == 1


@pytest.mark.rules("DRACO-PLAY-2")
def test_only_dragon_cards_affect_draco():
    for kind in C.CATALOGUE:
        draco_ops = [st for st in kind.steps if st.op in (C.Op.DRACO_FLIP, C.Op.DRACO_MOVE)]
        assert bool(draco_ops) == kind.dragon, kind.name
    # a non-dragon card cannot take a character past Draco: first place moving forward stays first
    g, s = start(4, hands={0: ["Push Ahead"]})
    play(g, s, "Push Ahead")
    pick(g, s, 0)
    assert s.order == BASE4
    # a dragon card does: Draco changes hands and the first become the last
    g, s = start(4, hands={0: ["Draco Changes Hands"]})
    play(g, s, "Draco Changes Hands")
    assert s.order == BASE4[::-1]


@pytest.mark.rules("DRACO-PLAY-3")
def test_player_decides_what_the_card_leaves_open():
    g, s = start(4, hands={0: ["Switcheroo", "Draco Stretches"]})
    play(g, s, "Switcheroo")  # "two characters of your choice"
    assert g.current_player(s) == 0 and legal_characters(g, s) == BASE4
    pick(g, s, ZORK)
    assert g.current_player(s) == 0 and legal_characters(g, s) == [c for c in BASE4 if c != ZORK]
    pick(g, s, 5)
    assert s.order == [0, 1, 2, 3, 4, ZORK, 6, 7, SARAH, JOHN, 5]
    # the direction of Draco's move is the player's, too
    again(s)
    play(g, s, "Draco Stretches")
    assert g.current_player(s) == 0 and g.legal_actions(s) == [A.DIRECTION, A.DIRECTION + 1]


@pytest.mark.rules("DRACO-PLAY-4")
def test_character_chosen_before_die():
    g, s = start(4, hands={0: ["Sprint"]})
    s.order = [1, 2, 3, 4, 5, 6, 7, SARAH, 0, JOHN, ZORK]
    play(g, s, "Sprint")
    assert g.current_player(s) == 0 and s.ask == Ask.CHARACTER  # choose first
    pick(g, s, 0)
    assert g.current_player(s) == CHANCE and g.chance_outcomes(s) == [(v, 1 / 6) for v in range(6)]
    g.apply_action(s, 3)  # die shows 4
    assert s.order == [1, 2, 3, 4, 0, 5, 6, 7, SARAH, JOHN, ZORK]


# Movement -----------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-MOVE-1", "DRACO-MOVE-3")
def test_forward_jumps_over_k_characters_others_shift():
    g, s = start(4, hands={0: ["Push Ahead", "Kick Out"]})
    s.order = [2, 3, 4, 5, 6, 0, 7, 1, SARAH, JOHN, ZORK]
    play(g, s, "Push Ahead")  # 3 places forward
    pick(g, s, 0)
    assert s.order == [2, 3, 0, 4, 5, 6, 7, 1, SARAH, JOHN, ZORK]
    again(s)
    play(g, s, "Kick Out")  # 3 places backward
    pick(g, s, 3)
    assert s.order == [2, 0, 4, 5, 3, 6, 7, 1, SARAH, JOHN, ZORK]


@pytest.mark.rules("DRACO-MOVE-2")
def test_nobody_passes_draco():
    g, s = start(4, hands={0: ["Push Ahead", "Kick Out"]})
    s.order = [2, 0, 3, 4, 5, 6, 7, 1, SARAH, JOHN, ZORK]
    play(g, s, "Push Ahead")  # 3 forward from 2nd place: stops in first place
    pick(g, s, 0)
    assert s.order == [0, 2, 3, 4, 5, 6, 7, 1, SARAH, JOHN, ZORK]
    again(s)
    play(g, s, "Kick Out")  # 3 back from second-to-last: stops in last place
    pick(g, s, JOHN)
    assert s.order == [0, 2, 3, 4, 5, 6, 7, 1, SARAH, ZORK, JOHN]


@pytest.mark.rules("DRACO-MOVE-4")
def test_player_orders_a_group_move():
    def wine_shortage(choices):
        g, s = start(4, hands={0: ["Wine Shortage"]})
        play(g, s, "Wine Shortage")  # the first four each move 1 back
        assert s.ask == Ask.ORDER and legal_characters(g, s) == [0, 1, 2, 3]
        for c in choices:
            pick(g, s, c)
        assert s.card == -1 and s.discard[K["Wine Shortage"]] == 1  # the card is done
        return s.order

    # last first: each lands behind the one already moved
    assert wine_shortage([3, 2, 1]) == [4, 0, 1, 2, 3, 5, 6, 7, SARAH, JOHN, ZORK]
    # first first: each mover takes back the place the one before gave up; nothing changes
    assert wine_shortage([0, 1, 2]) == BASE4
    assert wine_shortage([1, 3, 0]) == [0, 2, 1, 4, 3, 5, 6, 7, SARAH, JOHN, ZORK]


# Toast ----------------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-TOAST-1")
def test_toast_only_with_cup_in_centre_and_never_obliged():
    g, s = start(4, first=0, hands={0: ["Tavern Tip", "Shove"]})
    s.cup, s.cup_initial = 2, False  # seat 2 proposed the last toast
    play(g, s, "Tavern Tip")
    assert s.phase == Phase.DRAW and g.current_player(s) == CHANCE  # no toast decision
    assert_unchanged_by_illegal(g, s, A.TOAST)
    # cup in the centre: the player may decline, and nothing is paid
    g, s = start(4, first=0, hands={0: ["Tavern Tip"]})
    s.cup, s.cup_initial = -1, False
    play(g, s, "Tavern Tip")
    money = list(s.money)
    assert g.legal_actions(s) == [A.DECLINE, A.TOAST]
    g.apply_action(s, A.DECLINE)
    assert s.money == money and s.cup == -1


@pytest.mark.rules("DRACO-TOAST-2")
def test_first_four_places_receive_4_3_2_1():
    g, s = start(4)
    # last two: Brother John (paid for by Aunt Sarah, nobody's) and Aunt Sarah: no payments
    toast(g, s, order=[6, 4, 2, 0, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    assert s.money == [3 + 1, 3 + 2, 3 + 3, 3 + 4]


@pytest.mark.rules("DRACO-TOAST-3")
def test_last_pays_2_second_to_last_pays_1():
    g, s = start(4)
    toast(g, s, order=[4, 6, 5, 7, SARAH, JOHN, ZORK, 1, 3, 2, 0], money=[3, 3, 3, 3])
    assert s.money == [3 - 2, 3 - 1, 3 + 4 + 2, 3 + 3 + 1]
    assert s.bank == TOTAL - 12 - 10 + 3


@pytest.mark.rules("DRACO-TOAST-4")
def test_sarah_neighbours_draw():
    g, s = start(4)
    toast(g, s, seat=0, order=[0, 1, 4, 5, 2, SARAH, 6, 3, 7, JOHN, ZORK])
    # her neighbours are purple 2 (seat 1) and red 6 (seat 3); then the proposer's own draw
    assert s.draws == [1, 3, 0]
    sizes = [hand_size(s, p) for p in range(4)]
    finish_turn(g, s)
    assert [hand_size(s, p) for p in range(4)] == [sizes[0] + 1, sizes[1] + 1, sizes[2], sizes[3] + 1]


@pytest.mark.rules("DRACO-TOAST-4")
def test_sarah_neighbours_same_player_draws_two():
    g, s = start(4)
    toast(g, s, seat=2, order=[0, 1, 4, 5, 2, SARAH, 3, 6, 7, JOHN, ZORK])
    assert s.draws == [1, 1, 2]


@pytest.mark.rules("DRACO-TOAST-4", "DRACO-DRACO-1")
def test_specials_and_draco_next_to_sarah_make_nobody_draw():
    g, s = start(4)
    toast(g, s, seat=0, order=[0, 1, 2, 3, 4, 5, 6, 7, JOHN, SARAH, ZORK])
    assert s.draws == [0]  # Brother John and Zork do not draw
    g, s = start(4)
    toast(g, s, seat=0, order=[SARAH, 5, 1, 2, 3, 4, 0, 6, 7, JOHN, ZORK])
    assert s.draws == [2, 0]  # first place: her other neighbour is Draco, who does not draw


@pytest.mark.rules("DRACO-CUP-1", "DRACO-TOAST-1")
def test_proposer_keeps_cup_until_after_playing_next_turn():
    g, s = start(4, first=0)
    s.cup, s.cup_initial = -1, False
    play(g, s, C.CATALOGUE[lowest_in_hand(s, 0)].name)
    resolve_card(g, s)
    g.apply_action(s, A.TOAST)
    assert s.cup == 0
    finish_turn(g, s)
    for seat in (1, 2, 3):  # nobody else may propose a toast this round
        assert s.turn == seat
        play(g, s, C.CATALOGUE[lowest_in_hand(s, seat)].name)
        resolve_card(g, s)
        assert s.phase == Phase.DRAW and s.cup == 0
        finish_turn(g, s)
    assert s.turn == 0 and s.phase == Phase.PLAY and s.cup == 0  # still held before playing
    play(g, s, C.CATALOGUE[lowest_in_hand(s, 0)].name)
    resolve_card(g, s)
    assert s.cup == -1 and s.phase == Phase.TOAST  # back in the centre after playing



@pytest.mark.rules("DRACO-CUP-2")
def test_no_toast_in_first_round():
    g, s = start(4, first=1)
    assert s.cup == 0 and s.cup_initial
    for seat in (1, 2, 3, 0):
        assert s.turn == seat
        play(g, s, C.CATALOGUE[lowest_in_hand(s, seat)].name)
        resolve_card(g, s)
        assert s.phase == Phase.DRAW  # no toast decision
        assert_unchanged_by_illegal(g, s, A.TOAST)
        if seat == 0:
            assert s.cup == 0  # the last player keeps it until the end of their turn
        finish_turn(g, s)
    assert s.cup == -1 and s.turn == 1
    play(g, s, C.CATALOGUE[lowest_in_hand(s, 1)].name)
    resolve_card(g, s)
    assert s.phase == Phase.TOAST  # second round: the first player may toast


# Drawing ------------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-DRAW-1")
def test_draw_takes_a_card_from_the_pile():
    g, s = start(4, hands={0: ["Tavern Tip"]})
    play(g, s, "Tavern Tip")
    pile = s.draw_pile.n
    assert s.draws == [0]  # first round: no toast decision, the draw is queued
    finish_turn(g, s)
    assert s.draw_pile.n == pile - 1 and hand_size(s, 0) == 1
    # the drawn kind follows the pile's counts
    g, s = start(4, hands={0: ["Tavern Tip"]})
    pile_to_discard(s, keep=["Shove", "Shove", "Gossip"])
    play(g, s, "Tavern Tip")
    assert g.current_player(s) == CHANCE
    assert g.chance_outcomes(s) == [(K["Shove"], 2 / 3), (K["Gossip"], 1 / 3)]
    g.apply_action(s, K["Gossip"])
    assert s.hands[0][K["Gossip"]] == 1 and s.draw_pile[K["Gossip"]] == 0 and s.draw_pile.n == 2


@pytest.mark.rules("DRACO-DRAW-2")
def test_hand_size_changes():
    g, s = start(4, hands={0: ["Gossip", "Shove", "Shove", "Shove", "Shove"]})
    play(g, s, "Gossip")  # draw 2, then the turn's draw: 5 - 1 + 2 + 1
    finish_turn(g, s)
    assert hand_size(s, 0) == 7
    # a player with no card skips the play and goes straight to the draw (or toast)
    g, s = start(4, first=0, hands={0: ["Tavern Tip"], 1: []})
    play(g, s, "Tavern Tip")
    g.apply_action(s, lowest(s))  # seat 0 draws, seat 1's turn starts
    assert s.turn == 1 and s.phase == Phase.DRAW and s.draws == [1]
    finish_turn(g, s)
    assert hand_size(s, 1) == 1 and s.turn == 2


# End of the game ----------------------------------------------------------------------------


@pytest.mark.rules("DRACO-END-1")
def test_last_card_reshuffles_discards():
    g, s = start(4, hands={0: ["Tavern Tip"]})
    pile_to_discard(s, keep=["Shove"])
    old_discard = list(s.discard)
    play(g, s, "Tavern Tip")
    old_discard[K["Tavern Tip"]] += 1
    finish_turn(g, s)  # draws the last Shove
    assert s.exhausted == 1
    assert list(s.draw_pile) == old_discard and s.draw_pile.n == sum(old_discard)
    assert s.discard == [0] * C.NUM_KINDS


@pytest.mark.rules("DRACO-END-1")
def test_pile_that_ran_out_on_an_empty_discard_is_refilled_at_the_next_draw():
    g, s = start(4, hands={0: ["Tavern Tip"]})
    pile_to_discard(s, keep=[])  # draw pile empty, as if it ran out when nothing was discarded
    s.discard = [0] * C.NUM_KINDS
    for k in range(C.NUM_KINDS):  # park the rest out of play so the counts still add up
        s.removed[k] += C.CATALOGUE[k].copies - sum(h[k] for h in s.hands) - s.removed[k]
    s.exhausted = 1
    play(g, s, "Tavern Tip")  # the card goes to the discard pile; the turn's draw needs a card
    assert g.current_player(s) == CHANCE and s.draws == [0]
    assert s.draw_pile.n == 1 and s.draw_pile[K["Tavern Tip"]] == 1 and not any(s.discard)
    assert s.exhausted == 1  # refilling is not another run-out
    g.apply_action(s, K["Tavern Tip"])
    assert s.hands[0][K["Tavern Tip"]] == 1 and invariants.violations(g, s) == []


@pytest.mark.rules("DRACO-END-1")
def test_card_in_play_is_not_reshuffled_by_its_own_draw():
    g, s = start(4, hands={0: ["Gossip"]})
    pile_to_discard(s, keep=["Shove"])
    old_discard = list(s.discard)
    play(g, s, "Gossip")
    g.apply_action(s, K["Shove"])  # the last card: the discards become the pile, Gossip not among them
    assert s.exhausted == 1 and list(s.draw_pile) == old_discard
    g.apply_action(s, lowest(s))  # Gossip's second draw comes from the new pile
    assert s.discard[K["Gossip"]] == 1 and sum(s.discard) == 1


@pytest.mark.rules("DRACO-END-2")
def test_first_toast_after_pile_ran_out_is_final():
    g, s = start(4)
    toast(g, s, order=BASE4)
    assert g.current_player(s) == CHANCE  # not final: the pile has not run out
    g, s = start(4)
    s.exhausted = 1
    ready_to_toast(s, seat=1, order=[2, 0, 4, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    g.apply_action(s, A.DECLINE)  # declining does not end the game
    assert g.current_player(s) == CHANCE
    g, s = start(4)
    s.exhausted = 1
    toast(g, s, seat=1, order=[2, 0, 4, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    assert g.current_player(s) == TERMINAL and s.draws == []
    assert s.money == [6, 7, 5, 4]  # the final toast pays out first
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.DECLINE)


@pytest.mark.rules("DRACO-END-3")
def test_richest_wins():
    g, s = start(4)
    s.exhausted = 1
    toast(g, s, order=[4, 0, 2, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    assert s.money == [6, 5, 7, 4]
    assert s.winners == [2]
    assert g.returns(s) == [-1.0, -1.0, 1.0, -1.0]


@pytest.mark.rules("DRACO-END-3")
def test_returns_zero_before_the_end():
    g, s = start(4)
    assert g.returns(s) == [0.0] * 4


@pytest.mark.rules("DRACO-TIE-1")
def test_tied_richest_eliminate_each_other():
    g, s = start(4)
    s.exhausted = 1
    # after the toast: seats 0 and 1 tie on 8, seat 2 has 5, seat 3 has 4
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[4, 5, 3, 3])
    assert s.money == [8, 8, 5, 4]
    assert s.winners == [2]
    assert g.returns(s) == [-1.0, -1.0, 1.0, -1.0]


@pytest.mark.rules("DRACO-TIE-1")
def test_tie_rule_skips_every_tied_group():
    g, _ = start(5)
    s = g.new_initial_state()
    set_money(s, [5, 5, 3, 3, 1])  # two tied pairs: the next single fortune wins
    assert g.winners(s) == [4]
    set_money(s, [5, 5, 3, 3, 3])  # no single fortune left: nobody wins
    assert g.winners(s) == []


@pytest.mark.rules("DRACO-TIE-2")
def test_all_tied_everybody_loses():
    g, s = start(4)
    s.exhausted = 1
    # Sarah 1st and Zork 3rd take nothing, John 2nd passes his 3 to Zork (lost), green 0 4th: +1;
    # yellow 5 second-to-last pays 1, red 7 last pays 2
    toast(g, s, order=[SARAH, JOHN, ZORK, 0, 2, 4, 6, 1, 3, 5, 7], money=[2, 3, 4, 5])
    assert s.money == [3, 3, 3, 3]
    assert g.current_player(s) == TERMINAL and s.winners == []
    assert g.returns(s) == [-1.0] * 4
    assert "Draco (all lose)" in g.state_to_string(s)


# Special characters ---------------------------------------------------------------------------


@pytest.mark.rules("DRACO-DRACO-1")
def test_draco_is_not_in_the_circle_and_takes_no_share():
    g, s = start(4)
    assert len(s.order) == 11 and all(0 <= c < C.NUM_CHARACTERS for c in s.order)
    # the toast moves exactly the players' net share; nobody is Draco
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, SARAH, ZORK, JOHN], money=[3, 3, 3, 3])
    assert sum(s.money) + s.bank == TOTAL
    assert s.money == [7, 6, 5, 4]


@pytest.mark.rules("DRACO-ZORK-1")
def test_zork_receives_nothing():
    g, s = start(4)
    toast(g, s, order=[ZORK, 0, 2, 4, 6, 1, 3, 5, 7, SARAH, JOHN], money=[3, 3, 3, 3])
    assert s.money == [6, 5, 4, 3]
    assert s.bank == TOTAL - 18


@pytest.mark.rules("DRACO-ZORK-2")
def test_zork_last_richest_pays_4():
    g, s = start(4)
    toast(g, s, order=[SARAH, JOHN, 7, 0, 2, 4, 6, 1, 3, 5, ZORK], money=[3, 3, 9, 3])
    # John 2nd passes 3 to red 7 (seat 3): 3 + 2; green 0 4th: 1; yellow 5 second-to-last: 1
    # Zork last: the richest (seat 2) pays 2 x 2
    assert s.money == [4, 3, 9 - 1 - 4, 3 + 5]


@pytest.mark.rules("DRACO-ZORK-2")
def test_zork_second_to_last_richest_pays_2():
    g, s = start(4)
    toast(g, s, order=[SARAH, 6, 4, 2, 0, 1, 3, 5, JOHN, ZORK, 7], money=[10, 3, 3, 3])
    # 2nd red 6 +3, 3rd yellow 4 +2, 4th purple 2 +1; Zork: seat 0 (richest) 2; red 7 last: 2
    assert s.money == [8, 4, 5, 3 + 3 - 2]


@pytest.mark.rules("DRACO-ZORK-2")
def test_richest_is_judged_before_the_toast_pays():
    g, s = start(4)
    # seat 0 is richest before the toast (6); seat 1 would be after its +4 (9); seat 0 pays for Zork
    toast(g, s, order=[2, 4, 6, 0, 3, 5, 7, 1, SARAH, JOHN, ZORK], money=[6, 5, 3, 3])
    assert s.money == [6 + 1 - 4, 9, 6, 5]


@pytest.mark.rules("DRACO-ZORK-3")
def test_tie_for_richest_nobody_pays_for_zork():
    g, s = start(4)
    toast(g, s, order=[SARAH, 6, 4, 2, 0, 1, 3, 5, JOHN, 7, ZORK], money=[9, 9, 3, 3])
    # red 7 second-to-last pays 1; Zork last: seats 0 and 1 tie for richest, nobody pays
    assert s.money == [9, 10, 5, 3 + 3 - 1]


@pytest.mark.rules("DRACO-JOHN-1")
def test_john_second_third_gets_five():
    g, s = start(4)
    toast(g, s, order=[0, JOHN, 2, 4, 6, 1, 3, 5, 7, ZORK, SARAH], money=[3, 3, 3, 3])
    # the rulebook's example: John 2nd, the 3rd place (purple 2) gets 3 + 2 = 5
    assert s.money == [3 + 4, 3 + 5, 3 + 1, 3]


@pytest.mark.rules("DRACO-JOHN-1")
def test_john_fourth_passes_to_fifth():
    g, s = start(4)
    toast(g, s, order=[0, 2, 4, JOHN, 6, 1, 3, 5, 7, ZORK, SARAH], money=[3, 3, 3, 3])
    assert s.money == [7, 6, 5, 4]  # red 6 in 5th place gets John's 1


@pytest.mark.rules("DRACO-JOHN-1", "DRACO-ZORK-1")
def test_john_passing_to_zork_is_lost():
    g, s = start(4)
    toast(g, s, order=[JOHN, ZORK, 0, 2, 4, 6, 1, 3, 5, 7, SARAH], money=[3, 3, 3, 3])
    # Zork takes neither John's 4 nor his own 3; red 7 second-to-last pays 1
    assert s.money == [5, 4, 3, 2]


@pytest.mark.rules("DRACO-JOHN-2")
def test_preceding_player_character_pays_for_john():
    g, s = start(4)
    toast(g, s, order=[SARAH, ZORK, 0, 2, 4, 6, 1, 3, 5, 7, JOHN], money=[3, 3, 3, 5])
    # red 7 (seat 3) second-to-last pays 1 and 2 for John: 3
    assert s.money == [3 + 2, 3 + 1, 3, 5 - 3]
    g, s = start(4)
    toast(g, s, order=[SARAH, ZORK, 0, 2, 4, 6, 1, 3, 5, JOHN, 7], money=[3, 3, 3, 5])
    # John second-to-last: yellow 5 (seat 2) before him pays 1; red 7 last pays 2
    assert s.money == [5, 4, 3 - 1, 5 - 2]


@pytest.mark.rules("DRACO-JOHN-2", "DRACO-ZORK-2")
def test_zork_before_john_richest_pays_johns_share():
    g, s = start(4)
    toast(g, s, order=[SARAH, 0, 2, 4, 6, 1, 3, 5, ZORK, JOHN, 7], money=[3, 3, 3, 9])
    # John second-to-last, Zork before him: the richest (seat 3) pays John's 1, not doubled;
    # red 7 last: seat 3 pays 2 more
    assert s.money == [3 + 3, 3 + 2, 3 + 1, 9 - 1 - 2]


@pytest.mark.rules("DRACO-JOHN-2", "DRACO-SARAH-1")
def test_nobody_pays_for_john_after_unclaimed_sarah():
    g, s = start(4)
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    assert s.money == [7, 6, 5, 4]


@pytest.mark.rules("DRACO-JOHN-3", "DRACO-ZORK-2")
def test_john_last_zork_second_to_last_richest_pays_4():
    g, s = start(4)
    toast(g, s, order=[SARAH, 0, 2, 4, 6, 1, 3, 5, 7, ZORK, JOHN], money=[3, 3, 3, 9])
    # the rulebook's example: the richest (seat 3) pays 2 + (2 x 1) = 4
    assert s.money == [6, 5, 4, 9 - 4]


@pytest.mark.rules("DRACO-SARAH-1")
def test_unclaimed_sarah_receives_and_pays_nothing():
    g, s = start(4)
    toast(g, s, order=[SARAH, 0, 2, 4, 6, 1, 3, 5, 7, JOHN, ZORK], money=[3, 3, 9, 3])
    # Sarah 1st: her 4 goes to nobody; red 7 pays 1 for John; Zork last: the richest (seat 2) pays 4
    assert s.money == [6, 5, 9 + 1 - 4, 3 - 1]
    g, s = start(4)
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, ZORK, JOHN, SARAH], money=[3, 3, 3, 3])
    # Sarah last pays nothing; John second-to-last: Zork before him, the richest pays -- tie: nobody
    assert s.money == [7, 6, 5, 4]


@pytest.mark.rules("DRACO-SARAH-2", "DRACO-CARD-OLD-FRIENDSHIP")
def test_old_friendship_makes_sarah_a_player_character():
    g, s = start(4, first=1, hands={1: ["Old Friendship", "Step Forward"]})
    play(g, s, "Old Friendship")
    assert s.sarah_owner == 1 and g.controller(s, SARAH) == 1
    assert s.discard[K["Old Friendship"]] == 1
    again(s)
    play(g, s, "Step Forward")
    assert legal_characters(g, s) == [2, 3, SARAH]  # she is one of seat 1's characters now
    # she earns and pays for seat 1
    toast(g, s, order=[SARAH, 0, 2, 4, 6, 1, 3, 5, 7, ZORK, JOHN], money=[3, 3, 3, 3])
    assert s.money == [3 + 3, 3 + 4 + 2, 3 + 1, 3]
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, ZORK, JOHN, SARAH], money=[3, 3, 3, 3])
    assert s.money == [7, 6 - 2, 5, 4]  # Sarah last: seat 1 pays 2; John: Zork before him, a tie
    toast(g, s, order=[0, 2, 4, 6, 1, 3, 5, 7, ZORK, SARAH, JOHN], money=[3, 3, 3, 3])
    assert s.money == [7, 6 - 1 - 2, 5, 4]  # Sarah pays 1 and 2 for John behind her


@pytest.mark.rules("DRACO-SARAH-3")
def test_claimed_sarah_still_makes_neighbours_draw():
    g, s = start(4)
    s.sarah_owner = 2
    toast(g, s, seat=0, order=[0, 1, 4, 5, 2, SARAH, 6, 3, 7, JOHN, ZORK])
    assert s.draws == [1, 3, 0]  # seat 2 (her owner) draws nothing for her


# Variants ----------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-VARIANT-1")
@pytest.mark.parametrize("removed", [0, 10, 20])
def test_short_game_removes_cards(removed):
    g, s = start(4, short_game=removed)
    assert sum(s.removed) == removed
    assert s.draw_pile.n == 74 - 20 - removed
    # the removed cards never come back, even after the pile runs out
    g, s = start(4, short_game=removed, hands={0: ["Tavern Tip"]})
    pile_to_discard(s, keep=["Shove"])
    play(g, s, "Tavern Tip")
    finish_turn(g, s)
    assert s.exhausted == 1 and sum(s.removed) == removed
    assert s.draw_pile.n + sum(s.removed) + sum(map(sum, s.hands)) == 74


@pytest.mark.rules("DRACO-VARIANT-1")
def test_short_game_option_values():
    with pytest.raises(ValueError, match="short_game"):
        d2r_envs.make_game(GAME, 4, short_game=5)


@pytest.mark.rules("DRACO-VARIANT-2")
def test_long_game_ends_after_second_exhaustion():
    g, s = start(4, long_game=True, hands={0: ["Tavern Tip"]})
    pile_to_discard(s, keep=["Shove"])
    play(g, s, "Tavern Tip")
    finish_turn(g, s)
    assert s.exhausted == 1
    toast(g, s, seat=1, order=BASE4)
    assert g.current_player(s) == CHANCE  # the first exhaustion is not the end
    s.exhausted = 2
    toast(g, s, seat=2, order=BASE4)
    assert g.current_player(s) == TERMINAL


# Card effects ---------------------------------------------------------------------------------


@pytest.mark.rules("DRACO-CARD-MOVE")
def test_move_cards():
    g, s = start(4, hands={0: ["Step Forward", "Elbow Through", "Good Word", "Ambition", "Brawl"]})
    s.order = [2, 3, 4, 5, 6, 7, 0, 1, SARAH, JOHN, ZORK]
    play(g, s, "Step Forward")
    pick(g, s, 1)
    assert s.order == [2, 3, 4, 5, 6, 7, 1, 0, SARAH, JOHN, ZORK]
    again(s)
    play(g, s, "Good Word")  # any character 2 forward
    pick(g, s, ZORK)
    assert s.order == [2, 3, 4, 5, 6, 7, 1, 0, ZORK, SARAH, JOHN]
    again(s)
    play(g, s, "Ambition")  # one own 4 forward, the other 3 back (found)
    assert legal_characters(g, s) == [0, 1]
    pick(g, s, 1)  # the other (green 0) follows without a choice
    assert s.order == [2, 3, 1, 4, 5, 6, 7, ZORK, SARAH, JOHN, 0]
    again(s)
    play(g, s, "Brawl")  # one 2 forward, another 2 back
    pick(g, s, 7)
    assert 7 not in legal_characters(g, s)
    pick(g, s, 2)
    assert s.order == [3, 1, 2, 4, 7, 5, 6, ZORK, SARAH, JOHN, 0]


@pytest.mark.rules("DRACO-CARD-MOVE-DIE")
def test_move_die_card():
    g, s = start(4, hands={0: ["Tumble"]})
    play(g, s, "Tumble")  # any character, die, that many back
    pick(g, s, 2)
    g.apply_action(s, 4)  # a 5
    assert s.order == [0, 1, 3, 4, 5, 6, 7, 2, SARAH, JOHN, ZORK]


@pytest.mark.rules("DRACO-CARD-MOVE-GROUP")
def test_move_group_cards():
    g, s = start(4, hands={0: ["Double Step", "Goblins Advance", "Dwarves Retreat"]})
    s.order = [2, 3, 4, 5, 0, 6, 7, 1, SARAH, JOHN, ZORK]
    play(g, s, "Double Step")  # both own characters 2 forward, order chosen
    assert legal_characters(g, s) == [0, 1]
    pick(g, s, 1)  # green 1 first, then green 0
    assert s.order == [2, 3, 0, 4, 5, 1, 6, 7, SARAH, JOHN, ZORK]
    again(s)
    play(g, s, "Goblins Advance")  # goblins: green 0, purple 2 (4 players)
    assert legal_characters(g, s) == [0, 2]
    pick(g, s, 2)  # already first: stays; then green 0 moves up behind it
    assert s.order == [2, 0, 3, 4, 5, 1, 6, 7, SARAH, JOHN, ZORK]
    again(s)
    play(g, s, "Dwarves Retreat")  # dwarves: green 1, red 7
    pick(g, s, 7)
    assert s.order == [2, 0, 3, 4, 5, 6, 1, SARAH, 7, JOHN, ZORK]


@pytest.mark.rules("DRACO-CARD-MOVE-GROUP")
def test_class_group_with_one_member_needs_no_order():
    g, s = start(3, hands={0: ["Amazons Advance"]})  # 3 players: only yellow 4 is an amazon
    s.order = [0, 1, 2, 3, 4, 5, SARAH, JOHN, ZORK]
    play(g, s, "Amazons Advance")
    assert s.order == [0, 1, 2, 4, 3, 5, SARAH, JOHN, ZORK]


@pytest.mark.rules("DRACO-CARD-SWAP")
def test_swap_cards():
    g, s = start(4, first=1, hands={1: ["Change Places"]})
    play(g, s, "Change Places")  # one of yours with another
    assert legal_characters(g, s) == [2, 3]
    pick(g, s, 3)
    assert legal_characters(g, s) == [c for c in BASE4 if c != 3]
    pick(g, s, JOHN)
    assert s.order == [0, 1, 2, JOHN, 4, 5, 6, 7, SARAH, 3, ZORK]


@pytest.mark.rules("DRACO-CARD-DRACO-FLIP")
def test_draco_flip():
    g, s = start(4, hands={0: ["Draco Changes Hands"]})
    s.order = [5, 0, JOHN, 1, 2, 3, 4, 6, 7, SARAH, ZORK]
    play(g, s, "Draco Changes Hands")
    assert s.order == [ZORK, SARAH, 7, 6, 4, 3, 2, 1, JOHN, 0, 5]


@pytest.mark.rules("DRACO-CARD-DRACO-MOVE")
@pytest.mark.parametrize(
    "card, direction, expected",
    [
        ("Draco Stretches", 0, [1, 2, 3, 4, 5, 6, 7, SARAH, JOHN, ZORK, 0]),
        ("Draco Stretches", 1, [ZORK, 0, 1, 2, 3, 4, 5, 6, 7, SARAH, JOHN]),
        ("Draco Wanders", 0, [2, 3, 4, 5, 6, 7, SARAH, JOHN, ZORK, 0, 1]),
        ("Draco Wanders", 1, [JOHN, ZORK, 0, 1, 2, 3, 4, 5, 6, 7, SARAH]),
    ],
)
def test_draco_move(card, direction, expected):
    g, s = start(4, hands={0: [card]})
    play(g, s, card)
    g.apply_action(s, A.DIRECTION + direction)
    assert s.order == expected


@pytest.mark.rules("DRACO-CARD-STEAL", "DRACO-WEALTH-3")
def test_steal():
    g, s = start(4, hands={0: ["Pickpocket", "Pickpocket"]})
    set_money(s, [3, 3, 0, 5])
    play(g, s, "Pickpocket")
    assert g.legal_actions(s) == [A.PLAYER, A.PLAYER + 1, A.PLAYER + 2]
    g.apply_action(s, A.PLAYER + 2)  # the player 3 seats to the left: seat 3
    assert s.money == [4, 3, 0, 4]
    again(s)
    play(g, s, "Pickpocket")
    g.apply_action(s, A.PLAYER + 1)  # seat 2 has nothing: nothing taken
    assert s.money == [4, 3, 0, 4] and s.bank == TOTAL - 11


@pytest.mark.rules("DRACO-CARD-GAIN")
def test_gain():
    g, s = start(4, hands={0: ["Tavern Tip"]})
    play(g, s, "Tavern Tip")
    assert s.money == [4, 3, 3, 3] and s.bank == TOTAL - 13


@pytest.mark.rules("DRACO-CARD-PAY")
def test_pay():
    g, s = start(4, hands={0: ["Bribe the Guard"]})
    s.order = [1, 2, 3, 4, 5, 6, 0, 7, SARAH, JOHN, ZORK]
    play(g, s, "Bribe the Guard")
    assert s.money == [2, 3, 3, 3] and s.bank == TOTAL - 11
    pick(g, s, 1)  # the 3 forward still happens after paying
    assert s.order == [1, 2, 3, 4, 5, 6, 0, 7, SARAH, JOHN, ZORK]
    assert s.discard[K["Bribe the Guard"]] == 1


@pytest.mark.rules("DRACO-CARD-GAMBLE")
@pytest.mark.parametrize("outcome, money", [(0, 2), (2, 2), (3, 5), (5, 5)])
def test_gamble(outcome, money):
    g, s = start(4, hands={0: ["Dice Game"]})
    play(g, s, "Dice Game")
    assert g.current_player(s) == CHANCE and len(g.chance_outcomes(s)) == 6
    g.apply_action(s, outcome)
    assert s.money[0] == money and sum(s.money) + s.bank == TOTAL


@pytest.mark.rules("DRACO-CARD-DRAW")
def test_draw_cards():
    g, s = start(4, hands={0: ["Gossip", "Rumour Mill"]})
    play(g, s, "Gossip")
    assert s.draws == [0, 0]
    g.apply_action(s, K["Shove"])
    g.apply_action(s, K["Shove"])
    assert hand_size(s, 0) == 3 and s.hands[0][K["Shove"]] == 2
    again(s)
    s.draws = []
    play(g, s, "Rumour Mill")  # draw 1, then any character 1 back
    assert s.draws == [0]
    g.apply_action(s, K["Shove"])
    pick(g, s, 0)
    assert s.order == [1, 0, 2, 3, 4, 5, 6, 7, SARAH, JOHN, ZORK]
    assert hand_size(s, 0) == 3


@pytest.mark.rules("DRACO-CARD-SHUFFLE-ALL")
def test_shuffle_all():
    g, s = start(4, hands={0: ["Musical Chairs"]})
    play(g, s, "Musical Chairs")
    assert g.current_player(s) == CHANCE
    assert g.chance_outcomes(s) == [(c, 1 / 11) for c in BASE4]
    new = [ZORK, 7, 6, SARAH, 5, 4, JOHN, 3, 2, 1, 0]
    for c in new[:-1]:
        g.apply_action(s, c)
    assert s.order == new


@pytest.mark.rules("DRACO-CARD-MONTE")
def test_three_card_monte():
    g, s = start(4, hands={0: ["Three-Card Monte"]})
    play(g, s, "Three-Card Monte")
    assert legal_characters(g, s) == BASE4
    pick(g, s, 1)
    pick(g, s, ZORK)
    assert legal_characters(g, s) == [c for c in BASE4 if c not in (1, ZORK)]
    pick(g, s, 5)
    # chance lays the three back in places 2, 6 and 11
    assert g.current_player(s) == CHANCE
    assert g.chance_outcomes(s) == [(1, 1 / 3), (5, 1 / 3), (ZORK, 1 / 3)]
    g.apply_action(s, ZORK)  # place 2
    g.apply_action(s, 1)  # place 6; 5 goes to place 11
    assert s.order == [0, ZORK, 2, 3, 4, 1, 6, 7, SARAH, JOHN, 5]


@pytest.mark.rules("DRACO-CARD-REARRANGE-SPECIALS")
def test_rearrange_specials():
    g, s = start(4, hands={0: ["Family Reunion"]})
    s.order = [JOHN, 0, 1, 2, SARAH, 3, 4, 5, 6, ZORK, 7]
    play(g, s, "Family Reunion")
    assert g.current_player(s) == 0  # the player arranges them: a decision, not chance
    assert legal_characters(g, s) == [SARAH, JOHN, ZORK]
    pick(g, s, ZORK)  # Zork takes the first special place
    assert legal_characters(g, s) == [SARAH, JOHN]
    pick(g, s, SARAH)
    assert s.order == [ZORK, 0, 1, 2, SARAH, 3, 4, 5, 6, JOHN, 7]
    assert s.discard[K["Family Reunion"]] == 1


# Options and illegal actions --------------------------------------------------------------------


@pytest.mark.rules("DRACO-VARIANT-1", "DRACO-VARIANT-2", "DRACO-SETUP-1")
def test_config_errors():
    with pytest.raises(ValueError, match=r"num_players.*3\.\.6"):
        d2r_envs.make_game(GAME, 7)
    with pytest.raises(ValueError, match="unknown option.*'speed'"):
        d2r_envs.make_game(GAME, 4, speed=2)
    with pytest.raises(ValueError, match="num_players.*must be an int"):
        d2r_envs.make_game(GAME, "4")
    with pytest.raises(ValueError, match="long_game.*true or false"):
        d2r_envs.make_game(GAME, 4, long_game=1)
    with pytest.raises(ValueError, match="short_game.*must be an int"):
        d2r_envs.make_game(GAME, 4, short_game=True)
    g = d2r_envs.make_game(GAME)
    assert (g.n, g.config.short_game, g.config.long_game) == (4, 0, False)


@pytest.mark.rules("DRACO-TURN-2", "DRACO-CHAR-1")
def test_illegal_actions_leave_state_unchanged():
    g, s = start(4, hands={0: ["Step Forward", "Backstab"]})
    assert_unchanged_by_illegal(g, s, A.PLAY + K["Gossip"])  # not in hand
    assert_unchanged_by_illegal(g, s, A.DECLINE)  # the play is mandatory
    assert_unchanged_by_illegal(g, s, A.ACTIONS.size)  # out of range
    assert_unchanged_by_illegal(g, s, -3)
    play(g, s, "Step Forward")
    assert_unchanged_by_illegal(g, s, A.CHARACTER + 2)  # not one of seat 0's characters
    assert_unchanged_by_illegal(g, s, A.CHARACTER + 8)  # no fifth player in a 4-player game
    pick(g, s, 0)
    again(s)
    play(g, s, "Backstab")
    assert_unchanged_by_illegal(g, s, A.PLAYER)  # a player is not a character
    pick(g, s, 3)
    # chance nodes check their outcomes too
    g, s = start(4, hands={0: ["Sprint"]})
    play(g, s, "Sprint")
    pick(g, s, 0)
    assert_unchanged_by_illegal(g, s, 6)  # the die shows 1..6 (outcomes 0..5)


def test_game_length_cap_is_a_spec_constant():
    # not a rulebook rule: the cap the AEC adapter truncates at (README, deviations)
    g = d2r_envs.make_game(GAME, 4)
    assert g.spec.max_game_length == MAX_GAME_LENGTH == 3000
    assert (g.spec.min_return, g.spec.max_return) == (-1.0, 1.0)
