"""The fast paths against plain ones: the encoder (with its board cache) against a piece-by-piece encoder,
and resolve_chance against the generic chance loop."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.filthy_rich import LAYOUT, Observer
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import NO_OWNER, Phase

GAME = "filthy_rich"


def plain_encode(g, s, me):
    """Each piece from its definition in LAYOUT, using only what `me` may see."""
    n = s.num_players
    out = np.zeros(LAYOUT.size, np.float32)
    v = LAYOUT.views(out)
    rel = [(me + i) % n for i in range(n)]  # relative index i -> seat
    v["seats"][:n] = 1
    v["options"][0] = g.config.one_tax_per_turn
    v["phase"][s.phase] = 1
    v["ask"][s.ask] = 1
    if s.phase != Phase.OVER:
        for name, who in (("actor", s.actor), ("turn", s.turn)):
            if who >= 0:
                v[name][(who - me) % n] = 1
    v["page"][s.page] = 1
    v["actions_left"][s.actions_left] = 1
    for d in s.dice:
        v["dice"][d] += 1
    v["dice_count"][0] = s.page + 1 + s.extra_dice
    v["hand"][:] = list(s.hands[me])
    v["deck_size"][0] = sum(s.deck)
    v["discard"][:] = list(s.discard)
    for i, q in enumerate(rel):
        v["money"][i] = min(s.money[q], 255)
        v["hand_sizes"][i] = sum(s.hands[q])
        v["alive"][i] = s.alive[q]
        v["assets"][i] = [s.assets[q][k] for k in C.ASSET_KINDS]
        if s.alive[q]:
            v["taxes"][i] = g.tax_symbols(s, q)
    for b, o in enumerate(s.owner):
        if o >= 0:
            v["businesses"][(o - me) % n, b] = 1
    for pg in range(C.PAGES):
        for slot in range(C.SLOTS):
            if s.book[pg][slot] >= 0:
                v["book"][pg, slot, s.book[pg][slot]] = 1
    for slot in range(C.SLOTS):
        b = g.visible(s, slot)
        if b >= 0:
            v["visible"][slot, b] = 1
            v["visible_owner"][(s.owner[b] - me) % n, slot] = 1
    for x, o in enumerate(s.lux_owner):
        if o >= 0:
            v["luxuries"][(o - me) % n, x] = 1
        v["for_sale"][x] = o == NO_OWNER
    if s.card >= 0:
        v["card"][s.card - C.NUM_BUSINESSES] = 1
    if s.phase == Phase.AUCTION:
        v["lot"][s.lot] = 1
        if s.high >= 0:
            v["high_bid"][0] = s.high
            v["high_bidder"][(s.high_bidder - me) % n] = 1
        v["lowest_bid"][0] = C.LUXURIES[s.lot].price if s.high < 0 else s.high + 1
    return out


@pytest.mark.parametrize(("n", "options"), [(2, {}), (3, dict(one_tax_per_turn=True)), (4, {}), (5, {})])
def test_encode_matches_the_plain_encoder(n, options):
    """At every node, for every seat; the board cache is used as play goes on, and must agree with a
    fresh encoding at every step."""
    g = d2r_envs.make_game(GAME, n, **options)
    obs = Observer(g)
    rng = np.random.default_rng(n)
    checked = 0
    for _ in range(12):
        s = g.new_initial_state()
        while not g.is_terminal(s):
            if g.current_player(s) == CHANCE:
                g.apply_action(s, g.sample_chance(s, rng))
                continue
            for me in range(n):
                assert np.array_equal(obs.encode(s, me), plain_encode(g, s, me)), g.state_to_string(s)
                checked += 1
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
        for me in range(n):
            assert np.array_equal(obs.encode(s, me), plain_encode(g, s, me))
    assert checked > 500


def test_the_board_cache_follows_the_containers_stamps_across_states():
    """The observer keeps the table it worked out while the state's containers keep their stamps
    (core/stamped.py), and the cache is not game state: a clone shares the stamps and encodes the
    same; two copies played on apart, encoded in turn by one observer, each encode as the plain
    encoder says at every step; an unpickled copy (new stamps) encodes the same."""
    import pickle

    g = d2r_envs.make_game(GAME, 4)
    obs = Observer(g)
    rng = np.random.default_rng(0)
    s = g.new_initial_state()
    g.resolve_chance(s, rng)
    t = g.clone(s)
    assert s == t and obs.encode(s, s.actor).tobytes() == obs.encode(t, s.actor).tobytes()
    steps = 0
    while not (g.is_terminal(s) and g.is_terminal(t)):
        for x in (s, t):
            if not g.is_terminal(x):
                legal = g.legal_actions(x)
                g.apply_action(x, legal[int(rng.integers(len(legal)))])
                g.resolve_chance(x, rng)
            for y in (s, t, pickle.loads(pickle.dumps(x))):
                me = steps % 4
                assert np.array_equal(obs.encode(y, me), plain_encode(g, y, me)), g.state_to_string(y)
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_resolve_chance_fast_path_matches_the_generic_loop(n):
    """Filthy Rich's inlined draws, dice and page die leave the state the generic sample_chance +
    apply_legal loop leaves from the same rng, at every chance point of 15 games."""
    from d2r_envs.core.game import Game

    g = d2r_envs.make_game(GAME, n)
    rng = np.random.default_rng(100 + n)
    checked = 0
    for _ in range(15):
        s = g.new_initial_state()
        while not g.is_terminal(s):
            if g.current_player(s) == CHANCE:
                a, b = g.clone(s), g.clone(s)
                Game.resolve_chance(g, a, np.random.default_rng(checked))
                g.resolve_chance(b, np.random.default_rng(checked))
                assert a == b, g.state_to_string(s)
                checked += 1
                g.resolve_chance(s, rng)
                continue
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert checked > 100


def test_clones_that_share_caches_encode_their_own_state():
    """A clone shares the observation caches of its original until one of them changes; after each
    takes its own random action, both still encode exactly what the plain encoder gives."""
    g = d2r_envs.make_game(GAME, 4)
    obs = Observer(g)
    rng = np.random.default_rng(9)
    diverged = 0
    for _ in range(6):
        s = g.new_initial_state()
        while not g.is_terminal(s):
            if g.current_player(s) == CHANCE:
                g.resolve_chance(s, rng)
                continue
            for me in range(4):
                obs.encode(s, me)  # fill the caches the clone will share
            legal = g.legal_actions(s)
            t = g.clone(s)
            g.apply_action(t, legal[int(rng.integers(len(legal)))])
            g.resolve_chance(t, np.random.default_rng(diverged))
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
            g.resolve_chance(s, rng)
            for state in (s, t):
                for me in range(4):
                    assert np.array_equal(obs.encode(state, me), plain_encode(g, state, me))
            diverged += 1
    assert diverged > 100
