"""The event log over every game and player count: deterministic, pure, refuses what the engine
refuses, ends with the result, and every legal move has a text a person can read."""

from __future__ import annotations

import numpy as np
import pytest

import d2r_envs
from d2r_envs import registry
from d2r_envs.core.events import Event, Log
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError


def _counts(name: str) -> list[int]:
    spec = d2r_envs.make_game(name).spec
    return list(range(spec.min_players, spec.max_players + 1))


CASES = [(name, n) for name in d2r_envs.names() for n in _counts(name)]
IDS = [f"{name}-{n}p" for name, n in CASES]


def _logged_game(name: str, n: int, seed: int, check=None) -> tuple[list[str], Log]:
    """One random game through Log; returns every seat's view, joined, and the log."""
    game = d2r_envs.make_game(name, n)
    state = game.new_initial_state()
    log = registry.of(game).log(game)
    rng = np.random.default_rng(seed)
    decisions = 0
    while game.current_player(state) != TERMINAL and decisions < game.spec.max_game_length:
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
            decisions += 1
        if check:
            check(game, state, action)
        log.apply(state, action)
    return ["\n".join(log.seen_by(p)) for p in range(n)], log


@pytest.mark.parametrize(("name", "n"), CASES, ids=IDS)
def test_same_seed_same_log_and_narration_changes_nothing(name: str, n: int) -> None:
    def check(game, state, action):
        before = game.clone(state)
        after = game.clone(state)
        game.apply_action(after, action)
        kept = game.clone(after)
        first = registry.of(game).events(game, before, action, after)
        assert before == state and after == kept, "narrating changed a state"
        assert registry.of(game).events(game, before, action, after) == first
        assert all(isinstance(e, Event) for e in first)

    views, log = _logged_game(name, n, seed=11, check=check)
    again, _ = _logged_game(name, n, seed=11)
    assert views == again
    assert all("game over" in v.splitlines()[-1] or "game over" in "\n".join(v.splitlines()[-3:]) for v in views)
    assert len(set(views)) == n, "every seat sees something of its own (its own cards)"


@pytest.mark.parametrize("name", d2r_envs.names())
def test_an_illegal_action_leaves_state_and_log_as_they_were(name: str) -> None:
    game = d2r_envs.make_game(name)
    state = game.new_initial_state()
    log = registry.of(game).log(game)
    rng = np.random.default_rng(0)
    while game.current_player(state) == CHANCE:
        log.apply(state, game.sample_chance(state, rng))
    before, count = game.clone(state), len(log)
    bad = next(a for a in range(game.spec.num_actions) if a not in game.legal_actions(state))
    with pytest.raises(IllegalActionError):
        log.apply(state, bad)
    assert state == before and len(log) == count


@pytest.mark.parametrize("name", d2r_envs.names())
def test_every_legal_move_has_a_readable_text(name: str) -> None:
    """explain() answers at every node of a few random games; at most decisions some move says more
    than its name (a card's text, a cost, a consequence)."""
    game = d2r_envs.make_game(name)
    rng = np.random.default_rng(3)
    nodes = explained = 0
    for _ in range(3):
        state = game.new_initial_state()
        while game.current_player(state) != TERMINAL:
            if game.current_player(state) == CHANCE:
                game.apply_action(state, game.sample_chance(state, rng))
                continue
            legal = game.legal_actions(state)
            texts = [registry.of(game).explain(game, state, a) for a in legal]
            assert all(isinstance(t, str) for t in texts)
            nodes += 1
            explained += any(texts)
            game.apply_action(state, legal[int(rng.integers(len(legal)))])
    assert explained >= 0.5 * nodes, (explained, nodes)


def test_event_visibility() -> None:
    e = Event("player_1 draws a card", {1: "player_1 draws Shove"})
    assert e.seen_by(1) == "player_1 draws Shove" and e.seen_by(0) == "player_1 draws a card"
    hidden = Event("", {2: "you peek at Lawsuit"})
    assert hidden.seen_by(0) == "" and hidden.seen_by(2) == "you peek at Lawsuit"
