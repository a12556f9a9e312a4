"""The fast paths against plain ones: the fast encoder (encode_fast.py, with its table cache) byte for byte
against the spec (encode.py, a piece-by-piece encoder), and resolve_chance against the generic chance loop."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE
from d2r_envs.games.filthy_rich import Observer
from d2r_envs.games.filthy_rich import encode as spec

GAME = "filthy_rich"


@pytest.mark.parametrize(("n", "options"), [(2, {}), (3, dict(one_tax_per_turn=True)), (4, {}), (5, {})])
def test_encode_matches_the_spec(n, options, random_nodes):
    """At every node, for every seat; the table cache is used as play goes on, and must agree with a
    fresh encoding at every step."""
    g = d2r_envs.make_game(GAME, n, **options)
    obs = Observer(g)
    rng = np.random.default_rng(n)
    checked = 0
    for s in random_nodes(g, rng, games=12):  # every node: chance, decisions and the end
        for me in range(n):
            assert np.array_equal(obs.encode(s, me), spec.encode(g, s, me)), g.state_to_string(s)
            checked += 1
    assert checked > 500


def test_the_table_cache_follows_the_fields_it_was_read_from_across_states():
    """The observer keeps the table it worked out with copies of the fields it read, and the cache
    is not game state: a clone encodes the same; two copies played on apart, encoded in turn by one
    observer, each encode as the spec says at every step; an unpickled copy encodes the same."""
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
                assert np.array_equal(obs.encode(y, me), spec.encode(g, y, me)), g.state_to_string(y)
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
    takes its own random action, both still encode exactly what the spec gives."""
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
                    assert np.array_equal(obs.encode(state, me), spec.encode(g, state, me))
            diverged += 1
    assert diverged > 100
