"""`d2r serve`: its options, its refusals before anything starts, the missing extra named, and a real
server on this machine answering on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from d2r_envs.cli import main as d2r

ROOT = Path(__file__).resolve().parents[2]


def test_serve_help_names_its_options(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        d2r(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--port", "--host", "--replays", "--models", "--max-tables", "--idle-minutes", "--per-browser",
                 "127.0.0.1"):
        assert flag in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--port", "70000"], "--port 70000 is not allowed; allowed: 1..65535"),
        (["--port", "0"], "--port 0 is not allowed; allowed: 1..65535"),
        (["--max-tables", "0"], "--max-tables and --per-browser must be at least 1"),
        (["--per-browser", "0"], "--max-tables and --per-browser must be at least 1"),
        (["--models", "/no/such/folder"], "--models /no/such/folder: not a folder"),
    ],
)
def test_serve_refuses_bad_options_before_starting(args: list[str], words: str, tmp_path: Path, capsys) -> None:
    assert d2r(["serve", "--replays", str(tmp_path / "r"), *args]) == 2
    assert words in capsys.readouterr().err


def test_serve_without_the_web_extra_names_the_install(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['starlette'] = None\n"
            "from d2r_envs.cli import main\n"
            f"sys.exit(main(['serve', '--replays', {str(tmp_path)!r}]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2
    assert "d2r serve needs the web extra (starlette is missing): pip install 'd2r_envs[web]'" in out.stderr


def test_serve_answers_on_127_0_0_1_and_only_to_its_own_host_names(servers, tmp_path: Path) -> None:
    base = servers.start(tmp_path / "replays")
    try:
        games = json.loads(urllib.request.urlopen(base + "/api/games", timeout=5).read())["games"]
        assert len(games) == 5
        request = urllib.request.Request(base + "/api/games", headers={"Host": "attacker.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 400 and "serves this machine only" in json.loads(refused.value.read())["error"]
    finally:
        out = servers.stop(servers.procs[-1])
    assert "http://127.0.0.1:" in out and (tmp_path / "replays").is_dir()


def test_new_tables_of_every_game_at_once_on_a_fresh_server_are_all_answered(servers, tmp_path: Path) -> None:
    """The first tables of a game import its modules (narration, pictures, heuristic) in worker threads;
    many at once on a fresh server each get a table, none a 500."""
    base = servers.start(tmp_path / "replays")
    games = json.loads(urllib.request.urlopen(base + "/api/games", timeout=5).read())["games"]

    def new(game: dict) -> int:
        body = {"game": game["name"], "players": game["min_players"], "opponents": ["heuristic"] * (game["min_players"] - 1)}
        request = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status
        except urllib.error.HTTPError as err:
            return err.code

    try:
        with ThreadPoolExecutor(30) as pool:
            statuses = list(pool.map(new, [g for g in games for _ in range(6)]))
    finally:
        out = servers.stop(servers.procs[-1])
    assert statuses == [201] * len(statuses), (statuses, out[-3000:])


def test_a_real_server_answers_hostile_bodies_with_a_400(servers, tmp_path: Path) -> None:
    base = servers.start(tmp_path / "replays")
    try:
        for body in (b'{"seed": 1' + b"2" * 5000 + b"}", b"[" * 5000 + b"]" * 5000):
            request = urllib.request.Request(base + "/api/tables", data=body, method="POST",
                                             headers={"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 400 and json.loads(refused.value.read())["error"].startswith("the body ")
    finally:
        out = servers.stop(servers.procs[-1])
    assert "Traceback" not in out


def test_serve_per_browser_bounds_the_unfinished_games_of_one_browser(servers, tmp_path: Path) -> None:
    import http.cookiejar

    base = servers.start(tmp_path / "replays", "--per-browser", "1")
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def new_table() -> str:
        body = json.dumps({"game": "filthy_rich", "players": 2, "opponents": ["random"]}).encode()
        request = urllib.request.Request(base + "/api/tables", data=body, headers={"Content-Type": "application/json"})
        return json.loads(browser.open(request, timeout=10).read())["id"]

    first = new_table()
    new_table()
    with pytest.raises(urllib.error.HTTPError) as gone:
        browser.open(base + f"/api/tables/{first}", timeout=10)
    assert gone.value.code == 404 and "at most 1 unfinished game:" in json.loads(gone.value.read())["error"]
