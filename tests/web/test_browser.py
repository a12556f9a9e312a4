"""The browser table in a real browser: headless Chromium (Debian's package, driven by Playwright) plays a
whole game of every registered game by clicking against `d2r serve`, sees the result, opens the game's
replay and steps through it. Skipped only where Chromium is not installed (CI installs it: .ci/run)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs import replay
from d2r_envs.core.game import CHANCE
from d2r_envs.web.picture import picture

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here (Debian: apt-get install -y chromium)")
MAX_CLICKS = 1000  # far above any game here at its smallest player count


def drawn(data: dict, step: int, seat: int) -> str:
    """The picture of the replay at its player decision `step` as `seat` sees it, made here from the
    engine's own play-back (HTML, as the page shows it)."""
    pictures = []

    def on_step(game, state, player, action) -> None:
        if player >= 0:
            pictures.append(picture(game, state, seat))

    replay.play_back(data, on_step=on_step)
    return pictures[step]


TEXT_OF = "(html) => { const box = document.createElement('div'); box.innerHTML = html; return box.textContent; }"


@pytest.fixture(scope="module")
def server(servers, tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    return servers.start(folder), folder


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("localStorage.setItem('d2r.delay', '0')")  # opponents at once
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda err: page.problems.append(f"page error: {err}"))
    page.on("console", lambda m: page.problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("response", lambda r: page.problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    yield page
    context.close()


@pytest.mark.parametrize("game", d2r_envs.names())
def test_every_game_is_played_by_clicking_and_its_replay_stepped_through(server, page, game: str) -> None:
    base, folder = server
    n = d2r_envs.make_game(game).spec.min_players
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    page.select_option("#players", str(n))
    page.check("#mode-expert")  # an agent per seat, as an expert chooses them
    for q in range(1, n):
        page.select_option(f"#agent-{q}", "random")
    page.fill("#seed", "1")
    page.click("#start")
    page.wait_for_url(re.compile(r".*/table/[A-Za-z0-9_-]{22}$"))
    clicks = 0
    while True:
        page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
        if page.get_attribute("body", "data-status") == "over":
            break
        assert clicks < MAX_CLICKS
        page.click("#moves button:not([disabled]) >> nth=0")
        clicks += 1
    assert clicks > 0
    assert re.fullmatch(r"You win!|You win, tied with .+|You lose: .+ wins?(, tied)?\.|Nobody wins\.",
                        page.text_content("#result-text"))
    assert page.locator("#standings li").count() == n  # every seat's score and how it was made
    assert page.locator("#log li").count() > 20
    name = page.text_content("#replay-link")
    data = replay.load(Path(folder) / name)
    assert data["game"] == game and data["agents"] == ["person"] + ["random"] * (n - 1)

    page.click("#replay-link")
    page.wait_for_selector("body[data-step='0']")
    last = int(page.get_attribute("#step", "max"))
    assert page.text_content("#counter") == f"step 0 of {last}" and last > clicks
    page.click("#forward")
    page.wait_for_selector("body[data-step='1']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='2']")
    page.click("#back")
    page.wait_for_selector("body[data-step='1']")
    above = page.inner_text("#picture")  # the viewer opens from above
    page.select_option("#seat", "0")
    page.wait_for_function("(before) => document.querySelector('#picture').innerText !== before", arg=above)
    assert page.text_content("#picture") == page.evaluate(TEXT_OF, drawn(data, 1, 0))
    page.locator("#step").fill(str(last // 2))
    page.wait_for_selector(f"body[data-step='{last // 2}']")
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{last}']")
    assert page.is_visible("#result") and re.search(r"wins|win|nobody", page.text_content("#result"))
    assert page.text_content("#who") == "The end."
    assert not page.problems, page.problems


def test_the_pages_show_why_a_request_is_refused(server, page) -> None:
    base, _ = server
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "extravaganza")
    page.check("#opt-queen_powers")
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    assert "queen_powers" in page.text_content("#error") and "level=custom" in page.text_content("#error")
    page.uncheck("#opt-queen_powers")
    page.check("#mode-expert")
    assert not page.is_visible("#budget-1")
    page.select_option("#agent-1", "mcts")
    assert page.is_visible("#budget-1")
    page.fill("#budget-1", "99999")
    page.click("#start")
    page.wait_for_selector("#error:has-text('mcts:99999')")
    assert "mcts:N (N = 1..10000)" in page.text_content("#error") and page.url == base + "/"
    page.goto(base + "/replay?name=../../etc/passwd")
    page.wait_for_selector("#error:not([hidden])")
    assert "is not allowed" in page.text_content("#error")
    page.goto(base + "/table/" + "A" * 22)
    page.wait_for_selector("#error:not([hidden])")
    assert "no table" in page.text_content("#error")
    assert sum(p.startswith(("400 ", "404 ")) for p in page.problems) == 4  # the refusals, as the browser saw them


def _start_table(page, base: str, game: str = "filthy_rich", seat: int = 0, seed: str = "1") -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    page.select_option("#players", "2")
    page.select_option("#seat", str(seat))
    page.check("#mode-expert")
    page.select_option(f"#agent-{1 - seat}", "random")
    page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_url(re.compile(r".*/table/[A-Za-z0-9_-]{22}$"))


def _besides_409(problems: list[str]) -> list[str]:
    """The problems a page met, less the 409 answers (and the browser's console lines about them)."""
    return [p for p in problems if not p.startswith("409 ") and "status of 409" not in p]


def _first(game: str, seed: int) -> int:
    """The seat that moves first in a two-player table of `game` with `seed` (chance drawn from it)."""
    engine = d2r_envs.make_game(game, 2)
    state, rng = engine.new_initial_state(), np.random.default_rng(seed)
    while engine.current_player(state) == CHANCE:
        engine.apply_action(state, engine.sample_chance(state, rng))
    return engine.current_player(state)


def test_a_reload_while_an_opponent_thinks_keeps_looking_and_shows_the_table(browser, page, tmp_path, monkeypatch) -> None:
    """The table answers 409 (busy) while the opponent thinks; the reloaded page looks again by itself,
    quietly, and shows the table once the opponent has moved."""
    import threading

    from d2r_envs.agents import RandomAgent
    from d2r_envs.web.screenshots import _start

    thinking, release = threading.Event(), threading.Event()
    real = RandomAgent.act

    def slow(self, game, state, seat, rng):
        thinking.set()
        release.wait(30)
        return real(self, game, state, seat, rng)

    monkeypatch.setattr(RandomAgent, "act", slow)
    server, base = _start(tmp_path / "replays")
    busy = []
    page.on("response", lambda r: busy.append(r.url) if r.status == 409 else None)
    try:
        _start_table(page, base, seat=1 - _first("filthy_rich", 1))  # the opponent moves first
        assert thinking.wait(10)
        page.reload()
        page.wait_for_function("() => document.querySelector('#status').textContent.includes('thinking')")
        while len(busy) < 3:  # it keeps looking
            page.wait_for_event("response", lambda r: r.status == 409, timeout=10_000)
        assert not page.is_visible("#error") and page.get_attribute("body", "data-status") is None
        release.set()
        page.wait_for_selector("#moves button:not([disabled])", timeout=10_000)
        assert int(page.get_attribute("body", "data-step")) > 0 and not page.is_visible("#error")
    finally:
        release.set()
        server.should_exit = True
    assert not _besides_409(page.problems), page.problems


def test_a_second_tab_on_the_same_table_carries_on_from_where_the_game_is(server, page) -> None:
    """A move chosen in a tab left behind by the other tab's moves is answered 409 (stale); the tab looks
    at the table again and carries on from the current position, showing no error."""
    base, _ = server
    _start_table(page, base, game="drags_2_riches")
    page.wait_for_selector("#moves button:not([disabled])")
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#moves button:not([disabled])")
    at = int(other.get_attribute("body", "data-step"))
    other.click("#moves button:not([disabled]) >> nth=0")
    other.wait_for_function("(at) => Number(document.body.dataset.step) > at && document.querySelector('#moves button:not([disabled])')"
                            " || document.body.dataset.status === 'over'", arg=at)
    now = other.get_attribute("body", "data-step")
    assert page.get_attribute("body", "data-step") == str(at)  # left behind
    page.bring_to_front()  # a tab behind another is slow to click
    page.click("#moves button:not([disabled]) >> nth=0")  # chosen at the old position
    page.wait_for_selector(f"body[data-step='{now}']")
    assert not page.is_visible("#error")
    for _ in range(8):  # both tabs open, this one plays on
        page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
        if page.get_attribute("body", "data-status") == "over":
            break
        page.click("#moves button:not([disabled]) >> nth=0")
    page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
    assert int(page.get_attribute("body", "data-step")) > int(now) and not page.is_visible("#error")
    assert not _besides_409(page.problems), page.problems


def test_replay_key_presses_faster_than_the_answers_all_count(server, page) -> None:
    from d2r_envs.cli import main as d2r

    base, folder = server
    assert d2r(["simulate", "rap_godz", "--games", "1", "--seed", "5", "--record", str(folder)]) == 0
    page.goto(base + "/replay?name=rap_godz_000005.json")
    page.wait_for_selector("body[data-step='0']")
    # twelve presses in one go, before any answer can come back
    page.evaluate("() => { for (let i = 0; i < 12; i++) document.body.dispatchEvent("
                  "new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })); }")
    page.wait_for_selector("body[data-step='12']", timeout=10_000)
    assert page.text_content("#counter").startswith("step 12 of ") and page.input_value("#step") == "12"
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    # the way down passes step 8, so wait for the bottom before stepping forward to it
    page.wait_for_selector("body[data-step='7']", timeout=10_000)
    assert page.text_content("#counter").startswith("step 7 of ")
    page.click("#forward")
    page.wait_for_selector("body[data-step='8']", timeout=10_000)
    assert page.text_content("#counter").startswith("step 8 of ")
    assert not page.problems, page.problems
