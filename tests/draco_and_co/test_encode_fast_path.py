"""Observer.encode (the fast path) gives exactly the vector Observer.entries defines."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.core.obs import Observer as GenericObserver
from d2r_envs.games.draco_and_co import Observer


def _reference(observer: Observer, state, seat: int) -> np.ndarray:
    return GenericObserver.encode(observer, state, seat)  # the scatter of entries()


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("options", [{}, {"short_game": 20, "long_game": True}])
def test_fast_encode_equals_the_reference_at_every_node(n: int, options: dict) -> None:
    game = d2r_envs.make_game("draco_and_co", n, **options)
    observer = Observer(game)
    rng = np.random.default_rng(n)
    checked = 0
    for _ in range(3):
        s = game.new_initial_state()
        while (player := game.current_player(s)) != TERMINAL:
            for seat in range(n):  # chance nodes too: mid-shuffle circles have empty places
                fast, ref = observer.encode(s, seat), _reference(observer, s, seat)
                assert fast.dtype == np.float32 and fast.shape == ref.shape
                assert np.array_equal(fast, ref), (seat, np.flatnonzero(fast != ref))
                checked += 1
            if player == CHANCE:
                game.apply_legal(s, game.sample_chance(s, rng))
            else:
                legal = game.legal_actions(s)
                game.apply_legal(s, legal[int(rng.random() * len(legal))])
    assert checked > 300


def test_values_beyond_a_byte_take_the_generic_path() -> None:
    game = d2r_envs.make_game("draco_and_co", 4)
    observer = Observer(game)
    rng = np.random.default_rng(0)
    s = game.new_initial_state()
    while game.current_player(s) == CHANCE:
        game.apply_legal(s, game.sample_chance(s, rng))
    s.money[2] = 1000
    for seat in range(4):
        fast = observer.encode(s, seat)
        assert np.array_equal(fast, _reference(observer, s, seat))
        assert 1000.0 in fast
