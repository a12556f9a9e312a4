"""Difficulty levels: the opponents a player chooses by name ("easy", "medium", ...), weakest first.

Each game's levels, and the head-to-head results that order them, are in `models/levels.json` beside
the package (format "d2r-levels/1"):

    {"format": "d2r-levels/1",
     "games": {"rap_godz": {
         "levels": [{"name": "easy", "agent": "heuristic", "about": "plays by rules of thumb"}, ...],
         "results": [{"upper": "medium", "lower": "easy", "players": 2, "games": 1000,
                      "upper_share": 0.578, "upper_ci": [0.547, 0.608], "lower_share": 0.424,
                      "command": "..."}, ...]}}}

A level's `agent` is an agent spec as `d2r_envs.agents.make_agent` takes it. `results` hold one
tournament for each level and the level below it (the upper level in one seat, the lower in the others,
seats rotated over duplicate deals): the upper level's win share and its 95% interval, and the lower
level's share per seat. `training.levels` plays and records them; the tests hold every game's levels to
being strictly ordered by them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from d2r_envs import registry

FORMAT = "d2r-levels/1"
LEVELS_FILE = Path(__file__).resolve().parent.parent / "models" / "levels.json"

__all__ = ["Level", "levels", "agent_for", "results", "read", "LEVELS_FILE"]


@dataclass(frozen=True)
class Level:
    name: str
    agent: str  # an agent spec (make_agent)
    about: str  # one line for people: what kind of player it is


def read(path: str | Path | None = None) -> dict[str, Any]:
    """The levels file (default LEVELS_FILE), checked: a ValueError names what is wrong."""
    path = LEVELS_FILE if path is None else path
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not a readable levels file ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: format must be {FORMAT!r}")
    for game, entry in data.get("games", {}).items():
        registry.package(game)  # an unknown game is refused, naming the known ones
        names = [level.get("name") for level in entry.get("levels", [])]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"{path}: {game} needs one level at least, each with its own name (got {names})")
        for level in entry["levels"]:
            missing = [k for k in ("name", "agent", "about") if not isinstance(level.get(k), str) or not level[k]]
            if missing:
                raise ValueError(f"{path}: {game}'s level {level.get('name')!r} lacks {', '.join(missing)}")
    return data


@lru_cache(maxsize=None)
def _shipped() -> dict[str, Any]:
    return read()


def reload() -> None:
    """Read the levels file again at the next question (after a tool has written it)."""
    _shipped.cache_clear()


def levels(game: str) -> list[Level]:
    """`game`'s levels, weakest first (none for a game the file does not list)."""
    registry.package(game)
    entry = _shipped()["games"].get(game, {})
    return [Level(x["name"], x["agent"], x["about"]) for x in entry.get("levels", [])]


def agent_for(game: str, level: str) -> str:
    """The agent spec of `game`'s level `level`; a ValueError names the levels there are."""
    found = {x.name: x.agent for x in levels(game)}
    if level not in found:
        raise ValueError(f"unknown level {level!r} for {game}; its levels, weakest first: {', '.join(found) or 'none'}")
    return found[level]


def results(game: str) -> list[dict[str, Any]]:
    """The recorded tournaments between `game`'s adjacent levels (see the module's docstring)."""
    registry.package(game)
    return list(_shipped()["games"].get(game, {}).get("results", []))


def table(game: str) -> str:
    """`game`'s levels as a Markdown table: each with its agent and, against the level below, the
    recorded win shares and the time a move."""
    recorded = {e["upper"]: e for e in results(game)}
    agents = {x.name: x.agent for x in levels(game)}
    times = {name: ms for e in results(game) for name, ms in e["ms_per_move"].items()
             if ms is not None and e["upper_agent" if name == e["upper"] else "lower_agent"] == agents.get(name)}
    rows = ["| level | opponent | plays | against the level below: win share (95% interval) vs its share per seat | time a move |",
            "|---|---|---|---|---:|"]
    for level in levels(game):
        e = recorded.get(level.name)
        versus = ms = ""
        if e is not None and e["upper_agent"] == level.agent:
            low, high = e["upper_ci"]
            versus = (f"{e['upper_share']:.1%} ({low:.1%} to {high:.1%}) vs {e['lower']}'s {e['lower_share']:.1%}, "
                      f"{e['players']} players, {e['games']} games")
        if level.name in times:
            ms = f"{times[level.name]:.0f} ms" if times[level.name] >= 1 else "under 1 ms"
        rows.append(f"| {level.name} | `{level.agent}` | {level.about} | {versus} | {ms} |")
    return "\n".join(rows)
