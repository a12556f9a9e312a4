"""The Extravaganza observation: a plain encoder, written piece by piece from the layout's names, must
match the fast one at every node, with the views for learning and without; and each seat sees only
what it may (EX-DECIDE-HIDDEN)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.encode import LAYOUT, LAYOUT_VIEWS, Observer
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza.state import MODULES, PLAYED, SELDOM, SHIFT, Op


def plain(g, s, me):
    """The observation of seat `me` with the views for learning (views=true), entry by entry; without
    them (the default) it is the first LAYOUT.size entries."""
    n = g.n
    v = np.zeros(LAYOUT_VIEWS.size, np.float32)
    o = LAYOUT_VIEWS.views(v)
    rel = lambda q: (q - me) % n  # noqa: E731
    o["modules"][:] = [g.powers, g.desires_on, g.tens_on]
    o["seats"][:n] = 1
    if s.first >= 0:
        o["first"][rel(s.first)] = 1
    if s.turn >= 0:
        o["turn"][rel(s.turn)] = 1
    if not s.over:
        o["op"][s.todo[0] >> SHIFT] = 1
        who = g.current_player(s)
        if who >= 0:
            o["decider"][rel(who)] = 1
    for sp in range(25):
        o["areas"][sp, g.areas[sp]] = 1
        if s.stage[sp] >= 0:
            o["stage"][sp, s.stage[sp]] = 1
    for q in range(n):
        r = rel(q)
        if s.pos[q] >= 0:
            o["queen_at"][r, s.pos[q]] = 1
        if s.queen[q] >= 0:
            o["queen_of"][r, s.queen[q]] = 1
        o["supply"][r] = s.supply[q]
        o["lips"][r] = s.lips[q]
        o["hand_size"][r] = sum(s.hands[q])
        for k in s.stacks[q]:
            o["stacks"][r, k] = 1
        if s.stacks[q]:
            o["top"][r, C.CARD_CATEGORY[s.stacks[q][-1]]] = 1
        for t in s.lyrics[q]:
            o["lyrics"][r, t] = 1
        o["scores"][r] = s.scores[q]
        o["tens"][r] = s.tens[q]
        o["desires"][r] = s.desires[q]
        o["reveal_count"][r] = sum(s.reveal_hands[q])
        for x in s.revealed[q]:
            o["revealed"][r, x] = 1
        o["turns"][r] = s.turns[q]
    o["bag"][:] = list(s.bag.counts)
    o["spent"][:] = s.spent
    o["lip_supply"][0] = s.lip_supply
    o["hand"][:] = list(s.hands[me])
    for j in range(5):
        if s.cats[j] >= 0:
            o["categories"][j, s.cats[j]] = 1
        if s.display[j] >= 0:
            o["display"][s.display[j]] = 1
        o["deck_size"][j] = s.decks[j].n
        if s.desire_face[j] >= 0:
            o["desire_face"][j, s.desire_face[j]] = 1
    o["removed"][:] = list(s.removed)
    for i, t in enumerate(s.song):
        if t >= 0:
            o["song_colour"][i, C.LYRIC_COLOUR[t]] = 1
            o["song_words"][i] = C.LYRIC_STARS[t]
    o["song_next"][s.song_next if s.song_next < g.song_length else C.MAX_SONG] = 1
    o["flag"][g.flag_slot] = 1
    o["end_triggered"][0] = s.end_triggered
    for t in s.claiming:
        o["claiming"][t] = 1
    o["tens_left"][:] = s.tens_left
    o["reveal_hand"][:] = list(s.reveal_hands[me])
    o["moved"][:] = [s.moved, s.passed, min(s.strut, 60)]
    for sp in s.path:
        o["path"][sp] = 1
    if s.landed >= 0:
        o["landed"][s.landed] = 1
    if s.land_colour >= 0:
        o["land_colour"][s.land_colour] = 1
    danced = s.playing if s.playing >= 0 else s.danced
    if danced >= 0:
        o["danced"][danced] = 1
    if s.dance_area >= 0:
        o["dance_area"][s.dance_area] = 1
    for c in range(5):
        o["spent_kinds"][0, c] = (s.spent_actual >> c) & 1
        o["spent_kinds"][1, c] = (s.spent_cards >> c) & 1
    o["turn_points"][:] = [min(x, 255) for x in s.turn_points]
    o["revealed_turn"][0] = s.revealed_turn
    o["payment"][:] = [s.stars, s.paid, s.stage_used, max(0, s.stars - s.paid)]
    if s.half >= 0:
        o["half"][s.half] = 1
    if s.choice >= 0:
        o["choice"][s.choice] = 1
    for k in s.shown:
        o["shown"][k] = 1
    for j in s.shade_picked:
        o["shade_picked"][j] = 1
    for sp in s.bedazzled:
        o["bedazzled"][sp] = 1
    for q in s.oddy_done:
        o["oddy_done"][rel(q)] = 1
    mine = [C.card_colour(k) for k in s.stacks[me]]
    shown = [C.card_colour(k) for k in s.display if k >= 0]
    for j, k in enumerate(s.display):
        if k >= 0:
            o["display_colour"][j, C.card_colour(k)] = 1
            o["display_stars"][j] = C.card_max_stars(k)
            lips = shown.count(C.card_colour(k)) + mine.count(C.card_colour(k))
            if g.powers and s.queen[me] == C.SAVANNAH and lips <= 2:
                lips += 1
            o["draw_lips"][j] = lips
    if not s.over and s.todo[0] >> SHIFT == Op.MOVE and s.turn == me:
        legal = [a - A.SPACE for a in g.legal_actions(s) if A.SPACE <= a < A.SPACE + C.NUM_SPACES]
        for ray in C.rays(s.pos[me]):
            for i, d in enumerate(ray):
                if d in legal:
                    colour = s.stage[d]
                    o["reach"][d] = (1 + [s.stage[sp] for sp in ray[:i]].count(colour)) if colour >= 0 else 0
                    o["toll"][d] = sum(1 for sp in ray[:i] if sp in s.pos)
    if not s.over and s.todo[0] >> SHIFT in (Op.MOVE, Op.DRAW) and s.turn == me:
        rates, pay = _dance_rates(g, s, me), _payable(g, s, me)
        o["dance_rate"][:] = [min(r, 60) for r in rates]
        o["payable"][0] = min(pay, 20)
        for j, k in enumerate(s.display):
            if k >= 0:
                o["draw_points"][j] = min(255, rates[j] * min(pay, C.card_max_stars(k)))
        if s.todo[0] >> SHIFT == Op.DRAW:
            o["draw_gain"][:] = _gains(g, g.clone(s), me)
        else:
            o["landing_gain"][s.pos[me]] = max(_gains(g, g.clone(s), me))
            legal = [a - A.SPACE for a in g.legal_actions(s) if A.SPACE <= a < A.SPACE + C.NUM_SPACES]
            for ray in C.rays(s.pos[me]):
                for i, d in enumerate(ray):
                    if d in legal:
                        o["landing_gain"][d] = max(_gains(g, _landed(g, s, me, d, ray[:i]), me))
    if not s.over and s.turn == me and s.todo[0] >> SHIFT == Op.ELEGANZA:
        o["colour_count"][:] = s.spent
    if not s.over and s.turn == me and s.todo[0] >> SHIFT == Op.FLOORWERK:
        o["colour_count"][:] = [sum(1 for x in s.stage if x == c) for c in range(5)]
    return v


def _landed(g, s, me, d, path):
    """A copy of s after my queen moved to d along `path` (EX-MOVE-1..3): each queen passed paid a
    rhinestone of the colour I hold most (the first such), then the landing rhinestone and the passed
    ones of its colour (Green Screen: and the passed greens) collected; no other step taken."""
    t = g.clone(s)
    for sp in path:
        if sp in s.pos:
            c = max(range(5), key=lambda x: (t.supply[me][x], -x))
            t.supply[me][c] -= 1
            t.supply[s.pos.index(sp)][c] += 1
    colour = s.stage[d]
    if colour >= 0:
        tart = g.powers and s.queen[me] == C.TART
        for sp in [d, *path]:
            if s.stage[sp] == colour or (sp != d and tart and s.stage[sp] == C.GREEN):
                t.stage[sp] = -1
                t.supply[me][colour] += 1
    t.pos[me] = d
    t.moved = len(path) + 1
    t.passed = sum(1 for sp in path if sp in s.pos)
    return t


def _gains(g, t, me):
    """The view draw_gain in state t: per judge, the best of dancing its display card (my hand and
    played cards paying) or a hand card (the drawn card paying too), the last entry without a draw;
    a dance: dance_rate x the stars payable (up to the card's), Tuckingham Palace's colour bonus, up to
    the track's cap of 40."""
    rates = _dance_rates(g, t, me)
    hand = t.hands[me]

    def points(k):  # card k danced, out of my hand
        pay = _payable(g, t, me)
        if not pay:
            return 0
        j = t.cats.index(C.CARD_CATEGORY[k])
        x = rates[j] * min(pay, C.card_max_stars(k))
        if g.powers and t.queen[me] == C.JEN:
            x += len({c for c in range(5) if t.supply[me][c]} | {C.card_colour(y) for y in t.stacks[me]}
                     | {C.card_colour(k)})
        return min(x, 40 - t.scores[me][j])

    def best_of_hand():
        best = 0
        for k in [k for k in range(C.NUM_CARDS) if hand[k]]:
            hand[k] -= 1
            best = max(best, points(k))
            hand[k] += 1
        return best

    out = []
    for k in t.display:
        if k < 0:
            out.append(0)
            continue
        best = points(k)
        hand[k] += 1
        out.append(max(best, best_of_hand()))
        hand[k] -= 1
    return out + [best_of_hand()]


def _dance_rates(g, s, me):
    """The view dance_rate, from the category rules as the README states them (EX-CAT-*)."""
    near = [q for q in range(g.n) if q != me and s.pos[me] >= 0 and s.pos[q] in C.nearby(s.pos[me])]
    stones = [sum(s.supply[q]) for q in range(g.n)]
    stack = [len(s.stacks[q]) for q in range(g.n)]
    hand_stars = sorted([C.card_max_stars(k) for k in range(C.NUM_CARDS) for _ in range(s.hands[me][k])])[::-1]
    display_stars = sorted([C.card_max_stars(k) for k in s.display if k >= 0])[::-1]
    lyric = C.LYRIC_STARS[s.song[s.song_next]] if s.song_next < g.song_length else 0
    around = {s.stage[sp] for sp in C.nearby(s.pos[me]) if s.stage[sp] >= 0} if s.pos[me] >= 0 else set()
    per_category = {
        C.BOOTY: stones[me] + sum(stones[q] for q in near if stones[q] < stones[me]),
        C.RUNWAY: s.moved + 2 * s.passed + s.strut,
        C.ELEGANZA: max(s.spent),
        C.FLOORWERK: max(list(s.stage).count(c) for c in range(5)),
        C.HANDWERK: sum(hand_stars[:3]),
        C.LYRICISM: lyric + len({C.LYRIC_COLOUR[t] for t in s.lyrics[me]}),
        C.SHAWAM: len([sp for sp in range(25) if s.stage[sp] < 0 and sp not in s.pos]),
        C.SHADE: sum(display_stars[:3]),
        C.TUCK: stack[me] + 1 + sum(stack[q] for q in near if stack[q] < stack[me] + 1),
        C.TWIRLS: len(around) + len([c for c in range(5) if s.supply[me][c]]),
    }
    return [per_category[cat] for cat in s.cats]


def _payable(g, s, me):
    """The view payable: same-colour pairs from rhinestones, hand and played cards (EX-DANCE-1..3), Green
    Screen's green rhinestones pairing with anything, Stage Presence one more of its area's colour."""
    items = list(s.supply[me])
    for k in range(C.NUM_CARDS):
        items[C.card_colour(k)] += s.hands[me][k]
    for k in s.stacks[me]:
        items[C.card_colour(k)] += 1
    wild = 0
    if g.powers and s.queen[me] == C.TART:
        wild = s.supply[me][C.GREEN]
        items[C.GREEN] -= wild
    elif g.powers and s.queen[me] == C.KIKI and not s.stage_used and s.pos[me] >= 0:
        items[g.areas[s.pos[me]]] += 1
    best = 0
    for used in range(wild + 1):  # wild items: some make pairs with odd ones, the rest pair among themselves
        odd = sum(x % 2 for x in items)
        best = max(best, sum(x // 2 for x in items) + min(used, odd) + (wild - min(used, odd)) // 2)
    return best


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
    with pytest.raises(ValueError, match="unknown option.*'view'.*allowed options: views"):
        d2r_envs.make("extravaganza", 3, observation={"view": True})


@pytest.mark.parametrize(("n", "level"), [(2, "basic"), (3, "legendary"), (4, "legendary")])
def test_the_fast_encoder_matches_the_plain_one_at_every_node(n, level):
    observer = state_only = None
    count = 0
    seen = set()  # the views for learning, each non-zero somewhere
    for g, s in nodes(n, level, seed=n):
        observer = observer or Observer(g, views=True)
        state_only = state_only or g.make_observer()
        for me in range(n):
            fast, slow = observer.encode(s, me), plain(g, s, me)
            assert np.array_equal(fast, slow), [
                p.name for p in LAYOUT_VIEWS.pieces
                if not np.array_equal(LAYOUT_VIEWS.views(fast)[p.name], LAYOUT_VIEWS.views(slow)[p.name])]
            assert (fast <= LAYOUT_VIEWS.box.high).all()
            assert np.array_equal(state_only.encode(s, me), slow[:LAYOUT.size])
            views = LAYOUT_VIEWS.views(fast)
            seen.update(k for k in _VIEWS if views[k].any())
        count += 1
    assert count > 200
    if not {C.ELEGANZA, C.FLOORWERK} & set(s.cats):  # no colour to choose in this game
        seen.add("colour_count")
    assert seen == set(_VIEWS)


def test_a_redeterminised_copy_encodes_for_every_seat_as_a_fresh_observer_does():
    """redeterminise deals the others' hands and reveal cards anew: an observer that has encoded the
    original encodes the copy for every seat as a fresh one does (the copy's marks are renewed)."""
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


@pytest.mark.rules("EX-DECIDE-HIDDEN")
def test_a_seat_sees_its_own_hand_and_reveal_cards_only():
    g = d2r_envs.make_game("extravaganza", 3, level="legendary")
    observer = Observer(g)
    rng = np.random.default_rng(5)
    checked = 0
    for g, s in nodes(3, "legendary", seed=9):
        if s.over or g.current_player(s) == CHANCE or not any(map(any, s.hands)):
            continue
        for me in range(3):
            t = g.redeterminise(s, me, rng)
            assert np.array_equal(observer.encode(t, me), observer.encode(s, me))
            assert observer.string_from(t, me) == observer.string_from(s, me)
            assert t.hands[me] == s.hands[me] and t.reveal_hands[me] == s.reveal_hands[me]
            for q in range(3):  # sizes kept, each deck its own category's cards
                assert sum(t.hands[q]) == sum(s.hands[q]) and sum(t.reveal_hands[q]) == sum(s.reveal_hands[q])
            for j in range(5):
                assert t.decks[j].n == s.decks[j].n
                assert all(C.CARD_CATEGORY[k] == s.cats[j] for k in t.decks[j].cards)
            v = observer.encode(s, me)
            hand = LAYOUT.views(v)["hand"]
            assert [k for k in range(150) if hand[k]] == [k for k in range(150) if s.hands[me][k]]
            names = observer.string_from(s, me)
            for q in range(3):
                if q != me:
                    assert not any(C.CARD_NAMES[k] in names for k in range(150) if s.hands[q][k] and k not in s.shown
                                   and k not in s.display and all(k not in st for st in s.stacks))
            checked += 1
        if checked > 150:
            break
    assert checked > 150


def test_the_move_and_draw_views_match_the_plain_ones_for_every_queen():
    """landing_gain, reach, toll and draw_gain at every move and draw of Legendary games, until every
    queen has moved and drawn (their powers change what a landing collects and what pays)."""
    seen: set[tuple[int, int]] = set()  # (queen, op) decided
    checked = 0
    pieces = ("landing_gain", "reach", "toll", "draw_gain", "dance_rate", "payable", "draw_points")
    for seed in range(20, 60):
        for n in (2, 4):
            observer = None
            for g, s in nodes(n, "legendary", seed):
                code = s.todo[0] >> SHIFT if not s.over else -1
                if code not in (Op.MOVE, Op.DRAW):
                    continue
                me = s.turn
                observer = observer or Observer(g, views=True)
                fast, slow = LAYOUT_VIEWS.views(observer.encode(s, me)), LAYOUT_VIEWS.views(plain(g, s, me))
                assert all(np.array_equal(fast[k], slow[k]) for k in pieces), [
                    k for k in pieces if not np.array_equal(fast[k], slow[k])]
                seen.add((s.queen[me], code))
                checked += 1
        if len(seen) == 2 * C.NUM_QUEENS and checked >= 1000:
            break
    assert len(seen) == 2 * C.NUM_QUEENS and checked >= 1000


def _covered(s, part):
    """What State.marks' part covers (state.py): PLAYED the stacks; SELDOM the queens, the categories, the
    song and the lyrics held; MODULES the reveal cards played, the 10-tokens, the reveal hands and desires."""
    if part == PLAYED:
        return tuple(map(tuple, s.stacks))
    if part == SELDOM:
        return tuple(s.queen), tuple(s.cats), tuple(s.song), tuple(map(tuple, s.lyrics))
    return (tuple(map(tuple, s.revealed)), tuple(map(tuple, s.tens)), tuple(s.tens_left),
            tuple(map(bytes, s.reveal_hands)), tuple(s.desire_face), tuple(map(tuple, s.desires)))


@pytest.mark.parametrize(("n", "level", "options"),
                         [(2, "basic", {}), (3, "legendary", {}), (4, "legendary", {}), (2, "basic", {"queens": "draft"})])
def test_the_same_mark_always_covers_the_same_contents(n, level, options):
    """The rules renew State.marks' part on every change it covers: over whole games of random play, a
    mark seen twice covers the same contents both times, every part is renewed, and the observer that
    keeps pieces by mark encodes as one that works everything out anew (a pickled copy's fresh marks).
    With drafted queens, the queens change by decision (the draft) rather than by chance."""
    kept = None  # one observer for every state of the three games
    seen: dict = {}  # mark -> the contents it covered when first seen (the marks stay alive here)
    renewed = set()
    for seed in range(3):
        start = True
        for g, s in nodes(n, level, seed=200 + 10 * n + seed, **options):
            kept = kept or g.make_observer()
            if not start:
                renewed.update(part for part, mark in enumerate(s.marks.parts) if mark not in seen)
            start = False
            for part, mark in enumerate(s.marks.parts):
                assert seen.setdefault(mark, _covered(s, part)) == _covered(s, part), (part, g.state_to_string(s))
            blank = pickle.loads(pickle.dumps(s))
            for me in range(n):
                assert np.array_equal(kept.encode(s, me), g.make_observer().encode(blank, me))
    assert renewed == ({PLAYED, SELDOM, MODULES} if level == "legendary" else {PLAYED, SELDOM})


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
    shuffled, each encode as the plain encoder does (a piece kept by a value that two branches can
    share but the piece does not would fail here)."""
    g, states = _branches(n, level, seed=40 + n)
    observer = g.make_observer()
    order = np.random.default_rng(n).permutation(len(states))
    for i in order[:600]:
        s = states[i]
        for me in range(n):
            assert np.array_equal(observer.encode(s, me), plain(g, s, me)[:LAYOUT.size]), (i, me)
    # the same display over a smaller deck (another branch flipped and drew one more card of it)
    s = next(t for t in states if all(d.n >= 2 for d in t.decks) and not g.is_terminal(t))
    t = g.clone(s)
    t.decks[0].take(t.decks[0].cards[0])
    for u in (s, t, s):
        assert np.array_equal(observer.encode(u, 0), plain(g, u, 0)[:LAYOUT.size])
