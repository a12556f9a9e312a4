"""Rap Godz observations: the fast encoder (encode_fast.py) byte for byte against the spec (encode.py) at
every node of random games; and what a seat may not see."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core.game import CHANCE
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import standing
from d2r_envs.games.rap_godz import encode as spec
from d2r_envs.games.rap_godz.encode import LAYOUT, MAJORITY_MAX
from d2r_envs.games.rap_godz.state import Phase


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_fast_encoder_matches_the_spec_at_every_node(n, random_nodes):
    g = d2r_envs.make_game("rap_godz", n)
    obs = g.make_observer()
    rng = np.random.default_rng(n)
    views = ("card_fit", "short", "slot_fit", "come_cost", "majority")
    seen = set()  # the views for learning, each non-zero somewhere
    for s in random_nodes(g, rng, games=2):
        for me in range(n):
            fast = obs.encode(s, me)
            assert np.array_equal(fast, spec.encode(g, s, me)), (me, g.state_to_string(s))
            assert LAYOUT.box.contains(fast)
            seen.update(k for k in views if LAYOUT.views(fast)[k].any())
    assert seen == set(views)


def _seen(g, obs, s, me):
    """What seat `me` sees of `s` as the spec defines it; the Observer must give the same."""
    v = spec.encode(g, s, me)
    assert np.array_equal(obs.encode(s, me), v)
    return v


def test_a_hand_is_seen_only_by_its_owner_and_offers_too():
    """The spec shows a seat its own hand and offer only (and the Observer gives what the spec says)."""
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
    assert np.array_equal(_seen(g, obs, s, 0), _seen(g, obs, t, 0))
    assert spec.string_from(g, s, 0) == spec.string_from(g, t, 0)
    assert not np.array_equal(_seen(g, obs, s, 1), _seen(g, obs, t, 1))
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
        assert np.array_equal(_seen(g, obs, s, me), _seen(g, obs, t, me))
        assert spec.string_from(g, s, me) == spec.string_from(g, t, me)
    assert not np.array_equal(_seen(g, obs, s, 1), _seen(g, obs, t, 1))
    # redeterminised copies: the seat's own view and mask unchanged, the others' hands dealt anew
    for seed in range(5):
        r = g.redeterminise(s, 0, np.random.default_rng(seed))
        assert np.array_equal(_seen(g, obs, r, 0), _seen(g, obs, s, 0)) and g.legal_actions(r) == g.legal_actions(s)
        assert r.hands[0] == s.hands[0]
        for q in (1, 2):  # each hand keeps its count per Album
            assert [sum(r.hands[q][k] for k in C.ALBUM_KINDS[d]) for d in range(3)] == \
                   [sum(s.hands[q][k] for k in C.ALBUM_KINDS[d]) for d in range(3)]


def test_one_observer_across_interleaved_games_and_copies():
    """What the Observer keeps (rows kept while the fields they come from compare equal) never goes stale: two games
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
            assert np.array_equal(obs.encode(s, me), spec.encode(g, s, me))
            r = g.redeterminise(s, me, rng)
            assert np.array_equal(obs.encode(r, me), spec.encode(g, r, me))
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_an_observer_that_keeps_rows_encodes_as_a_fresh_one(n):
    """Over whole games of the heuristic and random play, the observer that keeps what it wrote and
    compares the fields with its copies encodes as a fresh observer at every node, the state changed in
    place between calls."""
    g = d2r_envs.make_game("rap_godz", n)
    kept = g.make_observer()
    heuristic = make_agent("heuristic", "rap_godz", g)
    rng = np.random.default_rng(100 + n)
    for game in range(6):
        s = g.new_initial_state()
        while not g.is_terminal(s):
            for me in range(n):
                assert np.array_equal(kept.encode(s, me), g.make_observer().encode(s, me))
            player = g.current_player(s)
            if player == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
            elif game % 2:
                g.apply_action(s, heuristic.act(g, s, player, rng))
            else:
                legal = g.legal_actions(s)
                g.apply_action(s, legal[int(rng.integers(len(legal)))])


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


def test_the_outlook_comes_after_the_state_only_with_its_option():
    from d2r_envs.games.rap_godz.encode import LAYOUT_OUTLOOK
    assert [p.name for p in LAYOUT_OUTLOOK.pieces] == [p.name for p in LAYOUT.pieces] + ["outlook"]
    g = d2r_envs.make_game("rap_godz", 2)
    assert g.make_observer().layout is LAYOUT and g.make_observer().options == {"outlook": False}
    observer = g.make_observer(outlook=True)
    assert observer.layout is LAYOUT_OUTLOOK and observer.options == {"outlook": True}
    with pytest.raises(ValueError, match="option 'outlook' must be true or false"):
        d2r_envs.make("rap_godz", 2, observation={"outlook": 1})


@pytest.mark.parametrize("n", [2, 4])
def test_the_outlook_is_the_tuned_heuristics_preference_from_what_the_seat_sees(n):
    """Deciding, the outlook shows per action how much the tuned heuristic prefers it (Tuned.weighed):
    the fast encoder writes what the spec does, at every node and for every seat; only the decider's is
    not all 0; it is 0 off the legal actions, 255 at the tuned heuristic's own choice and at no action
    worth an eighth of a point less; a copy with the hidden cards dealt anew gives the same outlook."""
    from d2r_envs.games.rap_godz import actions as A, heuristic
    from d2r_envs.games.rap_godz.encode import LAYOUT_OUTLOOK
    g = d2r_envs.make_game("rap_godz", n)
    observer = g.make_observer(outlook=True)
    tuned = make_agent("heuristic:tuned", "rap_godz", g)
    rng = np.random.default_rng(40 + n)
    weighed = {ph: 0 for ph in (Phase.GET, Phase.PLAY, Phase.SPEND, Phase.TARGET)}
    graded = 0  # decisions where the outlook ranks three or more actions apart
    s = g.new_initial_state()
    while not g.is_terminal(s):
        player = g.current_player(s)
        for me in range(n):
            fast = observer.encode(s, me)
            assert np.array_equal(fast, spec.encode(g, s, me, outlook=True))
            assert np.array_equal(fast[:LAYOUT.size], spec.encode(g, s, me))
            outlook = LAYOUT_OUTLOOK.views(fast)["outlook"]
            if me != player:
                assert not outlook.any()
        if player == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
            continue
        legal = g.legal_actions(s)
        outlook = [int(x) for x in LAYOUT_OUTLOOK.views(observer.encode(s, player))["outlook"]]
        choice = tuned.act(g, s, player, rng)
        if len(legal) == 1:
            assert not any(outlook)
        else:
            assert outlook[choice] == 255 and all(outlook[a] == 0 for a in set(range(A.ACTIONS.size)) - set(legal))
            assert outlook == heuristic.outlook(g, g.redeterminise(s, player, rng), player)
            values = heuristic.Tuned().weighed(g, s, player, legal)
            assert all(outlook[a] < 255 for a, v in zip(legal, values) if v < max(values) - 1 / 16)  # rounding
            if s.phase in weighed:
                weighed[s.phase] += 1
            graded += len({outlook[a] for a in legal}) >= 3
        g.apply_action(s, choice if rng.random() < 0.7 else legal[int(rng.integers(len(legal)))])
    if n == 2:  # a single target to choose from
        del weighed[Phase.TARGET]
    assert all(weighed.values()) and graded >= 10, (weighed, graded)


def test_the_readme_shows_the_outlook_as_describe_does():
    from pathlib import Path

    from d2r_envs.games.rap_godz.encode import LAYOUT_OUTLOOK
    readme = (Path(spec.__file__).parent / "README.md").read_text(encoding="utf-8")
    assert LAYOUT_OUTLOOK.describe(["outlook"]) in readme, "the outlook table is out of date: paste `d2r describe` output"
    assert f"{LAYOUT_OUTLOOK.size:,} entries, fingerprint {LAYOUT_OUTLOOK.fingerprint()}" in readme
