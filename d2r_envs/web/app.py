"""The web app of `d2r serve`: its routes, the checks every request passes, and the server.

Pages (plain HTML and a little JavaScript from static/, nothing from outside the machine):
  /                   choose a game, players, options and opponents; the replays in the folder
  /table/<id>         play your seat by clicking legal moves
  /replay?name=<f>    step through a replay of the replay folder
JSON (every refusal is a 4xx with {"error": what is wrong and what is allowed}, and changes nothing):
  GET  /api/games                   the games, their guides, options, levels and the agents a seat may take
  POST /api/tables                  a new table {game, players, seat, options, seed} and level or opponents
  GET  /api/tables/<id>?since=<k>   the table as your seat sees it (the log from event k on)
  POST /api/tables/<id>/move        your move {step, action}
  POST /api/tables/<id>/next        the next opponent's move {step}
  GET  /api/replays                 the replays in the folder
  GET  /api/replay?name=<f>         one replay: game, players, agents, result, number of steps
  GET  /api/replay/frame?name=<f>&step=<i>&seat=<above|k>   one step of it
Agents think in a worker thread (run_in_threadpool), so a slow one never blocks the event loop.
"""

from __future__ import annotations

import json
import logging
import math
import re
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from d2r_envs.web.choices import Choices
from d2r_envs.web.errors import Refused, clip
from d2r_envs.web.folder import Folder
from d2r_envs.web.tables import Table, Tables
from d2r_envs.web.viewer import Steps, seat_of

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16_384  # bytes: a request here is a few hundred
MAX_NUMBER = 20  # characters of a number in a body: a seed has at most 19 digits
MAX_DEPTH = 8  # levels of arrays and objects in a body: a new table nests two
COOKIE = "d2r_table"
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{22}")
CACHED_REPLAYS = 4  # replays kept stepped through; one is a state per decision, at most the game's cap
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
log = logging.getLogger("d2r_envs.web")


async def read_json(request: Request) -> Any:
    """The request's JSON body: application/json, at most MAX_BODY bytes, valid JSON whose numbers are at
    most MAX_NUMBER characters and finite, nested at most MAX_DEPTH levels; Refused otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, f"send the body as JSON with Content-Type: application/json (got {clip(kind) if kind else 'none'})")
    length = request.headers.get("content-length")
    if length is not None and not re.fullmatch(r"[0-9]{1,12}", length):
        raise Refused(400, f"Content-Length {clip(length)} is not a number of bytes")
    if length is not None and int(length) > MAX_BODY:
        raise Refused(413, f"request body of {int(length):,} bytes; at most {MAX_BODY:,} are read")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"request body over {MAX_BODY:,} bytes; at most {MAX_BODY:,} are read")
    try:
        value = json.loads(bytes(body), parse_int=_number(int), parse_float=_number(float), parse_constant=_not_a_number)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise Refused(400, f"the body is not valid JSON: {err}") from None
    except RecursionError:
        raise Refused(400, f"the body nests arrays or objects too deeply; a request here nests at most {MAX_DEPTH} levels") from None
    if _depth(value) > MAX_DEPTH:
        raise Refused(400, f"the body nests arrays or objects over {MAX_DEPTH} levels deep; a request here nests at most {MAX_DEPTH}")
    return value


def _number(kind: type) -> Any:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER:
            raise Refused(400, f"the body holds a number of {len(text):,} characters ({clip(text)}); "
                          f"a number here is at most {MAX_NUMBER} characters")
        value = kind(text)
        if not math.isfinite(value):
            raise Refused(400, f"the body holds the number {clip(text)}, too large to be a number here")
        return value

    return parse


def _not_a_number(name: str) -> Any:
    raise Refused(400, f"the body holds {name}, which JSON does not allow; a number here is finite")


def _depth(value: Any) -> int:
    """How many levels of arrays and objects `value` nests (a string or a number: 0), counted to
    MAX_DEPTH + 1 at most."""
    level, layer = 0, [value]
    while level <= MAX_DEPTH:
        layer = [x for x in layer if isinstance(x, (list, dict))]
        if not layer:
            break
        level += 1
        layer = [v for x in layer for v in (x.values() if isinstance(x, dict) else x)]
    return level


def _token(request: Request) -> str | None:
    value = request.cookies.get(COOKIE)
    return value if value and TOKEN.fullmatch(value) else None


def _int_query(request: Request, key: str, default: int | None = None) -> int:
    value = request.query_params.get(key)
    if value is None and default is not None:
        return default
    if value is None or not re.fullmatch(r"[0-9]{1,9}", value):
        raise Refused(400, f"query parameter {key!r} must be a whole number, got {'nothing' if value is None else clip(value)}")
    return int(value)


class Server:
    """The state behind the routes: the choices offered, the tables in play, the replay folder."""

    def __init__(self, replays: str | Path, models_dirs: list[str | Path] = (), max_tables: int = 64,
                 idle_seconds: float = 1800.0, per_browser: int = 4, clock=None) -> None:
        self.choices = Choices(models_dirs)
        self.tables = Tables(max_tables, idle_seconds, per_browser, **({"clock": clock} if clock else {}))
        self.folder = Folder(replays)
        self._steps: OrderedDict[tuple, Steps] = OrderedDict()
        self._steps_lock = threading.Lock()

    # Tables ---------------------------------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        return JSONResponse({"games": await run_in_threadpool(self.choices.games)})

    async def new_table(self, request: Request) -> Response:
        body = await read_json(request)
        token = _token(request) or secrets.token_urlsafe(32)

        def make() -> Table:
            setup, engine = self.choices.setup(body)
            agents = self.choices.make_agents(setup, engine)
            table = Table(setup, engine, agents, token, self.folder)
            self.tables.add(table)
            return table

        table = await run_in_threadpool(make)
        response = JSONResponse(table.look(), status_code=201)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    def _table(self, request: Request) -> Table:
        tid = request.path_params["tid"]
        if not TABLE_ID.fullmatch(tid):
            raise Refused(404, f"no table {clip(tid)}: a table id is 22 letters, digits, '-' or '_'")
        return self.tables.get(tid, _token(request))

    async def table(self, request: Request) -> Response:
        table = self._table(request)
        return JSONResponse(table.look(_int_query(request, "since", 0)))

    async def move(self, request: Request) -> Response:
        table = self._table(request)
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) != {"step", "action"}:
            raise Refused(400, "a move is a JSON object {\"step\": the step it was chosen at, \"action\": a legal action id}")
        since = _int_query(request, "since", 0)
        return JSONResponse(await run_in_threadpool(table.move, body["step"], body["action"], since))

    async def next(self, request: Request) -> Response:
        table = self._table(request)
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) != {"step"}:
            raise Refused(400, "the next opponent's move is asked for with {\"step\": the step the table is at}")
        since = _int_query(request, "since", 0)
        return JSONResponse(await run_in_threadpool(table.advance, body["step"], since))

    # Replays --------------------------------------------------------------------------------------

    async def replays(self, request: Request) -> Response:
        return JSONResponse({"replays": await run_in_threadpool(self.folder.names)})

    def _load(self, name: Any) -> Steps:
        key = self.folder.key(name)
        with self._steps_lock:
            if key in self._steps:
                self._steps.move_to_end(key)
                return self._steps[key]
        steps = Steps(self.folder.read(name))
        with self._steps_lock:
            self._steps[key] = steps
            while len(self._steps) > CACHED_REPLAYS:
                self._steps.popitem(last=False)
        return steps

    async def replay(self, request: Request) -> Response:
        name = request.query_params.get("name")
        steps = await run_in_threadpool(self._load, name)
        return JSONResponse({"name": name, **steps.about()})

    async def frame(self, request: Request) -> Response:
        name = request.query_params.get("name")
        steps = await run_in_threadpool(self._load, name)
        last = len(steps.frames) - 1
        step = _int_query(request, "step")
        if step > last:
            raise Refused(400, f"step {step} is past the end; this replay has steps 0..{last}")
        seat = seat_of(request.query_params.get("seat"), steps.data["num_players"])
        return JSONResponse(await run_in_threadpool(steps.frame, step, seat))


# Pages and errors -----------------------------------------------------------------------------------


def _page(name: str):
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")

    return page


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
    return JSONResponse(exc.body(), status_code=exc.status, headers=headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        message = (f"no such page {clip(request.url.path)}; the pages are /, /table/<id> and /replay?name=<file>, "
                   "the JSON under /api/ (see d2r_envs/web/app.py)")
    elif exc.status_code == 405:
        message = f"{request.method[:40]} is not allowed on {clip(request.url.path)}"
    else:
        message = str(exc.detail)
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("error on %s %s", request.method, request.url.path)
    return JSONResponse({"error": "the server failed on this request (its log has the details); nothing more is said here"},
                        status_code=500)


class _Guard:
    """Adds HEADERS to every response; with `hosts`, refuses a request whose Host header names another
    host (a page elsewhere reaching this server through DNS rebinding)."""

    def __init__(self, app, hosts: list[str] | None = None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        if self.hosts is not None:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = host[1:].partition("]")[0] if host.startswith("[") else host.partition(":")[0]
            if name not in self.hosts:
                response = JSONResponse({"error": f"Host {clip(host)} is not one this server answers to "
                                                  f"({', '.join(self.hosts)}): it serves this machine only"}, status_code=400)
                return await response(scope, receive, send_with)
        await self.app(scope, receive, send_with)


def create_app(replays: str | Path = "replays", models_dirs: list[str | Path] = (), max_tables: int = 64,
               idle_seconds: float = 1800.0, allowed_hosts: list[str] | None = None, clock=None,
               per_browser: int = 4) -> Starlette:
    """The app. `allowed_hosts`: the Host names it answers (None: any), against DNS rebinding;
    `per_browser`: the unfinished tables one browser keeps (one more forgets the one it used longest ago)."""
    server = Server(replays, models_dirs, max_tables, idle_seconds, per_browser, clock)
    routes = [
        Route("/", _page("index.html")),
        Route("/table/{tid}", _page("table.html")),
        Route("/replay", _page("replay.html")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/games", server.games),
        Route("/api/tables", server.new_table, methods=["POST"]),
        Route("/api/tables/{tid}", server.table),
        Route("/api/tables/{tid}/move", server.move, methods=["POST"]),
        Route("/api/tables/{tid}/next", server.next, methods=["POST"]),
        Route("/api/replays", server.replays),
        Route("/api/replay", server.replay),
        Route("/api/replay/frame", server.frame),
    ]
    middleware = [Middleware(_Guard, hosts=allowed_hosts)]
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={Refused: _refused, HTTPException: _http_error, Exception: _crash})
    app.state.server = server
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, replays: str | Path = "replays",
          models_dirs: list[str | Path] = (), max_tables: int = 64, idle_minutes: float = 30.0,
          per_browser: int = 4) -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    hosts = ["127.0.0.1", "localhost", "::1"] if host in ("127.0.0.1", "localhost", "::1") else None
    app = create_app(replays, models_dirs, max_tables, idle_minutes * 60, allowed_hosts=hosts, per_browser=per_browser)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
