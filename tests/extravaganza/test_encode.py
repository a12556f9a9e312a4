"""The Extravaganza observation: the fast encoder (encode_fast.py) byte for byte against the spec
(encode.py, a plain encoder written piece by piece from the layout's names) at every node, with the
views for learning and without; and each seat sees only what it may (EX-DECIDE-HIDDEN)."""

from __future__ import annotations


import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza import Observer
from d2r_envs.games.extravaganza import encode as spec
from d2r_envs.games.extravaganza.encode import LAYOUT, LAYOUT_VIEWS
from d2r_envs.games.extravaganza.state import Op


def nodes(n, level, seed, **options):
    g = d2r_envs.make_game("extravaganza", n, level=level, **options)
    s = g.new_initial_state()
    rng = np.random.default_rng(seed)
    while not g.is_terminal(s):
        yield g, s
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
    yield g, s


_VIEWS = ("display_colour", "display_stars", "draw_lips", "reach", "toll", "dance_rate", "payable", "draw_points",
          "landing_gain", "draw_gain", "colour_count")


def test_the_views_come_after_the_state_only_with_the_option():
    assert [p.name for p in LAYOUT_VIEWS.pieces] == [p.name for p in LAYOUT.pieces] + list(_VIEWS)
    g = d2r_envs.make_game("extravaganza", 3)
    assert g.make_observer().layout is LAYOUT and g.make_observer(views=True).layout is LAYOUT_VIEWS
    assert d2r_envs.make("extravaganza", 3).observation_space("player_0")["observation"].shape == (LAYOUT.size,)
    env = d2r_envs.make("extravaganza", 3, observation={"views": True})
    assert env.observation_space("player_0")["observation"].shape == (LAYOUT_VIEWS.size,)
    with pytest.raises(ValueError, match="extravaganza observation: option 'views' must be true or false, got 'yes'"):
        g.make_observer(views="yes")
    with pytest.raises(ValueError, match="unknown option.*'view'.*allowed options: outlook, views"):
        d2r_envs.make("extravaganza", 3, observation={"view": True})


@pytest.mark.parametrize(("n", "level"), [(2, "basic"), (3, "legendary"), (4, "legendary")])
def test_the_fast_encoder_matches_the_spec_at_every_node(n, level):
    observer = state_only = None
    count = 0
    seen = set()  # the views for learning, each non-zero somewhere
    for g, s in nodes(n, level, seed=n):
        observer = observer or Observer(g, views=True)
        state_only = state_only or g.make_observer()
        for me in range(n):
            fast, slow = observer.encode(s, me), spec.encode(g, s, me, views=True)
            assert np.array_equal(fast, slow), [
                p.name for p in LAYOUT_VIEWS.pieces
                if not np.array_equal(LAYOUT_VIEWS.views(fast)[p.name], LAYOUT_VIEWS.views(slow)[p.name])]
            assert (fast <= LAYOUT_VIEWS.box.high).all()
            assert np.array_equal(state_only.encode(s, me), spec.encode(g, s, me))
            views = LAYOUT_VIEWS.views(fast)
            seen.update(k for k in _VIEWS if views[k].any())
        count += 1
    assert count > 200
    if not {C.ELEGANZA, C.FLOORWERK} & set(s.cats):  # no colour to choose in this game
        seen.add("colour_count")
    assert seen == set(_VIEWS)


def test_a_redeterminised_copy_encodes_for_every_seat_as_a_fresh_observer_does():
    """redeterminise deals the others' hands and reveal cards anew: an observer that has encoded the
    original encodes the copy for every seat as a fresh one does."""
    rng = np.random.default_rng(8)
    checked = 0
    for i, (g, s) in enumerate(nodes(3, "legendary", seed=12)):
        if i % 7 or s.over or g.current_player(s) == CHANCE:
            continue
        observer = Observer(g)
        for q in range(3):
            observer.encode(s, q)
        t = g.redeterminise(s, 0, rng)
        for q in range(3):
            assert np.array_equal(observer.encode(t, q), Observer(g).encode(t, q)), (i, q)
        checked += t.reveal_hands[1:] != s.reveal_hands[1:]
    assert checked >= 5


def _seen(g, observer, s, me):
    """What seat `me` sees of `s` as the spec defines it; the Observer must give the same."""
    v = spec.encode(g, s, me)
    assert np.array_equal(observer.encode(s, me), v)
    return v


@pytest.mark.rules("EX-DECIDE-HIDDEN")
def test_a_seat_sees_its_own_hand_and_reveal_cards_only():
    """The spec shows a seat its own hand and reveal cards only (and the Observer gives what the spec says)."""
    g = d2r_envs.make_game("extravaganza", 3, level="legendary")
    observer = Observer(g)
    rng = np.random.default_rng(5)
    checked = 0
    for g, s in nodes(3, "legendary", seed=9):
        if s.over or g.current_player(s) == CHANCE or not any(map(any, s.hands)):
            continue
        for me in range(3):
            t = g.redeterminise(s, me, rng)
            assert np.array_equal(_seen(g, observer, t, me), _seen(g, observer, s, me))
            assert spec.string_from(g, t, me) == spec.string_from(g, s, me)
            assert t.hands[me] == s.hands[me] and t.reveal_hands[me] == s.reveal_hands[me]
            for q in range(3):  # sizes kept, each deck its own category's cards
                assert sum(t.hands[q]) == sum(s.hands[q]) and sum(t.reveal_hands[q]) == sum(s.reveal_hands[q])
            for j in range(5):
                assert t.decks[j].n == s.decks[j].n
                assert all(C.CARD_CATEGORY[k] == s.cats[j] for k in t.decks[j].cards)
            v = _seen(g, observer, s, me)
            hand = LAYOUT.views(v)["hand"]
            assert [k for k in range(150) if hand[k]] == [k for k in range(150) if s.hands[me][k]]
            names = spec.string_from(g, s, me)
            for q in range(3):
                if q != me:
                    assert not any(C.CARD_NAMES[k] in names for k in range(150) if s.hands[q][k] and k not in s.shown
                                   and k not in s.display and all(k not in st for st in s.stacks))
            checked += 1
        if checked > 150:
            break
    assert checked > 150


def test_the_move_and_draw_views_match_the_spec_for_every_queen():
    """landing_gain, reach, toll and draw_gain at every move and draw of Legendary games, until every
    queen has moved and drawn (their powers change what a landing collects and what pays)."""
    seen: set[tuple[int, int]] = set()  # (queen, op) decided
    checked = 0
    pieces = ("landing_gain", "reach", "toll", "draw_gain", "dance_rate", "payable", "draw_points")
    for seed in range(20, 60):
        for n in (2, 4):
            observer = None
            for g, s in nodes(n, "legendary", seed):
                code = s.todo[0].op if not s.over else -1
                if code not in (Op.MOVE, Op.DRAW):
                    continue
                me = s.turn
                observer = observer or Observer(g, views=True)
                fast = LAYOUT_VIEWS.views(observer.encode(s, me))
                slow = LAYOUT_VIEWS.views(spec.encode(g, s, me, views=True))
                assert all(np.array_equal(fast[k], slow[k]) for k in pieces), [
                    k for k in pieces if not np.array_equal(fast[k], slow[k])]
                seen.add((s.queen[me], code))
                checked += 1
        if len(seen) == 2 * C.NUM_QUEENS and checked >= 1000:
            break
    assert len(seen) == 2 * C.NUM_QUEENS and checked >= 1000


@pytest.mark.parametrize(("n", "level", "options"),
                         [(2, "basic", {}), (3, "legendary", {}), (4, "legendary", {}), (2, "basic", {"queens": "draft"})])
def test_an_observer_kept_over_whole_games_encodes_as_a_fresh_one(n, level, options):
    """The observer keeps pieces by copies of the fields they show: over whole games of random play (one
    observer for every state of three games), it encodes every node as a fresh observer does. With
    drafted queens, the queens change by decision (the draft) rather than by chance."""
    kept = None
    for seed in range(3):
        for g, s in nodes(n, level, seed=200 + 10 * n + seed, **options):
            kept = kept or g.make_observer()
            for me in range(n):
                assert np.array_equal(kept.encode(s, me), g.make_observer().encode(s, me))


def _branches(n, level, seed):
    """Clones of every node of a game and of a second branch of it, split off at every 40th node
    and played on with other chance outcomes and choices."""
    out = []
    for g, s in nodes(n, level, seed):
        out.append(g.clone(s))
        if len(out) % 40 == 0 and not g.is_terminal(s):
            rng, t = np.random.default_rng(seed + len(out)), g.clone(s)
            for _ in range(60):
                if g.is_terminal(t):
                    break
                legal = g.legal_actions(t) if g.current_player(t) != CHANCE else None
                g.apply_action(t, g.sample_chance(t, rng) if legal is None else legal[int(rng.integers(len(legal)))])
                out.append(g.clone(t))
    return g, out


@pytest.mark.parametrize(("n", "level"), [(2, "basic"), (4, "legendary")])
def test_one_observer_encodes_states_in_any_order(n, level):
    """The observer keeps pieces by what they were written from: states of two branches of a game,
    shuffled, each encode as the spec does (a piece kept by a value that two branches can
    share but the piece does not would fail here)."""
    g, states = _branches(n, level, seed=40 + n)
    observer = g.make_observer()
    order = np.random.default_rng(n).permutation(len(states))
    for i in order[:600]:
        s = states[i]
        for me in range(n):
            assert np.array_equal(observer.encode(s, me), spec.encode(g, s, me)), (i, me)
    # the same display over a smaller deck (another branch flipped and drew one more card of it)
    s = next(t for t in states if all(d.n >= 2 for d in t.decks) and not g.is_terminal(t))
    t = g.clone(s)
    t.decks[0].take(t.decks[0].cards[0])
    for u in (s, t, s):
        assert np.array_equal(observer.encode(u, 0), spec.encode(g, u, 0))


def test_the_outlook_comes_after_the_views_only_with_both_options():
    from d2r_envs.games.extravaganza.encode import LAYOUT_OUTLOOK
    assert [p.name for p in LAYOUT_OUTLOOK.pieces] == [p.name for p in LAYOUT_VIEWS.pieces] + ["move_outlook",
                                                                                            "draw_outlook"]
    g = d2r_envs.make_game("extravaganza", 2)
    observer = g.make_observer(views=True, outlook=True)
    assert observer.layout is LAYOUT_OUTLOOK and observer.options == {"views": True, "outlook": True}
    with pytest.raises(ValueError, match="option 'outlook' = true needs 'views' = true"):
        g.make_observer(outlook=True)
    with pytest.raises(ValueError, match="option 'outlook' must be true or false"):
        d2r_envs.make("extravaganza", 2, observation={"views": True, "outlook": 1})


@pytest.mark.parametrize(("n", "level"), [(2, "basic"), (4, "legendary")])
def test_the_outlook_is_the_tuned_heuristics_preference_from_what_the_seat_sees(n, level):
    """At my move or draw the outlook shows, per choice, how much the tuned heuristic prefers it on copies
    dealt from a fixed seed (Tuned.weighed, its own choice raised by its guard): the fast encoder writes
    what the spec does, a copy with the hidden cards dealt anew gives the same outlook, and the choice
    the outlook puts first is the one the tuned heuristic plays on those copies."""
    from d2r_envs.games.extravaganza import actions as A, heuristic
    from d2r_envs.games.extravaganza.encode import LAYOUT_OUTLOOK
    rng = np.random.default_rng(3)
    observer, planned, differs = None, 0, 0
    for g, s in nodes(n, level, seed=60 + n):
        observer = observer or Observer(g, views=True, outlook=True)
        if g.current_player(s) == CHANCE or s.over:
            continue
        me = g.current_player(s)
        fast = observer.encode(s, me)
        assert np.array_equal(fast, spec.encode(g, s, me, views=True, outlook=True))
        seen = LAYOUT_OUTLOOK.views(fast)
        outlook = [*seen["move_outlook"], *seen["draw_outlook"]]
        if not any(outlook):
            continue
        planned += 1
        assert outlook == heuristic.outlook(g, g.redeterminise(s, me, rng), me)
        legal = g.legal_actions(s)
        move = s.todo[0].op == Op.MOVE
        at = [(s.pos[me] if move else C.NUM_SPACES + C.NUM_JUDGES) if a == A.PASS else
              (a - A.SPACE if move else C.NUM_SPACES + a - A.DRAW) for a in legal]
        assert sorted(outlook[i] for i in at)[-1] == 255 and sum(1 for x in outlook if x) <= len(legal)
        tuned = heuristic.Tuned()
        played = tuned.plan(g, s, me, legal, np.random.default_rng(heuristic.OUTLOOK_SEED))
        assert outlook[at[legal.index(played)]] == 255
        differs += played != heuristic.Heuristic().quick(g, s, me, legal)
        if planned >= 25:
            break
    assert planned >= 25 and differs >= 1  # some of them where the plan overrules the heuristic's own choice
