"""Moves played on the picture: the places of the seat's legal moves are regions of the picture carrying
their action ids (only the seat's own legal moves, only in what the seat sees), a click plays the move
there or offers the moves there, hovering tells what they do, and the last opponent move is outlined.
Headless Chromium plays a whole game of every game by clicking the picture wherever a move has a place
(the list otherwise), on a laptop's and a phone's screen."""

from __future__ import annotations

import re

import numpy as np
import pytest

import d2r_envs
from d2r_envs import registry
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.web.picture import move_place, picture, places
from tests.web.test_browser import CHROMIUM, browser, server  # noqa: F401: the browser tests' fixtures
from tests.web.test_legible import SIZES

NAMES = d2r_envs.names()
SPOTS = re.compile(r'<rect class="spot" data-place="([^"]+)" data-actions="([0-9 ]+)"')


def seat_decisions(game_name: str, seed: int, limit: int = 400, **options):
    """(game, state, seat) at every player decision of a seeded random game."""
    game = d2r_envs.make_game(game_name, **options)
    state, rng = game.new_initial_state(), np.random.default_rng(seed)
    for _ in range(limit):
        p = game.current_player(state)
        if p == TERMINAL:
            return
        if p == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        yield game, state, p
        legal = game.legal_actions(state)
        game.apply_action(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", NAMES)
def test_the_regions_are_the_seats_own_legal_moves_and_hide_nothing(name: str) -> None:
    """Every region carries only legal actions of the seat to act, each action in one region at most, the
    same in the wide and the narrow drawing; the seat's picture with its regions is the same for any
    deal of what it cannot see."""
    assert callable(getattr(registry.package(name).draw, "place", None))
    marked = 0
    rng = np.random.default_rng(0)
    for game, state, seat in seat_decisions(name, seed=5):
        legal = game.legal_actions(state)
        drawn = picture(game, state, seat, legal)
        found = {key: [int(a) for a in ids.split()] for key, ids in SPOTS.findall(drawn)}
        assert found == {k: v for k, v in places(game, state, legal).items() if k in found}
        ids = [a for v in found.values() for a in v]
        assert set(ids) <= set(legal) and len(ids) == len(set(ids))
        marked += len(found)
        wide, narrow = drawn.split('<div class="svg narrow"')  # the same regions in both drawings
        assert sorted(SPOTS.findall(wide)) == sorted(SPOTS.findall(narrow))
        other = game.redeterminise(state, seat, rng)
        assert picture(game, other, seat, game.legal_actions(other)) == drawn
        assert not SPOTS.search(picture(game, state, seat))  # no regions unless asked for
        for q in range(game.spec.num_players):  # another seat's move is outlined for q, never in a hand
            shown = {move_place(game, state, a, q) for a in legal}
            assert q == seat or not any(p.startswith("card:") for p in shown)
    assert marked > 0


# The least share of the seat's legal moves with a place in the picture, over a seeded random game; the
# rest are the moves docs/browser.md names as only in the list.
PLACED = {"rap_godz": 0.97, "filthy_rich": 0.96, "extravaganza": 0.86, "drags_2_riches": 0.84, "draco_and_co": 0.97}


@pytest.mark.parametrize("name", NAMES)
def test_most_moves_have_a_place_in_the_picture(name: str) -> None:
    legal = placed = 0
    for game, state, _ in seat_decisions(name, seed=5):
        actions = game.legal_actions(state)
        legal += len(actions)
        placed += sum(len(v) for v in places(game, state, actions).values())
    assert placed / legal >= PLACED[name], f"{name}: {placed} of {legal} legal moves have a place"


# Options whose moves have places of their own (Characters, Category Is; Queen Powers, 10s & Reveals, the draft).
OPTIONS = [("drags_2_riches", {"characters": True, "category_is": True}),
           ("extravaganza", {"level": "legendary", "queens": "draft"})]


@pytest.mark.parametrize("name, options", OPTIONS)
def test_the_options_moves_are_marked_alike_in_both_drawings(name: str, options: dict) -> None:
    kinds = set()
    actions = registry.action_space(name)
    rng = np.random.default_rng(0)
    for i, (game, state, seat) in enumerate(seat_decisions(name, seed=5, limit=1500, **options)):
        legal = game.legal_actions(state)
        drawn = picture(game, state, seat, legal)
        found = {key: [int(a) for a in ids.split()] for key, ids in SPOTS.findall(drawn)}
        assert found == {k: v for k, v in places(game, state, legal).items() if k in found}
        wide, narrow = drawn.split('<div class="svg narrow"')
        assert sorted(SPOTS.findall(wide)) == sorted(SPOTS.findall(narrow))
        if i < 20:  # the set-up's: the Characters and queens on offer are the same in any deal of the unseen
            other = game.redeterminise(state, seat, rng)
            assert picture(game, other, seat, game.legal_actions(other)) == drawn
        kinds |= {actions.decode(a)[0] for v in found.values() for a in v}
    wanted = {"drags_2_riches": {"character", "look_type", "ability", "thumbs"},
              "extravaganza": {"queen", "pay_stone", "reveal"}}
    assert wanted[name] <= kinds


# The least share of the seat's legal moves with a place, with those options on (the Character choice and
# the queen draft are places too).
PLACED_WITH_OPTIONS = {"drags_2_riches": 0.85, "extravaganza": 0.85}


@pytest.mark.parametrize("name, options", OPTIONS)
def test_most_moves_have_a_place_with_the_options(name: str, options: dict) -> None:
    legal = placed = 0
    for game, state, _ in seat_decisions(name, seed=5, limit=1500, **options):
        actions = game.legal_actions(state)
        legal += len(actions)
        placed += sum(len(v) for v in places(game, state, actions).values())
    assert placed / legal >= PLACED_WITH_OPTIONS[name], f"{name}: {placed} of {legal} legal moves have a place"


@pytest.mark.parametrize("name", NAMES)
def test_the_last_opponent_move_is_outlined_never_in_a_hand(tmp_path, name: str) -> None:
    from starlette.testclient import TestClient

    from d2r_envs.web.app import create_app
    from tests.web.test_app import step

    client = TestClient(create_app(tmp_path))
    n = d2r_envs.make_game(name).spec.min_players
    view = client.post("/api/tables", json={"game": name, "players": n, "opponents": ["random"] * (n - 1), "seed": 2}).json()
    held = client.app.state.server.tables.get(view["id"], client.cookies["d2r_table"])
    outlined = 0
    while view["status"] != "over":
        if view["status"] == "waiting":
            view = step(client, view)
            assert held.last_place is not None and not held.last_place.startswith("card:")
            outlined += 'class="last-move"' in view["picture"]
            assert view["picture"].count('class="last-move"') in (0, 2)  # in both drawings or neither
        else:
            view = step(client, view)
            assert held.last_place is None
    assert outlined > 0


def _start(page, base: str, game: str) -> None:
    n = d2r_envs.make_game(game).spec.min_players
    r = page.request.post(base + "/api/tables", data={"game": game, "players": n, "seed": 2,
                                                      "opponents": ["random"] * (n - 1)})
    assert r.ok, r.text()
    page.goto(base + r.json()["url"])


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", NAMES)
def test_a_whole_game_is_played_by_clicking_the_picture(server, browser, size: str, game: str) -> None:  # noqa: F811
    base, _ = server
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=size == "phone")
    context.add_init_script("localStorage.setItem('d2r.delay', '0')")
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    rng = np.random.default_rng(1)
    try:
        _start(page, base, game)
        on_picture = on_list = 0
        tips = []
        while True:
            page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
            if page.get_attribute("body", "data-status") == "over":
                break
            at = page.get_attribute("body", "data-step")
            spots = page.locator("#picture .spot[tabindex]:visible")  # of the drawing shown
            count = spots.count()
            if count:
                spot = spots.nth(int(rng.integers(count)))
                tips.append(spot.locator("title").text_content())
                if size == "phone":
                    spot.tap()
                else:
                    spot.click()
                if page.locator("#chooser").count():  # several moves there, or a tap: choose one
                    page.click("#chooser button[data-action] >> nth=0")
                on_picture += 1
            else:
                page.click("#moves button:not([disabled]) >> nth=0")
                on_list += 1
            page.wait_for_function("(at) => document.body.dataset.step !== at || document.body.dataset.status === 'over'", arg=at)
            assert on_picture + on_list < 1500
        assert on_picture > 0, "no move was played on the picture"
        names = {m for tip in tips for m in tip.split("\n")}
        assert all(t for t in names)
        assert page.locator("#standings li").count() == d2r_envs.make_game(game).spec.min_players
        print(f"{game} {size}: {on_picture} moves on the picture, {on_list} from the list")
    finally:
        context.close()
    assert not problems, problems
