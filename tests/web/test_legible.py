"""The pages are legible on a laptop (1280x800) and a phone (390x844): headless Chromium measures the
rendered size of every piece of text on them, the text of the game's picture (SVG) included, and none is
under 11 CSS pixels; nothing is wider than the screen, and on a phone neither is the picture (its narrow
drawing, one column); a picture wider than a smaller screen pans inside its own box."""

from __future__ import annotations

import re

import pytest

import d2r_envs
from tests.web.test_browser import CHROMIUM, server  # noqa: F401: the module's server fixture

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here (Debian: apt-get install -y chromium)")
SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
SMALLEST = 11  # CSS px
NARROW_GAMES = tuple(d2r_envs.names())  # the games whose picture has a narrow layout: all of them

# Every rendered text node: its element's computed font size, times the SVG's scale to the screen for
# text in a picture; the ones under `least`, with where they are.
SMALL_TEXT = """(least) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest("title, option, script, style, template, [hidden]")) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < least - 0.01) small.push(size.toFixed(1) + " px: " + node.textContent.trim().slice(0, 40));
  }
  return small;
}"""
WIDER_THAN_SCREEN = """() => {
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(".picture")) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > document.documentElement.clientWidth + 1) out.push(el.tagName + "#" + el.id + "." + el.className);
  }
  return out;
}"""


# The drawing shown: its width and its box's, and how far its right edge is past the screen's.
PICTURE_FIT = """() => {
  const svg = [...document.querySelectorAll("#picture svg")].find((s) => s.getClientRects().length);
  const r = svg.getBoundingClientRect();
  return [r.width, document.getElementById("picture").clientWidth, r.right - document.documentElement.clientWidth];
}"""


def test_a_narrow_drawing_is_sent_with_the_wide_one_and_leaves_the_default_alone() -> None:
    from d2r_envs import render
    from d2r_envs.web.picture import NARROW, picture

    for game in d2r_envs.names():
        engine = d2r_envs.make_game(game)
        state = render.seeded_state(engine, seed=2, moves=20)
        widths = [float(w) for w in re.findall(r'<svg[^>]*? width="([0-9.]+)"', picture(engine, state, 1))]
        assert re.search(r'<svg[^>]*? width="([0-9.]+)"', render.svg(engine, state, 1)).group(1) == f"{widths[0]:g}"
        assert widths[1:] == ([] if game not in NARROW_GAMES else [widths[1]]) and widths[1:] <= [NARROW]


def test_the_page_draws_no_picture_text_under_the_smallest_size() -> None:
    from d2r_envs import render
    from d2r_envs.web.picture import MIN_FONT, picture

    for game in d2r_envs.names():
        engine = d2r_envs.make_game(game)
        state = render.seeded_state(engine, seed=1, moves=30)
        sizes = {float(x) for x in re.findall(r'font-size="([0-9.]+)"', picture(engine, state, 0))}
        assert min(sizes) >= MIN_FONT == SMALLEST
        assert min(float(x) for x in re.findall(r'font-size="([0-9.]+)"', render.svg(engine, state, 0))) < MIN_FONT


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


def _page(browser, size: str):
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    context.add_init_script("localStorage.setItem('d2r.delay', '0')")
    return context, context.new_page()


def _check(page, fits: bool = False) -> None:
    """No text under SMALLEST px, nothing wider than the screen; `fits`: nor the picture."""
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    assert not small, f"{len(small)} texts under {SMALLEST} px, such as: {small[:8]}"
    assert not page.evaluate(WIDER_THAN_SCREEN)
    if fits:
        width, box, past = page.evaluate(PICTURE_FIT)
        assert width <= box + 0.5 and past <= 0.5, f"the picture is {width} px wide in a {box} px box"


@pytest.mark.parametrize("size", SIZES)
def test_the_new_game_form_is_legible_and_fits(server, browser, size: str) -> None:  # noqa: F811
    base, _ = server
    context, page = _page(browser, size)
    try:
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready='1']")
        for game in d2r_envs.names():
            page.select_option("#game", game)
            _check(page)
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", d2r_envs.names())
def test_every_table_is_legible_while_playing_and_at_the_end(server, browser, size: str, game: str) -> None:  # noqa: F811
    base, _ = server
    context, page = _page(browser, size)
    try:
        n = d2r_envs.make_game(game).spec.min_players
        r = page.request.post(base + "/api/tables", data={"game": game, "seed": 3, "players": n,
                                                          "opponents": ["random"] * (n - 1)})
        assert r.ok, r.text()
        page.goto(base + r.json()["url"])
        page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
        fits = size == "phone" and game in NARROW_GAMES
        _check(page, fits)
        clicks = 0
        while page.get_attribute("body", "data-status") != "over":
            page.click("#moves button:not([disabled]) >> nth=-1")
            page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
            clicks += 1
            assert clicks < 1000
        _check(page, fits)
        page.click("#replay-link")
        page.wait_for_selector("body[data-step='0']")
        _check(page, fits)
        assert re.search(r"step 0 of \d+", page.text_content("#counter"))
    finally:
        context.close()


# The set-up's offers drawn to choose from: Extravaganza's queens left to draft, Drags 2 Riches' Characters.
OFFERS = [("extravaganza", {"level": "legendary", "queens": "draft"}, "queen:"),
          ("drags_2_riches", {"characters": True}, "offer:")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game, options, place", OFFERS)
def test_the_set_up_offers_are_legible_and_chosen_by_a_click(server, browser, size: str,  # noqa: F811
                                                             game: str, options: dict, place: str) -> None:
    base, _ = server
    context, page = _page(browser, size)
    try:
        n = d2r_envs.make_game(game).spec.min_players
        r = page.request.post(base + "/api/tables", data={"game": game, "seed": 3, "players": n, "options": options,
                                                          "opponents": ["random"] * (n - 1)})
        assert r.ok, r.text()
        page.goto(base + r.json()["url"])
        page.wait_for_selector("#moves button:not([disabled])")
        _check(page, size == "phone")
        offers = page.locator(f"#picture .spot[data-place^='{place}']:visible")
        assert offers.count() >= 8 - n + 1  # the seat's first move: every offer not yet taken
        at = page.get_attribute("body", "data-step")
        if size == "phone":
            offers.first.tap()
            page.click("#chooser button[data-action] >> nth=0")
        else:
            offers.first.click()
        page.wait_for_function("(at) => document.body.dataset.step !== at", arg=at)
    finally:
        context.close()


def test_the_screenshots_are_made_at_both_sizes_by_one_command(tmp_path) -> None:
    import subprocess
    import sys

    from PIL import Image

    from d2r_envs.web.screenshots import SIZES as SHOT_SIZES
    from tests.web.conftest import ROOT

    assert SHOT_SIZES == SIZES
    command = [sys.executable, "-m", "d2r_envs.web.screenshots", "--games", "filthy_rich", "--moves", "1",
               "--out", str(tmp_path), "--chromium", CHROMIUM]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for size, (width, height) in SIZES.items():
        assert Image.open(tmp_path / f"filthy_rich-{size}.png").size == (width, height)


def test_on_a_phone_the_picture_fits_and_on_a_smaller_screen_it_pans_or_shows_whole(server, browser) -> None:  # noqa: F811
    base, _ = server
    context, page = _page(browser, "phone")
    try:
        r = page.request.post(base + "/api/tables", data={"game": "rap_godz", "players": 2, "opponents": ["random"]})
        page.goto(base + r.json()["url"])
        page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
        width = "() => [...document.querySelectorAll('#picture svg')].find((s) => s.getClientRects().length).getBoundingClientRect().width"
        box = page.evaluate("() => document.querySelector('#picture').clientWidth")
        assert page.evaluate(width) <= box and not page.is_visible("#fit")  # the narrow drawing, across the width
        page.set_viewport_size({"width": 320, "height": 640})  # narrower than the narrow drawing: it pans
        page.wait_for_function("() => !document.getElementById('fit').hidden")
        box = page.evaluate("() => document.querySelector('#picture').clientWidth")
        assert page.evaluate(width) > box
        page.click("#fit")
        assert page.evaluate(width) <= box and "own size" in page.text_content("#fit")
        page.click("#fit")
        assert page.evaluate(width) > box
        page.set_viewport_size({"width": 1280, "height": 800})  # the wide drawing, at its own size
        page.wait_for_function("() => document.getElementById('fit').hidden")
        assert page.evaluate(width) >= 1200
    finally:
        context.close()
