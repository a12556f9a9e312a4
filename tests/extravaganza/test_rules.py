"""Scenario tests for the basic game's rules: set-up, the five steps of a turn, the categories, the end."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.clone import shared_mutables
from d2r_envs.core.game import CHANCE, IllegalActionError
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza import invariants
from d2r_envs.games.extravaganza.state import Op, Step



def head(s):
    return s.todo[0].op


# Set-up ------------------------------------------------------------------------------------------


@pytest.mark.rules("EX-SETUP-1", "EX-SETUP-2", "EX-SETUP-3", "EX-SETUP-4", "EX-SETUP-5")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_draws_categories_decks_song_stage_and_first_player(n):
    g = d2r_envs.make_game("extravaganza", n)
    s = g.new_initial_state()
    rng = np.random.default_rng(n)
    assert dict(g.chance_outcomes(s)) == {c: 0.1 for c in range(10)}  # a category per judge, at random
    while s.first < 0:
        g.apply_action(s, g.sample_chance(s, rng))
    assert len(set(s.cats)) == 5 and all(c >= 0 for c in s.cats)
    for j in range(5):  # each deck its own category, 14 face down + 1 face up
        assert C.CARD_CATEGORY[s.display[j]] == s.cats[j]
        assert s.decks[j].n == 14 and all(C.CARD_CATEGORY[k] == s.cats[j] for k in s.decks[j].cards)
    assert len(s.song) == {2: 12, 3: 18, 4: 24}[n] and len(set(s.song)) == len(s.song)
    assert all(c >= 0 for c in s.stage) and s.bag.n == 25  # one rhinestone on each of the 25 spaces
    assert 0 <= s.first < n


@pytest.mark.rules("EX-SETUP-1")
def test_categories_may_be_chosen():
    g = d2r_envs.make_game("extravaganza", 2, categories="Shade,Tuck,Twirls,Booty,Runway")
    assert g.new_initial_state().cats == [C.SHADE, C.TUCK, C.TWIRLS, C.BOOTY, C.RUNWAY]
    with pytest.raises(ValueError):
        d2r_envs.make_game("extravaganza", 2, categories="Shade,Shade,Twirls,Booty,Runway")


@pytest.mark.rules("EX-SETUP-6", "EX-SETUP-7", "EX-SETUP-8")
def test_starting_resources_and_placement_by_seat_from_the_first_player(ex):
    g, s = ex.start(4, first=1, queens=[0, 1, 2, 3])
    order = [1, 2, 3, 0]
    assert s.queen == [0, 1, 2, 3]
    # placement took one rhinestone each; the 2nd, 3rd, 4th got one more, the 3rd and 4th a lip
    assert [sum(s.supply[p]) for p in order] == [1, 2, 2, 2]
    assert [s.lips[p] for p in order] == [0, 0, 1, 1]
    assert [sum(s.hands[p]) for p in order] == [0, 0, 0, 1]  # the 4th: a card of their choice
    assert len(set(s.pos)) == 4 and all(s.stage[p] < 0 for p in s.pos)
    assert invariants.violations(g, s) == []


@pytest.mark.rules("EX-SETUP-7", "EX-SETUP-8")
def test_draft_and_placement_are_decisions_in_seat_order(ex):
    g = d2r_envs.make_game("extravaganza", 3, queens="draft", categories=ex.CATS)
    s = g.new_initial_state()
    ex.resolve(g, s, lambda code, arg, o: 2 if code == Op.FIRST else o[0])
    assert head(s) == Op.DRAFT and g.current_player(s) == 2
    g.apply_action(s, A.QUEEN + 5)
    assert g.current_player(s) == 0 and A.QUEEN + 5 not in g.legal_actions(s)
    g.apply_action(s, A.QUEEN + 0)
    g.apply_action(s, A.QUEEN + 1)
    ex.resolve(g, s)
    assert s.queen == [0, 1, 5] and head(s) == Op.PLACE and g.current_player(s) == 2
    g.apply_action(s, A.SPACE + 12)
    assert s.pos[2] == 12 and A.SPACE + 12 not in g.legal_actions(s)


# The turn ----------------------------------------------------------------------------------------


@pytest.mark.rules("EX-TURN-1")
def test_turn_steps_in_order_then_the_next_player_clockwise(ex):
    g, s = ex.start(3, first=0)
    seen = []
    while s.turn == 0:
        if g.current_player(s) == CHANCE:
            ex.resolve(g, s)
            continue
        seen.append(head(s))
        g.apply_action(s, A.PASS if A.PASS in g.legal_actions(s) else A.STOP)
    order = [o for o in seen if o in (Op.MOVE, Op.DRAW, Op.DANCE, Op.LIP_SYNC)]
    assert order == sorted(order, key=[Op.MOVE, Op.DRAW, Op.DANCE, Op.LIP_SYNC].index)
    assert s.turn == 1


@pytest.mark.rules("EX-BEDAZZLE-1")
def test_example_a_bedazzle_fills_the_empty_spaces_of_your_area(ex):
    """Example A: Victoria starts her turn in the purple area: every empty purple space is filled."""
    g, s = ex.start(2, queens=[C.VICTORIA, 0])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a1"))  # purple (pinwheel)
    ex.place(s, 1, ex.sp("b1"))  # purple, occupied
    s.todo = [Step(Op.START_TURN, 0)]
    g._advance(s)
    purple = [sp for sp in range(25) if g.areas[sp] == ex.col("purple") and sp not in s.pos]
    assert [x.arg for x in s.todo if x.op == Op.FILL] == purple
    ex.resolve(g, s)
    assert all(s.stage[sp] >= 0 for sp in purple) and s.stage[ex.sp("b1")] < 0
    assert sum(1 for c in s.stage if c >= 0) == 3


@pytest.mark.rules("EX-BEDAZZLE-2")
def test_an_empty_bag_takes_back_the_spent_rhinestones(ex):
    g, s = ex.start(2)
    s.spent = list(s.bag.counts)
    s.bag.refill([0] * 5)
    ex.clear_stage(s)  # the cleared stones went back to the bag: take them out again
    moved = list(s.bag.counts)
    s.spent = [a + b for a, b in zip(s.spent, moved)]
    s.bag.refill([0] * 5)
    s.todo = [Step(Op.START_TURN, 0)]
    g._advance(s)
    assert s.bag.n > 0 and s.spent == [0] * 5 and g.current_player(s) == CHANCE
    assert invariants.violations(g, s) == []


@pytest.mark.rules("EX-MOVE-1", "EX-MOVE-2")
def test_queen_moves_in_straight_lines_through_queens_never_onto_them(ex):
    g, s = ex.start(2)
    ex.place(s, 0, ex.sp("a1"))
    ex.place(s, 1, ex.sp("c1"))
    ex.empty_supply(s, 0)
    ex.at(g, s, 0)
    legal = g.legal_actions(s)
    dests = {a - A.SPACE for a in legal if A.SPACE <= a < A.COLOR}
    line = {ex.sp(x) for x in ("b1", "a2", "a3", "a4", "a5", "b2", "c3", "d4", "e5")}
    assert dests == line  # c1 is a queen; beyond her costs a rhinestone, which she does not have
    ex.give_stones(s, 0, blue=1, green=1)
    assert {a - A.SPACE for a in g.legal_actions(s) if A.SPACE <= a < A.COLOR} == line | {ex.sp("d1"), ex.sp("e1")}
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.SPACE + ex.sp("c1"))
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.SPACE + ex.sp("b3"))  # not a straight line
    g.apply_action(s, A.SPACE + ex.sp("e1"))
    assert head(s) == Op.PAY_QUEEN and g.legal_actions(s) == [A.COLOR + ex.col("blue"), A.COLOR + ex.col("green")]
    g.apply_action(s, A.COLOR + ex.col("green"))  # her choice; paid to the queen passed
    assert s.supply[1][ex.col("green")] >= 1 and s.supply[0][ex.col("green")] == 0
    assert s.pos[0] == ex.sp("e1") and s.moved == 4 and s.passed == 1


@pytest.mark.rules("EX-MOVE-3")
def test_example_b_landing_takes_the_rhinestone_and_those_of_its_colour_passed(ex):
    """Example B: Savannah lands on an orange rhinestone after passing two oranges: she takes all three."""
    g, s = ex.start(2, queens=[C.SAVANNAH, 0])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a5"))
    ex.place(s, 1, ex.sp("e1"))
    for x, c in (("a4", "orange"), ("a3", "blue"), ("a2", "orange"), ("a1", "orange")):
        ex.put_stone(s, ex.sp(x), ex.col(c))
    ex.empty_supply(s, 0)
    ex.at(g, s, 0)
    g.apply_action(s, A.SPACE + ex.sp("a1"))
    assert s.supply[0] == [0, 3, 0, 0, 0] and s.stage[ex.sp("a3")] == ex.col("blue")
    assert s.landed_stone == ex.col("orange")


@pytest.mark.rules("EX-NEARBY-1")
def test_nearby_is_the_eight_surrounding_spaces():
    assert len(C.NEARBY[12]) == 8 and set(C.NEARBY[12]) == {6, 7, 8, 11, 13, 16, 17, 18}
    assert set(C.NEARBY[0]) == {1, 5, 6}


@pytest.mark.rules("EX-DRAW-1", "EX-DRAW-2")
def test_example_c_draw_takes_a_lip_per_matching_display_and_played_card(ex):
    """Example C: Jen takes a blue card: 2 lips for the two blue display cards, 1 for her blue played card."""
    g, s = ex.start(2, queens=[C.JEN, 1])
    ex.empty_hand(s, 0)
    ex.lips(s, 0, 0)
    for j, (cat, colour) in enumerate((("Booty", "blue"), ("Runway", "blue"), ("Eleganza", "green"),
                                       ("Floorwerk", "yellow"), ("Handwerk", "purple"))):
        ex.to_display(s, j, ex.card(cat, 0, colour))
    ex.to_stack(s, 0, ex.card("Booty", 1, "blue"))
    ex.to_stack(s, 0, ex.card("Booty", 2, "orange"))
    ex.at(g, s, 0, Op.DRAW)
    g.apply_action(s, A.DRAW + 0)
    assert s.lips[0] == 3 and s.hands[0][ex.card("Booty", 0, "blue")] == 1
    assert g.current_player(s) == CHANCE and head(s) == Op.FLIP  # then the deck flips its next card
    deck = list(s.decks[0].cards)
    ex.resolve(g, s)
    assert s.display[0] in deck and s.decks[0].n == len(deck) - 1


@pytest.mark.rules("EX-DRAW-1", "EX-COMP-1")
def test_a_draw_takes_only_the_lips_left_in_the_supply(ex):
    """Example C's draw earns 3 lips; with 1 left of the box's 40, it takes that one."""
    g, s = ex.start(2, queens=[C.JEN, 1])
    ex.lips(s, 0, 0)
    ex.lips(s, 1, s.lips[1] + s.lip_supply - 1)
    for j, (cat, colour) in enumerate((("Booty", "blue"), ("Runway", "blue"))):
        ex.to_display(s, j, ex.card(cat, 0, colour))
    ex.to_stack(s, 0, ex.card("Booty", 1, "blue"))
    assert g.draw_lips(s, 0, 0) == 3
    ex.at(g, s, 0, Op.DRAW)
    g.apply_action(s, A.DRAW + 0)
    assert s.lips[0] == 1 and s.lip_supply == 0 and s.lips[1] == C.NUM_LIPS - 1


@pytest.mark.rules("EX-DANCE-1")
def test_example_d_star_quality_is_limited_by_the_move(ex):
    """Example D: Dump It 1 star; Twerk 1 or 2; Eternity Jiggle 1, 2 or 3."""
    g, s = ex.start(2)
    assert [C.CARD_STARS[ex.card("Booty", m, "blue")] for m in range(3)] == [1, 2, 3]
    assert C.move_name(C.BOOTY, 0) == "Dump It" and C.move_name(C.BOOTY, 2) == "Eternity Jiggle"
    ex.empty_hand(s, 0)
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, blue=2, green=2, yellow=2)
    for m in range(3):
        ex.to_hand(s, 0, ex.card("Booty", m, "purple"))
    for m, options in ((0, 1), (1, 2), (2, 3)):
        assert g._star_options(s, 0, ex.card("Booty", m, "purple")) == options
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + ex.card("Booty", 2, "purple"))
    assert g.legal_actions(s) == [A.STARS, A.STARS + 1, A.STARS + 2]


@pytest.mark.rules("EX-DANCE-1", "EX-DANCE-2", "EX-DANCE-3", "EX-DANCE-4", "EX-DANCE-5", "EX-CAT-RUNWAY")
def test_example_e_kiki_dances_sissy_that_walk_for_two_stars(ex):
    """Example E: a blue pair, then a green rhinestone and a discarded green card; 4 spaces moved x 2 = 8."""
    g, s = ex.start(2, queens=[C.KIKI, 0])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a5"))
    ex.place(s, 1, ex.sp("e5"))
    ex.empty_hand(s, 0)
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, blue=2, green=1)
    walk = ex.card("Runway", 1, "purple")
    assert C.CARD_NAMES[walk] == "Sissy that Walk (purple)"
    ex.to_hand(s, 0, walk)
    green_card = ex.card("Eleganza", 0, "green")
    ex.to_hand(s, 0, green_card)
    ex.at(g, s, 0)
    g.apply_action(s, A.SPACE + ex.sp("a1"))  # 4 spaces up the a-file
    ex.resolve(g, s)
    assert s.moved == 4
    g.apply_action(s, A.PASS)  # no draw
    g.apply_action(s, A.DANCE + walk)
    g.apply_action(s, A.STARS + 1)  # 2 stars
    assert g.legal_actions(s) == [A.PAY_STONE + ex.col("blue"), A.PAY_STONE + ex.col("green"), A.PAY_CARD + green_card]
    g.apply_action(s, A.PAY_STONE + ex.col("blue"))
    # the pair must be one colour: the second blue is the only way on, so it is paid at once
    assert s.paid == 1 and s.half == -1 and s.supply[0][ex.col("blue")] == 0
    g.apply_action(s, A.PAY_STONE + ex.col("green"))  # the second pair need not match the first
    # and the green card completes it (forced)
    ex.resolve(g, s)
    assert s.scores[0][1] == 8 and s.stacks[0][-1] == walk
    assert s.removed[green_card] == 1 and s.spent == [0, 0, 2, 1, 0]  # set aside, not in the bag


@pytest.mark.rules("EX-DANCE-3")
def test_played_cards_pay_too_and_every_legal_half_can_be_completed(ex):
    g, s = ex.start(2)
    ex.empty_hand(s, 0)
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, blue=1)
    k = ex.card("Booty", 0, "orange")
    ex.to_hand(s, 0, k)
    played = ex.card("Runway", 0, "blue")
    ex.to_stack(s, 0, played)
    lonely = ex.card("Eleganza", 0, "yellow")
    ex.to_hand(s, 0, lonely)
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + k)
    assert g.legal_actions(s) == [A.PAY_STONE + ex.col("blue"), A.PAY_CARD + played]  # no dead-end yellow
    g.apply_action(s, A.PAY_CARD + played)
    assert played not in s.stacks[0] and s.removed[played] == 1
    assert s.supply[0][ex.col("blue")] == 0 and s.stacks[0] == [k]  # the blue rhinestone completed the pair


@pytest.mark.rules("EX-DANCE-6")
def test_a_category_track_stops_at_40(ex):
    g, s = ex.start(2)
    s.scores[0][0] = 38
    g._add_points(s, 0, C.BOOTY, 7)
    assert s.scores[0][0] == 40 and s.turn_points[0] == 7


@pytest.mark.rules("EX-LIP-1", "EX-LIP-2", "EX-LIP-3")
def test_example_f_kiki_claims_two_lyrics_scoring_ten(ex):
    """Example F: the blue 3-word and yellow 2-word lyrics for 5 lips; her yellow 5 counts: 3 + 2 + 5."""
    g, s = ex.start(2, queens=[C.KIKI, 0])
    blue3, yellow2, yellow5, purple1 = 2 * 6 + 2, 4 * 6 + 1, 4 * 6 + 5, 0
    s.song[2], s.song[3] = blue3, yellow2
    s.song_next = 2
    s.lyrics[0] = [yellow5, purple1]
    s.lyrics[1] = [s.song[0], s.song[1]]
    ex.lips(s, 0, 5)
    ex.at(g, s, 0, Op.LIP_SYNC)
    assert not g._can_claim(s, 0)  # no played card, no lip sync
    ex.to_stack(s, 0, ex.card("Runway", 0, "blue"))
    ex.at(g, s, 0, Op.LIP_SYNC)
    assert g.legal_actions(s) == [A.STOP, A.CLAIM]
    g.apply_action(s, A.CLAIM)
    g.apply_action(s, A.CLAIM)  # 2 lips left for the 2-word lyric
    assert s.lips[0] == 0 and s.song_next == 4
    assert s.scores[0][1] == 10  # Runway: the category of her top card
    assert s.lyrics[0] == [yellow5, purple1, blue3, yellow2]


@pytest.mark.rules("EX-LIP-1")
def test_the_lips_paid_for_a_lyric_go_back_to_the_supply(ex):
    g, s = ex.start(2)
    ex.to_stack(s, 0, ex.card("Runway", 0, "blue"))
    words = C.LYRIC_STARS[s.song[0]]
    ex.lips(s, 0, words + 1)
    supply = s.lip_supply
    ex.at(g, s, 0, Op.LIP_SYNC)
    g.apply_action(s, A.CLAIM)
    assert s.lips[0] == 1 and s.lip_supply == supply + words


@pytest.mark.rules("EX-LIP-1")
def test_lyrics_are_claimed_in_song_order_only_with_lips(ex):
    g, s = ex.start(2)
    ex.to_stack(s, 0, ex.card("Runway", 0, "blue"))
    ex.lips(s, 0, C.LYRIC_STARS[s.song[0]] - 1)
    ex.at(g, s, 0, Op.LIP_SYNC)
    assert A.CLAIM not in g.legal_actions(s)


@pytest.mark.rules("EX-END-1")
def test_the_flag_ends_the_game_once_turns_are_equal(ex):
    g, s = ex.start(3, first=1)
    ex.to_stack(s, 2, ex.card("Runway", 0, "blue"))
    s.song_next = g.flag_slot
    s.turns = [0, 1, 1]
    ex.lips(s, 2, 5)
    ex.at(g, s, 2, Op.LIP_SYNC)
    g.apply_action(s, A.CLAIM)
    assert s.end_triggered
    if head(s) == Op.LIP_SYNC:
        g.apply_action(s, A.STOP)
    ex.resolve(g, s)
    while not g.is_terminal(s) and s.turn == 2:
        g.apply_action(s, g.legal_actions(s)[0])
        ex.resolve(g, s)
    assert s.turn == 0 and not s.over  # seat 0 (before the first player, seat 1) still plays
    while not g.is_terminal(s):
        g.apply_action(s, g.legal_actions(s)[0])
        ex.resolve(g, s)
    assert s.turns == [s.turns[1]] * 3 and s.over


@pytest.mark.rules("EX-DATA-FLAGS")
def test_flag_slots():
    assert d2r_envs.make_game("extravaganza", 2).flag_slot == 11
    assert d2r_envs.make_game("extravaganza", 4, flags="early").flag_slot == 19


# Categories ----------------------------------------------------------------------------------------


def dance(g, s, ex, category, stars=1, colour="purple", p=0, pay=None, fresh=True):
    """Seat p dances a `category` card of move III for `stars` stars, paying purple pairs."""
    ex.empty_hand(s, p)
    k = ex.card(category, 2, colour)
    ex.to_hand(s, p, k)
    ex.give_stones(s, p, purple=2 * stars)
    ex.at(g, s, p, Op.DANCE, fresh=fresh)
    g.apply_action(s, A.DANCE + k)
    if head(s) == Op.STARS:
        g.apply_action(s, A.STARS + stars - 1)
    while head(s) == Op.HALF:
        g.apply_action(s, pay or A.PAY_STONE + ex.col("purple"))
    return k


@pytest.mark.rules("EX-CAT-BOOTY")
def test_booty_counts_your_rhinestones_and_nearby_queens_with_fewer(ex):
    g, s = ex.start(3, categories="Booty,Runway,Eleganza,Floorwerk,Handwerk")
    ex.place(s, 0, 12)
    ex.place(s, 1, 13)  # nearby, fewer
    ex.place(s, 2, 7)  # nearby, more
    for p in range(3):
        ex.empty_supply(s, p)
    ex.give_stones(s, 0, orange=3)  # the dance adds and spends a purple pair
    ex.give_stones(s, 1, blue=2)
    ex.give_stones(s, 2, blue=6)
    dance(g, s, ex, "Booty", stars=1)  # spends the purple pair: 3 left
    assert s.scores[0][0] == 1 * (3 + 2)


@pytest.mark.rules("EX-CAT-ELEGANZA")
def test_eleganza_scores_one_colour_of_spent_and_returns_them(ex):
    g, s = ex.start(2)
    ex.empty_supply(s, 1)
    ex.give_stones(s, 1, orange=3)
    s.supply[1][1], s.spent = 0, [0, 3, 0, 0, 0]
    ex.empty_supply(s, 0)
    dance(g, s, ex, "Eleganza", stars=2)
    assert head(s) == Op.ELEGANZA  # purple 4 or orange 3
    bag = s.bag.counts[ex.col("purple")]
    g.apply_action(s, A.COLOR + ex.col("purple"))
    assert s.scores[0][2] == 2 * 4 and s.spent == [0, 3, 0, 0, 0]
    assert s.bag.counts[ex.col("purple")] == bag + 4


@pytest.mark.rules("EX-CAT-FLOORWERK")
def test_floorwerk_bedazzles_nearby_then_scores_one_colour(ex):
    g, s = ex.start(2)
    ex.clear_stage(s)
    ex.place(s, 0, 12)
    ex.place(s, 1, 0)
    ex.put_stone(s, 24, ex.col("yellow"))
    dance(g, s, ex, "Floorwerk", stars=1)
    fills = [x.arg for x in s.todo if x.op == Op.FILL]
    assert fills == list(C.NEARBY[12])
    for _ in fills:
        g.apply_action(s, ex.col("yellow"))
    assert s.scores[0][3] == 9  # only yellow on the stage: the colour needs no choosing


@pytest.mark.rules("EX-CAT-HANDWERK")
def test_handwerk_reveals_three_cards_and_one_from_each_nearby_queen(ex):
    g, s = ex.start(3)
    ex.place(s, 0, 12)
    ex.place(s, 1, 13)
    ex.place(s, 2, 0)  # not nearby
    ex.empty_hand(s, 1)
    ex.empty_hand(s, 2)
    ex.to_hand(s, 1, ex.card("Booty", 2, "green"))
    ex.to_hand(s, 1, ex.card("Booty", 0, "green"))
    ex.to_hand(s, 2, ex.card("Booty", 2, "yellow"))
    ex.empty_hand(s, 0)
    hw = ex.card("Handwerk", 0, "purple")
    ex.to_hand(s, 0, hw)
    mine = [ex.card("Runway", 2, c) for c in ("blue", "green", "yellow", "orange")]
    for x in mine:
        ex.to_hand(s, 0, x)
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, purple=2)
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + hw)  # the purple pair is the only way to pay: paid at once
    assert head(s) == Op.SHOW_SELF and A.STOP in g.legal_actions(s)
    for x in mine[:3]:
        g.apply_action(s, A.SHOW + x)
    assert head(s) == Op.SHOW_OTHER and g.current_player(s) == 1  # the nearby queen chooses
    g.apply_action(s, A.SHOW + ex.card("Booty", 0, "green"))
    assert s.scores[0][4] == 3 + 3 + 3 + 1 and s.hands[1][ex.card("Booty", 0, "green")] == 1


@pytest.mark.rules("EX-CAT-LYRICISM")
def test_lyricism_scores_current_lyric_words_and_your_lyric_colours(ex):
    g, s = ex.start(2, categories="Lyricism,Runway,Eleganza,Floorwerk,Handwerk")
    s.lyrics[0] = [0, 1, 6]  # purple, purple, orange
    s.song_next = 3
    words = C.LYRIC_STARS[s.song[3]]
    dance(g, s, ex, "Lyricism", stars=2)
    assert s.scores[0][0] == 2 * (words + 2)


@pytest.mark.rules("EX-CAT-SHAWAM")
def test_shawam_counts_empty_spaces_then_bedazzles_the_stage(ex):
    g, s = ex.start(2, categories="Shawam,Runway,Eleganza,Floorwerk,Handwerk")
    ex.clear_stage(s)
    ex.place(s, 0, 0)
    ex.place(s, 1, 1)
    for x in range(2, 12):
        ex.put_stone(s, x, 0 if x % 2 else 1)
    dance(g, s, ex, "Shawam", stars=1)
    assert s.scores[0][0] == 13  # 25 - 2 queens - 10 rhinestones
    ex.resolve(g, s)
    assert all(s.stage[x] >= 0 for x in range(2, 25))


@pytest.mark.rules("EX-CAT-SHADE", "EX-DECIDE-SHADE")
def test_shade_discards_three_display_cards_for_their_stars(ex):
    g, s = ex.start(2, categories="Shade,Runway,Eleganza,Floorwerk,Handwerk")
    for j, m in ((1, 2), (2, 1), (3, 0), (4, 2)):
        ex.to_display(s, j, C.card_id(s.cats[j], m, 0))
    dance(g, s, ex, "Shade", stars=2, colour="green")
    assert head(s) == Op.SHADE
    picks = [s.display[1], s.display[2], s.display[4]]
    for j in (1, 4, 2):
        g.apply_action(s, A.JUDGE + j)
        assert A.JUDGE + j not in g.legal_actions(s) or head(s) != Op.SHADE  # 3 distinct decks
    assert s.scores[0][0] == 2 * (3 + 2 + 3) and all(s.removed[k] for k in picks)
    ex.resolve(g, s)
    assert all(s.display[j] >= 0 for j in (1, 2, 4))  # each deck flipped


@pytest.mark.rules("EX-CAT-TUCK")
def test_tuck_counts_played_cards_itself_included_and_nearby_with_fewer(ex):
    g, s = ex.start(2, categories="Tuck,Runway,Eleganza,Floorwerk,Handwerk")
    ex.place(s, 0, 12)
    ex.place(s, 1, 6)
    ex.to_stack(s, 0, ex.card("Runway", 0, "blue"))
    ex.to_stack(s, 1, ex.card("Runway", 0, "green"))
    dance(g, s, ex, "Tuck", stars=1)
    assert s.scores[0][0] == (1 + 1) + 1


@pytest.mark.rules("EX-CAT-TWIRLS")
def test_twirls_counts_colours_nearby_and_in_your_supply(ex):
    g, s = ex.start(2, categories="Twirls,Runway,Eleganza,Floorwerk,Handwerk")
    ex.clear_stage(s)
    ex.place(s, 0, 12)
    ex.place(s, 1, 0)
    ex.put_stone(s, 6, 1)
    ex.put_stone(s, 7, 1)
    ex.put_stone(s, 8, 2)
    ex.put_stone(s, 20, 4)  # not nearby
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, yellow=1, green=2)
    dance(g, s, ex, "Twirls", stars=1)
    assert s.scores[0][0] == 2 + 2


@pytest.mark.rules("EX-CAT-RUNWAY")
def test_runway_counts_two_more_per_queen_passed(ex):
    g, s = ex.start(2)
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a1"))
    ex.place(s, 1, ex.sp("b1"))
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, purple=3)
    ex.at(g, s, 0)
    g.apply_action(s, A.SPACE + ex.sp("d1"))
    assert s.moved == 3 and s.passed == 1
    dance(g, s, ex, "Runway", stars=1, fresh=False)
    assert s.scores[0][1] == 3 + 2


# The end ------------------------------------------------------------------------------------------


@pytest.mark.rules("EX-FINAL-2", "EX-FINAL-3", "EX-FINAL-6")
def test_basic_final_score_and_winner(ex):
    g, s = ex.start(2)
    s.scores = [[10, 5, 0, 0, 1], [3, 3, 3, 3, 3]]
    s.lyrics = [[0, 6, 12], [1]]  # 3 colours: 6; 1 colour: 1
    g._finish(s)
    assert s.final == [16 + 6, 15 + 1]
    assert g.returns(s) == [1.0, -1.0]


@pytest.mark.rules("EX-DECIDE-TIE")
def test_a_tie_for_first_scores_zero(ex):
    g, s = ex.start(3)
    s.scores = [[5, 0, 0, 0, 0], [5, 0, 0, 0, 0], [1, 0, 0, 0, 0]]
    g._finish(s)
    assert g.returns(s) == [0.0, 0.0, -1.0]


@pytest.mark.rules("EX-DECIDE-ROUNDS")
def test_a_game_without_lip_syncs_ends_after_60_rounds(ex):
    g, s = ex.start(2)
    while not g.is_terminal(s):
        legal = g.legal_actions(s)
        g.apply_action(s, A.PASS if A.PASS in legal else (A.STOP if A.STOP in legal else legal[0]))
        ex.resolve(g, s)
    assert s.turns == [60, 60] and not s.end_triggered


def test_the_kept_payment_halves_follow_every_field_they_are_worked_out_from():
    """legal_actions keeps the payment halves it last worked out (they are asked for twice a decision), by
    everything they are worked out from: a state changed in place in any of those fields, or another
    state, gets the halves a fresh game works out for it."""
    g = d2r_envs.make_game("extravaganza", 2, level="legendary")
    rng = np.random.default_rng(3)
    edits = [
        lambda s, p: s.supply[p].__setitem__(0, s.supply[p][0] + 2),
        lambda s, p: s.hands[p].__setitem__(next(k for k in range(C.NUM_CARDS) if not s.hands[p][k]), 1),
        lambda s, p: s.stacks[p].append(next(k for k in range(C.NUM_CARDS) if not s.hands[p][k])),
        lambda s, p: setattr(s, "half", -1 if s.half >= 0 else 1),
        lambda s, p: setattr(s, "paid", s.paid - 1 if s.paid else 0),
        lambda s, p: setattr(s, "stars", s.stars + 1),
        lambda s, p: setattr(s, "stage_used", not s.stage_used),
    ]
    checked = 0
    for seed in range(40):
        s = g.new_initial_state()
        while not g.is_terminal(s) and checked < 150:
            if g.current_player(s) == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
                continue
            legal = g.legal_actions(s)
            if head(s) == Op.HALF:
                p = s.turn
                assert legal == d2r_envs.make_game("extravaganza", 2, level="legendary").legal_actions(s)
                t = g.clone(s)
                for edit in edits:
                    edit(t, p)  # in place, one field after another, asked each time
                    assert g.legal_actions(t) == d2r_envs.make_game("extravaganza", 2, level="legendary").legal_actions(t)
                checked += 1
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert checked == 150


@pytest.mark.parametrize("level", ["basic", "legendary"])
def test_a_new_state_is_a_fresh_copy_sharing_nothing_with_the_others(level):
    """new_initial_state copies one state built with the game: a game played to its end leaves the next
    new state as built, and two new states share no mutable object."""
    g = d2r_envs.make_game("extravaganza", 3, level=level, categories="Booty,Runway,Eleganza,Floorwerk,Handwerk")
    rng = np.random.default_rng(1)
    a = g.new_initial_state()
    while not g.is_terminal(a):
        legal = g.legal_actions(a) if g.current_player(a) != CHANCE else None
        g.apply_action(a, g.sample_chance(a, rng) if legal is None else legal[int(rng.integers(len(legal)))])
    b, c = g.new_initial_state(), g.new_initial_state()
    assert b == g._build_initial_state() and -1 not in b.cats and not shared_mutables(b, c)
    assert not shared_mutables(a, b)
