"""Draco & Co observations: the fast encoder (encode_fast.py) byte for byte against the spec (encode.py)."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.games.draco_and_co import Observer
from d2r_envs.games.draco_and_co import encode as spec


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("options", [{}, {"short_game": 20, "long_game": True}])
def test_the_fast_encoder_matches_the_spec_at_every_node(n: int, options: dict) -> None:
    game = d2r_envs.make_game("draco_and_co", n, **options)
    observer = Observer(game)
    rng = np.random.default_rng(n)
    checked = 0
    for _ in range(3):
        s = game.new_initial_state()
        while True:
            for seat in range(n):  # chance nodes too: mid-shuffle circles have empty places
                fast, want = observer.encode(s, seat), spec.encode(game, s, seat)
                assert fast.dtype == np.float32 and fast.shape == want.shape
                assert np.array_equal(fast, want), (seat, np.flatnonzero(fast != want))
                checked += 1
            player = game.current_player(s)
            if player == TERMINAL:
                break
            if player == CHANCE:
                game.apply_legal(s, game.sample_chance(s, rng))
            else:
                legal = game.legal_actions(s)
                game.apply_legal(s, legal[int(rng.random() * len(legal))])
    assert checked > 300


def test_values_beyond_a_byte_take_the_spec_s_path() -> None:
    game = d2r_envs.make_game("draco_and_co", 4)
    observer = Observer(game)
    rng = np.random.default_rng(0)
    s = game.new_initial_state()
    while game.current_player(s) == CHANCE:
        game.apply_legal(s, game.sample_chance(s, rng))
    s.money[2] = 1000
    for seat in range(4):
        fast = observer.encode(s, seat)
        assert np.array_equal(fast, spec.encode(game, s, seat))
        assert 1000.0 in fast
