"""Scenario tests for the modules: Queen Powers, Judge Desires, 10s & Reveals, the final score (Examples G-I)."""

from __future__ import annotations

import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.state import Op, Step

ALL = dict(level="legendary")


def head(s):
    return s.todo[0].op


def pay_all(g, s, choose=None):
    while not g.is_terminal(s) and g.current_player(s) != CHANCE and head(s) == Op.HALF:
        legal = g.legal_actions(s)
        g.apply_action(s, choose(legal) if choose else legal[0])


# Levels -----------------------------------------------------------------------------------------


@pytest.mark.rules("EX-LEVEL-1")
def test_levels_map_to_modules_and_a_mismatch_is_refused():
    for level, mods in (("basic", (0, 0, 0)), ("fierce", (1, 0, 0)), ("sickening", (1, 1, 0)), ("legendary", (1, 1, 1))):
        g = d2r_envs.make_game("extravaganza", 2, level=level)
        assert (g.powers, g.desires_on, g.tens_on) == tuple(map(bool, mods))
    with pytest.raises(ValueError, match="tens_and_reveals.*level 'fierce'"):
        d2r_envs.make_game("extravaganza", 2, level="fierce", tens_and_reveals=True)
    g = d2r_envs.make_game("extravaganza", 2, level="custom", tens_and_reveals=True)
    assert (g.powers, g.desires_on, g.tens_on) == (False, False, True)


# Queen powers ------------------------------------------------------------------------------------


@pytest.mark.rules("EX-QUEEN-TUCKINGHAM")
def test_tuckingham_palace_adds_a_point_per_colour_in_supply_and_played_cards(ex):
    g, s = ex.start(2, level="fierce", queens=[C.JEN, 1], categories="Tuck,Runway,Eleganza,Floorwerk,Handwerk")
    ex.place(s, 0, 0)
    ex.place(s, 1, 24)
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, purple=2, orange=1)
    ex.to_stack(s, 0, ex.card("Runway", 0, "blue"))
    ex.empty_hand(s, 0)
    k = ex.card("Tuck", 0, "yellow")
    ex.to_hand(s, 0, k)
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + k)
    pay_all(g, s)
    # Tuck 1 x 2 played cards; colours: orange (supply), blue and yellow (played): +3
    assert s.scores[0][0] == 2 + 3


@pytest.mark.rules("EX-QUEEN-LINGUIST")
def test_cunning_linguist_turns_one_lip_into_two_and_two_into_three(ex):
    g, s = ex.start(2, level="fierce", queens=[C.SAVANNAH, 0])
    for j, c in enumerate(("purple", "orange", "blue", "blue", "yellow")):
        ex.to_display(s, j, C.card_id(s.cats[j], 0, ex.col(c)))
    s.stacks[0] = []
    ex.lips(s, 0, 0)
    ex.at(g, s, 0, Op.DRAW)
    g.apply_action(s, A.DRAW + 0)  # 1 lip -> 2
    assert s.lips[0] == 2
    ex.resolve(g, s)
    ex.lips(s, 0, 0)
    ex.at(g, s, 0, Op.DRAW)
    g.apply_action(s, A.DRAW + 2)  # 2 lips (two blue) -> 3
    assert s.lips[0] == 3


@pytest.mark.rules("EX-QUEEN-CHERRY")
def test_cherry_on_top_draws_a_rhinestone_after_paying_before_scoring(ex):
    g, s = ex.start(2, level="fierce", queens=[C.LANA, 1])
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, purple=2)
    ex.empty_hand(s, 0)
    k = ex.card("Booty", 0, "green")
    ex.to_hand(s, 0, k)
    ex.place(s, 0, 0)
    ex.place(s, 1, 24)
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + k)
    assert g.current_player(s) == CHANCE and head(s) == Op.GIFT and s.scores[0][0] == 0
    g.apply_action(s, ex.col("blue"))
    assert s.supply[0][ex.col("blue")] == 1 and s.scores[0][0] == 1  # Booty counts the new rhinestone


@pytest.mark.rules("EX-QUEEN-ODDY", "EX-DECIDE-ODDY")
def test_body_oddy_takes_one_missing_colour_from_a_nearby_queen_after_landing(ex):
    g, s = ex.start(3, level="fierce", queens=[C.ELLA, 1, 2])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a5"))
    ex.place(s, 1, ex.sp("b2"))
    ex.place(s, 2, ex.sp("a2"))
    ex.put_stone(s, ex.sp("a1"), ex.col("orange"))
    for p in range(3):
        ex.empty_supply(s, p)
    ex.give_stones(s, 1, orange=1, blue=2)
    ex.give_stones(s, 2, green=1)
    ex.give_stones(s, 0, yellow=1)
    ex.at(g, s, 0)
    g.apply_action(s, A.SPACE + ex.sp("a3"))  # nearby both, empty space
    assert head(s) == Op.BODY_ODDY
    legal = g.legal_actions(s)
    assert legal == sorted([A.PASS, A.TAKE + 0 * 5 + ex.col("orange"), A.TAKE + 0 * 5 + ex.col("blue"),
                            A.TAKE + 1 * 5 + ex.col("green")])
    g.apply_action(s, A.TAKE + ex.col("blue"))
    assert s.supply[0][ex.col("blue")] == 1 and s.supply[1][ex.col("blue")] == 1
    assert head(s) != Op.BODY_ODDY and s.supply[0][ex.col("green")] == 0  # one rhinestone a landing


@pytest.mark.rules("EX-QUEEN-ODDY")
def test_body_oddy_checks_after_the_landing_rhinestone(ex):
    g, s = ex.start(2, level="fierce", queens=[C.ELLA, 1])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a5"))
    ex.place(s, 1, ex.sp("b4"))
    ex.put_stone(s, ex.sp("a4"), ex.col("orange"))
    ex.empty_supply(s, 0)
    ex.empty_supply(s, 1)
    ex.give_stones(s, 1, orange=1)
    ex.at(g, s, 0)
    g.apply_action(s, A.SPACE + ex.sp("a4"))
    assert s.supply[0][ex.col("orange")] == 1 and head(s) != Op.BODY_ODDY  # she has orange now


@pytest.mark.rules("EX-QUEEN-GREEN", "EX-DECIDE-GREEN")
def test_green_screen_pays_green_as_any_colour_and_names_the_landing_colour(ex):
    g, s = ex.start(2, level="fierce", queens=[C.TART, 1])
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, green=1, blue=1)
    ex.empty_hand(s, 0)
    k = ex.card("Booty", 0, "purple")
    ex.to_hand(s, 0, k)
    ex.at(g, s, 0, Op.DANCE)
    assert A.DANCE + k in g.legal_actions(s)  # a green rhinestone pairs with the blue one
    g.apply_action(s, A.DANCE + k)
    g.apply_action(s, A.PAY_STONE + ex.col("blue"))
    assert s.spent[ex.col("blue")] == 2 and s.spent[ex.col("green")] == 0  # no longer green
    # landing on green: she names the colour, and passed greens count as it
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a5"))
    ex.place(s, 1, ex.sp("e1"))
    for x, c in (("a4", "yellow"), ("a3", "green"), ("a2", "orange"), ("a1", "green")):
        ex.put_stone(s, ex.sp(x), ex.col(c))
    ex.empty_supply(s, 0)
    ex.at(g, s, 0)
    g.apply_action(s, A.SPACE + ex.sp("a1"))
    assert head(s) == Op.GREEN_LAND
    assert g.legal_actions(s) == [A.COLOR + ex.col(c) for c in ("orange", "green", "yellow")]
    g.apply_action(s, A.COLOR + ex.col("yellow"))
    assert s.supply[0] == [0, 0, 0, 0, 3] and s.stage[ex.sp("a2")] == ex.col("orange")


@pytest.mark.rules("EX-QUEEN-PIROUETTE", "EX-DECIDE-PIROUETTE")
def test_pirouette_takes_a_bedazzled_rhinestone_of_a_missing_colour(ex):
    g, s = ex.start(2, level="fierce", queens=[C.VICTORIA, 1])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a1"))
    ex.place(s, 1, ex.sp("e5"))
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, orange=1)
    s.todo = [Step(Op.START_TURN, 0)]
    g._advance(s)
    fills = [x.arg for x in s.todo if x.op == Op.FILL]
    for sp, c in zip(fills, ("orange", "blue", "orange", "blue")):
        g.apply_action(s, ex.col(c))
    assert head(s) == Op.PIROUETTE
    legal = g.legal_actions(s)
    assert legal == [A.PASS] + [A.SPACE + sp for sp in fills if s.stage[sp] == ex.col("blue")]
    g.apply_action(s, legal[1])
    assert s.supply[0] == [0, 1, 1, 0, 0] and head(s) == Op.MOVE


@pytest.mark.rules("EX-QUEEN-PRESENCE")
def test_stage_presence_pays_with_the_current_area_once(ex):
    g, s = ex.start(2, level="fierce", queens=[C.KIKI, 1])
    ex.place(s, 0, ex.sp("a1"))  # purple area
    ex.place(s, 1, ex.sp("e5"))
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, purple=1, blue=1)
    ex.empty_hand(s, 0)
    k = ex.card("Booty", 2, "green")
    ex.to_hand(s, 0, k)
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + k)  # one pair only: purple stone + the purple area
    assert A.PAY_STAGE in g.legal_actions(s)
    g.apply_action(s, A.PAY_STAGE)
    assert s.stage_used and s.spent_actual == 0
    assert s.spent[ex.col("purple")] == 1 and s.supply[0] == [0, 0, 1, 0, 0]


@pytest.mark.rules("EX-QUEEN-BLOOD")
def test_blood_sucker_scores_with_a_nearby_queens_lyrics(ex):
    g, s = ex.start(2, level="fierce", queens=[C.ANNE, 1])
    ex.place(s, 0, 12)
    ex.place(s, 1, 13)
    blue3, blue5, blue4 = 2 * 6 + 2, 2 * 6 + 5, 2 * 6 + 4
    s.song[0] = blue3
    s.lyrics = [[], [blue5, blue4]]
    ex.to_stack(s, 0, ex.card("Runway", 0, "blue"))
    ex.lips(s, 0, 3)
    ex.at(g, s, 0, Op.LIP_SYNC)
    g.apply_action(s, A.CLAIM)
    assert head(s) == Op.BLOOD and g.legal_actions(s) == [A.LYRICS_OF, A.LYRICS_OF + 1]
    g.apply_action(s, A.LYRICS_OF + 1)
    assert s.scores[0][1] == 3 + 5 + 4 and s.lyrics[0] == [blue3] and s.lyrics[1] == [blue5, blue4]


# Judge Desires ------------------------------------------------------------------------------------


@pytest.mark.rules("EX-DESIRE-1", "EX-DATA-DESIRES")
def test_desire_setup_one_face_up_per_judge():
    g = d2r_envs.make_game("extravaganza", 2, level="sickening")
    s = g.new_initial_state()
    while s.first < 0:
        g.apply_action(s, g.chance_outcomes(s)[-1][0])
    assert all(d >= 0 for d in s.desire_face) and s.desire_stack.n == 55
    assert C.NUM_DESIRES == 60 and C.NUM_DESIRE_KINDS == 30


@pytest.mark.rules("EX-DESIRE-2", "EX-DESIRE-3", "EX-DESIRE-4")
def test_example_g_a_blue_move_in_the_blue_area_claims_two_desires(ex):
    """Example G: Modern Tart plays a blue dance move in the blue area, earning two desire tokens."""
    g, s = ex.start(2, level="sickening", queens=[C.TART, 1])
    ex.place(s, 0, 12)  # the centre: blue (pinwheel)
    ex.place(s, 1, 0)
    blue = ex.col("blue")
    s.desire_face = [1 * 5 + blue, 2 * 5 + blue, 0 * 5 + ex.col("yellow"), 3 * 5 + blue, 4 * 5 + ex.col("orange")]
    for d in s.desire_face:
        s.desire_stack.take(d)
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, purple=2)
    ex.empty_hand(s, 0)
    k = ex.card("Booty", 0, "blue")
    ex.to_hand(s, 0, k)
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + k)
    assert s.desires[0] == [1, 1, 0, 0, 0]  # card colour and area; not the others
    assert s.desire_face[:2] == [-1, -1]
    while g.current_player(s) == 0:
        g.apply_action(s, g.legal_actions(s)[0])
    assert [x.op for x in s.todo[:2]] == [Op.DESIRE_DEAL, Op.DESIRE_DEAL]  # refilled at the turn's end
    ex.resolve(g, s)
    assert all(d >= 0 for d in s.desire_face)


@pytest.mark.rules("EX-DESIRE-4")
def test_the_six_desire_types(ex):
    g, s = ex.start(2, level="sickening")
    c = ex.col("green")
    s.danced, s.dance_area, s.spent_actual, s.spent_cards = ex.card("Booty", 0, "green"), c, 1 << c, 0
    assert [g.desire_met(s, t * 5 + c) for t in range(6)] == [True, True, True, False, True, False]
    s.spent_cards, s.spent_actual, s.dance_area = 1 << c, 0, ex.col("blue")
    assert [g.desire_met(s, t * 5 + c) for t in range(6)] == [False, True, False, True, False, True]


# 10s & Reveals ------------------------------------------------------------------------------------


@pytest.mark.rules("EX-TEN-1", "EX-DATA-REVEALS")
@pytest.mark.parametrize("n", [2, 4])
def test_tens_and_reveals_setup(n):
    g = d2r_envs.make_game("extravaganza", n, level="legendary")
    s = g.new_initial_state()
    while s.first < 0:
        g.apply_action(s, g.chance_outcomes(s)[0][0])
    assert s.tens_left == [n] * 5 and [sum(h) for h in s.reveal_hands] == [3] * n
    assert s.reveal_box.n == 24 - 3 * n
    assert [C.REVEAL_COLOUR.count(c) for c in range(5)] == [5, 5, 5, 5, 4]


@pytest.mark.rules("EX-TEN-2", "EX-DECIDE-TEN")
def test_ten_points_in_one_category_in_a_turn_earns_its_ten_token(ex):
    g, s = ex.start(2, **ALL)
    s.scores[0][1] = 40
    s.turn_points = [9, 12, 0, 0, 0]  # Runway: 12 this turn (only 5 of them fitted under 40)
    ex.at(g, s, 0, Op.END_REVEAL, fresh=False)
    while s.turn == 0:
        g.apply_action(s, g.legal_actions(s)[0]) if g.current_player(s) == 0 else ex.resolve(g, s)
    assert s.tens[0] == [0, 1, 0, 0, 0] and s.tens_left[1] == 1


@pytest.mark.rules("EX-REVEAL-1", "EX-DECIDE-REVEAL")
def test_example_h_beat_your_face_gives_a_lip_per_category_tend(ex):
    """Example H: Candy has 10'd three categories; Beat Your Face gives her 3 lips at once."""
    g, s = ex.start(2, **ALL, queens=[C.LANA, 1])
    r = next(r for r in range(24) if C.REVEAL_REWARD[r] == C.LIPS_REWARD and C.REVEAL_CONDITION[r] == 2)
    assert C.REWARDS[C.REVEAL_REWARD[r]] == "Beat Your Face"
    for q in range(2):
        for x in range(24):
            if s.reveal_hands[q][x]:
                s.reveal_hands[q][x] = 0
                s.reveal_box.add(x)
    s.reveal_box.take(r)
    s.reveal_hands[0][r] = 1
    s.tens[0] = [1, 1, 1, 0, 0]
    s.tens_left = [1, 1, 1, 2, 2]
    ex.clear_stage(s)
    ex.place(s, 1, 24)
    c = C.REVEAL_COLOUR[r]
    dest = next(sp for sp in range(25) if g.areas[sp] == c and sp != 24)
    start = next(x for ray in C.RAYS[dest] for x in ray[2:3] if x != 24) if any(len(ray) >= 3 for ray in C.RAYS[dest]) else None
    ex.place(s, 0, start)
    ex.lips(s, 0, 0)
    ex.at(g, s, 0)
    assert A.REVEAL + r not in g.legal_actions(s)  # the condition is not met yet
    g.apply_action(s, A.SPACE + dest)
    ex.resolve(g, s)
    assert A.REVEAL + r in g.legal_actions(s)
    g.apply_action(s, A.REVEAL + r)
    assert s.lips[0] == 3 and s.revealed[0] == [r] and s.revealed_turn
    assert all(a < A.REVEAL for a in g.legal_actions(s))  # one a turn


@pytest.mark.rules("EX-REVEAL-2")
@pytest.mark.parametrize("cond", range(6))
def test_the_six_reveal_conditions(ex, cond):
    g, s = ex.start(2, **ALL)
    r = cond * 4
    c = C.REVEAL_COLOUR[r]
    other = (c + 1) % 5
    area = next(sp for sp in range(25) if g.areas[sp] == c)
    s.danced, s.dance_area, s.spent_actual, s.spent_cards = C.card_id(0, 0, c), c, 1 << c, 0
    s.moved, s.landed, s.landed_stone, s.land_colour = 3, area, c, c
    met = g.reveal_met(s, r)
    s.spent_cards, s.spent_actual, s.moved = 1 << c, 1 << c, 2
    met2 = g.reveal_met(s, r)
    s.danced, s.dance_area = C.card_id(0, 0, other), other
    met3 = g.reveal_met(s, r)
    expected = {0: (True, True, False), 1: (False, True, False), 2: (True, False, False),
                3: (True, True, False), 4: (False, True, True), 5: (True, False, False)}[cond]
    assert (met, met2, met3) == expected


@pytest.mark.rules("EX-REVEAL-1", "EX-CAT-RUNWAY")
def test_strut_adds_movement_for_runway(ex):
    g, s = ex.start(2, **ALL)
    r = next(r for r in range(24) if C.REVEAL_REWARD[r] == C.STRUT_REWARD)
    s.tens[0] = [1, 1, 0, 0, 0]
    s.tens_left = [1, 1, 2, 2, 2]
    s.reveal_hands[0] = bytearray(24)
    s.reveal_hands[0][r] = 1
    g._reveal(s, 0, r)
    assert s.strut == 2


# Judge Deliberation --------------------------------------------------------------------------------


@pytest.mark.rules("EX-FINAL-1", "EX-FINAL-2", "EX-FINAL-3", "EX-FINAL-4", "EX-FINAL-5", "EX-DECIDE-REVIEW")
def test_example_i_ella_scores_168(ex):
    """Example I, 3 players: 11 (10s) + 6 (3 lyric colours) + 12+21+11+14+24 + 20 (2 sets) + 49 = 168."""
    g, s = ex.start(3, **ALL, categories="Booty,Twirls,Shade,Floorwerk,Lyricism")
    ella = 0
    s.tens = [[1] * 5, [0] * 5, [0] * 5]
    s.tens_left = [2] * 5
    s.lyrics = [[0, 6, 7, 12], [1], [2]]  # purple, orange, orange, blue: 3 colours
    s.scores = [[12, 21, 11, 14, 24], [13, 22, 10, 15, 20], [0, 0, 0, 0, 0]]
    # claimed: 2 / 3 / 1 / 3 / 2; the reviews add one at the Shade (head) and the Lyricism (guest) judges
    s.desires = [[2, 3, 1, 3, 2], [0] * 5, [0] * 5]
    b = g.score_breakdown(s, ella, [0, 0, 1, 0, 1])
    assert b == {"tens": 11, "diversity": 6, "review": 82, "sets": 20, "judges": 49, "total": 168}
    g._finish(s)
    assert s.final[ella] == 168


@pytest.mark.rules("EX-DECIDE-REVIEW")
def test_review_ties_all_earn_the_extra_token(ex):
    g, s = ex.start(2, level="sickening")
    s.scores = [[5, 0, 0, 0, 0], [5, 0, 0, 0, 0]]
    g._finish(s)
    assert s.final == [5 + 3, 5 + 3]  # both highest at the guest judge (3 points each)
