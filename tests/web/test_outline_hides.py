"""The outline of an opponent's last move tells a seat nothing it could not see: two moves the seat
cannot tell apart (the same observation for it afterwards, and the same narration) are outlined at the
same place."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs import registry
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.web.picture import move_place


# The options whose moves have places of their own, besides every game's default.
OPTIONS = [(name, {}) for name in d2r_envs.names()] + [
    ("drags_2_riches", {"characters": True, "category_is": True}),
    ("extravaganza", {"level": "legendary", "queens": "draft"}),
]


@pytest.mark.parametrize("name, options", OPTIONS)
def test_moves_a_seat_cannot_tell_apart_are_outlined_alike(name: str, options: dict) -> None:
    game = d2r_envs.make_game(name, **options)
    observer = game.make_observer()
    package = registry.package(name)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        for _ in range(game.spec.max_game_length):
            p = game.current_player(state)
            if p == TERMINAL:
                break
            if p == CHANCE:
                game.apply_action(state, game.sample_chance(state, rng))
                continue
            legal = game.legal_actions(state)
            for q in range(game.spec.num_players):
                if q == p:
                    continue
                seen: dict[tuple, str] = {}
                for a in legal:
                    after = game.clone(state)
                    game.apply_action(after, a)
                    told = tuple(e.seen_by(q) for e in package.events(game, state, a, after))
                    view = (observer.encode(after, q).tobytes(), told)
                    place = move_place(game, state, a, q)
                    assert seen.setdefault(view, place) == place, (
                        f"{name}: player_{q} sees the same after two moves of player_{p} at "
                        f"{game.decision_name(state)}, outlined at {seen[view]} and {place}")
                    checked += 1
            game.apply_action(state, legal[int(rng.integers(len(legal)))])
    assert checked > 100
