"""Opponents by difficulty level: the games list each game's levels (d2r_envs.difficulty, weakest first),
a new table takes `"level": NAME` instead of an agent per seat, the table and its replay name each
opponent "<level> (<agent>)", and a level the game lacks is refused naming the ones it has. Nothing in the
web code knows a level's name: a level added to the file is offered and played like the others."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

import d2r_envs
from d2r_envs import difficulty, replay
from d2r_envs.web.app import create_app
from tests.web.test_app import is_error, play_out, step
from tests.web.test_browser import CHROMIUM, browser, page, server  # noqa: F401: the browser tests' fixtures

NAMES = d2r_envs.names()


@pytest.fixture
def client(tmp_path) -> TestClient:
    return TestClient(create_app(tmp_path / "replays"))


def test_the_games_list_their_levels_weakest_first(client) -> None:
    for g in client.get("/api/games").json()["games"]:
        levels = difficulty.levels(g["name"])
        assert levels and g["levels"] == [{"name": x.name, "about": x.about, "agent": x.agent} for x in levels]


@pytest.mark.parametrize("game", NAMES)
def test_every_level_of_every_game_takes_the_other_seats(client, game: str) -> None:
    n = d2r_envs.make_game(game).spec.min_players
    for level in difficulty.levels(game):
        r = client.post("/api/tables", json={"game": game, "players": n, "level": level.name, "seed": 1})
        assert r.status_code == 201, r.text
        view = r.json()
        assert [s["agent"] for s in view["seats"]] == ["you"] + [f"{level.name} ({level.agent})"] * (n - 1)
        for _ in range(3):  # the opponents move
            view = step(client, view)


def test_a_level_is_recorded_in_the_replay(client, tmp_path) -> None:
    view = client.post("/api/tables", json={"game": "filthy_rich", "players": 2, "level": "easy", "seed": 3}).json()
    end, _ = play_out(client, view)
    data = replay.load(tmp_path / "replays" / end["result"]["replay"])
    assert data["agents"] == ["person", f"easy ({difficulty.agent_for('filthy_rich', 'easy')})"]


@pytest.mark.parametrize("level, words", [
    ("impossible", ["unknown level 'impossible' for rap_godz", "weakest first"]),
    (3, ["unknown level 3 for rap_godz"]),
    (["easy"], ["unknown level"]),
    ("", ["unknown level ''"]),
])
def test_an_unknown_level_is_refused_naming_the_levels(client, level, words) -> None:
    body = is_error(client.post("/api/tables", json={"game": "rap_godz", "players": 2, "level": level}), 400, *words)
    names = [x.name for x in difficulty.levels("rap_godz")]
    assert body["allowed"] == names and ", ".join(names) in body["error"]


def test_a_level_and_agents_together_are_refused(client) -> None:
    r = client.post("/api/tables", json={"game": "rap_godz", "players": 2, "level": "easy", "opponents": ["random"]})
    is_error(r, 400, "either 'level'", "not both")
    is_error(client.post("/api/tables", json={"game": "rap_godz", "players": 2}), 400, "or give 'level' instead")


def test_a_level_added_to_the_file_is_offered_and_played(client, monkeypatch) -> None:
    real = difficulty.levels

    def more(game: str) -> list:
        return real(game) + [difficulty.Level("champion", "mcts:3", "searches a few moves ahead")]

    monkeypatch.setattr(difficulty, "levels", more)
    games = client.get("/api/games").json()["games"]
    assert all(g["levels"][-1]["name"] == "champion" for g in games)
    view = client.post("/api/tables", json={"game": "filthy_rich", "players": 2, "level": "champion"}).json()
    assert view["seats"][1]["agent"] == "champion (mcts:3)"
    step(client, step(client, view))


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here")
def test_the_form_chooses_opponents_by_level_or_per_seat(server, page) -> None:  # noqa: F811
    base, _ = server
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "rap_godz")
    levels = difficulty.levels("rap_godz")
    assert page.is_checked("#mode-level") and not page.is_visible("#opponents")
    assert page.locator("#level option").all_text_contents() == [x.name for x in levels]
    assert page.text_content("#level-about") == f"{levels[0].name}: {levels[0].about}"
    page.check("#mode-expert")
    assert page.is_visible("#agent-1")
    page.check("#mode-level")
    page.select_option("#players", "2")
    page.select_option("#level", levels[-1].name)
    assert levels[-1].about in page.text_content("#level-about")
    page.click("#start")
    page.wait_for_selector("body[data-status]")
    assert f"player_1: {levels[-1].name} ({levels[-1].agent})" in page.text_content("#seats")
    assert not page.problems, page.problems
