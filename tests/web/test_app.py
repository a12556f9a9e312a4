"""The browser table's web app through Starlette's TestClient: whole games of every game, the replays
they leave and the viewer stepping through them; and every kind of bad request, each refused with a
4xx and a JSON message that names what is wrong and what is allowed, changing nothing."""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import os
import pickle
import re
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

import d2r_envs
from d2r_envs import registry, replay
from d2r_envs.agents import RandomAgent
from d2r_envs.cli import main as d2r
from d2r_envs.core.game import CHANCE
from d2r_envs.opponents import available_models, shipped_model
from d2r_envs.web.app import MAX_BODY, create_app
from d2r_envs.web.picture import move_place, picture

NAMES = d2r_envs.names()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "replays"


@pytest.fixture
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder))


def new(client: TestClient, game: str = "filthy_rich", players: int = 2, **body):
    body = {"game": game, "players": players, "opponents": ["random"] * (players - 1), "seed": 7, **body}
    return client.post("/api/tables", json=body)


def table(client: TestClient, **body) -> dict:
    r = new(client, **body)
    assert r.status_code == 201, r.text
    return r.json()


def step(client: TestClient, view: dict, pick=lambda moves: moves[0]["action"]) -> dict:
    """One request that moves the game on: the person's move (`pick`), or the next opponent's."""
    tid, since = view["id"], view["log_next"]
    if view["status"] == "your move":
        r = client.post(f"/api/tables/{tid}/move?since={since}", json={"step": view["step"], "action": pick(view["moves"])})
    else:
        r = client.post(f"/api/tables/{tid}/next?since={since}", json={"step": view["step"]})
    assert r.status_code == 200, r.text
    return r.json()


def play_out(client: TestClient, view: dict) -> tuple[dict, list[str]]:
    """Play to the end; the view at the end and the whole log the seat was shown."""
    log = list(view["log"])
    while view["status"] != "over":
        view = step(client, view)
        log += view["log"]
    return view, log


def is_error(r, status: int, *words: str) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body.get("error"), str) and body["error"]
    for w in words:
        assert w in body["error"], (w, body["error"])
    return body


# What the app offers --------------------------------------------------------------------------------


def test_the_games_their_options_and_the_agents_a_seat_may_take(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert sorted(games) == NAMES
    for name, g in games.items():
        pkg = registry.package(name)
        spec = d2r_envs.make_game(name).spec
        assert (g["min_players"], g["max_players"], g["default_players"]) == (spec.min_players, spec.max_players, pkg.DEFAULT_PLAYERS)
        fields = [f.name for f in dataclasses.fields(pkg.Config) if f.name != "num_players"]
        assert [o["name"] for o in g["options"]] == fields
        ids = [a["id"] for a in g["agents"]]
        assert {"random", "heuristic", "mcts"} <= set(ids)
        models = sorted(available_models(name))
        assert sorted(i for i in ids if "/" in i) == models
        if models:  # the shipped model is the default, first
            assert ids[0] == f"{name}/{Path(shipped_model(name)).name}"


def test_the_pages_and_their_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    for path in ("/", "/table/abc", "/replay?name=x.json"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "script-src" not in r.headers["content-security-policy"]  # default-src 'self': no inline script
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert "<script>" not in r.text and "http://" not in r.text and "https://" not in r.text  # nothing from outside
    for name in ("common.js", "index.js", "table.js", "replay.js", "style.css", "icon.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    is_error(client.get("/static/../app.py"), 404)
    is_error(client.get("/nowhere"), 404, "no such page")
    is_error(client.get("/" + "n" * 5000), 404, f"no such page '/{'n' * 39}'...")
    is_error(client.delete("/api/games"), 405, "DELETE is not allowed")


# Whole games ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", NAMES)
def test_a_whole_game_of_every_game_is_played_and_saved_as_a_replay_that_plays_back(client, folder, game) -> None:
    spec = d2r_envs.make_game(game).spec
    view = table(client, game=game, players=spec.min_players)
    assert view["status"] in ("your move", "waiting") and view["seat"] == 0
    assert [s["agent"] for s in view["seats"]] == ["you"] + ["random"] * (spec.min_players - 1)
    end, log = play_out(client, view)
    result = end["result"]
    assert result["replay"] and result["replay_url"] == f"/replay?name={result['replay']}"
    best = max(result["returns"])
    won = [q for q, r in enumerate(result["returns"]) if r == best and r > spec.min_return]
    assert result["winners"] == won and result["text"].startswith("You win" if 0 in won else "You lose" if won else "Nobody")
    assert [s["seat"] for s in result["standings"]] == list(range(spec.min_players))
    assert all(s["text"] and s["winner"] == (s["seat"] in won) for s in result["standings"])
    assert end["title"] == registry.package(game).guide.NAME
    data = replay.load(folder / result["replay"])
    assert data["chance"] == "recorded" and data["seed"] == 7 and data["agents"] == ["person"] + ["random"] * (spec.min_players - 1)
    assert len(data["actions"]) == end["step"]
    assert replay.play_back(data) == result["returns"]
    # the viewer steps through it: the end from seat 0 shows the log the person was shown, line for line
    about = client.get("/api/replay", params={"name": result["replay"]}).json()
    assert about["returns"] == result["returns"] and about["agents"] == data["agents"]
    last = client.get("/api/replay/frame", params={"name": result["replay"], "step": about["last"], "seat": "0"}).json()
    assert last["log"] == log and last["result"]["returns"] == result["returns"] and last["player"] is None
    first = client.get("/api/replay/frame", params={"name": result["replay"], "step": 0, "seat": "above"}).json()
    assert first["player"] is not None and first["next"] and first["picture"].startswith(("<pre", "<div"))


def _chance_bits(game: str, players: int, actions: list[int]) -> float:
    """How unlikely the chance outcomes among `actions` are, in bits: a generator seeded with some other
    number draws them all with probability 2 ** -bits."""
    engine = d2r_envs.make_game(game, players)
    state, bits = engine.new_initial_state(), 0.0
    for action in actions:
        if engine.current_player(state) == CHANCE:
            bits -= math.log2(dict(engine.chance_outcomes(state))[action])
        engine.apply_action(state, action)
    return bits


def _chance_drawn(game: str, players: int, actions: list[int], seed: int) -> bool:
    """Whether a generator seeded with `seed` draws the chance outcomes among `actions` (a table's, in
    order), as the engine's sample_chance draws them: dealing the game again from that seed."""
    engine = d2r_envs.make_game(game, players)
    state, rng = engine.new_initial_state(), np.random.default_rng(seed)
    for action in actions:
        if engine.current_player(state) == CHANCE and engine.sample_chance(state, rng) != action:
            return False
        engine.apply_action(state, action)
    return True


@pytest.mark.parametrize("game", NAMES)
def test_the_seed_stays_on_the_server_until_the_game_is_over(client: TestClient, folder: Path, game: str) -> None:
    """Nothing sent while the game is on (JSON, pages, headers) holds the seed, and no number sent deals
    the game again; the finished table and its replay tell it."""
    spec = d2r_envs.make_game(game).spec
    body = {"game": game, "players": spec.min_players, "opponents": ["random"] * (spec.min_players - 1)}
    r = client.post("/api/tables", json=body)  # no seed: the server draws one
    assert r.status_code == 201
    view = r.json()
    held = client.app.state.server.tables.get(view["id"], client.cookies["d2r_table"])
    seed = held.setup.seed
    assert seed >= 10**6 and view["seed"] is None  # one of 2**63: long enough to look for
    sent = [r]
    for _ in range(300):  # until chance has drawn enough that no other number could deal it by luck
        if view["status"] == "over" or _chance_bits(game, spec.min_players, held.actions) >= 64:
            break
        tid, since = view["id"], view["log_next"]
        if view["status"] == "your move":
            r = client.post(f"/api/tables/{tid}/move?since={since}", json={"step": view["step"], "action": view["moves"][0]["action"]})
        else:
            r = client.post(f"/api/tables/{tid}/next?since={since}", json={"step": view["step"]})
        sent.append(r)
        view = r.json()
    sent += [client.get(f"/api/tables/{view['id']}"), client.get(view["url"]), client.get("/"), client.get("/static/table.js")]
    numbers = set()
    for answer in sent:
        text = answer.text + "".join(f"{k}: {v}" for k, v in answer.headers.items())
        assert str(seed) not in text and hex(seed)[2:] not in text.lower()
        numbers |= {int(n) for n in re.findall(r"\d{1,19}", text)}
    assert _chance_bits(game, spec.min_players, held.actions) >= 64
    assert _chance_drawn(game, spec.min_players, held.actions, seed)  # the seed deals it again, so it must not leak
    assert not any(_chance_drawn(game, spec.min_players, held.actions, n) for n in sorted(numbers)[:500])
    end, _ = play_out(client, view)
    assert end["seed"] == seed and replay.load(folder / end["result"]["replay"])["seed"] == seed


def test_a_seed_typed_in_deals_the_game_and_the_agents_choose_for_themselves(client: TestClient, folder: Path) -> None:
    """The same seed gives the same deal and, for the same actions, the same chance draws; the agents
    draw from generators of their own, not from the seed."""
    names = []
    for _ in range(2):
        view = table(client, game="rap_godz", players=2, seed=11)
        assert view["seed"] is None  # the person knows it; it is not sent back while the game is on
        end, _ = play_out(client, view)
        names.append(end["result"]["replay"])
    a, b = (replay.load(folder / n) for n in names)
    assert names == ["rap_godz_11_web.json", "rap_godz_11_web-2.json"]
    engine = d2r_envs.make_game("rap_godz", 2)
    state, deal = engine.new_initial_state(), 0
    while engine.current_player(state) == CHANCE:
        engine.apply_action(state, a["actions"][deal])
        deal += 1
    assert deal > 0 and a["actions"][:deal] == b["actions"][:deal]  # the same deal
    assert a["actions"] != b["actions"]  # the random opponent chose otherwise: its generator is its own
    for data in (a, b):
        assert replay.play_back(data) == data["returns"] and _chance_drawn("rap_godz", 2, data["actions"], 11)


def test_the_seat_sees_only_its_own_view_and_moves_explained(client: TestClient) -> None:
    view = table(client, game="rap_godz", players=2, seat=1, seed=3)
    game = d2r_envs.make_game("rap_godz", 2)
    while view["status"] != "your move":
        view = step(client, view)
    held = client.app.state.server.tables.get(view["id"], client.cookies["d2r_table"])
    assert view["seat"] == 1 and view["picture"] == picture(held.game, held.state, 1, [m["action"] for m in view["moves"]], held.last_place) \
        != picture(held.game, held.state, None)
    assert all(set(m) == {"action", "name", "explain"} for m in view["moves"])
    assert len(view["moves"]) == len({m["action"] for m in view["moves"]}) > 0
    assert game.spec.num_actions > max(m["action"] for m in view["moves"])


@pytest.mark.parametrize("game", NAMES)
def test_the_viewer_steps_through_a_simulated_replay_as_the_env_played_it(tmp_path: Path, game: str) -> None:
    """An "env" replay (d2r simulate --record): its chance outcomes are redrawn one by one from the env's
    seed; every frame's state is the one the env was in before that action."""
    folder = tmp_path / "replays"
    assert d2r(["simulate", game, "--games", "1", "--seed", "5", "--record", str(folder)]) == 0
    name = f"{game}_000005.json"
    data = replay.load(folder / name)
    seen = []
    replay.play_back(data, on_step=lambda g, state, player, action: seen.append(
        (player, picture(g, state, None, (), move_place(g, state, action, None)))))
    client = TestClient(create_app(folder))
    about = client.get("/api/replay", params={"name": name}).json()
    assert about["last"] == len(data["actions"]) == len(seen) and about["chance"] == "env"
    for i in sorted({0, 1, len(seen) // 2, len(seen) - 1}):
        frame = client.get("/api/replay/frame", params={"name": name, "step": i, "seat": "above"}).json()
        assert frame["player"] == seen[i][0]
        assert frame["picture"] == seen[i][1]
    end = client.get("/api/replay/frame", params={"name": name, "step": about["last"], "seat": "1"}).json()
    assert end["result"]["returns"] == data["returns"] and end["player"] is None
    assert any(name in f["name"] for f in client.get("/api/replays").json()["replays"])


def test_a_seat_may_be_taken_by_a_local_model_and_by_mcts(tmp_path: Path, write_numpy_model) -> None:
    models = tmp_path / "mine"
    write_numpy_model(models / "draco_and_co" / "tiny")
    alone = write_numpy_model(tmp_path / "alone", game="filthy_rich")  # a model folder itself
    client = TestClient(create_app(tmp_path / "replays", models_dirs=[models, alone]))
    games = {g["name"]: [a["id"] for a in g["agents"]] for g in client.get("/api/games").json()["games"]}
    assert "draco_and_co/tiny" in games["draco_and_co"] and "filthy_rich/alone" in games["filthy_rich"]
    assert "draco_and_co/alone" not in games["draco_and_co"] and "filthy_rich/tiny" not in games["filthy_rich"]
    assert table(client, opponents=["filthy_rich/alone"])["seats"][1]["agent"] == "filthy_rich/alone"
    view = table(client, game="draco_and_co", players=3, opponents=["draco_and_co/tiny", "mcts:5"])
    assert [s["agent"] for s in view["seats"]] == ["you", "draco_and_co/tiny", "mcts:5"]
    end, _ = play_out(client, view)
    assert replay.load(tmp_path / "replays" / end["result"]["replay"])["agents"] == ["person", "draco_and_co/tiny", "mcts:5"]


# Bad requests --------------------------------------------------------------------------------------


def test_malformed_and_oversized_bodies_are_refused(client: TestClient) -> None:
    h = {"content-type": "application/json"}
    is_error(client.post("/api/tables", content=b"{not json", headers=h), 400, "not valid JSON")
    is_error(client.post("/api/tables", content=b"\xff\xfe", headers=h), 400, "not valid JSON")
    is_error(client.post("/api/tables", content=b"[1, 2]", headers=h), 400, "JSON object", "got an array")
    is_error(client.post("/api/tables", content=b"null", headers=h), 400, "JSON object", "got null")
    is_error(client.post("/api/tables", content=b"{}", headers={"content-type": "text/" + "x" * 500}), 415, "...")
    is_error(client.post("/api/tables", content=b"game=filthy_rich", headers={"content-type": "application/x-www-form-urlencoded"}),
             415, "application/json")
    big = json.dumps({"game": "filthy_rich", "options": {"x": "y" * MAX_BODY}}).encode()
    is_error(client.post("/api/tables", content=big, headers=h), 413, f"{MAX_BODY:,}")

    def chunks():  # no Content-Length: the limit holds on what is read
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    is_error(client.post("/api/tables", content=chunks(), headers=h), 413, f"{MAX_BODY:,}")
    assert len(client.app.state.server.tables) == 0


HOSTILE = [  # (body, words of the refusal)
    (b'{"seed": 1' + b"2" * 5000 + b"}", ["a number of 5,001 characters", "at most 20"]),
    (b"[" * 5000 + b"]" * 5000, ["nests arrays or objects too deeply", "at most 8 levels"]),
    (b"[" * 20 + b"]" * 20, ["over 8 levels deep"]),
    (b'{"seed": NaN}', ["NaN, which JSON does not allow"]),
    (b'{"step": -Infinity}', ["-Infinity, which JSON does not allow"]),
    (b'{"step": 1e999}', ["the number '1e999', too large"]),
]


def test_hostile_bodies_are_refused_on_every_route_that_reads_one(client: TestClient) -> None:
    view = _views(client, table(client, game="drags_2_riches", players=2, seed=1), "your move")
    tid = view["id"]
    h = {"content-type": "application/json"}
    for route in ("/api/tables", f"/api/tables/{tid}/move", f"/api/tables/{tid}/next"):
        for body, words in HOSTILE:
            r = client.post(route, content=body, headers=h)
            is_error(r, 400, *words)
            assert len(r.json()["error"]) < 300, (route, r.json()["error"])
    assert len(client.app.state.server.tables) == 1
    assert client.get(f"/api/tables/{tid}").json()["step"] == view["step"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"game": "chess"}, ["unknown game 'chess'", "draco_and_co"]),
        ({"game": 3}, ["unknown game 3"]),
        ({"players": 6}, ["players 6 is not allowed", "2..5"]),
        ({"players": True}, ["players True is not allowed"]),
        ({"seat": 2}, ["seat 2 is not allowed", "0..1"]),
        ({"options": {"speed": 1}}, ["unknown option(s) 'speed'", "one_tax_per_turn"]),
        ({"options": {"one_tax_per_turn": "yes"}}, ["'one_tax_per_turn' must be true or false"]),
        ({"options": {"num_players": 3}}, ["the player count goes in the field 'players'"]),
        ({"options": [1]}, ["options must be a JSON object"]),
        ({"opponents": ["random", "random"]}, ["a list of 1 agent names", "player_1"]),
        ({"opponents": "random"}, ["a list of 1 agent names"]),
        ({"opponents": ["alphazero"]}, ["unknown agent 'alphazero' for player_1", "heuristic", "mcts:N (N = 1..10000)", "filthy_rich/ppo-v2"]),
        ({"opponents": ["mcts:0"]}, ["unknown agent 'mcts:0'"]),
        ({"opponents": ["mcts:100000"]}, ["unknown agent 'mcts:100000'"]),
        ({"opponents": ["../../models/filthy_rich/ppo-v2"]}, ["unknown agent '../../models/filthy_rich/ppo-v2'"]),
        ({"opponents": ["draco_and_co/ppo-v2"]}, ["unknown agent 'draco_and_co/ppo-v2'"]),
        ({"seed": -1}, ["seed -1 is not allowed"]),
        ({"seed": "7"}, ["seed '7' is not allowed"]),
        ({"colour": "red"}, ["unknown field(s) 'colour'", "game, players, seat, opponents, options, seed"]),
        ({"options": "fast"}, ["options must be a JSON object", "got a string"]),
        ({"options": [None]}, ["got an array"]),
        ({"opponents": None}, ["a list of 1 agent names", "got null"]),
        ({"opponents": [True]}, ["got a list of 1: true"]),
        ({"game": "g" * 15_000}, ["unknown game 'gggggggggggggggggggggggggggggggggggggggg'..."]),
        ({"options": {"o" * 15_000: 1}}, ["unknown option(s) 'oooooooooooooooooooooooooooooooooooooooo'..."]),
        ({"game": "extravaganza", "options": {"categories": "c" * 15_000}},
         ["option 'categories' = 'cccccccccccccccccccccccccccccccccccccccc'... is not allowed"]),
        ({"opponents": ["a" * 15_000]}, ["unknown agent 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... for player_1"]),
        ({"seed": 10**19}, ["seed 10000000000000000000 is not allowed"]),
    ],
)
def test_a_bad_new_table_is_refused_naming_what_is_allowed(client: TestClient, change: dict, words: list[str]) -> None:
    body = {"game": "filthy_rich", "players": 2, "opponents": ["random"], "seed": 7, **change}
    error = is_error(client.post("/api/tables", json=body), 400, *words)["error"]
    assert len(error) < 600 and "NoneType" not in error and "JSON list" not in error and "JSON dict" not in error
    assert len(client.app.state.server.tables) == 0


def test_a_model_that_does_not_load_is_refused_with_why(tmp_path: Path, write_numpy_model) -> None:
    models = tmp_path / "mine"
    folder = write_numpy_model(models / "draco_and_co" / "stale")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["game_version"] += 1
    (folder / "manifest.json").write_text(json.dumps(manifest))
    client = TestClient(create_app(tmp_path / "replays", models_dirs=[models]))
    r = new(client, game="draco_and_co", players=3, opponents=["random", "draco_and_co/stale"])
    is_error(r, 400, "player_2 (draco_and_co/stale)", "game version")
    assert len(client.app.state.server.tables) == 0


def _views(client: TestClient, view: dict, want: str) -> dict:
    while view["status"] != want:
        view = step(client, view)
    return view


def test_illegal_stale_and_out_of_turn_moves_change_nothing(client: TestClient) -> None:
    view = _views(client, table(client, game="drags_2_riches", players=2, seed=1), "your move")
    tid, at = view["id"], view["step"]
    legal = [m["action"] for m in view["moves"]]
    illegal = next(a for a in range(d2r_envs.make_game("drags_2_riches").spec.num_actions) if a not in legal)

    def unchanged() -> None:
        now = client.get(f"/api/tables/{tid}").json()
        assert now["step"] == at and now["log_next"] == view["log_next"] and now["moves"] == view["moves"]

    move = f"/api/tables/{tid}/move"
    body = is_error(client.post(move, json={"step": at, "action": illegal}), 400, "legal for you (player_0)")
    assert body["legal"] == legal and "player 0" not in body["error"]
    is_error(client.post(move, json={"step": at, "action": 10**18}), 400, "out of range")
    is_error(client.post(move, json={"step": at + 3, "action": legal[0]}), 409, f"step {at + 3} is ahead of the game",
             f"at step {at}")
    for bad in (True, "1", 1.5, None, -1):
        is_error(client.post(move, json={"step": at, "action": bad}), 400)
    is_error(client.post(move, json={"step": at - 1, "action": legal[0]}), 409, f"chosen at step {at - 1}", f"at step {at}")
    is_error(client.post(move, json={"step": "now", "action": legal[0]}), 400, "'step' must be")
    is_error(client.post(move, json={"action": legal[0]}), 400, "step")
    is_error(client.post(move, json={"step": at, "action": legal[0], "also": 1}), 400)
    is_error(client.post(f"/api/tables/{tid}/next", json={"step": at}), 409, "it is your move")
    is_error(client.post(f"{move}?since=999999", json={"step": at, "action": legal[0]}), 400, "'since'")
    is_error(client.get(f"/api/tables/{tid}?since=-1"), 400, "'since'")
    unchanged()
    after = client.post(move, json={"step": at, "action": legal[0]})
    assert after.status_code == 200
    is_error(client.post(move, json={"step": at, "action": legal[0]}), 409, "stale")  # the same click twice
    waiting = _views(client, after.json(), "waiting")
    is_error(client.post(move, json={"step": waiting["step"], "action": legal[0]}), 409, "turn", "not yours")
    end, _ = play_out(client, waiting)
    is_error(client.post(f"/api/tables/{tid}/next", json={"step": end["step"]}), 409, "the game is over")


def test_a_table_answers_only_the_browser_that_made_it(client: TestClient) -> None:
    view = table(client)
    tid = view["id"]
    assert len(tid) == 22 and client.cookies.get("d2r_table")
    other = TestClient(client.app)
    is_error(other.get(f"/api/tables/{tid}"), 403, "another browser session")
    is_error(other.post(f"/api/tables/{tid}/next", json={"step": view["step"]}), 403)
    forged = TestClient(client.app, cookies={"d2r_table": "x" * 43})
    is_error(forged.post(f"/api/tables/{tid}/move", json={"step": view["step"], "action": 0}), 403)
    is_error(other.get(f"/api/tables/{tid}", headers=[(b"cookie", "d2r_table=é".encode() * 20)]), 403)
    assert client.get(f"/api/tables/{tid}").json()["step"] == view["step"]
    # a second table from the same browser keeps the same token; another browser's gets its own
    assert table(client)["id"] != tid
    assert other.post("/api/tables", json={"game": "filthy_rich", "players": 2, "opponents": ["random"]}).status_code == 201
    assert other.cookies.get("d2r_table") != client.cookies.get("d2r_table")
    is_error(client.get("/api/tables/" + "A" * 22), 404, "no table")
    is_error(client.get("/api/tables/..%2F..%2Fetc"), 404)
    is_error(client.get("/api/tables/short"), 404, "a table id is 22 letters")


def test_tables_are_bounded_in_number_and_idle_time(tmp_path: Path) -> None:
    clock = Clock()
    client = TestClient(create_app(tmp_path / "replays", max_tables=2, idle_seconds=600, clock=clock))
    a, b = table(client), table(client)
    r = new(client)
    body = is_error(r, 503, "at most 2 tables", "10 minutes")
    assert r.headers["retry-after"] == str(body["retry_after"]) == "600"
    play_out(client, a)  # a finished table makes way for a new one
    c = table(client)
    is_error(client.get(f"/api/tables/{a['id']}"), 404, "no table")
    clock.now += 300
    assert client.get(f"/api/tables/{b['id']}").status_code == 200  # a request keeps it alive
    clock.now += 400  # c idle for 700 s, b for 400 s
    is_error(client.get(f"/api/tables/{c['id']}"), 404, "forgotten after 10 minutes")
    assert client.get(f"/api/tables/{b['id']}").status_code == 200
    table(client)
    assert len(client.app.state.server.tables) == 2


def test_the_bounds_are_told_with_counted_nouns(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "replays", max_tables=1, idle_seconds=60, clock=Clock()))
    table(client)
    is_error(new(client), 503, "after 1 minute without")


def test_a_browser_keeps_a_few_unfinished_tables_and_one_more_forgets_its_least_used(tmp_path: Path) -> None:
    clock = Clock()
    client = TestClient(create_app(tmp_path / "replays", max_tables=8, per_browser=3, clock=clock))
    views = []
    for _ in range(3):
        clock.now += 1
        views.append(table(client))
    a, b, c = (v["id"] for v in views)
    clock.now += 1
    assert client.get(f"/api/tables/{a}").status_code == 200  # a used last: b is now the least used
    clock.now += 1
    d = table(client)["id"]
    is_error(client.get(f"/api/tables/{b}"), 404, "no table", "a browser keeps at most 3 unfinished games", "start a new one")
    assert all(client.get(f"/api/tables/{t}").status_code == 200 for t in (a, c, d))
    play_out(client, client.get(f"/api/tables/{c}").json())  # a finished table does not count
    clock.now += 1
    e = table(client)["id"]
    assert all(client.get(f"/api/tables/{t}").status_code == 200 for t in (a, c, d, e))
    other = TestClient(client.app)  # another browser's tables leave this one's alone
    for _ in range(5):
        assert other.post("/api/tables", json={"game": "filthy_rich", "players": 2, "opponents": ["random"]}).status_code == 201
    assert all(client.get(f"/api/tables/{t}").status_code == 200 for t in (a, c, d, e))
    assert len(client.app.state.server.tables) == 7  # 3 + 1 finished here, 3 for the other browser


def test_a_new_table_refused_when_the_server_is_full_ends_none_of_the_browsers_tables(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "replays", max_tables=2, per_browser=1))
    mine = table(client)["id"]
    other = TestClient(client.app)
    assert other.post("/api/tables", json={"game": "filthy_rich", "players": 2, "opponents": ["random"]}).status_code == 201
    mine = table(client)["id"]  # the browser's one unfinished table made way for it: the server had room then
    third = TestClient(client.app)
    is_error(third.post("/api/tables", json={"game": "filthy_rich", "players": 2, "opponents": ["random"]}), 503, "at most 2 tables")
    assert client.get(f"/api/tables/{mine}").status_code == 200 and len(client.app.state.server.tables) == 2


def test_tables_playing_one_model_share_its_loaded_weights(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "replays"))
    other = TestClient(client.app)
    model = "drags_2_riches/ppo-v2"
    views = [table(c, game="drags_2_riches", players=3, opponents=[model, model]) for c in (client, other)]
    tables = client.app.state.server.tables
    agents = [a for c, v in zip((client, other), views) for a in tables.get(v["id"], c.cookies["d2r_table"]).agents.values()]
    assert len(agents) == 4 and len({id(a) for a in agents}) == 4 and len({id(a.observer) for a in agents}) == 4
    policy = agents[0].policy
    assert all(a.policy is policy for a in agents) and len(client.app.state.server.choices.loaded) == 1
    assert not policy._weights_t[0].flags.writeable
    for c, v in zip((client, other), views):
        play_out(c, v)


def test_a_slow_opponent_thinks_in_a_thread_and_never_blocks_the_server(client: TestClient, monkeypatch) -> None:
    thinking = threading.Event()
    real = RandomAgent.act

    def slow(self, game, state, seat, rng):
        thinking.set()
        time.sleep(1.5)
        return real(self, game, state, seat, rng)

    with client:  # one event loop for every request, as a server has
        view = _views(client, table(client, game="filthy_rich", players=2), "waiting")
        monkeypatch.setattr(RandomAgent, "act", slow)
        answers = {}
        worker = threading.Thread(target=lambda: answers.update(r=client.post(f"/api/tables/{view['id']}/next", json={"step": view["step"]})))
        worker.start()
        assert thinking.wait(5)
        t = time.perf_counter()
        assert client.get("/api/games").status_code == 200
        is_error(client.get(f"/api/tables/{view['id']}"), 409, "busy")
        is_error(client.post(f"/api/tables/{view['id']}/next", json={"step": view["step"]}), 409, "busy")
        assert time.perf_counter() - t < 1.0
        worker.join(10)
        assert answers["r"].status_code == 200 and answers["r"].json()["step"] > view["step"]


def test_replays_outside_the_folder_or_not_replays_are_refused(client: TestClient, folder: Path, tmp_path: Path) -> None:
    end, _ = play_out(client, table(client))
    good = end["result"]["replay"]
    outside = tmp_path / "outside.json"
    outside.write_text((folder / good).read_text())
    os.symlink(outside, folder / "link.json")
    os.symlink(tmp_path, folder / "dir.json")
    (folder / "broken.json").write_text("{not json")
    tampered = json.loads((folder / good).read_text())
    tampered["returns"] = tampered["returns"][::-1]
    (folder / "tampered.json").write_text(json.dumps(tampered))
    (folder / "huge.json").write_bytes(b" " * (replay.MAX_BYTES + 1))
    (folder / "sub").mkdir()
    (folder / "sub" / "inner.json").write_text((folder / good).read_text())

    def about(name):
        return client.get("/api/replay", params={"name": name} if name is not None else {})

    for name in ("../outside.json", str(outside), "/etc/passwd", "sub/inner.json", "..", ".json", "a\\b.json",
                 "x.txt", "%2e%2e%2foutside.json", "", None, "x" * 300 + ".json"):
        is_error(about(name), 400, "replay")
    is_error(about("link.json"), 400, "symbolic link")
    is_error(about("dir.json"), 400, "symbolic link")
    is_error(about("missing.json"), 404, "no replay 'missing.json'")
    is_error(about("broken.json"), 422, "not a JSON replay")
    is_error(about("tampered.json"), 422, "does not play back", "outcome differs")
    is_error(about("huge.json"), 413, "at most 4,000,000")
    listed = [f["name"] for f in client.get("/api/replays").json()["replays"]]
    assert good in listed and "link.json" not in listed and "dir.json" not in listed and "inner.json" not in listed
    frame = "/api/replay/frame"
    last = about(good).json()["last"]
    is_error(client.get(frame, params={"name": good, "step": last + 1}), 400, f"steps 0..{last}")
    for bad in ("-1", "one", "", "1e3"):
        is_error(client.get(frame, params={"name": good, "step": bad}), 400, "'step' must be a whole number")
    is_error(client.get(frame, params={"name": good}), 400, "'step'")
    for seat in ("2", "-1", "player_0", "²"):
        is_error(client.get(frame, params={"name": good, "step": 0, "seat": seat}), 400, "above, or 0..1")
    is_error(client.get(frame, params={"name": "../outside.json", "step": 0}), 400, "replay name")


def test_a_crafted_replay_in_the_folder_is_refused_in_a_few_words(client: TestClient, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    good = replay.make("filthy_rich", 2, {}, 7, ["person", "random"], [], [0.0, 0.0], False, chance="recorded")
    crafted = {
        "digits": json.dumps(good).replace('"seed": 7', '"seed": 7' + "1" * 5000),
        "deep": '{"format": ' + "[" * 5000 + "]" * 5000 + "}",
        "game": json.dumps({**good, "game": "x" * 100_000}),
        "format": json.dumps({**good, "format": "q" * 100_000}),
        "option": json.dumps({**good, "options": {"one_tax_per_turn": "y" * 100_000}}),
        "option-name": json.dumps({**good, "options": {"k" * 100_000: 1}}),
        "players": json.dumps({**good, "num_players": 10**30}),
        "action": json.dumps({**good, "actions": [10**4000]}),
        "version": json.dumps({**good, "version": 10**4000}),
    }
    for name, text in crafted.items():
        (folder / f"{name}.json").write_text(text)
        for route, params in (("/api/replay", {}), ("/api/replay/frame", {"step": 0, "seat": "0"})):
            body = is_error(client.get(route, params={"name": f"{name}.json", **params}), 422)
            assert len(body["error"]) < 500, (name, route, len(body["error"]))


def test_nothing_is_ever_unpickled(client: TestClient, folder: Path, monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("something was unpickled")

    for name in ("load", "loads", "Unpickler"):
        monkeypatch.setattr(pickle, name, refuse)
    view = table(client, game="drags_2_riches", players=2, opponents=["drags_2_riches/ppo-v2"])
    end, _ = play_out(client, view)
    name = end["result"]["replay"]
    last = client.get("/api/replay", params={"name": name}).json()["last"]
    assert client.get("/api/replay/frame", params={"name": name, "step": last, "seat": "0"}).status_code == 200
    for path in (Path(d2r_envs.__file__).parent / "web").glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not imported & {"pickle", "dill", "joblib", "shelve", "torch"}, path
        assert "allow_pickle" not in path.read_text()


def test_a_server_on_this_machine_answers_only_to_its_own_host_names(folder: Path) -> None:
    app = create_app(folder, allowed_hosts=["127.0.0.1", "localhost", "::1"])
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000"):
        assert TestClient(app).get("/api/games", headers={"host": host}).status_code == 200
    for host in ("evil.example:8000", "127.0.0.1.evil.example", "", "e" * 5000):
        error = is_error(TestClient(app).get("/api/games", headers={"host": host}), 400, "serves this machine only")["error"]
        assert len(error) < 200


def test_a_failure_inside_is_a_500_that_says_nothing_of_it(client: TestClient, monkeypatch) -> None:
    def broken(self):
        raise RuntimeError("secret detail")

    monkeypatch.setattr(type(client.app.state.server.choices), "games", broken)
    r = TestClient(client.app, raise_server_exceptions=False).get("/api/games")
    assert r.status_code == 500 and "secret" not in r.text and "Traceback" not in r.text
    assert "error" in r.json()
