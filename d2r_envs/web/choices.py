"""What a table may be made of: the games, their player counts and options, the agents that can take a
seat; and checking a request for a new table against them, naming what is wrong and what is allowed."""

from __future__ import annotations

import dataclasses
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from d2r_envs import difficulty, registry
from d2r_envs.agents import PolicyAgent, make_agent
from d2r_envs.core import config as _config
from d2r_envs.core.game import Game
from d2r_envs.opponents import (MANIFEST_FILE, OpponentError, SharedModels, available_models, read_manifest,
                                resolve_model, shipped_model)
from d2r_envs.web import about
from d2r_envs.web.errors import Refused, clip, json_type

MAX_MCTS = 10_000  # simulations a move: about 15 s a move on one core for the slowest game
DEFAULT_MCTS = 200
MAX_SEED = 2**63 - 1  # a seed the server draws is any of these: too many to try one by one
FIELDS = ("game", "players", "seat", "opponents", "options", "seed", "level")
_MCTS = re.compile(r"mcts:(\d{1,6})")


@dataclass(frozen=True)
class Setup:
    """A checked request: everything a table needs to start."""

    game: str
    num_players: int
    seat: int
    options: dict[str, Any]
    opponents: dict[int, str]  # seat -> agent spec as make_agent takes it (a model: its folder)
    names: dict[int, str]  # seat -> the agent's name, as shown and recorded in the replay
    seed: int
    models: frozenset[int] = frozenset()  # the seats a model plays (its spec is its folder)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Choices:
    """The games and agents this server offers. `models_dirs`: more models, each a model folder itself
    (its manifest names the game) or a folder laid out like models/ (`DIR/<game>/<name>/manifest.json`),
    searched before ./models and the repository's models/."""

    def __init__(self, models_dirs: list[str | Path] = ()) -> None:
        self.models_dirs = [Path(d).resolve() for d in models_dirs]
        self.loaded = SharedModels()  # one copy of each model's weights for every table

    def models(self, game: str) -> dict[str, Path]:
        """The model ids `<game>/<name>` a seat may take, each with its folder."""
        found: dict[str, Path] = {}
        for root in self.models_dirs:
            if (root / MANIFEST_FILE).is_file():
                try:
                    if read_manifest(root).get("game") == game:
                        found.setdefault(f"{game}/{root.name}", root)
                except OpponentError:
                    pass  # not offered; loading it would say why
                continue
            for manifest in sorted(root.glob(f"{game}/*/{MANIFEST_FILE}")):
                found.setdefault(f"{game}/{manifest.parent.name}", manifest.parent)
        for ref in available_models(game):
            if ref not in found:
                found[ref] = resolve_model(ref)
        return found

    def shipped(self, game: str) -> str | None:
        """The id of the game's shipped model, None for a game without one."""
        try:
            return f"{game}/{Path(shipped_model(game)).name}"
        except OpponentError:
            return None

    def agents(self, game: str) -> list[dict[str, str]]:
        """The agents a seat of `game` may take: id and label, the default first."""
        shipped = self.shipped(game)
        models = [{"id": ref, "label": ref + (" (shipped)" if ref == shipped else "")} for ref in self.models(game)]
        models.sort(key=lambda m: m["id"] != shipped)
        built_in = [
            {"id": "heuristic", "label": "heuristic (hand-written rules)"},
            {"id": "random", "label": "random (uniform legal moves)"},
            {"id": "mcts", "label": f"MCTS (information-set search; budget 1..{MAX_MCTS} simulations a move)"},
        ]
        return (models[:1] + built_in + models[1:]) if shipped else (built_in + models)

    def games(self) -> list[dict[str, Any]]:
        """Everything the new-table form offers, per game."""
        out = []
        for name in registry.names():
            pkg = registry.package(name)
            spec = registry.make_game(name).spec
            out.append({
                "name": name,
                **about.guide(name),
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "default_players": pkg.DEFAULT_PLAYERS,
                "options": _options(pkg.Config),
                "levels": [{"name": x.name, "about": x.about, "agent": x.agent} for x in difficulty.levels(name)],
                "agents": self.agents(name),
                "mcts": {"default": DEFAULT_MCTS, "min": 1, "max": MAX_MCTS},
            })
        return out

    # Checking a request ----------------------------------------------------------------------------

    def setup(self, body: Any) -> tuple[Setup, Game]:
        """The checked Setup of a new-table request, and its game's engine; Refused (400) otherwise."""
        if not isinstance(body, dict):
            raise Refused(400, f"a new table is a JSON object with the fields {', '.join(FIELDS)}; got {json_type(body)}")
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise Refused(400, f"unknown field(s) {', '.join(map(clip, unknown[:5]))}; allowed: {', '.join(FIELDS)}",
                          allowed=list(FIELDS))
        game = body.get("game")
        if not isinstance(game, str) or game not in registry.names():
            raise Refused(400, f"unknown game {clip(game)}; available games: {', '.join(registry.names())}",
                          allowed=registry.names())
        pkg = registry.package(game)
        spec = registry.make_game(game).spec
        n = body.get("players")
        n = pkg.DEFAULT_PLAYERS if n is None else n
        if not _is_int(n) or not spec.min_players <= n <= spec.max_players:
            raise Refused(400, f"{game}: players {clip(n)} is not allowed; allowed: {spec.min_players}..{spec.max_players}",
                          allowed=list(range(spec.min_players, spec.max_players + 1)))
        seat = body.get("seat", 0)
        if not _is_int(seat) or not 0 <= seat < n:
            raise Refused(400, f"seat {clip(seat)} is not allowed; allowed: 0..{n - 1} (player_0 .. player_{n - 1})",
                          allowed=list(range(n)))
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise Refused(400, f"options must be a JSON object of option: value, got {json_type(options)}")
        if "num_players" in options:
            raise Refused(400, "the player count goes in the field 'players', not among the options")
        try:
            engine = registry.make_game(game, n, **options)
        except (ValueError, TypeError) as err:
            names = [o["name"] for o in _options(pkg.Config)]
            raise Refused(400, str(err), allowed=names) from None
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
            raise Refused(400, f"seed {clip(seed)} is not allowed; allowed: a whole number 0..{MAX_SEED}, or null for a random one")
        if body.get("level") is not None:
            if body.get("opponents") is not None:
                raise Refused(400, "give either 'level' (every opponent plays at that level) or 'opponents' "
                              "(an agent for each other seat), not both")
            opponents, names = self._level(game, n, seat, body["level"])
        else:
            opponents, names = self._opponents(game, n, seat, body.get("opponents"))
        folders = {str(folder) for folder in self.models(game).values()}
        models = frozenset(q for q, spec in opponents.items() if spec in folders)
        return Setup(game, n, seat, dict(options), opponents, names, seed, models), engine

    def _level(self, game: str, n: int, seat: int, level: Any) -> tuple[dict[int, str], dict[int, str]]:
        """Every other seat at difficulty `level` (models/levels.json), each named "<level> (<agent>)"."""
        allowed = [x.name for x in difficulty.levels(game)]
        if not isinstance(level, str) or level not in allowed:
            raise Refused(400, f"unknown level {clip(level)} for {game}; its levels, weakest first: "
                          f"{', '.join(allowed) or 'none'}", allowed=allowed)
        agent = difficulty.agent_for(game, level)
        models = self.models(game)
        spec = str(models[agent]) if agent in models else agent  # anything else make_agent checks
        others = [q for q in range(n) if q != seat]
        return {q: spec for q in others}, {q: f"{level} ({agent})" for q in others}

    def _opponents(self, game: str, n: int, seat: int, given: Any) -> tuple[dict[int, str], dict[int, str]]:
        others = [q for q in range(n) if q != seat]
        if not isinstance(given, list) or len(given) != len(others) or not all(isinstance(a, str) for a in given):
            levels = ", ".join(x.name for x in difficulty.levels(game))
            raise Refused(400, f"opponents must be a list of {len(others)} agent names, one per other seat "
                          f"({', '.join(f'player_{q}' for q in others)}); got {_given(given)}"
                          + (f"; or give 'level' instead, one of {levels}" if levels else ""))
        models = self.models(game)
        shipped = self.shipped(game)
        specs, names = {}, {}
        for q, spec in zip(others, given):
            if spec == "shipped" and shipped:
                spec = shipped
            if spec in ("random", "heuristic"):
                specs[q] = names[q] = spec
            elif (m := _MCTS.fullmatch(spec)) and 1 <= int(m.group(1)) <= MAX_MCTS:
                specs[q] = names[q] = f"mcts:{int(m.group(1))}"
            elif spec in models:
                specs[q], names[q] = str(models[spec]), spec
            else:
                allowed = ["random", "heuristic", f"mcts:N (N = 1..{MAX_MCTS})", *models] + (["shipped"] if shipped else [])
                raise Refused(400, f"unknown agent {clip(spec)} for player_{q}; allowed for {game}: {', '.join(allowed)}",
                              allowed=allowed)
        return specs, names

    def make_agents(self, setup: Setup, engine: Game) -> dict[int, Any]:
        """The agents of the seats, built; a model's policy loaded once (through load_opponent:
        safetensors, checked) and shared by every table that plays it."""
        agents = {}
        for q, spec in setup.opponents.items():
            try:
                if q in setup.models:
                    policy = self.loaded.load(spec, game=engine)
                    agents[q] = PolicyAgent(policy, engine.make_observer(**policy.observation), name=setup.names[q])
                else:
                    agents[q] = make_agent(spec, engine)
            except (OpponentError, ValueError) as err:
                raise Refused(400, f"player_{q} ({setup.names[q]}): {err}") from None
        return agents


def _given(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {len(value)}: " + ", ".join(clip(v) if isinstance(v, str) else json_type(v) for v in value[:6]) \
            + (", ..." if len(value) > 6 else "")
    return json_type(value)


def _options(config_class: type) -> list[dict[str, Any]]:
    """The options of a game's Config for the form (the player count aside): name, kind, default, the
    values allowed (a list, a range, or words for a free text) and what it does."""
    out = []
    described = {name: allowed for name, _, allowed, _ in _config.describe(config_class)}
    for f in dataclasses.fields(config_class):
        if f.name == "num_players":
            continue
        allowed = f.metadata["allowed"]
        entry = {"name": f.name, "kind": type(f.default).__name__, "default": f.default, "doc": f.metadata["doc"],
                 "allowed": described[f.name]}
        if isinstance(allowed, range):
            entry["min"], entry["max"] = allowed.start, allowed.stop - 1
        elif isinstance(allowed, (tuple, list)):
            entry["choices"] = list(allowed)
        out.append(entry)
    return out
