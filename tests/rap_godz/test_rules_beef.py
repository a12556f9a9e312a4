"""Rap Godz rule scenarios: Beef, Tracks and Albums, the end, Goalz, Citiez and scoring."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.rap_godz import narrate
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import Phase, Task

G = C.Goal


def _beef_ready(rg, n=2):
    """p = the player to act, holding Album 1's Beef card in the play."""
    g, s = rg.start(n)
    p = s.turn
    g.apply_action(s, A.DRAW)
    rg.settle(g, s)
    k = rg.give(s, p, "A1 Beef!")
    return g, s, p, k


@pytest.mark.rules("RG-BEEF-1", "RG-BEEF-2", "RG-BEEF-4", "RG-BEEF-5", "RG-BEEF-EXAMPLE", "RG-DATA-BEEF")
def test_the_rulebook_beef_example(rg):
    """Player 1 starts Beef, rolls the red die and their colour die; player 2 rolls their die higher and WINS."""
    g, s, p, k = _beef_ready(rg, 3)
    assert A.PLAY + k in g.legal_actions(s)
    g.apply_action(s, A.PLAY + k)
    assert s.phase == Phase.TARGET and g.legal_actions(s) == [A.TARGET, A.TARGET + 1]
    q = (p + 1) % 3
    s.res[p] = [5, 5, 5]
    g._gain_plaques(s, p, 7)
    res_q = list(s.res[q])
    g.apply_action(s, A.TARGET + 0)  # the player to the left
    assert (s.starter, s.target) == (p, q)
    assert s.chance == [(Task.DIE, 0), (Task.DIE, 1), (Task.DIE, 2)]  # starter's die, red die, target's die
    for face in (3, 2, 5):
        g.apply_action(s, face - 1)
    assert s.timelines[p][k] == 1 and s.beef_card == -1  # the loser keeps the Beef card
    assert g.points(s, p) == 7 - 2 and g.points(s, q) == 2  # Album 1 stakes: 2 plaques
    # and 1 resource, from the loser's highest (tied: the first, Streetz), to the winner
    assert s.res[p] == [4, 5, 5] and s.res[q] == [res_q[0] + 1, res_q[1], res_q[2]]
    assert s.cubes[q] == 1 and s.cube_supply == 11
    assert s.turn == q  # the starter's turn is over
    rg.check(g, s)


@pytest.mark.rules("RG-BEEF-3", "RG-DATA-BEEF")
def test_a_tie_rerolls_all_and_the_loser_pays_what_they_have(rg):
    g, s, p, k = _beef_ready(rg)
    q = 1 - p
    s.res[q] = [0, 1, 3]
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET)
    for face in (4, 1, 4):  # the highest single dice tie: all reroll
        g.apply_action(s, face - 1)
    assert s.dice == [0, 0, 0] and s.chance == [(Task.DIE, 0), (Task.DIE, 1), (Task.DIE, 2)]
    for face in (2, 6, 1):  # the red die counts for the starter
        g.apply_action(s, face - 1)
    assert s.timelines[q][k] == 1 and s.cubes[p] == 1
    assert g.points(s, q) == 0  # nothing to pay
    assert s.res[q] == [0, 1, 2]  # Album 1's 1 resource, from the highest (Swag)
    rg.check(g, s)


@pytest.mark.rules("RG-DATA-BEEF")
def test_the_resources_a_beef_loser_gives():
    from d2r_envs.games.rap_godz.rules import beef_resources

    assert beef_resources([5, 7, 7], 3) == [0, 2, 1]  # one at a time from the highest; tied, the first
    assert beef_resources([9, 2, 2], 2) == [2, 0, 0]
    assert beef_resources([0, 1, 0], 3) == [0, 1, 0]  # as far as the loser has them
    assert beef_resources([0, 0, 0], 2) == [0, 0, 0]
    assert beef_resources([4, 4, 4], 3) == [1, 1, 1]


@pytest.mark.rules("RG-DATA-BEEF")
def test_album_three_beef_takes_three_resources_in_all_from_the_highest(rg):
    g, s, p, k = _beef_ready(rg)
    q = 1 - p
    a3 = rg.give(s, p, "A3 Beef!")
    s.res[q] = [12, 4, 11]
    before_p = list(s.res[p])
    g.apply_action(s, A.PLAY + a3)
    g.apply_action(s, A.TARGET)
    for face in (6, 5, 1):  # the starter wins
        g.apply_action(s, face - 1)
    assert s.res[q] == [10, 4, 10]  # 12 -> 11, then 11 and 11 tied: Streetz, then Swag
    assert s.res[p] == [before_p[0] + 2, before_p[1], before_p[2] + 1]  # the winner gains them
    assert g.points(s, q) == 0 and s.cubes[p] == 1
    rg.check(g, s)


@pytest.mark.rules("RG-PICK-3", "RG-DECIDE-BOOST", "RG-RAP-1")
def test_plus_two_on_beef_out_of_turn_and_the_reroll(rg):
    g, s, p, k = _beef_ready(rg)
    q = 1 - p
    for seat in (p, q):  # one +2 on Beef each, collected from the track
        s.track_pickups[s.track_pickups.index(C.BEEF_PICK)] = -1
        s.pickups[seat][C.BEEF_PICK] = 1
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET)
    for face in (3, 1, 4):
        g.apply_action(s, face - 1)
    assert s.phase == Phase.BEEF and s.actor == p  # the starter first
    assert g.legal_actions(s) == [A.PASS, A.BOOST]
    g.apply_action(s, A.BOOST)
    assert g.beef_values(s) == (5, 4) and s.actor == q  # then the target may answer, out of turn
    before = g.clone(s)
    g.apply_action(s, A.BOOST)
    # 5 vs 6; nobody holds anything more: both pass by themselves and the target wins
    assert "6" in " ".join(e.public for e in narrate.events(g, before, A.BOOST, s) if "Beef:" in e.public)
    assert s.cubes[q] == 1 and s.timelines[p][k] == 1
    assert s.pickups_used[C.BEEF_PICK] == 2
    rg.check(g, s)


@pytest.mark.rules("RG-RAP-1", "RG-RAP-2")
def test_the_beef_reroll_ability_once_per_album(rg):
    reroll = next(i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.REROLL)
    other = next(i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.HAND6)
    g, s = rg.start(2, rappers=[reroll, other])
    p = 0
    s.turn = s.actor = p
    s.phase = Phase.PLAY
    k = rg.give(s, p, "A1 Beef!")
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET)
    for face in (1, 2, 5):
        g.apply_action(s, face - 1)
    assert s.actor == p and g.legal_actions(s) == [A.PASS, A.ABILITY]
    g.apply_action(s, A.ABILITY)
    assert s.used[p] and s.chance == [(Task.DIE, 0), (Task.DIE, 1)]  # my own dice only
    g.apply_action(s, 5)
    g.apply_action(s, 0)
    assert s.phase != Phase.BEEF  # nobody holds anything more: 6 vs 5
    assert s.cubes[p] == 1 and s.timelines[1][k] == 1


@pytest.mark.rules("RG-DECIDE-CUBES")
def test_no_cube_when_the_supply_is_out(rg):
    g, s, p, k = _beef_ready(rg)
    s.cubes[1 - p] = 12
    s.cube_supply = 0
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET)
    for face in (6, 1, 2):
        g.apply_action(s, face - 1)
    assert s.cubes[p] == 0 and s.timelines[1 - p][k] == 1
    rg.check(g, s)


def _play_out(g, s, rng, policy=None):
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])


@pytest.mark.rules("RG-TRACK-1", "RG-ALBUM-2", "RG-ALBUM-3", "RG-ALBUM-4", "RG-END-1", "RG-SCORE-1", "RG-PLAY-1",
                   "RG-PLAY-2", "RG-DECIDE-PASS")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_tracks_albums_and_the_end_after_fifteen_turns_each(rg, n):
    g = d2r_envs.make_game("rap_godz", n)
    s = g.new_initial_state()
    rng = np.random.default_rng(n)
    seen = []  # (album, track, turn) at each turn's start
    while not g.is_terminal(s):
        if g.current_player(s) == CHANCE:
            album = s.album
            old_slots = list(s.slots)
            g.apply_action(s, g.sample_chance(s, rng))
            if s.album != album and not s.chance:
                pass
            continue
        if s.phase == Phase.GET and (not seen or seen[-1][2] != s.turn or seen[-1][:2] != (s.album, s.track)):
            seen.append((s.album, s.track, s.turn))
            if s.track == 0 and s.turn == s.medallion and s.album > 0 and len([x for x in seen if x[0] == s.album]) == 1:
                # a new Album: Come Upz from the new deck, hands drawn up, Medallion to most Skillz / Swag
                assert all(k < 0 or (C.CARDS[k].come and C.CARDS[k].deck == s.album) for k in s.slots)
                for p in range(n):
                    assert sum(s.hands[p]) >= g.hand_size(s, p) or s.decks[s.album].n == 0 or p == s.turn
                r = s.album  # 1: Skillz, 2: Swag
                assert s.res[s.medallion][r] == max(res[r] for res in s.res)
        legal = g.legal_actions(s)
        mask = bytearray(A.ACTIONS.size)
        for a in legal:
            mask[a] = 1
        assert g.legal_flags(s) == mask  # the environment's mask: the same legal moves
        g.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert len(seen) == 15 * n and s.turns == [15] * n
    assert (s.album, s.track) == (2, 4) and s.final == [g.points(s, p) for p in range(n)]
    assert g.returns(s) == [1.0 if p in g.winners(s) else -1.0 for p in range(n)]
    for album in range(3):
        for track in range(5):
            turns = [t for a, tr, t in seen if (a, tr) == (album, track)]
            assert len(turns) == n and len(set(turns)) == n  # every player once per Track
            holder = turns[0]
            assert turns == [(holder + i) % n for i in range(n)]  # from the Medallion holder, to the left
    assert sum(1 for a, tr, _ in seen if a == 2 and tr == 4) == n


@pytest.mark.rules("RG-ALBUM-3", "RG-ALBUM-2")
def test_new_album_draws_up_and_replaces_come_upz(rg):
    g, s = rg.start(2)
    s.album, s.track, s.turns = 0, 4, [5, 5]  # Album 1 played out
    rg.empty_hand(s, 0)
    rg.give(s, 0, "A1 Y 1")
    old = list(s.slots)
    g._new_album(s)
    assert s.album == 1 and s.phase == Phase.ALBUM
    assert [t for t, _ in s.chance].count(Task.DRAW) == g.hand_size(s, 0) - 1 + g.hand_size(s, 1) - sum(s.hands[1])
    rg.settle(g, s)
    assert sum(s.hands[0]) == g.hand_size(s, 0)
    assert all(C.CARDS[k].deck == 1 for k in range(21, 42) if s.hands[0][k]) and s.hands[0][rg.KIND["A1 Y 1"]] == 1
    assert sum(s.gone) == len([k for k in old if k >= 0]) and all(C.CARDS[k].deck == 1 for k in s.slots)
    rg.check(g, s)


def _end(g, s, timelines=(), cubes=None):
    """Score the end from the state as it is."""
    if cubes:
        s.cubes = list(cubes)
        s.cube_supply = C.BEEF_CUBES - sum(cubes)
    return g.end_bonus(s)


@pytest.mark.rules("RG-CITY-1", "RG-GOAL-4", "RG-DECIDE-MOST")
def test_new_orleans_most_yellow_icons_and_ties_split_rounded_down(rg):
    g, s = rg.start(3)
    no = rg.KIND["New Orleans"]
    assert C.CITIEZ[no - C.CITY_FIRST].colour == 1 and C.CITIEZ[no - C.CITY_FIRST].plaques == 10
    s.cities[2], old = no, s.cities[2]
    s.city_deck.add(old)
    s.city_deck.take(no)
    base = g.end_bonus(s)
    rg.give(s, 0, "A2 Y 1", to="timeline")
    assert g.city_winners(s, no) == [0]
    rg.give(s, 1, "A2 Y 1", to="timeline")
    assert g.city_winners(s, no) == [0, 1]
    bonus = g.end_bonus(s)
    assert bonus[0] - base[0] >= 5 and bonus[2] == base[2]
    # three-way tie on 10: 3 each (rounded down)
    rg.give(s, 2, "A2 Y 1", to="timeline")
    assert g.city_winners(s, no) == [0, 1, 2]
    s2 = g.clone(s)
    for p in range(3):
        s2.timelines[p][rg.KIND["A2 Y 1"]] = 0
    assert g.city_winners(s2, no) == []  # nobody above 0: nobody collects


@pytest.mark.rules("RG-GOAL-2", "RG-GOAL-4", "RG-DECIDE-MOST")
def test_the_champ_most_beef_cubes(rg):
    g, s = rg.start(2)
    assert g.goal_winners(s, G.CHAMP) == []
    s.cubes, s.cube_supply = [2, 1], 9
    assert g.goal_winners(s, G.CHAMP) == [0]
    s.cubes, s.cube_supply = [2, 2], 8
    assert g.goal_winners(s, G.CHAMP) == [0, 1]
    s.goals = [G.CHAMP]
    s.cities = [-1, -1]  # no Citiez, rapper bonuses aside
    s.extra_city = -1
    assert g.end_bonus(s)[0] == 5 == g.end_bonus(s)[1]  # 10 split


@pytest.mark.rules("RG-GOAL-1")
def test_platinum_first_to_25_plaques(rg):
    g, s = rg.start(2)
    if C.Goal.PLATINUM not in s.goals:
        s.goals = sorted(s.goals + [G.PLATINUM])
    g._gain_plaques(s, 1, 24)
    assert s.goal_won[G.PLATINUM] == -1
    g._gain_plaques(s, 1, 1)
    assert s.goal_won[G.PLATINUM] == 1 and s.plaques[1] == [0, 0, 1]
    g._gain_plaques(s, 0, 30)
    assert s.goal_won[G.PLATINUM] == 1 and g.goal_winners(s, G.PLATINUM) == [1]
    s.goals = sorted(s.goals + [G.MOGUL]) if G.MOGUL not in s.goals else s.goals
    g._gain_res(s, 0, 1, 40)
    assert s.goal_won[G.MOGUL] == 0


@pytest.mark.rules("RG-GOAL-3")
def test_homeslice_win_or_tie_your_hometown(rg):
    g, s = rg.start(2)
    c0, c1 = (C.CITIEZ[k - C.CITY_FIRST].colour for k in s.cities)
    colour_card = {c: f"A3 {C.COLOURS[c]} 1" for c in range(5)}
    rg.give(s, 0, colour_card[c0], to="timeline")
    assert 0 in g.goal_winners(s, G.HOMESLICE)
    if c0 == c1:
        rg.give(s, 1, colour_card[c1], to="timeline")
        assert g.goal_winners(s, G.HOMESLICE) == [0, 1]  # a tie counts
    else:
        assert 1 not in g.goal_winners(s, G.HOMESLICE)


@pytest.mark.rules("RG-RAP-4", "RG-RAP-5", "RG-RAP-3")
def test_card_category_bonus_and_rapper_goal(rg):
    g, s = rg.start(2)
    rapper = C.RAPPERZ[s.rappers[1] - C.RAPPER_FIRST]
    assert C.DIFFICULTY[rapper.difficulty] in ("Easy", "Medium", "Hard")
    s.goals, s.cities, s.extra_city = [], [-1, -1], -1
    names = [f"A{a} {C.COLOURS[rapper.colour]} {v}" for a in (2, 3) for v in (1, 2, 3, 4)]
    for i in range(rapper.goal_cards - 1):
        rg.give(s, 1, names[i], to="timeline")
    assert g.end_bonus(s)[1] == rapper.goal_cards - 1  # +1 each, goal not yet met
    rg.give(s, 1, names[rapper.goal_cards - 1], to="timeline")
    assert g.end_bonus(s)[1] == rapper.goal_cards + rapper.goal_plaques


@pytest.mark.rules("RG-SCORE-1", "RG-DECIDE-TIE")
def test_the_winner_has_the_most_plaques_ties_by_cubes_then_fewer_cards(rg):
    g, s = rg.start(3)
    g._gain_plaques(s, 0, 30)
    g._gain_plaques(s, 1, 30)
    g._gain_plaques(s, 2, 29)
    s.cubes, s.cube_supply = [0, 0, 0], 12
    hands = [sum(h) for h in s.hands]
    key = sorted(range(2), key=lambda p: hands[p])
    assert g.winners(s) == ([0, 1] if hands[0] == hands[1] else [key[0]])
    s.cubes, s.cube_supply = [0, 1, 0], 11
    assert g.winners(s) == [1]
    s.phase, s.winners = Phase.OVER, [1]
    assert g.returns(s) == [-1.0, 1.0, -1.0]


@pytest.mark.rules("RG-COMP-2", "RG-DECIDE-PLAQUES")
def test_plaques_change_and_points_owed(rg):
    g, s = rg.start(2)
    g._gain_plaques(s, 0, 32)
    assert s.plaques[0] == [2, 1, 1] and g.points(s, 0) == 32  # Bronze 1, Gold 5, Platinum 25
    g._set_points(s, 0, 28)  # paying 4 makes change from the supply
    assert s.plaques[0] == [3, 0, 1]
    s.supply[0] = 0  # out of Bronze
    s.plaques[1] = [0, 0, 0]
    s.supply[0] = 0
    g._gain_plaques(s, 1, 7)
    assert s.plaques[1] == [0, 1, 0] and s.owed[1] == 2 and g.points(s, 1) == 7
    s.supply[0] = C.PLAQUE_SUPPLY[0] - 3
    rg.check(g, s)


def _beef_rolled(rg, faces, pickups=(0, 0), rappers=None):
    """Seat 0 starts Beef against seat 1 with Album 1's Beef card; `pickups`: the +2 on Beef each holds;
    the dice land on `faces` (starter's, red, target's)."""
    g, s = rg.start(2, rappers=rappers)
    s.turn = s.actor = 0
    s.phase = Phase.PLAY
    for seat, count in enumerate(pickups):
        for _ in range(count):
            s.track_pickups[s.track_pickups.index(C.BEEF_PICK)] = -1
            s.pickups[seat][C.BEEF_PICK] += 1
    k = rg.give(s, 0, "A1 Beef!")
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET)
    assert g.chance_outcomes(s) == [(f, 1 / 6) for f in range(6)]  # a fair die; RG-BEEF-2
    for face in faces:
        g.apply_action(s, face - 1)
    return g, s, k


@pytest.mark.rules("RG-BEEF-1")
def test_the_target_is_counted_to_the_left(rg):
    g, s = rg.start(3)
    p = s.turn
    s.phase = Phase.PLAY
    k = rg.give(s, p, "A1 Beef!")
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET + 1)
    assert (s.starter, s.target) == (p, (p + 2) % 3)


@pytest.mark.rules("RG-PICK-3", "RG-DECIDE-BOOST", "RG-BEEF-2")
def test_two_plus_twos_of_one_side_add_up(rg):
    g, s, k = _beef_rolled(rg, (1, 1, 4), pickups=(2, 0))
    assert s.actor == 0 and s.phase == Phase.BEEF
    g.apply_action(s, A.BOOST)
    assert s.actor == 0 and s.phase == Phase.BEEF  # the target passes by itself; the starter again
    g.apply_action(s, A.BOOST)
    assert s.cubes == [1, 0] and s.timelines[1][k] == 1  # 1 + 4 = 5 beats 4


@pytest.mark.rules("RG-PICK-3", "RG-DECIDE-BOOST")
def test_after_a_boost_the_other_side_answers(rg):
    g, s, k = _beef_rolled(rg, (3, 1, 4), pickups=(2, 1))  # the three +2 on Beef of the box
    assert s.actor == 0
    g.apply_action(s, A.BOOST)  # 5 vs 4
    assert s.actor == 1 and s.phase == Phase.BEEF
    g.apply_action(s, A.BOOST)  # 5 vs 6
    assert s.actor == 0 and s.phase == Phase.BEEF
    g.apply_action(s, A.BOOST)  # 7 vs 6; nobody holds anything more
    assert s.phase != Phase.BEEF and s.cubes == [1, 0] and s.timelines[1][k] == 1


@pytest.mark.rules("RG-PICK-3", "RG-DECIDE-BOOST")
def test_after_the_targets_boost_the_starter_answers_and_passes_end_it(rg):
    g, s, k = _beef_rolled(rg, (3, 1, 4), pickups=(1, 2))
    g.apply_action(s, A.PASS)
    assert s.actor == 1
    g.apply_action(s, A.BOOST)  # 3 vs 6
    assert s.actor == 0 and s.phase == Phase.BEEF
    g.apply_action(s, A.BOOST)  # 5 vs 6
    assert s.actor == 1 and s.phase == Phase.BEEF
    g.apply_action(s, A.PASS)  # then the starter, holding nothing, passes by itself: two in a row
    assert s.phase != Phase.BEEF and s.cubes == [0, 1] and s.pickups[1][C.BEEF_PICK] == 1


@pytest.mark.rules("RG-DECIDE-BOOST")
def test_one_pass_hands_the_window_over_and_two_in_a_row_end_it(rg):
    g, s, k = _beef_rolled(rg, (2, 1, 3), pickups=(1, 1))
    g.apply_action(s, A.PASS)
    assert s.actor == 1 and s.phase == Phase.BEEF  # the target may still boost
    g.apply_action(s, A.PASS)
    assert s.phase != Phase.BEEF and s.cubes == [0, 1] and s.pickups[0][C.BEEF_PICK] == 1


@pytest.mark.rules("RG-DECIDE-BOOST", "RG-PICK-3")
def test_a_target_holding_a_plus_two_is_asked_when_the_starter_holds_none(rg):
    g, s, k = _beef_rolled(rg, (4, 1, 3), pickups=(0, 1))
    assert s.actor == 1 and s.phase == Phase.BEEF
    g.apply_action(s, A.BOOST)  # 4 vs 5
    assert s.cubes == [0, 1] and s.timelines[0][k] == 1


@pytest.mark.rules("RG-RAP-1", "RG-RAP-2", "RG-DECIDE-BOOST")
def test_after_the_starters_reroll_the_target_answers_first(rg):
    reroll = next(i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.REROLL)
    other = next(i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.HAND6)
    g, s, k = _beef_rolled(rg, (1, 2, 5), pickups=(1, 1), rappers=[reroll, other])
    assert s.actor == 0 and g.legal_actions(s) == [A.PASS, A.BOOST, A.ABILITY]
    g.apply_action(s, A.ABILITY)
    assert s.chance == [(Task.DIE, 0), (Task.DIE, 1)]
    g.apply_action(s, 5)
    g.apply_action(s, 0)  # 6 vs 5
    assert s.actor == 1 and s.phase == Phase.BEEF
    g.apply_action(s, A.PASS)
    assert s.actor == 0 and s.phase == Phase.BEEF  # the starter's +2 is still to say
    g.apply_action(s, A.PASS)
    assert s.phase != Phase.BEEF and s.cubes == [1, 0]


@pytest.mark.rules("RG-RAP-1", "RG-RAP-2", "RG-DECIDE-BOOST")
def test_the_targets_reroll_rolls_the_targets_die_only_and_the_starter_answers(rg):
    reroll = next(i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.REROLL)
    other = next(i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.HAND6)
    g, s, k = _beef_rolled(rg, (5, 1, 2), pickups=(1, 1), rappers=[other, reroll])
    assert s.actor == 0
    g.apply_action(s, A.PASS)
    assert s.actor == 1 and A.ABILITY in g.legal_actions(s)
    g.apply_action(s, A.ABILITY)
    assert s.chance == [(Task.DIE, 2)]  # the target's own die
    g.apply_action(s, 5)  # 5 vs 6
    assert s.actor == 0 and s.phase == Phase.BEEF
    g.apply_action(s, A.PASS)
    assert s.actor == 1
    g.apply_action(s, A.PASS)
    assert s.phase != Phase.BEEF and s.cubes == [0, 1] and s.timelines[0][k] == 1


@pytest.mark.rules("RG-BEEF-5")
def test_a_second_beef_won_is_a_second_cube(rg):
    g, s, k = _beef_rolled(rg, (6, 1, 2))
    assert s.cubes == [1, 0]
    s.turn = s.actor = 0
    s.phase = Phase.PLAY
    k = rg.give(s, 0, "A1 Beef!")
    g.apply_action(s, A.PLAY + k)
    g.apply_action(s, A.TARGET)
    for face in (6, 1, 2):
        g.apply_action(s, face - 1)
    assert s.cubes == [2, 0] and s.cube_supply == C.BEEF_CUBES - 2


@pytest.mark.rules("RG-CITY-1", "RG-GOAL-4")
def test_city_icons_add_up_over_kinds_and_a_three_way_tie_pays_3_each(rg):
    g, s = rg.start(3)
    no = rg.KIND["New Orleans"]
    s.goals, s.cities, s.extra_city = [], [-1, -1, no], -1
    rg.give(s, 0, "A2 Y 1", to="timeline")  # 1 + 1 Yellow icons
    rg.give(s, 0, "A2 Y 2", to="timeline")
    rg.give(s, 1, "C1 Y 1", to="timeline")  # a Come Upz: 2 icons
    assert g.icons(s, 0)[1] == g.icons(s, 1)[1] == 2 and g.city_winners(s, no) == [0, 1]
    rg.give(s, 2, "C1 Y 2", to="timeline")
    assert g.city_winners(s, no) == [0, 1, 2]
    assert [parts[1] for parts in g.end_bonus_parts(s)] == [3, 3, 3]  # 10 split, rounded down


@pytest.mark.rules("RG-DATA-GOALZ", "RG-GOAL-1", "RG-GOAL-2", "RG-GOAL-3", "RG-CITY-1", "RG-RAP-4", "RG-RAP-5",
                   "RG-DECIDE-MOST")
def test_each_goal_and_city_goes_to_its_winner_and_the_plaques_add_up_by_source(rg):
    yellow, grey = 5, 0  # MC Y-1 and MC Gy-1: 4 bonus-colour cards for the goal
    g, s = rg.start(2, rappers=[yellow, grey])
    green, grey1, grey2 = rg.KIND["Green City 1"], rg.KIND["Grey City 1"], rg.KIND["Grey City 2"]
    s.cities, s.extra_city = [green, grey1], grey2
    for name in ("A2 Y 1", "A2 Y 2", "A2 Gy 1", "A1 Beef!"):
        rg.give(s, 0, name, to="timeline")
    rg.give(s, 1, "C2 Gy 1", to="timeline")  # 2 Grey icons beat seat 0's 1
    assert g.goal_winners(s, G.TIMELINE) == [0]  # 4 cards to 1
    assert g.goal_winners(s, G.COME_UP) == [1]
    assert g.goal_winners(s, G.PEACE) == [1]  # no Beef card
    assert g.goal_winners(s, G.MONO) == [0]  # 2 Yellow
    assert g.goal_winners(s, G.HOMESLICE) == [1]  # Grey City 1 is seat 1's; nobody wins Green
    assert g.goal_winners(s, G.PLATINUM) == [] and g.goal_winners(s, G.MOGUL) == []  # nobody yet
    s.goals = [G.PLATINUM, G.TIMELINE, G.MONO, G.COME_UP]
    # Goalz, Citiez, Card Category Bonus, Rapper Goal
    assert g.end_bonus_parts(s) == [[20, 0, 2, 0], [10, 20, 1, 0]]


@pytest.mark.rules("RG-GOAL-1")
def test_platinum_stays_with_the_first_seat_to_25(rg):
    g, s = rg.start(2)
    s.goals = sorted(set(s.goals) | {G.PLATINUM})
    g._gain_plaques(s, 0, 25)
    g._gain_plaques(s, 1, 30)
    assert s.goal_won[G.PLATINUM] == 0 and g.goal_winners(s, G.PLATINUM) == [0]


@pytest.mark.rules("RG-GOAL-1", "RG-END-1", "RG-SCORE-1")
def test_end_game_plaques_do_not_win_platinum_and_the_end_scores(rg):
    g, s = rg.start(2)
    s.goals, s.cities, s.extra_city = [G.PLATINUM], [rg.KIND["Grey City 1"], -1], -1
    rg.give(s, 0, "A2 Gy 1", to="timeline")
    g._gain_plaques(s, 0, 20)
    assert g.returns(s) == [0.0, 0.0] and g.scores(s) is None  # nothing before the end
    g._game_over(s)
    assert g.is_terminal(s) and s.goal_won[G.PLATINUM] == -1
    assert g.points(s, 0) >= 30 and s.final == [g.points(s, p) for p in range(2)]
    assert g.scores(s) == [float(x) for x in s.final]
    assert s.winners == [0] and g.returns(s) == [1.0, -1.0]
    assert (s.album, s.track) == (0, C.TRACKS - 1)  # the crossfader stays on Track 5


@pytest.mark.rules("RG-DECIDE-TIE")
def test_held_come_upz_count_as_cards_in_the_tie_break(rg):
    g, s = rg.start(2)
    for p in range(2):
        rg.empty_hand(s, p)
    rg.give(s, 0, "A1 Y 1")
    rg.give(s, 0, "C1 Y 1", to="held")
    rg.give(s, 0, "C1 Y 2", to="held")  # 3 cards
    rg.give(s, 1, "A1 Y 1")
    rg.give(s, 1, "A1 Y 2")  # 2 cards
    assert g.winners(s) == [1]
