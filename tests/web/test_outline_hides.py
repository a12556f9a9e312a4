"""The outline of an opponent's last move tells a seat nothing it could not see: two moves the seat
cannot tell apart (the same observation for it afterwards, and the same narration) are outlined at the
same place."""

from __future__ import annotations

import pytest

import d2r_envs
from d2r_envs import registry
from d2r_envs.web.picture import move_place
from tests.web.test_clicks import seat_decisions


# The options whose moves have places of their own, besides every game's default.
OPTIONS = [(name, {}) for name in d2r_envs.names()] + [
    ("drags_2_riches", {"characters": True, "category_is": True}),
    ("extravaganza", {"level": "legendary", "queens": "draft"}),
]


@pytest.mark.parametrize("name, options", OPTIONS)
def test_moves_a_seat_cannot_tell_apart_are_outlined_alike(name: str, options: dict) -> None:
    package, limit = registry.package(name), d2r_envs.make_game(name, **options).spec.max_game_length
    checked = 0
    observer = None
    for seed in (7, 8, 9):
        for game, state, p in seat_decisions(name, seed, limit, **options):
            if observer is None or observer.game is not game:
                observer = game.make_observer()
            for q in range(game.spec.num_players):
                if q == p:
                    continue
                seen: dict[tuple, str] = {}
                for a in game.legal_actions(state):
                    after = game.clone(state)
                    game.apply_action(after, a)
                    told = tuple(e.seen_by(q) for e in package.events(game, state, a, after))
                    view = (observer.encode(after, q).tobytes(), told)
                    place = move_place(game, state, a, q)
                    assert seen.setdefault(view, place) == place, (
                        f"{name}: player_{q} sees the same after two moves of player_{p} at "
                        f"{game.decision_name(state)}, outlined at {seen[view]} and {place}")
                    checked += 1
    assert checked > 100
