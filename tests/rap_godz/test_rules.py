"""Rap Godz rule scenarios: set-up, the turn, Come Upz, playing, resources and Pick Upz."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE, IllegalActionError
from d2r_envs.games.rap_godz import actions as A
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.state import Phase, Task

Ab = C.Ability


def _rapper(ability, colour=0):
    return next(i for i, r in enumerate(C.RAPPERZ) if r.ability == ability and r.colour == colour)


@pytest.mark.rules("RG-SETUP-1", "RG-SETUP-2", "RG-SETUP-3", "RG-SETUP-4", "RG-SETUP-5", "RG-SETUP-6",
                   "RG-SETUP-7", "RG-SETUP-8", "RG-DECIDE-DRAFT", "RG-DECIDE-PICKUPZ", "RG-DATA-TRACK")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(rg, n):
    g = d2r_envs.make_game("rap_godz", n)
    s = g.new_initial_state()
    assert [t for t, _ in s.chance].count(Task.PICKUP) == 9  # the 9 tokens onto the 9 symbols
    rg.settle(g, s)
    assert sorted(s.track_pickups) == [0, 0, 0, 1, 1, 1, 2, 2, 2]  # face up, every symbol filled
    for p in range(n):
        assert sum(s.offers[p][C.RAPPER_FIRST:C.CITY_FIRST]) == 2 and sum(s.offers[p][C.CITY_FIRST:]) == 2
    # the draft: in seat order, a Rapper then a City; the other goes back to its deck
    for p in range(n):
        assert s.phase == Phase.RAPPER and s.actor == p
        legal = g.legal_actions(s)
        assert len(legal) == 2 and all(A.RAPPER <= a < A.CITY for a in legal)
        g.apply_action(s, legal[1])
        assert s.phase == Phase.CITY
        legal = g.legal_actions(s)
        g.apply_action(s, legal[0])
        city = C.CITIEZ[legal[0] - A.CITY]
        assert s.res[p] == list(city.start)  # RG-SETUP-3
        assert not any(s.offers[p])
    assert s.rapper_deck.n == 25 - n and s.city_deck.n == 25 - n
    rg.settle(g, s)
    assert len(g.board_cities(s)) == (3 if n == 2 else n)  # RG-SETUP-4
    assert len(s.goals) == n + 1 and C.Goal.CHAMP in s.goals  # RG-SETUP-5
    assert sum(k >= 0 for k in s.slots) == n + 1 and all(C.CARDS[k].come and C.CARDS[k].deck == 0 for k in s.slots)
    for p in range(n):  # RG-SETUP-7
        assert sum(s.hands[p]) == g.hand_size(s, p)
        assert all(C.CARDS[k].deck == 0 and not C.CARDS[k].come for k in range(C.NUM_PLAY) if s.hands[p][k])
    assert (s.album, s.track) == (0, 0)  # RG-SETUP-8
    rg.check(g, s)


@pytest.mark.rules("RG-SETUP-9")
def test_medallion_to_most_streetz_and_a_die_roll_on_a_tie(rg):
    # Grey City 1 and 2 start 3/2/1 and 3/1/2: a tie on Streetz at 3.
    g = d2r_envs.make_game("rap_godz", 2)
    s = g.new_initial_state()
    rg.settle(g, s)
    for p, city in enumerate(["Grey City 1", "Grey City 2"]):
        g.apply_action(s, g.legal_actions(s)[0])
        k = rg.KIND[city]
        if not s.offers[p][k]:  # swap the City into the offer, from the deck
            other = next(c for c in range(C.CITY_FIRST, C.NUM_KINDS) if s.offers[p][c])
            s.offers[p][other] -= 1
            s.city_deck.add(other)
            s.city_deck.take(k)
            s.offers[p][k] += 1
        g.apply_action(s, A.CITY + k - C.CITY_FIRST)
    assert s.res[0][0] == s.res[1][0] == 3
    while s.chance and s.chance[0][0] != Task.MEDALLION:
        g.apply_action(s, g.chance_outcomes(s)[0][0])
    assert s.chance[0] == (Task.MEDALLION, 0b11)
    assert g.chance_outcomes(s) == [(0, 0.5), (1, 0.5)]
    g.apply_action(s, 1)
    assert s.medallion == 1 and s.turn == 1 and s.phase == Phase.GET


@pytest.mark.rules("RG-TURN-1", "RG-TURN-2", "RG-TURN-5", "RG-PLAY-1")
def test_a_turn_draws_from_the_album_deck_then_plays_and_passes_left(rg):
    g, s = rg.start(3)
    p = s.turn
    assert A.DRAW in g.legal_actions(s)
    before = s.decks[0].n
    g.apply_action(s, A.DRAW)
    assert s.chance == [(Task.DRAW, p)]
    assert g.current_player(s) == CHANCE and g.legal_actions(s) == []  # nobody acts during the draw
    assert all(C.CARDS[k].deck == 0 and not C.CARDS[k].come for k, _ in g.chance_outcomes(s))
    rg.settle(g, s)
    assert s.decks[0].n == before - 1 and s.phase == Phase.PLAY
    k = rg.give(s, p, "A1 Bl 2")
    pts, res = g.points(s, p), list(s.res[p])
    g.apply_action(s, A.PLAY + k)
    card = C.CARDS[k]
    assert s.timelines[p][k] == 1 and g.points(s, p) == pts + card.plaques
    assert s.res[p] == [min(60, a + b) for a, b in zip(res, card.gains)]
    assert s.turn == (p + 1) % 3 and s.phase == Phase.GET  # RG-TURN-1: to the left
    rg.check(g, s)


@pytest.mark.rules("RG-TURN-2", "RG-TURN-3", "RG-TURN-4", "RG-DECIDE-COMEUPZ", "RG-DECIDE-SPEND")
def test_buying_a_come_upz_spends_three_cards_one_at_a_time(rg):
    g, s = rg.start(2)
    p = s.turn
    hand = sum(s.hands[p])
    bought = s.slots[1]
    g.apply_action(s, A.COME_UPZ + 1)
    assert s.phase == Phase.SPEND and s.spend_left == 3
    spent = []
    for _ in range(3):
        legal = g.legal_actions(s)
        assert all(A.SPEND <= a < A.SPEND + C.NUM_PLAY for a in legal)
        spent.append(legal[0] - A.SPEND)
        g.apply_action(s, legal[0])
    assert sum(s.hands[p]) == hand - 3 and sum(s.discard) == 3  # face up, out of the game
    assert s.held[p][bought] == 1  # face up in front of its owner
    assert s.chance == [(Task.COME, 1)]  # replaced at once
    rg.settle(g, s)
    assert s.slots[1] >= 0 and s.phase == Phase.PLAY
    legal = g.legal_actions(s)
    assert A.DRAW not in legal and not any(A.COME_UPZ <= a < A.SPEND for a in legal)  # never both
    assert A.PLAY + bought in legal  # the Come Upz may be played at once
    s.track_pickups[s.track_pickups.index(C.CARD_PICK)] = -1  # as if collected
    s.pickups[p][C.CARD_PICK] = 1
    assert A.CARD_PICKUP in g.legal_actions(s)  # a +1 Card Pick Upz still draws
    g.apply_action(s, A.CARD_PICKUP)
    rg.settle(g, s)
    assert sum(s.hands[p]) == hand - 2
    rg.check(g, s)


@pytest.mark.rules("RG-TURN-2")
def test_a_come_upz_needs_three_cards_in_hand(rg):
    g, s = rg.start(2)
    p = s.turn
    rg.empty_hand(s, p)
    rg.give(s, p, "A1 Y 1")
    rg.give(s, p, "A1 Y 1")
    assert g.legal_actions(s)[:1] == [A.DRAW] and not any(A.COME_UPZ <= a < A.SPEND for a in g.legal_actions(s))
    rg.give(s, p, "A1 Y 2")
    assert A.COME_UPZ in g.legal_actions(s)


@pytest.mark.rules("RG-PLAY-2", "RG-DECIDE-PASS")
def test_a_locked_card_needs_its_resource_and_pass_only_when_nothing_plays(rg):
    g, s = rg.start(2)
    p = s.turn
    rg.empty_hand(s, p)
    k = rg.give(s, p, "A1 Bl 4")  # Blue variant 4: lock on Streetz ((colour 4 + 2) % 3) at 5
    assert C.CARDS[k].lock == (0, 5)
    g.apply_action(s, A.DRAW)
    rg.settle(g, s)
    rg.empty_hand(s, p)  # keep only the locked card in hand
    rg.give(s, p, "A1 Bl 4")
    s.res[p][0] = 4
    assert g.legal_actions(s) == [A.PASS]
    before = g.clone(s)
    with pytest.raises(IllegalActionError):
        g.apply_action(s, A.PLAY + k)
    assert s == before
    s.res[p][0] = 5
    assert A.PLAY + k in g.legal_actions(s) and A.PASS not in g.legal_actions(s)
    s.res[p][0] = 4
    g.apply_action(s, A.PASS)
    assert s.turn != p and s.turns[p] == 1 and s.hands[p][k] == 1


@pytest.mark.rules("RG-DECIDE-EMPTY", "RG-DECIDE-PASS")
def test_an_empty_deck_is_not_drawn_from(rg):
    g, s = rg.start(2)
    p = s.turn
    deck = s.decks[0]
    rg.empty_hand(s, p)
    s.discard[:] = bytes(a + b for a, b in zip(s.discard, deck.counts))  # set the deck aside (face up)
    deck.refill(bytes(len(deck.counts)))
    assert A.DRAW not in g.legal_actions(s)  # nothing to get: the get is skipped
    s.discard[rg.KIND["A1 Y 1"]] -= 1
    s.hands[p][rg.KIND["A1 Y 1"]] += 1
    g._settle(s)
    assert s.phase == Phase.PLAY and g.legal_actions(s) == [A.PLAY + rg.KIND["A1 Y 1"]]


@pytest.mark.rules("RG-RES-1", "RG-RES-2", "RG-DECIDE-UPGRADE")
def test_upgrade_cubes_at_30_and_only_two(rg):
    g, s = rg.start(2)
    p = s.turn
    assert len(s.res[p]) == 3 and C.RESOURCES == ("Streetz", "Skillz", "Swag")
    s.res[p] = [28, 29, 29]
    g._gain_res(s, p, 0, 5)
    assert s.res[p][0] == 33 and s.upgraded[p] == 1
    g._gain_res(s, p, 1, 1)
    assert s.res[p][1] == 30 and s.upgraded[p] == 3
    g._gain_res(s, p, 2, 5)  # no Upgrade cube left: stops at 30
    assert s.res[p][2] == 30 and s.upgraded[p] == 3
    g._gain_res(s, p, 0, 40)
    assert s.res[p][0] == 60
    s.res[p][0] = 10  # the Upgrade stays on
    g._gain_res(s, p, 0, 25)
    assert s.res[p][0] == 35
    rg.check(g, s)


@pytest.mark.rules("RG-PICK-1", "RG-PICK-2", "RG-DECIDE-PICKUPZ")
def test_pick_upz_collected_on_reaching_and_used_on_the_turn(rg):
    g, s = rg.start(2)
    p = s.turn
    s.res[p] = [3, 2, 1]
    s.track_pickups[:3] = [C.RES_PICK, C.CARD_PICK, C.BEEF_PICK]  # Streetz 5, 12, 20
    s.track_pickups[3:] = [C.RES_PICK, C.CARD_PICK, C.BEEF_PICK] * 2
    g._gain_res(s, p, 0, 10)  # passes both symbols
    assert s.pickups[p][C.RES_PICK] == 1 and s.pickups[p][C.CARD_PICK] == 1
    assert s.track_pickups[0] == s.track_pickups[1] == -1
    q = 1 - p
    s.res[q] = [3, 2, 1]
    g._gain_res(s, q, 0, 10)  # gone: the first cube took them
    assert sum(s.pickups[q]) == 0
    legal = g.legal_actions(s)
    assert A.CARD_PICKUP in legal and A.RES_PICKUP + 2 in legal
    g.apply_action(s, A.RES_PICKUP + 2)
    assert s.res[p][2] == 4 and s.pickups_used[C.RES_PICK] == 1
    assert s.phase == Phase.GET  # still to get a card
    hand = sum(s.hands[p])
    g.apply_action(s, A.CARD_PICKUP)
    rg.settle(g, s)
    assert sum(s.hands[p]) == hand + 1 and s.phase == Phase.GET
    g.apply_action(s, A.DRAW)  # and the normal draw too
    rg.settle(g, s)
    assert sum(s.hands[p]) == hand + 2
    rg.check(g, s)


@pytest.mark.rules("RG-PICK-1", "RG-DECIDE-PICKUPZ")
def test_a_pick_upz_is_taken_by_the_cube_that_reaches_its_symbol_not_by_one_that_starts_on_it(rg):
    g, s = rg.start(2)
    p = s.turn
    s.res[p] = [3, 5, 1]  # a City may start a resource on a symbol (Skillz 5) without taking its token
    s.track_pickups[:] = [C.RES_PICK, C.CARD_PICK, C.BEEF_PICK, C.BEEF_PICK, C.CARD_PICK, C.RES_PICK,
                          C.RES_PICK, C.CARD_PICK, C.BEEF_PICK]  # three of each type, as in the box
    g._gain_res(s, p, 0, 2)  # Streetz 3 -> 5: onto the symbol
    assert s.pickups[p] == [0, 1, 0] and s.track_pickups[0] == -1
    g._gain_res(s, p, 1, 1)  # Skillz 5 -> 6: off it
    assert s.pickups[p] == [0, 1, 0] and s.track_pickups[3] == C.BEEF_PICK
    g._gain_res(s, p, 1, 6)  # Skillz 6 -> 12: onto the next
    assert s.pickups[p] == [1, 1, 0] and s.track_pickups[4] == -1
    rg.check(g, s)


@pytest.mark.rules("RG-GOAL-1")
def test_mogul_goes_to_the_first_to_reach_30_in_a_resource(rg):
    g, s = rg.start(2)
    if C.Goal.MOGUL not in s.goals:
        s.goals = sorted(s.goals + [C.Goal.MOGUL])
    s.res = [[20, 29, 10], [28, 10, 10]]
    g._gain_res(s, 1, 0, 1)
    assert s.goal_won[C.Goal.MOGUL] == -1
    g._gain_res(s, 0, 1, 1)  # exactly 30
    assert s.goal_won[C.Goal.MOGUL] == 0
    g._gain_res(s, 1, 0, 5)  # later and higher: still the first's
    assert s.goal_won[C.Goal.MOGUL] == 0 and g.goal_winners(s, C.Goal.MOGUL) == [0]


@pytest.mark.rules("RG-RAP-1", "RG-RAP-2", "RG-TURN-2")
def test_the_discount_buys_one_come_upz_for_two_cards_then_the_price_is_three(rg):
    g, s = rg.start(2, rappers=[_rapper(Ab.DISCOUNT, 0), _rapper(Ab.EXTRA_DRAW, 1)])
    p = next(q for q in range(2) if g.ability(s, q) == Ab.DISCOUNT)
    s.turn = s.actor = p
    s.phase = Phase.GET
    hand = sum(s.hands[p])
    g.apply_action(s, A.COME_UPZ)
    assert s.phase == Phase.SPEND and s.spend_left == 2 and s.used[p]
    for _ in range(2):
        g.apply_action(s, g.legal_actions(s)[0])
    rg.settle(g, s)
    assert sum(s.hands[p]) == hand - 2 and s.phase == Phase.PLAY
    assert g.come_cost(s, p) == 3  # once per Album
    rg.check(g, s)


@pytest.mark.rules("RG-RAP-1", "RG-RAP-2", "RG-ALBUM-1")
def test_rapper_abilities(rg):
    rappers = [_rapper(Ab.EXTRA_DRAW, 1), _rapper(Ab.DISCOUNT, 0)]
    g, s = rg.start(2, rappers=rappers)
    me = next(p for p in range(2) if g.ability(s, p) == Ab.EXTRA_DRAW)
    other = 1 - me
    assert g.come_cost(s, other) == 2 and g.come_cost(s, me) == 3
    s.used[other] = True  # the discount is once per Album
    assert g.come_cost(s, other) == 3
    s.used[other] = False
    s.turn = s.actor = me
    s.phase = Phase.GET
    hand = sum(s.hands[me])
    assert A.ABILITY in g.legal_actions(s)
    g.apply_action(s, A.ABILITY)
    rg.settle(g, s)
    assert sum(s.hands[me]) == hand + 1 and s.used[me] and A.ABILITY not in g.legal_actions(s)
    g._new_album(s)  # refreshed at the next Album
    assert s.used == [False, False]
    # hand size 6 and the colour boost
    g2, s2 = rg.start(2, rappers=[_rapper(Ab.HAND6, 0), _rapper(Ab.BOOST, 1)])
    assert [sum(h) for h in s2.hands] == [6, 5]  # the hand-size Rapper's seat holds 6
    booster = next(p for p in range(2) if g2.ability(s2, p) == Ab.BOOST)
    s2.turn = s2.actor = booster
    s2.phase = Phase.PLAY
    k = rg.give(s2, booster, "A1 Y 2")  # Yellow: the boost colour; gains +1 Swag (colour 1 + 1)
    res = list(s2.res[booster])
    g2.apply_action(s2, A.PLAY + k)
    boost = C.RAPPERZ[s2.rappers[booster] - C.RAPPER_FIRST].boost_res
    expected = [a + b for a, b in zip(res, C.CARDS[k].gains)]
    expected[boost] += 1
    assert s2.res[booster] == expected


@pytest.mark.rules("RG-SETUP-5", "RG-DATA-GOALZ")
@pytest.mark.parametrize("n", [2, 4])
def test_the_goalz_in_play_are_distinct_and_the_champ_is_not_drawn_again(rg, n):
    g, s = rg.start(n)
    assert len(set(s.goals)) == len(s.goals) == n + 1 and C.Goal.CHAMP in s.goals
    assert s.goal_deck.n + len(s.goals) == C.NUM_GOALZ  # one of each Goal in the box
    assert all(s.goal_deck[k] == 0 for k in s.goals)


@pytest.mark.rules("RG-SETUP-9")
def test_the_medallion_die_roll_is_among_the_tied_only_and_each_can_win(rg):
    g, s = rg.start(3)
    s.res[0][0], s.res[1][0], s.res[2][0] = 3, 1, 3  # seats 0 and 2 tie on Streetz
    g._medallion(s, 0)
    assert g.current_player(s) == CHANCE and g.legal_actions(s) == []
    assert g.chance_outcomes(s) == [(0, 0.5), (2, 0.5)]

    class Roll:  # a die roll that lands in the upper half
        def random(self):
            return 0.75

    assert g.sample_chance(s, Roll()) == 2
    g.apply_action(s, 2)
    assert s.medallion == 2 and s.turn == 2 and s.phase == Phase.GET


@pytest.mark.rules("RG-TURN-5", "RG-ALBUM-3", "RG-ALBUM-4")
def test_the_games_own_chance_loop_draws_from_the_current_album(rg):
    g, s = rg.start(2)
    p = s.turn
    hand, deck = sum(s.hands[p]), s.decks[0].n
    g.apply_action(s, A.DRAW)
    assert g.current_player(s) == CHANCE and g.legal_actions(s) == []  # nobody acts while a card is drawn
    g.resolve_chance(s, np.random.default_rng(1))
    assert sum(s.hands[p]) == hand + 1 and s.decks[0].n == deck - 1 and s.phase == Phase.PLAY
    assert all(C.CARDS[k].deck == 0 for k in range(C.NUM_PLAY) if s.hands[p][k])
    s.res = [[1, 7, 1], [1, 2, 1]]  # seat 0 holds the most Skillz
    hands = [sum(h) for h in s.hands]
    g._new_album(s)
    g.resolve_chance(s, np.random.default_rng(2))
    assert [sum(h) for h in s.hands] == [max(hands[q], g.hand_size(s, q)) for q in range(2)]
    assert all(C.CARDS[k].deck == 1 for k in s.slots)
    assert s.medallion == 0 and s.turn == 0 and s.phase == Phase.GET


@pytest.mark.rules("RG-TURN-5", "RG-SETUP-1", "RG-SETUP-2", "RG-SETUP-9", "RG-BEEF-2")
@pytest.mark.parametrize("n", [2, 3])
def test_the_games_own_chance_loop_plays_the_same_game_as_one_outcome_at_a_time(n):
    """resolve_chance and sample_chance + apply_action, on the same random numbers, make the same game."""
    g = d2r_envs.make_game("rap_godz", n)
    fast, slow = g.new_initial_state(), g.new_initial_state()
    rng_fast, rng_slow, pick = np.random.default_rng(n), np.random.default_rng(n), np.random.default_rng(7)
    while not g.is_terminal(slow):
        if g.current_player(slow) == CHANCE:
            while g.current_player(slow) == CHANCE:
                g.apply_action(slow, g.sample_chance(slow, rng_slow))
            g.resolve_chance(fast, rng_fast)
            assert fast == slow
            continue
        legal = g.legal_actions(slow)
        a = legal[int(pick.integers(len(legal)))]
        g.apply_action(slow, a)
        g.apply_action(fast, a)
    assert g.is_terminal(fast) and fast.final == slow.final


@pytest.mark.rules("RG-PLAY-2")
def test_can_play_reads_the_lock(rg):
    g, s = rg.start(2)
    p = s.turn
    k = rg.KIND["A1 Bl 4"]  # lock on Streetz at 5
    s.res[p][0] = 4
    assert not g.can_play(s, p, k)
    s.res[p][0] = 5
    assert g.can_play(s, p, k)
    assert g.can_play(s, p, rg.KIND["A1 Bl 1"])  # no lock


@pytest.mark.rules("RG-RES-2", "RG-DECIDE-UPGRADE", "RG-PICK-2")
def test_the_two_upgrade_cubes_go_to_the_first_two_tracks_to_reach_30(rg):
    g, s = rg.start(2)
    p = s.turn
    start = list(s.res[p])
    g._gain_res(s, p, 1, 60)  # Skillz first: an Upgrade cube, on to 60
    assert s.res[p][1] == 60
    g._gain_res(s, p, 2, 30)  # Swag: the second
    assert s.res[p][2] == start[2] + 30
    g._gain_res(s, p, 0, 40)  # Streetz: none left, it stops at 30
    assert s.res[p][0] == 30
    assert s.pickups[p][C.RES_PICK] > 0  # collected on the way
    # +3 Resources goes only where there is room: not on a full 30 (no Upgrade) nor on 60
    res_moves = [a for a in g.legal_actions(s) if A.RES_PICKUP <= a < A.RES_PICKUP + C.NUM_RES]
    assert res_moves == [A.RES_PICKUP + 2]
    g._gain_res(s, p, 2, 5)  # an upgraded Swag goes past 30
    assert s.res[p][2] == start[2] + 35


def _album_deck_down_to(s, cards):
    """Set all but `cards` cards of the current Album deck aside (face up, out of the game)."""
    deck = s.decks[s.album]
    counts = bytearray(deck.counts)
    keep = bytearray(len(counts))
    for k in range(len(counts)):
        while counts[k] and sum(keep) < cards:
            counts[k] -= 1
            keep[k] += 1
    s.discard[:] = bytes(a + b for a, b in zip(s.discard, counts))
    deck.refill(keep)


@pytest.mark.rules("RG-DECIDE-EMPTY", "RG-PICK-2", "RG-RAP-1", "RG-TURN-3")
def test_the_last_card_of_the_album_can_be_drawn_by_ability_or_pick_upz_and_then_nothing_draws(rg):
    g, s = rg.start(2, rappers=[_rapper(Ab.EXTRA_DRAW, 1), _rapper(Ab.DISCOUNT, 0)])
    p = 0
    s.turn = s.actor = p
    s.phase = Phase.GET
    s.track_pickups[s.track_pickups.index(C.CARD_PICK)] = -1
    s.pickups[p][C.CARD_PICK] = 1
    _album_deck_down_to(s, 1)
    legal = g.legal_actions(s)
    assert A.DRAW in legal and A.CARD_PICKUP in legal and A.ABILITY in legal
    hand = sum(s.hands[p])
    g.apply_action(s, A.ABILITY)
    rg.settle(g, s)
    assert sum(s.hands[p]) == hand + 1 and s.decks[0].n == 0  # the last card drawn
    legal = g.legal_actions(s)
    assert A.DRAW not in legal and A.CARD_PICKUP not in legal


@pytest.mark.rules("RG-DECIDE-EMPTY", "RG-ALBUM-3")
def test_a_draw_up_the_next_album_deck_cannot_make_is_dropped(rg):
    g, s = rg.start(2)
    s.res = [[1, 1, 1], [1, 6, 1]]  # seat 1 holds the most Skillz
    s.album = 1  # as if the deck of Album 2 were down to 3 cards
    _album_deck_down_to(s, 3)
    s.album = 0
    for p in range(2):
        rg.empty_hand(s, p)
    g._new_album(s)
    rg.settle(g, s)
    assert s.decks[1].n == 0 and sum(sum(h) for h in s.hands) == 3
    assert s.medallion == 1 and s.turn == 1  # and the Album goes on


@pytest.mark.rules("RG-TURN-4", "RG-DECIDE-EMPTY")
def test_a_come_upz_slot_stays_empty_when_its_deck_is_out(rg):
    g, s = rg.start(2)
    p = s.turn
    deck = s.come_decks[0]
    s.gone[:] = bytes(a + b for a, b in zip(s.gone, deck.counts))  # the rest of the deck set aside
    deck.refill(bytes(len(deck.counts)))
    g.apply_action(s, A.COME_UPZ + 0)
    for _ in range(3):
        g.apply_action(s, g.legal_actions(s)[0])
    assert g.current_player(s) == p and s.phase == Phase.PLAY
    assert s.slots[0] == -1 and sum(k >= 0 for k in s.slots) == 2
    s.phase = Phase.GET
    assert A.COME_UPZ + 0 not in g.legal_actions(s) and A.COME_UPZ + 1 in g.legal_actions(s)


@pytest.mark.rules("RG-DECIDE-COMEUPZ", "RG-RAP-2")
def test_a_second_copy_of_a_come_upz_is_held_too_and_full_price_keeps_the_extra_draw(rg):
    g, s = rg.start(2, rappers=[_rapper(Ab.EXTRA_DRAW, 1), _rapper(Ab.DISCOUNT, 0)])
    p = 0
    s.turn = s.actor = p
    s.phase = Phase.GET
    j = next(j for j, k in enumerate(s.slots) if s.come_decks[0][k])  # a slot whose kind has a copy left
    k = s.slots[j]
    rg.take(s, k)
    s.held[p][k] += 1  # p already holds the other copy
    g.apply_action(s, A.COME_UPZ + j)
    assert s.spend_left == 3
    for _ in range(3):
        g.apply_action(s, g.legal_actions(s)[0])
    rg.settle(g, s)
    assert s.held[p][k] == 2
    assert not s.used[p] and A.ABILITY in g.legal_actions(s)  # a full-price buy leaves the extra draw
    rg.check(g, s)


@pytest.mark.rules("RG-RAP-1")
def test_the_colour_boost_is_for_its_rapper_and_its_colour_only(rg):
    booster, other = _rapper(Ab.BOOST, 1), _rapper(Ab.HAND6, 1)  # both Yellow
    g, s = rg.start(2, rappers=[booster, other])
    boost = C.RAPPERZ[booster].boost_res
    for p, name, extra in [(0, "A1 Gn 1", 0), (1, "A1 Y 1", 0), (0, "A1 Y 2", 1)]:
        s.turn = s.actor = p
        s.phase = Phase.PLAY
        k = rg.give(s, p, name)
        res = list(s.res[p])
        g.apply_action(s, A.PLAY + k)
        expected = [a + b for a, b in zip(res, C.CARDS[k].gains)]
        expected[boost] += extra if p == 0 else 0
        assert s.res[p] == expected, (name, p)
