"""The Extravaganza heuristic: legal moves only, no peeking, and it beats random play; how its tuned
variant plans, and that the planner's move and draw are functions of the observation (the rest of what
a variant must do: tests/agents/test_heuristic_variants.py)."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import Observer
from d2r_envs.games.extravaganza.encode import LAYOUT_VIEWS
from d2r_envs.games.extravaganza.heuristic import Heuristic, Planner, Tuned
from d2r_envs.games.extravaganza.state import Op


def play(n, level, seed, heuristic_seats):
    g = d2r_envs.make_game("extravaganza", n, level=level)
    s = g.new_initial_state()
    rng = np.random.default_rng(seed)
    h = Heuristic()
    while not g.is_terminal(s):
        p = g.current_player(s)
        if p == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        elif p in heuristic_seats:
            a = h.act(g, s, p, rng)
            assert a in g.legal_actions(s)
            g.apply_action(s, a)
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
    return g.returns(s), s


@pytest.mark.parametrize("level", ["basic", "legendary"])
def test_the_heuristic_beats_random_play(level):
    wins = 0
    games = 10
    for seed in range(games):
        seat = seed % 2
        returns, _ = play(2, level, seed, {seat})
        wins += returns[seat] == 1.0
    assert wins >= 8


def test_the_heuristic_acts_the_same_on_what_it_cannot_tell_apart():
    g = d2r_envs.make_game("extravaganza", 3, level="legendary")
    s = g.new_initial_state()
    rng = np.random.default_rng(1)
    h = Heuristic()
    checked = 0
    while not g.is_terminal(s) and checked < 60:
        p = g.current_player(s)
        if p == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
            continue
        twin = g.redeterminise(s, p, np.random.default_rng(checked))
        assert h.act(g, s, p, np.random.default_rng(7)) == h.act(g, twin, p, np.random.default_rng(7))
        checked += 1
        legal = g.legal_actions(s)
        g.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert checked == 60


def test_green_screen_counts_the_greens_she_would_collect(ex):
    """Modern Tart collects the greens she passes (and names a green landing's colour): the move values them."""
    from d2r_envs.games.extravaganza import actions as A
    from d2r_envs.games.extravaganza import cards as C

    g, s = ex.start(2, level="fierce", queens=[C.TART, 1])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a5"))
    ex.place(s, 1, ex.sp("e5"))
    for x, c in (("a4", "green"), ("a3", "green"), ("a2", "orange")):
        ex.put_stone(s, ex.sp(x), ex.col(c))
    ex.put_stone(s, ex.sp("b4"), ex.col("yellow"))
    ex.put_stone(s, ex.sp("c3"), ex.col("yellow"))
    ex.at(g, s, 0)
    h = Heuristic()
    # a2 collects the orange and both greens (3 stones); c3 only the two yellows
    assert h.move_value(g, s, 0, A.SPACE + ex.sp("a2"), False) > h.move_value(g, s, 0, A.SPACE + ex.sp("c3"), False)
    assert h.quick(g, s, 0, g.legal_actions(s)) == A.SPACE + ex.sp("a2")


def test_body_oddy_and_blood_sucker_move_by_the_queens_worth_it(ex):
    """Ella values landing by a queen with a colour she lacks; Anne by a queen whose lyrics she would score."""
    from d2r_envs.games.extravaganza import actions as A
    from d2r_envs.games.extravaganza import cards as C

    h = Heuristic()
    g, s = ex.start(2, level="fierce", queens=[C.ELLA, 1])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a1"))
    ex.place(s, 1, ex.sp("e5"))
    ex.empty_supply(s, 0)
    ex.empty_supply(s, 1)
    ex.give_stones(s, 1, blue=1)
    ex.at(g, s, 0)
    assert h.move_value(g, s, 0, A.SPACE + ex.sp("d4"), False) > h.move_value(g, s, 0, A.SPACE + ex.sp("a5"), False)

    g, s = ex.start(2, level="fierce", queens=[C.ANNE, 1])
    ex.clear_stage(s)
    ex.place(s, 0, ex.sp("a1"))
    ex.place(s, 1, ex.sp("e5"))
    blue3, blue5, blue4 = 2 * 6 + 2, 2 * 6 + 5, 2 * 6 + 4
    s.song[0] = blue3
    s.lyrics = [[], [blue5, blue4]]
    ex.lips(s, 0, 3)
    ex.empty_hand(s, 0)
    for _ in range(4):  # a full hand: no draw to count on
        ex.to_hand(s, 0, ex.card("Booty", 0, "purple"))
    ex.at(g, s, 0)
    assert h.blood_gain(g, s, 0, ex.sp("d4")) == 9 and h.blood_gain(g, s, 0, ex.sp("a5")) == 0
    assert h.quick(g, s, 0, g.legal_actions(s)) == A.SPACE + ex.sp("d4")


def test_booty_pays_with_cards_to_keep_its_rhinestones(ex):
    from d2r_envs.games.extravaganza import actions as A

    g, s = ex.start(2, level="basic")
    ex.empty_supply(s, 0)
    ex.give_stones(s, 0, blue=2, orange=3)
    ex.empty_hand(s, 0)
    k = ex.card("Booty", 0, "purple")
    ex.to_hand(s, 0, k)
    ex.to_hand(s, 0, ex.card("Runway", 0, "blue"))
    ex.at(g, s, 0, Op.DANCE)
    g.apply_action(s, A.DANCE + k)
    h = Heuristic()
    assert h.quick(g, s, 0, g.legal_actions(s)) == A.PAY_CARD + ex.card("Runway", 0, "blue")


def test_the_tuned_heuristic_plays_each_choice_out_to_the_next_turn_only():
    """Its move and draw are valued where the next player's turn starts (or the game ends), not later."""
    ends = []

    class Spy(Tuned):
        def value(self, game, s, seat):
            ends.append((sum(s.turns), s.over, s.turn))
            return super().value(game, s, seat)

    g = d2r_envs.make_game("extravaganza", 3, level="legendary")
    s = g.new_initial_state()
    rng = np.random.default_rng(4)
    spy, planned = Spy(), 0
    while not g.is_terminal(s):
        p = g.current_player(s)
        if p == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
            continue
        ends.clear()
        turns = sum(s.turns)
        a = spy.act(g, s, p, rng)
        if ends:
            planned += 1
            assert s.todo[0].op in (Op.MOVE, Op.DRAW)
            # the next turn started, or the game ended with this one
            assert all((total, turn) == (turns + 1, (p + 1) % 3) if not over else total == turns for total, over, turn in ends)
            assert len(ends) == spy.samples * len(g.legal_actions(s))
        g.apply_action(s, a)
    assert planned > 30


def test_the_planner_moves_and_draws_by_the_views_of_its_observation():
    """At Basic (no powers), its move is worth reach - toll + dance_weight x landing_gain (ties to the
    first legal move), and its draw lip_weight x draw_lips + star_weight x display_stars + dance_weight x
    draw_gain: what the observation shows, nothing more."""
    from d2r_envs.games.extravaganza import actions as A

    g = d2r_envs.make_game("extravaganza", 2, level="basic")
    observer, planner = Observer(g, views=True), Planner()
    checked = {Op.MOVE: 0, Op.DRAW: 0}
    for seed in range(3):
        s = g.new_initial_state()
        rng = np.random.default_rng(seed)
        while not g.is_terminal(s):
            p = g.current_player(s)
            if p == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
                continue
            a = planner.act(g, s, p, rng)
            code = s.todo[0].op
            legal = g.legal_actions(s)
            if code in (Op.MOVE, Op.DRAW) and not any(x >= A.REVEAL for x in legal):
                o = LAYOUT_VIEWS.views(observer.encode(s, p))
                if code == Op.MOVE:
                    here = int(o["queen_at"][0].argmax())

                    def value(x):
                        if x == A.PASS:
                            return planner.dance_weight * o["landing_gain"][here]
                        d = x - A.SPACE
                        return o["reach"][d] - o["toll"][d] + planner.dance_weight * o["landing_gain"][d]
                else:
                    def value(x):
                        if x == A.PASS:
                            return planner.dance_weight * o["draw_gain"][-1]
                        j = x - A.DRAW
                        return (planner.lip_weight * o["draw_lips"][j] + planner.star_weight * o["display_stars"][j]
                                + planner.dance_weight * o["draw_gain"][j])
                assert a == max(legal, key=value)
                checked[code] += 1
            g.apply_action(s, a)
    assert min(checked.values()) > 20
