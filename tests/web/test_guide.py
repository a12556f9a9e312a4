"""Every game tells a newcomer what it is: its name, what wins, how to play in 5 to 10 short lines and its
own words explained (the game's guide.py); the pages show them, and the end of a game names the winners
and every seat's score with how it was made."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

import d2r_envs
from d2r_envs import registry, render
from d2r_envs.web import about
from d2r_envs.web.app import create_app
from tests.web.test_browser import CHROMIUM, browser, page, server  # noqa: F401: the browser tests' fixtures

NAMES = d2r_envs.names()


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_a_guide(name: str) -> None:
    g = registry.package(name).guide
    assert g is not None and g.__name__ == f"d2r_envs.games.{name}.guide"
    assert g.NAME and g.NAME != name and len(g.OBJECTIVE) <= 240 and "win" in g.OBJECTIVE.lower()
    assert 5 <= len(g.HOW_TO_PLAY) <= 10 and all(0 < len(line) <= 240 for line in g.HOW_TO_PLAY)
    assert g.WORDS and all(word and 0 < len(means) <= 160 for word, means in g.WORDS)
    for line in (g.OBJECTIVE, *g.HOW_TO_PLAY, *(m for _, m in g.WORDS)):
        assert "  " not in line and not re.search(r"\b[A-Z]+-[A-Z]+-\d", line), "no rule IDs in a guide"


@pytest.mark.parametrize("name", NAMES)
def test_the_end_names_the_winners_and_every_seats_score(name: str) -> None:
    game = d2r_envs.make_game(name)
    state = render.seeded_state(game, seed=4, moves=100_000)
    assert game.is_terminal(state)
    returns = game.returns(state)
    out = about.result(game, state, returns, False, seat=0)
    assert out["winners"] == about.winners(game, returns)
    assert [s["seat"] for s in out["standings"]] == list(range(game.spec.num_players))
    assert all(s["text"] and s["winner"] == (s["seat"] in out["winners"]) for s in out["standings"])
    assert re.fullmatch(r"You win!|You win, tied with .+|You lose: .+|Nobody wins\.", out["text"])
    assert about.result(game, state, returns, True)["text"].startswith("The game was cut off")


def test_the_games_list_carries_each_guide(tmp_path) -> None:
    games = TestClient(create_app(tmp_path)).get("/api/games").json()["games"]
    for g in games:
        guide = registry.package(g["name"]).guide
        assert g["title"] == guide.NAME and g["objective"] == guide.OBJECTIVE
        assert g["how_to_play"] == list(guide.HOW_TO_PLAY) and len(g["words"]) == len(guide.WORDS)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here")
def test_how_to_play_opens_from_the_form_and_the_table(server, page) -> None:  # noqa: F811
    base, _ = server
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "extravaganza")
    assert page.text_content("#objective") == registry.package("extravaganza").guide.OBJECTIVE
    page.click("#how")
    assert page.is_visible("#guide") and "lips" in page.text_content("#guide dl.words")
    page.click("#guide-close")
    assert not page.is_visible("#guide")
    page.check("#mode-expert")
    page.select_option("#agent-1", "random")
    page.click("#start")
    page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
    assert page.text_content("#title") == "Extravaganza"
    page.click("#how")
    page.wait_for_selector("#guide[open]")
    assert page.text_content("#guide-title") == "How to play Extravaganza"
    assert page.locator("#guide ol.how li").count() == len(registry.package("extravaganza").guide.HOW_TO_PLAY)
    assert not page.problems, page.problems
