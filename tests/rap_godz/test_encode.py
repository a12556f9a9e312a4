"""Rap Godz observations: the fast Frame encoder against a plain numpy one written piece by piece, at
every node of random games; and what a seat may not see."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core.game import CHANCE
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import standing
from d2r_envs.games.rap_godz.encode import LAYOUT, MAJORITY_MAX
from d2r_envs.games.rap_godz.state import Phase

P = C.MAX_PLAYERS


def plain(g, s, me):
    """The observation, piece by piece into named numpy views."""
    n = s.num_players
    out = np.zeros(LAYOUT.size, np.float32)
    v = LAYOUT.views(out)
    rel = lambda p: (p - me) % n  # noqa: E731
    v["seats"][:n] = 1
    v["phase"][s.phase] = 1
    v["album"][s.album] = 1
    v["track"][s.track] = 1
    if s.turn >= 0:
        v["turn"][rel(s.turn)] = 1
    if s.phase != Phase.OVER and not s.chance and s.actor >= 0:
        v["actor"][rel(s.actor)] = 1
    if s.medallion >= 0:
        v["medallion"][rel(s.medallion)] = 1
    v["supply"][:] = s.supply
    v["hand"][:] = list(s.hands[me][: C.NUM_PLAY])
    v["offer"][:] = list(s.offers[me][C.RAPPER_FIRST:])
    for p in range(n):
        r = rel(p)
        v["res"][r] = s.res[p]
        v["upgraded"][r] = [s.upgraded[p] >> i & 1 for i in range(3)]
        v["points"][r] = min(255, g.points(s, p))
        v["plaques"][r] = s.plaques[p]
        v["owed"][r] = min(255, s.owed[p])
        for k in range(C.NUM_PLAY):
            c = s.hands[p][k]
            if c and not C.CARDS[k].come:
                v["hand_albums"][r, C.CARDS[k].deck] += c
            if s.held[p][k]:
                v["held"][r, k - C.COME_FIRST] = s.held[p][k]
            t = s.timelines[p][k]
            if t:
                card = C.CARDS[k]
                v["timeline"][r, 0] += t
                v["timeline"][r, 1] += t if card.come else 0
                v["timeline"][r, 2] += t if card.beef else 0
                if not card.beef:
                    v["colours"][r, card.colour] += t
                    v["icons"][r, card.colour] += t * card.icons
        if s.rappers[p] >= 0:
            v["rapper"][r, s.rappers[p] - C.RAPPER_FIRST] = 1
        if s.cities[p] >= 0:
            v["city"][r, s.cities[p] - C.CITY_FIRST] = 1
        v["used"][r] = s.used[p]
        v["pickups"][r] = s.pickups[p]
        v["cubes"][r] = s.cubes[p]
    for k in g.board_cities(s):
        v["board_cities"][k - C.CITY_FIRST] = 1
    for goal in s.goals:
        v["goals"][goal] = 1
    for goal, p in enumerate(s.goal_won):
        if p >= 0:
            v["goal_won"][goal, rel(p)] = 1
    for j, k in enumerate(s.slots):
        if k >= 0:
            v["slots"][j, k - C.COME_FIRST] = 1
    v["decks"][:] = [d.n for d in s.decks] + [d.n for d in s.come_decks]
    for i, t in enumerate(s.track_pickups):
        if t >= 0:
            v["track_pickups"][i, t] = 1
    v["cube_supply"][0] = s.cube_supply
    if s.beef_card >= 0:
        v["beef_album"][C.CARDS[s.beef_card].deck] = 1
    if s.starter >= 0:
        v["starter"][rel(s.starter)] = 1
        v["target"][rel(s.target)] = 1
    for i, d in enumerate(s.dice):
        if d:
            v["dice"][i, d - 1] = 1
    v["bonus"][:] = s.bonus
    v["spend_left"][0] = s.spend_left
    if s.slot >= 0:
        v["buying"][s.slot] = 1
    rapper = C.RAPPERZ[s.rappers[me] - C.RAPPER_FIRST].colour if s.rappers[me] >= 0 else None
    city = C.CITIEZ[s.cities[me] - C.CITY_FIRST].colour if s.cities[me] >= 0 else None
    for k, card in enumerate(C.CARDS):
        if not card.beef:
            v["card_fit"][k] = [card.colour == rapper, card.colour == city]
        if card.lock:
            v["short"][k] = max(0, card.lock[1] - s.res[me][card.lock[0]])
    for j, k in enumerate(s.slots):
        if k >= 0:
            v["slot_fit"][j] = [*v["card_fit"][k], g.can_play(s, me, k)]
    v["come_cost"][0] = g.come_cost(s, me)
    for k, row in enumerate(standing.gains(g, s, me)):
        v["majority"][k] = [min(MAJORITY_MAX, round(20 * x)) for x in row]
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_fast_encoder_matches_the_plain_one_at_every_node(n):
    g = d2r_envs.make_game("rap_godz", n)
    obs = g.make_observer()
    rng = np.random.default_rng(n)
    views = ("card_fit", "short", "slot_fit", "come_cost", "majority")
    seen = set()  # the views for learning, each non-zero somewhere
    for _ in range(2):
        s = g.new_initial_state()
        while True:
            for me in range(n):
                fast = obs.encode(s, me)
                assert np.array_equal(fast, plain(g, s, me)), (me, g.state_to_string(s))
                assert LAYOUT.box.contains(fast)
                seen.update(k for k in views if LAYOUT.views(fast)[k].any())
            if g.is_terminal(s):
                break
            if g.current_player(s) == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
            else:
                legal = g.legal_actions(s)
                g.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert seen == set(views)


def test_a_hand_is_seen_only_by_its_owner_and_offers_too():
    g = d2r_envs.make_game("rap_godz", 3)
    obs = g.make_observer()
    rng = np.random.default_rng(0)
    s = g.new_initial_state()
    while g.current_player(s) == CHANCE:
        g.apply_action(s, g.sample_chance(s, rng))
    assert s.phase == Phase.RAPPER
    t = g.clone(s)  # another offer for player 1: only player 1 sees the change
    k = next(k for k in range(C.RAPPER_FIRST, C.CITY_FIRST) if t.offers[1][k])
    j = next(j for j in range(C.RAPPER_FIRST, C.CITY_FIRST) if t.rapper_deck[j])
    t.offers[1][k] -= 1
    t.offers[1][j] += 1
    t.rapper_deck.take(j)
    t.rapper_deck.add(k)
    assert np.array_equal(obs.encode(s, 0), obs.encode(t, 0)) and obs.string_from(s, 0) == obs.string_from(t, 0)
    assert not np.array_equal(obs.encode(s, 1), obs.encode(t, 1))
    while g.current_player(s) != 0 or s.phase not in (Phase.GET, Phase.PLAY):
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        else:
            g.apply_action(s, g.legal_actions(s)[0])
    # swap a card of player 1's hand for another of the same Album from the deck
    t = g.clone(s)
    k = next(k for k in C.ALBUM_KINDS[0] if t.hands[1][k])
    j = next(j for j in C.ALBUM_KINDS[0] if t.decks[0][j] and j != k)
    t.hands[1][k] -= 1
    t.hands[1][j] += 1
    t.decks[0].take(j)
    t.decks[0].add(k)
    for me in (0, 2):
        assert np.array_equal(obs.encode(s, me), obs.encode(t, me)) and obs.string_from(s, me) == obs.string_from(t, me)
    assert not np.array_equal(obs.encode(s, 1), obs.encode(t, 1))
    # redeterminised copies: the seat's own view and mask unchanged, the others' hands dealt anew
    for seed in range(5):
        r = g.redeterminise(s, 0, np.random.default_rng(seed))
        assert np.array_equal(obs.encode(r, 0), obs.encode(s, 0)) and g.legal_actions(r) == g.legal_actions(s)
        assert r.hands[0] == s.hands[0]
        for q in (1, 2):  # each hand keeps its count per Album
            assert [sum(r.hands[q][k] for k in C.ALBUM_KINDS[d]) for d in range(3)] == \
                   [sum(s.hands[q][k] for k in C.ALBUM_KINDS[d]) for d in range(3)]


def test_one_observer_across_interleaved_games_and_copies():
    """What the Observer keeps (per-seat rows compared by value, rows kept by stamp) never goes stale: two games
    played side by side, and redeterminised copies, encoded in turn by one Observer."""
    n = 3
    g = d2r_envs.make_game("rap_godz", n)
    obs = g.make_observer()
    rng = np.random.default_rng(7)
    states = [g.new_initial_state(), g.new_initial_state()]
    for step in range(3000):
        s = states[step % 2]
        if g.is_terminal(s):
            break
        for me in range(n):
            assert np.array_equal(obs.encode(s, me), plain(g, s, me))
            r = g.redeterminise(s, me, rng)
            assert np.array_equal(obs.encode(r, me), plain(g, r, me))
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])


def _covered(s, p):
    """What State.record's part p covers (p == num_players: the plaque supply)."""
    if p == s.num_players:
        return tuple(s.supply)
    return (tuple(s.res[p]), s.upgraded[p], tuple(s.plaques[p]), s.owed[p], bytes(s.held[p]), bytes(s.timelines[p]))


def _albums(s, p):
    """What State.albums' mark p covers: seat p's cards of each Album in hand."""
    return tuple(sum(s.hands[p][k] for k in C.ALBUM_KINDS[d]) for d in range(C.ALBUMS))


def _table(s):
    """What State.table's part 0 covers: the set-up."""
    return tuple(s.rappers), tuple(s.cities), s.extra_city, tuple(s.goals)


def _timelines(s):
    """What State.table's part 1 covers: the timelines."""
    return tuple(map(bytes, s.timelines))


def _counters(s):
    """What State.counters' part covers: the rest of the table."""
    return (tuple(s.used), tuple(s.goal_won), tuple(s.track_pickups), tuple(map(tuple, s.pickups)), tuple(s.cubes),
            s.cube_supply)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_same_mark_always_covers_the_same_contents(n):
    """The rules renew State.record / albums / table / counters on every change they cover: over whole games of the
    heuristic and random play, a mark seen twice covers the same contents both times, and the observer
    that keeps the career and table by mark encodes as one that works everything out anew."""
    g = d2r_envs.make_game("rap_godz", n)
    kept, fresh = g.make_observer(), g.make_observer()
    heuristic = make_agent("heuristic", "rap_godz", g)
    rng = np.random.default_rng(100 + n)
    seen: dict = {}  # mark -> the contents it covered when first seen (the marks stay alive here)
    renewed = set()
    for game in range(12):
        s = g.new_initial_state()
        while not g.is_terminal(s):
            for p, mark in enumerate(s.record.parts):
                assert seen.setdefault(mark, _covered(s, p)) == _covered(s, p), (p, g.state_to_string(s))
            for p, mark in enumerate(s.albums.parts):
                assert seen.setdefault(mark, _albums(s, p)) == _albums(s, p), (p, g.state_to_string(s))
            assert seen.setdefault(s.table.parts[0], _table(s)) == _table(s), g.state_to_string(s)
            assert seen.setdefault(s.table.parts[1], _timelines(s)) == _timelines(s), g.state_to_string(s)
            assert seen.setdefault(s.counters.parts[0], _counters(s)) == _counters(s), g.state_to_string(s)
            blank = pickle.loads(pickle.dumps(s))  # fresh marks: the observer works everything out anew
            for me in range(n):
                assert np.array_equal(kept.encode(s, me), fresh.encode(blank, me))
            player = g.current_player(s)
            if player == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
            elif game % 2:
                g.apply_action(s, heuristic.act(g, s, player, rng))
            else:
                legal = g.legal_actions(s)
                g.apply_action(s, legal[int(rng.integers(len(legal)))])
            renewed.update(("record", p) for p, mark in enumerate(s.record.parts) if mark not in seen)
            renewed.update(("albums", p) for p, mark in enumerate(s.albums.parts) if mark not in seen)
            renewed.update(["table"] if s.table.parts[0] not in seen else [])
            renewed.update(["timelines"] if s.table.parts[1] not in seen else [])
            renewed.update(["counters"] if s.counters.parts[0] not in seen else [])
    # every mark was renewed at least once: each seat's, the supply's, the set-up's and the counters'
    assert renewed == ({("record", p) for p in range(n + 1)} | {("albums", p) for p in range(n)}
                       | {"table", "timelines", "counters"})


def test_the_quantized_majority_table_is_combo_gains_rounded() -> None:
    """`standing.quantized` (the encoder's fast path) gives `combo_gains`' numbers, rounded and capped,
    for any timelines and set-up."""
    rng = np.random.default_rng(5)
    c = C.NUM_COLOURS
    for _ in range(3000):
        n = int(rng.integers(2, 5))
        me = int(rng.integers(n))
        cols = [rng.integers(0, 9, c).tolist() for _ in range(n)]
        icons = [[x + int(rng.integers(0, x + 1)) for x in row] for row in cols]
        beef = rng.integers(0, 3, n).tolist()  # the last three columns: all cards, Come Upz, Beef cards
        columns = [bytes(cols[p] + icons[p] + [sum(cols[p]) + beef[p], 0, beef[p]]) for p in range(n)]
        city_colours = rng.integers(0, c, int(rng.integers(2, 6))).tolist()
        goals = rng.choice(C.NUM_GOALZ, int(rng.integers(1, 5)), replace=False).tolist()
        table = standing.combo_gains(icons, cols, city_colours, goals, me)
        want = bytes(min(MAJORITY_MAX, round(20 * x)) for row in table for x in row)
        got = standing.quantized(columns, standing.signature(city_colours, goals), me, 20, MAJORITY_MAX)
        assert bytes(got) == want, (columns, city_colours, goals, me)
