"""The fast encoder (encode_fast.py) byte for byte against the spec (encode.py, a plain encoder written piece
by piece from the state and the rules)."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.games.drags_2_riches import Observer
from d2r_envs.games.drags_2_riches import encode as spec

GAME = "drags_2_riches"
ALL_OPTIONS = dict(last_minute_additions=True, category_is=True, thrifting=True, characters=True)


@pytest.mark.parametrize(
    ("n", "options"),
    [(4, {}), (2, dict(intro_game=True)), (3, ALL_OPTIONS), (5, dict(ALL_OPTIONS, intro_game=True))],
)
def test_encode_matches_the_spec(n, options, random_nodes):
    g = d2r_envs.make_game(GAME, n, **options)
    obs = Observer(g)
    rng = np.random.default_rng(n)
    checked = 0
    for s in random_nodes(g, rng, games=6):  # every node: chance, decisions and the end
        for me in range(n):
            assert np.array_equal(obs.encode(s, me), spec.encode(g, s, me)), g.state_to_string(s)
            checked += 1
    assert checked > 1000
