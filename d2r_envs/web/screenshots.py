"""Screenshots of each game's table in the browser, on a laptop's screen and a phone's, for the
documentation (docs/screenshots/<game>-<size>.png, sizes in SIZES).

    python -m d2r_envs.web.screenshots [--out docs/screenshots] [--games G ...] [--sizes laptop phone]
                                       [--chromium /usr/bin/chromium]

Runs the app on a free port of 127.0.0.1 in a thread, opens each game in headless Chromium (Playwright
with the system's Chromium) at each size, seat 0 against the form's default opponents (the game's
weakest difficulty level) at its default player count with a fixed seed (the deal; an opponent that
draws at random draws from a stream of its own, so two runs may differ), clicks legal moves drawn from a
generator with that seed until the person has made `--moves` moves, and saves what the screen shows
when it is next the person's move. Needs the web extra, playwright and Chromium (the dev extra and
README's install line).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from d2r_envs import registry

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}  # CSS pixels


def _start(replays: Path):
    """The app under uvicorn in a thread on a free port: (server, base URL)."""
    import uvicorn

    from d2r_envs.web.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(replays), host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the app did not start within 30 s")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}"


def take(base: str, browser, game: str, out: Path, moves: int, seed: int, size: str = "laptop") -> Path:
    """Play `game` to the person's move after `moves` of theirs (each drawn at random from the legal
    ones, seeded) on a screen of `size` and save it as out/<game>-<size>.png."""
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=1,
                            is_mobile=size == "phone", has_touch=size == "phone")
    page.add_init_script("localStorage.setItem('d2r.delay', '0')")
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("body[data-status]")
    rng = np.random.default_rng(seed)
    made = 0
    while True:
        page.wait_for_selector("#moves button:not([disabled]), body[data-status='over']")
        if made >= moves or page.get_attribute("body", "data-status") == "over":
            break
        count = page.locator("#moves button").count()
        page.click(f"#moves button:not([disabled]) >> nth={int(rng.integers(count))}")
        made += 1
    if page.get_attribute("body", "data-status") == "over":
        print(f"{game}: the game ended after {made} of the person's moves; the picture shows its end")
    path = out / f"{game}-{size}.png"
    page.mouse.move(0, 0)  # no button under the pointer
    page.screenshot(path=str(path))
    page.close()
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m d2r_envs.web.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder for <game>.png (default docs/screenshots)")
    parser.add_argument("--games", nargs="+", choices=registry.names(), default=registry.names(), metavar="GAME")
    parser.add_argument("--sizes", nargs="+", choices=list(SIZES), default=list(SIZES), metavar="SIZE",
                        help="screens: " + ", ".join(f"{k} {w}x{h}" for k, (w, h) in SIZES.items()))
    parser.add_argument("--moves", type=int, default=6, help="the person's moves before the picture (default 6)")
    parser.add_argument("--seed", type=int, default=2026, help="each table's seed (default 2026)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium", help="the Chromium to drive")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as replays, sync_playwright() as p:
        server, base = _start(Path(replays))
        browser = p.chromium.launch(executable_path=args.chromium, headless=True)
        try:
            for game in args.games:
                for size in args.sizes:
                    print(take(base, browser, game, out, args.moves, args.seed, size))
        finally:
            browser.close()
            server.should_exit = True
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
